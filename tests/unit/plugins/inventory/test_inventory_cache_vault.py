# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The inventory cache with inline vault values and no vault password (issue 25, finding 10).

Before, on ansible-core 2.16, the cache compared its vault values by decrypting them after the source was parsed:
without the password the source failed and Ansible dropped the whole inventory, exit 0.
"""

from __future__ import annotations

import json
import os

import pytest

from ansible.inventory.data import InventoryData
from ansible.parsing.dataloader import DataLoader
from ansible.parsing.vault import VaultLib, VaultSecret
from ansible.plugins.loader import inventory_loader

from ansible_collections.strata.hier.plugins.plugin_utils.compat import (
    DATA_TAGGING, decrypted, is_vault_value, vault_ciphertext,
)
from ansible_collections.strata.hier.tests.unit.plugins.inventory.test_inventory_hier import write

SECRET = [('default', VaultSecret(b'unit-test'))]
CIPHERTEXT = VaultLib(SECRET).encrypt('s3cret').decode()


@pytest.fixture
def source(tmp_path):
    write(tmp_path / 'data' / 'Nodes' / 'web01.yml', 'Role: web\n')
    write(tmp_path / 'data' / 'Roles' / 'web.yml', 'Port: 80\nPassword: !vault %s\n' % json.dumps(CIPHERTEXT))
    write(tmp_path / 'hier.yml', 'datadir: data\nhierarchy: ["Nodes/%{inventory_hostname}", "Roles/%{Role}"]\n'
                                 'nodes: "Nodes/*"\n')
    path = tmp_path / 'nodes.hier.yml'
    write(path, 'plugin: strata.hier.hier\nconfig: %s\ncache: true\ncache_plugin: ansible.builtin.jsonfile\n'
                'cache_connection: %s\n' % (tmp_path / 'hier.yml', tmp_path / 'cache'))
    return str(path)


def parse(path, loader):
    """As ansible-core's InventoryManager parses a source: the cache updated after parse, outside the plugin."""
    plugin = inventory_loader.get('strata.hier.hier')
    inventory = InventoryData()
    plugin.parse(inventory, loader, path)
    try:
        plugin.update_cache_if_changed()
    except AttributeError:      # no cache (2.19+)
        pass
    return inventory


def cached_text(tmp_path):
    folder = tmp_path / 'cache'
    return ''.join((folder / name).read_text() for name in os.listdir(str(folder)))


def test_inline_vault_values_are_cached_without_a_vault_password(source, tmp_path, monkeypatch):
    password = parse(source, DataLoader()).get_host('web01').vars['Password']     # no vault secret loaded
    assert is_vault_value(password) and vault_ciphertext(password) == CIPHERTEXT
    assert CIPHERTEXT.splitlines()[-1] in cached_text(tmp_path)     # kept encrypted in the cache

    monkeypatch.setattr(type(inventory_loader.get('strata.hier.hier')), '_merge_nodes',
                        lambda *args: pytest.fail('the cache entry was not used'))
    again = parse(source, DataLoader()).get_host('web01').vars
    assert again['Port'] == 80 and vault_ciphertext(again['Password']) == CIPHERTEXT


def test_a_cached_vault_value_decrypts_with_the_password_when_used(source):
    parse(source, DataLoader())
    loader = DataLoader()
    loader.set_vault_secrets(SECRET)
    password = parse(source, loader).get_host('web01').vars['Password']
    if DATA_TAGGING:
        from ansible.parsing.vault import VaultSecretsContext
        VaultSecretsContext.initialize(VaultSecretsContext(SECRET))
    try:
        assert decrypted(password) == 's3cret'
    finally:
        if DATA_TAGGING:
            VaultSecretsContext._current = None
