# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Maps (Datum's Hashtable): ``MostSpecific`` takes the most specific map, ``hash`` merges its top keys
(each value the most specific one, whole), ``deep`` merges recursively.

Which strategy applies below the merged path (SPEC, kept from Datum):
- a key with its own rule (lookup_options) merges by that rule;
- under ``deep``, a nested map without a rule inherits its parent's strategy and a nested list uses the
  default; hash-array items are maps of the array's path;
- under ``hash`` and ``MostSpecific``, a key without a rule is taken whole from the most specific layer.
Scalars in a map merge by the map's strategy, or by their own rule when a rule merges scalars.

For the dialects: ``LeastSpecific`` (the least specific map, whole), nulls as values or as deletions of
less specific keys (cloud-init's dict merger), and the least specific map's keys first (``key_order``).
"""

from __future__ import annotations

from itertools import chain
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from ansible_collections.strata.hier.plugins.module_utils.kinds import LIST, SCALAR, SCALAR_TYPES, VALUE_TYPES
from ansible_collections.strata.hier.plugins.module_utils.knockout import is_marker, knockout_text, unmark
from ansible_collections.strata.hier.plugins.module_utils.limits import MAX_DEPTH, too_deep
from ansible_collections.strata.hier.plugins.module_utils.mergers.base import (
    GENERAL_FIRST, INHERITED, LEAST_SPECIFIC, MOST_SPECIFIC, ORDERS, SPECIFIC_FIRST, WHOLE, Merger, canonical_name,
)
from ansible_collections.strata.hier.plugins.module_utils.records import derived

HASH = 'hash'
DEEP = 'deep'
NULL_MISSING = 'not_found'      # Datum: found means not null
NULL_VALUE = 'value'
NULL_DELETES = 'delete'         # a null removes the key from less specific maps (cloud-init's allow_delete)
NULL_MODES = (NULL_MISSING, NULL_VALUE, NULL_DELETES)

_ABSENT = object()
_PLAIN_MAPS = frozenset((dict,))
_PLAIN_KEYS: Dict[str, set] = {}
"""Per knockout prefix, map keys seen not to start with it; emptied when it outgrows the limit."""
_PLAIN_KEYS_LIMIT = 1 << 16
_MANY_KEYS = 8
"""Maps from this size merge faster by dict operations than key by key, when they hold only scalars."""


class MapMerger(Merger):
    """Maps merged key by key."""

    SETTING = 'merge_hash'
    MODES = (MOST_SPECIFIC, HASH, DEEP, LEAST_SPECIFIC)
    PUBLIC_MODES = (MOST_SPECIFIC, HASH, DEEP)
    OPTIONS = {'nulls': 'null_values', 'key_order': 'key_order'}
    VALUES = 'map'

    nulls: str = NULL_MISSING
    """A null in a map is not found (Datum), a value like any other, or deletes the key from less specific maps."""
    key_order: str = SPECIFIC_FIRST
    """Merged maps list the most specific map's keys first, or the least specific map's."""
    case_insensitive: bool = False
    """Keys compare case-insensitively."""
    recurses: bool = derived()
    plain_keys: bool = derived()
    """Keys as written and nulls as not found: one map merges as a copy."""

    def _settle(self) -> None:
        self.settle('nulls', canonical_name(self.nulls, NULL_MODES, 'merge option null_values value'))
        self.settle('key_order', canonical_name(self.key_order, ORDERS, 'merge option key_order value'))
        self.settle('recurses', self.mode == DEEP)
        self.settle('plain_keys', not self.case_insensitive and self.nulls == NULL_MISSING)

    def merge(self, run: Any, path: Tuple[Any, ...], values: List[Any], strategy: Any, depth: int,
              layers: Optional[List[int]] = None, documents: bool = False) -> dict:
        """Merge maps key by key; with ``layers`` (their layer indexes) also record each key's sources in
        ``run.sources``.  ``documents``: the maps are whole documents, each key merging by its own rule."""
        if depth > MAX_DEPTH:
            raise too_deep(path)
        maps = values[self.takes] if self.takes_one else values
        if layers is None and not documents and self.merges_plainly(run, strategy):
            plain = self.merge_plain(run, path, maps, strategy, depth)
            if plain is not None:
                return plain
        return self._merge_general(run, path, maps, strategy, depth, layers, documents)

    def _merge_general(self, run: Any, path: Tuple[Any, ...], maps: List[Any], strategy: Any, depth: int,
                       layers: Optional[List[int]] = None, documents: bool = False) -> dict:
        if layers is not None:
            layers = layers[self.takes]
        entries, spelled, supplied = self.collect(maps, layers is not None)
        trivial = strategy.scalars.trivial and not run.rules.scalar_rules
        nested = self.recurses and not documents and not run.rules.has_rules     # maps in maps merge like this one
        result = {}
        for folded, found in entries.items():
            key = folded if spelled is None else spelled[folded]
            if not found:
                result[key] = None
                continue
            if trivial and SCALAR_TYPES.issuperset(map(type, found)):     # the hot path: scalars
                result[key] = found[0]
                child = strategy
            elif nested and _PLAIN_MAPS.issuperset(map(type, found)):       # the hot path: maps
                result[key] = strategy.maps.merge(run, path + (key,), found, strategy, depth + 1)
                child = strategy
            else:
                result[key], child, found = self._merge_key(run, path + (key,), found, strategy, depth, documents)
            if supplied is not None:
                run.sources[key] = child.sources(found[0], [layers[index] for index in supplied[folded]])
        run.budget.spend(len(result), path)
        if self.key_order == GENERAL_FIRST and len(maps) > 1:
            return self._keys_general_first(result, maps, spelled)
        return result

    def merges_plainly(self, run: Any, strategy: Any) -> bool:
        """Whether merge_plain may merge maps of this run with ``strategy``: keys as written, nulls not found,
        scalars taken from the most specific map."""
        return self.plain_keys and strategy.scalars.trivial and not run.rules.scalar_rules

    def merge_nested(self, run: Any, path: Tuple[Any, ...], maps: List[Any], strategy: Any, depth: int) -> dict:
        """Maps merged with every layer taken, nothing tracked and not as documents, when merges_plainly holds:
        by merge_plain or, when it declines, by the general path."""
        merged = self.merge_plain(run, path, maps, strategy, depth)
        return self._merge_general(run, path, maps, strategy, depth) if merged is None else merged

    def merge_plain(self, run: Any, path: Tuple[Any, ...], maps: List[Any], strategy: Any,
                    depth: int) -> Optional[dict]:
        """merge's hot path (nested maps, hash-array items) when merges_plainly, nothing is tracked and the maps
        are not whole documents: None when the maps need the general path (a knockout marker among the keys...)."""
        if depth > MAX_DEPTH:
            raise too_deep(path)
        if len(maps) == 1:
            return None if keys_may_hold_markers(maps[0], self.knockout_prefix) \
                else self._copy(run, path, maps[0], strategy, depth)
        if self.key_order != SPECIFIC_FIRST:
            return None
        if len(maps[0]) >= _MANY_KEYS and only_values(maps):    # such as the leaves of a tree: in C
            result = dict.fromkeys(chain.from_iterable(maps))
            if keys_may_hold_markers(result, self.knockout_prefix):
                return None
            for mapping in reversed(maps):
                result.update(mapping)
            run.budget.spend(len(result), path)
            return result
        entries = collect_simple(maps)
        if keys_may_hold_markers(entries, self.knockout_prefix):
            return None
        nested = self.recurses and not run.rules.has_rules and strategy.maps is self    # maps in maps merge alike
        result = {}
        for key, found in entries.items():
            if not found:
                result[key] = None
            elif SCALAR_TYPES.issuperset(map(type, found)):
                result[key] = found[0]
            elif nested and _PLAIN_MAPS.issuperset(map(type, found)):
                result[key] = self.merge_nested(run, path + (key,), found, strategy, depth + 1)
            else:
                result[key] = self._merge_key(run, path + (key,), found, strategy, depth, False)[0]
        run.budget.spend(len(result), path)
        return result

    def _copy(self, run: Any, path: Tuple[Any, ...], mapping: Mapping, strategy: Any, depth: int) -> dict:
        """merge of one map, the hot path of hash-array items and single layers: scalars (nulls too) as they are,
        containers merged alone (copied)."""
        result = dict(mapping)
        if not SCALAR_TYPES.issuperset(map(type, mapping.values())):
            nested = self.recurses and not run.rules.has_rules and strategy.maps is self    # maps in maps merge alike
            for key, value in mapping.items():
                if nested and type(value) in _PLAIN_MAPS:
                    result[key] = self.merge_nested(run, path + (key,), [value], strategy, depth + 1)
                elif type(value) not in SCALAR_TYPES:
                    result[key] = self._merge_key(run, path + (key,), [value], strategy, depth, False)[0]
        run.budget.spend(len(result), path)
        return result

    def _merge_key(self, run: Any, path: Tuple[Any, ...], values: List[Any], strategy: Any, depth: int,
                   documents: bool) -> Tuple[Any, Any, List[Any]]:
        """One key's values merged: (the value, the strategy that merged it, the values it merged)."""
        if SCALAR_TYPES.issuperset(map(type, values)):
            family = SCALAR
        else:
            family, values = strategy.dispatch.winning_family(run, path, values)
        if family is SCALAR:
            child = self._scalar_strategy(run, path, strategy, documents)
            return child.scalars.merge(values), child, values
        child, rule = run.rules.resolve(path) if documents else self._child_rule(run, path, family, strategy)
        if run.trace is not None:       # explain: the strategy chosen here is the one it reports
            run.trace.chose(path, child, rule)
        whole = child.is_whole and (family is not LIST or len(values) == 1)     # lists: check their kinds
        return run.merge(path, values[:1] if whole else values, child, depth + 1, family), child, values

    @staticmethod
    def _scalar_strategy(run: Any, path: Tuple[Any, ...], parent: Any, documents: bool) -> Any:
        """A scalar merges by its own rule when that rule merges scalars, else by its map's strategy;
        a document's key by its own rule or the default, as its lookup would."""
        rules = run.rules
        if documents:
            rule = rules.explicit(path)
            return rules.default[0] if rule is None else rule[0]
        if rules.scalar_rules:      # else no rule merges scalars: the look-up is not needed
            rule = rules.explicit(path)
            if rule is not None and rule[0].merges_scalars:
                return rule[0]
        return parent

    def _child_rule(self, run: Any, path: Tuple[Any, ...], family: str, parent: Any) -> Tuple[Any, str]:
        """The strategy of a nested map or list and the rule it comes from: the path's own rule, else the
        default (a list under deep), the parent's strategy (a map under deep: INHERITED) or the most specific
        value whole (under hash and MostSpecific: WHOLE)."""
        rule = run.rules.explicit(path)
        if rule is not None:
            return rule
        if not self.recurses:
            return parent.whole, WHOLE
        if family is LIST:
            return run.rules.default
        return parent, INHERITED

    def collect(self, maps: Sequence[Mapping], track: bool) -> tuple:
        """Per key (folded when keys are case-insensitive): the values, most specific first.

        Also returns the key as most specifically written (case-insensitive keys only) and, when
        ``track``, the indexes of the maps that supplied each key.
        """
        if not track and self.plain_keys:
            entries = collect_simple(maps)
            if not keys_may_hold_markers(entries, self.knockout_prefix):
                return entries, None, None
        collected = _Collected(self, track)
        for index, mapping in enumerate(maps):
            collected.add(index, mapping)
        collected.drop_removed()
        return collected.entries, collected.spelled, collected.supplied

    def fold_key(self, key: Any) -> Any:
        return key.casefold() if self.case_insensitive and isinstance(key, str) else key

    def _keys_general_first(self, result: dict, maps: Sequence[Mapping], spelled: Optional[Dict[Any, Any]]) -> dict:
        """The merged map with the least specific map's keys first (key_order: general_first)."""
        ordered = {}
        for mapping in reversed(maps):
            for key in mapping:
                if spelled is not None:
                    key = spelled.get(self.fold_key(key), _ABSENT)
                if key in result and key not in ordered:
                    ordered[key] = result[key]
        return ordered


class _Collected:
    """The keys of maps (most specific first) with their values, knockouts and null deletions applied.

    A null is no value (not_found), a value (value), or removes the key from less specific maps
    (delete); a deleting null that finds nothing to delete is a value.
    """

    def __init__(self, merger: MapMerger, track: bool) -> None:
        self.merger = merger
        self.entries: Dict[Any, List[Any]] = {}
        self.spelled: Optional[Dict[Any, Any]] = {} if merger.case_insensitive else None
        self.supplied: Optional[Dict[Any, List[int]]] = {} if track else None
        self.knocked: set = set()
        self.deleted: set = set()        # keys a null removed from less specific maps (nulls: delete)
        self.removed: set = set()        # ... which a less specific map did hold

    def add(self, index: int, mapping: Mapping) -> None:
        merger = self.merger
        prefix = merger.knockout_prefix
        keep_null = merger.nulls != NULL_MISSING
        knocks, deletes = [], []
        for key, value in mapping.items():
            if is_marker(key, prefix):
                knocks.append(merger.fold_key(unmark(key, prefix)))
                continue
            folded = merger.fold_key(key)
            if self._skips(folded):
                continue
            if value is not None or keep_null:
                self._append(folded, key, value, index)
                if value is None and merger.nulls == NULL_DELETES:
                    deletes.append(folded)      # the last value of this key: nothing less specific is added
            else:
                self._values_of(folded, key)
        self.knocked.update(knocks)
        self.deleted.update(deletes)

    def _skips(self, folded: Any) -> bool:
        """A knocked-out key, or one a more specific null deleted (that null is dropped: it deleted something)."""
        if self.knocked and knockout_text(folded) in self.knocked:
            return True
        if self.deleted and folded in self.deleted:
            if folded not in self.removed:
                self.removed.add(folded)
                self.entries[folded].pop()
                if self.supplied is not None:
                    self.supplied[folded].pop()
            return True
        return False

    def _values_of(self, folded: Any, key: Any) -> List[Any]:
        values = self.entries.get(folded)
        if values is None:
            self.entries[folded] = values = []
            if self.spelled is not None:
                self.spelled[folded] = key
            if self.supplied is not None:
                self.supplied[folded] = []
        return values

    def _append(self, folded: Any, key: Any, value: Any, index: int) -> None:
        self._values_of(folded, key).append(value)
        if self.supplied is not None:
            self.supplied[folded].append(index)

    def drop_removed(self) -> None:
        for folded in self.removed:
            if not self.entries[folded]:
                del self.entries[folded]
                if self.spelled is not None:
                    del self.spelled[folded]
                if self.supplied is not None:
                    del self.supplied[folded]


def may_hold_markers(texts: Iterable[Any], prefix: Optional[str]) -> bool:
    """Whether any text may start with the knockout prefix.

    The merge's hot path: joining the texts and searching the result runs in C;
    a non-text item or a false alarm only sends the values down the general path.
    """
    if prefix is None or not texts:
        return False
    try:
        return ('\n' + '\n'.join(texts)).find('\n' + prefix) >= 0
    except TypeError:
        return True


def keys_may_hold_markers(keys: Iterable[Any], prefix: Optional[str]) -> bool:
    """may_hold_markers for map keys, which repeat from map to map: keys seen to be plain answer from a set."""
    if prefix is None or not keys:
        return False
    plain = _PLAIN_KEYS.get(prefix)
    if plain is not None and plain.issuperset(keys):
        return False
    if may_hold_markers(keys, prefix):
        return True
    if plain is None or len(plain) > _PLAIN_KEYS_LIMIT:
        plain = _PLAIN_KEYS[prefix] = set()
    plain.update(keys)
    return False


def only_values(maps: Sequence[Mapping]) -> bool:
    """Whether the maps hold only scalars, no null."""
    for mapping in maps:
        if not VALUE_TYPES.issuperset(map(type, mapping.values())):
            return False
    return True


def collect_simple(maps: Sequence[Mapping]) -> Dict[Any, List[Any]]:
    """collect without knockout, case folding, null handling or tracking."""
    entries: Dict[Any, List[Any]] = {key: [] if value is None else [value] for key, value in maps[0].items()}
    for mapping in maps[1:]:
        for key, value in mapping.items():
            if key in entries:
                if value is not None:
                    entries[key].append(value)
            else:
                entries[key] = [] if value is None else [value]
    return entries
