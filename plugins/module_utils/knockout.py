# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Knockout markers: ``--key`` in maps, ``--item`` in base-type arrays and
``Name: --value`` in hash-array items.

A marker found in one layer removes the matching entries of the layers less
specific than it, never of its own layer (SPEC).  Markers themselves are never
copied into a result.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Sequence, Set, Tuple


def is_marker(value: Any, prefix: Optional[str]) -> bool:
    return prefix is not None and isinstance(value, str) and value.startswith(prefix)


def unmark(value: str, prefix: str) -> str:
    return value[len(prefix):]


def knockout_text(value: Any) -> Any:
    """What a marker's text is compared with: a number by its text (``--80`` knocks out 80 and '80').

    Booleans stay apart: YAML's true is not 1.
    """
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return value


def item_pattern(item: Any, tuple_keys: Sequence[str], prefix: Optional[str]) -> Optional[Dict[str, Any]]:
    """The tuple values a hash-array item knocks out, or None if it is not a knockout.

    An item is a knockout when any of its tuple-key values carries the prefix.
    The pattern holds the tuple keys the item has (all of them: a full tuple;
    some: a partial tuple, matching every item that agrees on those keys).
    """
    if prefix is None:
        return None
    pattern = {}
    marked = False
    for key in tuple_keys:
        if key in item:
            value = item[key]
            if is_marker(value, prefix):
                marked = True
                value = unmark(value, prefix)
            pattern[key] = value
    return pattern if marked else None


class TupleKnockouts:
    """Knocked-out (possibly partial) tuples; matching an item costs one set look-up per key set."""

    def __init__(self, freeze: Callable[[Any], Any]) -> None:
        self._freeze = freeze
        self._by_keys: Dict[Tuple[str, ...], Set[Tuple[Any, ...]]] = {}

    def __bool__(self) -> bool:
        return bool(self._by_keys)

    def add(self, pattern: Dict[str, Any]) -> None:
        keys = tuple(pattern)
        values = tuple(self._freeze(knockout_text(pattern[key])) for key in keys)
        self._by_keys.setdefault(keys, set()).add(values)

    def update(self, other: 'TupleKnockouts') -> None:
        for keys, values in other._by_keys.items():
            self._by_keys.setdefault(keys, set()).update(values)

    def matches(self, item: Any) -> bool:
        for keys, knocked in self._by_keys.items():
            if all(key in item for key in keys):
                if tuple(self._freeze(knockout_text(item[key])) for key in keys) in knocked:
                    return True
        return False
