# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 28: a merge with provenance gives the value and warnings of a merge without, and re-merging the
contributions its records name reproduces the value exactly (remerge.py), over generated layers and rules."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from ansible_collections.strata.hier.plugins.module_utils.core.provenance import Place
from ansible_collections.strata.hier.plugins.module_utils.core.rules import MergeRules
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.extended import (
    extended_rules, extended_specs, extended_strategy,
)
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.remerge import check_remerge

EXAMPLES = int(os.environ.get('STRATA_FUZZ_EXAMPLES', '300'))
PROPERTY = settings(max_examples=EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PREFIXES = ('--', '!')

names = st.sampled_from(['a', 'b', 'c', 'A', 'Name', 'name', 'Version', 'x', 80])
texts = st.sampled_from(['p', 'q', 'P', 'r', '--p', '--q', '--a', '--A', '!p', '!a', '--80', 'Name', '', 80, '80'])
scalars = st.one_of(texts, st.integers(-1, 2), st.booleans(), st.none(), st.sampled_from([1.0, 0.5]))
hash_items = st.fixed_dictionaries({'Name': texts}, optional={'Version': st.one_of(st.integers(0, 2), st.none()),
                                                              'name': texts, 'v': scalars, 'x': st.lists(texts)})


def trees():
    return st.recursive(
        scalars,
        lambda children: st.one_of(
            st.lists(children, max_size=4),
            st.lists(hash_items, max_size=4),
            st.lists(st.one_of(hash_items, texts), max_size=4),      # a list mixing maps and scalars
            st.dictionaries(st.one_of(names, texts), children, max_size=4)),
        max_leaves=14)


maps = st.dictionaries(st.one_of(names, texts), trees(), max_size=4)
layers = st.lists(st.one_of(st.none(), trees(), maps), min_size=1, max_size=4)
DATUM = st.one_of(
    st.sampled_from(['MostSpecific', 'hash', 'deep', 'Unique', 'Sum', 'DeepTuple', 'UniqueKeyValTuples']),
    st.fixed_dictionaries({
        'merge_hash': st.sampled_from(['MostSpecific', 'hash', 'deep']),
        'merge_basetype_array': st.sampled_from(['MostSpecific', 'Unique', 'Sum']),
        'merge_hash_array': st.sampled_from(['MostSpecific', 'Sum', 'DeepTuple', 'UniqueKeyValTuples']),
        'merge_options': st.fixed_dictionaries({'knockout_prefix': st.sampled_from(PREFIXES + (None,)),
                                                'tuple_keys': st.sampled_from([['Name'], ['Name', 'Version']])})}))
EXTENDED = extended_specs(tuple_keys=(['Name'], ['Name', 'Version']), prefixes=PREFIXES + (None,),
                          tuple_modes=('DeepTuple', 'UniqueKeyValTuples')).map(extended_strategy)
PATHS = st.sampled_from(['a', 'a/b', 'Name', 'x', '^a/.*', '^(b|Name)$', 'a/Name/v'])


@st.composite
def rules(draw, strategies=st.one_of(DATUM, EXTENDED)):
    return MergeRules(draw(strategies), draw(st.dictionaries(PATHS, strategies, max_size=2)),
                      case_insensitive_keys=draw(st.booleans()))


@PROPERTY
@given(layers, rules(), st.sampled_from(['', 'a', 'a/b']))
@example([['--p', 'q'], ['p', 'q', 'r']], MergeRules('Unique'), '')
@example([{'--a': None, 'b': 1}, {'a': 2, 'b': 3}], MergeRules('deep'), '')
@example([[{'Name': '--p'}], [{'Name': 'p', 'v': 1}, {'Name': 'q'}]], MergeRules('DeepTuple'), '')
@example([{'b': [], '--a': []}, {'a': None}], MergeRules('hash'), '')     # a marker taking out a null
@example([{'b': [{'a': True, 'c': 0.5}]}, {'b': [{'a': True, 'c': 0.5, '--p': 'p'}]}],     # a marker key: no value
         extended_rules({'merge_hash': 'deep', 'merge_hash_array': 'UniqueKeyValTuples',
                         'merge_options': {'knockout_prefix': '--', 'match_items_by': 'scalar_values'}}), '')
def test_re_merging_the_contributions_reproduces_the_value(values, rules_, path):
    check_remerge(values, rules_, path)


GENERAL_FIRST = {'merge_basetype_array': 'Unique', 'merge_options': {'array_order': 'general_first'}}


@pytest.mark.parametrize('values, rules_', [
    # a key written null had no record
    ([{'a': None, 'b': 1}, {'a': None}], MergeRules('deep')),
    ([[{'Name': 'p', 'Version': None}], [{'Name': 'p', 'Version': None, 'v': 1}]],
     MergeRules({'merge_hash_array': 'DeepTuple', 'merge_options': {'tuple_keys': ['Name', 'Version']}})),
    # what a map or list item of a list mixing scalars and containers holds was noted under the list's path
    ([[['p'], 'q', {'a': 1}]], MergeRules('Unique')),
    ([['q', {'a': [1]}], [{'b': 2}, 'r']], extended_rules(GENERAL_FIRST)),
    # a map item of such a list knocked out by a tuple knockout named no marker
    ([['p', {'Name': '--p'}], ['p', {'Name': 'p'}]], MergeRules('Unique')),
    # with case-insensitive keys, a less specific map's key was placed as the most specific map spells it
    ([{'A': None}, {'a': 2}], MergeRules('deep', case_insensitive_keys=True)),
])
def test_contributions_of_the_provenance_hooks_fixed(values, rules_):
    check_remerge(values, rules_)


def test_a_place_is_its_layer_and_path_as_a_tuple():
    """Places are made per noted key and looked up per record: tuples, made and hashed in C."""
    place = Place(2, ('a', 0))
    assert (place.layer, place.path) == (2, ('a', 0)) and place == (2, ('a', 0)) and hash(place) == hash((2, ('a', 0)))
    assert repr(place) == "Place(2, ('a', 0))" and place != Place(1, ('a', 0))
