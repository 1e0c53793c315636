# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

import json
import os

import pytest

from ansible.parsing.dataloader import DataLoader

from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy import HierarchyError
from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy_cache import get_hierarchy
from ansible_collections.strata.hier.plugins.plugin_utils.store import StoreError

NODE = {'Name': 'n1', 'Role': 'web'}


@pytest.fixture
def hierarchy(tmp_path):
    (tmp_path / 'data' / 'Nodes').mkdir(parents=True)
    (tmp_path / 'data' / 'Roles').mkdir()
    (tmp_path / 'data' / 'Nodes' / 'n1.yml').write_text('--Ports: null\nFeatures: [--b, c]\nSecret: "[ENC=abc]"\n')
    (tmp_path / 'data' / 'Roles' / 'web.yml').write_text('Ports: [80]\nFeatures: [a, b]\nFlag: null\n')
    (tmp_path / 'data' / 'Common.yml').write_text('Ports: [22]\nFlag: true\n')
    (tmp_path / 'hier.yml').write_text('datadir: data\nhierarchy: ["Nodes/%{Name}", "Roles/%{Role}", Common, '
                                       '"Sites/%{Site}"]\nlookup_options: {Features: Unique, Ports: Unique}\n')
    return get_hierarchy(str(tmp_path / 'hier.yml'), DataLoader())


def test_levels_merge_with_knockouts(hierarchy):
    assert hierarchy.lookup('Features', NODE).value == ['c', 'a']


def test_top_level_knockout_removes_the_key_from_less_specific_levels(hierarchy):
    resolution = hierarchy.lookup('Ports', NODE)
    assert resolution.found is False
    assert [level['skipped'] for level in resolution.levels] == [False, True, True, True]
    assert resolution.levels[1]['reason'] == 'knocked out at Nodes/n1.yml'


def test_explain_reports_every_level(hierarchy):
    resolution = hierarchy.lookup('Flag', NODE)
    assert resolution.value is True
    report = resolution.explain()
    assert report['rule'] == 'default_lookup_options' and report['strategy']['name'] == 'MostSpecific'
    assert [(level['path'], level['found'], level['reason']) for level in report['levels']] == [
        ('Nodes/n1', False, 'not found'), ('Roles/web', False, 'null (not found)'), ('Common', True, ''),
        (None, False, "variable 'Site' is undefined")]


def test_datum_handlers_are_refused_with_file_and_line(hierarchy):
    with pytest.raises(HierarchyError, match=r"Nodes/n1.yml:3: key 'Secret' holds the Datum handler '\[ENC=abc\]'"):
        hierarchy.lookup('Secret', NODE)


def test_merge_override_and_bad_override(hierarchy):
    assert hierarchy.lookup('Features', NODE, merge='Sum').value == ['c', 'a']
    assert hierarchy.lookup('Features', NODE, merge='MostSpecific').value == ['--b', 'c']   # no knockout prefix
    with pytest.raises(HierarchyError, match="unknown strategy 'Flat' for merge"):
        hierarchy.lookup('Features', NODE, merge='Flat')


def test_values_from_a_whole_file_vaulted_file_are_marked(tmp_path):
    from ansible.parsing.vault import VaultLib, VaultSecret
    secrets = [('default', VaultSecret(b'unit-test'))]
    data = tmp_path / 'data'
    (data / 'Roles').mkdir(parents=True)
    (data / 'Nodes').mkdir()
    (data / 'Roles' / 'web.yml').write_bytes(VaultLib(secrets).encrypt('Dns: [role.example]\nPort: 80\n'))
    (data / 'Nodes' / 'n1.yml').write_text('Dns: [n1.example]\nName: n1\n')
    (data / 'Tree' / 'Roles').mkdir(parents=True)
    (data / 'Tree' / 'Roles' / 'web.yml').write_bytes((data / 'Roles' / 'web.yml').read_bytes())
    (tmp_path / 'hier.yml').write_text('datadir: data\nhierarchy: ["Nodes/%{Name}", "Roles/%{Role}", Tree]\n'
                                       'lookup_options: {Dns: Unique}\n')
    loader = DataLoader()
    loader.set_vault_secrets(secrets)
    hierarchy = get_hierarchy(str(tmp_path / 'hier.yml'), loader)

    dns = hierarchy.lookup('Dns', NODE)
    assert dns.value == ['n1.example', 'role.example'] and dns.vaulted
    assert dns.provenance() == [{'level': 'Nodes/%{Name}', 'file': 'Nodes/n1.yml'},
                                {'level': 'Roles/%{Role}', 'file': 'Roles/web.yml', 'vaulted': True}]
    assert not hierarchy.lookup('Name', NODE).vaulted
    folder = hierarchy.lookup('Roles', NODE)         # Tree/Roles: a folder read as a map, with the vaulted data
    assert folder.value == {'web': {'Dns': ['role.example'], 'Port': 80}} and folder.vaulted


@pytest.mark.parametrize('text', ['http://[x={ $Node.Name }=]:8080', '[X={ $Node.Name }=]', '[enc=abc]'])
def test_datum_handlers_are_found_as_datum_matches_them(tmp_path, text):
    (tmp_path / 'data').mkdir()
    (tmp_path / 'data' / 'Common.yml').write_text('Plain: "[not a handler]"\nValue: %s\n' % json.dumps(text))
    (tmp_path / 'hier.yml').write_text('datadir: data\nhierarchy: [Common]\n')
    hierarchy = get_hierarchy(str(tmp_path / 'hier.yml'), DataLoader())
    assert hierarchy.lookup('Plain', NODE).value == '[not a handler]'
    with pytest.raises(HierarchyError, match="Common.yml:2: key 'Value' holds the Datum handler"):
        hierarchy.lookup('Value', NODE)


def test_a_folder_linking_to_its_parent_is_an_error(tmp_path):
    (tmp_path / 'data' / 'Common').mkdir(parents=True)
    (tmp_path / 'data' / 'Common' / 'Base.yml').write_text('a: 1\n')
    (tmp_path / 'data' / 'Common' / 'up').symlink_to('..')
    (tmp_path / 'hier.yml').write_text('datadir: data\nhierarchy: [Common]\n')
    hierarchy = get_hierarchy(str(tmp_path / 'hier.yml'), DataLoader())
    assert hierarchy.lookup('Base', NODE).value == {'a': 1}
    with pytest.raises(StoreError, match='links back to'):
        hierarchy.lookup('up', NODE)


@pytest.mark.parametrize('text, line, folder', [
    ('datadir: dat\nhierarchy: [Common]\n', 1, 'dat'),
    ('# data\nhierarchy: [Common]\ndatadir: "../elsewhere/data"\n', 3, '../elsewhere/data'),
])
def test_a_missing_data_folder_names_the_datadir_line(tmp_path, text, line, folder):
    (tmp_path / 'conf').mkdir()
    (tmp_path / 'conf' / 'hier.yml').write_text(text)
    missing = os.path.normpath(str(tmp_path / 'conf' / folder))
    with pytest.raises(StoreError) as raised:
        get_hierarchy(str(tmp_path / 'conf' / 'hier.yml'), DataLoader())
    assert str(raised.value) == ('%s:%d: datadir: the data folder %s does not exist (a relative datadir is relative '
                                 'to the folder of this file)' % (tmp_path / 'conf' / 'hier.yml', line, missing))
