# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The lookup and the inventory plugin reading a Puppet hiera.yaml (issue 10): facts mapped from Ansible,
lookup_options and merges applied, vault values kept encrypted, errors named."""

from __future__ import annotations

import json

import pytest

from ansible.errors import AnsibleError
from ansible.inventory.data import InventoryData
from ansible.parsing.dataloader import DataLoader
from ansible.parsing.vault import VaultLib, VaultSecret
from ansible.plugins.loader import inventory_loader, lookup_loader
from ansible.template import Templar

from ansible_collections.strata.hier.plugins.plugin_utils.compat import is_vault_value, vault_ciphertext
from ansible_collections.strata.hier.tests.unit.plugins.inventory.test_inventory_hier import write

CIPHERTEXT = VaultLib([('default', VaultSecret(b'unit-test'))]).encrypt('s3cret').decode()
HIERA = '''version: 5
defaults: {datadir: data, data_hash: yaml_data}
hierarchy:
  - {name: node, path: "nodes/%{trusted.certname}.yaml"}
  - {name: role, path: "roles/%{facts.role}.yaml"}
  - {name: os, path: "os/%{facts.os.family}.yaml"}
  - {name: common, path: common.yaml}
'''


@pytest.fixture
def repo(tmp_path):
    write(tmp_path / 'hiera.yaml', HIERA)
    write(tmp_path / 'data' / 'common.yaml', 'lookup_options:\n  ntp::servers: {merge: unique}\n'
          'ntp::servers: [c]\nmotd: "hello %{trusted.hostname} (%{facts.os.family})"\n'
          'password: !vault ' + json.dumps(CIPHERTEXT) + '\n')
    write(tmp_path / 'data' / 'roles' / 'web.yaml', 'ntp::servers: [r]\nport: 80\n')
    write(tmp_path / 'data' / 'os' / 'Debian.yaml', 'family_only: yes\n')
    write(tmp_path / 'data' / 'nodes' / 'web01.example.com.yaml', 'ntp::servers: [n]\n')
    write(tmp_path / 'data' / 'nodes' / 'db01.example.com.yaml', 'port: 5432\n')
    return tmp_path


HOST = {'inventory_hostname': 'web01.example.com', 'role': 'web', 'ansible_facts': {'os_family': 'Debian'}}


def lookup(repo, *terms, **options):
    loader = DataLoader()
    plugin = lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader))
    return plugin.run(list(terms), options.pop('variables', HOST), config=str(repo / 'hiera.yaml'), **options)


def test_host_variables_and_facts_map_onto_hieras_scope(repo):
    assert lookup(repo, 'ntp::servers') == [['n', 'r', 'c']]                 # lookup_options in the data: unique
    assert lookup(repo, 'motd') == ['hello web01 (Debian)']                   # trusted.hostname, facts.os.family
    assert lookup(repo, 'family_only') == [True]


def test_the_merge_option_wins_over_lookup_options(repo):
    assert lookup(repo, 'ntp::servers', merge='first') == [['n']]
    assert lookup(repo, 'ntp::servers', merge={'strategy': 'deep'}) == [['c', 'r', 'n']]


def test_a_missing_key_is_an_error_unless_a_default_is_given(repo):
    with pytest.raises(AnsibleError, match="'absent' was found on no level"):
        lookup(repo, 'absent')
    assert lookup(repo, 'absent', default=7) == [7]


def test_vault_values_stay_encrypted_in_values_and_explain(repo):
    report, = lookup(repo, 'password', explain=True)
    assert report['found'] and is_vault_value(report['value']) and vault_ciphertext(report['value']) == CIPHERTEXT
    assert 's3cret' not in report['explain'] and 'Hierarchy entry "common"' in report['explain']
    write(repo / 'data' / 'roles' / 'web.yaml', 'leak: "%{lookup(\'password\')}"\n')
    with pytest.raises(AnsibleError, match='vault value cannot be interpolated'):
        lookup(repo, 'leak')


def test_a_broken_configuration_is_named(repo):
    write(repo / 'hiera.yaml', HIERA.replace('version: 5', 'version: 4'))
    with pytest.raises(AnsibleError, match=r"hiera\.yaml:1: key 'version'"):
        lookup(repo, 'port')
    write(repo / 'hiera.yaml', HIERA.replace('path: common.yaml}', 'path: common.yaml, data_hash: hocon_data}'))
    with pytest.raises(AnsibleError, match=r"hiera\.yaml:7: key 'hierarchy\[3\] \(level 'common'\)\.data_hash'"):
        lookup(repo, 'port')


def test_inventory_makes_a_host_per_node_file_with_its_whole_data(repo):
    write(repo / 'facts' / 'web01.example.com.yaml', 'values: {role: web, os: {family: Debian}}\n')
    write(repo / 'facts' / 'db01.example.com.json', '{"role": "db"}')
    source = repo / 'site.hier.yml'
    write(source, 'plugin: strata.hier.hier\nconfig: hiera.yaml\nnodes: data/nodes/*.yaml\nfacts_dir: facts\n')
    inventory = InventoryData()
    inventory_loader.get('strata.hier.hier').parse(inventory, DataLoader(), str(source), cache=False)
    web = inventory.get_host('web01.example.com').vars
    db = inventory.get_host('db01.example.com').vars
    assert web['ntp__servers'] == ['n', 'r', 'c'] and web['port'] == 80 and web['family_only'] is True
    assert db['port'] == 5432 and db['ntp__servers'] == ['c'] and 'family_only' not in db
    assert is_vault_value(web['password'])


def test_inventory_provenance_feeds_the_rsop_role(repo):
    source = repo / 'site.hier.yml'
    write(source, 'plugin: strata.hier.hier\nconfig: hiera.yaml\nnodes: data/nodes/*.yaml\nprovenance: true\n'
          'facts: {role: web}\n')
    inventory = InventoryData()
    inventory_loader.get('strata.hier.hier').parse(inventory, DataLoader(), str(source), cache=False)
    sources = inventory.get_host('db01.example.com').vars['hier_sources']
    assert [entry['level'] for entry in sources['port']] == ['node', 'role']
    assert sources['ntp__servers'][-1] == {'level': 'common', 'file': str(repo / 'data' / 'common.yaml')}


def test_a_hiera_configuration_of_any_name_is_known_by_its_version_key(repo):
    write(repo / 'control.yml', HIERA)
    loader = DataLoader()
    plugin = lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader))
    assert plugin.run(['port'], HOST, config=str(repo / 'control.yml')) == [80]


def test_a_merge_error_names_key_level_and_the_line_in_the_data_file(repo):
    write(repo / 'data' / 'roles' / 'web.yaml', 'port: 80\nntp::servers:\n  bad: map\n')
    with pytest.raises(AnsibleError, match=r"key 'ntp::servers', level '\w+', file \S+/data/\w+/\S+\.yaml:\d+\)") as raised:
        lookup(repo, 'ntp::servers')
    place = str(raised.value).rsplit('file ', 1)[1].rstrip(')')
    path, line = place.rsplit(':', 1)
    assert open(path).read().splitlines()[int(line) - 1].startswith('ntp::servers:')


def test_inventory_lists_the_keys_that_may_hold_whole_file_vaulted_data(repo):
    """Data of a whole-file vaulted file is plain once loaded: hier_vaulted_keys names the keys a file holds and
    the keys whose value interpolates while such a file has been read, as for a hier.yml (docs/security.md)."""
    secrets = [('default', VaultSecret(b'unit-test'))]
    (repo / 'data' / 'roles' / 'web.yaml').write_bytes(VaultLib(secrets).encrypt('ntp::servers: [r]\napi_token: t0k\n'))
    write(repo / 'data' / 'nodes' / 'web01.example.com.yaml', 'greeting: "key %{lookup(\'api_token\')}"\n')
    source = repo / 'site.hier.yml'
    write(source, 'plugin: strata.hier.hier\nconfig: hiera.yaml\nnodes: data/nodes/*.yaml\nfacts: {role: web}\n')
    loader = DataLoader()
    loader.set_vault_secrets(secrets)
    inventory = InventoryData()
    inventory_loader.get('strata.hier.hier').parse(inventory, loader, str(source), cache=False)
    web = inventory.get_host('web01.example.com').vars
    assert web['greeting'] == 'key t0k' and web['api_token'] == 't0k'
    assert set(web['hier_vaulted_keys']) == {'ntp__servers', 'api_token', 'greeting', 'motd'}   # motd interpolates
    assert is_vault_value(web['password']) and 'password' not in web['hier_vaulted_keys']    # a !vault value
    write(repo / 'data' / 'roles' / 'web.yaml', 'ntp::servers: [r]\napi_token: t0k\n')
    inventory = InventoryData()
    inventory_loader.get('strata.hier.hier').parse(inventory, loader, str(source), cache=False)
    assert 'hier_vaulted_keys' not in inventory.get_host('web01.example.com').vars


def test_a_nodes_glob_of_a_hiera_yaml_source_that_matches_no_file_is_told(repo, monkeypatch):
    source = repo / 'site.hier.yml'
    write(source, 'plugin: strata.hier.hier\nconfig: hiera.yaml\nnodes: nodes/*.yaml\n')     # not under data/
    warnings = []
    monkeypatch.setattr('ansible.utils.display.Display.warning', lambda self, message, *a, **k: warnings.append(message))
    inventory = InventoryData()
    inventory_loader.get('strata.hier.hier').parse(inventory, DataLoader(), str(source), cache=False)
    assert not inventory.hosts
    assert [warning for warning in warnings if "nodes 'nodes/*.yaml' matches no file under" in warning
            and 'relative to the hiera.yaml' in warning], warnings


def test_the_hiera_yaml_s_own_warnings_are_printed_once_by_the_lookup_and_the_inventory(repo, monkeypatch):
    """Issue 27: a hiera.yaml's warnings are the configuration's (Source.take_warnings): the lookup printed none of
    them, the inventory one per host."""
    write(repo / 'hiera.yaml', HIERA + 'plan_hierarchy:\n  - {name: plan, path: plan.yaml}\n')
    warnings = []
    monkeypatch.setattr('ansible.utils.display.Display.warning', lambda self, message, *a, **k: warnings.append(message))
    assert lookup(repo, 'port') == [80] and lookup(repo, 'port') == [80]
    planned = ["strata.hier.hier: %s: 'plan_hierarchy' is for Bolt plans and is ignored" % (repo / 'hiera.yaml')]
    assert [warning for warning in warnings if 'plan_hierarchy' in warning] == planned
    write(repo / 'hiera.yaml', HIERA + 'plan_hierarchy: []\n')      # changed: read again, said again
    source = repo / 'site.hier.yml'
    write(source, 'plugin: strata.hier.hier\nconfig: hiera.yaml\nnodes: data/nodes/*.yaml\n')
    del warnings[:]
    inventory = InventoryData()
    inventory_loader.get('strata.hier.hier').parse(inventory, DataLoader(), str(source), cache=False)
    assert len(inventory.hosts) == 2
    assert [warning for warning in warnings if 'plan_hierarchy' in warning] == planned
