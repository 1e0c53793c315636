# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Merge engine behaviour beyond the seed's examples (layers most specific first)."""

from __future__ import annotations

import copy
import gc
from unittest import mock

import pytest

from ansible_collections.strata.hier.plugins.module_utils.core import merging
from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeDepthError, MergeInputError
from ansible_collections.strata.hier.plugins.module_utils.core.limits import MAX_DEPTH, copy_value
from ansible_collections.strata.hier.plugins.module_utils.core.merging import merge_layers
from ansible_collections.strata.hier.plugins.module_utils.core.rules import MergeRules
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.shapes import looped, nested

DEEP = MergeRules('deep')


def merged(*layers, rules=DEEP, path=()):
    return merge_layers(list(layers), rules, path).value


class TestKnockout:
    def test_removes_from_less_specific_layers_only(self):
        assert merged(['a', '--b'], ['b', 'c'], rules=MergeRules('Unique')) == ['a', 'c']
        # the layer holding the marker keeps its own item
        assert merged(['b', '--b'], ['b', 'c'], rules=MergeRules('Unique')) == ['b', 'c']
        assert merged({'k': 1, '--k': None}, {'k': 2, 'j': 3}, rules=MergeRules('hash')) == {'k': 1, 'j': 3}

    def test_more_specific_layer_can_bring_an_item_back(self):
        assert merged(['b'], ['--b'], ['b', 'c'], rules=MergeRules('Unique')) == ['b', 'c']
        # the knocked-out value of the least specific layer is not merged into the returning key
        assert merged({'k': {'x': 1}}, {'--k': None}, {'k': {'y': 2}}) == {'k': {'x': 1}}

    def test_markers_never_survive(self):
        assert merged(['--nothing-to-remove'], ['a'], rules=MergeRules('Unique')) == ['a']
        assert merged(['--a']) == []
        assert merged({'--gone': None, 'keep': 1}) == {'keep': 1}
        assert merged([{'Name': '--Git'}], rules=MergeRules('deep')) == []

    def test_number_items_knocked_out_by_text(self):
        assert merged(['--80'], [80, 443], rules=MergeRules('Unique')) == [443]

    def test_number_tuple_values_and_map_keys_knocked_out_by_text(self):
        role = [{'Name': 'p', 'Version': 1}, {'Name': 'p', 'Version': 2}, {'Name': 'p', 'Version': 2.5}]
        assert merged([{'Name': 'p', 'Version': '--2'}], role) == [{'Name': 'p', 'Version': 1},
                                                                   {'Name': 'p', 'Version': 2.5}]
        assert merged([{'Name': '--p', 'Version': 2.5}], role) == role[:2]
        assert merged({'ports': {'--80': None}}, {'ports': {80: 'http', 443: 'https'}}) == {'ports': {443: 'https'}}
        # booleans are not numbers, as for base-type items
        assert merged(['--1'], [True], rules=MergeRules('Unique')) == [True]
        assert merged({'--1': None}, {True: 'yes'}) == {True: 'yes'}
        assert merged([{'Name': 'b', 'On': '--1'}], [{'Name': 'b', 'On': True}],
                      rules=MergeRules({'merge_hash_array': 'DeepTuple',
                                        'merge_options': {'tuple_keys': ['Name', 'On']}})) == [{'Name': 'b', 'On': True}]

    def test_partial_and_full_tuple(self):
        rules = MergeRules({'merge_hash_array': 'DeepTuple', 'merge_options': {'tuple_keys': ['Name', 'Version']}})
        role = [{'Name': 'Putty', 'Version': 1}, {'Name': 'Putty', 'Version': 2}, {'Name': 'Git', 'Version': 1}]
        assert merged([{'Name': '--Putty'}], role, rules=rules) == [{'Name': 'Git', 'Version': 1}]
        assert merged([{'Name': '--Putty', 'Version': 2}], role, rules=rules) == \
            [{'Name': 'Putty', 'Version': 1}, {'Name': 'Git', 'Version': 1}]

    def test_custom_prefix_and_disabled_knockout(self):
        assert merged(['!a'], ['a', 'b'], rules=MergeRules({'merge_basetype_array': 'Unique',
                                                            'merge_options': {'knockout_prefix': '!'}})) == ['b']
        off = MergeRules({'merge_basetype_array': 'Sum', 'merge_options': {'knockout_prefix': None}})
        assert merged(['--verbose'], ['-q'], rules=off) == ['--verbose', '-q']


class TestHashArrays:
    rules = MergeRules({'merge_hash_array': 'DeepTuple', 'merge_options': {'tuple_keys': ['Name']}})

    def test_order_most_specific_first_then_new_items(self):
        node = [{'Name': 'c'}, {'Name': 'a', 'v': 2}]
        role = [{'Name': 'a', 'v': 1, 'w': 1}, {'Name': 'b'}]
        assert merged(node, role, rules=self.rules) == [{'Name': 'c'}, {'Name': 'a', 'v': 2, 'w': 1}, {'Name': 'b'}]

    def test_items_without_tuple_keys_are_kept(self):
        assert merged([{'Id': 1}], [{'Id': 1}, {'Name': 'a'}], rules=self.rules) == \
            [{'Id': 1}, {'Id': 1}, {'Name': 'a'}]

    def test_duplicates_within_a_layer_become_one_item(self):
        assert merged([{'Name': 'a', 'x': 1}, {'Name': 'a', 'x': 2, 'y': 3}], rules=self.rules) == \
            [{'Name': 'a', 'x': 1, 'y': 3}]

    def test_items_merge_deeply(self):
        node = [{'Name': 'a', 'Opts': {'x': 1}}]
        role = [{'Name': 'a', 'Opts': {'y': 2}}]
        assert merged(node, role, rules=self.rules) == [{'Name': 'a', 'Opts': {'x': 1, 'y': 2}}]

    def test_sum_concatenates(self):
        rules = MergeRules({'merge_hash_array': 'Sum'})
        assert merged([{'Name': 'a'}], [{'Name': 'a'}, {'Name': '--x'}], rules=rules) == \
            [{'Name': 'a'}, {'Name': 'a'}]

    def test_most_specific(self):
        assert merged([{'Name': 'a'}], [{'Name': 'b'}], rules=MergeRules('hash')) == [{'Name': 'a'}]

    def test_tuple_values_of_any_type(self):
        rules = MergeRules({'merge_hash_array': 'UniqueKeyValTuples', 'merge_options': {'tuple_keys': ['Id']}})
        assert merged([{'Id': [1, 2], 'v': 1}], [{'Id': [1, 2], 'v': 2}, {'Id': {'x': 1}}], rules=rules) == \
            [{'Id': [1, 2], 'v': 1}, {'Id': {'x': 1}}]

    def test_linear_in_items(self):
        layer = [{'Name': str(i), 'v': i} for i in range(20000)]
        result = merged(layer, layer, rules=self.rules)
        assert len(result) == 20000


class TestNesting:
    def test_nested_map_inherits_and_nested_list_uses_default(self):
        rules = MergeRules('MostSpecific', {'Security': 'deep'})
        node = {'Policy': {'A': 1}, 'Features': ['x']}
        role = {'Policy': {'B': 2}, 'Features': ['y']}
        assert merged(node, role, rules=rules, path='Security') == {'Policy': {'A': 1, 'B': 2}, 'Features': ['x']}
        rules = MergeRules('MostSpecific', {'Security': 'deep', 'Security/Features': 'Unique'})
        assert merged(node, role, rules=rules, path='Security')['Features'] == ['x', 'y']

    def test_hash_takes_nested_values_whole(self):
        rules = MergeRules('MostSpecific', {'Net': 'hash'})
        assert merged({'A': {'x': 1}}, {'A': {'y': 2}, 'B': 1}, rules=rules, path='Net') == {'A': {'x': 1}, 'B': 1}

    def test_hash_strips_nested_markers_with_its_prefix(self):
        assert merged({'A': {'--x': None, 'y': 1}}, rules=MergeRules('hash')) == {'A': {'y': 1}}

    def test_null_is_not_found(self):
        assert merged({'a': None, 'b': 1}, {'a': 5}) == {'a': 5, 'b': 1}
        assert merged({'a': None}) == {'a': None}
        result = merge_layers([None, None], DEEP, 'x')
        assert result.found is False and result.value is None
        assert merge_layers([None, 0], DEEP, 'x').value == 0

    def test_type_mismatch_most_specific_wins_with_warning(self):
        result = merge_layers([{'a': 'text'}, {'a': {'x': 1}, 'b': 2}], DEEP)
        assert result.value == {'a': 'text', 'b': 2}
        assert len(result.warnings) == 1 and "'a'" in result.warnings[0]
        result = merge_layers([['x'], [{'Name': 'y'}]], DEEP, 'L')
        assert result.value == ['x'] and 'type mismatch' in result.warnings[0]
        result = merge_layers([[], ['a']], DEEP, 'L')
        assert result.value == ['a'] and not result.warnings

    def test_case_insensitive_keys_and_tuple_values(self):
        rules = MergeRules('deep', {'packages': {'merge_hash_array': 'DeepTuple',
                                                 'merge_options': {'tuple_keys': ['Name']}}},
                           case_insensitive_keys=True)
        node = {'Packages': [{'Name': 'PUTTY', 'v': 2}], 'KEY': 1}
        role = {'packages': [{'Name': 'putty', 'w': 1}], 'key': 2, '--other': None}
        assert merged(node, role, rules=rules) == {'Packages': [{'Name': 'PUTTY', 'v': 2, 'w': 1}], 'KEY': 1}
        assert merged(node, role) == {'Packages': [{'Name': 'PUTTY', 'v': 2}],
                                      'KEY': 1, 'packages': [{'Name': 'putty', 'w': 1}], 'key': 2}

    def test_case_insensitive_tuple_keys_in_knockouts_and_matching(self):
        rules = MergeRules('deep', {'Packages': {'merge_hash_array': 'DeepTuple', 'merge_options': {'tuple_keys': ['Name']}}},
                           case_insensitive_keys=True)
        node = [{'name': '--Putty'}, {'name': 'Git', 'Version': '2'}]
        role = [{'Name': 'Putty'}, {'Name': 'Git', 'Ensure': 'Present'}]
        assert merged(node, role, rules=rules, path='Packages') == [{'name': 'Git', 'Version': '2', 'Ensure': 'Present'}]
        # keys stay case-sensitive by default
        assert len(merged(node, role, rules=MergeRules(rules.explicit(('Packages',)).strategy))) == 4


class TestSourcesAndSafety:
    def test_sources_per_top_level_key(self):
        rules = MergeRules('MostSpecific', {'Net': 'hash', 'Net/Dns': 'Unique'})
        result = merge_layers([{'Dns': ['a'], 'Gw': 1}, None, {'Dns': ['b'], 'Gw': 2, 'Mask': 3}], rules, 'Net')
        assert result.value == {'Dns': ['a', 'b'], 'Gw': 1, 'Mask': 3}
        assert result.sources == {'Dns': [0, 2], 'Gw': [0], 'Mask': [2]}
        assert result.rule == 'Net' and result.strategy.name == 'hash'
        assert merge_layers(['x', 'y'], rules, 'T').sources == [0]
        assert merge_layers([None, ['x'], ['y']], MergeRules('Unique'), 'T').sources == [1, 2]

    def test_inputs_not_mutated_and_not_shared(self):
        node = {'A': {'x': [1, {'k': 'v'}]}, 'L': [{'Name': 'a', 'S': {'z': 1}}], '--B': None}
        role = {'A': {'y': 2}, 'B': {'b': [3]}, 'L': [{'Name': 'a', 'T': 1}, {'Name': 'b'}]}
        before = copy.deepcopy((node, role))
        result = merged(node, role)
        assert (node, role) == before
        result['A']['x'][1]['k'] = 'changed'
        result['L'][0]['S']['z'] = 99
        single = merged(node)
        single['A']['x'].append(5)
        assert (node, role) == before

    def test_depth_limit_is_an_error_not_a_recursion_error(self):
        deep = current = {}
        for _level in range(MAX_DEPTH + 5):
            current['k'] = {}
            current = current['k']
        with pytest.raises(MergeDepthError, match='deeper than %d' % MAX_DEPTH):
            merged(deep, {'k': {}})
        looped = []
        looped.append(looped)
        with pytest.raises(MergeDepthError):
            merged(looped, ['a'])
        within = current = {}
        for _level in range(MAX_DEPTH - 2):
            current['k'] = {}
            current = current['k']
        assert merged(within, within) == within

    def test_copy_value_is_depth_checked(self):
        value = {'m': [{'x': 1}], 't': (1, 2)}
        copied = copy_value(value)
        assert copied == {'m': [{'x': 1}], 't': [1, 2]}
        assert copied['m'] is not value['m'] and copied['m'][0] is not value['m'][0]
        assert copy_value(nested(MAX_DEPTH)) == nested(MAX_DEPTH)
        for levels in (MAX_DEPTH + 1, 1000):
            with pytest.raises(MergeDepthError, match='deeper than %d' % MAX_DEPTH):
                copy_value(nested(levels))
        with pytest.raises(MergeDepthError, match='refers to itself'):
            copy_value(looped())


class TestDocuments:
    def test_each_top_key_merges_as_its_own_lookup(self):
        from ansible_collections.strata.hier.plugins.module_utils.core.merging import merge_documents
        most_specific_with_knockout = {'merge_options': {'knockout_prefix': '--'}}
        rules = MergeRules(most_specific_with_knockout, {'Net': 'hash', 'Features': 'Unique'})
        node = {'Net': {'Dns': 'b'}, 'Features': ['x'], 'Role': {'n': 1}, '--Gone': None}
        role = {'Net': {'Dns': 'a', 'Gw': 'g'}, 'Features': ['y'], 'Role': {'r': 1}, 'Gone': 1, 'Only': 2}
        result = merge_documents([node, None, role], rules)
        assert result.value == {'Net': {'Dns': 'b', 'Gw': 'g'}, 'Features': ['x', 'y'], 'Role': {'n': 1}, 'Only': 2}
        assert result.sources == {'Net': [0, 2], 'Features': [0, 2], 'Role': [0], 'Only': [2]}
        assert merge_documents([None], rules).found is False
        without_knockout = MergeRules('MostSpecific')
        assert merge_documents([{'--Gone': None}, {'Gone': 1}], without_knockout).value == {'--Gone': None, 'Gone': 1}

    def test_documents_must_be_maps(self):
        from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeInputError
        from ansible_collections.strata.hier.plugins.module_utils.core.merging import merge_documents
        with pytest.raises(MergeInputError, match='document 1 is a list'):
            merge_documents([{}, ['a']], DEEP)


def test_merges_pause_the_cycle_collector_and_restore_it():
    """A merge runs without the cycle collector (it makes no cycles) and leaves it as it found it, error or not."""
    during = []
    real_init = merging.MergeRun.__init__

    def recording_init(self, *args):
        during.append(gc.isenabled())
        real_init(self, *args)

    with mock.patch.object(merging.MergeRun, '__init__', recording_init):
        assert merging.merge_layers([{'a': 1}, {'b': 2}], MergeRules('deep')).value == {'a': 1, 'b': 2}
        assert merging.merge_documents([{'a': {'x': 1}}, {'a': {'y': 2}}], MergeRules('deep')).value == \
            {'a': {'x': 1, 'y': 2}}
    assert during == [False, False] and gc.isenabled()
    with pytest.raises(MergeInputError):
        merging.merge_documents([{'a': 1}, 'text'], MergeRules('deep'))
    assert gc.isenabled()
    gc.disable()
    try:
        merging.merge_layers([{'a': 1}], MergeRules('deep'))
        assert not gc.isenabled()
    finally:
        gc.enable()
