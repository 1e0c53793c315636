# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Properties of the merge core that hold for any data."""

from __future__ import annotations

import copy
from collections.abc import Mapping

from hypothesis import assume, given, settings, strategies as st

from ansible_collections.strata.hier.plugins.module_utils.core.identity import freeze
from ansible_collections.strata.hier.plugins.module_utils.core.merging import merge_layers
from ansible_collections.strata.hier.plugins.module_utils.core.rules import MergeRules

PREFIX = '--'
names = st.sampled_from(['a', 'b', 'c', 'Name', 'Version', 'x'])
texts = st.sampled_from(['p', 'q', 'r', '--p', '--q', 'Name', ''])
scalars = st.one_of(texts, st.integers(-3, 3), st.booleans(), st.none())
hash_items = st.fixed_dictionaries({'Name': texts}, optional={'Version': st.integers(0, 2), 'v': scalars})


def trees(depth=3):
    return st.recursive(
        scalars,
        lambda children: st.one_of(
            st.lists(children, max_size=4),
            st.lists(hash_items, max_size=4),
            st.dictionaries(st.one_of(names, texts), children, max_size=4)),
        max_leaves=12)


layers = st.lists(trees(), min_size=1, max_size=4)
map_layers = st.lists(st.dictionaries(st.one_of(names, texts), trees(), max_size=4), min_size=1, max_size=4)
strategy_names = st.sampled_from(['MostSpecific', 'hash', 'deep', 'Unique', 'Sum', 'DeepTuple',
                                  'UniqueKeyValTuples'])
marking = st.sampled_from(['hash', 'deep', 'Unique', 'Sum', 'DeepTuple', 'UniqueKeyValTuples'])


def walk(value):
    yield value
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield key
            yield from walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from walk(item)


@settings(max_examples=300, deadline=None)
@given(layers, strategy_names)
def test_inputs_are_never_mutated(values, name):
    before = copy.deepcopy(values)
    result = merge_layers(values, MergeRules(name)).value
    assert values == before
    for node in walk(result):            # no container of the result is an input's container
        if isinstance(node, (dict, list)):
            assert all(node is not original for original in walk(values))


@settings(max_examples=300, deadline=None)
@given(layers)
def test_most_specific_returns_the_most_specific_found_value(values):
    found = [value for value in values if value is not None]
    result = merge_layers(values, MergeRules({'merge_options': {'knockout_prefix': None}}))
    assert result.found == bool(found)
    if found:
        assert result.value == found[0]


@settings(max_examples=300, deadline=None)
@given(trees(), strategy_names)
def test_one_layer_without_markers_comes_back_unchanged(value, name):
    assume(not any(isinstance(node, str) and node.startswith(PREFIX) for node in walk(value)))
    assume(name in ('MostSpecific', 'hash', 'Sum') or not _has_duplicate_tuples(value))
    assert merge_layers([value], MergeRules(name)).value == value


def _has_duplicate_tuples(value):
    """Unique/DeepTuple merge duplicates within one layer too: such a layer legitimately changes."""
    for node in walk(value):
        if isinstance(node, list):
            frozen = [freeze(item) for item in node]
            if len(set(frozen)) != len(frozen):
                return True
            ids = [freeze((item.get('Name'), item.get('Version'))) for item in node if isinstance(item, Mapping)]
            if len(set(ids)) != len(ids):
                return True
    return False


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(texts, max_size=6), min_size=1, max_size=5))
def test_unique_has_no_duplicates_and_keeps_every_item_not_knocked_out(values):
    result = merge_layers(values, MergeRules('Unique')).value
    assert len(result) == len(set(result))
    for position, items in enumerate(values):
        knocked_by_more_specific = {item[len(PREFIX):] for more in values[:position] for item in more
                                    if item.startswith(PREFIX)}
        for item in items:
            if not item.startswith(PREFIX) and item not in knocked_by_more_specific:
                assert item in result
    for item in result:
        assert not item.startswith(PREFIX)


@settings(max_examples=300, deadline=None)
@given(st.one_of(layers, map_layers), marking)
def test_no_knockout_marker_in_any_output(values, name):
    result = merge_layers(values, MergeRules(name)).value
    for node in _marker_positions(result):
        assert not (isinstance(node, str) and node.startswith(PREFIX)), result


def _marker_positions(value):
    """Map keys, scalar list items and tuple-key values: where a marker could appear."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield key
            yield from _marker_positions(item)
    elif isinstance(value, list):
        maps = bool(value) and all(isinstance(item, Mapping) for item in value)
        for item in value:
            if maps:
                yield item.get('Name')
            elif not isinstance(item, (Mapping, list)):
                yield item
            yield from _marker_positions(item)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(hash_items, max_size=6), min_size=1, max_size=5))
def test_deep_tuple_keeps_one_item_per_tuple(values):
    rules = MergeRules({'merge_hash_array': 'DeepTuple', 'merge_options': {'tuple_keys': ['Name', 'Version']}})
    result = merge_layers(values, rules).value
    identities = [(item.get('Name'), item.get('Version', 'absent')) for item in result]
    assert len(identities) == len(set(identities))
