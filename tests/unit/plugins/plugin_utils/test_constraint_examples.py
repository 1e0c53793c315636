# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 30 over the bundled stores: examples/hierarchy (hier.yml, and data/Datum.yml over the same data) and the
DscWorkshop store keep their constraints (0 findings); 20 seeded data edits, each breaking one rule, give exactly
the findings the edits call for, no more."""

from __future__ import annotations

import os
import shutil

import pytest

from ansible.parsing.dataloader import DataLoader
from ansible.parsing.vault import VaultSecret

from ansible_collections.strata.hier.plugins.plugin_utils.constraint_check import NodeChecks
from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy_cache import get_hierarchy
from ansible_collections.strata.hier.tests.unit.plugins.vault_context import secrets_context

EXAMPLES = os.path.join(os.path.dirname(__file__), '..', '..', '..', '..', 'examples', 'hierarchy')
SECRET = [('default', VaultSecret(b'strata-demo-only'))]
CONFIGS = ['hier.yml', os.path.join('data', 'Datum.yml'), os.path.join('dscworkshop', 'Datum.yml')]
RULES = ('type', 'final', 'tighten', 'owners', 'protect_items', 'required', 'vault')

DSC_FILE = ['DSCFile01', 'DSCFile02']       # Roles/FileServer, Locations/Frankfurt
DSC_WEB = ['DSCWeb01', 'DSCWeb02']          # Roles/WebServer, Locations/London
PROD = ['DSCFile02', 'DSCWeb02']            # Environments/Prod

# Each edit: (store, file in the store, text in the file, what replaces it, the findings it must give).
# A finding: (hosts reading the file, key path, rule, the text whose line the finding names); a path's finding is
# on the line of the path's key in the edited file (of its knockout marker, for a knockout).
EDITS = [
    # examples/hierarchy, checked through hier.yml
    ('hierarchy', 'data/AllNodes/Dev/DSCFile01.yml', 'FullAccess: [Dev\\Admins]\n',
     'FullAccess: [Dev\\Admins]\nLcmConfig:\n  ConfigurationRepositoryWeb:\n    Server:\n'
     '      ServerURL: https://rogue.contoso.com/PSDSCPullServer.svc\n',
     [(['DSCFile01'], 'LcmConfig/ConfigurationRepositoryWeb/Server/ServerURL', 'final', 'ServerURL: https://rogue')]),
    ('hierarchy', 'data/AllNodes/Prod/DSCWeb02.yml', 'LcmConfig:\n', 'LcmConfig:\n  --ConfigurationRepositoryWeb: null\n',
     [(['DSCWeb02'], 'LcmConfig/ConfigurationRepositoryWeb/Server/ServerURL', 'final', '--ConfigurationRepositoryWeb')]),
    ('hierarchy', 'data/Roles/WebServer.yml', 'WelcomeMessage: Welcome\n',
     'WelcomeMessage: Welcome\nLcmConfig:\n  Settings:\n    RefreshFrequencyMins: 45\n',
     [(DSC_WEB, 'LcmConfig/Settings/RefreshFrequencyMins', 'tighten', 'RefreshFrequencyMins: 45')]),
    ('hierarchy', 'data/Environments/Prod.yml', '    AccountLockout: Failure\n',
     '    AccountLockout: Failure\n  PasswordPolicy:\n    MinimumLength: 12\n',
     [(PROD, 'Security/PasswordPolicy/MinimumLength', 'tighten', 'MinimumLength: 12')]),
    ('hierarchy', 'data/Roles/FileServer.yml', 'Configurations:', 'Security:\n  Firewall: Disabled\nConfigurations:',
     [(DSC_FILE, 'Security/Firewall', 'owners', 'Firewall: Disabled')]),
    ('hierarchy', 'data/AllNodes/Dev/DSCWeb01.yml', 'Timezone: GMT Standard Time\n',
     'Timezone: GMT Standard Time\nWindowsFeatures:\n  - --Web-Server\n',
     [(['DSCWeb01'], 'WindowsFeatures', 'protect_items', 'WindowsFeatures:')]),
    ('hierarchy', 'data/AllNodes/Prod/DSCFile02.yml', '  IpAddress: 10.0.1.100\n',
     '  IpAddress: 10.0.1.100\n  --Gateway: null\n',
     [(['DSCFile02'], 'NetworkConfig', 'protect_items', 'NetworkConfig:')]),
    ('hierarchy', 'data/AllNodes/Dev/DSCWeb01.yml', '  IpAddress: 192.168.111.101\n',
     '  IpAddress: 192.168.111.101\n  --DNSServer: null\n',
     [(['DSCWeb01'], 'NetworkConfig/DNSServer', 'required', '--DNSServer')]),
    ('hierarchy', 'data/AllNodes/Dev/DSCFile01.yml', 'Description: File server in Dev\n',
     'Description: File server in Dev\nAdminPassword: Plain-Text-1\n',
     [(['DSCFile01'], 'AdminPassword', 'vault', 'AdminPassword:')]),
    ('hierarchy', 'data/Environments/Prod.yml', 'Logon: SuccessAndFailure', 'Logon: Always',
     [(PROD, 'Security/AuditPolicy', 'type', 'AuditPolicy:')]),
    ('hierarchy', 'data/AllNodes/Prod/DSCWeb02.yml', 'Description: Web server in Prod\n',
     'Description: Web server in Prod, London data centre, rack 12\n',
     [(['DSCWeb02'], 'Description', 'type', 'Description:')]),
    ('hierarchy', 'data/AllNodes/Prod/DSCFile02.yml', 'Description: File server in Prod\n',
     'Description: File server in Prod\nDnsSuffixes: [--contoso.com]\n',
     [(['DSCFile02'], 'DnsSuffixes', 'tighten', 'DnsSuffixes:')]),
    # the DscWorkshop store (Datum: keys in any case, handlers evaluated), checked through its Datum.yml
    ('dscworkshop', 'AllNodes/Prod/FS02.yml', "  Description: '[x= \"$($Node.Role) in $($Node.Environment)\" =]'\n\n",
     "  Description: '[x= \"$($Node.Role) in $($Node.Environment)\" =]'\n  timezone: UTC\n\n",
     [(['FS02'], 'ComputerSettings/TimeZone', 'final', 'timezone: UTC')]),
    ('dscworkshop', 'AllNodes/Dev/WEB01.yml', "  Description: '[x= \"$($Node.Role) in $($Node.Environment)\" =]'\n\n",
     "  Description: '[x= \"$($Node.Role) in $($Node.Environment)\" =]'\n  --TimeZone: null\n\n",
     [(['WEB01'], 'ComputerSettings/TimeZone', 'final', '--TimeZone')]),
    ('dscworkshop', 'Roles/FileServer.yml', '  - FileSystemObjects\n', '  - FileSystemObjects\n  - --DscTagging\n',
     [(['FS01', 'FS02'], 'Configurations', 'protect_items', 'Configurations:')]),
    ('dscworkshop', 'AllNodes/Dev/WEB01.yml', "      ConfigurationNames: '[x={ $Node.NodeName }=]'\n",
     "      ConfigurationNames: '[x={ $Node.NodeName }=]'\n      ServerURL: https://other.example.com/pull.svc\n",
     [(['WEB01'], 'LcmConfig/ConfigurationRepositoryWeb/Server/ServerURL', 'owners', 'ServerURL:')]),
    ('dscworkshop', 'AllNodes/Dev/FS01.yml', "SomeCredential:", 'WindowsFeatures:\n  Names:\n    - Web-Mgmt-Tools\n'
     'SomeCredential:',
     [(['FS01'], 'WindowsFeatures', 'owners', 'WindowsFeatures:'),
      (['FS01'], 'WindowsFeatures/Names', 'owners', '  Names:')]),
    ('dscworkshop', 'AllNodes/Dev/FS01.yml', "  Name: '[x={ $Node.NodeName }=]'\n",
     "  Name: '[x={ $Node.NodeName }=]'\n  --DomainName: null\n",
     [(['FS01'], 'ComputerSettings/DomainName', 'required', '--DomainName')]),
    ('dscworkshop', 'Locations/Berlin.yml', '      Type: Directory', '      Type: Folder',
     [(['FS01'], 'FileSystemObjects/Items', 'type', '  Items:')]),
    ('dscworkshop', 'Roles/WebServer.yml', '    - +Web-Server\n', '    - +Web-Server\n    - ---Telnet-Client\n',
     [(['WEB01'], 'WindowsFeatures/Names', 'tighten', '  Names:')]),
]
STORES = {'hierarchy': '', 'dscworkshop': 'dscworkshop'}
"""Each store's folder: the configuration's, which its findings name files relative to."""


@pytest.fixture
def vault_context():
    with secrets_context(SECRET):
        yield


def loader():
    found = DataLoader()
    found.set_vault_secrets(SECRET)
    return found


def copy_examples(root):
    for name in ('data', 'dscworkshop', 'hier.yml'):
        source = os.path.join(EXAMPLES, name)
        (shutil.copytree if os.path.isdir(source) else shutil.copy)(source, str(root / name))
    return root


@pytest.mark.parametrize('config', CONFIGS)
def test_the_examples_keep_their_constraints(tmp_path, vault_context, config):
    """Every kind of constraint the data allows, and no finding."""
    hierarchy = get_hierarchy(str(copy_examples(tmp_path) / config), loader())
    checks = NodeChecks(hierarchy)
    assert (checks.findings, checks.problems) == ([], [])
    assert len(checks.hosts) == (3 if 'dscworkshop' in config else 4)
    kinds = {rule for constraints in hierarchy.config.constraints.exact.values() for constraint in constraints
             for rule in constraint.rules()}
    kinds.update(rule for _regex, constraint in hierarchy.config.constraints.patterns for rule in constraint.rules())
    every = set(RULES) if 'dscworkshop' not in config else set(RULES) - {'vault'}     # it holds no vault value
    assert kinds == every


def test_twenty_seeded_violations_give_exactly_their_findings(tmp_path, vault_context):
    root = copy_examples(tmp_path)
    assert len(EDITS) == 20
    for store, name, old, new, _findings in EDITS:
        path = root / STORES[store] / name
        text = path.read_text()
        assert text.count(old) == 1, (name, old)
        path.write_text(text.replace(old, new))
    expected = {store: set() for store in STORES}
    for store, name, _old, _new, findings in EDITS:     # lines read once every edit is made
        text = (root / STORES[store] / name).read_text()
        for hosts, key_path, rule, anchor in findings:
            expected[store].update((host, key_path, rule, name, _line_of(text, anchor)) for host in hosts)
    # data/Datum.yml reads examples/hierarchy's data as Datum does (keys in any case): the same findings, its files
    # relative to data/
    expected['datum'] = {(host, path, rule, file[len('data/'):], line)
                         for host, path, rule, file, line in expected['hierarchy']}
    for store, config in (('hierarchy', 'hier.yml'), ('datum', os.path.join('data', 'Datum.yml')),
                          ('dscworkshop', os.path.join('dscworkshop', 'Datum.yml'))):
        checks = NodeChecks(get_hierarchy(str(root / config), loader()))
        found = {(finding['host'], finding['path'], finding['rule'], finding['file'], finding['line'])
                 for finding in checks.findings}
        assert found == expected[store], store
        assert len(checks.findings) == len(found) and checks.problems == []
        for finding in checks.findings:
            assert finding['severity'] == ('warn' if finding['path'] == 'Description' else 'error')
            assert finding['declared']['file'] == os.path.basename(config)


def _line_of(text, anchor):
    """The line (from 1) holding ``anchor``, which the edited file holds once."""
    lines = [number for number, line in enumerate(text.splitlines(), 1) if anchor in line]
    assert len(lines) == 1, (anchor, lines)
    return lines[0]
