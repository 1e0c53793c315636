# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""explain's per-path report: the strategy each map and list of a merged value actually merged by (issue 33,
item 5: with ``ntp: deep``, ``ntp/servers`` takes the most specific list while the key's strategy says Unique)."""

from __future__ import annotations

from ansible_collections.strata.hier.plugins.module_utils.core.merging import merge_layers
from ansible_collections.strata.hier.plugins.module_utils.core.rules import MergeRules

README_RULES = {'packages': 'Unique', 'ntp': 'deep'}     # README.md's first project's hier.yml


def explained(layers, default='MostSpecific', lookup_options=None, path=(), case_insensitive=False):
    result = merge_layers(layers, MergeRules(default, lookup_options, case_insensitive), path, explain=True)
    return result.value, result.paths


def summary(paths):
    """path -> (type, the setting that merged it, strategy, rule, how)."""
    shown = {}
    for entry in paths:
        setting = next((name for name in ('merge_hash', 'merge_basetype_array', 'merge_hash_array') if name in entry), None)
        shown[entry['path']] = (entry['type'], setting and entry[setting], entry['strategy'], entry['rule'], entry['how'])
    return shown


def test_readme_nested_list_under_deep_takes_the_most_specific_list():
    value, paths = explained([{'servers': ['ntp.db.example'], 'makestep': '0.1 -1'},
                              {'servers': ['0.pool.ntp.org', '1.pool.ntp.org'], 'makestep': '1.0 3'}],
                             lookup_options=README_RULES, path='ntp')
    assert value == {'servers': ['ntp.db.example'], 'makestep': '0.1 -1'}
    assert summary(paths) == {
        'ntp': ('map', 'deep', 'deep', 'ntp', 'rule'),
        'ntp/servers': ('base-type array', 'MostSpecific', 'MostSpecific', 'default_lookup_options', 'default'),
    }
    assert paths[0]['knockout_prefix'] == '--' and paths[1]['knockout_prefix'] is None


def test_a_rule_for_the_nested_path_is_reported_where_it_applies():
    value, paths = explained([{'servers': ['b', '--a']}, {'servers': ['a', 'c']}],
                             lookup_options=dict(README_RULES, **{'ntp/servers': 'Unique'}), path='ntp')
    assert value == {'servers': ['b', 'c']}
    assert summary(paths)['ntp/servers'] == ('base-type array', 'Unique', 'Unique', 'ntp/servers', 'rule')
    assert paths[1]['knockout_prefix'] == '--'


def test_a_regular_expression_rule_is_named():
    value, paths = explained([{'servers': ['b']}, {'servers': ['a']}],
                             lookup_options={'ntp': 'deep', '^nt./serv': 'Sum'}, path='ntp')
    assert value == {'servers': ['b', 'a']}
    assert summary(paths)['ntp/servers'] == ('base-type array', 'Sum', 'Sum', '^nt./serv', 'rule')


def test_nested_maps_inherit_and_their_lists_take_the_default():
    value, paths = explained([{'pool': {'servers': ['x'], 'opts': {'iburst': True}}},
                              {'pool': {'servers': ['y'], 'opts': {'prefer': True}}}],
                             default='Sum', lookup_options={'ntp': 'deep'}, path='ntp')
    assert value == {'pool': {'servers': ['x', 'y'], 'opts': {'iburst': True, 'prefer': True}}}
    assert summary(paths) == {
        'ntp': ('map', 'deep', 'deep', 'ntp', 'rule'),
        'ntp/pool': ('map', 'deep', 'deep', 'ntp', 'inherited'),
        'ntp/pool/servers': ('base-type array', 'Sum', 'Sum', 'default_lookup_options', 'default'),
        'ntp/pool/opts': ('map', 'deep', 'deep', 'ntp', 'inherited'),
    }


def test_under_hash_nested_values_are_taken_whole():
    value, paths = explained([{'servers': ['b'], 'pool': {'x': 1}}, {'servers': ['a'], 'pool': {'y': 2}}],
                             default='deep', lookup_options={'ntp': 'hash'}, path='ntp')
    assert value == {'servers': ['b'], 'pool': {'x': 1}}
    assert summary(paths) == {
        'ntp': ('map', 'hash', 'hash', 'ntp', 'rule'),
        'ntp/servers': ('base-type array', 'MostSpecific', 'hash', 'ntp', 'whole'),
        'ntp/pool': ('map', 'MostSpecific', 'hash', 'ntp', 'whole'),
    }


def test_hash_arrays_their_items_and_what_the_items_hold():
    layers = [{'Packages': [{'Name': 'a', 'Config': {'x': 1}, 'Files': ['f2']}]},
              {'Packages': [{'Name': 'a', 'Config': {'y': 2}, 'Files': ['f1']}, {'Name': 'b'}]}]
    value, paths = explained(layers, default='deep')
    assert value == {'Packages': [{'Name': 'a', 'Config': {'x': 1, 'y': 2}, 'Files': ['f2', 'f1']}, {'Name': 'b'}]}
    assert summary(paths) == {
        '': ('map', 'deep', 'deep', 'default_lookup_options', 'default'),
        'Packages': ('hash array', 'DeepTuple', 'deep', 'default_lookup_options', 'default'),
        'Packages/Config': ('map', 'deep', 'deep', 'default_lookup_options', 'inherited'),
        'Packages/Files': ('base-type array', 'Unique', 'deep', 'default_lookup_options', 'default'),
    }
    assert paths[1]['tuple_keys'] == ['Name', 'Version']


def test_a_nested_hash_array_without_a_rule_under_deep_takes_the_most_specific_array():
    layers = [{'Packages': [{'Name': 'a', 'Version': 2}]}, {'Packages': [{'Name': 'b'}]}]
    value, paths = explained(layers, lookup_options={'Software': 'deep'}, path='Software')
    assert value == {'Packages': [{'Name': 'a', 'Version': 2}]}
    assert summary(paths)['Software/Packages'] == (
        'hash array', 'MostSpecific', 'MostSpecific', 'default_lookup_options', 'default')
    assert 'tuple_keys' not in paths[1]


def test_the_items_of_a_hash_array_report_once_per_different_decision():
    layers = [[{'Name': 'a', 'Config': {'x': 1}}, {'Name': 'b', 'Config': {'x': 2}}, {'Name': 'c', 'Config': ['l']}],
              [{'Name': 'a', 'Config': {'y': 1}}, {'Name': 'b', 'Config': {'y': 2}}]]
    paths = explained(layers, lookup_options={'Packages': 'DeepTuple'}, path='Packages')[1]
    assert [(entry['path'], entry['type'], entry['how']) for entry in paths] == [
        ('Packages', 'hash array', 'rule'), ('Packages/Config', 'map', 'inherited'),
        ('Packages/Config', 'base-type array', 'default')]


def test_empty_lists_and_scalars():
    assert summary(explained([{'servers': []}, {'servers': []}], default='deep', path='ntp')[1])['ntp/servers'] == (
        'empty list', None, 'deep', 'default_lookup_options', 'default')
    value, paths = explained(['text', 'other'], lookup_options={'Motd': 'deep'}, path='Motd')
    assert value == 'text' and summary(paths) == {'Motd': ('scalar', None, 'deep', 'Motd', 'rule')}
    assert explained([None, None], path='Motd') == (None, [])


def test_maps_inside_a_base_type_array_are_taken_whole():
    value, paths = explained([['a', {'k': {'x': 1}}], ['b']], lookup_options={'List': 'deep'}, path='List')
    assert value == ['a', {'k': {'x': 1}}, 'b']
    assert [(entry['path'], entry['type'], entry['how']) for entry in paths] == [
        ('List', 'base-type array', 'rule'), ('List', 'map', 'whole'), ('List/k', 'map', 'whole')]
    assert [entry.get('merge_basetype_array', entry.get('merge_hash')) for entry in paths] == [
        'Unique', 'MostSpecific', 'MostSpecific']


def test_case_insensitive_keys_as_datum_compares_them():
    value, paths = explained([{'Servers': ['b']}, {'servers': ['a']}], default='MostSpecific',
                             lookup_options={'NTP': 'deep', 'ntp/SERVERS': 'Unique'}, path='ntp', case_insensitive=True)
    assert value == {'Servers': ['b', 'a']}
    assert summary(paths)['ntp/Servers'] == ('base-type array', 'Unique', 'Unique', 'ntp/SERVERS', 'rule')


def test_without_explain_nothing_is_noted():
    result = merge_layers([{'servers': ['b']}, {'servers': ['a']}], MergeRules('deep'), 'ntp')
    assert result.paths is None and result.value == {'servers': ['b', 'a']}


def test_provenance_alone_chooses_strategies_but_reports_no_paths():
    """Provenance reads the rule of each path (PathTrace.rule_of), not explain's report of them: a merge with
    provenance and without explain builds no report (one repr per merged path)."""
    layers = [{'ntp': {'servers': ['b']}}, {'ntp': {'servers': ['a']}}]
    rules = MergeRules('deep', {'ntp/servers': 'Unique'})
    result = merge_layers(layers, rules, (), provenance=True)
    assert result.paths is None and result.value == {'ntp': {'servers': ['b', 'a']}}
    assert result.trace.rule_of(('ntp', 'servers', 0)) == ('ntp/servers', 'rule')
    assert result.trace.rule_of(('ntp', 'x')) == ('default_lookup_options', 'inherited')
    explained = merge_layers(layers, rules, (), explain=True, provenance=True)
    assert [entry['path'] for entry in explained.paths] == ['', 'ntp', 'ntp/servers']
