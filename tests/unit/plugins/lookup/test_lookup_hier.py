# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The lookup against hostile data: vault values kept, errors named once (issue 12)."""

from __future__ import annotations

import json
import os

import pytest

from ansible.errors import AnsibleError
from ansible.parsing.dataloader import DataLoader
from ansible.parsing.vault import VaultLib, VaultSecret
from ansible.plugins.loader import lookup_loader
from ansible.template import Templar

from ansible_collections.strata.hier.plugins.plugin_utils.compat import is_vault_value, vault_ciphertext
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.shapes import nested

SECRET = [('default', VaultSecret(b'unit-test'))]
CIPHERTEXT = VaultLib(SECRET).encrypt('s3cret').decode()


def write(path, text, mode='w'):
    os.makedirs(os.path.dirname(str(path)), exist_ok=True)
    with open(str(path), mode) as stream:
        stream.write(text)


@pytest.fixture
def store(tmp_path):
    """Inline vault values only: no vault secret is loaded, so any decryption fails the test."""
    write(tmp_path / 'data' / 'Common.yml', 'Password: !vault %s\nAccounts: [{Name: svc, Password: !vault %s}]\n'
          'Plain: text\n' % (json.dumps(CIPHERTEXT), json.dumps(CIPHERTEXT)))
    write(tmp_path / 'hier.yml', 'datadir: data\nhierarchy: ["Nodes/%{Node}", Common]\n')
    return tmp_path


def lookup(store, *terms, **options):
    loader = DataLoader()
    plugin = lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader))
    return plugin.run(list(terms), options.pop('variables', {'Node': 'n1'}), config=str(store / 'hier.yml'), **options)


def test_explain_keeps_vault_values_encrypted(store):
    report, = lookup(store, 'Password', explain=True)
    assert is_vault_value(report['value']) and vault_ciphertext(report['value']) == CIPHERTEXT
    accounts, = lookup(store, 'Accounts', explain=True)
    assert is_vault_value(accounts['value'][0]['Password'])
    assert 's3cret' not in repr(accounts['levels']) + repr(accounts['strategy'])


def test_query_returns_vault_values_encrypted(store):
    assert is_vault_value(lookup(store, 'Accounts', query='[0]')[0]['Password'])
    assert is_vault_value(lookup(store, 'Accounts', query='[].Password')[0][0])
    assert lookup(store, 'Accounts', query='[].Name') == [['svc']]
    assert lookup(store, 'Accounts', query="[?Password=='s3cret'].Name") == [[]]    # compared, never decrypted


def test_a_query_error_does_not_show_a_vault_value(store):
    with pytest.raises(AnsibleError) as caught:
        lookup(store, 'Password', query='length(@)')
    assert '<vault value>' in str(caught.value) and 'ANSIBLE_VAULT' not in str(caught.value)


def test_a_vault_value_is_no_level_variable(store):
    variables = {'Node': DataLoader().load('x: !vault %s' % json.dumps(CIPHERTEXT))['x']}
    with pytest.raises(AnsibleError, match=r"level 'Nodes/%\{Node\}': variable 'Node' is \(or holds\) a vault value"):
        lookup(store, 'Plain', variables=variables)
    nested = {'Node': DataLoader().load('x: {Name: !vault %s}' % json.dumps(CIPHERTEXT))['x']}
    write(store / 'hier.yml', 'datadir: data\nhierarchy: ["Nodes/%{Node.Name}", Common]\n')
    with pytest.raises(AnsibleError, match=r"variable 'Node.Name' is \(or holds\) a vault value"):
        lookup(store, 'Plain', variables=nested)


def test_a_map_as_level_variable_is_still_named_a_map(store):
    with pytest.raises(AnsibleError, match=r"variable 'Node' is a map, not a name"):
        lookup(store, 'Plain', variables={'Node': {'a': 1}})


@pytest.mark.parametrize('text, message', [
    ('Number: %s\n' % ('1' * 5000), r'Broken.yml:1: a number of 5000 digits; Python reads at most 4300'),
    ('a: [unclosed\n  b: 1\n', r"Broken.yml:2:4: did not find expected ',' or '\]'"),
    ('a: !!python/object/apply:os.system ["id"]\n', r'Broken.yml:1:4: could not determine a constructor for the tag'),
    ('a: ' + '[' * 100000 + ']' * 100000 + '\n', r'Broken.yml:1: the data nests deeper than 500 levels'),
    ('a:\n  ' + '- ' * 60000 + 'x\n', r'Broken.yml:2: the data nests deeper than 500 levels'),
    ('Name: Caf\xe9\n'.encode('latin-1'), r'Broken.yml is not UTF-8 text \(byte 0xe9 at offset 9\); save it as UTF-8'),
])
def test_a_file_that_cannot_be_read_is_named_once(store, text, message):
    write(store / 'data' / 'Broken.yml', text, 'wb' if isinstance(text, bytes) else 'w')
    write(store / 'hier.yml', 'datadir: data\nhierarchy: [Broken]\n')
    with pytest.raises(AnsibleError, match=message) as caught:
        lookup(store, 'Number')
    shown = str(caught.value)
    assert shown.count('Broken.yml') == 1, shown           # not "X. X" (2.16), nor the cause appended (2.19)
    assert type(caught.value).__name__ != 'AnsibleParserError'


def test_a_config_that_cannot_be_read_is_named(store):
    write(store / 'hier.yml', 'datadir: data\nhierarchy: [Common\n')
    with pytest.raises(AnsibleError, match=r"hier.yml:3:1: did not find expected ',' or '\]'"):
        lookup(store, 'Plain')


def test_explain_of_data_as_deep_as_merging_allows(store):
    write(store / 'data' / 'Common.yml', 'Deep: %s\n' % json.dumps(nested(63)))
    report, = lookup(store, 'Deep', explain=True)
    assert report['value'] == nested(63)
