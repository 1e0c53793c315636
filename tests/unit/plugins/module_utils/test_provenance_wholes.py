# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Provenance's fast paths (issue 28): a map one layer defines, maps and scalars only, copied whole with one
record for its subtree (``Provenance.below``), and the index of a layer's containers kept for the next merge.
Both give what the general path (``FAST_PATHS.general()``) notes, path by path."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from ansible_collections.strata.hier.plugins.module_utils.core import provenance as provenance_module
from ansible_collections.strata.hier.plugins.module_utils.core.kinds import FAST_PATHS
from ansible_collections.strata.hier.plugins.module_utils.core.merging import merge_layers
from ansible_collections.strata.hier.plugins.module_utils.core.rules import MergeRules

RULES = MergeRules('deep', {'pkgs': {'merge_hash_array': 'DeepTuple', 'merge_options': {'tuple_keys': ['Name'], 'knockout_prefix': '--'}}})
SHARED = {'Name': 'b', 'opts': {'x': 1, 'y': {'z': None}}}
LAYERS = [{'pkgs': [{'Name': 'a', 'v': 1, 'opts': {'x': 1}}, {'Name': 'c', 'opts': {}}], 'conf': {'only': {'k': 1}}},
          {'pkgs': [{'Name': 'a', 'v': 2}, SHARED], 'conf': {'both': 2, 'list': {'l': [1, 2]}}}]


def noted(values, rules, path=()):
    """(value, each path's Entry as text, the layers used at each map and list) of a merge with provenance."""
    result = merge_layers(values, rules, path, provenance=True)
    provenance = result.provenance
    if provenance is None:
        return result.value
    return (result.value, [(shown, entry.place, entry.definitions, entry.rule_path, entry.value,
                            [(removal.place, removal.value, removal.marker) for removal in entry.removed])
                           for shown, entry in provenance.entries.items()],
            {shown: sorted(provenance.used_layers(shown)) for shown in provenance.entries})


def test_one_layers_items_and_maps_are_noted_whole_as_the_general_path_notes_them_key_by_key():
    result = merge_layers(LAYERS, RULES, (), provenance=True)
    # the items c and b and a's opts (from one layer each) and conf/only: whole; conf/list holds a list: key by key
    assert sorted(result.provenance.below) == [('conf', 'only'), ('pkgs', 0, 'opts'), ('pkgs', 1), ('pkgs', 2)]
    assert result.value['pkgs'][2] == SHARED and result.value['pkgs'][2] is not SHARED
    assert result.value['pkgs'][2]['opts'] is not SHARED['opts']
    fast = noted(LAYERS, RULES)
    with FAST_PATHS.general():
        assert not merge_layers(LAYERS, RULES, (), provenance=True).provenance.below
        general = noted(LAYERS, RULES)
    assert repr(fast) == repr(general)


def test_a_rule_an_alias_or_a_marker_below_keeps_the_map_key_by_key():
    shared = {'k': 1}
    layers = [{'a': {'ruled': {'k': 1}}, 'b': {'one': shared, 'two': shared}, 'c': {'--k': 1, 'm': {'k': 1}}}, None]
    rules = MergeRules({'merge_hash': 'deep', 'merge_options': {'knockout_prefix': '--'}}, {'a/ruled': 'hash'})
    below = merge_layers(layers, rules, (), provenance=True).provenance.below
    # not a (a rule below), b (an alias below) nor c (a marker); b/two: at the alias's place, as key by key
    assert sorted(below) == [('a', 'ruled'), ('b', 'one'), ('b', 'two'), ('c', 'm')]
    fast = noted(layers, rules)
    with FAST_PATHS.general():
        assert repr(noted(layers, rules)) == repr(fast)


def test_a_layers_index_is_kept_for_the_next_merge_of_the_same_value(monkeypatch):
    layers = [{'a': {'b': [1, {'c': 2}]}}, {'a': {'d': {}}}]
    first = provenance_module.Provenance(layers)
    calls = []
    monkeypatch.setattr(provenance_module, '_index_into', lambda *args: calls.append(args))
    again = provenance_module.Provenance(layers)
    assert not calls
    assert [again.place_of(value) for value in (layers[0]['a'], layers[0]['a']['b'], layers[0]['a']['b'][1],
                                                layers[1]['a']['d'])] == \
        [first.place_of(value) for value in (layers[0]['a'], layers[0]['a']['b'], layers[0]['a']['b'][1],
                                             layers[1]['a']['d'])] == \
        [(0, ('a',)), (0, ('a', 'b')), (0, ('a', 'b', 1)), (1, ('a', 'd'))]


TREES = st.recursive(st.one_of(st.sampled_from(['p', '--p', 'Name']), st.integers(0, 2), st.none()),
                     lambda children: st.one_of(st.lists(children, max_size=2),
                                                st.dictionaries(st.sampled_from(['Name', 'a', 'b', '--a']), children,
                                                                max_size=3)), max_leaves=10)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.none(), st.dictionaries(st.sampled_from(['pkgs', 'conf']), TREES, max_size=2)),
                min_size=1, max_size=3))
def test_wholes_note_what_the_general_path_notes(values):
    fast = noted(values, RULES)
    with FAST_PATHS.general():
        general = noted(values, RULES)
    assert repr(fast) == repr(general)
