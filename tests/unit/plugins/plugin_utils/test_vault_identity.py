# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Inline vault values in Unique lists and tuple keys merge without the vault password (issue 12, defect 4):
the core compares them by ciphertext, as compat.py teaches it for the running ansible-core."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from ansible.parsing.dataloader import DataLoader
from ansible.parsing.vault import VaultLib, VaultSecret

from ansible_collections.strata.hier.plugins.filter.deep_merge import deep_merge
from ansible_collections.strata.hier.plugins.plugin_utils.compat import is_vault_value, vault_ciphertext

SECRET = [('default', VaultSecret(b'unit-test'))]


def vaulted(text):
    return '!vault |\n' + ''.join('      %s\n' % line for line in VaultLib(SECRET).encrypt(text).decode().splitlines())


@pytest.fixture
def layers(tmp_path):
    """Two layers as a store without the vault password loads them: vault values stay encrypted."""
    secret, again = vaulted('s3cret'), vaulted('s3cret')      # two encryptions of one secret
    role = 'Features:\n  - %s  - %s  - plain\nPackages:\n  - Name: %s    Version: 1\n' % (secret, again, secret)
    node = 'Features:\n  - %s  - plain\nPackages:\n  - Name: %s    Ensure: Present\n' % (secret, secret)
    loaded = []
    for name, text in (('role.yml', role), ('node.yml', node)):
        path = tmp_path / name
        path.write_text(text)
        loaded.append(DataLoader().load_from_file(str(path)))      # no vault secrets
    return loaded


def test_unique_and_deep_tuple_merge_vault_values_by_ciphertext(layers):
    role, node = layers
    result = deep_merge(role, node, tuple_keys=['Name'])
    features = result['Features']
    assert [is_vault_value(item) for item in features] == [True, False, True]
    # the node's value and the role's first one are one ciphertext; the role's second encryption differs
    assert [vault_ciphertext(item) for item in (features[0], features[2])] == \
        [vault_ciphertext(node['Features'][0]), vault_ciphertext(role['Features'][1])]
    assert len(result['Packages']) == 1
    package = result['Packages'][0]
    assert vault_ciphertext(package['Name']) == vault_ciphertext(node['Packages'][0]['Name'])
    assert (package['Version'], package['Ensure']) == (1, 'Present')


@pytest.mark.parametrize('module', [
    'plugins.filter.deep_merge', 'plugins.filter.cloud_init_merge', 'plugins.filter.heat_merge',
    'plugins.filter.sequence_merge', 'plugins.filter.layer_documents', 'plugins.filter.to_vaulted_yaml',
    'plugins.lookup.hier', 'plugins.inventory.hier',
])
def test_every_plugin_teaches_the_core_the_vault_type(module):
    check = ('import importlib\n'
             'importlib.import_module("ansible_collections.strata.hier.%s")\n'
             'from ansible_collections.strata.hier.plugins.module_utils.core import identity\n'
             'print(sorted(cls.__name__ for cls in identity._OPAQUE))\n' % module)
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(path for path in sys.path if path))
    output = subprocess.run([sys.executable, '-c', check], env=environment, capture_output=True, text=True,
                            check=True).stdout
    assert ('EncryptedString' in output) or ('AnsibleVaultEncryptedUnicode' in output), output
