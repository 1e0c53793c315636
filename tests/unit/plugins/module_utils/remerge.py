# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The provenance oracle (issue 28): re-merging the contributions the provenance names reproduces the value.

From a merge with ``provenance=True``, each layer is rebuilt from what the records name in it, and nothing else:
- each record's own place: a leaf or list item with its value, a map or list as a container (holding only what
  other records name inside it), but a map or list item of a list mixing scalars and containers as written (such
  a list takes them whole: Unique compares them with the markers they hold);
- what a record says it shadowed (as provenance_report lists it: every other definition of a scalar, the
  definitions of a map or list from layers none of its leaves come from), as written;
- what a knockout removed, as written, and the knockout marker the record names for it.
A list named keeps the kind it is written with: when what is named would change it (a list mixing scalars and
maps of which only maps are named, a list of knockout markers that removed nothing), the items no record names
(knockout markers that removed nothing) stay.
A map named keeps its nulls (a null is no value: no record names one that a value shadows, yet a null tuple key
is part of a hash-array item's identity).

Merging the rebuilt layers again with the same rules must give the value exactly (types and order included).
Every path of the merged value must have a record with a place, the value at a leaf's place must be the leaf, and
every removal must name its marker.
"""

from __future__ import annotations

from collections.abc import Mapping

from ansible_collections.strata.hier.plugins.module_utils.core.kinds import kind_of
from ansible_collections.strata.hier.plugins.module_utils.core.merging import merge_layers
from ansible_collections.strata.hier.plugins.module_utils.core.paths import split_path

WHOLE, SKELETON = 'whole', 'skeleton'


def paths_of(value, root):
    """Every path of a merged value, the value's own first."""
    pending, paths = [(value, root)], []
    while pending:
        current, path = pending.pop()
        paths.append(path)
        if isinstance(current, Mapping):
            pending.extend((item, path + (key,)) for key, item in current.items())
        elif isinstance(current, list):
            pending.extend((item, path + (index,)) for index, item in enumerate(current))
    return paths


def at(layers, place):
    value = layers[place.layer]
    for key in place.path:
        value = value[key]
    return value


def _is_container(value):
    return isinstance(value, (Mapping, list))


class Contributions:
    """The places the records name, per layer: ``{layer: {path: WHOLE or SKELETON}}``."""

    def __init__(self, layers):
        self.layers = layers
        self.named = {}

    def name(self, place, how):
        assert place is not None, 'a record names no place'
        paths = self.named.setdefault(place.layer, {})
        if paths.get(place.path) != WHOLE:
            paths[place.path] = how

    def rebuilt(self):
        """The layers as the named places rebuild them (None: a layer nothing is named in)."""
        return [self._rebuild(value, (), self.named[index]) if index in self.named else None
                for index, value in enumerate(self.layers)]

    def _rebuild(self, value, path, named):
        if named.get(path) == WHOLE or not _is_container(value):
            return value
        size = len(path)
        inside = {other[size] for other in named if len(other) > size and other[:size] == path}
        if isinstance(value, Mapping):
            return {key: self._rebuild(item, path + (key,), named) for key, item in value.items()
                    if key in inside or item is None}
        items = [self._rebuild(item, path + (index,), named) for index, item in enumerate(value) if index in inside]
        if kind_of(items) == kind_of(value):
            return items
        # the list keeps the kind it is written with (the dispatch reads it): its knockout markers that removed
        # nothing, the only items no record names, stay
        return [self._rebuild(item, path + (index,), named) if index in inside else item
                for index, item in enumerate(value)]


def _in_mixed_list(layers, place):
    """Whether the place is an item of a list not all maps: such a list keeps its maps and lists whole, and
    compares them whole (Unique), markers inside them too."""
    if not place.path:
        return False
    written = at(layers, type(place)(place.layer, place.path[:-1]))
    return isinstance(written, list) and not all(isinstance(item, Mapping) for item in written)


def contributions(result, layers, root):
    """The places the records of a merge with provenance name (see the module's docstring)."""
    provenance, named = result.provenance, Contributions(layers)
    for path in paths_of(result.value, root):
        entry = provenance.entries.get(path)
        assert entry is not None, 'no record for %r' % (path,)
        assert entry.place is not None, 'the record of %r names no place' % (path,)
        scalar = not _is_container(entry.value)
        if scalar:
            written = at(layers, entry.place)
            assert type(written) is type(entry.value) and written == entry.value, \
                '%r: %r is written at %r, not %r' % (path, written, entry.place, entry.value)
        named.name(entry.place, WHOLE if scalar or _in_mixed_list(layers, entry.place) else SKELETON)
        used = {entry.place.layer} if scalar else provenance.used_layers(path)
        for place, _value in entry.definitions[1:]:
            if place is not None and (scalar or place.layer not in used):
                named.name(place, WHOLE)
        for removal in entry.removed:
            assert removal.marker is not None, 'the removal of %r at %r names no marker' % (removal.value, path)
            named.name(removal.place, WHOLE)
            named.name(removal.marker, WHOLE)
    return named


def check_remerge(values, rules, path=()):
    """Merge with and without provenance: the same value and warnings; the contributions re-merge to the value.
    Returns the merge's result."""
    plain = merge_layers(values, rules, path)
    result = merge_layers(values, rules, path, provenance=True)
    assert same(result.value, plain.value), (result.value, plain.value)
    assert result.warnings == plain.warnings
    assert result.found == plain.found
    if not result.found:
        return result
    rebuilt = contributions(result, values, split_path(path)).rebuilt()
    again = merge_layers(rebuilt, rules, path)
    assert same(again.value, result.value), 'the contributions %r re-merge to %r, not %r' % (
        rebuilt, again.value, result.value)
    return result


def same(one, other):
    """Equal, with the same types everywhere and maps in the same order (True is not 1, 1.0 is not 1)."""
    if type(one) is not type(other):
        return False
    if isinstance(one, Mapping):
        return list(one) == list(other) and all(same(one[key], other[key]) for key in one)
    if isinstance(one, list):
        return len(one) == len(other) and all(same(left, right) for left, right in zip(one, other))
    return one is other or one == other
