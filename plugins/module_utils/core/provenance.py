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

from ansible_collections.strata.hier.plugins.module_utils.core.limits import MAX_DEPTH

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
        for index, value in enumerate(self._layers):
            if value is not None:
                self._index(value, Place(index, ()), 0)
        self.entries: Dict[Path, Entry] = {}
        self._used: Optional[Dict[Path, Set[int]]] = None     # used_layers, once the merge is done
        self._items: List[Tuple[Path, int]] = []      # hash-array items being merged: (array's path, index)

    def _index(self, value: Any, place: Place, depth: int) -> None:
        """Every map and list of a layer value by identity, with its place (a YAML alias: its first place)."""
        places, layer = self._places, place.layer
        pending = [(value, place.path)] if isinstance(value, _CONTAINERS) else []
        while pending:
            value, path = pending.pop()
            if len(path) + depth > MAX_DEPTH or id(value) in places:
                continue
            places[id(value)] = _place((layer, path))
            items = value.items() if isinstance(value, dict) else enumerate(value)
            children = [(item, path + (key,)) for key, item in items if isinstance(item, _CONTAINERS)]
            if children:
                children.reverse()      # taken from the end: in the order the value reads
                pending.extend(children)

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
        self.entries = {(path[:size] + (moved[path[size]],) + path[size + 1:]
                         if len(path) > size and path[:size] == shown and path[size] in moved else path): entry
                        for path, entry in self.entries.items()}

    def key(self, path: Path, definitions: List[Tuple[Place, Any]], value: Any) -> None:
        """The key at ``path`` (rules' form) is defined at each place (most specific first) with each value."""
        self.entries[self.shown(path) if self._items else path] = Entry(definitions[0][0] if definitions else None,
                                                                        definitions, path, value)

    def map_key(self, path: Path, maps: Sequence[Any], supplied: Sequence[int], found: Sequence[Any],
                value: Any) -> None:
        """key() of a key written ``path[-1]`` in each map of ``maps`` that ``supplied`` names, with the values
        ``found`` (keys as written: a map merger's hot path)."""
        key, places = path[-1], self._places
        definitions = []
        for index, defined in zip(supplied, found):
            place = places.get(id(maps[index]))
            definitions.append((None if place is None else _place((place[0], place[1] + (key,))), defined))
        self.entries[self.shown(path) if self._items else path] = Entry(definitions[0][0] if definitions else None,
                                                                        definitions, path, value)

    def item(self, path: Path, place: Optional[Place], value: Any, dropped: Sequence[Place] = ()) -> None:
        """Item ``path[-1]`` of the list at ``path[:-1]`` was taken from ``place``; ``dropped``: less specific copies
        it stands for (Unique)."""
        definitions = ([] if place is None else [(place, value)]) + [(other, value) for other in dropped]
        self._note(path, definitions, value, shown_path=self.shown(path[:-1]) + (path[-1],))

    def _note(self, path: Path, definitions: List[Tuple[Place, Any]], value: Any,
              shown_path: Optional[Path] = None) -> None:
        shown_path = self.shown(path) if shown_path is None else shown_path
        place = definitions[0][0] if definitions else None
        self.entries[shown_path] = Entry(place, definitions, path, value)

    def removed(self, path: Path, place: Optional[Place], value: Any, marker: Optional[Place]) -> None:
        """A knockout at ``marker`` removed ``value`` (at ``place``) from the map or list at ``path``."""
        entry = self._entry(path)
        entry.removed.append(Removal(place, value, marker))

    def _entry(self, path: Path) -> Entry:
        shown_path = self.shown(path)
        entry = self.entries.get(shown_path)
        if entry is None:       # a map or list whose own record comes later (its parent notes it once merged)
            entry = self.entries[shown_path] = Entry(None, [], path, None)
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
            self._used = {shown_path: {entry.place.layer} for shown_path, entry in self.entries.items()
                          if len(entry.definitions) > 1 and _is_container(entry.value) and entry.place is not None}
            if self._used:
                self._add_leaf_layers(self._used)
        return self._used.get(tuple(path), set())

    def _add_leaf_layers(self, used: Dict[Path, Set[int]]) -> None:
        depths = sorted({len(path) for path in used})
        for shown_path, entry in self.entries.items():
            if entry.place is None or _is_container(entry.value):
                continue
            for depth in depths:
                if depth > len(shown_path):
                    break
                layers = used.get(shown_path[:depth])
                if layers is not None:
                    layers.add(entry.place.layer)


def _is_container(value: Any) -> bool:
    return isinstance(value, _CONTAINERS)


_CONTAINERS = (dict, list)
