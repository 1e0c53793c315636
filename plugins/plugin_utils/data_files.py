# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Reading one untrusted data or configuration file: limits before parsing, and errors naming the file and line.

The text is parsed by parse.py where it can be, else by Ansible's DataLoader (vault and Ansible's tags), so
``load_untrusted`` gives DataLoader's values either way. A file nesting deeper than ``MAX_NESTING`` is refused
before any parser recurses into it, and every failure is reported the same on every ansible-core. A file defining
an anchor again is read as YAML 1.2 reads it (parse.py's ``unique_anchors``), by DataLoader too.
"""

from __future__ import annotations

import re
import sys
from typing import Any, Optional, Tuple

import yaml

from ansible.errors import AnsibleError
from ansible.module_utils.common.text.converters import to_native, to_text
from ansible.parsing.vault import is_encrypted_file

from ansible_collections.strata.hier.plugins.plugin_utils.compat import LOADER_NO_CACHE
from ansible_collections.strata.hier.plugins.plugin_utils.parse import (
    NEEDS_DATALOADER, parse, redefines_anchor, unique_anchors,
)
from ansible_collections.strata.hier.plugins.plugin_utils.source_lines import file_line, mark_position

MAX_NESTING = 500
"""Deepest nesting a data file may have; Ansible's parser fails from about this depth anyway (Python's recursion
limit), and its C parser (libyaml) crashes the whole process (a segmentation fault) from ~20,000."""
_NESTING_MARKS_CHECKED = 1000    # fewer marks than this cannot nest deep enough to crash: no check

_NESTING_MARKS = (b'[', b'{', b'- ', b'? ')


def load_untrusted(loader: Any, path: str, error: type, dataloader: bool = True) -> Any:
    """A data or configuration file through DataLoader; ``error`` naming the file (and line) when it cannot be.

    ``dataloader=False``: NEEDS_DATALOADER where only DataLoader can read the file (the preload callback leaves
    such a file, which DataLoader may warn about, to the lookup that reads it).
    """
    checked = []

    def check(raw: bytes) -> None:
        refuse_deep_nesting(path, error, raw)
        checked.append(path)
    data = parse(path, loader, check)     # the same values, faster; DataLoader where the file needs it
    if data is not NEEDS_DATALOADER or not dataloader:
        return data
    if not checked:     # the parser gave up before reading the file
        refuse_deep_nesting(path, error)
    try:
        return _dataloader(loader, path)
    except Exception as exc:  # pylint: disable=broad-except  # any failure to read an untrusted file names it
        raise error(unreadable(path, exc)) from exc


def _dataloader(loader: Any, path: str) -> Any:
    """DataLoader's data of the file; a file defining an anchor again (which its composer refuses) read again with
    each definition renamed, its text decrypted as DataLoader decrypts a whole-file vaulted one."""
    try:
        return loader.load_from_file(path, cache=LOADER_NO_CACHE, unsafe=True)
    except Exception as exc:  # pylint: disable=broad-except  # the caller names the file
        unique = _unique_anchors_text(loader, path) if any(redefines_anchor(cause) for cause in _causes(exc)) else None
        if unique is None:
            raise
    return loader.load(unique[0], file_name=path, show_content=unique[1])


def _unique_anchors_text(loader: Any, path: str) -> Optional[Tuple[str, bool]]:
    """(the file's text as DataLoader reads it, each anchor defined again renamed; whether DataLoader may show it),
    or None."""
    contents = getattr(loader, '_get_file_contents', None)     # ansible-core 2.16 to 2.19 at least: vault decrypted
    if contents is None:
        return None
    raw, show_content = contents(path)
    unique = unique_anchors(to_text(raw, errors='surrogate_or_strict'))
    return None if unique is None else (unique, show_content)


def refuse_deep_nesting(path: str, error: type, raw: Optional[bytes] = None) -> None:
    """Refuse a file nesting deeper than MAX_NESTING before libyaml can crash on it. Only a file holding that many
    nesting marks can, and only such a file is parsed (by PyYAML's pure-Python parser, which does not recurse).
    ``raw``: the file's bytes, when the caller has read them."""
    if raw is None:
        with open(path, 'rb') as stream:
            raw = stream.read()
    if sum(raw.count(mark) for mark in _NESTING_MARKS) <= _NESTING_MARKS_CHECKED:
        return
    depth = 0
    try:
        for event in yaml.parse(raw, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_NESTING:
                    raise error('%s: the data nests deeper than %d levels'
                                % (file_line(path, event.start_mark.line + 1), MAX_NESTING))
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError:
        return      # not YAML (or vault ciphertext): DataLoader says what is wrong


def unreadable(path: str, exc: BaseException) -> str:
    """Why a data file could not be loaded, naming it (and the line where there is one), the same on every
    ansible-core: their messages differ, 2.16's vault errors name no file and its YAML errors come as an
    "unhandled exception"."""
    with open(path, 'rb') as stream:
        raw = stream.read()
    try:
        text = raw.decode('utf-8')
    except UnicodeDecodeError as error:
        return '%s is not UTF-8 text (byte 0x%02x at offset %d); save it as UTF-8' % (
            path, raw[error.start], error.start)
    causes = list(_causes(exc))
    marked = next((cause for cause in causes if isinstance(cause, yaml.MarkedYAMLError) and cause.problem_mark), None)
    if marked is not None:
        context = ' (%s)' % marked.context if marked.context else ''
        return '%s: %s%s' % (mark_position(path, marked.problem_mark), marked.problem, context)
    if any(isinstance(cause, RecursionError) for cause in causes):
        return '%s: the data nests too deep to be read' % path
    digits = re.search(r'\d{%d,}' % (_max_int_digits() + 1), text)
    if digits and any(isinstance(cause, ValueError) for cause in causes):
        return '%s: a number of %d digits; Python reads at most %d (quote it to make it a string)' % (
            file_line(path, text.count('\n', 0, digits.start()) + 1), len(digits.group()), _max_int_digits())
    return '%s: %s' % (path, _message(causes[-1] if isinstance(exc, AnsibleError) and len(causes) > 1 else exc))


def _causes(exc: BaseException) -> Any:
    """The exception and what caused it (Ansible's orig_exc, ``raise ... from``, the exception being handled)."""
    seen = set()
    while exc is not None and id(exc) not in seen and len(seen) < 10:
        seen.add(id(exc))
        yield exc
        exc = getattr(exc, 'orig_exc', None) or exc.__cause__ or exc.__context__


def _message(exc: BaseException) -> str:
    return getattr(exc, 'message', None) or to_native(exc) or type(exc).__name__


def _max_int_digits() -> int:
    return getattr(sys, 'get_int_max_str_digits', lambda: 4300)() or 4300


def whole_file_vaulted(path: str) -> bool:
    """Whether the file is vaulted as a whole (its values are plain once loaded)."""
    with open(path, 'rb') as stream:
        return is_encrypted_file(stream)
