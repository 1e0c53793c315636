# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Hash arrays (non-empty lists whose items are all maps): ``MostSpecific``, ``Sum``, ``UniqueKeyValTuples``
(one item per tuple, the most specific one whole), ``DeepTuple`` (the items of one tuple merged key by key,
recursively, whatever merge_hash says).

Items are matched by the values of their tuple keys, hashed, so merging is linear in the number of items.
Order: the most specific layer's items first, then the items of less specific layers whose tuple was not
seen yet.  An item without any of the tuple keys is kept as it is, unmatched; a missing tuple key counts
as a value of its own.  With case-insensitive keys, tuple keys and tuple values compare case-insensitively.

For ACM's sequences (sequence.py): matching by all scalar values (``match_items_by: scalar_values``: sets
without a primary key), and the least specific layer's items first (``array_order: general_first``; a matched
item stays where its most specific occurrence is).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, AbstractSet, Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.errors import StrategyError
from ansible_collections.strata.hier.plugins.module_utils.core.kinds import FAST_PATHS, LIST, SCALAR, family_of
from ansible_collections.strata.hier.plugins.module_utils.core.knockout import is_marker, knocks
from ansible_collections.strata.hier.plugins.module_utils.core.limits import MAX_DEPTH, too_deep
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.base import (
    DEFAULT_TUPLE_KEYS, GENERAL_FIRST, MOST_SPECIFIC, ORDERS, SPECIFIC_FIRST, Merger,
    canonical_name, general_first,
)
from ansible_collections.strata.hier.plugins.module_utils.core.paths import fold_text
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.maps import may_hold_markers
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.scalar_lists import SUM

if TYPE_CHECKING:
    from ansible_collections.strata.hier.plugins.module_utils.core.merging import MergeRun
    from ansible_collections.strata.hier.plugins.module_utils.core.strategy import MergeStrategy

UNIQUE_KEY_VAL_TUPLES = 'UniqueKeyValTuples'
DEEP_TUPLE = 'DeepTuple'
TUPLE_MODES = (UNIQUE_KEY_VAL_TUPLES, DEEP_TUPLE)
BY_TUPLE_KEYS = 'tuple_keys'
BY_SCALAR_VALUES = 'scalar_values'
MATCH_MODES = (BY_TUPLE_KEYS, BY_SCALAR_VALUES)
_MISSING = object()


class HashArrayMerger(Merger):
    """Lists of maps."""

    SETTING = 'merge_hash_array'
    MODES = (MOST_SPECIFIC, SUM, UNIQUE_KEY_VAL_TUPLES, DEEP_TUPLE)
    OPTIONS = {'order': 'array_order', 'match': 'match_items_by'}
    VALUES = 'hash array'

    tuple_keys: Tuple[str, ...] = DEFAULT_TUPLE_KEYS
    match: str = BY_TUPLE_KEYS
    order: str = SPECIFIC_FIRST
    case_insensitive: bool = False

    def _settle(self) -> None:
        self.settle('match', canonical_name(self.match, MATCH_MODES, 'merge option match_items_by value'))
        self.settle('order', canonical_name(self.order, ORDERS, 'merge option array_order value'))
        if self.mode in TUPLE_MODES and not self.tuple_keys and self.match == BY_TUPLE_KEYS:
            raise StrategyError('merge_hash_array %s needs merge_options.tuple_keys' % self.mode)

    def explained(self) -> Dict[str, Any]:
        explained = super().explained()
        if self.mode in TUPLE_MODES and self.match == BY_TUPLE_KEYS:
            explained['tuple_keys'] = list(self.tuple_keys)
        return explained

    def merge(self, run: MergeRun, path: Tuple[Any, ...], values: List[Any], strategy: MergeStrategy,
              depth: int) -> list:
        if depth > MAX_DEPTH:
            raise too_deep(path)
        items_strategy = strategy.deep_items if self.mode == DEEP_TUPLE else strategy.whole
        maps = items_strategy.maps
        groups = self.groups(run, values[self.takes], path)
        if run.provenance is not None:
            return self._merge_noted(run, path, groups, items_strategy, depth)
        if maps.takes_one:
            result = [maps.merge(run, path, group[:1], items_strategy, depth + 1) for group in groups]
        elif maps.keys_as_written:
            result = maps.merge_each(run, path, groups, items_strategy, depth + 1)
        else:
            result = [maps.merge(run, path, group, items_strategy, depth + 1) for group in groups]
        run.budget.spend(len(result), path)
        return result

    def _merge_noted(self, run: MergeRun, path: Tuple[Any, ...], groups: List[List[Any]],
                     items_strategy: MergeStrategy, depth: int) -> list:
        """merge with provenance: each item's keys noted under its index, the item under the places of its group."""
        provenance, maps = run.provenance, items_strategy.maps
        result = []
        for index, group in enumerate(groups):
            item = provenance.whole(run, path, group[0], maps, depth + 1, index) if len(group) == 1 else None
            if item is None:        # not an item of one layer, maps and scalars only: key by key
                provenance.enter_item(path, index)
                try:
                    item = maps.merge(run, path, group[:1] if maps.takes_one else group, items_strategy, depth + 1)
                finally:
                    provenance.leave_item()
            provenance.item(path + (index,), provenance.place_of(group[0]), item,
                            [provenance.place_of(other) for other in group[1:]])
            result.append(item)
        run.budget.spend(len(result), path)
        return result

    def groups(self, run: MergeRun, lists: Sequence[Sequence[Any]], path: Tuple[Any, ...] = ()) -> List[List[Any]]:
        """Group the items of several hash arrays (most specific first) into result items.

        Each group lists the items, most specific first, that make one item of the result;
        knocked-out items and knockout markers are left out.
        """
        knockouts = run.item_knockouts(self)
        identify = self._identifier(run, knockouts.keys)
        fast_key = self._fast_tuple_key(knockouts.keys) if FAST_PATHS.on else None     # provenance too: no marker
        groups: Dict[Any, List[Any]] = {}
        ordered: List[List[Any]] = []
        starts: List[int] = []
        noted = None if run.provenance is None else _NotedKnockouts(run, self, knockouts)
        for items in lists:
            starts.append(len(ordered))
            identified = None if fast_key is None else _fast_identities(items, fast_key, self.knockout_prefix, knockouts)
            for item, identity in identified or _identified(items, knockouts, identify, noted):
                if identity is None:
                    ordered.append([item])
                    continue
                group = groups.get(identity)
                if group is None:
                    groups[identity] = group = [item]
                    ordered.append(group)
                else:
                    group.append(item)
            knockouts.end_layer()
        if noted is not None:
            noted.note(run.provenance, path)
        if self.order == GENERAL_FIRST and len(starts) > 1:
            return general_first(ordered, starts)
        return ordered

    def _fast_tuple_key(self, keys: Tuple[Any, ...]) -> Optional[Any]:
        """The tuple key when it is one and compares as written: layers may then be identified in C."""
        if self.mode in TUPLE_MODES and self.match == BY_TUPLE_KEYS and len(keys) == 1 and not self.case_insensitive:
            return keys[0]
        return None

    def _identifier(self, run: MergeRun, keys: Tuple[Any, ...]) -> Callable[[Any, Any], Any]:
        """How an item is identified: (item, its view) -> a hashable identity, or None (unmatched)."""
        if self.mode not in TUPLE_MODES:
            return _unmatched
        freeze = run.tuple_freezer(self.case_insensitive)
        if self.match == BY_SCALAR_VALUES:
            fold = fold_text if self.case_insensitive else _same
            prefix = self.knockout_prefix
            return lambda item, view: scalar_identity(item, freeze, fold, prefix)
        if len(keys) == 1 and not self.case_insensitive:     # else tuple values fold: freeze them all
            return functools.partial(_one_key_tuple, keys[0], freeze, FAST_PATHS.plain_scalars)
        return lambda item, view: item_tuple(view, keys, freeze)


def _identified(items: Sequence[Any], knockouts: Any, identify: Callable[[Any, Any], Any],
                noted: Optional['_NotedKnockouts'] = None) -> Iterator[Tuple[Any, Any]]:
    """(item, identity) of a layer's items; knockout markers and knocked-out items are left out (and noted)."""
    view_of = knockouts.view if knockouts.folds else None    # None: an item is its own view
    knocked_out = knockouts.knocked_out if knockouts.any_knocked() else None    # changes only between layers
    for position, item in enumerate(items):
        view = item if view_of is None else view_of(item)
        if knockouts.is_marker(view):
            if noted is not None:
                noted.markers.append((items, position, view))
            continue
        if knocked_out is not None and knocked_out(view):
            if noted is not None:
                noted.removed.append((items, position, item, view))
            continue
        yield item, identify(item, view)


class _NotedKnockouts:
    """Provenance of a hash array's knockouts: its markers and the items they removed, each with its marker."""

    def __init__(self, run: MergeRun, merger: HashArrayMerger, knockouts: Any) -> None:
        self.markers: List[Tuple[Any, int, Any]] = []
        self.removed: List[Tuple[Any, int, Any, Any]] = []
        self._freeze = run.tuple_freezer(merger.case_insensitive)
        self._keys, self._prefix = knockouts.keys, merger.knockout_prefix

    def note(self, provenance: Any, path: Tuple[Any, ...]) -> None:
        for items, position, item, view in self.removed:
            marker = next(((marker_items, where) for marker_items, where, marker_view in self.markers
                           if self._knocks(marker_view, view)), None)
            provenance.removed(path, provenance.place_of(items, position), item,
                               None if marker is None else provenance.place_of(*marker))

    def _knocks(self, marker_view: Any, view: Any) -> bool:
        return knocks(marker_view, view, self._keys, self._prefix, self._freeze)


def _fast_identities(items: Sequence[Any], key: Any, prefix: Optional[str],
                     knockouts: Any) -> Optional[Iterator[Tuple[Any, Any]]]:
    """_identified's fast path, built in C: when every item holds ``key`` with plain text or a number, none a
    knockout marker, and nothing is knocked out yet; else None."""
    if knockouts.any_knocked():
        return None
    values = [item.get(key, _MISSING) for item in items]
    if not FAST_PATHS.plain_scalars.issuperset(map(type, values)) or may_hold_markers(values, prefix):
        return None
    return zip(items, zip(values))      # identities as _one_key_tuple's: (value,)


def _unmatched(item: Any, view: Any) -> None:
    return None


def _same(value: Any) -> Any:
    return value


def _one_key_tuple(key: str, freeze: Callable[[Any], Any], plain_scalars: AbstractSet[type], item: Any,
                   view: Any) -> Optional[Tuple[Any, ...]]:
    """item_tuple(view, (key,), freeze), the hot path: plain text and numbers are their own frozen form."""
    if key not in view:
        return None
    value = view[key]
    return (value,) if type(value) in plain_scalars else (freeze(value),)


def item_tuple(item: Any, keys: Sequence[str], freeze: Callable[[Any], Any]) -> Optional[Tuple[Any, ...]]:
    """The hashable identity of an item, or None when it holds none of the tuple keys.

    A key the item lacks counts as a value of its own, so (Name=x) and
    (Name=x, Version=null) are different tuples, as they read.
    """
    values = tuple([freeze(item[key]) if key in item else _MISSING for key in keys])
    return None if all(value is _MISSING for value in values) else values


def scalar_identity(item: Any, freeze: Callable[[Any], Any], fold: Callable[[Any], Any],
                    prefix: Optional[str] = None) -> Optional[Tuple[Any, ...]]:
    """An item's identity from its values: all its (non-null) scalar values with their keys, or
    when it holds none, the values of its first list; None when it holds neither (kept unmatched).
    A key carrying the knockout ``prefix`` is no value of the item: it knocks a key out and is left out of the
    merged item, so an item that only adds one is the same item.
    """
    scalars = frozenset((fold(key), freeze(value)) for key, value in item.items()
                        if value is not None and family_of(value) is SCALAR and not is_marker(key, prefix))
    if scalars:
        return ('scalars', scalars)
    for value in item.values():
        if family_of(value) is LIST:
            return ('sequence', freeze(value))
    return None
