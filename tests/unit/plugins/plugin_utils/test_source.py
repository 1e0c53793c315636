# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""One Source per configuration file, chosen once (issue 26, item 1): the lookup, inventory and vars plugins talk to
it only, so every kind of configuration gets every plugin, the inventory cache included."""

from __future__ import annotations

import ast
import os
import time

import pytest

from ansible.inventory.data import InventoryData
from ansible.parsing.dataloader import DataLoader
from ansible.plugins.loader import inventory_loader, vars_loader

from ansible_collections.strata.hier.plugins.plugin_utils.sources.hiera_yaml import HieraHostView, HieraSource
from ansible_collections.strata.hier.plugins.plugin_utils.sources.hier_yml import HierarchySource
from ansible_collections.strata.hier.plugins.plugin_utils.source import get_source, open_source

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..', '..'))
PLUGINS = ['plugins/lookup/hier.py', 'plugins/inventory/hier.py', 'plugins/vars/hier.py']
KIND_MODULES = ('plugin_utils.sources.hiera_yaml', 'plugin_utils.sources.hier_yml', 'plugin_utils.hierarchy_cache',
                'plugin_utils.datum_', 'module_utils.dialects.hiera.engine', 'module_utils.datum_', 'module_utils.puppet_',
                'config_path.is_hiera_config_file', 'config.is_datum_config')
"""The modules (and detectors) of one kind of configuration."""


def write(path, text):
    os.makedirs(os.path.dirname(str(path)), exist_ok=True)
    with open(str(path), 'w') as stream:
        stream.write(text)


@pytest.fixture
def puppet(tmp_path):
    """A control repository: a hiera.yaml over node and role files, data keys with ``::``."""
    write(tmp_path / 'hiera.yaml', 'version: 5\nhierarchy:\n  - name: node\n    path: "nodes/%{trusted.certname}.yaml"\n'
                                   '  - name: role\n    path: "roles/%{role}.yaml"\n  - name: common\n    path: common.yaml\n')
    write(tmp_path / 'data' / 'common.yaml', 'lookup_options:\n  profile::ntp::servers: {merge: unique}\n'
                                             'profile::ntp::servers: [pool]\nmotd: common\n')
    write(tmp_path / 'data' / 'roles' / 'web.yaml', 'motd: web\n')
    write(tmp_path / 'data' / 'nodes' / 'web01.yaml', 'profile::ntp::servers: [local]\n')
    return tmp_path


def test_each_kind_of_configuration_is_read_by_its_source_and_kept_until_it_changes(puppet):
    write(puppet / 'hier.yml', 'hierarchy: [common]\n')
    write(puppet / 'Datum.yml', 'ResolutionPrecedence: [common]\n')
    write(puppet / 'site.yaml', 'version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n')
    loader = DataLoader()
    kinds = {name: type(get_source(str(puppet / name), loader)) for name in ('hiera.yaml', 'site.yaml', 'hier.yml',
                                                                             'Datum.yml')}
    assert kinds == {'hiera.yaml': HieraSource, 'site.yaml': HieraSource, 'hier.yml': HierarchySource,
                     'Datum.yml': HierarchySource}
    first = open_source(str(puppet / 'hiera.yaml'), loader)
    assert open_source(str(puppet / 'hiera.yaml'), loader) is first
    time.sleep(0.01)
    write(puppet / 'hiera.yaml', 'version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n')
    assert open_source(str(puppet / 'hiera.yaml'), loader) is not first


def test_a_configuration_replaced_by_one_of_the_same_mtime_is_read_again(puppet):
    """rsync -t, a restored backup: the same mtime, another file (its size and inode differ)."""
    loader = DataLoader()
    path = str(puppet / 'hiera.yaml')
    first = open_source(path, loader)
    assert first.for_host({'inventory_hostname': 'web01', 'role': 'web'}).lookup('motd').value == 'web'
    mtime = os.stat(path).st_mtime_ns
    write(puppet / 'other.yaml', 'version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n')
    os.utime(str(puppet / 'other.yaml'), ns=(mtime, mtime))
    os.replace(str(puppet / 'other.yaml'), path)
    again = open_source(path, loader)
    assert again is not first
    assert again.for_host({'inventory_hostname': 'web01', 'role': 'web'}).lookup('motd').value == 'common'


def test_a_configuration_reached_by_two_names_reads_the_data_beside_each(tmp_path):
    """A Source reads its data relative to the name it was given: once a link in one name is re-pointed, the other
    name still reads the data beside the file it names."""
    for repo, motd in (('one', 'first'), ('two', 'second')):
        write(tmp_path / repo / 'hiera.yaml', 'version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n')
        write(tmp_path / repo / 'data' / 'common.yaml', 'motd: %s\n' % motd)
    os.symlink(str(tmp_path / 'one'), str(tmp_path / 'current'))
    loader = DataLoader()

    def motd(path):
        return open_source(str(path), loader).for_host({'inventory_hostname': 'web01'}).lookup('motd').value

    assert motd(tmp_path / 'current' / 'hiera.yaml') == 'first'
    os.remove(str(tmp_path / 'current'))
    os.symlink(str(tmp_path / 'two'), str(tmp_path / 'current'))
    assert motd(tmp_path / 'one' / 'hiera.yaml') == 'first'
    assert motd(tmp_path / 'current' / 'hiera.yaml') == 'second'


def test_a_host_view_answers_alike_for_every_kind(puppet):
    write(puppet / 'hier.yml', 'datadir: data\nhierarchy: ["nodes/%{inventory_hostname}", "roles/%{role}", common]\n'
                               'lookup_options:\n  "profile::ntp::servers": Unique\n')
    host = {'inventory_hostname': 'web01', 'role': 'web'}
    for name in ('hiera.yaml', 'hier.yml'):
        view = open_source(str(puppet / name), DataLoader()).for_host(host)
        answer = view.lookup('motd', provenance=True)
        assert (answer.value, answer.found, answer.records['motd']['file']) == ('web', True, 'data/roles/web.yaml'), name
        assert not view.lookup('absent').found
        whole = {key: answer.value for key, answer in view.whole().items() if key != 'lookup_options'}
        assert whole == {'profile::ntp::servers': ['local', 'pool'], 'motd': 'web'}, name     # (hier.yml: a plain key)


def imported_names(path):
    """Every module and name a plugin imports (``from x import y`` as ``x.y``), wherever in the file."""
    with open(os.path.join(ROOT, path), encoding='utf-8') as stream:
        tree = ast.parse(stream.read())
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            names.extend('%s.%s' % (node.module, alias.name) for alias in node.names)
        elif isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
    return names


@pytest.mark.parametrize('path', PLUGINS)
def test_no_plugin_names_a_kind_of_configuration(path):
    prefix = 'ansible_collections.strata.hier.plugins.'
    named = [name for name in imported_names(path) if name.startswith(prefix)
             and name[len(prefix):].startswith(KIND_MODULES)]
    assert named == []


def test_the_inventory_caches_a_hiera_yaml_source_and_sees_a_change(puppet):
    source = puppet / 'nodes.hier.yml'
    write(source, 'plugin: strata.hier.hier\nconfig: hiera.yaml\nnodes: data/nodes/*.yaml\nfacts: {role: web}\n'
                  'cache: true\ncache_plugin: ansible.builtin.jsonfile\ncache_connection: %s\n' % (puppet / 'cache'))

    def parse():
        plugin = inventory_loader.get('strata.hier.hier')
        inventory = InventoryData()
        plugin.parse(inventory, DataLoader(), str(source), cache=True)
        try:
            plugin.update_cache_if_changed()
        except AttributeError:      # 2.19+: no such step
            pass
        return inventory.get_host('web01').get_vars()

    assert parse()['motd'] == 'web'
    assert os.listdir(str(puppet / 'cache'))
    written = os.path.getmtime(os.path.join(str(puppet / 'cache'), os.listdir(str(puppet / 'cache'))[0]))
    assert parse()['profile__ntp__servers'] == ['local', 'pool']     # from the cache: not written again
    assert os.path.getmtime(os.path.join(str(puppet / 'cache'), os.listdir(str(puppet / 'cache'))[0])) == written
    time.sleep(0.01)
    write(puppet / 'data' / 'roles' / 'web.yaml', 'motd: changed\n')
    assert parse()['motd'] == 'changed'


def test_the_vars_plugin_reads_a_hiera_yaml(puppet, monkeypatch):
    monkeypatch.setenv('STRATA_HIER_CONFIG', str(puppet / 'hiera.yaml'))
    data = InventoryData()
    data.add_host('web01')
    data.set_variable('web01', 'role', 'web')
    loader = DataLoader()
    loader.set_basedir(str(puppet / 'playbooks'))
    plugin = vars_loader.get('strata.hier.hier')
    plugin.set_options()
    host_vars = plugin.get_vars(loader, str(puppet), [data.get_host('web01')])
    assert host_vars == {'profile__ntp__servers': ['local', 'pool'], 'motd': 'web'}
    merged = []
    monkeypatch.setattr(HieraHostView, 'host_vars', lambda self, *args, **kwargs: merged.append(self.host) or {})
    assert plugin.get_vars(loader, str(puppet), [data.get_host('web01')]) == host_vars     # asked again: merged once
    data.set_variable('web01', 'role', 'db')
    assert plugin.get_vars(loader, str(puppet), [data.get_host('web01')]) == {}     # other facts: merged again
    assert merged == ['web01']
