# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

import datetime

import pytest
import yaml

from ansible.errors import AnsibleFilterError
from ansible.parsing.dataloader import DataLoader

from ansible_collections.strata.hier.plugins.filter.to_vaulted_yaml import FilterModule, to_vaulted_yaml
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.shapes import alias_bomb, looped, nested

# 'D3v-S3cret!' encrypted with the example store's password; no vault secret is loaded in these tests,
# so any attempt to decrypt would fail.
CIPHERTEXT = """$ANSIBLE_VAULT;1.1;AES256
64616533303964306331623838346533663765663062326362616566626266333866633730313537
6130316432303730666166333366653137333933396533340a366361633832643161363836356564
63396434373862363037383265343831363565356263313233623331616533613566666262373630
3464373361653964330a303030306663343033383733343237616535343939363164373431616237
3730"""

SOURCE = 'AdminPassword: !vault |\n' + ''.join('  %s\n' % line for line in CIPHERTEXT.splitlines()) + \
    'Nested:\n  Accounts:\n  - Name: svc\n    Password: !vault |\n' + \
    ''.join('      %s\n' % line for line in CIPHERTEXT.splitlines())


class Unsafe(str):
    """Like 2.16's AnsibleUnsafeText: str() returns the object itself."""

    def __str__(self):  # pylint: disable=invalid-str-returned
        return self


class VaultLoader(yaml.SafeLoader):
    pass


VaultLoader.add_constructor('!vault', lambda loader, node: ('vault', loader.construct_scalar(node)))


def read_back(text):
    return yaml.load(text, Loader=VaultLoader)


@pytest.fixture
def vaulted():
    """Vault values as the running ansible-core loads them (EncryptedString or AnsibleVaultEncryptedUnicode)."""
    return DataLoader().load(SOURCE)


def test_registered():
    assert FilterModule().filters()['to_vaulted_yaml'] is to_vaulted_yaml


def test_vault_values_keep_their_ciphertext(vaulted):
    text = to_vaulted_yaml(vaulted)
    assert text.startswith('AdminPassword: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  6461')
    assert read_back(text) == {'AdminPassword': ('vault', CIPHERTEXT + '\n'),
                               'Nested': {'Accounts': [{'Name': 'svc', 'Password': ('vault', CIPHERTEXT + '\n')}]}}
    assert 'S3cret' not in text


def test_bare_vault_value(vaulted):
    assert read_back(to_vaulted_yaml(vaulted['AdminPassword'])) == ('vault', CIPHERTEXT + '\n')


def test_decrypted_value_tagged_with_its_ciphertext():
    tags = pytest.importorskip('ansible._internal._datatag._tags')  # ansible-core 2.19+
    value = tags.VaultedValue(ciphertext=CIPHERTEXT).tag('D3v-S3cret!')
    text = to_vaulted_yaml({'AdminPassword': value})
    assert read_back(text) == {'AdminPassword': ('vault', CIPHERTEXT)}
    assert 'S3cret' not in text


def test_sorted_block_style_and_multiline_strings():
    data = {'b': [3, {'z': 1, 'y': None}], 'a': {'d': 'one\ntwo\n', 'c': True}, 'e': 1.5, 'f': '{{ x }}'}
    assert to_vaulted_yaml(data) == (
        "a:\n  c: true\n  d: |\n    one\n    two\nb:\n- 3\n- y: null\n  z: 1\ne: 1.5\nf: '{{ x }}'\n")
    assert to_vaulted_yaml(data, indent=4, sort_keys=False).startswith('b:\n- 3\n-   z: 1\n    y: null\na:\n    d: |\n        one\n')
    assert read_back(to_vaulted_yaml(data)) == data


def test_string_subclasses_and_mixed_keys():
    text = to_vaulted_yaml({Unsafe('k'): Unsafe('v'), 2: 'two', 1: 'one'})
    assert text == "1: one\n2: two\nk: v\n"


def test_no_aliases_for_shared_objects():
    shared = {'Name': 'x'}
    assert to_vaulted_yaml({'a': shared, 'b': shared}) == 'a:\n  Name: x\nb:\n  Name: x\n'


def test_dates_sets_and_tuples():
    data = {'when': datetime.date(2026, 1, 2), 'tags': {'b', 'a'}, 'pair': (1, 2)}
    assert to_vaulted_yaml(data) == 'pair:\n- 1\n- 2\ntags:\n- a\n- b\nwhen: 2026-01-02\n'


def test_keys_select_from_a_map(vaulted):
    assert to_vaulted_yaml({'a': 1, 'b': 2, 'c': 3}, keys=['c', 'a', 'missing']) == 'a: 1\nc: 3\n'
    assert read_back(to_vaulted_yaml(vaulted, keys=['AdminPassword'])) == {'AdminPassword': ('vault', CIPHERTEXT + '\n')}
    assert to_vaulted_yaml({'a': 1}, keys=[]) == '{}\n'


def test_withheld_keys_are_written_as_a_notice(vaulted):
    written = to_vaulted_yaml({'Dns': ['secret.example'], 'Port': 80, 'Tz': 'UTC'}, keys=['Dns', 'Port'],
                              withhold=['Dns', 'Tz'])
    assert written == "Dns: 'WITHHELD: data of a whole-file vaulted file'\nPort: 80\n"
    assert 'secret' not in to_vaulted_yaml({'Dns': {'deep': 'secret'}}, withhold=['Dns'])
    assert to_vaulted_yaml({'a': 1}, withhold=[]) == 'a: 1\n'


@pytest.mark.parametrize('data, kwargs, words', [
    ({'a': {'b': [object()]}}, {}, ['a/b/0', 'object']),
    ({'a': 1}, {'indent': 1}, ['indent']),
    ({'a': 1}, {'indent': True}, ['indent']),
    ([1], {'keys': ['a']}, ['keys needs a map', 'list']),
    ({'a': 1}, {'keys': 'a'}, ['keys must be a list']),
    ({'a': 1}, {'keys': [1]}, ['keys must be a list']),
    ([1], {'withhold': ['a']}, ['withhold needs a map', 'list']),
    ({'a': 1}, {'withhold': 'a'}, ['withhold must be a list']),
    ({('t',): 1}, {}, ['key of type tuple']),
])
def test_errors(data, kwargs, words):
    with pytest.raises(AnsibleFilterError) as error:
        to_vaulted_yaml(data, **kwargs)
    for word in words:
        assert word in str(error.value)


@pytest.mark.parametrize('data', [nested(2000), nested(64)], ids=['2000 levels', '64 below the top'])
def test_deep_nesting_is_the_depth_error(data):
    with pytest.raises(AnsibleFilterError, match=r'to_vaulted_yaml: data nests deeper than 64 levels'):
        to_vaulted_yaml(data)


def test_self_reference_is_the_depth_error():
    with pytest.raises(AnsibleFilterError, match=r"refers to itself .*at key path 'self'"):
        to_vaulted_yaml(looped())
    loaded = DataLoader().load('Loop: &a\n  self: *a\n')
    with pytest.raises(AnsibleFilterError, match='refers to itself'):
        to_vaulted_yaml(loaded)


def test_sixty_four_levels_are_written():
    assert to_vaulted_yaml(nested(63)).count('k:') == 63


def test_an_alias_bomb_is_refused_at_the_cost_of_its_text():
    bomb = DataLoader().load(alias_bomb())
    with pytest.raises(AnsibleFilterError, match='more than 200000 values'):
        to_vaulted_yaml(bomb)
