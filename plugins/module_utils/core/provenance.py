# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Provenance: where each part of a merged value comes from, as the merge decided it.

A ``Place`` is a spot in one layer's value: the layer's index (most specific first) and the keys and list
indexes that lead there inside it.  The caller (plugin_utils/provenance_report.py) turns places into files and
lines; this module knows layers only.

The mergers note their decisions in ``Provenance`` while an explaining merge runs (``MergeRun.provenance``):
- a map key: the maps that define it, most specific first (``key``);
- a list item: the list and index it was taken from, and the less specific copies Unique dropped (``item``);
- a knockout: the marker and what it removed, on the path of the map or list it removed from (``removed``).
Before merging, every container of every layer is indexed by identity, so that a merger names the map or list
it read and the index gives its place: scalars are never looked up by identity (small numbers and short texts
are shared objects).

Paths are as the merged value reads them: a hash-array item's keys sit under its index in the merged list,
while the mergers know the array's path only (rules are per array): ``enter_item``/``leave_item`` bracket an
item's merge so its records get the index.
"""

from __future__ import annotations

from functools import partial
from operator import itemgetter
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.kinds import FAST_PATHS
from ansible_collections.strata.hier.plugins.module_utils.core.limits import MAX_DEPTH
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.maps import keys_may_hold_markers

Path = Tuple[Any, ...]


class Place(tuple):
    """A spot in a layer's value: the layer (its index, most specific first) and the keys and indexes inside it.

    A tuple ``(layer, path)``: a merge makes one per key it notes, a report looks each up, so they are made and
    hashed in C (``_place``)."""

    __slots__ = ()

    def __new__(cls, layer: int, path: Path) -> 'Place':
        return tuple.__new__(cls, (layer, path))

    layer = property(itemgetter(0), doc='the index of the layer, most specific first')
    path = property(itemgetter(1), doc='the keys and list indexes inside the layer value')

    def __repr__(self) -> str:
        return 'Place(%d, %r)' % self


_place: Callable[[Tuple[int, Path]], Place] = partial(tuple.__new__, Place)
"""Place((layer, path)) without a call of Python code."""


class Removal:
    """A value a knockout took out: where it was, its value, and where the marker is."""

    __slots__ = ('place', 'value', 'marker')

    def __init__(self, place: Optional[Place], value: Any, marker: Optional[Place]) -> None:
        self.place, self.value, self.marker = place, value, marker


class Entry:
    """What one path of the merged value is made of.

    ``place``: where its value is written (a leaf or list item), or for a map or list its most specific
    definition; ``definitions``: every place that defines the path, most specific first (``place`` among them);
    ``removed``: what knockouts took out of the map or list at the path; ``rule_path``: the path as rules read it
    (without hash-array indexes).
    """

    __slots__ = ('place', 'definitions', 'removed', 'rule_path', 'value')

    def __init__(self, place: Optional[Place], definitions: List[Tuple[Place, Any]], rule_path: Path,
                 value: Any) -> None:
        self.place, self.definitions, self.rule_path, self.value = place, definitions, rule_path, value
        self.removed: List[Removal] = []


class Provenance:
    """The records of one merge, per path of the merged value (see the module's docstring)."""

    def __init__(self, layers: Sequence[Any]) -> None:
        self._places: Dict[int, Place] = {}
        self._layers = list(layers)       # kept alive: the index holds their containers' identities
        if FAST_PATHS.on:
            for index in range(len(self._layers) - 1, -1, -1):     # the first layer holding a container names it
                if self._layers[index] is not None:
                    self._places.update(_layer_index(self._layers[index], index))
        else:
            for index, value in enumerate(self._layers):
                if value is not None:
                    _index_into(self._places, value, Place(index, ()))
        self._entries: Dict[Path, Entry] = {}
        self.below: Dict[Path, Below] = {}      # wholes: the subtree under a record copied from one place
        self._used: Optional[Dict[Path, Set[int]]] = None     # used_layers, once the merge is done
        self._items: List[Tuple[Path, int]] = []      # hash-array items being merged: (array's path, index)
        self._knocked = False       # a knockout's removal is noted (key() and item() then keep it)
        self._expanded = False

    @property
    def noted(self) -> Dict[Path, Entry]:
        """The records as noted: a whole's subtree (``below``) not worked out (provenance_report.py reads it so)."""
        return self._entries

    @property
    def entries(self) -> Dict[Path, Entry]:
        """The record of every path, the wholes' subtrees worked out (once), in the order a merge key by key notes
        them: a map's keys (what each holds first) before the map."""
        if self.below and not self._expanded:
            entries: Dict[Path, Entry] = {}
            for path, entry in self._entries.items():
                below = self.below.get(path)
                if below is not None:
                    entries.update(below.entries(path))
                entries[path] = entry
            self._entries, self._expanded = entries, True
        return self._entries

    def whole(self, run: Any, path: Path, source: Any, merger: Any, depth: int, index: Optional[int] = None) -> Any:
        """A map merged alone as a copy with one record for its whole subtree (``below``): the fast path of a
        map key or hash-array item (``index``) one layer defines, when the subtree holds only maps and scalars, no
        knockout marker, no alias and no rule of its own below ``path``, and explain is off.  None: merge it key by
        key (``path`` in rules' form; ``merger``: the map merger of its strategy)."""
        place = self._places.get(id(source))
        if place is None or not FAST_PATHS.on or not merger.keys_as_written or getattr(run.trace, 'reports', False):
            return None
        copier = _Copier(self._places, run.rules, merger.knockout_prefix)
        copy = copier.copy(source, place, path, depth)
        if copy is None:
            return None
        for size, at in copier.sizes:
            run.budget.spend(size, at)
        shown = self.shown(path) + (() if index is None else (index,))
        self.below[shown] = Below(source, copy, place, path, copier.leaves)
        self._used = None
        return copy

    def layer_place(self, index: int) -> Place:
        """The place of a whole layer value."""
        return Place(index, ())

    def place_of(self, container: Any, key: Any = None) -> Optional[Place]:
        """The place of a container of a layer, or with ``key`` of its key or index; None for a value built while
        merging (it has no place)."""
        place = self._places.get(id(container))
        if place is None or key is None:
            return place
        return _place((place[0], place[1] + (key,)))

    def shown(self, path: Path) -> Path:
        """A path as the merged value reads it: the indexes of the hash-array items being merged put in."""
        if not self._items:
            return path
        if len(self._items) == 1:       # the usual case: one hash array's item
            array, index = self._items[0]
            size = len(array)
            head = tuple(path[:size])
            return head + (index,) + tuple(path[size:]) if head == array else tuple(path)
        shown = list(path)
        inserted = 0
        for array, index in self._items:
            if tuple(path[:len(array)]) == array:
                shown.insert(len(array) + inserted, index)
                inserted += 1
        return tuple(shown)

    def enter_item(self, array: Path, index: int) -> None:
        self._items.append((array, index))

    def leave_item(self) -> None:
        self._items.pop()

    def renumber(self, array: Path, order: List[int]) -> None:
        """The list at ``array`` (rules' form) was reordered (``order[new] = old`` index): the records noted under
        its items' old indexes move to the new ones."""
        shown, moved = self.shown(array), {old: new for new, old in enumerate(order) if old != new}
        size = len(shown)
        if not moved:
            return

        def new(path: Path) -> Path:
            return path[:size] + (moved[path[size]],) + path[size + 1:] \
                if len(path) > size and path[:size] == shown and path[size] in moved else path
        self._entries = {new(path): entry for path, entry in self._entries.items()}
        if self.below:
            self.below = {new(path): below for path, below in self.below.items()}

    def key(self, path: Path, definitions: List[Tuple[Place, Any]], value: Any) -> None:
        """The key at ``path`` (rules' form) is defined at each place (most specific first) with each value."""
        self._put(self.shown(path) if self._items else path,
                  Entry(definitions[0][0] if definitions else None, definitions, path, value))

    def map_key(self, path: Path, maps: Sequence[Any], supplied: Sequence[int], found: Sequence[Any],
                value: Any) -> None:
        """key() of a key written ``path[-1]`` in each map of ``maps`` that ``supplied`` names, with the values
        ``found`` (keys as written: a map merger's hot path)."""
        key, places = path[-1], self._places
        definitions = []
        for index, defined in zip(supplied, found):
            place = places.get(id(maps[index]))
            definitions.append((None if place is None else _place((place[0], place[1] + (key,))), defined))
        entry = Entry(definitions[0][0] if definitions else None, definitions, path, value)
        if self._knocked:
            self._put(self.shown(path) if self._items else path, entry)
        else:
            self._entries[self.shown(path) if self._items else path] = entry

    def item(self, path: Path, place: Optional[Place], value: Any, dropped: Sequence[Place] = ()) -> None:
        """Item ``path[-1]`` of the list at ``path[:-1]`` was taken from ``place``; ``dropped``: less specific copies
        it stands for (Unique)."""
        definitions = ([] if place is None else [(place, value)]) + [(other, value) for other in dropped]
        self._note(path, definitions, value, shown_path=self.shown(path[:-1]) + (path[-1],))

    def plain_items(self, path: Path, lists: Sequence[List[Any]], unique: bool) -> list:
        """The lists (most specific first) of plain text and numbers at ``path`` merged, Sum or ``unique`` (the first
        of equal items kept, as dict keys keep it), each item noted as item() notes the general path's: its place and
        the less specific copies Unique dropped (ScalarListMerger's fast path with provenance)."""
        taken: List[Tuple[Optional[Place], Any, List[Optional[Place]]]] = []
        firsts: Dict[Any, Tuple[Optional[Place], Any, List[Optional[Place]]]] = {}
        for items in lists:
            place = self._places.get(id(items))
            for position, item in enumerate(items):
                at = None if place is None else _place((place[0], place[1] + (position,)))
                first = firsts.get(item) if unique else None
                if first is not None:
                    first[2].append(at)
                    continue
                first = (at, item, [])
                if unique:
                    firsts[item] = first
                taken.append(first)
        shown, entries = self.shown(path), self._entries
        for index, (at, item, dropped) in enumerate(taken):
            definitions = ([] if at is None else [(at, item)]) + [(other, item) for other in dropped]
            entries[shown + (index,)] = Entry(definitions[0][0] if definitions else None, definitions,
                                              path + (index,), item)
        return [entry[1] for entry in taken]

    def _note(self, path: Path, definitions: List[Tuple[Place, Any]], value: Any,
              shown_path: Optional[Path] = None) -> None:
        shown_path = self.shown(path) if shown_path is None else shown_path
        place = definitions[0][0] if definitions else None
        self._put(shown_path, Entry(place, definitions, path, value))

    def _put(self, shown_path: Path, entry: Entry) -> None:
        """The record of a path; what knockouts removed from its map or list, noted while it merged (removed()),
        kept."""
        if self._knocked:
            noted = self._entries.get(shown_path)
            if noted is not None:
                entry.removed = noted.removed
        self._entries[shown_path] = entry

    def removed(self, path: Path, place: Optional[Place], value: Any, marker: Optional[Place]) -> None:
        """A knockout at ``marker`` removed ``value`` (at ``place``) from the map or list at ``path``."""
        entry = self._entry(path)
        entry.removed.append(Removal(place, value, marker))
        self._knocked = True

    def _entry(self, path: Path) -> Entry:
        shown_path = self.shown(path)
        entry = self._entries.get(shown_path)
        if entry is None:       # a map or list whose own record comes later (its parent notes it once merged)
            entry = self._entries[shown_path] = Entry(None, [], path, None)
        return entry

    def container(self, path: Path, definitions: List[Tuple[Place, Any]], value: Any) -> None:
        """A map or list at ``path`` was merged from the definitions (most specific first); removals noted while
        its items merged are kept."""
        entry = self._entry(path)
        entry.place = definitions[0][0] if definitions else None
        entry.definitions, entry.value = definitions, value

    def used_layers(self, path: Path) -> Set[int]:
        """The layers whose values are in the merged value at ``path``: the place of its own record and those of the
        leaves and items below it (worked out, on the first call after the merge, for every map and list defined on
        several layers: only those ask)."""
        if self._used is None:
            self._used = {shown_path: {entry.place.layer} for shown_path, entry in self._entries.items()
                          if len(entry.definitions) > 1 and _is_container(entry.value) and entry.place is not None}
            if self._used:
                self._add_leaf_layers(self._used)
        return self._used.get(tuple(path), set())

    def _add_leaf_layers(self, used: Dict[Path, Set[int]]) -> None:
        depths = sorted({len(path) for path in used})
        leaves = [(shown_path, entry.place.layer) for shown_path, entry in self._entries.items()
                  if entry.place is not None and not _is_container(entry.value)]
        leaves.extend((shown_path, below.place[0]) for shown_path, below in self.below.items() if below.leaves)
        for shown_path, layer in leaves:
            for depth in depths:
                if depth > len(shown_path):
                    break
                layers = used.get(shown_path[:depth])
                if layers is not None:
                    layers.add(layer)


class Below:
    """The subtree (maps and scalars) of a map copied whole from one place (``Provenance.whole``): the records of
    its paths follow from it (``entries``), without being noted one by one.

    ``source``: the layer's map; ``value``: its copy in the merged value; ``place``: the map's place; ``rule_path``:
    its path as rules read it; ``leaves``: whether it holds a scalar or null at some depth (``used_layers``)."""

    __slots__ = ('source', 'value', 'place', 'rule_path', 'leaves')

    def __init__(self, source: dict, value: dict, place: Place, rule_path: Path, leaves: bool) -> None:
        self.source, self.value, self.place, self.rule_path, self.leaves = source, value, place, rule_path, leaves

    def entries(self, shown: Path) -> List[Tuple[Path, Entry]]:
        """(shown path, Entry) of every path below, as the map merger notes them (a key's subtree before it)."""
        found: List[Tuple[Path, Entry]] = []
        layer = self.place[0]
        pending = [(self.source, self.value, self.place[1], self.rule_path, shown, False)]
        while pending:
            source, value, at, rule_path, shown_path, done = pending.pop()
            if done:        # a key whose subtree is noted: its own record
                place = _place((layer, at))
                found.append((shown_path, Entry(place, [(place, source)], rule_path, value)))
                continue
            for key in reversed(list(source)):
                pending.append((source[key], value[key], at + (key,), rule_path + (key,), shown_path + (key,), True))
                if source[key].__class__ is dict:
                    pending.append((source[key], value[key], at + (key,), rule_path + (key,), shown_path + (key,),
                                    False))
        return found


class _Copier:
    """Provenance.whole's walk: a map's copy when its subtree qualifies (else None), the sizes of the maps copied
    (what the merge spends of its budget, in the order it does) and whether it holds a leaf."""

    def __init__(self, places: Dict[int, Place], rules: Any, prefix: Optional[str]) -> None:
        self.places, self.rules, self.prefix = places, rules, prefix
        self.sizes: List[Tuple[int, Path]] = []
        self.leaves = False

    def copy(self, source: dict, place: Place, rule_path: Path, depth: int) -> Optional[dict]:
        if type(source) not in FAST_PATHS.plain_maps or depth + 2 > MAX_DEPTH \
                or keys_may_hold_markers(source, self.prefix):
            return None
        copy = dict(source)
        scalar_types = FAST_PATHS.scalar_types
        for key, value in source.items():
            if type(value) in scalar_types:
                self.leaves = True
                continue
            at = place[1] + (key,)
            if self.places.get(id(value)) != (place[0], at) or self.rules.explicit(rule_path + (key,)) is not None:
                return None     # a list or other value, an alias, or a rule of its own: key by key
            copy[key] = self.copy(value, _place((place[0], at)), rule_path + (key,), depth + 1)
            if copy[key] is None:
                return None
        self.sizes.append((len(copy), rule_path))
        return copy


def _layer_index(value: Any, layer: int) -> Dict[int, Place]:
    """The index of a layer value's containers (Provenance._index), kept for the next merge of the same value at
    the same layer: layers are cached and read by every host."""
    found = _LAYER_INDEXES.get((id(value), layer))
    if found is not None and found[0] is value:
        return found[1]
    if len(_LAYER_INDEXES) >= _LAYER_INDEXES_LIMIT:
        _LAYER_INDEXES.clear()
    places: Dict[int, Place] = {}
    _index_into(places, value, Place(layer, ()))
    _LAYER_INDEXES[(id(value), layer)] = (value, places)        # the value kept alive: its id stays its own
    return places


_LAYER_INDEXES: Dict[Tuple[int, int], Tuple[Any, Dict[int, Place]]] = {}
_LAYER_INDEXES_LIMIT = 4096


def _index_into(places: Dict[int, Place], value: Any, place: Place) -> None:
    """Every map and list of a layer value by identity, with its place (a YAML alias: its first place)."""
    layer = place.layer
    pending = [(value, place.path)] if isinstance(value, _CONTAINERS) else []
    while pending:
        value, path = pending.pop()
        if len(path) > MAX_DEPTH or id(value) in places:
            continue
        places[id(value)] = _place((layer, path))
        items = value.items() if isinstance(value, dict) else enumerate(value)
        children = [(item, path + (key,)) for key, item in items if isinstance(item, _CONTAINERS)]
        if children:
            children.reverse()      # taken from the end: in the order the value reads
            pending.extend(children)


def _is_container(value: Any) -> bool:
    return isinstance(value, _CONTAINERS)


_CONTAINERS = (dict, list)
