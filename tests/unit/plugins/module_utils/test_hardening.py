# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Regressions of the hardening audit (issue 12) in the merge core: alias bombs, vault values compared
without decrypting them, knockout markers that survived."""

from __future__ import annotations

from unittest import mock

import pytest
import yaml

from ansible_collections.strata.hier.plugins.module_utils.dialects.cloud_init import merge_cloud_configs
from ansible_collections.strata.hier.plugins.module_utils.dialects.deckhand.layering import layer_documents
from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeInputError, MergeSizeError
from ansible_collections.strata.hier.plugins.module_utils.dialects.heat import merge_environments
from ansible_collections.strata.hier.plugins.module_utils.core import limits
from ansible_collections.strata.hier.plugins.module_utils.core.limits import FLOOR, WorkBudget, copy_value, written_size
from ansible_collections.strata.hier.plugins.module_utils.core.merging import merge_documents, merge_layers
from ansible_collections.strata.hier.plugins.module_utils.core.rules import MergeRules
from ansible_collections.strata.hier.plugins.module_utils.dialects.sequence import merge_scopes
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.contract import Sealed, lines_run, work_bound
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.shapes import alias_bomb
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.extended import extended_rules

DEEP = MergeRules('deep')
TUPLES = MergeRules({'merge_hash_array': 'DeepTuple', 'merge_options': {'tuple_keys': ['Name']}})


def _items_of_two_layers(data):
    """Hash-array items of two layers, each pair merged by MapMerger._flat_merge once their keys were seen unmarked."""
    key, wide = next(iter(data.items()))
    merge_layers([[{'Name': key, 'o': wide}], [{'Name': key, 'o': {'v0': 0}}]], TUPLES)    # the keys seen
    return merge_layers([[{'Name': key, 'o': wide} for key, wide in data.items()],
                         [{'Name': key, 'o': {'v0': 0}} for key in data]], TUPLES)


class TestAliasBombs:
    @pytest.mark.parametrize('maps', [False, True], ids=['lists', 'maps'])
    @pytest.mark.parametrize('merge', [
        lambda data: merge_layers([data, {'l0': ['y']}], DEEP),
        lambda data: merge_documents([data, {'l1': None}], DEEP),
        lambda data: merge_layers([data], MergeRules('hash')),
        lambda data: merge_layers([data], MergeRules('MostSpecific')),
        lambda data: merge_layers([data['l8']], MergeRules('Sum')),
        copy_value,
        lambda data: merge_scopes([data, data], kind='set'),
        lambda data: merge_cloud_configs([data, {'merge_how': 'dict(no_replace,recurse_list)+list(append)'}]),
        lambda data: merge_environments([{'parameters': {'p': data}}]),
        lambda data: layer_documents([{'schema': 'a/B/v1', 'metadata': {'name': 'n'}, 'data': data}]),
    ], ids=['deep', 'documents', 'hash', 'MostSpecific', 'Sum', 'copy', 'sequence', 'cloud-init', 'heat', 'deckhand'])
    def test_a_small_file_cannot_make_merging_expand_it(self, maps, merge):
        text = alias_bomb(maps=maps)
        assert len(text) < 1000
        data = yaml.safe_load(text)
        outcome, lines = lines_run(merge, data)
        assert isinstance(outcome, MergeSizeError), outcome
        assert 'YAML aliases' in str(outcome)
        assert lines <= work_bound([data])

    def test_aliases_within_the_budget_are_merged_whole(self):
        data = yaml.safe_load('base: &base {a: 1, l: [x, y]}\none: *base\ntwo: *base\nthree: {<<: *base, b: 2}\n')
        result = merge_layers([data, {'one': {'c': 3}}], DEEP).value
        assert result == {'base': {'a': 1, 'l': ['x', 'y']}, 'one': {'a': 1, 'l': ['x', 'y'], 'c': 3},
                          'two': {'a': 1, 'l': ['x', 'y']}, 'three': {'a': 1, 'l': ['x', 'y'], 'b': 2}}
        assert result['one'] is not result['two'] and result['one']['l'] is not result['two']['l']

    def test_the_budget_scales_with_the_written_size(self):
        width = 2 * FLOOR      # a flat list larger than the floor: no alias, no error
        assert len(merge_layers([['x%d' % index for index in range(width)]] * 2, MergeRules('Sum')).value) == 2 * width

    @pytest.mark.parametrize('make', [
        lambda n: [{'k%d' % index: index for index in range(n)}, {'k%d' % index: -index for index in range(0, n, 2)}],
        lambda n: [['v%d' % index for index in range(n)], ['v%d' % index for index in range(0, n, 3)]],
        lambda n: [[{'Name': 'n%d' % index, 'v': index} for index in range(n)],
                   [{'Name': 'n%d' % index, 'w': index} for index in range(0, n, 2)]],
    ], ids=['map', 'list', 'hash array'])
    def test_huge_flat_inputs_cost_linear_work(self, make):
        _outcome, small = lines_run(merge_layers, make(4000), DEEP)
        _outcome, large = lines_run(merge_layers, make(8000), DEEP)
        assert large <= 2.1 * small

    def test_measuring_a_long_list_reads_none_of_its_items(self):
        """Issue 32: a merge past FLOOR measures its input only as far as it needs; a list long enough is counted
        by its length, its items not looked at (a Unique list of 4n strings spent as long measuring as merging)."""
        budget = WorkBudget([['x%d' % index for index in range(3 * FLOOR)]])
        with mock.patch.object(limits, 'family_of', wraps=limits.family_of) as family_of:
            budget.spend(FLOOR + 100)
        assert budget.limit == FLOOR + limits.FACTOR * (1 + 3 * FLOOR)
        assert family_of.call_count <= 2

    @pytest.mark.parametrize('merge', [
        lambda data: merge_layers([{'a': data}], DEEP),
        lambda data: merge_layers([{'a': dict(data, deeper={'x': {'y': 1}})}, {'other': 1}], DEEP),
        lambda data: merge_layers([{'a': {'k0': {'x': 1}}}, {'a': data}], DEEP),
        lambda data: merge_layers([[{'Name': key, 'o': wide} for key, wide in data.items()]], TUPLES),
        _items_of_two_layers,
    ], ids=['maps of scalars', 'and a deeper map', 'two layers', 'hash-array items', 'hash-array items of two layers'])
    def test_maps_of_scalars_copied_in_a_row_are_charged_each(self, merge):
        """Issue 32: the fast paths copy a map's maps of scalars without a call each (charged as a whole): each
        is still charged as it is built, so a map of many aliases of one wide map stops at the budget's limit,
        not after building them all (300 copies of 2,000 values here)."""
        wide = {'v%d' % index: index for index in range(2000)}
        data = {'k%d' % index: wide for index in range(300)}
        overdrawn = []
        over = WorkBudget._over

        def noting(budget, path):
            try:
                over(budget, path)
            except MergeSizeError:
                overdrawn.append(budget.spent - budget.limit)
                raise
        with mock.patch.object(WorkBudget, '_over', autospec=True, side_effect=noting):
            with pytest.raises(MergeSizeError):
                merge(data)
        assert overdrawn and overdrawn[0] <= len(wide) + 1

    def test_written_size_counts_an_alias_once(self):
        shared = [1, 2, 3]
        assert written_size([{'a': shared, 'b': shared}]) == (1 + 2) + (1 + 3)
        looped = {}
        looped['self'] = looped
        assert written_size([looped]) == 2


class TestVaultValuesAreComparedByCiphertext:
    """Sealed stands for an inline vault value: comparing it as text would decrypt it (and fail without the
    password); the core compares it by its ciphertext."""

    def test_unique_items(self):
        one, same, other = Sealed('A'), Sealed('A'), Sealed('B')
        assert merge_layers([[one, 'x'], [same, other, 'x']], MergeRules('Unique')).value == [one, 'x', other]

    def test_tuple_keys(self):
        node = [{'Name': Sealed('A'), 'v': 1}]
        role = [{'Name': Sealed('A'), 'w': 2}, {'Name': Sealed('B')}]
        result = merge_layers([node, role], MergeRules('DeepTuple')).value
        assert [sorted(item) for item in result] == [['Name', 'v', 'w'], ['Name']]
        assert result[0]['Name'] is node[0]['Name'] and result[1]['Name'] is role[1]['Name']

    def test_knockouts_and_case_insensitive_tuples(self):
        assert merge_layers([['--x'], [Sealed('x'), 'x']], MergeRules('Unique')).value[0].ciphertext == 'x'
        rules = MergeRules('deep', case_insensitive_keys=True)
        result = merge_layers([[{'name': Sealed('A')}], [{'Name': Sealed('A'), 'v': 1}]], rules).value
        assert len(result) == 1 and result[0]['v'] == 1

    def test_scalar_values_matching_and_errors(self):
        sets = merge_scopes([[{'ip': Sealed('A'), 'h': [1]}], [{'ip': Sealed('A'), 'h': [2]}]], kind='set').value
        assert len(sets) == 1 and sets[0]['h'] == [1, 2]
        earlier = {'parameters': {'p': 'text'}, 'parameter_merge_strategies': {'p': 'merge'}}
        with pytest.raises(MergeInputError, match="string parameter; Heat cannot merge the Sealed <Sealed>"):
            merge_environments([{'parameters': {'p': Sealed('A')}}, earlier])


class TestNoMarkerSurvives:
    def test_lists_merged_together(self):
        together = extended_rules({'merge_basetype_array': 'Unique', 'merge_options': {'list_kinds': 'together'}})
        assert merge_layers([[{'Name': '--a'}], ['a']], together).value == ['a']
        assert merge_layers([[{'Name': '--a'}, 'b'], [{'Name': 'a'}, {'Name': 'c'}]], together).value == \
            ['b', {'Name': 'c'}]

    def test_map_items_of_a_mixed_list(self):
        assert merge_layers([['b', {'Name': '--a'}], [{'Name': 'a', 'v': 1}, 'c']], DEEP).value == ['b', 'c']

    def test_case_insensitive_keys_with_a_null_and_a_marker(self):
        rules = MergeRules('deep', case_insensitive_keys=True)
        node = [{'Name': None, 'name': '--a'}]
        role = [{'Name': 'a'}, {'Name': 'b'}]
        assert merge_layers([node, role], rules).value == [{'Name': 'b'}]
