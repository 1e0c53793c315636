# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Strategy names as Datum's Get-MergeStrategyFromString, Merge-Datum and Merge-Hashtable read them."""

from __future__ import annotations

import pytest

from ansible_collections.strata.hier.plugins.module_utils.dialects.datum.strategies import datum_reading
from ansible_collections.strata.hier.plugins.module_utils.core.merging import merge_layers
from ansible_collections.strata.hier.plugins.module_utils.core.rules import MergeRules


@pytest.mark.parametrize('spec, read, note', [
    ('deep', 'deep', None),
    ('MERGERECURSIVELY', 'MERGERECURSIVELY', None),
    ('Unique', 'Unique', None),                     # strata.hier's documented shorthand stays as it is
    ('Deeper', 'MostSpecific', "unknown strategy 'Deeper' as MostSpecific"),
    ({'merge_hash': 'MergeRecursively'}, {'merge_hash': 'hash'}, "merge_hash 'MergeRecursively' as hash"),
    ({'merge_hash': 'FirstFound'}, {'merge_hash': 'MostSpecific'}, "merge_hash 'FirstFound' as MostSpecific"),
    ({'merge_hash': 'Deep'}, {'merge_hash': 'Deep'}, None),
    ({'merge_basetype_array': 'Add'}, {'merge_basetype_array': 'Sum'}, "'Add' as Sum"),
    ({'merge_basetype_array': 'UniqueItems'}, {'merge_basetype_array': 'Unique'}, "'UniqueItems' as Unique"),
    ({'merge_basetype_array': 'Deep'}, {'merge_basetype_array': 'MostSpecific'}, "'Deep' as MostSpecific"),
    ({'merge_hash_array': 'DeepItemMergeByTuples'}, {'merge_hash_array': 'DeepTuple'}, 'as DeepTuple'),
    ({'merge_hash_array': 'Add'}, {'merge_hash_array': 'MostSpecific'}, "'Add' as MostSpecific"),
    ({'merge_hash_array': 'SumTotal'}, {'merge_hash_array': 'Sum'}, "'SumTotal' as Sum"),
    ({'merge_hash': 'deep', 'Priority': 1}, {'merge_hash': 'deep'}, "ignores the strategy key 'Priority'"),
    ({'merge_options': {'knockout_prefix': '--', 'tuple_key': ['Name']}}, {'merge_options': {'knockout_prefix': '--'}},
     "ignores the merge option 'tuple_key'"),
])
def test_names_are_read_as_datum_reads_them(spec, read, note):
    result, notes = datum_reading(spec)
    assert result == read
    if note is None:
        assert notes == []
    else:
        assert len(notes) == 1 and note in notes[0]


def test_merge_recursively_in_a_strategy_map_merges_top_keys_only():
    """Merge-Hashtable recurses only for merge_hash 'deep': nested maps come from the most specific layer."""
    rules = MergeRules('MostSpecific', {'Config': datum_reading({'merge_hash': 'MergeRecursively'})[0]})
    layers = [{'Config': {'A': {'x': 1}}}, {'Config': {'A': {'y': 2}, 'B': 3}}]
    assert merge_layers([layer['Config'] for layer in layers], rules, ('Config',)).value == {'A': {'x': 1}, 'B': 3}


def test_the_input_is_not_changed():
    spec = {'merge_basetype_array': 'Add', 'merge_options': {'extra': 1}}
    datum_reading(spec)
    assert spec == {'merge_basetype_array': 'Add', 'merge_options': {'extra': 1}}
