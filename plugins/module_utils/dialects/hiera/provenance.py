# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Provenance of a Hiera lookup: the mergers of merges.py, each value carrying a ``Mark`` of where it is
written (issue 28).

Hiera reduces a key's values pairwise and the deep merge changes its inputs in place (a knockout reaches the next
level only, a list under a new key merges with itself), so places cannot be found again by identity or by value
after the merge: ``TracedMerger`` runs the same steps on (value, mark) pairs, every change to a value mirrored on
its mark.  Only a lookup with provenance builds one (the engine asks ``HieraMerger.traced``), so a lookup without
costs nothing.  Values come from the real mergers wherever they change nothing in place (``unique``, ``hash``);
``deep`` is ported here step by step, and tests compare its answers with the plain merge.

A place is a ``provenance.Place``: the found value's index in the lookup's ``variants`` (level and file, in the
order Hiera met them) and the keys inside the file, so a value an interpolation built (``%{alias()}``) is placed
where the interpolating string is written.
"""

from __future__ import annotations

import copy
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.errors import HieraNotFound, MergeInputError
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.ruby import eql_key, ruby_sort, truthy
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.merges import DEEP, HASH, UNIQUE, HieraMerger
from ansible_collections.strata.hier.plugins.module_utils.core.provenance import Entry, Place, Provenance, Removal

Definition = Tuple[Place, Any]


class Mark:
    """Where a value is written: ``place``; ``definitions``: the place first, then the other definitions it stands
    for (shadowed values, copies a union dropped); ``keys``/``items``: the marks of a map's values or a list's items,
    kept in step with the value; ``removed``: what knockouts took out of it."""

    __slots__ = ('place', 'definitions', 'keys', 'items', 'removed')

    def __init__(self, place: Optional[Place], definitions: List[Definition], keys: Optional[Dict[Any, 'Mark']] = None,
                 items: Optional[List['Mark']] = None, removed: Optional[List[Removal]] = None) -> None:
        self.place, self.definitions, self.keys, self.items = place, definitions, keys, items
        self.removed = removed or []

    def clone(self) -> 'Mark':
        """A deep copy, as the merge deep-copies the lower value (definitions' values are shared, never changed)."""
        keys = None if self.keys is None else {key: mark.clone() for key, mark in self.keys.items()}
        items = None if self.items is None else [mark.clone() for mark in self.items]
        return Mark(self.place, list(self.definitions), keys, items, list(self.removed))

    def shallow(self) -> 'Mark':
        """``copy.copy`` of the value: a new map or list holding the same children."""
        keys = None if self.keys is None else dict(self.keys)
        items = None if self.items is None else list(self.items)
        return Mark(self.place, list(self.definitions), keys, items, list(self.removed))


def mark_of(value: Any, raw: Any, place: Place) -> Mark:
    """The mark of a found value (interpolated) from the data as written (``raw``) at ``place``: keys and items
    paired in order; below a string that interpolation turned into a map or a list, every part has its place."""
    mark = Mark(place, [(place, value)])
    if isinstance(value, dict):
        written = list(raw) if isinstance(raw, dict) and len(raw) == len(value) else None
        mark.keys = {}
        for index, (key, item) in enumerate(value.items()):
            child, raw_item = place, None
            if written is not None:
                child, raw_item = Place(place.layer, place.path + (written[index],)), raw[written[index]]
            mark.keys[key] = mark_of(item, raw_item, child)
    elif isinstance(value, list):
        listed = isinstance(raw, list) and len(raw) == len(value)
        mark.items = [mark_of(item, raw[index] if listed else None,
                              Place(place.layer, place.path + (index,)) if listed else place)
                      for index, item in enumerate(value)]
    return mark


def _over(winner: Mark, loser: Mark) -> Mark:
    """The winner's mark standing for the loser's definitions too (a new mark: the winner's may be shared)."""
    if winner is loser:
        return winner
    return Mark(winner.place or loser.place, winner.definitions + loser.definitions, winner.keys, winner.items,
                winner.removed + loser.removed)


def _union(first: List[Any], first_marks: List[Mark], second: List[Any],
           second_marks: List[Mark]) -> Tuple[List[Any], List[Mark]]:
    """ruby.union with marks: a dropped duplicate's definitions join the kept item's."""
    kept: Dict[Any, int] = {}
    result: List[Any] = []
    marks: List[Mark] = []
    for item, mark in zip(first + second, first_marks + second_marks):
        key = eql_key(item)
        if key in kept:
            marks[kept[key]] = _over(marks[kept[key]], mark)
            continue
        kept[key] = len(result)
        result.append(item)
        marks.append(mark)
    return result, marks


def _flatten(items: List[Any], marks: List[Mark]) -> Tuple[List[Any], List[Mark]]:
    """ruby.flatten with marks."""
    flat: List[Any] = []
    flat_marks: List[Mark] = []
    for item, mark in zip(items, marks):
        if isinstance(item, list):
            nested, nested_marks = _flatten(item, mark.items or [])
            flat.extend(nested)
            flat_marks.extend(nested_marks)
        else:
            flat.append(item)
            flat_marks.append(mark)
    return flat, flat_marks


def _as_list(value: Any, mark: Mark) -> Tuple[List[Any], List[Mark]]:
    """``unique``'s convert with marks: a list flattened, a single value wrapped."""
    return _flatten(value, mark.items or []) if isinstance(value, list) else ([value], [mark])


def _list_mark(mark: Mark, items: List[Mark], *others: Mark) -> Mark:
    result = Mark(mark.place, list(mark.definitions), None, items, list(mark.removed))
    for other in others:
        if other is not mark:
            result.definitions += other.definitions
            result.removed += other.removed
    return result


class TracedMerger:
    """A Hiera merger whose reduction carries marks: the engine hands each found value's mark to ``found`` and
    reads the result's with ``pending.pop()``; nested reductions pass theirs up the same way."""

    traced = True

    def __init__(self, merger: HieraMerger) -> None:
        self.merger = merger
        self.name, self.first_found = merger.name, merger.first_found
        self.pending: List[Mark] = []
        self.trace = LookupTrace()
        self._deep = _TracedDeep(merger) if merger.name == DEEP else None

    def describe(self) -> Any:
        return self.merger.describe()

    def found(self, mark: Mark) -> None:
        self.pending.append(mark)

    def reduce(self, variants: Iterable[Any], fetch: Callable[[Any], Any], fresh: bool = False) -> Any:
        """HieraMerger.reduce, step by step, each value with its mark (``fresh`` or not: a traced merge copies)."""
        variants = list(variants)
        if self.first_found:
            for variant in variants:
                try:
                    return fetch(variant)       # its mark stays pending
                except HieraNotFound:
                    continue
            raise HieraNotFound()
        if len(variants) == 1:
            value = fetch(variants[0])
            value, mark = self._single(value, self.pending.pop())
            self.pending.append(mark)
            return value
        merged, marked = _MISSING, None
        for variant in variants:
            try:
                value = fetch(variant)
            except HieraNotFound:
                continue
            mark = self.pending.pop()
            merged, marked = self._convert(value, mark) if merged is _MISSING else self._merge(merged, marked, value, mark)
        if merged is _MISSING:
            raise HieraNotFound()
        self.pending.append(marked)
        return merged

    def _single(self, value: Any, mark: Mark) -> Tuple[Any, Mark]:
        if self.name == UNIQUE and isinstance(value, list):
            return self.merger.merge_single(value), _list_mark(mark, _union(value, mark.items or [], [], [])[1])
        return self.merger.merge_single(value), mark

    def _convert(self, value: Any, mark: Mark) -> Tuple[Any, Mark]:
        if self.name == UNIQUE:
            return self.merger.convert(value), _list_mark(mark, _as_list(value, mark)[1])
        return self.merger.convert(value), mark

    def _merge(self, higher: Any, high: Mark, lower: Any, low: Mark) -> Tuple[Any, Mark]:
        if self._deep is not None:
            return self._deep.merge(higher, high, lower, low)
        value = self.merger.merge(higher, lower)     # the real merge: its checks, its errors, its answer
        if self.name == UNIQUE:
            higher_items, higher_marks = _as_list(higher, high)
            lower_items, lower_marks = _as_list(lower, low)
            return value, _list_mark(high, _union(higher_items, higher_marks, lower_items, lower_marks)[1], low)
        if self.name == HASH:
            keys = {key: _over(high.keys[key], low.keys[key]) if key in higher and key in lower
                    else high.keys[key] if key in higher else low.keys[key] for key in value}
            return value, Mark(high.place, high.definitions + low.definitions, keys, None, high.removed + low.removed)
        return value, high


_MISSING = object()


class _TracedDeep:
    """DeepMerger's steps (merges.py) on values and their marks; each in-place change made to both."""

    def __init__(self, merger: Any) -> None:
        self.merger = merger
        self.prefix = merger.knockout_prefix

    def merge(self, higher: Any, high: Mark, lower: Any, low: Mark) -> Tuple[Any, Mark]:
        if self.prefix == '':
            raise MergeInputError('knockout_prefix cannot be an empty string in deep_merge!')
        return self._merge(higher, high, copy.deepcopy(lower), low.clone())

    def _merge(self, source: Any, smark: Mark, dest: Any, dmark: Mark) -> Tuple[Any, Mark]:
        if source is None:
            return dest, _over(dmark, smark)
        if not truthy(dest):
            return source, _over(smark, dmark)
        if isinstance(source, dict):
            return self._merge_map(source, smark, dest, dmark)
        if isinstance(source, list):
            return self._merge_list(source, smark, dest, dmark)
        return self._overwrite(source, smark, dest, dmark)

    def _merge_map(self, source: dict, smark: Mark, dest: Any, dmark: Mark) -> Tuple[Any, Mark]:
        marks = dict(smark.keys or {})      # the source's items as they are now (source may become dest)
        for key, value in list(source.items()):
            if not isinstance(dest, dict):
                dest, dmark = self._overwrite(source, smark, dest, dmark)
            elif truthy(dest.get(key)):
                dest[key], dmark.keys[key] = self._merge(value, marks[key], dest[key], dmark.keys[key])
            else:
                old = dmark.keys.get(key) if key in dest else None
                dest[key], merged = self._merge(value, marks[key], copy.copy(value), marks[key].shallow())
                dmark.keys[key] = merged if old is None else _over(merged, old)
        if dest is source:
            return dest, dmark
        if not source:      # an empty map merged into anything leaves it, but is a definition of the path
            return dest, _over(dmark, smark)
        return dest, Mark(smark.place or dmark.place, smark.definitions + dmark.definitions, dmark.keys, None,
                          smark.removed + dmark.removed)

    def _merge_list(self, source: list, smark: Mark, dest: Any, dmark: Mark) -> Tuple[Any, Mark]:
        removals: List[Removal] = []
        if self.prefix and self.prefix in [item for item in source if isinstance(item, str)]:
            dest, dmark, removals = self._clear_by_marker(source, smark, dest, dmark)
        if not isinstance(dest, list):
            value, mark = self._overwrite(source, smark, dest, dmark)
            mark.removed = mark.removed + removals
            return value, mark
        if self.prefix:
            self._knock_out(source, smark.items, dest, dmark.items, removals)
        merged, marks = self._merged_items(source, smark, dest, dmark)
        mark = _list_mark(smark, marks, dmark)
        mark.removed += removals
        return merged, mark

    def _clear_by_marker(self, source: list, smark: Mark, dest: Any, dmark: Mark) -> Tuple[Any, Mark, List[Removal]]:
        """The bare knockout prefix as an item of ``source``: it clears ``dest`` (each removal noted with the
        marker's place) and leaves ``source`` (and its marks)."""
        prefix = self.prefix
        marker = smark.items[next(index for index, item in enumerate(source) if item == prefix
                                  and isinstance(item, str))]
        removals = _removals(dest, dmark, marker.place)
        dest, dmark = _cleared(dest, dmark)
        kept = [index for index, item in enumerate(source) if item != prefix or not isinstance(item, str)]
        marks = smark.items
        source[:], marks[:] = [source[index] for index in kept], [marks[index] for index in kept]
        return dest, dmark, removals

    def _merged_items(self, source: list, smark: Mark, dest: list, dmark: Mark) -> Tuple[List[Any], List[Mark]]:
        """The items of two lists merged (by position for hash arrays, else a union), sorted when Hiera sorts."""
        if self.merger.merge_hash_arrays and all(isinstance(item, dict) for item in source + dest):
            merged, marks = self._by_position(source, smark.items, dest, dmark.items)
        else:
            merged, marks = _union(dest, dmark.items, source, smark.items)
        if self.merger.sort_merged_arrays:
            pairs = ruby_sort(list(zip(merged, marks)), key=lambda pair: pair[0])
            merged, marks = [item for item, _mark in pairs], [mark for _item, mark in pairs]
        return merged, marks

    def _knock_out(self, source: list, smarks: List[Mark], dest: list, dmarks: List[Mark],
                   removals: List[Removal]) -> None:
        """DeepMerger._knock_out on both lists, each removal noted with its marker's place."""
        def knocks_out(item: Any, mark: Mark) -> bool:
            if not self.merger._is_marker(item):
                return False
            stripped = self.merger._strip(item)
            gone = {index for index, old in enumerate(dest) if isinstance(old, str) and old in (stripped, item)}
            removals.extend(Removal(dmarks[index].place, dest[index], mark.place) for index in sorted(gone))
            kept = [index for index in range(len(dest)) if index not in gone]
            dest[:], dmarks[:] = [dest[index] for index in kept], [dmarks[index] for index in kept]
            return True

        _delete_if(source, smarks, knocks_out)

    def _by_position(self, source: list, smarks: List[Mark], dest: list,
                     dmarks: List[Mark]) -> Tuple[List[Any], List[Mark]]:
        merged, marks = [], []
        for index, item in enumerate(dest):
            taken = index < len(source) and truthy(source[index])
            value, mark = self._merge(source[index] if taken else {},
                                      smarks[index] if taken else Mark(None, [], {}), item, dmarks[index])
            merged.append(value)
            marks.append(mark)
        return merged + source[len(dest):], marks + smarks[len(dest):]

    def _overwrite(self, source: Any, smark: Mark, dest: Any, dmark: Mark) -> Tuple[Any, Mark]:
        if not self.prefix:
            return source, _over(smark, dmark)
        if isinstance(source, str):
            if self.merger._strip(source) == source:
                return source, _over(smark, dmark)
            removed = [Removal(dmark.place, dest, smark.place)] if dest is not None else []
            return '', Mark(smark.place, [(smark.place, '')] + dmark.definitions, None, None,
                            smark.removed + removed)
        if isinstance(source, list):
            kept = [index for index, item in enumerate(source) if not self.merger._is_marker(item)]
            marks = smark.items
            source[:], marks[:] = [source[index] for index in kept], [marks[index] for index in kept]
        return source, _over(smark, dmark)


def _removals(dest: Any, dmark: Mark, marker: Optional[Place]) -> List[Removal]:
    """What a bare knockout prefix clears: the lower list's items, map's keys, or the value itself."""
    if isinstance(dest, list):
        return [Removal(mark.place, item, marker) for item, mark in zip(dest, dmark.items or [])]
    if isinstance(dest, dict):
        return [Removal(dmark.keys[key].place, item, marker) for key, item in dest.items()]
    return [Removal(dmark.place, dest, marker)] if dest is not None else []


def _cleared(dest: Any, dmark: Mark) -> Tuple[Any, Mark]:
    """mergers.hiera._cleared with the mark emptied alike."""
    if isinstance(dest, (list, dict)):
        dest.clear()
        (dmark.items if isinstance(dest, list) else dmark.keys).clear()
        return dest, dmark
    return ('' if isinstance(dest, str) else None), dmark


def _delete_if(items: list, marks: List[Mark], predicate: Callable[[Any, Mark], bool]) -> None:
    """mergers.hiera._delete_if on a list and its marks (the predicate may delete from both)."""
    read = kept = 0
    while read < len(items):
        item, mark = items[read], marks[read]
        if not predicate(item, mark):
            if read != kept:
                items[kept], marks[kept] = item, mark
            kept += 1
        read += 1
    if kept < len(items) and kept < read:
        items[kept:] = items[read:] if read < len(items) else []
        marks[kept:] = marks[read:] if read < len(marks) else []


def dig_mark(mark: Mark, segments: Iterable[Any]) -> Mark:
    """The mark of the part of a value a sub key digs to (the dig itself succeeded)."""
    for segment in segments:
        mark = mark.items[segment] if mark.items is not None and isinstance(segment, int) else mark.keys[segment]
    return mark


def provenance_of(value: Any, mark: Mark, root: Tuple[Any, ...]) -> Provenance:
    """The Provenance (provenance.py) of a looked-up value, rooted at ``root``, for provenance_report.  A part
    without a mark (none is expected) has no place: unknown, never a wrong one."""
    provenance = Provenance(())
    pending = [(value, mark, root)]
    while pending:
        current, marked, path = pending.pop()
        entry = Entry(marked.place, _distinct(marked.definitions), (), current)
        entry.removed = list(marked.removed)
        provenance.entries[path] = entry
        if isinstance(current, dict):
            keys = marked.keys or {}
            pending.extend((item, keys.get(key, _UNKNOWN), path + (key,)) for key, item in current.items())
        elif isinstance(current, list):
            items = marked.items or []
            pending.extend((item, items[index] if index < len(items) else _UNKNOWN, path + (index,))
                           for index, item in enumerate(current))
    return provenance


_UNKNOWN = Mark(None, [])


def _distinct(definitions: List[Definition]) -> List[Definition]:
    """Each place once, the first (the mark's own place) first."""
    seen = set()
    distinct = []
    for place, value in definitions:
        if place is not None and place not in seen:
            seen.add(place)
            distinct.append((place, value))
    return distinct


class LookupTrace:
    """What a lookup with provenance leaves for its report: the found values' levels and files (``variants``, as
    (level name, path); a Place's layer indexes them), the answer and its mark, the rule that merged it (the
    lookup_options key, ``merge`` for the call's, None for Hiera's default ``first``) and the data file whose
    lookup_options line declares it."""

    __slots__ = ('variants', 'segments', 'value', 'mark', 'rule', 'rule_file')

    def __init__(self) -> None:
        self.segments: Tuple[Any, ...] = ()
        self.variants: List[Tuple[str, str]] = []
        self.value: Any = None
        self.mark: Optional[Mark] = None
        self.rule: Optional[str] = None
        self.rule_file: Optional[str] = None

    def place(self, level: str, path: str, keys: Tuple[Any, ...]) -> Place:
        """A new variant's place (a file met again, as two globs may list it, is a variant of its own)."""
        self.variants.append((level, path))
        return Place(len(self.variants) - 1, keys)

    def provenance(self, root: Tuple[Any, ...]) -> Provenance:
        return provenance_of(self.value, self.mark or _UNKNOWN, root)
