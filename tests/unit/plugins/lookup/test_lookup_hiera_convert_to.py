# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 30, item 4: convert_to through the lookup and the inventory plugin; a Sensitive value is answered but
never in a report: explain, provenance records, -vvv origin lines; the inventory lists it in hier_vaulted_keys."""

from __future__ import annotations

import json

import pytest

from ansible.errors import AnsibleError
from ansible.inventory.data import InventoryData
from ansible.parsing.dataloader import DataLoader
from ansible.plugins.loader import inventory_loader
from ansible.utils.display import Display

from ansible_collections.strata.hier.plugins.plugin_utils.sources.hiera_yaml import fresh_hiera_source, whole_node
from ansible_collections.strata.hier.tests.unit.plugins.inventory.test_inventory_hier import write
from ansible_collections.strata.hier.tests.unit.plugins.lookup.test_lookup_hiera import HIERA, HOST, lookup

SECRET = 'hunter2-secret'
COMMON = '''lookup_options:
  port: {convert_to: "Integer[1, 65535]"}
  db_password: {convert_to: Sensitive}
  users: {convert_to: "Sensitive[Hash[String, String]]"}
port: "8080"
db_password: %s
users:
  admin: %s
''' % (SECRET, SECRET)


@pytest.fixture
def repo(tmp_path):
    write(tmp_path / 'hiera.yaml', HIERA)
    write(tmp_path / 'data' / 'common.yaml', COMMON)
    write(tmp_path / 'data' / 'roles' / 'web.yaml', 'db_password: %s-web\n' % SECRET)
    write(tmp_path / 'data' / 'nodes' / 'web01.example.com.yaml', 'other: 1\n')
    return tmp_path


def test_values_are_converted(repo):
    assert lookup(repo, 'port') == [8080]


def test_a_value_that_does_not_convert_names_the_key_the_type_and_the_lines(repo):
    write(repo / 'data' / 'roles' / 'web.yaml', 'port: "99999"\n')
    with pytest.raises(AnsibleError) as caught:
        lookup(repo, 'port')
    text = str(caught.value)
    assert "Hiera key 'port': convert_to Integer[1, 65535] at %s:2: " % (repo / 'data' / 'common.yaml') in text
    assert "'99999' (converted to 99999) does not fit Integer[1, 65535]: is 99999, above the maximum 65535" in text
    assert text.endswith('(value at %s:1)' % (repo / 'data' / 'roles' / 'web.yaml'))


def test_an_unknown_type_names_the_key_and_the_lookup_options_line(repo):
    write(repo / 'data' / 'common.yaml', COMMON.replace('Integer[1, 65535]', 'Timespan'))
    with pytest.raises(AnsibleError, match=r"Hiera key 'port': convert_to at \S+/data/common.yaml:2: the Puppet "
                                           r"type Timespan is not supported \(supported: Integer"):
        lookup(repo, 'port')


def test_sensitive_is_answered(repo):
    assert lookup(repo, 'db_password', 'users') == ['%s-web' % SECRET, {'admin': SECRET}]


def test_sensitive_is_never_in_explain_or_provenance(repo):
    for key in ('db_password', 'users'):
        report, = lookup(repo, key, explain=True)
        assert SECRET not in json.dumps(report) and report['value'] == 'Sensitive [value redacted]'
        assert 'Applying convert_to lookup_option with arguments [Sensitive' in report['explain']
        report, = lookup(repo, key, provenance=True)
        assert SECRET not in json.dumps(report) and report['value'] == 'Sensitive [value redacted]'
        record = report['provenance'][key]
        assert record['sensitive'] and record['withheld'] and record['line'] and list(report['provenance']) == [key]
    report, = lookup(repo, 'port', provenance=True)
    assert report['value'] == report['provenance']['port']['value'] == 8080     # the answer, converted


def test_sensitive_is_never_in_the_origin_lines(repo, monkeypatch):
    lines = []
    monkeypatch.setattr(Display(), 'verbosity', 3)
    monkeypatch.setattr(Display, 'vvv', lambda self, message, host=None: lines.append(message))
    assert lookup(repo, 'users', 'port') == [{'admin': SECRET}, 8080]
    text = '\n'.join(lines)
    assert '  users = (withheld)  from data/common.yaml:7 (level common)' in lines and 'port = ' in text
    assert SECRET not in text


def test_the_inventory_lists_sensitive_keys_in_hier_vaulted_keys(repo):
    source = repo / 'site.hier.yml'
    write(source, 'plugin: strata.hier.hier\nconfig: hiera.yaml\nnodes: data/nodes/*.yaml\nfacts: {role: web}\n'
                  'provenance: true\n')
    inventory = InventoryData()
    inventory_loader.get('strata.hier.hier').parse(inventory, DataLoader(), str(source), cache=False)
    web = inventory.get_host('web01.example.com').vars
    assert web['db_password'] == '%s-web' % SECRET and web['users'] == {'admin': SECRET} and web['port'] == 8080
    assert sorted(web['hier_vaulted_keys']) == ['db_password', 'users']
    assert SECRET not in json.dumps(web['hier_provenance'])


def test_whole_node_without_convert_to_has_no_sensitive_keys(repo):
    write(repo / 'data' / 'common.yaml', 'port: 1\n')
    host_vars = whole_node(fresh_hiera_source(str(repo / 'hiera.yaml'), DataLoader()), HOST, '__', warn=[].append)
    assert 'hier_vaulted_keys' not in host_vars
