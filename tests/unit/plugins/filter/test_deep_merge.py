# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

import pytest
import yaml

from ansible.errors import AnsibleFilterError

from ansible_collections.strata.hier.plugins.filter.deep_merge import FilterModule, deep_merge
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.shapes import alias_bomb

ROLE_PACKAGES = [{'Name': 'NotepadPlusplus', 'Version': '7.0', 'Ensure': 'Present'},
                 {'Name': 'Putty', 'Ensure': 'Present'}]
NODE_PACKAGES = [{'Name': 'NotepadPlusplus', 'Version': '8.0'}]


def test_registered():
    assert FilterModule().filters()['deep_merge'] is deep_merge


def test_combine_convention_later_arguments_are_more_specific():
    assert deep_merge({'a': 1, 'b': 1}, {'a': 2}, {'a': 3}) == {'a': 3, 'b': 1}
    assert deep_merge([{'a': 1, 'b': 1}, {'a': 2}, {'a': 3}]) == deep_merge({'a': 1, 'b': 1}, {'a': 2}, {'a': 3})


def test_deep_tuple_with_tuple_keys():
    assert deep_merge(ROLE_PACKAGES, NODE_PACKAGES, strategy='DeepTuple', tuple_keys=['Name']) == [
        {'Name': 'NotepadPlusplus', 'Version': '8.0', 'Ensure': 'Present'}, {'Name': 'Putty', 'Ensure': 'Present'}]


def test_default_strategy_is_deep():
    assert deep_merge({'a': {'x': 1}, 'l': ['p']}, {'a': {'y': 2}, 'l': ['q']}) == \
        {'a': {'y': 2, 'x': 1}, 'l': ['q', 'p']}


def test_knockout_prefix_override_and_off():
    assert deep_merge(['a', 'b'], ['~a'], strategy='Unique', knockout_prefix='~') == ['b']
    assert deep_merge(['a'], ['--a'], strategy='Sum', knockout_prefix='') == ['--a', 'a']
    assert deep_merge(['a'], ['--a'], strategy='Sum', knockout_prefix=False) == ['--a', 'a']
    assert deep_merge(['a'], ['--a'], strategy='Sum', knockout_prefix=None) == ['--a', 'a']
    assert deep_merge(['a'], ['--a'], strategy='Sum') == []
    assert deep_merge({'k': 1}, {'--k': None}, knockout_prefix=False) == {'k': 1, '--k': None}


def test_numbers_are_knocked_out_by_their_text():
    assert deep_merge([{'Name': 'p', 'Version': 1}, {'Name': 'p', 'Version': 2}],
                      [{'Name': 'p', 'Version': '--2'}]) == [{'Name': 'p', 'Version': 1}]
    assert deep_merge({'ports': {80: 'http'}}, {'ports': {'--80': None}}) == {'ports': {}}


def test_lookup_options_apply_to_nested_paths():
    base = {'Net': {'Dns': ['1.1.1.1'], 'Gw': 'a'}, 'Other': {'x': 1}}
    override = {'Net': {'Dns': ['8.8.8.8']}, 'Other': {'y': 2}}
    result = deep_merge(base, override, strategy='MostSpecific',
                        lookup_options={'Net': 'hash', 'Net/Dns': 'Unique'})
    assert result == {'Net': {'Dns': ['8.8.8.8', '1.1.1.1'], 'Gw': 'a'}, 'Other': {'y': 2}}


def test_strategy_map():
    result = deep_merge(ROLE_PACKAGES, NODE_PACKAGES,
                        strategy={'merge_hash_array': 'UniqueKeyValTuples', 'merge_options': {'tuple_keys': ['Name']}})
    assert result == [NODE_PACKAGES[0], ROLE_PACKAGES[1]]


@pytest.mark.parametrize('args, kwargs, words', [
    (({'a': 1}, {'a': 2}), {'strategy': 'Deepest'}, ['deep_merge', 'Deepest', 'MostSpecific, hash, deep']),
    (({'a': 1}, {'a': 2}), {'tuple_keys': 'Name'}, ['tuple_keys must be a list']),
    (({'a': 1}, {'a': 2}), {'lookup_options': {'a': 'flat'}}, ["lookup_options 'a'", 'flat']),
    (({'a': 1}, 'text'), {}, ['layer 1', 'must be a map or a list, not str']),
    (({'a': 1},), {}, ['with no argument, the input must be a list of layers']),
    (([],), {}, ['the list of layers is empty']),
])
def test_bad_input(args, kwargs, words):
    with pytest.raises(AnsibleFilterError) as error:
        deep_merge(*args, **kwargs)
    for word in words:
        assert word in str(error.value)


def test_type_mismatch_warns(mocker):
    warning = mocker.patch('ansible_collections.strata.hier.plugins.plugin_utils.filters.Display.warning')
    assert deep_merge({'a': {'x': 1}}, {'a': 'text'}) == {'a': 'text'}
    assert 'type mismatch' in warning.call_args[0][0]


@pytest.mark.parametrize('maps', [False, True], ids=['lists', 'maps'])
def test_an_alias_bomb_is_a_filter_error(maps):
    """A 400-byte YAML file nesting 9 levels of 9 aliases (387 million values) ends in a clear error."""
    bomb = yaml.safe_load(alias_bomb(maps=maps))
    with pytest.raises(AnsibleFilterError, match='deep_merge: the data expands .* YAML aliases'):
        deep_merge(bomb, {'l0': ['y']})
    with pytest.raises(AnsibleFilterError, match='YAML aliases'):
        deep_merge([{'l1': ['z']}, bomb], strategy='hash')
