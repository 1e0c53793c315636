# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Strategies with the mergers' settings beyond Datum, built through the core's internal API (as ACM's
sequences build theirs, sequence.py), from Datum's map syntax extended by those settings.

Only the tests use this spelling; lookup_options accept Datum's syntax alone.  The merge options beside Datum's:
``array_order``, ``match_items_by`` and ``list_kinds``, each combined here with every Datum setting.
"""

from __future__ import annotations

from hypothesis import strategies as st

from ansible_collections.strata.hier.plugins.module_utils.core.mergers.dispatch import ByType
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.hash_arrays import HashArrayMerger
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.maps import MapMerger
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.scalar_lists import ScalarListMerger
from ansible_collections.strata.hier.plugins.module_utils.core.rules import MergeRules
from ansible_collections.strata.hier.plugins.module_utils.core.strategy import MergeStrategy, parse_strategy

SLOTS = {'merge_hash': 'maps', 'merge_basetype_array': 'scalar_lists', 'merge_hash_array': 'hash_arrays'}


def extended_strategy(spec):
    """A MergeStrategy from a name (Datum's) or a map of Datum's and the extended settings."""
    if not isinstance(spec, dict):
        return parse_strategy(spec)
    spec = dict(spec)
    options = dict(spec.pop('merge_options', None) or {})
    base = parse_strategy(spec.pop('strategy', 'MostSpecific'))
    modes = {setting: spec.get(setting, getattr(base, slot).mode) for setting, slot in SLOTS.items()}
    merges = any(str(mode).lower() != 'mostspecific' for mode in modes.values())
    prefix = options.get('knockout_prefix', base.knockout_prefix or ('--' if merges else None))
    order = options.get('array_order', 'specific_first')
    tuple_keys = tuple(options.get('tuple_keys', base.tuple_keys))
    return MergeStrategy(
        name='custom',
        maps=MapMerger(modes['merge_hash'], prefix),
        scalar_lists=ScalarListMerger(modes['merge_basetype_array'], prefix, order=order, tuple_keys=tuple_keys),
        hash_arrays=HashArrayMerger(modes['merge_hash_array'], prefix, order=order, tuple_keys=tuple_keys,
                                    match=options.get('match_items_by', 'tuple_keys')),
        dispatch=ByType(options.get('list_kinds', 'separate')))


def extended_rules(default, lookup_options=None, case_insensitive_keys=False):
    """MergeRules whose strategies may use the extended settings."""
    lookup_options = {key: extended_strategy(spec) for key, spec in (lookup_options or {}).items()}
    return MergeRules(extended_strategy(default), lookup_options, case_insensitive_keys)


def extended_specs(tuple_keys=(['Name'],), prefixes=None, tuple_modes=('DeepTuple',)):
    """Generated extended specs (for extended_strategy), every setting drawn; ``prefixes`` None: the default
    prefix."""
    options = {
        'tuple_keys': st.sampled_from(list(tuple_keys)),
        'array_order': st.sampled_from(['specific_first', 'general_first']),
        'match_items_by': st.sampled_from(['tuple_keys', 'scalar_values']),
        'list_kinds': st.sampled_from(['separate', 'together']),
    }
    if prefixes is not None:
        options['knockout_prefix'] = st.sampled_from(list(prefixes))
    return st.fixed_dictionaries({
        'merge_hash': st.sampled_from(['MostSpecific', 'hash', 'deep']),
        'merge_basetype_array': st.sampled_from(['MostSpecific', 'Unique', 'Sum']),
        'merge_hash_array': st.sampled_from(['MostSpecific', 'Sum'] + list(tuple_modes)),
        'merge_options': st.fixed_dictionaries(options),
    })
