# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Data cannot set the host variables Ansible or strata.hier reserve, through the inventory plugin (hier.yml and
hiera.yaml sources) and the vars plugin; what ansible-inventory --list and the inventory cache write reads back as
the data (issue 25, findings 1, 11 and 13)."""

from __future__ import annotations

import json
import re

import pytest

from ansible.errors import AnsibleError, AnsibleParserError
from ansible.inventory.data import InventoryData
from ansible.parsing.dataloader import DataLoader
from ansible.plugins.loader import inventory_loader, vars_loader

from ansible_collections.strata.hier.plugins.plugin_utils.cache_form import for_cache, from_cache
from ansible_collections.strata.hier.plugins.plugin_utils.compat import is_vault_value
# pylint: disable-next=unused-import  # store is a fixture
from ansible_collections.strata.hier.tests.unit.plugins.inventory.test_inventory_hier import (  # noqa: F401
    cached_source, host_names, parse, source, store, tampered_cache, write,
)
from ansible_collections.strata.hier.tests.unit.plugins.warnings_seen import warnings_seen

# what data must not set, each with a value as an attacker would write it
REFUSED = {
    'ansible_ssh_common_args': '-o ProxyCommand="sh -c \'id > /tmp/PWNED\'"',
    'ansible_connection': 'local',
    'ansible_python_interpreter': '/tmp/evil',
    'ansible_become_password': 'guess',
    'inventory_hostname': 'other',
    'hostvars': {'web01': {}},
    'group_names': ['admins'],
    'omit': 'x',
    'lookup': 'hidden',
    'hier_vaulted_keys': [],
    'hier_sources': {'Port': []},
    'rsop_dir': '/etc',
    '__ansible_unsafe': 'x',
    '__strata_hier_vault__': '$ANSIBLE_VAULT;1.1;AES256',
}
ALLOW = 'allow_reserved_keys: [ansible_port, ansible_user]\n'
VAULT_MARKER = {'__strata_hier_vault__': '$ANSIBLE_VAULT;1.1;AES256\n6162\n'}


def with_key(store, key, value):
    """Roles/web.yml with ``key`` on line 2."""
    write(store / 'data' / 'Roles' / 'web.yml', 'Port: 80\n%s: %s\n' % (key, json.dumps(value)))


@pytest.mark.parametrize('key', sorted(REFUSED))
def test_the_inventory_plugin_refuses_a_reserved_key_naming_file_line_and_key(store, key):
    with_key(store, key, REFUSED[key])
    warnings = []
    web = parse(source(store), warnings).get_host('web01').vars
    assert key not in web and web['Port'] == 80
    warning, = [warning for warning in warnings if repr(key) in warning]
    assert 'Roles/web.yml:2' in warning and 'it is not a host variable of web01' in warning


@pytest.mark.parametrize('key', sorted(REFUSED))
def test_the_inventory_cache_gives_no_reserved_key_either(store, key):
    with_key(store, key, REFUSED[key])
    path = cached_source(store)
    parse(path)
    assert key not in parse(path).get_host('web01').vars       # read from the cache


def test_the_configuration_allows_named_keys(store):
    write(store / 'data' / 'Roles' / 'web.yml', 'ansible_port: 2222\nansible_user: deploy\nansible_connection: local\n')
    warnings = []
    web = parse(source(store, ALLOW), warnings).get_host('web01').vars
    assert (web['ansible_port'], web['ansible_user']) == (2222, 'deploy') and 'ansible_connection' not in web
    assert any("'ansible_connection' (in Roles/web.yml:3)" in warning for warning in warnings)


@pytest.mark.parametrize('name', ['__ansible_unsafe', '__x'])
def test_internal_names_cannot_be_allowed(store, name):
    with pytest.raises(AnsibleParserError, match="allow_reserved_keys: '%s' cannot be allowed" % name):
        parse(source(store, 'allow_reserved_keys: [ansible_port, %s]\n' % name))


@pytest.mark.parametrize('marker', ['__ansible_unsafe', '__ansible_vault', '__ansible_type'])
def test_a_value_holding_a_json_type_marker_is_refused(store, marker):
    write(store / 'data' / 'Roles' / 'web.yml', 'Port: 80\nNested:\n  list:\n    - {%s: x, k: 1}\n' % marker)
    warnings = []
    web = parse(source(store, ALLOW), warnings).get_host('web01').vars
    assert 'Nested' not in web and web['Port'] == 80
    assert any("'Nested' (in Roles/web.yml:2) holds the map key %r (at Nested/list/0/%s)" % (marker, marker)
               in warning for warning in warnings)


@pytest.mark.parametrize('name', ['__ansible_vault', '__ansible_unsafe', '__strata_hier_vault__'])
def test_a_node_named_like_a_marker_is_skipped(store, name):
    write(store / 'data' / 'Nodes' / 'evil.yml', 'NodeName: %s\nRole: web\n' % name)
    write(store / 'data' / 'Nodes' / (name + '.yml'), 'Role: web\n')
    warnings = []
    assert host_names(parse(source(store), warnings)) == ['db01.example.com', 'web01']
    assert sum("%r is not a usable host name" % name in warning for warning in warnings) == 2


def test_a_data_map_holding_the_cache_marker_reads_back_from_the_cache_as_written(store, monkeypatch):
    write(store / 'data' / 'Roles' / 'web.yml', 'Port: 80\nMarked: %s\nText: "__strata_hier_text__x"\n'
          % json.dumps(VAULT_MARKER))
    path = cached_source(store)
    parse(path)
    module = type(inventory_loader.get('strata.hier.hier'))
    monkeypatch.setattr(module, '_merge_nodes', lambda *args: pytest.fail('not read from the cache'))
    web = parse(path).get_host('web01').vars
    assert not is_vault_value(web['Marked']) and web['Marked'] == VAULT_MARKER
    assert web['Text'] == '__strata_hier_text__x'


def test_for_cache_and_from_cache_give_back_exactly_the_data():
    data = {'web01': {'a': VAULT_MARKER, '__strata_hier_text__b': ['__strata_hier_vault__', '__strata_hier_x']}}
    back = from_cache(json.loads(json.dumps(for_cache(data, wrappers=1))), wrappers=1)
    assert back == data and not is_vault_value(back['web01']['a'])


def test_a_cache_entry_giving_a_reserved_variable_is_refused(store):
    path = tampered_cache(store, lambda entry: entry['hosts']['web01'].update(ansible_connection='local'))
    warnings = []
    assert 'ansible_connection' not in parse(path, warnings).get_host('web01').vars
    assert any('cannot be read' in warning and "variable 'ansible_connection'" in warning for warning in warnings)


def test_a_source_that_cannot_be_built_says_how_to_fail_the_run(store):
    write(store / 'data' / 'Roles' / 'web.yml', 'Port: 80\nList: [1, 2\n')     # truncated
    with pytest.raises(AnsibleParserError) as raised:
        parse(source(store))
    message = str(raised.value)
    assert 'Roles/web.yml' in message
    assert message.endswith('ansible.cfg [inventory] any_unparsed_is_failed = true makes this fail the run)')


def test_with_any_unparsed_is_failed_the_error_gives_no_hint(store, monkeypatch):
    monkeypatch.setattr('ansible.constants.INVENTORY_ANY_UNPARSED_IS_FAILED', True)
    write(store / 'data' / 'Roles' / 'web.yml', 'Port: 80\nList: [1, 2\n')
    with pytest.raises(AnsibleError, match=r'Roles/web\.yml') as raised:
        parse(source(store))
    assert 'any_unparsed_is_failed' not in str(raised.value)


# --- a hiera.yaml source

HIERA = 'version: 5\ndefaults: {datadir: data, data_hash: yaml_data}\nhierarchy:\n' \
        '  - {name: node, path: "nodes/%{trusted.certname}.yaml"}\n  - {name: common, path: common.yaml}\n'


def hiera_hosts(tmp_path, data, extra=''):
    write(tmp_path / 'hiera.yaml', HIERA)
    write(tmp_path / 'data' / 'common.yaml', data)
    write(tmp_path / 'data' / 'nodes' / 'web01.yaml', 'port: 80\n')
    path = tmp_path / 'site.hier.yml'
    write(path, 'plugin: strata.hier.hier\nconfig: hiera.yaml\nnodes: data/nodes/*.yaml\n' + extra)
    warnings = []
    return parse(str(path), warnings).get_host('web01').vars, warnings


def test_a_hiera_source_refuses_reserved_keys_naming_file_line_and_key(tmp_path):
    web, warnings = hiera_hosts(tmp_path, 'x: 1\nansible_connection: local\nansible::host: evil\n'
                                'nested: {"__ansible_vault": x}\n', 'namespace_separator: _\nprovenance: true\n')
    assert web['port'] == 80 and web['x'] == 1 and sorted(web['hier_sources']) == ['port', 'x']
    assert 'ansible_connection' not in web and 'ansible_host' not in web and 'nested' not in web
    for key, line in (('ansible_connection', 2), ('ansible_host', 3), ('nested', 4)):
        assert any(re.search(r"%r \(in \S+/data/common\.yaml:%d\)" % (key, line), warning) for warning in warnings)


def test_a_hiera_source_allows_named_keys(tmp_path):
    web, _warnings = hiera_hosts(tmp_path, 'ansible_port: 2222\nansible_user: deploy\n', ALLOW)
    assert (web['ansible_port'], web['ansible_user']) == (2222, 'deploy')


# --- the vars plugin

@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.delenv('STRATA_HIER_CONFIG', raising=False)
    monkeypatch.delenv('STRATA_HIER_VARS_ALLOW_RESERVED_KEYS', raising=False)
    write(tmp_path / 'hier.yml', 'datadir: data\nhierarchy: ["Nodes/%{inventory_hostname}", Common]\n')
    write(tmp_path / 'data' / 'Common.yml', 'Port: 80\n')
    return tmp_path


def vars_of(project):
    loader = DataLoader()
    loader.set_basedir(str(project))
    plugin = vars_loader.get('strata.hier.hier')
    plugin.set_options()
    data = InventoryData()
    data.add_host('web01')
    warnings = []
    with warnings_seen(plugin._display, warnings):     # pylint: disable=protected-access
        return plugin.get_vars(loader, str(project), [data.get_host('web01')]), warnings


@pytest.mark.parametrize('key', sorted(REFUSED))
def test_the_vars_plugin_refuses_a_reserved_key_naming_file_line_and_key(project, key):
    write(project / 'data' / 'Nodes' / 'web01.yml', 'Port: 81\n%s: %s\n' % (key, json.dumps(REFUSED[key])))
    got, warnings = vars_of(project)
    assert key not in got and got['Port'] == 81
    assert any("%r (in Nodes/web01.yml:2)" % key in warning for warning in warnings)


def test_the_vars_plugin_setting_allows_named_keys(project, monkeypatch):
    write(project / 'data' / 'Nodes' / 'web01.yml',
          'ansible_port: 2222\nansible_user: deploy\nansible_connection: local\n')
    monkeypatch.setenv('STRATA_HIER_VARS_ALLOW_RESERVED_KEYS', 'ansible_port,ansible_user')
    got, _warnings = vars_of(project)
    assert (got['ansible_port'], got['ansible_user']) == (2222, 'deploy') and 'ansible_connection' not in got
    monkeypatch.setenv('STRATA_HIER_VARS_ALLOW_RESERVED_KEYS', '__ansible_vault')
    with pytest.raises(AnsibleError, match="'__ansible_vault' cannot be allowed"):
        vars_of(project)


def test_the_vars_plugin_refuses_a_value_holding_a_json_type_marker(project):
    write(project / 'data' / 'Nodes' / 'web01.yml', 'Deep: [{__ansible_unsafe: x}]\n')
    got, warnings = vars_of(project)
    assert 'Deep' not in got and got['Port'] == 80
    assert any("'Deep' (in Nodes/web01.yml:1) holds the map key '__ansible_unsafe'" in warning for warning in warnings)
