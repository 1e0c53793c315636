# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The merge engine: one key path's values from several layers -> one value.

Layers are given most specific first.  All layers are merged at once (not
pairwise), so the cost is linear in the size of the input.  Inputs are never
modified and no container of an input is shared with the result: cached
layers are reused across hosts.

Which strategy applies below the merged path (SPEC, kept from Datum):
- a key with its own rule (lookup_options) merges by that rule;
- under ``deep``, a nested map without a rule inherits its parent's strategy
  and a nested list uses the default; hash-array items are maps of the array's path;
- under ``hash`` and ``MostSpecific``, a key without a rule is taken whole
  from the most specific layer holding it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Dict, List, Sequence, Tuple

from ansible_collections.strata.hier.plugins.module_utils.errors import MergeDepthError, MergeInputError
from ansible_collections.strata.hier.plugins.module_utils.hash_array import group_items
from ansible_collections.strata.hier.plugins.module_utils.knockout import is_marker, unmark
from ansible_collections.strata.hier.plugins.module_utils.kinds import (
    EMPTY_LIST, MAP, MAP_LIST, SCALAR, list_kind,
)
from ansible_collections.strata.hier.plugins.module_utils.rules import MergeRules, join_path, split_path
from ansible_collections.strata.hier.plugins.module_utils.strategy import (
    DEEP, DEEP_TUPLE, MOST_SPECIFIC, UNIQUE, MergeStrategy,
)

MAX_DEPTH = 64
"""Deepest nesting merged; deeper data (or data that refers to itself) is an error."""


@dataclass
class MergeResult:
    """A merged value and how it was obtained."""

    value: Any
    found: bool
    strategy: MergeStrategy
    rule: str
    sources: Any = None
    """Layer indexes that supplied the value: a list, or for a map a list per top-level key."""
    warnings: List[str] = field(default_factory=list)


def merge_layers(values: Sequence[Any], rules: MergeRules, path: Any = ()) -> MergeResult:
    """Merge the values one key path has in several layers, most specific first.

    ``None`` means the layer does not hold the key (Datum: found means not null).
    """
    keys = split_path(path)
    strategy, rule = rules.resolve(keys)
    layers = [index for index, value in enumerate(values) if value is not None]
    if not layers:
        return MergeResult(None, False, strategy, rule, [])
    engine = _Engine(rules)
    layers = engine.same_family(keys, layers, values)
    found = [values[index] for index in layers]
    if _family(found[0]) == MAP:
        value = engine.maps(keys, found, strategy, 0, layers)
        sources = engine.sources
    else:
        value = engine.merge(keys, found, strategy, 0)
        sources = layers if _merges(found[0], strategy) else layers[:1]
    return MergeResult(value, True, strategy, rule, sources, engine.warnings)


def merge_documents(documents: Sequence[Any], rules: MergeRules) -> MergeResult:
    """Merge whole documents (maps), most specific first: each top-level key merges as a lookup of it would.

    A key uses its own rule or the default, whatever the other keys do; ``--key`` at the top
    removes that key from less specific documents when the default has a knockout prefix.
    """
    default, rule = rules.default
    layers = [index for index, document in enumerate(documents) if document is not None]
    for index in layers:
        if not isinstance(documents[index], Mapping):
            raise MergeInputError('document %d is a %s, not a map' % (index, type(documents[index]).__name__))
    engine = _Engine(rules)
    value = engine.maps((), [documents[index] for index in layers], default.with_(merge_hash=DEEP), 0,
                        layers, documents=True)
    return MergeResult(value, bool(layers), default, rule, engine.sources, engine.warnings)


def _family(value: Any) -> str:
    if isinstance(value, Mapping):
        return MAP
    if isinstance(value, (list, tuple)):
        return 'list'
    return SCALAR


def _is_whole(strategy: MergeStrategy) -> bool:
    return MOST_SPECIFIC == strategy.merge_hash == strategy.merge_basetype_array == strategy.merge_hash_array


def _merges(value: Any, strategy: MergeStrategy) -> bool:
    """Whether a value of this shape takes content from more than one layer."""
    family = _family(value)
    if family == MAP:
        return strategy.merge_hash != MOST_SPECIFIC
    if family == SCALAR:
        return False
    return (strategy.merge_hash_array if list_kind([value]) == MAP_LIST
            else strategy.merge_basetype_array) != MOST_SPECIFIC


def freeze(value: Any, depth: int = 0) -> Any:
    """A hashable stand-in for a value; equal values give equal stand-ins."""
    if depth > MAX_DEPTH:
        raise MergeDepthError('a list item nests deeper than %d levels, or refers to itself' % MAX_DEPTH)
    if isinstance(value, Mapping):
        return ('map', frozenset((freeze(k, depth + 1), freeze(v, depth + 1)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return ('list', tuple(freeze(item, depth + 1) for item in value))
    if isinstance(value, bool):
        return ('bool', value)    # YAML's true is not the integer 1
    return value


class _Engine:
    def __init__(self, rules: MergeRules) -> None:
        self.rules = rules
        self.fold = rules.fold
        self.warnings: List[str] = []
        self.sources: Dict[Any, List[int]] = {}
        self._derived: Dict[Tuple[MergeStrategy, str], MergeStrategy] = {}

    def tuple_value(self, value: Any) -> Any:
        return freeze(self.fold(value))

    def whole(self, strategy: MergeStrategy) -> MergeStrategy:
        """Take the most specific value whole, still dropping markers of the prefix in force."""
        return self._derive(strategy, MOST_SPECIFIC)

    def deep_items(self, strategy: MergeStrategy) -> MergeStrategy:
        """DeepTuple merges matched items key by key, recursively."""
        return self._derive(strategy, DEEP)

    def _derive(self, strategy: MergeStrategy, merge_hash: str) -> MergeStrategy:
        key = (strategy, merge_hash)
        derived = self._derived.get(key)
        if derived is None:
            if merge_hash == MOST_SPECIFIC:
                derived = strategy.with_(merge_hash=MOST_SPECIFIC, merge_basetype_array=MOST_SPECIFIC,
                                         merge_hash_array=MOST_SPECIFIC)
            else:
                derived = strategy.with_(merge_hash=merge_hash)
            self._derived[key] = derived
        return derived

    def same_family(self, path: Sequence[Any], layers: List[int], values: Sequence[Any]) -> List[int]:
        """Keep the layers whose value has the most specific one's shape; warn about the others."""
        family = _family(values[layers[0]])
        kept = [index for index in layers if _family(values[index]) == family]
        if len(kept) != len(layers):
            self.warnings.append(
                'type mismatch at %r: the most specific value is a %s; less specific values of '
                'another type were ignored' % (join_path(path) or '(root)', family))
        return kept

    def merge(self, path: Tuple[Any, ...], values: List[Any], strategy: MergeStrategy, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise MergeDepthError('data nests deeper than %d levels, or refers to itself' % MAX_DEPTH,
                                  join_path(path))
        if len(values) > 1:
            values = [values[index] for index in self.same_family(path, list(range(len(values))), values)]
        first = values[0]
        if isinstance(first, Mapping):
            return self.maps(path, values, strategy, depth)
        if isinstance(first, (list, tuple)):
            return self.lists(path, values, strategy, depth)
        return first

    # --- maps -------------------------------------------------------------------------
    def collect_keys(self, maps: Sequence[Mapping], prefix: Any) -> Dict[Any, list]:
        """Key -> [key as most specifically written, non-null values, their map indexes]."""
        entries: Dict[Any, list] = {}
        knocked: set = set()
        fold = self.fold
        for index, mapping in enumerate(maps):
            knocks = []
            for key, value in mapping.items():
                if is_marker(key, prefix):
                    knocks.append(fold(unmark(key, prefix)))
                    continue
                folded = fold(key)
                if folded in knocked:
                    continue
                entry = entries.get(folded)
                if entry is None:
                    entries[folded] = entry = [key, [], []]
                if value is not None:
                    entry[1].append(value)
                    entry[2].append(index)
            knocked.update(knocks)
        return entries

    def maps(self, path: Tuple[Any, ...], maps: List[Any], strategy: MergeStrategy, depth: int,
             layers: Any = None, documents: bool = False) -> dict:
        """Merge maps key by key; with ``layers`` (their layer indexes) also record each key's sources.

        ``documents``: the maps are whole documents, whose keys each use their own rule or the default.
        """
        if strategy.merge_hash == MOST_SPECIFIC:
            maps = maps[:1]
        result = {}
        for key, values, indexes in self.collect_keys(maps, strategy.knockout_prefix).values():
            if not values:
                result[key] = None
                continue
            child_path = path + (key,)
            if documents:
                child_strategy = self.rules.resolve(child_path)[0]
            else:
                child_strategy = self.child_strategy(child_path, values[0], strategy)
            if _is_whole(child_strategy):
                values, indexes = values[:1], indexes[:1]
            result[key] = self.merge(child_path, values, child_strategy, depth + 1)
            if layers is not None:
                supplied = [layers[index] for index in indexes]
                self.sources[key] = supplied if _merges(values[0], child_strategy) else supplied[:1]
        return result

    def child_strategy(self, path: Tuple[Any, ...], value: Any, parent: MergeStrategy) -> MergeStrategy:
        rule = self.rules.explicit(path)
        if rule is not None:
            return rule[0]
        if parent.merge_hash != DEEP:
            return self.whole(parent)
        if isinstance(value, (list, tuple)):
            return self.rules.default[0]
        return parent

    # --- lists ------------------------------------------------------------------------
    def lists(self, path: Tuple[Any, ...], lists: List[Any], strategy: MergeStrategy, depth: int) -> list:
        kind = list_kind(lists)
        if kind == EMPTY_LIST:
            return []
        same = [items for items in lists if list_kind([items]) in (kind, EMPTY_LIST)]
        if len(same) != len(lists):
            self.warnings.append('type mismatch at %r: lists of maps and lists of scalars do not merge; '
                                 'the most specific kind was kept' % join_path(path))
        if kind == MAP_LIST:
            return self.hash_arrays(path, same, strategy, depth)
        return self.basetype_arrays(path, same, strategy, depth)

    def basetype_arrays(self, path: Tuple[Any, ...], lists: List[Any], strategy: MergeStrategy,
                        depth: int) -> list:
        mode = strategy.merge_basetype_array
        if mode == MOST_SPECIFIC:
            lists = lists[:1]
        prefix = strategy.knockout_prefix
        unique = mode == UNIQUE
        result, seen, knocked = [], set(), set()
        for items in lists:
            knocks = []
            for item in items:
                if is_marker(item, prefix):
                    knocks.append(unmark(item, prefix))
                    continue
                if knocked and _knockout_text(item) in knocked:
                    continue
                if unique:
                    identity = freeze(item)
                    if identity in seen:
                        continue
                    seen.add(identity)
                result.append(self.copy_item(path, item, strategy, depth))
            knocked.update(knocks)
        return result

    def copy_item(self, path: Tuple[Any, ...], item: Any, strategy: MergeStrategy, depth: int) -> Any:
        if isinstance(item, (Mapping, list, tuple)):
            return self.merge(path, [item], self.whole(strategy), depth + 1)
        return item

    def hash_arrays(self, path: Tuple[Any, ...], lists: List[Any], strategy: MergeStrategy, depth: int) -> list:
        if strategy.merge_hash_array == DEEP_TUPLE:
            item_strategy = self.deep_items(strategy)
        else:
            item_strategy = self.whole(strategy)
        return [self.maps(path, group[:1] if item_strategy.merge_hash == MOST_SPECIFIC else group,
                          item_strategy, depth + 1)
                for group in group_items(lists, strategy, self.tuple_value)]


def _knockout_text(item: Any) -> Any:
    """Base-type knockouts are text: ``--5`` knocks out 5 as well as '5'."""
    if isinstance(item, str):
        return item
    if isinstance(item, (int, float)) and not isinstance(item, bool):
        return str(item)
    return None
