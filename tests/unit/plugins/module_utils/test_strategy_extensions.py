# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The mergers' settings beyond Datum (merge_string, merge_scalar, LeastSpecific, Positional and the
other options the dialects use): built through the internal API, refused in user-written strategies."""

from __future__ import annotations

import pytest

from ansible_collections.strata.hier.plugins.module_utils.errors import StrategyError
from ansible_collections.strata.hier.plugins.module_utils.mergers.hash_arrays import HashArrayMerger
from ansible_collections.strata.hier.plugins.module_utils.mergers.positional import PositionalMerger
from ansible_collections.strata.hier.plugins.module_utils.rules import MergeRules
from ansible_collections.strata.hier.plugins.module_utils.strategy import PRESETS, MergeStrategy, parse_strategy
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.extended import (
    extended_rules, extended_strategy,
)


def test_defaults_are_datums_behaviour():
    strategy = MergeStrategy()
    assert (strategy.scalars.strings, strategy.scalars.others) == ('MostSpecific', 'MostSpecific')
    assert (strategy.scalar_lists.order, strategy.maps.key_order, strategy.scalars.order) == ('specific_first',) * 3
    assert (strategy.scalars.separator, strategy.hash_arrays.match, strategy.maps.nulls) == \
        ('', 'tuple_keys', 'not_found')
    assert (strategy.dispatch.winner, strategy.dispatch.lists) == ('MostSpecific', 'separate')
    assert not isinstance(strategy.scalar_lists, PositionalMerger)
    assert not isinstance(strategy.hash_arrays, PositionalMerger)
    assert strategy.scalars.trivial


def test_describe_of_datum_strategies_is_unchanged():
    assert parse_strategy('deep').describe() == {
        'merge_hash': 'deep', 'merge_basetype_array': 'Unique', 'merge_hash_array': 'DeepTuple',
        'merge_options': {'knockout_prefix': '--', 'tuple_keys': ['Name', 'Version']}}


def test_every_new_setting_is_named_case_insensitively():
    strategy = extended_strategy({
        'merge_hash': 'leastspecific', 'merge_basetype_array': 'positional', 'merge_hash_array': 'Positional',
        'merge_string': 'join', 'merge_scalar': 'LeastSpecific',
        'merge_options': {'array_order': 'General_First', 'key_order': 'general_first', 'string_order': 'general_first',
                          'string_separator': ',', 'match_items_by': 'scalar_values', 'null_values': 'Delete',
                          'type_mismatch': 'leastSpecific', 'list_kinds': 'together',
                          'positional_items': {'merge_string': 'Join'}}})
    assert (strategy.merge_hash, strategy.merge_basetype_array, strategy.merge_hash_array) == \
        ('LeastSpecific', 'Positional', 'Positional')
    assert (strategy.scalars.strings, strategy.scalars.others) == ('Join', 'LeastSpecific')
    assert (strategy.maps.key_order, strategy.scalars.order) == ('general_first',) * 2
    assert (strategy.scalars.separator, strategy.maps.nulls) == (',', 'delete')
    assert (strategy.dispatch.winner, strategy.dispatch.lists) == ('LeastSpecific', 'together')
    assert strategy.hash_arrays.items.scalars.strings == 'Join'
    assert not strategy.scalars.trivial
    assert HashArrayMerger('deeptuple', match='Scalar_Values', order='General_First').order == 'general_first'
    described = strategy.describe()
    assert described['merge_string'] == 'Join' and described['merge_options']['null_values'] == 'delete'
    assert described['merge_options']['positional_items']['merge_string'] == 'Join'


@pytest.mark.parametrize('spec', [
    {'merge_string': 'Join'}, {'merge_scalar': 'LeastSpecific'}, {'merge_hash': 'LeastSpecific'},
    {'merge_basetype_array': 'Positional'}, {'merge_options': {'array_order': 'general_first'}},
    {'merge_options': {'null_values': 'delete'}}, {'merge_options': {'positional_items': 'deep'}},
])
def test_user_written_strategies_are_datums_only(spec):
    with pytest.raises(StrategyError) as error:
        parse_strategy(spec, 'here')
    message = str(error.value)
    assert 'here' in message and 'valid names' in message


def test_preset_base_with_new_options():
    strategy = extended_strategy({'strategy': 'deep', 'merge_options': {'array_order': 'general_first'}})
    assert strategy.merge_basetype_array == 'Unique' and strategy.scalar_lists.order == 'general_first'
    assert strategy.knockout_prefix == '--'


def test_a_user_map_that_merges_gets_the_knockout_prefix_and_one_that_takes_whole_values_does_not():
    assert extended_strategy({'merge_string': 'Join'}).knockout_prefix == '--'
    assert extended_strategy({'merge_scalar': 'LeastSpecific'}).knockout_prefix is None
    assert extended_strategy({'merge_hash': 'LeastSpecific'}).knockout_prefix is None
    assert parse_strategy({'merge_hash': 'hash'}).knockout_prefix == '--'
    assert parse_strategy({'merge_hash': 'MostSpecific'}).knockout_prefix is None


def test_scalar_values_matching_needs_no_tuple_keys():
    assert HashArrayMerger('DeepTuple', tuple_keys=(), match='scalar_values').match == 'scalar_values'
    with pytest.raises(StrategyError, match='needs merge_options.tuple_keys'):
        HashArrayMerger('DeepTuple', tuple_keys=())


def test_presets_and_shorthands_unchanged():
    for name, preset in PRESETS.items():
        assert parse_strategy(name) is preset
    assert parse_strategy('Sum').scalars.trivial


def test_rules_know_whether_a_rule_merges_scalars():
    assert not MergeRules('deep', {'a': 'hash'}).scalar_rules
    assert extended_rules('deep', {'a': {'merge_string': 'Join'}}).scalar_rules
    assert MergeRules('deep').with_rule(('a',), extended_strategy({'merge_scalar': 'LeastSpecific'}),
                                        'merge').scalar_rules


@pytest.mark.parametrize('spec, words', [
    ({'merge_string': 'Concat'}, ['merge_string', 'Concat', 'MostSpecific, LeastSpecific, Join']),
    ({'merge_scalar': 'Join'}, ['merge_scalar', 'MostSpecific, LeastSpecific']),
    ({'merge_hash': 'Positional'}, ['merge_hash', 'Positional', 'LeastSpecific']),
    ({'merge_options': {'array_order': 'reversed'}}, ['array_order', 'reversed', 'specific_first, general_first']),
    ({'merge_options': {'key_order': 1}}, ['key_order']),
    ({'merge_options': {'null_values': 'drop'}}, ['null_values', 'not_found, value, delete']),
    ({'merge_options': {'match_items_by': 'keys'}}, ['match_items_by', 'tuple_keys, scalar_values']),
    ({'merge_options': {'type_mismatch': 'error'}}, ['type_mismatch', 'MostSpecific, LeastSpecific']),
    ({'merge_options': {'list_kinds': 'mixed'}}, ['list_kinds', 'separate, together']),
    ({'merge_options': {'string_separator': 5}}, ['string_separator must be a string']),
    ({'merge_options': {'positional_items': {'merge_string': 'x'}}}, ['merge_string', "'x'"]),
])
def test_malformed_new_settings(spec, words):
    """The mergers validate their own settings (the dialects' mistakes), naming the setting and the valid values."""
    with pytest.raises(StrategyError) as error:
        extended_strategy(spec)
    message = str(error.value)
    for word in words:
        assert word in message
