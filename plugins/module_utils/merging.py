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
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ansible_collections.strata.hier.plugins.module_utils.errors import MergeDepthError, MergeInputError
from ansible_collections.strata.hier.plugins.module_utils.hash_array import group_items
from ansible_collections.strata.hier.plugins.module_utils.kinds import (
    EMPTY_LIST, LIST, MAP, MAP_LIST, SCALAR, family_of, list_kind,
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
    """Indexes of the layers that supplied the value: a list, or for a map a list per top-level key."""
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
    family = family_of(values[layers[0]])
    kept = [index for index in layers if family_of(values[index]) is family]
    if len(kept) != len(layers):
        engine.warn_mismatch(keys, family)
    found = [values[index] for index in kept]
    if family is MAP:
        value = engine.maps(keys, found, strategy, 0, kept)
        sources = engine.sources
    else:
        value = engine.merge(keys, found, strategy, 0, family)
        sources = kept if _merges(found[0], strategy) else kept[:1]
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


def _is_whole(strategy: MergeStrategy) -> bool:
    return MOST_SPECIFIC == strategy.merge_hash == strategy.merge_basetype_array == strategy.merge_hash_array


def _merges(value: Any, strategy: MergeStrategy) -> bool:
    """Whether a value of this shape takes content from more than one layer."""
    family = family_of(value)
    if family is MAP:
        return strategy.merge_hash != MOST_SPECIFIC
    if family is SCALAR:
        return False
    return (strategy.merge_hash_array if list_kind([value]) == MAP_LIST
            else strategy.merge_basetype_array) != MOST_SPECIFIC


def freeze(value: Any, depth: int = 0) -> Any:
    """A hashable stand-in for a value; equal values give equal stand-ins."""
    if depth > MAX_DEPTH:
        raise MergeDepthError('a list item nests deeper than %d levels, or refers to itself' % MAX_DEPTH)
    family = family_of(value)
    if family is MAP:
        return ('map', frozenset((freeze(k, depth + 1), freeze(v, depth + 1)) for k, v in value.items()))
    if family is LIST:
        return ('list', tuple(freeze(item, depth + 1) for item in value))
    if isinstance(value, bool):
        return ('bool', value)    # YAML's true is not the integer 1
    return value


def _too_deep(path: Sequence[Any]) -> MergeDepthError:
    return MergeDepthError('data nests deeper than %d levels, or refers to itself' % MAX_DEPTH, join_path(path))


class _Engine:
    def __init__(self, rules: MergeRules) -> None:
        self.rules = rules
        self.warnings: List[str] = []
        self.sources: Dict[Any, List[int]] = {}
        self._derived: Dict[Tuple[MergeStrategy, str], MergeStrategy] = {}

    def warn_mismatch(self, path: Sequence[Any], family: str) -> None:
        self.warnings.append('type mismatch at %r: the most specific value is a %s; less specific values '
                             'of another type were ignored' % (join_path(path) or '(root)', family))

    def tuple_value(self, value: Any) -> Any:
        return freeze(self.rules.fold(value))

    def whole(self, strategy: MergeStrategy) -> MergeStrategy:
        """Take the most specific value whole, still dropping markers of the prefix in force."""
        return self._derive(strategy, MOST_SPECIFIC)

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

    def merge(self, path: Tuple[Any, ...], values: List[Any], strategy: MergeStrategy, depth: int,
              family: Optional[str] = None) -> Any:
        if family is None:
            family = family_of(values[0])
        if len(values) > 1:
            values = self.same_family(path, values, family)
        if family is MAP:
            return self.maps(path, values, strategy, depth)
        if family is LIST:
            return self.lists(path, values, strategy, depth)
        return values[0]

    def same_family(self, path: Sequence[Any], values: List[Any], family: str) -> List[Any]:
        """The values of the most specific value's family; warn when others were dropped."""
        for value in values:
            if family_of(value) is not family:
                self.warn_mismatch(path, family)
                return [value for value in values if family_of(value) is family]
        return values

    # --- maps -------------------------------------------------------------------------
    def collect_keys(self, maps: Sequence[Mapping], prefix: Optional[str], track: bool) -> tuple:
        """Per key (folded when keys are case-insensitive): the non-null values, most specific first.

        Also returns the key as most specifically written (case-insensitive only) and, when
        ``track``, the indexes of the maps that supplied each key.
        """
        if not (track or self.rules.case_insensitive_keys):
            entries = _plain_collect(maps)
            if not _may_hold_markers(entries, prefix):
                return entries, None, None
        fold = self.rules.case_insensitive_keys
        entries: Dict[Any, List[Any]] = {}
        spelled: Optional[Dict[Any, Any]] = {} if fold else None
        supplied: Optional[Dict[Any, List[int]]] = {} if track else None
        knocked: set = set()
        for index, mapping in enumerate(maps):
            knocks = []
            for key, value in mapping.items():
                is_text = isinstance(key, str)
                if prefix is not None and is_text and key.startswith(prefix):
                    knocks.append(self.rules.fold(key[len(prefix):]))
                    continue
                folded = key.casefold() if fold and is_text else key
                if knocked and folded in knocked:
                    continue
                values = entries.get(folded)
                if values is None:
                    entries[folded] = values = []
                    if spelled is not None:
                        spelled[folded] = key
                    if supplied is not None:
                        supplied[folded] = []
                if value is not None:
                    values.append(value)
                    if supplied is not None:
                        supplied[folded].append(index)
            knocked.update(knocks)
        return entries, spelled, supplied

    def maps(self, path: Tuple[Any, ...], maps: List[Any], strategy: MergeStrategy, depth: int,
             layers: Optional[List[int]] = None, documents: bool = False) -> dict:
        """Merge maps key by key; with ``layers`` (their layer indexes) also record each key's sources.

        ``documents``: the maps are whole documents, whose keys each use their own rule or the default.
        """
        if depth > MAX_DEPTH:
            raise _too_deep(path)
        if strategy.merge_hash == MOST_SPECIFIC:
            maps = maps[:1]
        entries, spelled, supplied = self.collect_keys(maps, strategy.knockout_prefix, layers is not None)
        result = {}
        for folded, values in entries.items():
            key = folded if spelled is None else spelled[folded]
            if not values:
                result[key] = None
                continue
            if _SCALAR_TYPES.issuperset(map(type, values)):     # the hot path: plain scalars
                family = SCALAR
            else:
                family = family_of(values[0])
                values = self.same_family(path + (key,), values, family)
            if family is SCALAR:
                result[key] = values[0]
                child_strategy = strategy
            else:
                child_path = path + (key,)
                if documents:
                    child_strategy = self.rules.resolve(child_path)[0]
                else:
                    child_strategy = self.child_strategy(child_path, family, strategy)
                result[key] = self.merge(child_path, values[:1] if _is_whole(child_strategy) else values,
                                         child_strategy, depth + 1, family)
            if supplied is not None:
                indexes = [layers[index] for index in supplied[folded]]
                self.sources[key] = indexes if _merges(values[0], child_strategy) else indexes[:1]
        return result

    def child_strategy(self, path: Tuple[Any, ...], family: str, parent: MergeStrategy) -> MergeStrategy:
        rule = self.rules.explicit(path)
        if rule is not None:
            return rule[0]
        if parent.merge_hash != DEEP:
            return self.whole(parent)
        if family is LIST:
            return self.rules.default[0]
        return parent

    # --- lists ------------------------------------------------------------------------
    def lists(self, path: Tuple[Any, ...], lists: List[Any], strategy: MergeStrategy, depth: int) -> list:
        if depth > MAX_DEPTH:
            raise _too_deep(path)
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
        if strategy.merge_basetype_array == MOST_SPECIFIC:
            lists = lists[:1]
        prefix = strategy.knockout_prefix
        unique = strategy.merge_basetype_array == UNIQUE
        result, seen, knocked = [], set(), set()
        for items in lists:
            knocks = []
            for item in items:
                if prefix is not None and isinstance(item, str) and item.startswith(prefix):
                    knocks.append(item[len(prefix):])
                    continue
                if knocked and _knockout_text(item) in knocked:
                    continue
                if unique:
                    identity = freeze(item)
                    if identity in seen:
                        continue
                    seen.add(identity)
                if family_of(item) is not SCALAR:     # a list mixing scalars and containers
                    item = self.merge(path, [item], self.whole(strategy), depth + 1)
                result.append(item)
            knocked.update(knocks)
        return result

    def hash_arrays(self, path: Tuple[Any, ...], lists: List[Any], strategy: MergeStrategy, depth: int) -> list:
        if strategy.merge_hash_array == DEEP_TUPLE:
            item_strategy = self._derive(strategy, DEEP)     # matched items merge key by key
        else:
            item_strategy = self.whole(strategy)
        whole = item_strategy.merge_hash == MOST_SPECIFIC
        return [self.maps(path, group[:1] if whole else group, item_strategy, depth + 1)
                for group in group_items(lists, strategy, self.tuple_value)]


_SCALAR_TYPES = frozenset((str, int, float, bool, type(None)))


def _may_hold_markers(keys: Mapping, prefix: Optional[str]) -> bool:
    """Whether any key may start with the knockout prefix.

    The merge's hot path: joining text keys and searching the result runs in C;
    a non-text key or a false alarm only sends the maps down the general path.
    """
    if prefix is None or not keys:
        return False
    try:
        return ('\n' + '\n'.join(keys)).find('\n' + prefix) >= 0
    except TypeError:
        return True


def _plain_collect(maps: Sequence[Mapping]) -> Dict[Any, List[Any]]:
    """collect_keys without knockout, case folding or tracking."""
    entries: Dict[Any, List[Any]] = {key: [] if value is None else [value] for key, value in maps[0].items()}
    for mapping in maps[1:]:
        for key, value in mapping.items():
            if key in entries:
                if value is not None:
                    entries[key].append(value)
            else:
                entries[key] = [] if value is None else [value]
    return entries


def _knockout_text(item: Any) -> Any:
    """Base-type knockouts are text: ``--5`` knocks out 5 as well as '5'."""
    if isinstance(item, str):
        return item
    if isinstance(item, (int, float)) and not isinstance(item, bool):
        return str(item)
    return None
