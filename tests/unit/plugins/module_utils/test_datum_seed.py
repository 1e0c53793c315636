# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every example of Datum's "Merging Strategies" page, with its exact result.

Layers are listed most specific first, as the hierarchy reads.
"""

from __future__ import annotations

from ansible_collections.strata.hier.plugins.module_utils.core.merging import merge_layers
from ansible_collections.strata.hier.plugins.module_utils.core.rules import MergeRules

SEED_RULES = MergeRules('MostSpecific', {
    'Configurations': 'Unique',
    'NetworkConfig': 'hash',
    'Packages': {'merge_hash_array': 'DeepTuple', 'merge_options': {'tuple_keys': ['Name']}},
    'WindowsFeatures': 'Unique',
    'Settings': 'hash',
})

ROLE_NETWORK = {'DNSServer': '10.0.0.1', 'Gateway': '10.0.0.254', 'SubnetMask': '255.255.255.0'}
ROLE_FEATURES = ['Telnet-Client', 'File-Services', 'Web-Server']
ROLE_PACKAGES = [
    {'Name': 'NotepadPlusplus', 'Version': '7.0', 'Ensure': 'Present'},
    {'Name': 'Putty', 'Ensure': 'Present'},
]


def lookup(key, *layers, rules=SEED_RULES):
    return merge_layers(list(layers), rules, key).value


def test_most_specific_base_type():
    assert lookup('Timezone', 'Pacific Standard Time', 'UTC') == 'Pacific Standard Time'


def test_hash_merges_top_keys():
    result = lookup('NetworkConfig', {'DNSServer': '192.168.1.1'}, ROLE_NETWORK)
    assert result == {'DNSServer': '192.168.1.1', 'Gateway': '10.0.0.254', 'SubnetMask': '255.255.255.0'}


def test_merge_top_keys_alias_matches_hash():
    rules = MergeRules('MostSpecific', {'NetworkConfig': 'MergeTopKeys'})
    assert lookup('NetworkConfig', {'DNSServer': '192.168.1.1'}, ROLE_NETWORK, rules=rules) == \
        lookup('NetworkConfig', {'DNSServer': '192.168.1.1'}, ROLE_NETWORK)


def test_most_specific_returns_whole_hashtable():
    result = lookup('NetworkConfig', {'DNSServer': '192.168.1.1'}, ROLE_NETWORK, rules=MergeRules('MostSpecific'))
    assert result == {'DNSServer': '192.168.1.1'}


def test_unique_base_type_array():
    # The seed lists the union as "Telnet-Client, File-Services, Web-Server, SMTP-Server"; SPEC keeps
    # Datum's order, most specific items first. Same set, no duplicate.
    result = lookup('WindowsFeatures', ['Web-Server', 'SMTP-Server'], ROLE_FEATURES)
    assert result == ['Web-Server', 'SMTP-Server', 'Telnet-Client', 'File-Services']
    assert sorted(result) == sorted(['Telnet-Client', 'File-Services', 'Web-Server', 'SMTP-Server'])


def test_deep_tuple_packages():
    result = lookup('Packages', [{'Name': 'NotepadPlusplus', 'Version': '8.0'}], ROLE_PACKAGES)
    assert result == [
        {'Name': 'NotepadPlusplus', 'Version': '8.0', 'Ensure': 'Present'},
        {'Name': 'Putty', 'Ensure': 'Present'},
    ]


def test_unique_key_val_tuples_replaces_matched_items_whole():
    rules = MergeRules('MostSpecific', {'Packages': {'merge_hash_array': 'UniqueKeyValTuples',
                                                     'merge_options': {'tuple_keys': ['Name']}}})
    result = lookup('Packages', [{'Name': 'NotepadPlusplus', 'Version': '8.0'}], ROLE_PACKAGES, rules=rules)
    assert result == [{'Name': 'NotepadPlusplus', 'Version': '8.0'}, {'Name': 'Putty', 'Ensure': 'Present'}]


def test_knockout_array_item():
    assert lookup('WindowsFeatures', ['--Telnet-Client'], ROLE_FEATURES) == ['File-Services', 'Web-Server']


def test_knockout_array_item_with_sum():
    rules = MergeRules('MostSpecific', {'WindowsFeatures': 'Sum'})
    assert lookup('WindowsFeatures', ['--Telnet-Client'], ROLE_FEATURES, rules=rules) == \
        ['File-Services', 'Web-Server']


def test_knockout_hashtable_key():
    role = {'FeatureA': 'enabled', 'FeatureB': 'enabled', 'FeatureC': 'enabled'}
    assert lookup('Settings', {'--FeatureB': None}, role) == {'FeatureA': 'enabled', 'FeatureC': 'enabled'}


def test_knockout_hash_array_item():
    role = [{'Name': 'NotepadPlusplus'}, {'Name': 'Putty'}, {'Name': 'Git'}]
    assert lookup('Packages', [{'Name': '--Putty'}], role) == [{'Name': 'NotepadPlusplus'}, {'Name': 'Git'}]


def test_custom_strategy_structure():
    rules = MergeRules('MostSpecific', {'MyKey': {
        'merge_hash': 'deep', 'merge_basetype_array': 'Unique', 'merge_hash_array': 'DeepTuple',
        'merge_options': {'knockout_prefix': '--', 'tuple_keys': ['Name', 'Version']}}})
    node = {'Items': [{'Name': 'a', 'Version': 1, 'Path': 'x'}], 'Tags': ['t2', '--t0']}
    role = {'Items': [{'Name': 'a', 'Version': 1, 'Size': 3}, {'Name': 'a', 'Version': 2}],
            'Tags': ['t0', 't1'], 'Other': {'k': 'v'}}
    # Items and Tags are nested lists without a rule of their own: they use the default (MostSpecific).
    assert lookup('MyKey', node, role, rules=rules) == {
        'Items': [{'Name': 'a', 'Version': 1, 'Path': 'x'}], 'Tags': ['t2', '--t0'], 'Other': {'k': 'v'}}
    # Given their own rule, they merge with it.
    rules = MergeRules('MostSpecific', {'MyKey': 'deep', 'MyKey/Items': 'deep', 'MyKey/Tags': 'deep'})
    assert lookup('MyKey', node, role, rules=rules) == {
        'Items': [{'Name': 'a', 'Version': 1, 'Path': 'x', 'Size': 3}, {'Name': 'a', 'Version': 2}],
        'Tags': ['t2', 't1'], 'Other': {'k': 'v'}}


def test_regex_lookup_options_written_as_in_datum():
    rules = MergeRules('MostSpecific', {'^LCM_Config\\\\.*': 'deep', '^Security\\\\.*': {
        'merge_hash': 'deep', 'merge_basetype_array': 'Unique'}})
    node = {'Settings': {'RebootNodeIfNeeded': True}}
    role = {'Settings': {'RebootNodeIfNeeded': False, 'ConfigurationMode': 'ApplyAndAutoCorrect'}}
    assert lookup('LCM_Config\\Settings', node['Settings'], role['Settings'], rules=rules) == \
        {'RebootNodeIfNeeded': True, 'ConfigurationMode': 'ApplyAndAutoCorrect'}
    assert lookup('Security/Rules', ['a'], ['b'], rules=rules) == ['a', 'b']


def test_subkey_lookup_needs_rules_at_each_level():
    node = {'Packages': [{'Name': 'Putty', 'Version': '2'}]}
    role = {'Packages': [{'Name': 'Putty', 'Ensure': 'Present'}], 'Sources': ['repo']}
    without_parent_rule = MergeRules('MostSpecific', {'SoftwareBaseline\\Packages': {
        'merge_hash_array': 'DeepTuple', 'merge_options': {'tuple_keys': ['Name']}}})
    with_parent_rule = MergeRules('MostSpecific', {
        'SoftwareBaseline': 'hash',
        'SoftwareBaseline\\Packages': {'merge_hash_array': 'DeepTuple', 'merge_options': {'tuple_keys': ['Name']}}})
    merged_packages = [{'Name': 'Putty', 'Version': '2', 'Ensure': 'Present'}]
    # Lookup 'SoftwareBaseline' without its own rule: the most specific value, Packages rule never reached.
    assert lookup('SoftwareBaseline', node, role, rules=without_parent_rule) == node
    # With 'SoftwareBaseline: hash', top keys merge and the nested Packages rule is reached.
    assert lookup('SoftwareBaseline', node, role, rules=with_parent_rule) == \
        {'Packages': merged_packages, 'Sources': ['repo']}
    # A direct subkey lookup is governed by the subkey's own rule.
    assert lookup('SoftwareBaseline\\Packages', node['Packages'], role['Packages'],
                  rules=without_parent_rule) == merged_packages
