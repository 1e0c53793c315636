# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

import pytest

from ansible_collections.strata.hier.plugins.module_utils.core.errors import StrategyError
from ansible_collections.strata.hier.plugins.module_utils.core.strategy import (
    PRESETS, parse_strategy, with_options,
)


@pytest.mark.parametrize('alias, preset', [('First', 'MostSpecific'), ('MergeTopKeys', 'hash'),
                                           ('MergeRecursively', 'deep'), ('DEEP', 'deep')])
def test_aliases_and_case(alias, preset):
    assert parse_strategy(alias) == PRESETS[preset]


def test_preset_table():
    deep = parse_strategy('deep')
    assert (deep.merge_hash, deep.merge_basetype_array, deep.merge_hash_array) == ('deep', 'Unique', 'DeepTuple')
    assert deep.knockout_prefix == '--' and deep.tuple_keys == ('Name', 'Version')
    hash_ = parse_strategy('hash')
    assert (hash_.merge_hash, hash_.merge_basetype_array, hash_.merge_hash_array) == \
        ('hash', 'MostSpecific', 'MostSpecific')
    assert hash_.knockout_prefix == '--'
    assert parse_strategy('MostSpecific').knockout_prefix is None


@pytest.mark.parametrize('name, field', [('Unique', 'merge_basetype_array'), ('DeepTuple', 'merge_hash_array'),
                                         ('UniqueKeyValTuples', 'merge_hash_array')])
def test_single_sub_strategy_shorthand(name, field):
    strategy = parse_strategy(name)
    assert getattr(strategy, field) == name
    assert strategy.merge_hash == 'MostSpecific'
    assert strategy.knockout_prefix == '--'


def test_sum_shorthand_sets_both_arrays():
    strategy = parse_strategy('Sum')
    assert strategy.merge_basetype_array == strategy.merge_hash_array == 'Sum'


def test_map_with_base_preset_and_overrides():
    strategy = parse_strategy({'strategy': 'hash', 'merge_baseType_array': 'sum',
                               'Merge_Options': {'tuple_keys': ['Id']}})
    assert strategy.merge_hash == 'hash' and strategy.merge_basetype_array == 'Sum'
    assert strategy.tuple_keys == ('Id',) and strategy.knockout_prefix == '--'


def test_map_knockout_can_be_turned_off():
    assert parse_strategy({'merge_hash': 'deep', 'merge_options': {'knockout_prefix': None}}).knockout_prefix is None


def test_unknown_strategy_lists_valid_names():
    with pytest.raises(StrategyError) as error:
        parse_strategy('Deeper', "lookup_options 'Packages'")
    message = str(error.value)
    assert "'Deeper'" in message and "lookup_options 'Packages'" in message
    for name in ('MostSpecific', 'hash', 'deep', 'Unique', 'DeepTuple'):
        assert name in message


@pytest.mark.parametrize('spec, words', [
    ({'merge_hash': 'flat'}, ['merge_hash', 'flat', 'MostSpecific, hash, deep']),
    ({'merge_basetype_array': 'DeepTuple'}, ['merge_basetype_array', 'MostSpecific, Unique, Sum']),
    ({'merge_hash_array': 'Unique'}, ['merge_hash_array', 'UniqueKeyValTuples']),
    ({'merge_hahs': 'deep'}, ['strategy key', 'merge_hahs']),
    ({'merge_options': {'tuple_key': ['Name']}}, ['merge option', 'tuple_key']),
    ({'merge_options': ['Name']}, ['merge_options must be a map']),
    ({'merge_hash_array': 'DeepTuple', 'merge_options': {'tuple_keys': []}}, ['needs merge_options.tuple_keys']),
    ({'merge_options': {'tuple_keys': 'Name'}}, ['tuple_keys must be a list']),
    ({'merge_options': {'tuple_keys': ['Name', 3]}}, ['tuple_keys must be a list']),
    ({'merge_options': {'knockout_prefix': 5}}, ['knockout_prefix must be a string']),
    (42, ['must be a name or a map']),
])
def test_malformed_strategies(spec, words):
    with pytest.raises(StrategyError) as error:
        parse_strategy(spec, 'here')
    for word in words:
        assert word in str(error.value)


def test_with_options_overrides_and_validates():
    strategy = with_options(parse_strategy('DeepTuple'), ['Id'], '!')
    assert strategy.tuple_keys == ('Id',) and strategy.knockout_prefix == '!'
    assert with_options(parse_strategy('deep'), None, '').knockout_prefix is None
    # false and null turn knockout off too (Datum: any false value); only leaving it out keeps the strategy's
    assert with_options(parse_strategy('deep'), None, False).knockout_prefix is None
    assert with_options(parse_strategy('deep'), None, None).knockout_prefix is None
    assert with_options(parse_strategy('deep'), None).knockout_prefix == '--'
    assert parse_strategy({'merge_hash': 'deep', 'merge_options': {'knockout_prefix': False}}).knockout_prefix is None
    assert with_options(parse_strategy('deep')) == parse_strategy('deep')
    with pytest.raises(StrategyError, match='tuple_keys must be a list'):
        with_options(parse_strategy('deep'), 'Name')
