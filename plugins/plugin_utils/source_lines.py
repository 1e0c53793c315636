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
from typing import Any, Dict, Optional, Sequence, Set, Tuple

import yaml

from ansible_collections.strata.hier.plugins.plugin_utils.parse import redefines_anchor, unique_anchors

_LOADER = getattr(yaml, 'CSafeLoader', yaml.SafeLoader)
"""libyaml's composer where PyYAML has it (several times faster; the same lines and columns)."""


class Positions:
    """Lines and columns of key paths in YAML files, each file composed once per change (size and mtime) into a
    table of the spans of all its key paths (``_Spans``): provenance asks for the same places for every host.

    Within a pass (``begin_pass``: one lookup call, one inventory parse) a file is checked for changes once.
    """

    def __init__(self, case_insensitive: bool = False) -> None:
        # file -> its stamp, spans and the callers' memos (``memo``)
        self._files: Dict[str, Tuple[Tuple[int, int], _Spans, Dict[Any, Any]]] = {}
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
        memos = (self._checked.get(path) or self._entry(path))[2]
        found = memos.get(key)
        if found is None:
            found = memos[key] = {}
        return found

    def span(self, path: str, keys: Sequence[Any],
             deepest: bool = False) -> Tuple[Optional[int], Optional[int], Optional[int]]:
        """``position`` and the last line of the value there (a block value's last line)."""
        return (self._checked.get(path) or self._entry(path))[1].span(keys, deepest)

    def _entry(self, path: str) -> Tuple[Tuple[int, int], '_Spans', Dict[Any, Any]]:
        try:
            stat = os.stat(path)
            stamp = (stat.st_size, stat.st_mtime_ns)
        except OSError:
            stamp = (-1, -1)
        entry = self._files.get(path)
        if entry is None or entry[0] != stamp:
            node = _compose(path) if stamp[0] >= 0 else None
            entry = self._files[path] = (stamp, _Spans(node, self._case_insensitive), {})
        self._checked[path] = entry
        return entry


_NO_SPAN: Tuple[None, None, None] = (None, None, None)


class _Spans:
    """The spans of every key path of a composed YAML document, the nodes let go: plain tuples are all a cache
    of a thousand files keeps (no node, mark or dict per value for the cycle collector to walk again and again).

    A path holds key texts (of a map's scalar keys: the first of equal ones) and item indexes; a span is (line, column
    of the key or item, the last line of its value), 1-based. A path reaching a map or list met before (a YAML alias)
    is linked to where it was first met (``links``) and read there, as the composed graph would be walked."""

    def __init__(self, node: Any, case_insensitive: bool) -> None:
        self.spans: Dict[Tuple[Any, ...], Tuple[int, int, int]] = {}
        self.lists: Set[Tuple[Any, ...]] = set()        # paths holding a sequence (the others hold maps)
        self.links: Dict[Tuple[Any, ...], Tuple[Any, ...]] = {}
        self.folded: Optional[Dict[Tuple[Any, ...], Tuple[Any, ...]]] = {} if case_insensitive else None
        self.maps: Set[Tuple[Any, ...]] = set()
        if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
            self._add(node)

    def _add(self, root: Any) -> None:
        seen: Dict[int, Tuple[Any, ...]] = {}
        pending = [(root, ())]
        while pending:
            node, path = pending.pop()
            if id(node) in seen:
                self.links[path] = seen[id(node)]
                continue
            seen[id(node)] = path
            if isinstance(node, yaml.SequenceNode):
                self.lists.add(path)
                children = [(index, item, item) for index, item in enumerate(node.value)]
            else:
                self.maps.add(path)
                children = [(key.value, key, value) for key, value in node.value
                            if isinstance(key, yaml.ScalarNode)]
            for part, first, value in children:
                child = path + (part,)
                if child in self.spans:
                    continue        # a key written twice: the first, as a walk of the map finds it
                mark, end = first.start_mark, value.end_mark
                self.spans[child] = (mark.line + 1, mark.column + 1,
                                     max(mark.line + 1, end.line + (1 if end.column else 0)))
                if self.folded is not None and not isinstance(part, int):
                    self.folded.setdefault(path + (part.casefold(),), child)
                if isinstance(value, (yaml.MappingNode, yaml.SequenceNode)):
                    pending.append((value, child))

    def span(self, keys: Sequence[Any], deepest: bool) -> Tuple[Optional[int], Optional[int], Optional[int]]:
        path: Optional[Tuple[Any, ...]] = ()
        found: Tuple[Optional[int], Optional[int], Optional[int]] = _NO_SPAN
        for key in keys:
            path = self._child(path, key)
            if path is None:
                return found if deepest else _NO_SPAN
            found = self.spans[path]
        return found

    def _child(self, path: Tuple[Any, ...], key: Any) -> Optional[Tuple[Any, ...]]:
        """The path of ``key`` in the map or list at ``path`` (an alias read where it was first met); None."""
        path = self.links.get(path, path)
        if path in self.lists:
            child = path + (key,) if isinstance(key, int) and key >= 0 else None
        elif path in self.maps:
            child = path + (str(key),)
            if child not in self.spans and self.folded is not None:
                child = self.folded.get(path + (str(key).casefold(),))
        else:
            return None
        return child if child is not None and child in self.spans else None


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
