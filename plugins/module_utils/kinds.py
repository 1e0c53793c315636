# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Classification of values into Datum's four data types."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

SCALAR = 'scalar'            # Datum's BaseType
MAP = 'map'                  # Datum's Hashtable
SCALAR_LIST = 'scalar_list'  # Datum's baseType_array
MAP_LIST = 'map_list'        # Datum's hash_array
EMPTY_LIST = 'empty_list'    # fits either list kind


def kind_of(value: Any) -> str:
    """Datum's classification: a list is a hash array when every item is a map."""
    if isinstance(value, Mapping):
        return MAP
    if isinstance(value, (list, tuple)):
        if not value:
            return EMPTY_LIST
        if MAP_TYPES.issuperset(map(type, value)):     # the hot path: a set look-up per item, in C
            return MAP_LIST
        return MAP_LIST if all(family_of(item) is MAP for item in value) else SCALAR_LIST
    return SCALAR


LIST = 'list'                # the family of every list kind
BUILTIN_SCALARS = frozenset((str, int, float, bool, type(None)))
"""Python's own scalar types, those YAML and JSON parsers give."""
_FAMILY_BY_TYPE = {dict: MAP, list: LIST, tuple: LIST, **dict.fromkeys(BUILTIN_SCALARS, SCALAR)}
SCALAR_TYPES = {kind for kind, family in _FAMILY_BY_TYPE.items() if family is SCALAR}
"""The scalar types met so far (the builtin ones, then such as Ansible's tagged strings): the merge's hot path
tells scalars by a set look-up of their type."""
VALUE_TYPES = SCALAR_TYPES - {type(None)}
"""The scalar types but null's."""
MAP_TYPES = {kind for kind, family in _FAMILY_BY_TYPE.items() if family is MAP}
"""The same for maps."""


def family_of(value: Any) -> str:
    """MAP, LIST or SCALAR: values of one family can merge with each other.

    Looked up by type first (the merge's hot path), then by isinstance for
    subclasses such as Ansible's tagged or unsafe types, whose answer is cached.
    """
    family = _FAMILY_BY_TYPE.get(type(value))
    if family is None:
        family = MAP if isinstance(value, Mapping) else LIST if isinstance(value, (list, tuple)) else SCALAR
        _FAMILY_BY_TYPE[type(value)] = family
        if family is SCALAR:
            SCALAR_TYPES.add(type(value))
            VALUE_TYPES.add(type(value))
        elif family is MAP:
            MAP_TYPES.add(type(value))
    return family


def list_kind(lists: list) -> str:
    """The kind of a group of lists: that of the most specific non-empty one."""
    for value in lists:
        kind = kind_of(value)
        if kind != EMPTY_LIST:
            return kind
    return EMPTY_LIST
