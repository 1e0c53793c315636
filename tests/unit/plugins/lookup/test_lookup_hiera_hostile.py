# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""A Hiera repository written by an attacker, through the plugins (issue 25, findings 4 and 8): secrets reaching a
map key are withheld or refused, and the errors name the hiera.yaml's line."""

from __future__ import annotations

import pytest

from ansible.errors import AnsibleError
from ansible.inventory.data import InventoryData
from ansible.parsing.dataloader import DataLoader
from ansible.parsing.vault import VaultLib, VaultSecret
from ansible.plugins.loader import inventory_loader

from ansible_collections.strata.hier.plugins.filter.to_vaulted_yaml import to_vaulted_yaml
from ansible_collections.strata.hier.plugins.module_utils.core import limits
from ansible_collections.strata.hier.tests.unit.plugins.inventory.test_inventory_hier import write
# pylint: disable-next=unused-import  # repo is a fixture
from ansible_collections.strata.hier.tests.unit.plugins.lookup.test_lookup_hiera import (  # noqa: F401
    HIERA, lookup, repo,
)

SECRETS = [('default', VaultSecret(b'unit-test'))]


def inventory_of(repo, loader):
    source = repo / 'site.hier.yml'
    write(source, 'plugin: strata.hier.hier\nconfig: hiera.yaml\nnodes: data/nodes/*.yaml\nfacts: {role: web}\n')
    inventory = InventoryData()
    inventory_loader.get('strata.hier.hier').parse(inventory, loader, str(source), cache=False)
    return inventory.get_host('web01.example.com').vars


def test_a_map_key_interpolating_whole_file_vaulted_data_is_withheld(repo):
    (repo / 'data' / 'roles' / 'web.yaml').write_bytes(VaultLib(SECRETS).encrypt('api_token: t0k\n'))
    write(repo / 'data' / 'nodes' / 'web01.example.com.yaml',
          'users:\n  admins:\n    "%{lookup(\'api_token\')}": admin\nplain: {a: 1}\n')
    loader = DataLoader()
    loader.set_vault_secrets(SECRETS)
    web = inventory_of(repo, loader)
    assert web['users'] == {'admins': {'t0k': 'admin'}}             # as Hiera answers
    assert 'users' in web['hier_vaulted_keys'] and 'plain' not in web['hier_vaulted_keys']
    written = to_vaulted_yaml(web, keys=['users', 'plain'], withhold=web['hier_vaulted_keys'])    # the rsop role
    assert 't0k' not in written and 'WITHHELD' in written


def test_an_inline_vault_value_as_a_map_key_is_refused_without_decrypting(repo):
    write(repo / 'data' / 'nodes' / 'web01.example.com.yaml', 'keyed:\n  "%{alias(\'password\')}": x\n')
    with pytest.raises(AnsibleError, match=r"vault value cannot be a map key.*key 'keyed', level 'node', "
                                           r"file \S+web01\.example\.com\.yaml:1\)"):
        inventory_of(repo, DataLoader())        # no vault password: decrypting it would fail too
    with pytest.raises(AnsibleError, match='vault value cannot be a map key'):
        lookup(repo, 'keyed')


def test_a_budget_error_of_a_glob_level_names_the_hiera_yaml_line(repo, monkeypatch):
    monkeypatch.setattr(limits, 'EXPANSION_FLOOR', 20000)
    level = '  - {name: picks, glob: "picks/%{facts.pick}.yaml"}\n'
    write(repo / 'hiera.yaml', HIERA.replace('  - {name: common', level + '  - {name: common'))
    variables = {'inventory_hostname': 'web01.example.com', 'pick': '{a,b}' * 12}
    with pytest.raises(AnsibleError, match=r"hiera\.yaml:7: level 'picks': expanding the data passes its work "
                                           r"budget"):
        lookup(repo, 'port', variables=variables)
    write(repo / 'data' / 'picks' / 'web.yaml', 'picked: yes\n')
    assert lookup(repo, 'picked', variables=dict(variables, pick='{x,web}')) == [True]     # braces from a fact glob
