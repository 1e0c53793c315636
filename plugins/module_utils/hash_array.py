# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Hash arrays (lists of maps): MostSpecific, Sum, UniqueKeyValTuples, DeepTuple.

Items are matched by the values of their tuple keys, hashed, so merging is
linear in the number of items.  Order: the most specific layer's items first,
then the items of less specific layers whose tuple was not seen yet.  An item
without any of the tuple keys is kept as it is, unmatched.

Beyond Datum: ``match_items_by: scalar_values`` matches items by all their scalar
values (ACM's sets without a primary key), ``LeastSpecific`` keeps the least
specific array, and ``array_order: general_first`` lists the least specific
layer's items first, each matched item still at the place of its most specific
occurrence.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ansible_collections.strata.hier.plugins.module_utils.kinds import LIST, SCALAR, family_of
from ansible_collections.strata.hier.plugins.module_utils.knockout import TupleKnockouts, item_pattern
from ansible_collections.strata.hier.plugins.module_utils.strategy import (
    GENERAL_FIRST, LEAST_SPECIFIC, MOST_SPECIFIC, SCALAR_VALUES, TUPLE_MODES, MergeStrategy,
)

_MISSING = object()


def item_tuple(item: Any, keys: Sequence[str], freeze: Callable[[Any], Any]) -> Optional[Tuple[Any, ...]]:
    """The hashable identity of an item, or None when it holds none of the tuple keys.

    A key the item lacks counts as a value of its own, so (Name=x) and
    (Name=x, Version=null) are different tuples, as they read.
    """
    values = tuple(freeze(item[key]) if key in item else _MISSING for key in keys)
    return None if all(value is _MISSING for value in values) else values


def scalar_identity(item: Any, freeze: Callable[[Any], Any],
                    fold: Callable[[Any], Any]) -> Optional[Tuple[Any, ...]]:
    """An item's identity from its values: all its (non-null) scalar values with their keys, or
    when it holds none, the values of its first list; None when it holds neither (kept unmatched).
    """
    scalars = frozenset((fold(key), freeze(value)) for key, value in item.items()
                        if value is not None and family_of(value) is SCALAR)
    if scalars:
        return ('scalars', scalars)
    for value in item.values():
        if family_of(value) is LIST:
            return ('sequence', freeze(value))
    return None


def general_first(items: List[Any], starts: List[int]) -> List[Any]:
    """Reorder results built layer by layer, most specific first, so the least specific layer's come first.

    ``starts[i]`` is where layer i's contribution begins; each layer keeps its own order.
    """
    bounds = starts + [len(items)]
    result: List[Any] = []
    for layer in range(len(starts) - 1, -1, -1):
        result.extend(items[bounds[layer]:bounds[layer + 1]])
    return result


def group_items(lists: Sequence[Sequence[Any]], strategy: MergeStrategy,
                freeze: Callable[[Any], Any], fold: Optional[Callable[[Any], Any]] = None) -> List[List[Any]]:
    """Group the items of several hash arrays (most specific first) into result items.

    Each group lists the items, most specific first, that make one item of the
    result; knocked-out items and knockout markers are left out.  ``fold``, given
    when keys are case-insensitive, is how keys compare: items are then read
    through a view keyed by the folded keys, for knockouts and tuples alike.
    """
    mode = strategy.merge_hash_array
    if mode == MOST_SPECIFIC:
        lists = lists[:1]
    elif mode == LEAST_SPECIFIC:
        lists = lists[-1:]
    by_tuple = mode in TUPLE_MODES
    by_scalars = by_tuple and strategy.match_items_by == SCALAR_VALUES
    prefix = strategy.knockout_prefix
    keys = strategy.tuple_keys
    if fold is None:
        fold = _same
    else:
        keys = tuple(fold(key) for key in keys)
    knocked = TupleKnockouts(freeze)
    groups: Dict[Tuple[Any, ...], List[Any]] = {}
    ordered: List[List[Any]] = []
    starts: List[int] = []
    for items in lists:
        starts.append(len(ordered))
        layer_knocks = []
        for item in items:
            view = item if fold is _same else _folded(item, fold)
            pattern = item_pattern(view, keys, prefix)
            if pattern is not None:
                layer_knocks.append(pattern)
            elif not (knocked and knocked.matches(view)):
                if not by_tuple:
                    identity = None
                elif by_scalars:
                    identity = scalar_identity(item, freeze, fold)
                else:
                    identity = item_tuple(view, keys, freeze)
                if identity is None:
                    ordered.append([item])
                elif identity in groups:
                    groups[identity].append(item)
                else:
                    groups[identity] = group = [item]
                    ordered.append(group)
        for pattern in layer_knocks:
            knocked.add(pattern)
    if strategy.array_order == GENERAL_FIRST and len(starts) > 1:
        return general_first(ordered, starts)
    return ordered


def _same(value: Any) -> Any:
    return value


def _folded(item: Any, fold: Callable[[Any], Any]) -> Dict[Any, Any]:
    """The item keyed by folded keys; of two keys that fold alike, the first written wins, as in merged maps."""
    view: Dict[Any, Any] = {}
    for key, value in item.items():
        view.setdefault(fold(key), value)
    return view
