# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""ACM sequence aggregation (CML's sequence-replace/-append/-prepend, list and set sequences,
the primary-key option), translated into a strategy of the merge core's mergers.

A mode, a kind and a primary key become one MergeStrategy (with settings of the mergers that no
lookup_options rule can name):

=================  ===========================================================================
replace            arrays MostSpecific: the most specific scope's sequence, whole
append / prepend   the lists' order: the most specific scope's items first / last
kind list          Sum: every element kept, duplicates too
kind set           Unique for scalars; elements that are maps are matched and merged (DeepTuple)
                   by the primary key or, without one, by their scalar values
                   (HashArrayMerger's ``match``), each at the place of its most
                   specific occurrence
primary_key        DeepTuple with the key as tuple key: maps with the same key merge, in both kinds
=================  ===========================================================================

Nested sequences merge in the same mode and kind (the strategy is the default rule), maps
(ACM's namespaces) merge key by key with the most specific scalar winning, and nothing is
a knockout marker.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional, Sequence, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeInputError, StrategyError
from ansible_collections.strata.hier.plugins.module_utils.core.merging import MergeResult, merge_documents, merge_layers
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.base import GENERAL_FIRST, SPECIFIC_FIRST, canonical_name
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.dispatch import TOGETHER, ByType
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.hash_arrays import (
    BY_SCALAR_VALUES, DEEP_TUPLE, HashArrayMerger,
)
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.maps import DEEP, MapMerger
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.scalar_lists import SUM, UNIQUE, ScalarListMerger
from ansible_collections.strata.hier.plugins.module_utils.core.rules import MergeRules
from ansible_collections.strata.hier.plugins.module_utils.core.strategy import MergeStrategy

REPLACE, APPEND, PREPEND = MODES = ('replace', 'append', 'prepend')
LIST_KIND, SET_KIND = KINDS = ('list', 'set')
_CML_PREFIX = 'sequence-'       # CML's tag names: sequence-append, ...


def parse_mode(mode: Any) -> str:
    """``append``, ``prepend`` or ``replace``; CML's tag names (``sequence-append``) and any case also do."""
    name = mode.strip() if isinstance(mode, str) else mode
    if isinstance(name, str) and name.lower().startswith(_CML_PREFIX):
        name = name[len(_CML_PREFIX):]
    return canonical_name(name, MODES, 'sequence mode')


def parse_kind(kind: Any) -> str:
    return canonical_name(kind, KINDS, 'sequence kind')


def parse_primary_key(primary_key: Any) -> Optional[Tuple[str, ...]]:
    """A child element name (``ip``; CML's local path ``.ip`` also does) or a list of them; None for none."""
    if primary_key is None or primary_key == '' or primary_key == []:
        return None
    keys = [primary_key] if isinstance(primary_key, str) else primary_key
    if isinstance(keys, (list, tuple)) and keys and all(isinstance(key, str) and key.strip('.') for key in keys):
        return tuple(key.strip().lstrip('.') for key in keys)
    raise StrategyError('primary_key must be an element name or a list of element names, not %r' % (primary_key,))


def sequence_strategy(mode: Any = APPEND, kind: Any = LIST_KIND, primary_key: Any = None) -> MergeStrategy:
    """The merge core's strategy for an ACM sequence mode, kind and primary key."""
    mode = parse_mode(mode)
    kind = parse_kind(kind)
    keys = parse_primary_key(primary_key)
    name = 'sequence %s %s' % (mode, kind)
    if mode == REPLACE:
        scalar_lists, hash_arrays = ScalarListMerger(), HashArrayMerger()
    else:
        order = SPECIFIC_FIRST if mode == APPEND else GENERAL_FIRST
        scalar_lists = ScalarListMerger(UNIQUE if kind == SET_KIND else SUM, order=order)
        if keys:
            hash_arrays = HashArrayMerger(DEEP_TUPLE, tuple_keys=keys, order=order)
        elif kind == SET_KIND:
            hash_arrays = HashArrayMerger(DEEP_TUPLE, match=BY_SCALAR_VALUES, order=order)
        else:
            hash_arrays = HashArrayMerger(SUM, order=order)
    return MergeStrategy(name=name, maps=MapMerger(DEEP), scalar_lists=scalar_lists, hash_arrays=hash_arrays,
                         dispatch=ByType(lists=TOGETHER))


def merge_scopes(scopes: Sequence[Any], mode: Any = APPEND, kind: Any = LIST_KIND,
                 primary_key: Any = None) -> MergeResult:
    """Aggregate the values one sequence has in several scopes, most specific first.

    A scope is a list (the sequence), a map (a namespace holding sequences) or null (no value).
    Messages count scopes from 0, least specific first (the filter's order).
    """
    if not isinstance(scopes, (list, tuple)):
        raise MergeInputError('the scopes must be a list, not %s' % type(scopes).__name__)
    if not scopes:
        raise MergeInputError('there is nothing to merge: the list of scopes is empty')
    for position, scope in enumerate(reversed(scopes)):
        if scope is not None and not isinstance(scope, (Mapping, list, tuple)):
            raise MergeInputError('scope %d (counting from 0, least specific first) must be a list, a map or null, '
                                  'not %s' % (position, type(scope).__name__))
    rules = MergeRules(sequence_strategy(mode, kind, primary_key))
    present = [scope for scope in scopes if scope is not None]
    if present and all(isinstance(scope, Mapping) for scope in present):
        return merge_documents(scopes, rules)
    return merge_layers(scopes, rules)
