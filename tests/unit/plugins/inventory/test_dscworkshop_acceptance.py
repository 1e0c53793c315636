# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Acceptance (issue 8, Datum item 4): a DscWorkshop-shaped Datum store, its handler expressions included, gives
every node the data Datum gives it, through the inventory plugin and through the lookup."""

from __future__ import annotations

import os

import pytest

from ansible.inventory.data import InventoryData
from ansible.parsing.dataloader import DataLoader
from ansible.plugins.loader import inventory_loader, lookup_loader
from ansible.template import Templar

from ansible_collections.strata.hier.tests.unit.plugins.datum_store import write_store
from ansible_collections.strata.hier.tests.unit.plugins.warnings_seen import warnings_seen

ENC = '[ENC=PE9ianMgVmVyc2lvbj0iMS4xLjAuMSIgeG1sbnM9]'
NODES = {   # name: (environment, role, location)
    'FS01': ('Dev', 'FileServer', 'Berlin'),
    'WEB01': ('Dev', 'WebServer', 'Paris'),
    'FS02': ('Prod', 'FileServer', 'Paris'),
}


def expected(name):
    """What Datum gives the node: every handler resolved in the file holding it, before merging."""
    environment, role, location = NODES[name]
    items = [{'DestinationPath': 'C:\\Test\\%s-Environment' % environment, 'Type': 'Directory'}]
    if location == 'Berlin':
        items.append({'DestinationPath': 'C:\\Test\\Berlin', 'Type': 'Directory'})
    data = {
        'NodeName': name, 'Environment': environment, 'Role': role, 'Location': location, 'Baseline': 'Server',
        'Description': '%s in %s' % (role, environment),
        'ComputerSettings': {'Name': name, 'Description': '%s in %s' % (role, environment),
                             'DomainName': 'example.com', 'JoinOU': 'CN=Computers,dc=example,dc=com',
                             # DatumHandlersThrowOnError: false: [ENC=...] is kept as written, and so is the
                             # handler that reads it
                             'Credential': '[x={ $Datum.Global.Domain.DomainJoinCredentials }=]',
                             'TimeZone': 'Greenwich Standard Time'},
        'LcmConfig': {'ConfigurationRepositoryWeb': {'Server': {
            'ConfigurationNames': name, 'ServerURL': 'https://pull.example.com/PSDSCPullServer.svc'}}},
        'DscTagging': {'Environment': environment, 'Version': '0.3.0', 'NodeVersion': '0.3.0', 'NodeRole': role,
                       'Layers': ['AllNodes\\%s\\%s' % (environment, name), 'Environment\\%s' % environment,
                                  'Locations\\%s' % location, 'Roles\\%s' % role, 'Baselines\\Security',
                                  'Baselines\\Server', 'Baselines\\DscLcm']},
        'SomeCredential': ENC,
        'Configurations': ['FileSystemObjects', 'WindowsFeatures', 'ComputerSettings', 'DscTagging'],
    }
    if role == 'FileServer':
        data['FileSystemObjects'] = {'Items': items + [{'DestinationPath': 'C:\\Test', 'Type': 'Directory'},
                                                       {'DestinationPath': 'C:\\Test\\Test1File1.txt', 'Type': 'File'}]}
        data['WindowsFeatures'] = {'Names': ['File-Services', '-Telnet-Client']}
    else:
        data['FileSystemObjects'] = {'Items': items}
        data['WindowsFeatures'] = {'Names': ['+Web-Server', '-Telnet-Client']}
        data['WebSite'] = {'Name': '%s.example.com' % name}
        data['Configurations'] = ['FileSystemObjects', 'WindowsFeatures', 'ComputerSettings', 'DscTagging']
    return data


@pytest.fixture(scope='module')
def datum_yml(tmp_path_factory):
    return write_store(tmp_path_factory.mktemp('dscworkshop'))


@pytest.fixture(scope='module')
def inventory(datum_yml):
    source = os.path.join(os.path.dirname(datum_yml), 'nodes.hier.yml')
    with open(source, 'w') as stream:
        stream.write('plugin: strata.hier.hier\nconfig: Datum.yml\n')
    plugin = inventory_loader.get('strata.hier.hier')
    data = InventoryData()
    with warnings_seen(plugin.display, []) as warnings:
        plugin.parse(data, DataLoader(), source, cache=False)
    return data, warnings


def host_vars(inventory, name):
    return {key: value for key, value in inventory.hosts[name].vars.items() if key != 'inventory_file'
            and key != 'inventory_dir'}


def lookup(datum_yml, variables, *terms):
    loader = DataLoader()
    plugin = lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader))
    return plugin.run(list(terms), variables, config=datum_yml)


def test_every_node_has_the_data_datum_gives_it(inventory):
    data, _warnings = inventory
    assert sorted(data.hosts) == sorted(NODES)
    for name in NODES:
        assert host_vars(data, name) == expected(name), name


def test_what_needs_powershell_is_a_warning_with_file_and_line(inventory):
    _data, warnings = inventory
    assert any('Datum.yml:4:' in warning and "the level finds nothing (DatumHandlersThrowOnError: false)" in warning
               and "if ($node.Name -notlike" in warning for warning in warnings)
    assert any('Domain.yml:4:' in warning and 'DomainJoinCredentials' in warning and 'Ansible vault' in warning
               for warning in warnings)
    assert any(os.path.join('AllNodes', 'Prod', 'FS02.yml') + ':23:' in warning and 'SomeCredential' in warning
               for warning in warnings)


@pytest.mark.parametrize('name', sorted(NODES))
def test_the_lookup_gives_each_key_as_the_inventory_does(datum_yml, inventory, name):
    data, _warnings = inventory
    variables = dict(data.hosts[name].vars, inventory_hostname=name)
    keys = sorted(expected(name))
    assert lookup(datum_yml, variables, *keys) == [expected(name)[key] for key in keys]
    assert lookup(datum_yml, variables, 'DscTagging/Layers', 'ComputerSettings\\JoinOU') == [
        expected(name)['DscTagging']['Layers'], 'CN=Computers,dc=example,dc=com']


def test_the_lookup_finds_the_node_file_from_the_host_name_alone(datum_yml):
    """$Node is the node file (NodeName and Environment of FS02 are handlers there), whatever the play's variables."""
    assert lookup(datum_yml, {'inventory_hostname': 'FS02'}, 'Description', 'DscTagging/Layers') == [
        'FileServer in Prod', expected('FS02')['DscTagging']['Layers']]
