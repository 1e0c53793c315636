# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Parsing of the strategy settings beyond Datum (merge_string, merge_scalar, LeastSpecific,
Positional and the new merge_options)."""

from __future__ import annotations

import pytest

from ansible_collections.strata.hier.plugins.module_utils.errors import StrategyError
from ansible_collections.strata.hier.plugins.module_utils.rules import MergeRules
from ansible_collections.strata.hier.plugins.module_utils.strategy import (
    PRESETS, MergeStrategy, parse_strategy,
)


def test_defaults_are_datums_behaviour():
    strategy = MergeStrategy()
    assert (strategy.merge_string, strategy.merge_scalar) == ('MostSpecific', 'MostSpecific')
    assert (strategy.array_order, strategy.key_order, strategy.string_order) == ('specific_first',) * 3
    assert (strategy.string_separator, strategy.match_items_by, strategy.null_values) == ('', 'tuple_keys', 'not_found')
    assert (strategy.type_mismatch, strategy.list_kinds, strategy.positional_items) == ('MostSpecific', 'separate', None)
    assert strategy.plain_scalars


def test_describe_of_datum_strategies_is_unchanged():
    assert parse_strategy('deep').describe() == {
        'merge_hash': 'deep', 'merge_basetype_array': 'Unique', 'merge_hash_array': 'DeepTuple',
        'merge_options': {'knockout_prefix': '--', 'tuple_keys': ['Name', 'Version']}}


def test_every_new_setting_parses_case_insensitively():
    strategy = parse_strategy({
        'merge_hash': 'leastspecific', 'merge_basetype_array': 'positional', 'merge_hash_array': 'Positional',
        'Merge_String': 'join', 'merge_scalar': 'LeastSpecific',
        'merge_options': {'array_order': 'General_First', 'key_order': 'general_first', 'string_order': 'general_first',
                          'string_separator': ',', 'match_items_by': 'scalar_values', 'null_values': 'Delete',
                          'type_mismatch': 'leastSpecific', 'list_kinds': 'together',
                          'positional_items': {'merge_string': 'Join'}}})
    assert (strategy.merge_hash, strategy.merge_basetype_array, strategy.merge_hash_array) == \
        ('LeastSpecific', 'Positional', 'Positional')
    assert (strategy.merge_string, strategy.merge_scalar) == ('Join', 'LeastSpecific')
    assert (strategy.array_order, strategy.key_order, strategy.string_order) == ('general_first',) * 3
    assert (strategy.string_separator, strategy.match_items_by, strategy.null_values) == (',', 'scalar_values', 'delete')
    assert (strategy.type_mismatch, strategy.list_kinds) == ('LeastSpecific', 'together')
    assert strategy.positional_items.merge_string == 'Join'
    assert not strategy.plain_scalars
    described = strategy.describe()
    assert described['merge_string'] == 'Join' and described['merge_options']['null_values'] == 'delete'
    assert described['merge_options']['positional_items']['merge_string'] == 'Join'


def test_preset_base_with_new_options():
    strategy = parse_strategy({'strategy': 'deep', 'merge_options': {'array_order': 'general_first'}})
    assert strategy.merge_basetype_array == 'Unique' and strategy.array_order == 'general_first'
    assert strategy.knockout_prefix == '--'


def test_join_alone_merges_so_knockout_defaults_on_and_least_specific_alone_does_not():
    assert parse_strategy({'merge_string': 'Join'}).knockout_prefix == '--'
    assert parse_strategy({'merge_scalar': 'LeastSpecific'}).knockout_prefix is None
    assert parse_strategy({'merge_hash': 'LeastSpecific'}).knockout_prefix is None


def test_scalar_values_matching_needs_no_tuple_keys():
    strategy = parse_strategy({'merge_hash_array': 'DeepTuple',
                               'merge_options': {'tuple_keys': [], 'match_items_by': 'scalar_values'}})
    assert strategy.match_items_by == 'scalar_values'


def test_presets_and_shorthands_unchanged():
    for name, preset in PRESETS.items():
        assert parse_strategy(name) is preset
    assert parse_strategy('Sum').plain_scalars


def test_rules_know_whether_a_rule_merges_scalars():
    assert not MergeRules('deep', {'a': 'hash'}).scalar_rules
    assert MergeRules('deep', {'a': {'merge_string': 'Join'}}).scalar_rules
    assert MergeRules('deep').with_rule(('a',), {'merge_scalar': 'LeastSpecific'}, 'merge').scalar_rules


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
    ({'merge_options': {'positional_items': {'merge_string': 'x'}}}, ['positional_items', "'x'"]),
])
def test_malformed_new_settings(spec, words):
    with pytest.raises(StrategyError) as error:
        parse_strategy(spec, 'here')
    message = str(error.value)
    for word in words:
        assert word in message
    assert 'here' in message
