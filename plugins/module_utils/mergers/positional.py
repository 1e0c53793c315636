# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Positional arrays, for the dialects (cloud-init's ``list(replace)``): item *i* of the result merges
item *i* of every layer whose list is that long; the result is as long as the least specific list
(items more specific lists hold beyond it are dropped).

``items`` is a strategy saying how the items at one index merge: its scalar merger merges scalar
items; a map merger that merges (not MostSpecific/LeastSpecific) merges map items by the array's
strategy with that mode; a list merger that merges merges list items, a Positional one standing for
this array's own.  By default the most specific item wins at each index.  Knockout markers (scalar
markers and tuple-knockout map items) are dropped and remove nothing.
"""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

from ansible_collections.strata.hier.plugins.module_utils.kinds import MAP, MAP_LIST, SCALAR, family_of, list_kind
from ansible_collections.strata.hier.plugins.module_utils.knockout import is_marker
from ansible_collections.strata.hier.plugins.module_utils.limits import MAX_DEPTH, too_deep
from ansible_collections.strata.hier.plugins.module_utils.mergers.base import DEFAULT_TUPLE_KEYS, Merger, canonical_name
from ansible_collections.strata.hier.plugins.module_utils.mergers.dispatch import ByType
from ansible_collections.strata.hier.plugins.module_utils.mergers.hash_arrays import HashArrayMerger
from ansible_collections.strata.hier.plugins.module_utils.mergers.maps import NULL_MISSING, NULL_MODES
from ansible_collections.strata.hier.plugins.module_utils.mergers.scalar_lists import ScalarListMerger

POSITIONAL = 'Positional'
_BY_MOST_SPECIFIC_TYPE = ByType()


class PositionalMerger(Merger):
    """Lists merged index by index; ``of_maps``: it stands in a strategy for hash arrays (else base-type arrays)."""

    SETTING = 'merge_basetype_array'
    MODES = (POSITIONAL,)
    PUBLIC_MODES = ()
    OPTIONS = {'items': 'positional_items', 'nulls': 'null_values'}
    VALUES = 'positional array'

    mode: str = POSITIONAL
    items: Optional[Any] = None
    """A MergeStrategy: how the items at one index merge; None: the most specific item wins."""
    nulls: str = NULL_MISSING
    tuple_keys: Tuple[str, ...] = DEFAULT_TUPLE_KEYS
    case_insensitive: bool = False
    of_maps: bool = False

    def _settle(self) -> None:
        self.settle('nulls', canonical_name(self.nulls, NULL_MODES, 'merge option null_values value'))

    def describe(self) -> Tuple[dict, dict]:
        _setting, options = super().describe()
        return {'merge_hash_array' if self.of_maps else self.SETTING: self.mode}, options

    def with_settings(self, **settings: Any) -> Merger:
        """As every merger's; keys compare in the items' strategy as in the array's."""
        merger = super().with_settings(**settings)
        if 'case_insensitive' in settings and merger.items is not None:
            items = merger.items.with_key_case(settings['case_insensitive'])
            if items != merger.items:
                merger = merger.replace(items=items)
        return merger

    def whole(self) -> Merger:
        cls = HashArrayMerger if self.of_maps else ScalarListMerger
        return cls(knockout_prefix=self.knockout_prefix, tuple_keys=self.tuple_keys, case_insensitive=self.case_insensitive)

    def merge(self, run: Any, path: Tuple[Any, ...], values: List[Any], strategy: Any, depth: int) -> list:
        if depth > MAX_DEPTH:
            raise too_deep(path)
        lists = [self._without_markers(run, items) for items in values] if self.knockout_prefix else values
        dispatch = _BY_MOST_SPECIFIC_TYPE if self.items is None else self.items.dispatch
        result = []
        for index in range(len(lists[-1])):
            group = [layer[index] for layer in lists if index < len(layer)]
            if self.nulls == NULL_MISSING and len(group) > 1:
                group = [item for item in group if item is not None] or [None]
            family = family_of(group[dispatch.index])
            if len(group) > 1:
                group = dispatch.same_family(run, path, group, family)
            result.append(self._at_index(run, path, group, family, strategy, depth))
        run.budget.spend(len(result), path)
        return result

    def _without_markers(self, run: Any, items: List[Any]) -> List[Any]:
        knockouts = run.item_knockouts(self)
        return [item for item in items if not is_marker(item, self.knockout_prefix)
                and not (family_of(item) is MAP and knockouts.is_marker(knockouts.view(item)))]

    def _at_index(self, run: Any, path: Tuple[Any, ...], group: List[Any], family: str, strategy: Any,
                  depth: int) -> Any:
        """The items at one index (of one family), most specific first, merged as ``items`` says."""
        items = self.items
        if items is None:
            return group[0] if family is SCALAR else run.merge(path, group[:1], strategy.whole, depth + 1, family)
        if family is SCALAR:
            return items.scalars.merge(group)
        if family is MAP:
            merger = items.maps
            if merger.takes_one:
                return run.merge(path, group[merger.takes], strategy.whole, depth + 1, family)
            derived = strategy.with_maps(strategy.maps.with_settings(mode=merger.mode))
            return derived.maps.merge(run, path, group, derived, depth + 1)
        merger = items.hash_arrays if list_kind(group) == MAP_LIST else items.scalar_lists
        if merger.takes_one:
            return run.merge(path, group[merger.takes], strategy.whole, depth + 1, family)
        derived = strategy.with_lists(self._inner(items.scalar_lists, False), self._inner(items.hash_arrays, True))
        return derived.dispatch.merge_lists(run, path, group, derived, depth + 1)

    def _inner(self, merger: Merger, of_maps: bool) -> Merger:
        """A list merger of ``items``; a Positional one stands for this array's own."""
        if isinstance(merger, PositionalMerger):
            return self.with_settings(of_maps=of_maps)
        return merger
