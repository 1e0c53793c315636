# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The inventory plugin against hostile data stores and caches (issue 12)."""

from __future__ import annotations

import json
import os
from contextlib import nullcontext

import pytest

from ansible.errors import AnsibleParserError
from ansible.inventory.data import InventoryData
from ansible.parsing.dataloader import DataLoader
from ansible.plugins.loader import cache_loader, inventory_loader

from ansible_collections.strata.hier.plugins.inventory.hier import CACHE_FORMAT
from ansible_collections.strata.hier.plugins.plugin_utils.compat import DATA_TAGGING
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.shapes import alias_bomb
from ansible_collections.strata.hier.tests.unit.plugins.warnings_seen import warnings_seen

TEMPLATE_NAME = "{{lookup('pipe','id>PWNED')}}"


def write(path, text):
    os.makedirs(os.path.dirname(str(path)), exist_ok=True)
    with open(str(path), 'w') as stream:
        stream.write(text)


@pytest.fixture
def store(tmp_path):
    write(tmp_path / 'data' / 'Nodes' / 'web01.yml', 'Role: web\n')
    write(tmp_path / 'data' / 'Nodes' / 'db01.yml', 'NodeName: db01.example.com\nRole: db\n')
    write(tmp_path / 'data' / 'Roles' / 'web.yml', 'Port: 80\n')
    write(tmp_path / 'data' / 'Roles' / 'db.yml', 'Port: 5432\n')
    write(tmp_path / 'hier.yml', 'datadir: data\nhierarchy: ["Nodes/%{inventory_hostname}", "Roles/%{Role}"]\n'
                                 'nodes: "Nodes/*"\n')
    return tmp_path


def source(store, extra=''):
    path = store / 'nodes.hier.yml'
    write(path, 'plugin: strata.hier.hier\nconfig: %s\n%s' % (store / 'hier.yml', extra))
    return str(path)


def cached_source(store, connection=None, extra=''):
    return source(store, 'cache: true\ncache_plugin: ansible.builtin.jsonfile\ncache_connection: %s\n%s'
                  % (connection or store / 'cache', extra))


def parse(path, warnings=None, cache=True):
    plugin = inventory_loader.get('strata.hier.hier')
    inventory = InventoryData()
    with nullcontext() if warnings is None else warnings_seen(plugin.display, warnings):
        plugin.parse(inventory, DataLoader(), path, cache=cache)
    try:
        plugin.update_cache_if_changed()    # as ansible-core's InventoryManager does after parse
    except AttributeError:                  # as it does too: no cache (2.19+)
        pass
    return inventory


def host_names(inventory):
    return sorted(inventory.hosts)


@pytest.mark.parametrize('name', [TEMPLATE_NAME, '{%print(1)%}', '{#x#}', 'a}}b', 'web[1:2]', 'a,b', '!web',
                                  '~web', 'a:b', '-web', '.hidden', 'x' * 254, 'café'])
def test_a_node_name_ansible_could_misread_is_skipped_with_the_file_and_the_rule(store, name):
    write(store / 'data' / 'Nodes' / 'evil.yml', 'NodeName: %s\nRole: web\n' % json.dumps(name))
    warnings = []
    inventory = parse(source(store), warnings)
    assert host_names(inventory) == ['db01.example.com', 'web01']
    warning, = warnings
    assert os.path.join('Nodes', 'evil.yml') in warning and 'is not a usable host name' in warning
    assert "ASCII letters, digits, '_', '.' or '-'" in warning and 'the node is skipped' in warning


def test_a_file_name_holding_a_template_is_skipped(store):
    write(store / 'data' / 'Nodes' / (TEMPLATE_NAME + '.yml'), 'Role: web\n')
    warnings = []
    assert host_names(parse(source(store), warnings)) == ['db01.example.com', 'web01']
    assert 'the file name %r is not a usable host name' % TEMPLATE_NAME in warnings[0]


def test_with_strict_an_unusable_name_fails_the_source(store):
    write(store / 'data' / 'Nodes' / 'evil.yml', 'Name: %s\n' % json.dumps(TEMPLATE_NAME))
    with pytest.raises(AnsibleParserError, match=r'evil.yml: Name .* is not a usable host name'):
        parse(source(store, 'strict: true\n'))


def test_two_nodes_of_one_name_are_both_skipped(store):
    write(store / 'data' / 'Nodes' / 'web02.yml', 'NodeName: web01\nRole: db\n')
    warnings = []
    assert host_names(parse(source(store), warnings)) == ['db01.example.com']
    assert "2 nodes are named 'web01'" in warnings[0] and 'web02.yml' in warnings[0]


def test_usable_names_pass(store):
    write(store / 'data' / 'Nodes' / 'n.yml', 'NodeName: 10.0.0.1\n')
    write(store / 'data' / 'Nodes' / 'm.yml', 'NodeName: _web-01.dev\n')
    assert host_names(parse(source(store))) == ['10.0.0.1', '_web-01.dev', 'db01.example.com', 'web01']


@pytest.mark.skipif(DATA_TAGGING, reason='ansible-core 2.16: data is marked unsafe; 2.19+ never trusts it')
def test_keys_holding_templates_are_marked_unsafe_on_2_16(store):
    from ansible.utils.unsafe_proxy import AnsibleUnsafe
    write(store / 'data' / 'Roles' / 'web.yml', 'Port: 80\nNested: {%s: "{{ 1 }}"}\n' % json.dumps(TEMPLATE_NAME))
    nested = parse(source(store)).get_host('web01').vars['Nested']
    key, value = next(iter(nested.items()))
    assert isinstance(key, AnsibleUnsafe) and isinstance(value, AnsibleUnsafe)


def test_data_expanding_past_the_limit_is_not_written_to_the_cache(store, monkeypatch):
    """4 levels of 9 aliases: 9**4 items written out in full, past a limit of 5,000 (the merge copies them all
    until the merge core shares aliased data; the limit is EXPANDED_LIMIT, 200,000 values, in real runs)."""
    monkeypatch.setattr('ansible_collections.strata.hier.plugins.plugin_utils.walk.EXPANDED_LIMIT', 5000)
    write(store / 'data' / 'Roles' / 'bomb.yml', alias_bomb(levels=3))
    write(store / 'hier.yml', 'datadir: data\nhierarchy: ["Nodes/%{inventory_hostname}", "Roles/bomb"]\n'
                              'nodes: "Nodes/*"\n')
    warnings = []
    inventory = parse(cached_source(store), warnings)
    assert host_names(inventory) == ['db01.example.com', 'web01']
    assert any('cannot be written' in warning and 'more than 5000 values' in warning for warning in warnings)
    assert not os.listdir(str(store / 'cache'))


def cache_of(store):
    """The jsonfile cache of the sources of ``store``, as the inventory plugin opens it."""
    return cache_loader.get('ansible.builtin.jsonfile', _uri=str(store / 'cache'), _prefix='ansible_inventory_')


def stored_entry(store, value, path):
    """Write ``value`` as this source's cache entry, as the cache plugin stores it."""
    plugin = inventory_loader.get('strata.hier.hier')
    cache = cache_of(store)
    cache.set(plugin.get_cache_key(path), value)


@pytest.mark.parametrize('entry', [[1, 2], 'text', {'format': CACHE_FORMAT},
                                   {'format': CACHE_FORMAT, 'fingerprint': None, 'hosts': [1]}])
def test_a_cache_entry_of_the_wrong_shape_falls_back_to_the_data(store, entry):
    path = cached_source(store)
    parse(path)                       # writes a correct entry
    fingerprint = cache_of(store)
    key = inventory_loader.get('strata.hier.hier').get_cache_key(path)
    current = fingerprint.get(key)['fingerprint']
    if isinstance(entry, dict) and 'fingerprint' in entry:
        entry = dict(entry, fingerprint=current)
    stored_entry(store, entry, path)
    warnings = []
    inventory = parse(path, warnings)
    assert host_names(inventory) == ['db01.example.com', 'web01']
    assert inventory.get_host('web01').vars['Port'] == 80
    if isinstance(entry, dict) and entry.get('fingerprint') == current:
        assert any('the inventory cache cannot be read' in warning for warning in warnings)


def tampered_cache(store, change):
    """A cached source of ``store`` whose cache entry ``change`` has rewritten, as someone writing the cache would."""
    path = cached_source(store)
    parse(path)
    cache = cache_of(store)
    key = inventory_loader.get('strata.hier.hier').get_cache_key(path)
    entry = cache.get(key)
    change(entry)
    cache.set(key, entry)
    return path


def test_a_cache_entry_with_a_host_name_the_data_cannot_give_is_refused(store):
    path = tampered_cache(store, lambda entry: entry['hosts'].update({TEMPLATE_NAME: {'Port': 1}}))
    warnings = []
    assert host_names(parse(path, warnings)) == ['db01.example.com', 'web01']
    assert any('cannot be read' in warning and 'cannot have written' in warning for warning in warnings)


def test_a_cache_folder_that_cannot_be_created_falls_back(store):
    write(store / 'afile', '')
    warnings = []
    inventory = parse(cached_source(store, store / 'afile' / 'cache'), warnings)
    assert host_names(inventory) == ['db01.example.com', 'web01']
    assert any('the inventory cache cannot be opened' in warning for warning in warnings)


def test_a_cache_that_cannot_be_written_falls_back(store, monkeypatch):
    plugin_class = type(cache_of(store))

    def refuse(self, key, value):
        raise PermissionError(13, 'Permission denied', str(store / 'cache' / key))

    monkeypatch.setattr(plugin_class, 'set', refuse)
    warnings = []
    inventory = parse(cached_source(store), warnings)
    assert host_names(inventory) == ['db01.example.com', 'web01']
    assert any('cannot be written' in warning and 'Permission denied' in warning for warning in warnings)


def test_a_cache_that_cannot_be_read_falls_back(store, monkeypatch):
    path = cached_source(store)
    parse(path)
    plugin_class = type(cache_of(store))

    def refuse(self, key):
        raise PermissionError(13, 'Permission denied', str(store / 'cache' / key))

    monkeypatch.setattr(plugin_class, 'get', refuse)
    warnings = []
    assert host_names(parse(path, warnings)) == ['db01.example.com', 'web01']
    assert any('cannot be read' in warning and 'Permission denied' in warning for warning in warnings)


@pytest.mark.parametrize('role, problem', [('../../..', 'which would leave datadir'), ('{a: 1}', "is a map, not a name"),
                                           ('"x/../../.."', 'which would leave datadir')])
def test_a_node_whose_variables_leave_the_data_folder_is_skipped(store, role, problem):
    write(store / 'data' / 'Nodes' / 'evil.yml', 'Role: %s\n' % role)
    warnings = []
    assert host_names(parse(source(store), warnings)) == ['db01.example.com', 'web01']
    assert 'evil.yml' in warnings[0] and problem in warnings[0] and 'the node is skipped' in warnings[0]


def verify(path):
    warnings = []
    plugin = inventory_loader.get('strata.hier.hier')
    with warnings_seen(plugin.display, warnings):
        verified = plugin.verify_file(str(path))
    return verified, warnings


@pytest.mark.parametrize('line', ['plugin: strata.hier.hier', 'plugin: "strata.hier.hier"  # inventory',
                                  "plugin:   'strata.hier.hier'\r"])
@pytest.mark.parametrize('name, renamed', [('nodes.yml', 'nodes.hier.yml'), ('nodes.YAML', 'nodes.hier.yml'),
                                           ('nodes.hier.YML', 'nodes.hier.yml'), ('my.nodes.yaml', 'my.nodes.hier.yml')])
def test_a_source_not_named_as_the_plugin_reads_them_is_told_the_naming_rule(tmp_path, name, renamed, line):
    write(tmp_path / name, '---\n# nodes\n%s\nconfig: hier.yml\n' % line)
    verified, warnings = verify(tmp_path / name)
    assert not verified
    assert warnings == ['strata.hier.hier: %s says plugin: strata.hier.hier, but this plugin reads only sources whose '
                        'file name ends in .hier.yml or .hier.yaml: rename it (such as %s)' % (tmp_path / name, renamed)]


@pytest.mark.parametrize('name, text', [
    ('nodes.yml', 'plugin: amazon.aws.aws_ec2\n'),
    ('nodes.yml', 'all:\n  hosts:\n    plugin: strata.hier.hier.x\n'),
    ('hosts.ini', 'plugin: strata.hier.hier\n'),            # not a YAML file: not read
    ('big.yml', '#' * 70000 + '\nplugin: strata.hier.hier\n'),      # only the first bytes are read
])
def test_other_files_are_refused_without_a_word(tmp_path, name, text):
    write(tmp_path / name, text)
    assert verify(tmp_path / name) == (False, [])


def test_files_that_cannot_be_read_as_text_are_refused_without_an_error(tmp_path):
    (tmp_path / 'folder.yml').mkdir()
    assert verify(tmp_path / 'folder.yml') == (False, [])
    with open(str(tmp_path / 'binary.yml'), 'wb') as stream:
        stream.write(b'\xff\xfe\x00plugin: strata.hier.hier\n\x00\x81')
    assert verify(tmp_path / 'binary.yml') == (False, [])
    assert verify(tmp_path / 'missing.yml') == (False, [])


@pytest.mark.parametrize('name', ['nodes.hier.yml', 'nodes.hier.yaml'])
def test_a_source_named_as_the_rule_says_is_verified(store, name):
    write(store / name, 'plugin: strata.hier.hier\nconfig: hier.yml\n')
    assert verify(store / name) == (True, [])


@pytest.mark.parametrize('option', ['provenance', 'strict', 'cache', 'leading_separator', 'use_extra_vars'])
@pytest.mark.parametrize('value', ['ture', 'maybe', '[true]', '2'])
def test_a_boolean_option_that_is_no_boolean_is_an_error_naming_its_line(store, option, value):
    with pytest.raises(AnsibleParserError, match=r"strata.hier.hier: .*nodes.hier.yml:3: %s must be true or false "
                                                 r"\(yes/no, on/off, 1/0\), not " % option):
        parse(source(store, '%s: %s\n' % (option, value)))


def test_a_boolean_option_takes_yaml_and_ansible_words(store):
    inventory = parse(source(store, 'provenance: "yes"\nstrict: off\n'))
    assert 'hier_sources' in inventory.get_host('web01').vars


def test_an_unknown_option_of_a_source_names_the_closest_and_the_valid_ones(store):
    with pytest.raises(AnsibleParserError, match=r'nodes.hier.yml: unknown option provenanse \(did you mean '
                                                 r'provenance\?\); valid options: allow_reserved_keys, cache, '):
        parse(source(store, 'provenanse: true\n'))


def test_a_missing_data_folder_names_the_configuration_line(store):
    write(store / 'hier.yml', 'hierarchy: ["Nodes/%{inventory_hostname}"]\ndatadir: dat\nnodes: "Nodes/*"\n')
    message = (r'%s:2: datadir: the data folder %s does not exist \(a relative datadir is relative to the folder of '
               r'this file\)' % (store / 'hier.yml', store / 'dat'))
    with pytest.raises(AnsibleParserError, match=message):
        parse(source(store))


def test_provenance_gives_each_host_the_file_and_line_of_every_value(store):
    write(store / 'data' / 'Roles' / 'db.yml', 'Port: 5432\nTags: [db, sql]\n')
    host = parse(source(store, 'provenance: true\n')).get_host('db01.example.com').vars
    records = host['hier_provenance']
    assert list(records) == ['Port', 'Tags', 'Tags/0', 'Tags/1']     # Nodes/db01.yml is no level of db01.example.com
    assert (records['Tags/1']['value'], records['Tags/1']['file'], records['Tags/1']['line']) == (
        'sql', os.path.join('data', 'Roles', 'db.yml'), 2)
    assert records['Port']['level'] == 'Roles/%{Role}' and records['Port']['level_path'] == 'Roles/db'
    assert 'hier_sources' in host
    assert 'hier_provenance' not in parse(source(store)).get_host('db01.example.com').vars


def test_a_nodes_glob_that_matches_no_file_is_told_and_said_again_from_the_cache(store):
    write(store / 'hier.yml', 'datadir: data\nhierarchy: ["Nodes/%{inventory_hostname}"]\nnodes: "Node/*"\n')
    for _round in ('built', 'cached'):
        warnings = []
        assert host_names(parse(cached_source(store), warnings)) == []
        assert [warning for warning in warnings if "the nodes glob 'Node/*'" in warning and 'matches no file' in warning
                and 'the source has no hosts' in warning], warnings


def test_the_nodes_option_of_a_hier_yml_source_is_not_used_and_told(store):
    warnings = []
    assert host_names(parse(source(store, 'nodes: "Other/*"\n'), warnings, cache=False)) == [
        'db01.example.com', 'web01']
    assert [warning for warning in warnings
            if "nodes 'Other/*' is read only with a hiera.yaml" in warning and "'Nodes/*', which is used" in warning]
