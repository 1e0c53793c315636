# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The mergers' settings beyond Datum, which ACM's sequences use (layers most specific first)."""

from __future__ import annotations

import copy
from collections.abc import Mapping

from hypothesis import given, settings, strategies as st

from ansible_collections.strata.hier.plugins.module_utils.core.merging import merge_layers
from ansible_collections.strata.hier.plugins.module_utils.core.rules import MergeRules
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.extended import (
    extended_rules, extended_specs, extended_strategy,
)


def rules(**spec):
    options = spec.pop('options', {})
    return extended_rules(dict(spec, merge_options=options))


def merged(*layers, rules=MergeRules('deep'), path=()):  # pylint: disable=redefined-outer-name
    return merge_layers(list(layers), rules, path).value


class TestOrder:
    def test_sum_general_first_lists_least_specific_layer_first(self):
        r = rules(merge_basetype_array='Sum', merge_hash_array='Sum', options={'array_order': 'general_first'})
        assert merged(['n1', 'n2'], ['r'], ['g1', 'g2'], rules=r) == ['g1', 'g2', 'r', 'n1', 'n2']
        assert merged([{'a': 1}], [{'a': 2}], rules=r) == [{'a': 2}, {'a': 1}]

    def test_unique_general_first_keeps_the_most_specific_position(self):
        r = rules(merge_basetype_array='Unique', options={'array_order': 'general_first'})
        # b's most specific occurrence is in the first layer: it sits there, after the general items
        assert merged(['c', 'b'], ['b', 'a'], rules=r) == ['a', 'c', 'b']
        assert merged(['c', 'b'], ['b', 'a'], rules=MergeRules('Unique')) == ['c', 'b', 'a']

    def test_deep_tuple_general_first(self):
        r = rules(merge_hash='deep', merge_basetype_array='Unique', merge_hash_array='DeepTuple',
                  options={'tuple_keys': ['ip'], 'array_order': 'general_first'})
        specific = [{'ip': 1, 'h': ['x', 'y']}, {'ip': 2}]
        general = [{'ip': 1, 'h': ['x', 'z']}, {'ip': 3}]
        assert merged(specific, general, rules=r) == [{'ip': 3}, {'ip': 1, 'h': ['z', 'x', 'y']}, {'ip': 2}]

    def test_knockouts_still_remove_less_specific_items_only(self):
        r = rules(merge_basetype_array='Sum', options={'array_order': 'general_first'})
        assert merged(['--a', 'b'], ['a', 'c'], rules=r) == ['c', 'b']


class TestNulls:
    def test_default_null_is_not_found(self):
        assert merged({'a': None}, {'a': 5}) == {'a': 5}


class TestListKinds:
    def test_list_kinds_together(self):
        r = rules(merge_basetype_array='Sum', merge_hash_array='Sum', options={'list_kinds': 'together'})
        result = merge_layers([['x'], [{'a': 1}], []], r)
        assert result.value == ['x', {'a': 1}] and not result.warnings
        assert merged([{'a': 1}], [{'a': 2}], rules=r) == [{'a': 1}, {'a': 2}]
        assert merged([], [], rules=r) == []


class TestScalarValueMatching:
    r = rules(merge_hash='deep', merge_basetype_array='Unique', merge_hash_array='DeepTuple',
              options={'match_items_by': 'scalar_values'})

    def test_items_with_the_same_scalar_values_merge(self):
        specific = [{'ip': 1, 'h': ['a']}, {'ip': 2}]
        general = [{'ip': 1, 'h': ['b']}, {'ip': 1, 'port': 5}]
        assert merged(specific, general, rules=self.r) == [{'ip': 1, 'h': ['a', 'b']}, {'ip': 2}, {'ip': 1, 'port': 5}]

    def test_without_scalars_the_first_list_is_the_key_and_otherwise_unmatched(self):
        assert merged([{'l': [1], 'm': {'x': 1}}], [{'l': [1], 'm': {'y': 2}}], rules=self.r) == \
            [{'l': [1], 'm': {'x': 1, 'y': 2}}]
        assert merged([{'m': {'x': 1}}], [{'m': {'x': 1}}], rules=self.r) == [{'m': {'x': 1}}, {'m': {'x': 1}}]

    def test_nulls_do_not_count_and_keys_fold(self):
        assert merged([{'ip': 1, 'n': None}], [{'ip': 1}], rules=self.r) == [{'ip': 1, 'n': None}]
        folded = MergeRules(self.r.default.strategy, case_insensitive_keys=True)
        assert merged([{'IP': 'A'}], [{'ip': 'a', 'l': [1]}], rules=folded) == [{'IP': 'A', 'l': [1]}]

    def test_a_knockout_key_is_no_value_of_the_item(self):
        # an item that only adds a marker key (left out of the merged item) is the same item, in either layer
        assert merged([{'ip': 1, '--port': None}], [{'ip': 1}, {'ip': 2}], rules=self.r) == [{'ip': 1}, {'ip': 2}]
        assert merged([{'ip': 1}], [{'ip': 1, '--p': 'p'}], rules=self.r) == [{'ip': 1}]


PLAIN = st.one_of(st.sampled_from(['p', 'q', '--p', '']), st.integers(-2, 2), st.booleans(), st.none())
TREES = st.recursive(PLAIN, lambda children: st.one_of(
    st.lists(children, max_size=3),
    st.dictionaries(st.sampled_from(['a', 'b', 'ip', '--a']), children, max_size=3)), max_leaves=10)
NEW_SETTINGS = extended_specs(tuple_keys=(['ip'],))


def walk(value):
    yield value
    if isinstance(value, Mapping):
        for item in value.values():
            yield from walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from walk(item)


@settings(max_examples=300, deadline=None)
@given(st.lists(TREES, min_size=1, max_size=4), NEW_SETTINGS)
def test_new_settings_never_mutate_or_share_inputs(values, spec):
    before = copy.deepcopy(values)
    result = merge_layers(values, MergeRules(extended_strategy(spec))).value
    assert values == before
    for node in walk(result):
        if isinstance(node, (dict, list)):
            assert all(node is not original for original in walk(values))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(['a', 'b', 'c', 1, 2]), max_size=4), min_size=1, max_size=4))
def test_order_only_reorders(lists):
    for mode in ('Sum', 'Unique'):
        forward = merged(*lists, rules=rules(merge_basetype_array=mode))
        backward = merged(*lists, rules=rules(merge_basetype_array=mode, options={'array_order': 'general_first'}))
        assert sorted(map(repr, forward)) == sorted(map(repr, backward))
    concatenated = [item for items in reversed(lists) for item in items]
    options = {'array_order': 'general_first', 'knockout_prefix': None}
    assert merged(*lists, rules=rules(merge_basetype_array='Sum', options=options)) == concatenated
