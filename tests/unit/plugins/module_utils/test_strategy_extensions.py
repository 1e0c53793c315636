# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The mergers' settings beyond Datum (the options ACM's sequences use): built through the internal API,
refused in user-written strategies; and no merger setting that no shipped strategy uses."""

from __future__ import annotations

import itertools

import pytest

from ansible_collections.strata.hier.plugins.module_utils.dialects.deckhand.layering import DECKHAND_MERGE
from ansible_collections.strata.hier.plugins.module_utils.core.errors import StrategyError
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.dispatch import ByType
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.hash_arrays import HashArrayMerger
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.maps import MapMerger
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.scalar_lists import ScalarListMerger
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.scalars import ScalarMerger
from ansible_collections.strata.hier.plugins.module_utils.dialects.sequence import KINDS, MODES, sequence_strategy
from ansible_collections.strata.hier.plugins.module_utils.core.strategy import (
    PRESETS, SHORTHANDS, MergeStrategy, parse_strategy, with_options,
)
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.extended import extended_strategy

_MERGERS = ('maps', 'scalars', 'scalar_lists', 'hash_arrays', 'dispatch')


def test_defaults_are_datums_behaviour():
    strategy = MergeStrategy()
    assert (strategy.scalar_lists.order, strategy.hash_arrays.order) == ('specific_first',) * 2
    assert (strategy.hash_arrays.match, strategy.dispatch.lists) == ('tuple_keys', 'separate')
    assert strategy.scalars.merge(['specific', 'general']) == 'specific'


def test_describe_of_datum_strategies_is_unchanged():
    assert parse_strategy('deep').describe() == {
        'merge_hash': 'deep', 'merge_basetype_array': 'Unique', 'merge_hash_array': 'DeepTuple',
        'merge_options': {'knockout_prefix': '--', 'tuple_keys': ['Name', 'Version']}}


def test_every_new_setting_is_named_case_insensitively():
    strategy = extended_strategy({'merge_options': {'array_order': 'General_First', 'match_items_by': 'Scalar_Values',
                                                    'list_kinds': 'Together'}})
    assert (strategy.scalar_lists.order, strategy.hash_arrays.order) == ('general_first',) * 2
    assert (strategy.hash_arrays.match, strategy.dispatch.lists) == ('scalar_values', 'together')
    assert HashArrayMerger('deeptuple', match='Scalar_Values', order='General_First').order == 'general_first'
    assert strategy.describe()['merge_options'] == {
        'knockout_prefix': None, 'tuple_keys': ['Name', 'Version'], 'array_order': 'general_first',
        'match_items_by': 'scalar_values', 'list_kinds': 'together'}


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
    assert parse_strategy({'merge_hash': 'hash'}).knockout_prefix == '--'
    assert parse_strategy({'merge_hash': 'MostSpecific'}).knockout_prefix is None


def test_scalar_values_matching_needs_no_tuple_keys():
    assert HashArrayMerger('DeepTuple', tuple_keys=(), match='scalar_values').match == 'scalar_values'
    with pytest.raises(StrategyError, match='needs merge_options.tuple_keys'):
        HashArrayMerger('DeepTuple', tuple_keys=())


def test_presets_and_shorthands_unchanged():
    for name, preset in PRESETS.items():
        assert parse_strategy(name) is preset


@pytest.mark.parametrize('spec, words', [
    ({'merge_options': {'array_order': 'reversed'}}, ['array_order', 'reversed', 'specific_first, general_first']),
    ({'merge_options': {'match_items_by': 'keys'}}, ['match_items_by', 'tuple_keys, scalar_values']),
    ({'merge_options': {'list_kinds': 'mixed'}}, ['list_kinds', 'separate, together']),
])
def test_malformed_new_settings(spec, words):
    """The mergers validate their own settings (the dialects' mistakes), naming the setting and the valid values."""
    with pytest.raises(StrategyError) as error:
        extended_strategy(spec)
    message = str(error.value)
    for word in words:
        assert word in message


def _shipped_strategies():
    """Every strategy shipped code builds: Datum's (lookup_options, deep_merge, with the filter's options and
    case-insensitive keys), Deckhand's and ACM's sequences'."""
    datum = list(PRESETS.values()) + list(SHORTHANDS.values())
    datum.append(with_options(parse_strategy({'merge_hash': 'deep', 'merge_hash_array': 'DeepTuple'}),
                              tuple_keys=['ip'], knockout_prefix='!'))
    sequences = [sequence_strategy(mode, kind, key) for mode, kind, key in itertools.product(MODES, KINDS, (None, 'ip'))]
    shipped = datum + [DECKHAND_MERGE] + sequences
    return shipped + [strategy.with_key_case(True) for strategy in shipped]


def test_every_merger_setting_is_one_a_shipped_strategy_uses():
    """A setting that only tests set is dead code (issue 27): each one differs from its default somewhere."""
    mergers = [getattr(strategy, name) for strategy in _shipped_strategies() for name in _MERGERS]
    used = {(type(merger), field) for merger in mergers for field in merger.FIELDS
            if getattr(merger, field) != merger.DEFAULTS[field]}
    for cls in (MapMerger, ScalarMerger, ScalarListMerger, HashArrayMerger, ByType):
        assert {field for field in cls.FIELDS if (cls, field) not in used} == set(), cls.__name__


def test_every_merger_mode_is_one_a_user_can_name():
    """No mode is kept for the dialects alone: lookup_options reach each one."""
    for setting, cls in (('merge_hash', MapMerger), ('merge_basetype_array', ScalarListMerger),
                         ('merge_hash_array', HashArrayMerger)):
        for mode in cls.MODES:
            assert getattr(parse_strategy({setting: mode}), setting) == mode
