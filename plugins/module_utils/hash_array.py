# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Hash arrays (lists of maps): MostSpecific, Sum, UniqueKeyValTuples, DeepTuple.

Items are matched by the values of their tuple keys, hashed, so merging is
linear in the number of items.  Order: the most specific layer's items first,
then the items of less specific layers whose tuple was not seen yet.  An item
without any of the tuple keys is kept as it is, unmatched.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ansible_collections.strata.hier.plugins.module_utils.knockout import TupleKnockouts, item_pattern
from ansible_collections.strata.hier.plugins.module_utils.strategy import (
    MOST_SPECIFIC, TUPLE_MODES, MergeStrategy,
)

_MISSING = object()


def item_tuple(item: Any, keys: Sequence[str], freeze: Callable[[Any], Any]) -> Optional[Tuple[Any, ...]]:
    """The hashable identity of an item, or None when it holds none of the tuple keys.

    A key the item lacks counts as a value of its own, so (Name=x) and
    (Name=x, Version=null) are different tuples, as they read.
    """
    values = tuple(freeze(item[key]) if key in item else _MISSING for key in keys)
    return None if all(value is _MISSING for value in values) else values


def group_items(lists: Sequence[Sequence[Any]], strategy: MergeStrategy,
                freeze: Callable[[Any], Any]) -> List[List[Any]]:
    """Group the items of several hash arrays (most specific first) into result items.

    Each group lists the items, most specific first, that make one item of the
    result; knocked-out items and knockout markers are left out.
    """
    mode = strategy.merge_hash_array
    if mode == MOST_SPECIFIC:
        lists = lists[:1]
    by_tuple = mode in TUPLE_MODES
    prefix = strategy.knockout_prefix
    keys = strategy.tuple_keys
    knocked = TupleKnockouts(freeze)
    groups: Dict[Tuple[Any, ...], List[Any]] = {}
    ordered: List[List[Any]] = []
    for items in lists:
        layer_knocks = []
        for item in items:
            pattern = item_pattern(item, keys, prefix)
            if pattern is not None:
                layer_knocks.append(pattern)
            elif not (knocked and knocked.matches(item)):
                identity = item_tuple(item, keys, freeze) if by_tuple else None
                if identity is None:
                    ordered.append([item])
                elif identity in groups:
                    groups[identity].append(item)
                else:
                    groups[identity] = group = [item]
                    ordered.append(group)
        for pattern in layer_knocks:
            knocked.add(pattern)
    return ordered
