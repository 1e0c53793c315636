# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Hiera 5 core's own contract: bad input named, inputs never changed, Ruby's rules where Hiera has them.

The answers themselves are checked against Puppet by test_hiera_corpus.py; these tests cover what the corpus
cannot (strata.hier's errors and departures, immutability, the engine's API).
"""

from __future__ import annotations

import copy
import json
import os

import pytest
import yaml

from ansible_collections.strata.hier.plugins.module_utils.core.errors import (
    HieraConfigError, HieraError, HieraNotFound, MergeError,
)
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.engine import Explainer, HieraLookup, hiera_scope
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.config import parse_hiera_config, ruby_glob
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.keys import split_key
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.ruby import inspect, ruby_sort, union
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.merges import DeepMerger, merger_for

HIERA = '''version: 5
defaults: {datadir: data, data_hash: yaml_data}
hierarchy:
  - {name: node, path: "nodes/%{trusted.certname}.yaml"}
  - {name: role, path: "roles/%{facts.role}.yaml"}
  - {name: common, path: common.yaml}
'''


def write(folder, files):
    for relative, text in files.items():
        path = os.path.join(str(folder), relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w', encoding='utf-8') as stream:
            stream.write(text)


def read(path, level):
    with open(path, encoding='utf-8') as stream:
        return json.load(stream) if level.data_hash == 'json_data' else yaml.safe_load(stream)


def engine(folder, files, facts=None, node='web01.example.com', explainer=None, shared=None):
    write(folder, dict({'hiera.yaml': HIERA}, **files))
    path = os.path.join(str(folder), 'hiera.yaml')
    config = parse_hiera_config(yaml.safe_load(open(path, encoding='utf-8')), path)
    return HieraLookup(config, read, hiera_scope(node, facts or {'role': 'web'}), explainer, files=shared)


@pytest.mark.parametrize('text, names', [
    ('hierarchy: [{name: a, path: a.yaml}]', ("'version'", 'version 3')),
    ('version: 4\nhierarchy: []', ("'version'", 'version 4')),
    ('version: 6', ("'version'", 'version 6')),
    ('version: 5\nlookup_options: {}', ("'lookup_options'",)),
    ('version: 5\nhierarchy: [{name: a, path: a.yaml, merge: deep}]', ("'hierarchy[0].merge'",)),
    ('version: 5\nhierarchy: [{name: a, path: a.yaml, lookup_key: eyaml_lookup_key, options: {encrypt_method: gpg}}]',
     ("level 'a'", 'options.encrypt_method', 'gpg', 'pkcs7')),
    ('version: 5\nhierarchy: [{name: a, path: a.yaml, lookup_key: eyaml_lookup_key, options: {pkcs7_private_key: 3}}]',
     ("level 'a'", 'options.pkcs7_private_key', 'non-empty string')),
    ('version: 5\nhierarchy: [{name: a, path: a.yaml, lookup_key: eyaml_lookup_key, '
     'options: {pkcs7_public_key: "%{facts.k}.pem"}}]', ("level 'a'", 'options.pkcs7_public_key', 'interpolates')),
    ('version: 5\nhierarchy: [{name: a, path: a.yaml, lookup_key: other_lookup_key}]',
     ("level 'a'", 'lookup_key', 'other_lookup_key', 'eyaml_lookup_key')),
    ('version: 5\nhierarchy: [{name: a, path: a.yaml, data_hash: hocon_data}]', ("level 'a'", 'hocon_data')),
    ('version: 5\nhierarchy: [{name: a, mapped_paths: [facts.apps, app]}]', ("mapped_paths", 'three')),
    ('version: 5\nhierarchy: [{name: a, path: a.yaml}, {name: a, path: b.yaml}]', ("'a'", 'more than once')),
    ('version: 5\nhierarchy: [{name: a, path: a.yaml, glob: "*.yaml"}]', ("level 'a'", 'only one')),
    ('version: 5\nhierarchy: [{path: a.yaml}]', ("'hierarchy[0].name'",)),
    ('version: 5\ndefaults: {datadir: data}\nhierarchy: [{name: a, path: a.yaml}]', ("level 'a'", 'data_hash')),
    ('version: 5\nhierarchy: [{name: a, path: a.yaml, options: {path: x}}]', ("options.path", 'reserved')),
])
def test_config_errors_name_the_file_and_the_key(text, names):
    with pytest.raises(HieraConfigError) as error:
        parse_hiera_config(yaml.safe_load(text), '/repo/hiera.yaml')
    message = str(error.value)
    assert '/repo/hiera.yaml' in message
    for name in names:
        assert name in message


def test_options_are_a_warning_and_defaults_apply_without_a_defaults_key():
    config = parse_hiera_config(yaml.safe_load('version: 5\nhierarchy: [{name: a, path: a.yaml, options: {x: 1}}]'),
                                '/repo/hiera.yaml')
    assert config.levels[0].data_hash == 'yaml_data' and config.levels[0].datadir == 'data'
    assert any("level 'a'" in warning and 'ignored' in warning for warning in config.warnings)


def test_an_eyaml_level_keeps_its_key_files_and_warns_of_other_options():
    config = parse_hiera_config(yaml.safe_load(
        'version: 5\ndefaults: {lookup_key: eyaml_lookup_key}\nhierarchy:\n'
        '  - {name: a, path: a.yaml, options: {pkcs7_private_key: k/p.pem, gpg_gnupghome: /g}}\n'
        '  - {name: b, path: b.yaml}\n  - {name: c, path: c.yaml, data_hash: yaml_data}'), '/repo/hiera.yaml')
    assert [level.eyaml for level in config.levels] == [('k/p.pem', None), (None, None), None]
    assert [level.data_hash for level in config.levels] == ['yaml_data'] * 3
    assert any("level 'a'" in warning and 'gpg_gnupghome' in warning for warning in config.warnings)


def test_a_lookup_never_changes_the_data_it_read(tmp_path):
    shared = {}
    files = {'data/nodes/web01.example.com.yaml': 'k: [--a, b, b]\nm: {x: [--y, z]}\n',
             'data/roles/web.yaml': 'k: [a, c]\nm: {x: [y, w]}\n', 'data/common.yaml': 'k: [d]\nm: {x: 1}\n'}
    hiera = engine(tmp_path, files, shared=shared)
    merge = {'strategy': 'deep', 'knockout_prefix': '--', 'sort_merged_arrays': True}
    first = hiera.lookup('k', merge), hiera.lookup('m', merge)
    before = copy.deepcopy(shared)
    again = engine(tmp_path, files, shared=shared)
    assert (again.lookup('k', merge), again.lookup('m', merge)) == first == (['b', 'c', 'd'], {'x': ['w', 'z']})
    assert shared == before


def test_interpolation_cycles_name_the_chain(tmp_path):
    hiera = engine(tmp_path, {'data/common.yaml': "a: \"%{lookup('b')}\"\nb: \"%{alias('a')}\"\n"})
    with pytest.raises(HieraError, match=r'Recursive lookup detected in \[a, b\]'):
        hiera.lookup('a')


def test_functions_are_refused_in_paths_and_unknown_ones_everywhere(tmp_path):
    with pytest.raises(HieraError, match='method syntax is not allowed'):
        engine(tmp_path / 'one', {'hiera.yaml': HIERA.replace('path: common.yaml', 'path: "%{lookup(\'x\')}.yaml"')}).lookup('k')
    with pytest.raises(HieraError, match="Unknown interpolation method 'shell'.*key 'k', level 'common'"):
        engine(tmp_path / 'two', {'data/common.yaml': "k: \"%{shell('id')}\"\n"}).lookup('k')


def test_alias_keeps_the_type_and_missing_variables_are_empty(tmp_path):
    hiera = engine(tmp_path, {'data/common.yaml': "l: [1, 2]\na: \"%{alias('l')}\"\nt: \"x%{facts.nothing}y\"\n"
                              "n: \"%{trusted.hostname}/%{::role}/%{facts.role}\"\n"})
    assert hiera.lookup('a') == [1, 2]
    assert hiera.lookup('t') == 'xy'
    assert hiera.lookup('n') == 'web01/web/web'


def test_a_path_leaving_the_configuration_folder_is_an_error(tmp_path):
    hiera = engine(tmp_path, {'data/common.yaml': 'k: 1\n'}, facts={'role': '../../../etc'})
    with pytest.raises(HieraError, match="level 'role'.*outside"):
        hiera.lookup('k')


def test_lookup_options_is_not_a_key_and_missing_keys_are_not_found(tmp_path):
    hiera = engine(tmp_path, {'data/common.yaml': 'lookup_options: {k: {merge: unique}}\nk: 1\n'})
    for key in ('lookup_options', 'lookup_options.k', 'absent', 'absent.deeper'):
        with pytest.raises(HieraNotFound):
            hiera.lookup(key)


def test_explain_names_levels_paths_and_the_merge(tmp_path):
    explainer = Explainer()
    hiera = engine(tmp_path, {'data/roles/web.yaml': 'k: [b]\n', 'data/common.yaml': 'k: [a]\n'}, explainer=explainer)
    assert hiera.lookup('k', 'unique') == ['b', 'a']
    text = explainer.text()
    for line in ('Searching for "k"', 'Merge strategy unique', 'Hierarchy entry "node"', 'Path not found',
                 'Original path: "roles/%{facts.role}.yaml"', 'Found key: "k" value: [', 'Merged result: ['):
        assert line in text


@pytest.mark.parametrize('key, segments', [
    ('a.b.0', ['a', 'b', 0]), ("'a.b'.c", ['a.b', 'c']), ('profile::ntp::servers', ['profile::ntp::servers']),
    (' a . b ', ['a', 'b']),
])
def test_keys_split_as_hiera_splits_them(key, segments):
    assert split_key(key) == segments


@pytest.mark.parametrize('key', ['a..b', 'a.', '.a', '"a', '""'])
def test_malformed_keys_are_syntax_errors(key):
    with pytest.raises(HieraError, match='Syntax error in key'):
        split_key(key)


def test_ruby_equality_sorting_and_text():
    assert union([1, 1.0, True, '1'], [1, 'true']) == [1, 1.0, True, '1', 'true']
    assert ruby_sort(['b', 'B', '10', '9', 'a']) == ['10', '9', 'B', 'a', 'b']
    assert ruby_sort([1.5, 1, 0.5]) == [0.5, 1, 1.5]
    for unsortable in ([1, 'a'], [False, True], [None, None], [{}, {}]):
        with pytest.raises(MergeError, match='comparison of'):
            ruby_sort(unsortable)
    assert inspect({'team': 'ops', 'l': [1, None, True]}) == '{"team"=>"ops", "l"=>[1, nil, true]}'


def test_merge_forms_and_their_refusals():
    assert merger_for(None).first_found and merger_for('unique').name == 'unique'
    deep = merger_for({'strategy': 'deep', 'knockout_prefix': '--', 'merge_hash_arrays': True})
    assert isinstance(deep, DeepMerger) and deep.knockout_prefix == '--' and deep.merge_hash_arrays
    for bad, words in (('deeper', 'Unknown merge strategy'), ({'knockout_prefix': '--'}, "key 'strategy'"),
                       ({'strategy': 'hash', 'knockout_prefix': '--'}, "unrecognized key 'knockout_prefix'"),
                       ({'strategy': 'deep', 'sort_merged_arrays': 'yes'}, "'sort_merged_arrays'")):
        with pytest.raises(HieraError, match=words):
            merger_for(bad)


def test_unique_refuses_a_map_below_the_first_level(tmp_path):
    hiera = engine(tmp_path, {'data/roles/web.yaml': 'k: [a]\n', 'data/common.yaml': 'k: {x: 1}\n'})
    with pytest.raises(HieraError, match="second element of the merge has wrong type.*key 'k', level 'common', "
                                         "file .*common.yaml"):
        hiera.lookup('k', 'unique')


def test_glob_order_is_rubys(tmp_path):
    for name in ('Z.yaml', 'a/b/c.yaml', 'a/x.yaml', 'a-b/x.yaml', 'a.yaml', '.hidden.yaml'):
        write(tmp_path, {name: ''})
    found = [os.path.relpath(path, str(tmp_path)) for path in ruby_glob(str(tmp_path) + '/**/*.yaml')]
    assert found == ['Z.yaml', 'a/b/c.yaml', 'a/x.yaml', 'a-b/x.yaml', 'a.yaml']


def test_data_keys_are_every_key_of_the_nodes_files(tmp_path):
    hiera = engine(tmp_path, {'data/roles/web.yaml': 'b: 1\nlookup_options: {}\n', 'data/common.yaml': 'a: 1\nb: 2\n'})
    assert hiera.data_keys() == ['b', 'a']


def test_merge_options_built_once_are_still_checked_by_their_types():
    """merger_for keeps the merger of options it has checked; 1 equals True, but is no Boolean option."""
    options = {'strategy': 'deep', 'sort_merged_arrays': True, 'knockout_prefix': '--'}
    assert merger_for(dict(options)) is merger_for(dict(options))
    with pytest.raises(HieraError, match="entry 'sort_merged_arrays' expects a value of type Undef or Boolean"):
        merger_for(dict(options, sort_merged_arrays=1))


class _Sealed:
    """An option value that must not be hashed or compared (as a vault value, which decrypts to answer)."""

    def __hash__(self):
        raise AssertionError('hashed')

    def __eq__(self, other):
        raise AssertionError('compared')


def test_merge_options_not_plain_are_refused_without_being_hashed():
    with pytest.raises(HieraError, match="entry 'knockout_prefix' expects a value of type Undef or String"):
        merger_for({'strategy': 'deep', 'knockout_prefix': _Sealed()})
    with pytest.raises(HieraError, match="unrecognized key"):
        merger_for({'strategy': 'deep', 1: True, 'knockout_prefix': '--'})


class _TaggedText(str):
    """A string of a str subclass, as ansible-core 2.19's tagged strings are."""


def test_union_takes_a_string_of_a_subclass_as_the_same_text():
    assert union(['a', _TaggedText('b')], [_TaggedText('a'), 'b', 1, 1.0, True]) == ['a', 'b', 1, 1.0, True]
