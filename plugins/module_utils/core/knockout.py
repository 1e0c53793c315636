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

from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.identity import opaque_identity


def is_marker(value: Any, prefix: Optional[str]) -> bool:
    return prefix is not None and isinstance(value, str) and value.startswith(prefix)


def unmark(value: str, prefix: str) -> str:
    return value[len(prefix):]


def knockout_text(value: Any) -> Any:
    """What a marker's text is compared with: a number by its text (``--80`` knocks out 80 and '80').

    Booleans stay apart: YAML's true is not 1.  An opaque value (a vault value) compares by its
    identity, which no marker's text equals.
    """
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    opaque = opaque_identity(value)
    return value if opaque is None else opaque


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

    def matches(self, item: Any) -> bool:
        for keys, knocked in self._by_keys.items():
            if all(key in item for key in keys):
                if tuple(self._freeze(knockout_text(item[key])) for key in keys) in knocked:
                    return True
        return False


def knocks(marker: Any, item: Any, tuple_keys: Sequence[str], prefix: Optional[str],
           freeze: Callable[[Any], Any]) -> bool:
    """Whether the knockout item ``marker`` knocks out ``item`` (both as tuples read them); for provenance, which
    names the marker of each item knocked out."""
    pattern = item_pattern(marker, tuple_keys, prefix)
    if pattern is None:
        return False
    knocked = TupleKnockouts(freeze)
    knocked.add(pattern)
    return knocked.matches(item)


def folded_view(item: Any, fold: Callable[[Any], Any]) -> Dict[Any, Any]:
    """The item keyed by folded keys, as a merged map reads it: of two keys that fold alike, the first
    written with a value (not null) wins."""
    view: Dict[Any, Any] = {}
    for key, value in item.items():
        folded = fold(key)
        if view.get(folded) is None:
            view[folded] = value
    return view


class ItemKnockouts:
    """Hash-array items read as knockouts, layer by layer (most specific first).

    ``fold``, given when keys are case-insensitive, is how keys compare; ``freeze`` how tuple values do.
    """

    def __init__(self, tuple_keys: Sequence[str], prefix: Optional[str], freeze: Callable[[Any], Any],
                 fold: Optional[Callable[[Any], Any]] = None) -> None:
        self.keys = tuple(fold(key) for key in tuple_keys) if fold else tuple(tuple_keys)
        self._prefix = prefix
        self._fold = fold
        self.folds = fold is not None
        """Whether an item's view differs from the item (keys folded)."""
        self._knocked = TupleKnockouts(freeze)
        self._layer: List[Dict[str, Any]] = []

    def view(self, item: Any) -> Any:
        """The item as knockouts and tuples read it."""
        return item if self._fold is None else folded_view(item, self._fold)

    def is_marker(self, view: Any) -> bool:
        """Whether the item is a knockout; its tuple is knocked out once the layer ends."""
        prefix = self._prefix
        if prefix is None:
            return False
        for key in self.keys:
            value = view.get(key)
            if isinstance(value, str) and value.startswith(prefix):
                break
        else:
            return False    # the hot path: no tuple value carries the prefix
        pattern = item_pattern(view, self.keys, prefix)
        if pattern is None:
            return False
        self._layer.append(pattern)
        return True

    def any_knocked(self) -> bool:
        """Whether a less specific item can be knocked out yet (known at the start of each layer)."""
        return bool(self._knocked)

    def knocked_out(self, view: Any) -> bool:
        return bool(self._knocked) and self._knocked.matches(view)

    def end_layer(self) -> None:
        for pattern in self._layer:
            self._knocked.add(pattern)
        self._layer = []
