# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

import os

import pytest

from ansible.parsing.dataloader import DataLoader

from ansible_collections.strata.hier.plugins.plugin_utils.config import ConfigError
from ansible_collections.strata.hier.plugins.plugin_utils.sources.hier_yml import load_config
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.shapes import alias_bomb


def config_file(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    (tmp_path / 'data').mkdir(exist_ok=True)
    return str(path)


def test_hier_yml(tmp_path):
    path = config_file(tmp_path, 'hier.yml', 'datadir: data\nhierarchy: ["Nodes/%{Name}", Common]\n'
                                             'lookup_options: {Packages: DeepTuple}\n')
    config = load_config(path, DataLoader())
    assert config.datadir == str(tmp_path / 'data')
    assert config.levels == ('Nodes/%{Name}', 'Common')
    assert config.rules.resolve(('Packages',)).strategy.merge_hash_array == 'DeepTuple'
    assert config.case_insensitive_keys is False and config.dialect == 'hier'


def test_datum_yml(tmp_path):
    path = config_file(tmp_path, 'Datum.yml', 'ResolutionPrecedence:\n  - AllNodes\\$($Node.Environment)\\$($Node.NodeName)\n'
                                              '  - Baselines\\Security\nDatumHandlers: {}\ndefault_lookup_options: hash\n'
                                              'DatumStructure:\n  - {StoreName: AllNodes, StoreProvider: Datum::File, '
                                              'StoreOptions: {Path: ./data}}\n')
    config = load_config(path, DataLoader())
    assert config.levels == ('AllNodes/%{Environment}/%{NodeName}', 'Baselines/Security')
    assert config.case_insensitive_keys and config.rules.case_insensitive_keys
    assert config.rules.default.strategy.name == 'hash'
    assert config.mounts == {'AllNodes': './data'} and config.datadir == str(tmp_path)


@pytest.mark.parametrize('text, words', [
    ('hierarchy: [a]\nhierachy: [b]\n', "hier.yml:2: unknown key 'hierachy'"),
    ('hierarchy: []\n', 'hierarchy must be a non-empty list'),
    ('hierarchy: [a]\nlookup_options:\n  Packages: Deeptuple2\n', "hier.yml:3: unknown strategy 'Deeptuple2' for lookup_options 'Packages'"),
    ('hierarchy: [a]\ndefault_lookup_options: flat\n', "hier.yml:2: unknown strategy 'flat' for default_lookup_options"),
    ('hierarchy: [a]\ncase_insensitive_keys: maybe\n', 'case_insensitive_keys must be true or false'),
    ('- a\n', 'must be a map'),
    ('hierarchy: ["Nodes/%{}"]\n', "hier.yml:1: level 'Nodes/%{}'"),
    ('hierarchy: ["Nodes/{{ NodeName }}"]\n', 'Jinja and PowerShell expressions are not evaluated'),
    # issue 27: the core says which rule is wrong (MergeError.keys); the message's text was searched for a key's
    # name, so a rule named like a word of another rule's error was blamed, and a list of rules had no line
    ('hierarchy: [a]\nlookup_options:\n  Add: MostSpecific\n  Features: {merge_basetype_array: Add}\n',
     "hier.yml:4: unknown merge_basetype_array 'Add' for lookup_options 'Features'"),
    ('hierarchy: [a]\nlookup_options:\n  - Packages\n', 'hier.yml:2: lookup_options must be a map'),
])
def test_bad_hier_yml(tmp_path, text, words):
    with pytest.raises(ConfigError) as error:
        load_config(config_file(tmp_path, 'hier.yml', text), DataLoader())
    assert words in str(error.value)


def test_missing_config(tmp_path):
    with pytest.raises(ConfigError, match='not found'):
        load_config(os.path.join(str(tmp_path), 'none.yml'), DataLoader())


def test_datum_store_providers(tmp_path):
    path = config_file(tmp_path, 'Datum.yml', 'ResolutionPrecedence: [a]\nDatumStructure:\n'
                                              '  - {StoreName: X, StoreProvider: Datum::Http}\n')
    with pytest.raises(ConfigError, match='only Datum::File stores'):
        load_config(path, DataLoader())


def test_datum_yml_keys_are_read_whatever_their_case(tmp_path):
    path = config_file(tmp_path, 'Datum.yml', 'resolutionPrecedence: [Common]\nLookup_Options: {Packages: DeepTuple}\n'
                                              'Default_Lookup_Options: deep\ndefault_lookup_option: hash\n')
    config = load_config(path, DataLoader())
    assert config.levels == ('Common',)
    assert config.rules.resolve(('Packages',)).strategy.merge_hash_array == 'DeepTuple'
    assert config.rules.default.strategy.name == 'deep'
    warning, = config.warnings      # printed by the plugin that reads the configuration (Source.take_warnings)
    assert "Datum.yml:4: key 'default_lookup_option' is not one Datum reads" in warning


@pytest.mark.parametrize('options', ['[1]', '"./data"', '{Path: [a]}'])
def test_datum_store_options_of_another_shape_are_named(tmp_path, options):
    path = config_file(tmp_path, 'Datum.yml', 'ResolutionPrecedence: [Common]\nDatumStructure:\n'
                                              '  - StoreName: AllNodes\n    StoreOptions: %s\n' % options)
    with pytest.raises(ConfigError, match=r"Datum.yml:2: StoreOptions of store 'AllNodes' must be a map with a Path"):
        load_config(path, DataLoader())


@pytest.mark.parametrize('text, message', [
    ('lookup_options: &rules\n  Packages: *rules\n',
     r"hier.yml:3: lookup_options: data refers to itself .*at key path 'Packages'"),
    ('default_lookup_options: &rule {merge_options: {nested: [*rule]}}\n',
     r'hier.yml:3: default_lookup_options: data refers to itself'),
    ('lookup_options:\n' + ''.join('  %s\n' % line for line in alias_bomb(levels=8).splitlines()),
     r'hier.yml:3: lookup_options: data expands to more than 100000 values'),
])
def test_lookup_options_referring_to_themselves_are_named(tmp_path, text, message):
    path = config_file(tmp_path, 'hier.yml', 'datadir: data\nhierarchy: [Common]\n' + text)
    with pytest.raises(ConfigError, match=message):
        load_config(path, DataLoader())


@pytest.mark.parametrize('text, message', [
    ('hierarchy: [Common\n', r"hier.yml:2:1: did not find expected ',' or '\]'"),
    ('hierarchy: !!python/object/apply:os.system [id]\n', r'hier.yml:1:12: could not determine a constructor'),
    ('hierarchy: ' + '[' * 5000 + ']' * 5000 + '\n', r'hier.yml:1: the data nests deeper than 500 levels'),
])
def test_a_config_that_cannot_be_read_is_named_with_its_line(tmp_path, text, message):
    with pytest.raises(ConfigError, match=message):
        load_config(config_file(tmp_path, 'hier.yml', text), DataLoader())


@pytest.mark.parametrize('key', ['default_lookup_options', 'lookup_options'])
def test_rules_holding_a_vault_value_are_refused_without_decrypting(tmp_path, key):
    """Found by the plugin fuzz target: the rules read a vault value as a strategy name, decrypting it."""
    from ansible.parsing.vault import VaultLib, VaultSecret
    ciphertext = VaultLib([('default', VaultSecret(b'unit-test'))]).encrypt('deep').decode()
    vault = '!vault "%s"' % ciphertext.replace('\n', '\\n')
    value = vault if key == 'default_lookup_options' else '{Packages: %s}' % vault
    path = config_file(tmp_path, 'hier.yml', 'datadir: data\nhierarchy: [Common]\n%s: %s\n' % (key, value))
    with pytest.raises(ConfigError, match=r'hier.yml:3: %s holds a vault value' % key):
        load_config(path, DataLoader())


def test_every_place_is_written_by_one_formatter():
    from ansible_collections.strata.hier.plugins.plugin_utils.source_lines import file_line, mark_position
    assert file_line('a.yml', 3) == 'a.yml:3' and file_line('a.yml', 3, 7) == 'a.yml:3:7'
    assert file_line('a.yml', None) == file_line('a.yml', 0) == 'a.yml'
    assert mark_position('a.yml', type('Mark', (), {'line': 2, 'column': 6})()) == 'a.yml:3:7'
    assert mark_position('a.yml', None) == 'a.yml'
