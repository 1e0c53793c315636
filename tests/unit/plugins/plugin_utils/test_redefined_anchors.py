# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 26, item 2, cause 1: an anchor defined again in one file is read as YAML 1.2 and Puppet read it (an alias
names the latest definition before it) by every parser a data file meets: the fast parser, DataLoader, the composer
giving the lines of keys; alias bombs are refused as before, and a file that cannot be read names its line."""

from __future__ import annotations

import os

import pytest

from ansible.parsing.dataloader import DataLoader
from ansible.parsing.vault import VaultLib, VaultSecret

from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeError
from ansible_collections.strata.hier.plugins.plugin_utils import parse as parse_module
from ansible_collections.strata.hier.plugins.plugin_utils.data_files import load_untrusted
from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy import HierarchyError
from ansible_collections.strata.hier.plugins.plugin_utils.parse import NEEDS_DATALOADER, parse
from ansible_collections.strata.hier.plugins.plugin_utils.source import open_source
from ansible_collections.strata.hier.plugins.plugin_utils.source_lines import Positions, key_position
from ansible_collections.strata.hier.plugins.plugin_utils.store import StoreError

REDEFINED = 'a: {owner: &id 1000, group: *id}\nb: {owner: &id 2000, group: *id}\nc: *id\n'
AS_PUPPET = {'a': {'owner': 1000, 'group': 1000}, 'b': {'owner': 2000, 'group': 2000}, 'c': 2000}
SECRET = [('default', VaultSecret(b'unit-test'))]


def write(path, text):
    os.makedirs(os.path.dirname(str(path)), exist_ok=True)
    with open(str(path), 'w') as stream:
        stream.write(text)


@pytest.fixture(autouse=True)
def no_run_cache(monkeypatch):
    monkeypatch.setattr(parse_module, '_FOLDER', {'path': None})


def test_the_fast_parser_keeps_the_latest_definition_and_shares_what_aliases_name(tmp_path):
    path = tmp_path / 'data.yaml'
    write(path, REDEFINED + 'd: &l [x]\ne: *l\nf: &l [y]\ng: *l\n')
    data = parse(str(path), DataLoader())
    assert data is not NEEDS_DATALOADER
    assert {key: data[key] for key in 'abc'} == AS_PUPPET
    assert data['e'] is data['d'] and data['g'] is data['f'] and data['g'] == ['y']


def test_renamed_anchors_keep_every_line_and_column():
    text = 'a: &x [1]\nb: [*x, &x 2, *x]\nc: &y 3\nd: *x\n'
    unique = parse_module.unique_anchors(text)
    assert unique.count('\n') == text.count('\n')
    assert [len(line) for line in unique.splitlines()] == [len(line) for line in text.splitlines()]
    assert unique.startswith('a: &x [1]\nb: [*x, &') and '&y 3' in unique
    assert parse_module.unique_anchors('a: &x 1\nb: *x\n') is None and parse_module.unique_anchors('a: [\n') is None


def test_single_letter_anchors_get_longer_names_once_none_of_their_length_is_left():
    text = ''.join('k%d: &a %d\nv%d: *a\n' % (index, index, index) for index in range(70))
    data = parse_module._parse_text(text.encode())[0]     # pylint: disable=protected-access
    assert all(data['v%d' % index] == index for index in range(70))


@pytest.mark.parametrize('other', ['!unsafe', 'vaulted'])
def test_dataloader_keeps_the_latest_definition_for_a_file_the_fast_parser_leaves_it(tmp_path, other):
    """``!unsafe`` (a tag only DataLoader reads) and a whole-file vaulted file go to DataLoader."""
    path = str(tmp_path / 'data.yaml')
    text = REDEFINED + 'u: !unsafe "{{ x }}"\n' if other == '!unsafe' else REDEFINED
    write(path, VaultLib(SECRET).encrypt(text).decode() if other == 'vaulted' else text)
    loader = DataLoader()
    loader.set_vault_secrets(SECRET)
    assert parse(path, loader) is NEEDS_DATALOADER
    data = load_untrusted(loader, path, StoreError)
    assert {key: data[key] for key in 'abc'} == AS_PUPPET


def test_positions_of_a_file_defining_an_anchor_again(tmp_path):
    path = str(tmp_path / 'data.yaml')
    write(path, REDEFINED)
    assert Positions().position(path, ['b', 'group']) == (2, 22)
    assert key_position(path, ['c']) == '%s:3' % path


def kinds(tmp_path):
    """The same data file read by a hiera.yaml, a hier.yml and a Datum.yml."""
    write(tmp_path / 'hiera.yaml', 'version: 5\nhierarchy:\n  - {name: common, path: common.yaml}\n')
    write(tmp_path / 'data' / 'common.yaml', 'lookup_options:\n  x: {merge: deep}\n' + REDEFINED)
    write(tmp_path / 'hier.yml', 'datadir: data\nhierarchy: [common]\n')
    write(tmp_path / 'datum' / 'Datum.yml', 'ResolutionPrecedence:\n  - Common\n')
    write(tmp_path / 'datum' / 'Common.yml', REDEFINED)
    return {'hiera.yaml': (str(tmp_path / 'hiera.yaml'), 'data/common.yaml', 4),
            'hier.yml': (str(tmp_path / 'hier.yml'), 'data/common.yaml', 4),
            'Datum.yml': (str(tmp_path / 'datum' / 'Datum.yml'), 'Common.yml', 2)}


@pytest.mark.parametrize('kind', ['hiera.yaml', 'hier.yml', 'Datum.yml'])
def test_each_kind_of_store_answers_as_puppet_with_the_lines_of_the_latest_definition(tmp_path, kind):
    config, shown, line = kinds(tmp_path)[kind]
    view = open_source(config, DataLoader()).for_host({'inventory_hostname': 'web01'})
    assert {key: view.lookup(key).value for key in 'abc'} == AS_PUPPET
    records = view.lookup('b', provenance=True).records
    assert (records['b/group']['file'], records['b/group']['line'], records['b/group']['column']) == (shown, line, 22)
    assert records['b/group']['value'] == 2000


def redefined_bomb(levels):
    """An alias bomb defining two anchor names again and again: each level a list of nine aliases of the level before
    (``&x [*x]`` would be a list holding itself)."""
    lines = ['l0: &x [a, b, c, d, e, f, g, h, i]']
    lines.extend('l%d: &%s [%s]' % (level, 'xy'[level % 2], ', '.join(['*' + 'yx'[level % 2]] * 9))
                 for level in range(1, levels))
    return '\n'.join(lines) + '\n'


@pytest.mark.parametrize('kind', ['hiera.yaml', 'hier.yml'])
def test_an_alias_bomb_reusing_its_anchor_name_is_still_refused(tmp_path, kind):
    config = kinds(tmp_path)[kind][0]
    write(tmp_path / 'data' / 'common.yaml', redefined_bomb(9))      # 387 million strings in 300 bytes
    view = open_source(config, DataLoader()).for_host({'inventory_hostname': 'web01'})
    assert view.lookup('l1').value == [['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']] * 9
    with pytest.raises((MergeError, HierarchyError), match='passes its work budget|expands to more than'):
        view.lookup('l8')


def test_a_data_file_that_cannot_be_read_names_its_line_not_the_first_key_looked_up(tmp_path):
    config = kinds(tmp_path)['hiera.yaml'][0]
    write(tmp_path / 'data' / 'common.yaml', 'lookup_options: {}\na: [1, 2\nb: 3\n')
    view = open_source(config, DataLoader()).for_host({'inventory_hostname': 'web01'})
    with pytest.raises(MergeError) as caught:
        view.lookup('b')
    message = str(caught.value)
    assert '%s:3:2' % (tmp_path / 'data' / 'common.yaml') in message and "key 'lookup_options'" not in message


def test_a_configuration_defining_an_anchor_again_is_read(tmp_path):
    write(tmp_path / 'hiera.yaml', 'version: 5\ndefaults: {datadir: &d data, data_hash: yaml_data}\n'
                                   'hierarchy:\n  - {name: common, path: common.yaml, datadir: *d}\n'
                                   '  - {name: other, path: &d other.yaml}\n  - {name: again, path: *d}\n')
    write(tmp_path / 'data' / 'other.yaml', 'k: other\n')
    view = open_source(str(tmp_path / 'hiera.yaml'), DataLoader()).for_host({'inventory_hostname': 'web01'})
    assert view.lookup('k').value == 'other'
    assert key_position(str(tmp_path / 'hiera.yaml'), ['hierarchy', 2]) == '%s:6' % (tmp_path / 'hiera.yaml')
