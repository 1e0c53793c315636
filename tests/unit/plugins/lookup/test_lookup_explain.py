# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""explain=true reports the strategy each nested path actually merged by (issue 33, item 5), in a hier.yml store
(README.md's first project) and in a Datum.yml store."""

from __future__ import annotations

import pytest

from ansible.parsing.dataloader import DataLoader
from ansible.parsing.vault import VaultLib, VaultSecret
from ansible.plugins.loader import lookup_loader
from ansible.template import Templar

from ansible_collections.strata.hier.tests.unit.plugins.readme_project import DB01, README_FILES, write
from ansible_collections.strata.hier.tests.unit.plugins.vault_context import secrets_context

SECRET = [('default', VaultSecret(b'unit-test'))]
NTP_SERVERS_MOST_SPECIFIC = {
    'path': 'ntp/servers', 'type': 'base-type array', 'strategy': 'MostSpecific', 'rule': 'default_lookup_options',
    'how': 'default', 'merge_basetype_array': 'MostSpecific', 'knockout_prefix': None}


def lookup(config, *terms, **options):
    loader = DataLoader()
    loader.set_vault_secrets(SECRET)
    plugin = lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader))
    return plugin.run(list(terms), options.pop('variables', DB01), config=str(config), **options)


@pytest.fixture
def readme(tmp_path):
    write(tmp_path, README_FILES)
    return tmp_path


def test_readme_first_project_reports_the_nested_list_as_merged(readme):
    report, = lookup(readme / 'hier.yml', 'ntp', explain=True)
    assert report['value'] == {'makestep': '0.1 -1', 'servers': ['0.pool.ntp.org', '1.pool.ntp.org']}
    # what explain reported before, kept: the key's own rule and strategy (whose arrays setting is Unique)
    assert report['rule'] == 'ntp' and report['strategy']['merge_basetype_array'] == 'Unique'
    assert report['paths'] == [
        {'path': 'ntp', 'type': 'map', 'strategy': 'deep', 'rule': 'ntp', 'how': 'rule', 'merge_hash': 'deep',
         'knockout_prefix': '--'},
        NTP_SERVERS_MOST_SPECIFIC]


def test_readme_first_project_with_servers_on_two_levels(readme):
    write(readme, {'data/roles/db.yml': 'packages: [postgresql]\nntp:\n  servers: [ntp.db.example]\n'})
    report, = lookup(readme / 'hier.yml', 'ntp', explain=True)
    assert report['value']['servers'] == ['ntp.db.example']     # not the union the key's strategy would suggest
    assert report['paths'][1] == NTP_SERVERS_MOST_SPECIFIC
    assert lookup(readme / 'hier.yml', 'ntp') == [report['value']]


def test_a_rule_of_the_nested_path(readme):
    write(readme, {'hier.yml': README_FILES['hier.yml'] + '  ntp/servers: Unique\n',
                   'data/roles/db.yml': 'ntp:\n  servers: [ntp.db.example, --1.pool.ntp.org]\n'})
    report, = lookup(readme / 'hier.yml', 'ntp', explain=True)
    assert report['value']['servers'] == ['ntp.db.example', '0.pool.ntp.org']
    assert report['paths'][1] == dict(NTP_SERVERS_MOST_SPECIFIC, strategy='Unique', rule='ntp/servers', how='rule',
                                      merge_basetype_array='Unique', knockout_prefix='--')


def test_the_merge_option_is_the_rule_and_a_top_level_list_reports_its_merger(readme):
    report, = lookup(readme / 'hier.yml', 'packages', explain=True, merge='Sum')
    assert report['value'] == ['ntpsec', 'postgresql', 'openssh-server']
    assert report['paths'] == [{'path': 'packages', 'type': 'base-type array', 'strategy': 'Sum', 'rule': 'merge',
                                'how': 'rule', 'merge_basetype_array': 'Sum', 'knockout_prefix': '--'}]


def test_datum_yml_store(tmp_path):
    write(tmp_path, {
        'Datum.yml': 'ResolutionPrecedence:\n  - AllNodes\\$($Node.NodeName)\n  - Common\n'
                     'default_lookup_options: MostSpecific\nlookup_options:\n  Ntp: MergeRecursively\n'
                     '  Ntp\\Pool\\Servers: Unique\n',
        'AllNodes/n1.yml': 'NodeName: n1\nNTP:\n  servers: [n1.example]\n  pool: {Servers: [a], Keys: [k1]}\n',
        'Common.yml': 'ntp:\n  Servers: [common.example]\n  Pool: {servers: [b], keys: [k2]}\n'})
    report, = lookup(tmp_path / 'Datum.yml', 'ntp', explain=True, variables={'inventory_hostname': 'n1', 'NodeName': 'n1'})
    assert report['value'] == {'servers': ['n1.example'], 'pool': {'Servers': ['a', 'b'], 'Keys': ['k1']}}
    assert [(entry['path'], entry['rule'], entry['how'], entry.get('merge_basetype_array', entry.get('merge_hash')))
            for entry in report['paths']] == [
        ('ntp', 'Ntp', 'rule', 'deep'),
        ('ntp/servers', 'default_lookup_options', 'default', 'MostSpecific'),
        ('ntp/pool', 'Ntp', 'inherited', 'deep'),
        ('ntp/pool/Servers', 'Ntp\\Pool\\Servers', 'rule', 'Unique'),
        ('ntp/pool/Keys', 'default_lookup_options', 'default', 'MostSpecific')]


def test_a_lookup_without_explain_returns_the_value(readme):
    assert lookup(readme / 'hier.yml', 'ntp', 'packages') == [
        {'makestep': '0.1 -1', 'servers': ['0.pool.ntp.org', '1.pool.ntp.org']}, ['ntpsec', 'postgresql', 'openssh-server']]


@pytest.fixture
def vault_context():
    with secrets_context(SECRET):
        yield


def test_a_vault_key_is_shown_by_its_type(tmp_path, vault_context):
    ciphertext = VaultLib(SECRET).encrypt('s3cret-key').decode()
    write(tmp_path, {
        'hier.yml': 'datadir: data\nhierarchy: [Role, Common]\nlookup_options: {ntp: deep}\n',
        'data/Role.yml': 'ntp:\n  inner: {x: [b]}\n',
        'data/Common.yml': 'ntp:\n  inner:\n    ? !vault |\n%s    : [a]\n' % ''.join(
            '      %s\n' % line for line in ciphertext.splitlines())})
    report, = lookup(tmp_path / 'hier.yml', 'ntp', explain=True)
    shown = [entry['path'] for entry in report['paths']]
    assert shown[:3] == ['ntp', 'ntp/inner', 'ntp/inner/x']
    assert len(shown) == 4 and shown[3].startswith('ntp/inner/<') and 's3cret' not in repr(report['paths'])


@pytest.mark.parametrize('role_value', ['a scalar', '[a list of scalars]'])
def test_a_type_mismatch_under_a_vault_key_names_the_key_by_its_type(tmp_path, vault_context, mocker, role_value):
    """The merge's type mismatch warnings show a path through a vault key as explain does, never decrypted."""
    ciphertext = VaultLib(SECRET).encrypt('s3cret-key').decode()
    key = '? !vault |\n%s' % ''.join('      %s\n' % line for line in ciphertext.splitlines())
    role = '{x: %s}' % role_value if role_value.startswith('[') else role_value
    write(tmp_path, {
        'hier.yml': 'datadir: data\nhierarchy: [Role, Common]\nlookup_options: {ntp: deep}\n',
        'data/Role.yml': 'ntp:\n  inner:\n    %s    : %s\n' % (key, role),
        'data/Common.yml': 'ntp:\n  inner:\n    %s    : %s\n' % (key, '{x: [{y: 1}]}' if role.startswith('{') else '[a]')})
    warning = mocker.patch('ansible_collections.strata.hier.plugins.lookup.hier.display.warning')
    lookup(tmp_path / 'hier.yml', 'ntp')
    shown = ' '.join(str(call) for call in warning.call_args_list)
    assert 'type mismatch at' in shown and 'ntp/inner/<' in shown
    assert 's3cret' not in shown
