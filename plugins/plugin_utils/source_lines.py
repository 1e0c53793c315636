# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Where a key path is written in a YAML file: for error messages (``key_position``, the one way to put
``file:line`` in a message) and provenance (``Positions``).

Done with PyYAML's composer rather than Ansible's origin tags, so every
supported ansible-core gives the same answer.
"""

from __future__ import annotations

import os
from typing import Any, Dict, Optional, Sequence, Tuple

import yaml

_LOADER = getattr(yaml, 'CSafeLoader', yaml.SafeLoader)
"""libyaml's composer where PyYAML has it (several times faster; the same lines and columns)."""


class Positions:
    """Lines and columns of key paths in YAML files, each file composed once (per size and mtime)."""

    def __init__(self, case_insensitive: bool = False) -> None:
        self._nodes: Dict[str, Tuple[Tuple[int, int], Any]] = {}
        self._case_insensitive = case_insensitive

    def position(self, path: str, keys: Sequence[Any], deepest: bool = False) -> Tuple[Optional[int], Optional[int]]:
        """(line, column), 1-based, of the key or list item at ``keys`` in the file (a list item: its first line);
        (None, None) when unknown, or with ``deepest`` that of the deepest of the keys found."""
        return self.span(path, keys, deepest)[:2]

    def span(self, path: str, keys: Sequence[Any],
             deepest: bool = False) -> Tuple[Optional[int], Optional[int], Optional[int]]:
        """``position`` and the last line of the value there (a block value's last line)."""
        node = self._root(path)
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

    def _root(self, path: str) -> Any:
        try:
            stat = os.stat(path)
        except OSError:
            return None
        stamp = (stat.st_size, stat.st_mtime_ns)
        kept = self._nodes.get(path)
        if kept is not None and kept[0] == stamp:
            return kept[1]
        try:
            with open(path, encoding='utf-8') as stream:
                node = yaml.compose(stream, Loader=_LOADER)
        except (OSError, UnicodeDecodeError, yaml.YAMLError):
            node = None
        self._nodes[path] = (stamp, node)
        return node


def line_of(path: str, keys: Sequence[Any]) -> Optional[int]:
    """1-based line of the deepest of ``keys`` found in the file, or None."""
    return Positions().position(path, keys, deepest=True)[0]


def key_position(path: str, keys: Sequence[str]) -> str:
    """``file:line`` when the line is known, else the file."""
    line = line_of(path, keys)
    return '%s:%d' % (path, line) if line else path
