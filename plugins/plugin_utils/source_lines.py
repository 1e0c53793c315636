# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Where a key path is written in a YAML file: for error messages (``key_position``, the one way to put
``file:line`` in a message) and provenance (``Positions``); ``file_line``, the one formatter of a place whose line is
known otherwise (a parser's mark, a line counted), which ``key_position`` uses too.

Done with PyYAML's composer rather than Ansible's origin tags, so every
supported ansible-core gives the same answer.
"""

from __future__ import annotations

import os
from typing import Any, Dict, Optional, Sequence, Tuple

import yaml

from ansible_collections.strata.hier.plugins.plugin_utils.parse import redefines_anchor, unique_anchors

_LOADER = getattr(yaml, 'CSafeLoader', yaml.SafeLoader)
"""libyaml's composer where PyYAML has it (several times faster; the same lines and columns)."""


class Positions:
    """Lines and columns of key paths in YAML files, each file composed once per change (size and mtime), each key
    path walked once: provenance asks for the same places for every host.

    Within a pass (``begin_pass``: one lookup call, one inventory parse) a file is checked for changes once.
    """

    def __init__(self, case_insensitive: bool = False) -> None:
        # file -> its stamp, root node, spans (per key path) and the callers' memos (``memo``)
        self._files: Dict[str, Tuple[Tuple[int, int], Any, Dict[Any, Any], Dict[Any, Any]]] = {}
        self._checked: Dict[str, Any] = {}      # this pass: file -> its entry of _files
        self._case_insensitive = case_insensitive

    def begin_pass(self) -> None:
        self._checked = {}

    def position(self, path: str, keys: Sequence[Any], deepest: bool = False) -> Tuple[Optional[int], Optional[int]]:
        """(line, column), 1-based, of the key or list item at ``keys`` in the file (a list item: its first line);
        (None, None) when unknown, or with ``deepest`` that of the deepest of the keys found."""
        return self.span(path, keys, deepest)[:2]

    def memo(self, path: str, key: Any) -> Dict[Any, Any]:
        """A dict for what a caller works out from the file's positions, one per ``key``, emptied when the file
        changes (provenance: where each place of a layer is, for every host reading the file)."""
        memos = (self._checked.get(path) or self._entry(path))[3]
        found = memos.get(key)
        if found is None:
            found = memos[key] = {}
        return found

    def span(self, path: str, keys: Sequence[Any],
             deepest: bool = False) -> Tuple[Optional[int], Optional[int], Optional[int]]:
        """``position`` and the last line of the value there (a block value's last line)."""
        entry = self._checked.get(path) or self._entry(path)
        try:
            memo = (tuple(keys), deepest)
            found = entry[2].get(memo)
        except TypeError:       # an unhashable key: walked each time
            memo = found = None
        if found is None:
            found = self._walk(entry[1], keys, deepest)
            if memo is not None:
                entry[2][memo] = found
        return found

    def _walk(self, node: Any, keys: Sequence[Any], deepest: bool) -> Tuple[Optional[int], Optional[int], Optional[int]]:
        mark = None
        for key in keys:
            if isinstance(node, yaml.SequenceNode) and isinstance(key, int) and 0 <= key < len(node.value):
                node = node.value[key]
                mark = node.start_mark
                continue
            match = self._key(node, key) if isinstance(node, yaml.MappingNode) else None
            if match is None:
                mark = mark if deepest else None
                break
            mark, node = match[0].start_mark, match[1]
        if mark is None:
            return (None, None, None)
        end = node.end_mark
        return (mark.line + 1, mark.column + 1, max(mark.line + 1, end.line + (1 if end.column else 0)))

    def _key(self, node: Any, key: Any) -> Optional[Tuple[Any, Any]]:
        text = str(key)
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.value == text:
                return key_node, value_node
        if self._case_insensitive:
            folded = text.casefold()
            for key_node, value_node in node.value:
                if isinstance(key_node, yaml.ScalarNode) and key_node.value.casefold() == folded:
                    return key_node, value_node
        return None

    def _entry(self, path: str) -> Tuple[Tuple[int, int], Any, Dict[Any, Any], Dict[Any, Any]]:
        try:
            stat = os.stat(path)
            stamp = (stat.st_size, stat.st_mtime_ns)
        except OSError:
            stamp = (-1, -1)
        entry = self._files.get(path)
        if entry is None or entry[0] != stamp:
            entry = self._files[path] = (stamp, _compose(path) if stamp[0] >= 0 else None, {}, {})
        self._checked[path] = entry
        return entry


def _compose(path: str) -> Any:
    try:
        with open(path, encoding='utf-8') as stream:
            text = stream.read()
        try:
            return yaml.compose(text, Loader=_LOADER)
        except yaml.composer.ComposerError as exc:     # an anchor defined again: as the data was read (parse.py)
            unique = unique_anchors(text) if redefines_anchor(exc) else None
            if unique is None:
                raise
            return yaml.compose(unique, Loader=_LOADER)
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None


def line_of(path: str, keys: Sequence[Any]) -> Optional[int]:
    """1-based line of the deepest of ``keys`` found in the file, or None."""
    return Positions().position(path, keys, deepest=True)[0]


def key_position(path: str, keys: Sequence[Any]) -> str:
    """``file:line`` when the line is known, else the file."""
    return file_line(path, line_of(path, keys))


def file_line(path: str, line: Optional[int], column: Optional[int] = None) -> str:
    """``file:line`` (``file:line:column``), 1-based, as every message names a place; the file alone when the line
    is unknown (None or 0)."""
    if not line:
        return path
    return '%s:%d:%d' % (path, line, column) if column else '%s:%d' % (path, line)


def mark_position(path: str, mark: Any) -> str:
    """``file:line:column`` of a YAML parser's (0-based) mark, such as a parse error's ``problem_mark``."""
    return file_line(path, mark.line + 1, mark.column + 1) if mark is not None else path
