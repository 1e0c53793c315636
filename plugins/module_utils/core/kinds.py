# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Classification of values into Datum's four data types, and the one switch of the merge core's fast paths."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any, Callable, Dict, FrozenSet, Iterator, Optional, Set

SCALAR = 'scalar'            # Datum's BaseType
MAP = 'map'                  # Datum's Hashtable
SCALAR_LIST = 'scalar_list'  # Datum's baseType_array
MAP_LIST = 'map_list'        # Datum's hash_array
EMPTY_LIST = 'empty_list'    # fits either list kind
LIST = 'list'                # the family of every list kind
BUILTIN_SCALARS = frozenset((str, int, float, bool, type(None)))
"""Python's own scalar types, those YAML and JSON parsers give."""
_NULL = type(None)


class FastPaths:
    """The one switch of the merge core's fast paths, and the type caches they read (``FAST_PATHS``).

    A fast path answers what the general path would, faster: a value's family told by a set look-up of its type,
    maps of plain scalars merged by dict operations, hash-array items grouped in C... ``on`` is read once per merge
    (``MergeRun.fast``); the caches are learned as types are met.  ``general()`` switches every fast path off at
    once (the property test of tests/unit/plugins/module_utils/test_fast_paths.py): ``on`` is false and the caches
    are empty and learn nothing, so every value is classified by isinstance.
    """

    def __init__(self) -> None:
        self.on = True
        self._fill()

    def _fill(self) -> None:
        """The caches of the current mode: seeded with the builtin types when on, empty when off."""
        on = self.on
        self.family_by_type: Dict[type, str] = \
            {dict: MAP, list: LIST, tuple: LIST, **dict.fromkeys(BUILTIN_SCALARS, SCALAR)} if on else {}
        self.scalar_types: Set[type] = {kind for kind, family in self.family_by_type.items() if family is SCALAR}
        """The scalar types met so far (the builtin ones, then such as Ansible's tagged strings)."""
        self.value_types: Set[type] = self.scalar_types - {_NULL}
        """The scalar types but null's."""
        self.map_types: Set[type] = {kind for kind, family in self.family_by_type.items() if family is MAP}
        self.plain_maps: FrozenSet[type] = frozenset((dict,) if on else ())
        """Maps of this exact type merge nested maps without asking the dispatch."""
        self.plain_scalars: FrozenSet[type] = frozenset((str, int, float) if on else ())
        """Items of these exact types are compared as they are (``freeze`` gives the value itself; booleans differ)."""
        self.identity_by_type: Dict[type, Optional[Callable[[Any], Any]]] = dict.fromkeys(BUILTIN_SCALARS) if on else {}
        """Each type met so far: its identity function (identity.py), or None for types compared as they are."""
        self.unmarked_keys: Dict[str, Set[Any]] = {}
        """Per knockout prefix, map keys seen not to start with it (mergers/maps.py)."""

    def learn(self, kind: type, family: str) -> None:
        """Remember the family of a type met (subclasses such as Ansible's tagged or unsafe types)."""
        if not self.on:
            return
        self.family_by_type[kind] = family
        if family is SCALAR:
            self.scalar_types.add(kind)
            self.value_types.add(kind)
        elif family is MAP:
            self.map_types.add(kind)

    def learn_identity(self, kind: type, identity: Optional[Callable[[Any], Any]]) -> None:
        if self.on:
            self.identity_by_type[kind] = identity

    def forget_identities(self) -> None:
        """The identities learned so far no longer hold (an opaque type was registered)."""
        self.identity_by_type = dict.fromkeys(BUILTIN_SCALARS) if self.on else {}

    @contextlib.contextmanager
    def general(self) -> Iterator['FastPaths']:
        """Every fast path off within the block; the caches as they were afterwards."""
        saved = dict(vars(self))
        self.on = False
        self._fill()
        try:
            yield self
        finally:
            vars(self).update(saved)


FAST_PATHS = FastPaths()


def kind_of(value: Any) -> str:
    """Datum's classification: a list is a hash array when every item is a map."""
    if isinstance(value, Mapping):
        return MAP
    if isinstance(value, (list, tuple)):
        if not value:
            return EMPTY_LIST
        if FAST_PATHS.map_types.issuperset(map(type, value)):     # the hot path: a set look-up per item, in C
            return MAP_LIST
        return MAP_LIST if all(family_of(item) is MAP for item in value) else SCALAR_LIST
    return SCALAR


def family_of(value: Any) -> str:
    """MAP, LIST or SCALAR: values of one family can merge with each other.

    Looked up by type first (the merge's hot path), then by isinstance for
    subclasses such as Ansible's tagged or unsafe types, whose answer is learned.
    """
    family = FAST_PATHS.family_by_type.get(type(value))
    if family is None:
        family = MAP if isinstance(value, Mapping) else LIST if isinstance(value, (list, tuple)) else SCALAR
        FAST_PATHS.learn(type(value), family)
    return family
