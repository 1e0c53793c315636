# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The mergers' settings beyond Datum, which the dialects use (layers most specific first)."""

from __future__ import annotations

import copy
from collections.abc import Mapping

from hypothesis import given, settings, strategies as st

from ansible_collections.strata.hier.plugins.module_utils.merging import merge_documents, merge_layers
from ansible_collections.strata.hier.plugins.module_utils.rules import MergeRules
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

    def test_key_order_general_first(self):
        r = rules(merge_hash='deep', options={'key_order': 'general_first'})
        result = merged({'n': 1, 'a': {'y': 1, 'x': 2}}, {'a': {'x': 1}, 'g': 2}, rules=r)
        assert list(result) == ['a', 'g', 'n'] and list(result['a']) == ['x', 'y']
        assert list(merged({'n': 1, 'a': 1}, {'a': 2, 'g': 2})) == ['n', 'a', 'g']

    def test_key_order_with_case_insensitive_keys_keeps_the_most_specific_spelling(self):
        r = extended_rules({'merge_hash': 'deep', 'merge_options': {'key_order': 'general_first'}},
                           case_insensitive_keys=True)
        result = merged({'N': 1, 'A': 1}, {'a': 2, 'g': 2, '--n': None}, rules=r)
        assert list(result.items()) == [('A', 1), ('g', 2), ('N', 1)]


class TestScalars:
    def test_join_order_and_separator(self):
        assert merged('n', 'r', 'g', rules=rules(merge_string='Join')) == 'nrg'
        joined = rules(merge_string='Join', options={'string_order': 'general_first', 'string_separator': ','})
        assert merged('n', 'r', 'g', rules=joined) == 'g,r,n'
        assert merged({'s': 'n', 'i': 1}, {'s': 'g', 'i': 2}, rules=rules(merge_hash='deep', merge_string='Join')) == \
            {'s': 'ng', 'i': 1}

    def test_join_only_when_every_value_is_a_string(self):
        r = rules(merge_string='Join', merge_scalar='LeastSpecific')
        assert merged('n', 5, rules=r) == 5
        assert merged(True, 'g', rules=rules(merge_string='Join')) is True

    def test_least_specific_scalars_and_strings(self):
        r = rules(merge_hash='deep', merge_scalar='LeastSpecific')
        assert merged({'i': 1, 's': 'n'}, {'i': 2, 's': 'g'}, rules=r) == {'i': 2, 's': 'n'}
        r = rules(merge_hash='deep', merge_string='LeastSpecific')
        assert merged({'i': 1, 's': 'n'}, {'i': 2, 's': 'g'}, rules=r) == {'i': 1, 's': 'g'}

    def test_join_keeps_a_str_subclass(self):
        class Marked(str):
            pass
        result = merged('n', Marked('g'), rules=rules(merge_string='Join'))
        assert result == 'ng' and isinstance(result, Marked)

    def test_a_rule_on_a_nested_scalar_applies(self):
        r = extended_rules('deep', {'motd/text': {'merge_string': 'Join', 'merge_options': {'string_separator': '\n'}}})
        assert merged({'motd': {'text': 'node', 'x': 1}}, {'motd': {'text': 'global', 'x': 2}}, rules=r) == \
            {'motd': {'text': 'node\nglobal', 'x': 1}}
        documents = merge_documents([{'banner': 'b', 'other': 'o'}, {'banner': 'a', 'other': 'p'}],
                                    extended_rules('deep', {'banner': {'merge_string': 'Join'}}))
        assert documents.value == {'banner': 'ba', 'other': 'o'}

    def test_sources_follow_the_scalar_mode(self):
        assert merge_layers(['a', 'b'], rules(merge_string='Join')).sources == [0, 1]
        assert merge_layers(['a', 'b'], rules(merge_string='LeastSpecific')).sources == [1]
        result = merge_layers([{'s': 'a'}, {'s': 'b'}], rules(merge_hash='deep', merge_string='LeastSpecific'))
        assert result.sources == {'s': [1]}


class TestLeastSpecific:
    def test_whole_values_from_the_least_specific_layer(self):
        assert merged({'a': 1}, {'b': 2}, rules=rules(merge_hash='LeastSpecific')) == {'b': 2}
        r = rules(merge_basetype_array='LeastSpecific', merge_hash_array='LeastSpecific')
        assert merged(['n'], ['g'], rules=r) == ['g']
        assert merged([{'a': 1}], [{'a': 2}], rules=r) == [{'a': 2}]
        assert merge_layers([['n'], ['g']], r).sources == [1]

    def test_nested_lists_under_deep(self):
        r = rules(merge_hash='deep', merge_basetype_array='LeastSpecific')
        assert merged({'l': ['n']}, {'l': ['g'], 'm': ['x']}, rules=r) == {'l': ['g'], 'm': ['x']}


class TestNulls:
    def test_null_as_a_value(self):
        r = rules(merge_hash='deep', options={'null_values': 'value'})
        assert merged({'a': None, 'b': 1}, {'a': 5, 'c': {'x': 1}}, rules=r) == {'a': None, 'b': 1, 'c': {'x': 1}}
        result = merge_layers([{'c': None}, {'c': {'x': 1}}], r)
        assert result.value == {'c': None} and not result.warnings      # a null replacing a map is no mismatch

    def test_null_deletes_less_specific_keys(self):
        r = rules(merge_hash='deep', options={'null_values': 'delete'})
        assert merged({'a': None, 'b': 1}, {'a': 5, 'c': 2}, rules=r) == {'b': 1, 'c': 2}
        assert merged({'a': {'b': None}}, {'a': {'b': 1}}, rules=r) == {'a': {}}
        # nothing to delete: the null stays (cloud-init's allow_delete)
        assert merged({'a': None}, {'b': 1}, rules=r) == {'a': None, 'b': 1}
        # a more specific layer brings the key back; the deleted value is not merged into it
        assert merged({'a': {'y': 2}}, {'a': None}, {'a': {'x': 1}}, rules=r) == {'a': {'y': 2}}

    def test_default_null_is_not_found(self):
        assert merged({'a': None}, {'a': 5}) == {'a': 5}


class TestTypeMismatch:
    def test_least_specific_type_wins(self):
        r = rules(merge_hash='deep', options={'type_mismatch': 'LeastSpecific'})
        result = merge_layers([{'a': 'text', 'b': [1]}, {'a': {'x': 1}, 'b': 'old'}], r)
        assert result.value == {'a': {'x': 1}, 'b': 'old'}
        assert "the least specific value is a map; more specific values" in result.warnings[0]
        top = merge_layers(['text', {'x': 1}], r)
        assert top.value == {'x': 1} and top.warnings

    def test_list_kinds_least_specific(self):
        r = rules(merge_basetype_array='Sum', merge_hash_array='Sum', options={'type_mismatch': 'LeastSpecific'})
        result = merge_layers([['x'], [{'a': 1}]], r)
        assert result.value == [{'a': 1}] and 'least specific kind' in result.warnings[0]

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
        folded = MergeRules(self.r.default[0], case_insensitive_keys=True)
        assert merged([{'IP': 'A'}], [{'ip': 'a', 'l': [1]}], rules=folded) == [{'IP': 'A', 'l': [1]}]


class TestPositional:
    def test_items_at_the_same_index_the_least_specific_length(self):
        r = rules(merge_basetype_array='Positional', merge_hash_array='Positional')
        assert merged([4, 5], [1, 2, 3], rules=r) == [4, 5, 3]
        assert merged([4, 5], [1], rules=r) == [4]
        assert merged([9], [4, 5], [1, 2, 3], rules=r) == [9, 5, 3]
        assert merged([{'a': 1}], [{'b': 2}, {'c': 3}], rules=r) == [{'a': 1}, {'c': 3}]

    def test_items_merge_as_positional_items_says(self):
        r = rules(merge_hash='deep', merge_basetype_array='Positional', merge_hash_array='Positional',
                  merge_scalar='LeastSpecific',
                  options={'positional_items': {'merge_hash': 'deep', 'merge_string': 'Join',
                                                'merge_basetype_array': 'Positional'}})
        # maps merge by the array's strategy (so their scalars keep the least specific value)
        assert merged([{'a': 1, 'n': 1}], [{'a': 2, 'g': 2}], rules=r) == [{'a': 2, 'n': 1, 'g': 2}]
        assert merged(['x', 7], ['y', 8], rules=r) == ['xy', 7]
        assert merged([['p', 'q']], [['c', 'd', 'e']], rules=r) == [['pc', 'qd', 'e']]

    def test_knockout_markers_are_dropped_and_nulls(self):
        r = rules(merge_basetype_array='Positional')
        assert merged(['--a', 'b'], ['x', 'y'], rules=r) == ['b', 'y']
        assert merged([None, 'b'], ['x', 'y'], rules=r) == ['x', 'b']
        value = rules(merge_basetype_array='Positional', options={'null_values': 'value'})
        assert merged([None, 'b'], ['x', 'y'], rules=value) == [None, 'b']


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
