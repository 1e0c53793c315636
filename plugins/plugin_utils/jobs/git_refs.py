# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""A data repository at two git refs, for the rsop diff: each ref's files in a folder of their own (the work tree is
never touched), and the lines ``git diff`` says changed.

git runs with arguments only (no shell), with the ref checked by ``git rev-parse --verify`` first; a ref that
starts with ``-`` is refused (it would read as an option).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tarfile
import tempfile
from typing import Any, Dict, List, Optional, Set, Tuple

from ansible.errors import AnsibleError

from ansible_collections.strata.hier.plugins.plugin_utils.compat import CompleteMessage

_HUNK = re.compile(r'^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@')
WORK_TREE = None
"""The head of a diff that is the work tree as it is (tracked and untracked files, not ignored ones)."""


class GitError(CompleteMessage, AnsibleError):
    """git could not answer: not a repository, an unknown ref."""


class Changes:
    """What ``git diff base head`` changed: per file (relative to the repository's top), the line numbers changed on
    each side, and the files added and deleted."""

    def __init__(self) -> None:
        self.base_lines: Dict[str, Set[int]] = {}
        self.head_lines: Dict[str, Set[int]] = {}
        self.removed_lines: Dict[str, Set[int]] = {}
        """Base lines of hunks that only delete: lines that are gone, not changed."""
        self.added: Set[str] = set()
        self.deleted: Set[str] = set()

    @property
    def files(self) -> Set[str]:
        return set(self.base_lines) | set(self.head_lines) | self.added | self.deleted


def git(repo: str, *arguments: str) -> str:
    try:
        done = subprocess.run(['git', '-C', repo] + list(arguments), capture_output=True, check=False)
    except OSError as exc:
        raise GitError('strata.hier rsop diff: cannot run git: %s' % exc) from exc
    if done.returncode != 0:
        raise GitError('strata.hier rsop diff: git %s: %s' % (' '.join(arguments),
                                                              done.stderr.decode('utf-8', 'replace').strip()))
    return done.stdout.decode('utf-8', 'surrogateescape')


def top_level(folder: str) -> str:
    """The top of the git work tree holding ``folder``."""
    return os.path.realpath(git(folder, 'rev-parse', '--show-toplevel').strip())


def commit_of(repo: str, ref: str) -> str:
    """The commit a ref names (a GitError naming it when there is none)."""
    if not ref or ref.startswith('-'):
        raise GitError('strata.hier rsop diff: %r is no git ref' % ref)
    return git(repo, 'rev-parse', '--verify', '--quiet', '%s^{commit}' % ref).strip()


def materialise(repo: str, commit: str, into: str) -> str:
    """The files of ``commit`` extracted into the folder ``into`` (links and special files left out)."""
    archive = os.path.join(into, '.archive.tar')
    with open(archive, 'wb') as stream:
        done = subprocess.run(['git', '-C', repo, 'archive', '--format=tar', commit], stdout=stream,
                              stderr=subprocess.PIPE, check=False)
    if done.returncode != 0:
        raise GitError('strata.hier rsop diff: git archive %s: %s' % (commit, done.stderr.decode('utf-8', 'replace')))
    tree = os.path.join(into, 'tree')
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            if member.name.startswith('/') or '..' in member.name.split('/'):
                raise GitError('strata.hier rsop diff: %s holds the path %r' % (commit, member.name))
        try:    # links too (the store follows those that stay inside its folder), none leading out of the tree
            tar.extractall(tree, filter='data')
        except (tarfile.FilterError, OSError) as exc:
            raise GitError('strata.hier rsop diff: %s: %s' % (commit, exc)) from exc
    os.unlink(archive)
    return tree


def changed_lines(repo: str, base: str, head: Optional[str], paths: List[str]) -> Changes:
    """The lines ``git diff`` changes from ``base`` to ``head`` (WORK_TREE: the work tree, untracked files as
    added) in ``paths`` (files and folders relative to the repository's top)."""
    arguments = ['diff', '--no-color', '--no-ext-diff', '--no-renames', '-U0', base] + ([head] if head else [])
    changes = Changes()
    _read_diff(git(repo, *(arguments + ['--'] + paths)), changes)
    if head is WORK_TREE:
        for name in git(repo, 'ls-files', '--others', '--exclude-standard', '-z', '--', *paths).split('\0'):
            if name:
                changes.added.add(name)
                changes.head_lines[name] = _all_lines(os.path.join(repo, name))
    return changes


def _read_diff(text: str, changes: Changes) -> None:
    old = new = None
    for line in text.splitlines():
        if line.startswith('--- '):
            old = None if line == '--- /dev/null' else line[6:]
        elif line.startswith('+++ '):
            new = None if line == '+++ /dev/null' else line[6:]
            if old is None and new is not None:
                changes.added.add(new)
            if new is None and old is not None:
                changes.deleted.add(old)
        else:
            match = _HUNK.match(line)
            if match:
                _note_hunk(match, old, new, changes)


def _note_hunk(match: Any, old: Optional[str], new: Optional[str], changes: Changes) -> None:
    """A hunk's lines on each side (a count of 0: an insertion or a deletion, no line on that side)."""
    if old is not None:
        start, count = int(match.group(1)), int(match.group(2) or 1)
        changes.base_lines.setdefault(old, set()).update(range(start, start + count))
        if new is None or match.group(4) == '0':
            changes.removed_lines.setdefault(old, set()).update(range(start, start + count))
    if new is not None:
        start, count = int(match.group(3)), int(match.group(4) or 1)
        changes.head_lines.setdefault(new, set()).update(range(start, start + count))


def _all_lines(path: str) -> Set[int]:
    try:
        with open(path, 'rb') as stream:
            return set(range(1, len(stream.read().splitlines()) + 1))
    except OSError:
        return set()


class Trees:
    """The repository's files at the base ref and at the head (a ref, or the work tree itself); a context manager
    that removes the extracted copies."""

    def __init__(self, folder: str, base: str, head: Optional[str] = WORK_TREE) -> None:
        self.repo = top_level(folder)
        self.base, self.head = base, head
        self.base_commit = commit_of(self.repo, base)
        self.head_commit = commit_of(self.repo, head) if head is not WORK_TREE else None
        self._scratch: Optional[str] = None
        self.roots: Tuple[str, str] = ('', '')

    def __enter__(self) -> 'Trees':
        self._scratch = tempfile.mkdtemp(prefix='strata-rsop-diff-')
        base_root = materialise(self.repo, self.base_commit, _made(self._scratch, 'base'))
        head_root = self.repo if self.head_commit is None else \
            materialise(self.repo, self.head_commit, _made(self._scratch, 'head'))
        self.roots = (base_root, head_root)
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._scratch:
            shutil.rmtree(self._scratch, ignore_errors=True)

    def changes(self, paths: List[str]) -> Changes:
        """What changed in ``paths`` (relative to the repository's top: the configuration, the data folders)."""
        return changed_lines(self.repo, self.base_commit, self.head_commit, paths)

    def names(self) -> List[str]:
        """The refs as the report names them."""
        return [self.base, self.head or 'work tree']


def _made(parent: str, name: str) -> str:
    path = os.path.join(parent, name)
    os.mkdir(path)
    return path
