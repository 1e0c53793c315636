# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Strategies with the mergers' settings beyond Datum, built through the core's internal API (as the
dialects build theirs), from Datum's map syntax extended by those settings.

Only the tests use this spelling; lookup_options accept Datum's syntax alone.  The keys beside Datum's:
``merge_string``, ``merge_scalar``, ``LeastSpecific`` and ``Positional`` as modes, and the merge options
``array_order``, ``key_order``, ``string_order``, ``string_separator``, ``match_items_by``,
``null_values``, ``type_mismatch``, ``list_kinds``, ``positional_items``.
"""

from __future__ import annotations

from hypothesis import strategies as st

from ansible_collections.strata.hier.plugins.module_utils.mergers.dispatch import ByType
from ansible_collections.strata.hier.plugins.module_utils.mergers.hash_arrays import HashArrayMerger
from ansible_collections.strata.hier.plugins.module_utils.mergers.maps import MapMerger
from ansible_collections.strata.hier.plugins.module_utils.mergers.positional import PositionalMerger
from ansible_collections.strata.hier.plugins.module_utils.mergers.scalar_lists import ScalarListMerger
from ansible_collections.strata.hier.plugins.module_utils.mergers.scalars import ScalarMerger
from ansible_collections.strata.hier.plugins.module_utils.rules import MergeRules
from ansible_collections.strata.hier.plugins.module_utils.strategy import MergeStrategy, parse_strategy

SLOTS = {'merge_hash': 'maps', 'merge_basetype_array': 'scalar_lists', 'merge_hash_array': 'hash_arrays'}


def extended_strategy(spec):
    """A MergeStrategy from a name (Datum's) or a map of Datum's and the extended settings."""
    if not isinstance(spec, dict):
        return parse_strategy(spec)
    spec = dict(spec)
    options = dict(spec.pop('merge_options', None) or {})
    base = parse_strategy(spec.pop('strategy', 'MostSpecific'))
    modes = {setting: spec.get(setting, getattr(base, slot).mode) for setting, slot in SLOTS.items()}
    scalar_modes = (spec.get('merge_string', 'MostSpecific'), spec.get('merge_scalar', 'MostSpecific'))
    merges = any(str(mode).lower() not in ('mostspecific', 'leastspecific')
                 for mode in tuple(modes.values()) + scalar_modes)
    settings = {
        'knockout_prefix': options.get('knockout_prefix', base.knockout_prefix or ('--' if merges else None)),
        'tuple_keys': tuple(options.get('tuple_keys', base.tuple_keys)),
        'nulls': options.get('null_values', 'not_found'),
        'items': extended_strategy(options['positional_items']) if options.get('positional_items') else None,
    }
    return MergeStrategy(
        name='custom',
        maps=MapMerger(modes['merge_hash'], settings['knockout_prefix'], nulls=settings['nulls'],
                       key_order=options.get('key_order', 'specific_first')),
        scalars=ScalarMerger(*scalar_modes, order=options.get('string_order', 'specific_first'),
                             separator=options.get('string_separator', '')),
        scalar_lists=_list_merger(ScalarListMerger, modes['merge_basetype_array'], options, settings, {}),
        hash_arrays=_list_merger(HashArrayMerger, modes['merge_hash_array'], options, settings,
                                 {'match': options.get('match_items_by', 'tuple_keys')}),
        dispatch=ByType(options.get('type_mismatch', 'MostSpecific'), options.get('list_kinds', 'separate')))


def _list_merger(cls, mode, options, settings, extra):
    if str(mode).lower() == 'positional':
        return PositionalMerger(knockout_prefix=settings['knockout_prefix'], items=settings['items'],
                                nulls=settings['nulls'], tuple_keys=settings['tuple_keys'],
                                of_maps=cls is HashArrayMerger)
    return cls(mode, settings['knockout_prefix'], order=options.get('array_order', 'specific_first'),
               tuple_keys=settings['tuple_keys'], **extra)


def extended_rules(default, lookup_options=None, case_insensitive_keys=False):
    """MergeRules whose strategies may use the extended settings."""
    lookup_options = {key: extended_strategy(spec) for key, spec in (lookup_options or {}).items()}
    return MergeRules(extended_strategy(default), lookup_options, case_insensitive_keys)


_ORDERS = st.sampled_from(['specific_first', 'general_first'])


def extended_specs(tuple_keys=(['Name'],), prefixes=None, strings=True, tuple_modes=('DeepTuple',),
                   positional_items=(None, 'deep', {'merge_string': 'Join'})):
    """Generated extended specs (for extended_strategy), every setting drawn; ``prefixes`` None: the default
    prefix; ``strings``: Join and its options too."""
    options = {
        'tuple_keys': st.sampled_from(list(tuple_keys)),
        'array_order': _ORDERS,
        'key_order': _ORDERS,
        'match_items_by': st.sampled_from(['tuple_keys', 'scalar_values']),
        'null_values': st.sampled_from(['not_found', 'value', 'delete']),
        'type_mismatch': st.sampled_from(['MostSpecific', 'LeastSpecific']),
        'list_kinds': st.sampled_from(['separate', 'together']),
        'positional_items': st.sampled_from(list(positional_items)),
    }
    if prefixes is not None:
        options['knockout_prefix'] = st.sampled_from(list(prefixes))
    spec = {
        'merge_hash': st.sampled_from(['MostSpecific', 'hash', 'deep', 'LeastSpecific']),
        'merge_basetype_array': st.sampled_from(['MostSpecific', 'Unique', 'Sum', 'LeastSpecific', 'Positional']),
        'merge_hash_array': st.sampled_from(['MostSpecific', 'Sum'] + list(tuple_modes) + ['LeastSpecific', 'Positional']),
        'merge_scalar': st.sampled_from(['MostSpecific', 'LeastSpecific']),
    }
    if strings:
        spec['merge_string'] = st.sampled_from(['MostSpecific', 'LeastSpecific', 'Join'])
        options['string_order'] = _ORDERS
        options['string_separator'] = st.sampled_from(['', ','])
    spec['merge_options'] = st.fixed_dictionaries(options)
    return st.fixed_dictionaries(spec)
