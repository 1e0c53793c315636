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
A null in a map is no value (Datum: found means not null); the most specific map's keys come first.
"""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING, AbstractSet, Any, Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.kinds import FAST_PATHS, LIST, MAP, SCALAR
from ansible_collections.strata.hier.plugins.module_utils.core.knockout import is_marker, knockout_text, unmark
from ansible_collections.strata.hier.plugins.module_utils.core.limits import MAX_DEPTH, too_deep
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.base import (
    ALL, INHERITED, MOST_SPECIFIC, WHOLE, Merger,
)
from ansible_collections.strata.hier.plugins.module_utils.core.paths import fold_text
from ansible_collections.strata.hier.plugins.module_utils.core.records import derived

if TYPE_CHECKING:
    from ansible_collections.strata.hier.plugins.module_utils.core.merging import MergeRun
    from ansible_collections.strata.hier.plugins.module_utils.core.strategy import MergeStrategy

HASH = 'hash'
DEEP = 'deep'

_UNMARKED_KEYS_LIMIT = 1 << 16
"""Keys FastPaths.unmarked_keys remembers per prefix before it starts again."""
_NO_KEYS: FrozenSet[Any] = frozenset()
_MANY_KEYS = 8
"""Maps of this many keys together merge faster by dict operations than key by key, when they hold only scalars (a
few keys of a specific layer over many of the common one too)."""


class MapMerger(Merger):
    """Maps merged key by key."""

    SETTING = 'merge_hash'
    MODES = (MOST_SPECIFIC, HASH, DEEP)
    VALUES = 'map'

    case_insensitive: bool = False
    """Keys compare case-insensitively."""
    recurses: bool = derived()
    keys_as_written: bool = derived()
    """Keys compare as written (not case-insensitively): maps may merge by merge_fast, one map as a copy."""

    def _settle(self) -> None:
        self.settle('recurses', self.mode == DEEP)
        self.settle('keys_as_written', not self.case_insensitive)

    def merge(self, run: MergeRun, path: Tuple[Any, ...], values: List[Any], strategy: MergeStrategy, depth: int,
              layers: Optional[List[int]] = None, documents: bool = False) -> dict:
        """Merge maps key by key; with ``layers`` (their layer indexes) also record each key's sources in
        ``run.sources``.  ``documents``: the maps are whole documents, each key merging by its own rule."""
        if depth > MAX_DEPTH:
            raise too_deep(path)
        maps = values[self.takes] if self.takes_one else values
        if not documents and self.keys_as_written and run.fast:
            if layers is None:
                merged = self.merge_fast(run, path, maps, strategy, depth)
            else:
                merged = self._merge_tracked(run, path, maps, strategy, depth, layers[self.takes])
            if merged is not None:
                return merged
        return self._merge_general(run, path, maps, strategy, depth, layers, documents)

    def _merge_tracked(self, run: MergeRun, path: Tuple[Any, ...], maps: List[Any], strategy: MergeStrategy,
                       depth: int, layers: List[int]) -> Optional[dict]:
        """merge's fast path at the looked-up path (each key's sources noted in ``run.sources``) when keys_as_written,
        nothing else is tracked and the maps are not whole documents: what _merge_general gives, in its order (each
        key where it first appears). A key of one map is merged here without collecting its values (most keys of
        layered data: scalars and plain maps copied). None: a knockout marker may be among the keys."""
        if any(keys_may_hold_markers(mapping, self.knockout_prefix) for mapping in maps):
            return None
        if sum(map(len, maps)) <= _FEW_KEYS:     # small maps overriding each other: their keys collected at once
            return self._merge_collected(run, path, maps, strategy, depth, layers)
        result = dict.fromkeys(chain.from_iterable(maps))      # the keys in the order collect gives them
        shared, met = keys_in_several(maps), set()
        nested = self.recurses and not run.rules.has_rules     # maps in maps merge like this one
        scalar_types, sources, alone = FAST_PATHS.scalar_types, run.sources, []
        for index, mapping in enumerate(maps):
            layer = layers[index]
            for key, value in mapping.items():
                if key in shared:
                    if key not in met:      # its first map: all its values merged now
                        met.add(key)
                        self._merge_tracked_key(run, path + (key,), maps[index:], layers[index:], strategy, depth,
                                                nested, result)
                elif type(value) in scalar_types:
                    if value is not None:
                        result[key], sources[key] = value, [layer]
                else:       # merged below; its value until then the layer's
                    result[key], sources[key] = value, [layer]
                    alone.append(key)
        if alone:
            self._merge_all_alone(run, path, alone, strategy, depth, nested, result)
        run.budget.spend(len(result), path)
        return result

    def _merge_collected(self, run: MergeRun, path: Tuple[Any, ...], maps: List[Any], strategy: MergeStrategy,
                         depth: int, layers: List[int]) -> dict:
        """_merge_tracked of maps whose keys are mostly in several of them: each key's values collected in one pass
        (collect_tracked), then merged; cheaper there than a call per key that several maps hold."""
        entries, supplied = collect_tracked(maps)[::2]
        nested = self.recurses and not run.rules.has_rules     # maps in maps merge like this one
        copies = nested and strategy.maps.keys_as_written       # one plain map: _merge_container would copy it
        scalar_types, plain_maps, sources = FAST_PATHS.scalar_types, FAST_PATHS.plain_maps, run.sources
        result = {}
        for key, found in entries.items():
            if not found:
                result[key] = None
            elif scalar_types.issuperset(map(type, found)):
                result[key], sources[key] = found[0], [layers[supplied[key][0]]]     # the scalars' sources
            elif copies and len(found) == 1 and type(found[0]) in plain_maps \
                    and not keys_may_hold_markers(found[0], strategy.maps.knockout_prefix):
                result[key] = strategy.maps._copy(run, path + (key,), found[0], strategy, depth + 1)
                sources[key] = [layers[supplied[key][0]]]
            else:
                result[key], child, merged = self._merge_container(run, path + (key,), found, strategy, depth, False,
                                                                   nested)
                sources[key] = child.sources(merged[0], [layers[index] for index in supplied[key]])
        run.budget.spend(len(result), path)
        return result

    def _merge_all_alone(self, run: MergeRun, path: Tuple[Any, ...], keys: List[Any], strategy: MergeStrategy,
                         depth: int, nested: bool, result: dict) -> None:
        """_merge_tracked's containers of one map, each in ``result`` (its layer in ``run.sources``) replaced by its
        merged value: a plain map holding scalars and plain maps of scalars without a marker among their keys by
        _flat_copy, without a call each but that (most keys of layered data), others by _merge_alone."""
        inner, sources = strategy.maps, run.sources
        flat = nested and inner.keys_as_written and inner.recurses and depth + 1 < MAX_DEPTH
        plain_maps, prefix = FAST_PATHS.plain_maps, inner.knockout_prefix
        unmarked = FAST_PATHS.unmarked_keys.get(prefix, _NO_KEYS)
        for key in keys:
            value = result[key]
            if flat and type(value) in plain_maps and (prefix is None or unmarked.issuperset(value)):
                copied = inner._flat_copy(run, path, value)
                if copied is not None:
                    result[key] = copied
                    continue
            result[key], sources[key] = self._merge_alone(run, path + (key,), value, sources[key][0], strategy,
                                                          depth, nested)
            unmarked = FAST_PATHS.unmarked_keys.get(prefix, _NO_KEYS)      # _merge_alone may have learned keys

    def _merge_alone(self, run: MergeRun, path: Tuple[Any, ...], value: Any, layer: int, strategy: MergeStrategy,
                     depth: int, nested: bool) -> Tuple[Any, List[int]]:
        """_merge_tracked of a container only the map of ``layer`` holds: (its merged value, its sources); a plain map
        without a marker among its keys copied, as _merge_container would (by _flat_copy when it can)."""
        inner = strategy.maps
        if nested and inner.keys_as_written and type(value) in FAST_PATHS.plain_maps \
                and not keys_may_hold_markers(value, inner.knockout_prefix):
            copied = inner._flat_copy(run, path, value) if inner.recurses and depth + 1 < MAX_DEPTH else None
            return inner._copy(run, path, value, strategy, depth + 1) if copied is None else copied, [layer]
        merged, child, values = self._merge_container(run, path, [value], strategy, depth, False, nested)
        return merged, child.sources(values[0], [layer])

    def _merge_tracked_key(self, run: MergeRun, path: Tuple[Any, ...], maps: List[Any], layers: List[int],
                           strategy: MergeStrategy, depth: int, nested: bool, result: dict) -> None:
        """_merge_tracked of the key ``path[-1]`` of ``maps`` (of those ``layers``; a null is no value): its value in
        ``result``, its sources in ``run.sources`` (none when no map holds a value)."""
        key = path[-1]
        found, supplied = [], []
        for mapping, layer in zip(maps, layers):
            value = mapping.get(key)
            if value is not None:
                found.append(value)
                supplied.append(layer)
        if not found:
            return
        inner = strategy.maps
        if FAST_PATHS.scalar_types.issuperset(map(type, found)):
            result[key], run.sources[key] = found[0], supplied[:1]
        elif not (nested and inner.keys_as_written and inner.takes is ALL
                  and FAST_PATHS.plain_maps.issuperset(map(type, found))):
            result[key], child, merged = self._merge_container(run, path, found, strategy, depth, False, nested)
            run.sources[key] = child.sources(merged[0], supplied)
        elif len(found) == 1 and not keys_may_hold_markers(found[0], inner.knockout_prefix):
            result[key], run.sources[key] = inner._copy(run, path, found[0], strategy, depth + 1), supplied
        else:       # what _merge_container, then merge, do for them
            merged = inner.merge_fast(run, path, found, strategy, depth + 1)
            result[key] = inner._merge_general(run, path, found, strategy, depth + 1) if merged is None else merged
            run.sources[key] = supplied

    def _merge_general(self, run: MergeRun, path: Tuple[Any, ...], maps: List[Any], strategy: MergeStrategy,
                       depth: int, layers: Optional[List[int]] = None, documents: bool = False) -> dict:
        if layers is not None:
            layers = layers[self.takes]
        provenance = run.provenance
        entries, spelled, supplied = self.collect(maps, layers is not None or provenance is not None, run.fast)
        nested = self.recurses and not documents and not run.rules.has_rules     # maps in maps merge like this one
        scalar_types = FAST_PATHS.scalar_types
        result = {}
        for folded, found in entries.items():
            key = folded if spelled is None else spelled[folded]
            if not found:
                result[key] = None
            else:
                if scalar_types.issuperset(map(type, found)):     # the fast path: scalars
                    result[key], child, merged = found[0], strategy, found
                else:
                    result[key], child, merged = self._merge_container(run, path + (key,), found, strategy, depth,
                                                                       documents, nested)
                if layers is not None:
                    run.sources[key] = child.sources(merged[0], [layers[index] for index in supplied[folded]])
            if provenance is not None:
                self._note_key(provenance, path + (key,), maps, supplied[folded], found, result[key])
        if provenance is not None:
            self._note_removed(provenance, path, maps)
        run.budget.spend(len(result), path)
        return result

    def _merge_container(self, run: MergeRun, path: Tuple[Any, ...], found: List[Any], strategy: MergeStrategy,
                         depth: int, documents: bool, nested: bool) -> Tuple[Any, MergeStrategy, List[Any]]:
        """One key's values, not all scalars, merged: (the value, the strategy that merged it, the values it
        merged)."""
        if nested and FAST_PATHS.plain_maps.issuperset(map(type, found)):       # the fast path: maps
            maps = strategy.maps
            if len(found) == 1 and run.fast and maps.keys_as_written \
                    and not keys_may_hold_markers(found[0], maps.knockout_prefix):     # what merge_fast does
                return maps._copy(run, path, found[0], strategy, depth + 1), strategy, found
            return maps.merge(run, path, found, strategy, depth + 1), strategy, found
        return self._merge_key(run, path, found, strategy, depth, documents)

    def _note_key(self, provenance: Any, path: Tuple[Any, ...], maps: List[Any], supplied: List[int],
                  found: List[Any], value: Any) -> None:
        """Provenance: the maps defining the key at ``path`` (a null: the most specific map writing it)."""
        key = path[-1]
        if not found:
            supplied, found = [next(index for index, mapping in enumerate(maps) if key in mapping)], [None]
        if self.case_insensitive:
            provenance.key(path, self._definitions(provenance, maps, key, supplied, found), value)
        else:
            provenance.map_key(path, maps, supplied, found, value)

    def _definitions(self, provenance: Any, maps: List[Any], key: Any, supplied: List[int],
                     found: List[Any]) -> List[Tuple[Any, Any]]:
        """Provenance: the places of a key's values (most specific first), the key as each map writes it (keys
        compared case-insensitively: with keys as written, Provenance.map_key)."""
        folded, spellings = self.fold_key(key), {}
        definitions = []
        for index, value in zip(supplied, found):       # a map may write the key twice (a, A): in order
            if index not in spellings:
                spellings[index] = iter([written for written, item in maps[index].items()
                                         if self.fold_key(written) == folded and (item is not None or value is None)])
            definitions.append((provenance.place_of(maps[index], next(spellings[index], key)), value))
        return definitions

    def _note_removed(self, provenance: Any, path: Tuple[Any, ...], maps: List[Any]) -> None:
        """Provenance: the keys knockout markers took out of less specific maps, each with its marker."""
        if not any(keys_may_hold_markers(mapping, self.knockout_prefix) for mapping in maps[:-1]):
            return      # no marker in a map that has a less specific one
        markers = {}
        for index, mapping in enumerate(maps):
            for key, value in mapping.items():
                if is_marker(key, self.knockout_prefix):
                    markers.setdefault(knockout_text(self.fold_key(unmark(key, self.knockout_prefix))), (index, key))
                    continue
                marker = markers.get(knockout_text(self.fold_key(key)))
                if marker is not None and marker[0] < index:     # a null too: the marker took the key out
                    provenance.removed(path, provenance.place_of(mapping, key), value,
                                       provenance.place_of(maps[marker[0]], marker[1]))

    def merge_nested(self, run: MergeRun, path: Tuple[Any, ...], maps: List[Any], strategy: MergeStrategy,
                     depth: int) -> dict:
        """Maps merged with every layer taken, nothing tracked and not as documents, when keys_as_written holds:
        by merge_fast or, when it declines (or the fast paths are off), by the general path."""
        if not run.fast:
            merged = None
        elif len(maps) == 1 and not keys_may_hold_markers(maps[0], self.knockout_prefix):    # what merge_fast does
            return self._copy(run, path, maps[0], strategy, depth)
        else:
            merged = self.merge_fast(run, path, maps, strategy, depth)
        return self._merge_general(run, path, maps, strategy, depth) if merged is None else merged

    def merge_each(self, run: MergeRun, path: Tuple[Any, ...], groups: List[List[Any]], strategy: MergeStrategy,
                   depth: int) -> list:
        """merge_nested of each group of maps (the items of a hash array); an item alone in its group (most of them
        in layered data) copied at once when its keys were seen without a marker: by _merge_each_flat when its maps
        merge like ``self``, else by _copy."""
        if not run.fast:
            return [self.merge_nested(run, path, group, strategy, depth) for group in groups]
        if self.recurses and not run.rules.has_rules and strategy.maps is self and depth < MAX_DEPTH:
            return self._merge_each_flat(run, path, groups, strategy, depth)
        prefix = self.knockout_prefix
        unmarked = FAST_PATHS.unmarked_keys.get(prefix, _NO_KEYS)
        result = []
        for group in groups:
            item = group[0]
            if len(group) > 1 or not (prefix is None or unmarked.issuperset(item)):
                result.append(self.merge_nested(run, path, group, strategy, depth))
                unmarked = FAST_PATHS.unmarked_keys.get(prefix, _NO_KEYS)      # merge_nested may have learned keys
                continue
            result.append(self._copy(run, path, item, strategy, depth))
        return result

    def _merge_each_flat(self, run: MergeRun, path: Tuple[Any, ...], groups: List[List[Any]],
                         strategy: MergeStrategy, depth: int) -> list:
        """merge_each when the items' maps merge like ``self``: an item alone in its group, its keys seen without a
        marker, holding scalars and plain maps of scalars, copied here as _flat_copy copies it, without a call (most
        items of layered data), charged as a whole; the other groups by _merge_group."""
        prefix = self.knockout_prefix
        unmarked = FAST_PATHS.unmarked_keys.get(prefix, _NO_KEYS)
        result = []
        for group in groups:
            known = prefix is None or unmarked.issuperset(group[0])
            copied = self._flat_copy(run, path, group[0]) if len(group) == 1 and known else None
            if copied is None:
                result.append(self._merge_group(run, path, group, strategy, depth, known))
                unmarked = FAST_PATHS.unmarked_keys.get(prefix, _NO_KEYS)      # it may have learned keys
            else:
                result.append(copied)
        return result

    def _merge_group(self, run: MergeRun, path: Tuple[Any, ...], group: List[Any], strategy: MergeStrategy,
                     depth: int, known: bool) -> dict:
        """_merge_each_flat of a group it does not copy: several items by _flat_merge (what merge_fast does) or
        merge_nested, an item whose keys were seen without a marker (``known``) by _copy, else by merge_nested."""
        if len(group) > 1:
            merged = self._flat_merge(run, group)
            return self.merge_nested(run, path, group, strategy, depth) if merged is None else merged
        if known:
            return self._copy(run, path, group[0], strategy, depth)
        return self.merge_nested(run, path, group, strategy, depth)

    def _flat_copy(self, run: MergeRun, path: Tuple[Any, ...], mapping: Mapping) -> Optional[dict]:
        """_copy of a map holding scalars and plain maps of scalars whose keys were seen without a marker, without its
        calls per map (the depth allowing it and ``self`` merging its maps, as _copy checks). None: the map holds
        another container, or its copy would pass the work budget's limit (_copy then charges it as it goes,
        measuring the input or stopping the merge)."""
        scalar_types, budget = FAST_PATHS.scalar_types, run.budget
        allowed = budget.limit - budget.spent
        spent = len(mapping)
        if spent > allowed:
            return None
        result = dict(mapping)
        if not scalar_types.issuperset(map(type, mapping.values())):
            plain_maps, prefix = FAST_PATHS.plain_maps, self.knockout_prefix
            unmarked = FAST_PATHS.unmarked_keys.get(prefix, _NO_KEYS)
            for key, value in mapping.items():
                kind = type(value)
                if kind in scalar_types:
                    continue
                if kind not in plain_maps or not (prefix is None or unmarked.issuperset(value)) \
                        or not scalar_types.issuperset(map(type, value.values())):
                    return None
                spent += len(value)
                if spent > allowed:
                    return None
                result[key] = dict(value)
        budget.spent += spent
        return result

    def merge_fast(self, run: MergeRun, path: Tuple[Any, ...], maps: List[Any], strategy: MergeStrategy,
                   depth: int) -> Optional[dict]:
        """merge's fast path (nested maps, hash-array items) when keys_as_written, nothing is tracked and the maps
        are not whole documents: None when the maps need the general path (a knockout marker among the keys...)."""
        if depth > MAX_DEPTH:
            raise too_deep(path)
        if len(maps) == 1:
            return None if keys_may_hold_markers(maps[0], self.knockout_prefix) \
                else self._copy(run, path, maps[0], strategy, depth)
        if sum(map(len, maps)) >= _MANY_KEYS and only_values(maps):    # such as the leaves of a tree: in C
            return self._merge_values(run, path, maps)
        if self.recurses and depth < MAX_DEPTH and strategy.maps is self and not run.rules.has_rules:
            merged = self._flat_merge(run, maps)
            if merged is not None:
                return merged
        entries = collect_simple(maps)
        if keys_may_hold_markers(entries, self.knockout_prefix):
            return None
        return self._merge_entries(run, path, entries, strategy, depth)

    def _flat_merge(self, run: MergeRun, maps: List[Any]) -> Optional[dict]:
        """merge_fast of plain maps holding scalars and plain maps of scalars, no null, their keys seen without a
        marker (hash-array items and services of layered data, a more specific layer overriding a few of their
        leaves), in one loop over their items, most specific first: each key where it first appears, its most
        specific scalar, its maps merged by _flat_leaves; what _merge_entries gives for them (``self`` merging their
        maps, the depth allowing it, as merge_fast checks). None: other maps, a value of another family than a more
        specific one's (the general path warns), or a merge passing the work budget's limit."""
        value_types, plain_maps, prefix = FAST_PATHS.value_types, FAST_PATHS.plain_maps, self.knockout_prefix
        unmarked = FAST_PATHS.unmarked_keys.get(prefix, _NO_KEYS)
        result: dict = {}
        inner: Dict[Any, List[Any]] = {}
        for mapping in maps:
            if type(mapping) not in plain_maps or not (prefix is None or unmarked.issuperset(mapping)):
                return None
            for key, value in mapping.items():
                kind = type(value)
                if kind in plain_maps:
                    found = inner.get(key)
                    if found is None:
                        if key in result:       # a more specific scalar
                            return None
                        result[key] = found = inner[key] = []       # its place in the keys' order
                    found.append(value)
                elif kind not in value_types or key in inner:
                    return None
                elif key not in result:
                    result[key] = value
        return self._flat_leaves(run, result, inner)

    def _flat_leaves(self, run: MergeRun, result: dict, inner: Dict[Any, List[Any]]) -> Optional[dict]:
        """_flat_merge's maps of scalars (no null), each key's merged into ``result`` by dict operations as
        _merge_leaves does, the whole charged to the work budget (None: not such maps, or it would pass its limit)."""
        value_types, prefix, budget = FAST_PATHS.value_types, self.knockout_prefix, run.budget
        unmarked = FAST_PATHS.unmarked_keys.get(prefix, _NO_KEYS)
        allowed, spent = budget.limit - budget.spent, len(result)
        for key, found in inner.items():
            for mapping in found:
                if not (prefix is None or unmarked.issuperset(mapping)) \
                        or not value_types.issuperset(map(type, mapping.values())):
                    return None
            merged = merged_leaves(found)
            spent += len(merged)
            if spent > allowed:
                return None
            result[key] = merged
        budget.spent += spent
        return result

    def _merge_entries(self, run: MergeRun, path: Tuple[Any, ...], entries: Dict[Any, List[Any]],
                       strategy: MergeStrategy, depth: int) -> dict:
        """merge_fast of the maps' keys, each with its values (collect_simple): maps of scalars merged by
        _merge_leaves, other maps in maps by merge_nested, the rest by _merge_key."""
        nested = self.recurses and not run.rules.has_rules and strategy.maps is self    # maps in maps merge alike
        scalar_types, plain_maps, budget = FAST_PATHS.scalar_types, FAST_PATHS.plain_maps, run.budget
        leaves = depth < MAX_DEPTH      # maps of scalars merged here are one level deeper
        result = {}
        for key, found in entries.items():
            if not found:
                result[key] = None
            elif type(found[0]) in scalar_types and (len(found) == 1 or scalar_types.issuperset(map(type, found))):
                result[key] = found[0]
            elif nested and plain_maps.issuperset(map(type, found)):
                merged = self._merge_leaves(found) if leaves else None
                if merged is None:
                    result[key] = self.merge_nested(run, path + (key,), found, strategy, depth + 1)
                    continue
                result[key] = merged
                budget.spent += len(merged)     # what merge_nested charges for it
                if budget.spent > budget.limit:
                    budget.spend(0, path + (key,))
            else:
                result[key] = self._merge_key(run, path + (key,), found, strategy, depth, False)[0]
        budget.spend(len(result), path)
        return result

    def _merge_leaves(self, maps: List[Any]) -> Optional[dict]:
        """merge_nested of plain maps holding only scalars (the leaves of layered data), without its calls: one map
        copied, several merged by dict operations (no null among them then: it is no value). None: not such maps,
        or a key may be a marker."""
        prefix = self.knockout_prefix
        if len(maps) == 1:
            result = maps[0]
            if not FAST_PATHS.scalar_types.issuperset(map(type, result.values())):
                return None
        else:
            value_types = FAST_PATHS.value_types
            for mapping in maps:
                if not value_types.issuperset(map(type, mapping.values())):
                    return None
            result = merged_leaves(maps)
        if not (prefix is None or FAST_PATHS.unmarked_keys.get(prefix, _NO_KEYS).issuperset(result)) \
                and keys_may_hold_markers(result, prefix):
            return None
        return dict(result) if len(maps) == 1 else result

    def _merge_values(self, run: MergeRun, path: Tuple[Any, ...], maps: List[Any]) -> Optional[dict]:
        """merge_fast of maps holding only scalars, no null: by dict operations (None: a key may be a marker)."""
        result = dict.fromkeys(chain.from_iterable(maps))
        if keys_may_hold_markers(result, self.knockout_prefix):
            return None
        for mapping in reversed(maps):
            result.update(mapping)
        run.budget.spend(len(result), path)
        return result

    def _copy(self, run: MergeRun, path: Tuple[Any, ...], mapping: Mapping, strategy: MergeStrategy,
              depth: int) -> dict:
        """merge of one map, the fast path of hash-array items and single layers: scalars (nulls too) as they are,
        containers merged alone (copied); a nested plain map without a marker among its keys copied here, by
        recursion, which is what merge_nested would do for it (the usual shape of layered data: most of the common
        layer's maps are in no other layer)."""
        if depth > MAX_DEPTH:
            raise too_deep(path)
        result = dict(mapping)
        if not FAST_PATHS.scalar_types.issuperset(map(type, mapping.values())):
            self._copy_containers(run, path, mapping, result, strategy, depth)
        budget = run.budget     # run.budget.spend, inline: this runs for most maps of layered data
        budget.spent += len(result)
        if budget.spent > budget.limit:
            budget.spend(0, path)
        return result

    def _copy_containers(self, run: MergeRun, path: Tuple[Any, ...], mapping: Mapping, result: dict,
                         strategy: MergeStrategy, depth: int) -> None:
        """_copy's containers, copied or merged alone into ``result``; the maps of scalars among them copied here by
        dict(), what _copy gives for them (the leaves of layered data: no call per map), each charged as _copy would."""
        scalar_types, plain_maps, budget = FAST_PATHS.scalar_types, FAST_PATHS.plain_maps, run.budget
        nested = self.recurses and not run.rules.has_rules and strategy.maps is self    # maps in maps merge alike
        prefix = self.knockout_prefix
        unmarked = FAST_PATHS.unmarked_keys.get(prefix, _NO_KEYS)
        leaves = depth < MAX_DEPTH      # a map of scalars copied here is one level deeper
        for key, value in mapping.items():
            kind = type(value)
            if kind in scalar_types:
                continue
            if not (nested and kind in plain_maps):
                result[key] = self._merge_key(run, path + (key,), [value], strategy, depth, False)[0]
            # keys_may_hold_markers, its answer from the keys seen unmarked first (the hot path)
            elif not (prefix is None or unmarked.issuperset(value) or not keys_may_hold_markers(value, prefix)):
                result[key] = self.merge_nested(run, path + (key,), [value], strategy, depth + 1)
            elif leaves and scalar_types.issuperset(map(type, value.values())):
                result[key] = dict(value)
                budget.spent += len(value)
                if budget.spent > budget.limit:
                    budget.spend(0, path + (key,))
            else:
                result[key] = self._copy(run, path + (key,), value, strategy, depth + 1)

    def _merge_key(self, run: MergeRun, path: Tuple[Any, ...], values: List[Any], strategy: MergeStrategy,
                   depth: int, documents: bool) -> Tuple[Any, MergeStrategy, List[Any]]:
        """One key's values merged: (the value, the strategy that merged it, the values it merged)."""
        if FAST_PATHS.scalar_types.issuperset(map(type, values)):
            family = SCALAR
        else:
            family, values = strategy.dispatch.winning_family(run, path, values)
        if family is SCALAR:       # the most specific scalar, whatever the rule of its path
            return strategy.scalars.merge(values), strategy, values
        if documents:
            rule = run.rules.resolve(path)
            child, name = rule.strategy, rule.name
        else:
            child, name = self._child_strategy(run, path, family, strategy)
        if run.trace is not None:       # explain: the strategy chosen here is the one it reports
            run.trace.chose(path, child, name)
            if run.provenance is not None and len(values) == 1 and family is MAP:    # provenance: one layer's map
                copy = run.provenance.whole(run, path, values[0], child.maps, depth + 1)
                if copy is not None:
                    return copy, child, values
        whole = run.fast and child.is_whole and (family is not LIST or len(values) == 1)    # lists: check their kinds
        return run.merge(path, values[:1] if whole else values, child, depth + 1, family), child, values

    def _child_strategy(self, run: MergeRun, path: Tuple[Any, ...], family: str,
                        parent: MergeStrategy) -> Tuple[MergeStrategy, str]:
        """The strategy of a nested map or list and the name of the rule it comes from: the path's own rule, else
        the default (a list under deep), the parent's strategy (a map under deep: INHERITED) or the most specific
        value whole (under hash and MostSpecific: WHOLE)."""
        rule = run.rules.explicit(path)
        if rule is None and family is LIST and self.recurses:
            rule = run.rules.default
        if rule is not None:
            return rule.strategy, rule.name
        return (parent, INHERITED) if self.recurses else (parent.whole, WHOLE)

    def collect(self, maps: Sequence[Mapping], track: bool, fast: bool = True) -> tuple:
        """Per key (folded when keys are case-insensitive): the values, most specific first.

        Also returns the key as most specifically written (case-insensitive keys only) and, when
        ``track``, the indexes of the maps that supplied each key.  ``fast``: the fast paths are on.
        """
        if fast and not track and self.keys_as_written:
            entries = collect_simple(maps)
            if not keys_may_hold_markers(entries, self.knockout_prefix):
                return entries, None, None
        elif FAST_PATHS.on and self.keys_as_written \
                and not any(keys_may_hold_markers(mapping, self.knockout_prefix) for mapping in maps):
            return collect_tracked(maps)        # provenance's fast path: what _Collected gives when nothing knocks out
        collected = _Collected(self, track)
        for index, mapping in enumerate(maps):
            collected.add(index, mapping)
        return collected.entries, collected.spelled, collected.supplied

    def fold_key(self, key: Any) -> Any:
        return fold_text(key) if self.case_insensitive else key


class _Collected:
    """The keys of maps (most specific first) with their values, knockouts applied; a null is no value (Datum)."""

    def __init__(self, merger: MapMerger, track: bool) -> None:
        self.merger = merger
        self.entries: Dict[Any, List[Any]] = {}
        self.spelled: Optional[Dict[Any, Any]] = {} if merger.case_insensitive else None
        self.supplied: Optional[Dict[Any, List[int]]] = {} if track else None
        self.knocked: set = set()

    def add(self, index: int, mapping: Mapping) -> None:
        merger = self.merger
        prefix = merger.knockout_prefix
        knocks = []
        for key, value in mapping.items():
            if is_marker(key, prefix):
                knocks.append(merger.fold_key(unmark(key, prefix)))
                continue
            folded = merger.fold_key(key)
            if self.knocked and knockout_text(folded) in self.knocked:
                continue
            values = self._values_of(folded, key)
            if value is not None:
                values.append(value)
                if self.supplied is not None:
                    self.supplied[folded].append(index)
        self.knocked.update(knocks)

    def _values_of(self, folded: Any, key: Any) -> List[Any]:
        values = self.entries.get(folded)
        if values is None:
            self.entries[folded] = values = []
            if self.spelled is not None:
                self.spelled[folded] = key
            if self.supplied is not None:
                self.supplied[folded] = []
        return values


def may_hold_markers(texts: Iterable[Any], prefix: Optional[str]) -> bool:
    """Whether any text may start with the knockout prefix.

    The merge's fast paths: joining the texts and searching the result runs in C;
    a non-text item or a false alarm only sends the values down the general path.
    """
    if prefix is None or not texts:
        return False
    try:
        joined = '\n'.join(texts)
    except TypeError:
        return True
    # the prefix's first character looked for first: where no text holds it (the usual case) one memchr answers,
    # where the search for the whole prefix costs as much as the join
    return prefix[:1] in joined and (joined.startswith(prefix) or '\n' + prefix in joined)


def keys_may_hold_markers(keys: Iterable[Any], prefix: Optional[str]) -> bool:
    """may_hold_markers for map keys, which repeat from map to map: keys seen unmarked answer from a set."""
    if prefix is None or not keys:
        return False
    unmarked = FAST_PATHS.unmarked_keys.get(prefix)
    if unmarked is not None and unmarked.issuperset(keys):
        return False
    if may_hold_markers(keys, prefix):
        return True
    if unmarked is None or len(unmarked) > _UNMARKED_KEYS_LIMIT:
        unmarked = FAST_PATHS.unmarked_keys[prefix] = set()
    unmarked.update(keys)
    return False


def only_values(maps: Sequence[Mapping]) -> bool:
    """Whether the maps hold only scalars, no null."""
    value_types = FAST_PATHS.value_types
    for mapping in maps:
        if not value_types.issuperset(map(type, mapping.values())):
            return False
    return True


def merged_leaves(maps: List[Any]) -> dict:
    """Maps of scalars (no null: it is no value), most specific first, merged by dict operations: each key where it
    first appears, with its most specific value."""
    merged = dict(maps[0])
    if len(maps) > 1:
        for mapping in maps[1:]:        # the keys in their merged order
            merged.update(mapping)
        for mapping in maps[-2::-1]:    # each key's most specific value
            merged.update(mapping)
    return merged


_FEW_KEYS = 64
"""_merge_tracked: maps holding at most this many keys in all merge by _merge_collected (a call per key that several
maps hold costs more than collecting every key's values once, where most keys are in several maps)."""


def keys_in_several(maps: Sequence[Mapping]) -> AbstractSet[Any]:
    """The keys that more than one of the maps holds (in C: a set look-up per key)."""
    if len(maps) < 2:
        return _NO_KEYS
    if len(maps) == 2:
        return maps[0].keys() & maps[1].keys()
    seen, several = set(maps[0]), set()
    for mapping in maps[1:]:
        several.update(seen.intersection(mapping))
        seen.update(mapping)
    return several


def collect_tracked(maps: Sequence[Mapping]) -> Tuple[Dict[Any, List[Any]], None, Dict[Any, List[int]]]:
    """collect's answer with tracking, without knockout or case folding (nulls as _Collected reads them)."""
    entries: Dict[Any, List[Any]] = {}
    supplied: Dict[Any, List[int]] = {}
    for index, mapping in enumerate(maps):
        for key, value in mapping.items():
            values = entries.get(key)
            if values is None:
                values, indexes = entries[key], supplied[key] = [], []
            else:
                indexes = supplied[key]
            if value is not None:
                values.append(value)
                indexes.append(index)
    return entries, None, supplied


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
