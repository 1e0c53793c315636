# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""What a lookup call costs once warm (issue 26, item 3): it checks only the files it reads, reuses the host's
engine while the host's level files are unchanged, and reads its options from Ansible's configuration once per set
of options; a change to the data is still seen by the next call."""

from __future__ import annotations

import os

import pytest

from ansible.parsing.dataloader import DataLoader
from ansible.plugins.loader import lookup_loader
from ansible.template import Templar

from ansible_collections.strata.hier.plugins.plugin_utils.sources import hiera_yaml as hiera_source
from ansible_collections.strata.hier.plugins.plugin_utils.source import get_source, open_source
from ansible_collections.strata.hier.tests.unit.plugins.inventory.test_inventory_hier import write

HIERA = '''version: 5
defaults: {datadir: data, data_hash: yaml_data}
hierarchy:
  - {name: node, path: "nodes/%{trusted.certname}.yaml"}
  - {name: role, path: "roles/%{facts.role}.yaml"}
  - {name: common, path: common.yaml}
'''


def repo(tmp_path, nodes=40):
    write(tmp_path / 'hiera.yaml', HIERA)
    write(tmp_path / 'data' / 'common.yaml', 'lookup_options:\n  pkgs: {merge: unique}\npkgs: [base]\nmotd: common\n')
    write(tmp_path / 'data' / 'roles' / 'web.yaml', 'pkgs: [nginx]\n')
    for number in range(nodes):
        write(tmp_path / 'data' / 'nodes' / ('n%d.yaml' % number), 'pkgs: [n%d]\n' % number)
    return tmp_path


def lookup(folder, host, *terms, **options):
    loader = DataLoader()
    plugin = lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader))
    return plugin.run(list(terms), {'inventory_hostname': host, 'role': 'web'},
                      **dict({'config': str(folder / 'hiera.yaml')}, **options))


def test_a_call_checks_only_the_files_it_reads(tmp_path, monkeypatch):
    folder = repo(tmp_path)
    for number in range(40):        # every node file read once
        lookup(folder, 'n%d' % number, 'pkgs')
    checked = []
    real = hiera_source.path_identity
    monkeypatch.setattr(hiera_source, 'path_identity', lambda path: checked.append(path) or real(path))
    assert lookup(folder, 'n7', 'pkgs') == [['n7', 'nginx', 'base']]
    assert len(checked) <= 8, checked      # was every file read before: 42
    assert not [path for path in checked
                if os.path.basename(path) not in ('n7.yaml', 'web.yaml', 'common.yaml', 'hiera.yaml')]


def test_a_host_keeps_its_engine_while_its_files_are_unchanged_and_sees_a_change(tmp_path):
    folder = repo(tmp_path, nodes=1)
    source = get_source(str(folder / 'hiera.yaml'), DataLoader())
    assert lookup(folder, 'n9', 'pkgs', 'motd') == [['nginx', 'base'], 'common']
    first = source._engines['n9'][0]     # pylint: disable=protected-access
    assert lookup(folder, 'n9', 'motd') == ['common']
    assert [kept[0] for kept in source._engines.values()] == [first]   # pylint: disable=protected-access
    write(folder / 'data' / 'nodes' / 'n9.yaml', 'pkgs: [n9]\nmotd: mine\n')      # a level file that was missing
    assert lookup(folder, 'n9', 'pkgs', 'motd') == [['n9', 'nginx', 'base'], 'mine']
    write(folder / 'data' / 'common.yaml', 'lookup_options:\n  pkgs: {merge: first}\npkgs: [base]\n')
    assert lookup(folder, 'n9', 'pkgs') == [['n9']]       # lookup_options read again


def test_options_are_read_once_per_set_of_options_and_environment(tmp_path, monkeypatch):
    folder = repo(tmp_path, nodes=1)
    plugin_class = type(lookup_loader.get('strata.hier.hier'))
    calls = []
    real = plugin_class.set_options

    def counted(self, *args, **kwargs):
        calls.append(kwargs.get('direct'))
        return real(self, *args, **kwargs)
    monkeypatch.setattr(plugin_class, 'set_options', counted)
    monkeypatch.delenv('STRATA_HIER_ORIGIN_TAGS', raising=False)
    for _round in range(3):
        assert lookup(folder, 'n0', 'pkgs') == [['n0', 'nginx', 'base']]
        assert lookup(folder, 'n0', 'pkgs', merge='first') == [['n0']]
    assert len(calls) == 2
    monkeypatch.setenv('STRATA_HIER_ORIGIN_TAGS', 'false')     # a setting of the environment: read again
    assert lookup(folder, 'n0', 'pkgs') == [['n0', 'nginx', 'base']]
    assert len(calls) == 3
    assert lookup(folder, 'n0', 'pkgs', default={'a': object()}) == [['n0', 'nginx', 'base']]   # not kept
    assert lookup(folder, 'n0', 'pkgs', default={'a': object()}) == [['n0', 'nginx', 'base']]
    assert len(calls) == 5


def test_other_facts_give_the_host_another_engine(tmp_path):
    folder = repo(tmp_path, nodes=1)
    write(folder / 'data' / 'roles' / 'db.yaml', 'pkgs: [postgres]\n')
    write(folder / 'data' / 'common.yaml', 'pkgs: [base]\nmotd: "%{facts.flag}"\n')
    loader = DataLoader()
    plugin = lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader))
    config = str(folder / 'hiera.yaml')
    assert plugin.run(['pkgs'], {'inventory_hostname': 'n0', 'role': 'web'}, config=config) == [['n0']]
    assert plugin.run(['pkgs'], {'inventory_hostname': 'n5', 'role': 'db'}, config=config) == [['postgres']]
    assert plugin.run(['motd'], {'inventory_hostname': 'n5', 'role': 'db', 'flag': 1}, config=config) == ['1']
    assert plugin.run(['motd'], {'inventory_hostname': 'n5', 'role': 'db', 'flag': True}, config=config) == ['true']


def test_a_change_to_a_modules_data_or_configuration_is_seen_by_a_kept_engine(tmp_path):
    folder = repo(tmp_path, nodes=1)
    write(folder / 'modules' / 'app' / 'hiera.yaml', 'version: 5\nhierarchy:\n  - {name: common, path: common.yaml}\n')
    write(folder / 'modules' / 'app' / 'data' / 'common.yaml', 'app::ports: [80]\n')
    write(folder / 'data' / 'common.yaml', 'pkgs: [base]\napp::ports: [8080]\n')
    assert lookup(folder, 'n0', 'pkgs', 'app::ports') == [['n0'], [8080]]
    write(folder / 'modules' / 'app' / 'data' / 'common.yaml',
          'lookup_options:\n  app::ports: {merge: unique}\napp::ports: [80, 443]\n')
    assert lookup(folder, 'n0', 'app::ports') == [[8080, 80, 443]]
    write(folder / 'modules' / 'app' / 'hiera.yaml', 'version: 5\nhierarchy:\n  - {name: other, path: other.yaml}\n')
    write(folder / 'modules' / 'app' / 'data' / 'other.yaml', 'lookup_options:\n  app::ports: {merge: unique}\n'
          'app::ports: [22]\n')
    assert lookup(folder, 'n0', 'app::ports') == [[8080, 22]]


def test_a_call_checks_only_the_module_configurations_it_reads(tmp_path, monkeypatch):
    from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera import module_layer as hiera_modules
    folder = repo(tmp_path, nodes=1)
    for number in range(30):
        write(folder / 'modules' / ('m%d' % number) / 'hiera.yaml', 'version: 5\n')
        write(folder / 'modules' / ('m%d' % number) / 'data' / 'common.yaml', 'm%d::port: %d\n' % (number, number))
    for number in range(30):        # every module's hiera.yaml read once
        assert lookup(folder, 'n0', 'm%d::port' % number) == [number]
    checked = []
    real = hiera_modules._stamp
    monkeypatch.setattr(hiera_modules, '_stamp', lambda path: checked.append(path) or real(path))
    assert lookup(folder, 'n0', 'm7::port') == [7]
    assert len(checked) <= 3, checked       # environment.conf, the modules folder, m7's hiera.yaml (was 32)


def test_a_warm_call_stats_each_data_file_once(tmp_path, monkeypatch):
    folder = repo(tmp_path, nodes=3)
    for number in range(3):
        lookup(folder, 'n%d' % number, 'pkgs', 'motd')
    data = str(folder / 'data')
    stats = []
    real = os.stat

    def counted(path, *args, **kwargs):
        stats.append(os.fspath(path))
        return real(path, *args, **kwargs)
    monkeypatch.setattr(os, 'stat', counted)
    assert lookup(folder, 'n1', 'pkgs', 'motd') == [['n1', 'nginx', 'base'], 'common']
    monkeypatch.undo()
    read = sorted(path for path in stats if path.startswith(data))
    # was three times each: the kept engine's stamps, its work budget's file sizes, the pass's check of the file
    assert read == sorted(os.path.join(data, name) for name in ('nodes/n1.yaml', 'roles/web.yaml', 'common.yaml'))


def host_vars_of_every_node(folder, nodes):
    source = open_source(str(folder / 'hiera.yaml'), DataLoader())
    return [source.for_host({'inventory_hostname': 'n%d' % number, 'role': 'web'}).host_vars(pytest.fail)
            for number in range(nodes)]


def test_a_pass_over_hosts_resolves_the_links_of_a_level_file_once_and_the_next_pass_again(tmp_path, monkeypatch):
    folder = repo(tmp_path, nodes=10)
    host_vars_of_every_node(folder, 10)
    resolved = []
    real = os.path.realpath
    monkeypatch.setattr(os.path, 'realpath', lambda path, *args, **kwargs: resolved.append(os.fspath(path))
                        or real(path, *args, **kwargs))
    assert host_vars_of_every_node(folder, 10)[4] == {'pkgs': ['n4', 'nginx', 'base'], 'motd': 'common'}
    assert resolved.count(str(folder / 'data' / 'common.yaml')) == 1      # was once per host
    monkeypatch.undo()
    outside = tmp_path.parent / (tmp_path.name + '-outside.yaml')
    outside.write_text('motd: secret\n')
    os.remove(str(folder / 'data' / 'common.yaml'))
    os.symlink(str(outside), str(folder / 'data' / 'common.yaml'))
    with pytest.raises(Exception, match='a link leads to'):        # the next pass sees the link
        host_vars_of_every_node(folder, 10)


def test_a_warm_call_resolves_the_configurations_links_once_and_sees_a_relinked_folder(tmp_path, monkeypatch):
    first, second = repo(tmp_path / 'first'), repo(tmp_path / 'second')
    write(second / 'data' / 'common.yaml', 'motd: second\n')
    current = tmp_path / 'current'
    os.symlink(str(first), str(current))
    assert lookup(current, 'n1', 'motd') == ['common']
    resolved = []
    real = os.path.realpath
    monkeypatch.setattr(os.path, 'realpath', lambda path, *args, **kwargs: resolved.append(os.fspath(path))
                        or real(path, *args, **kwargs))
    assert lookup(current, 'n1', 'motd') == ['common']
    assert str(current / 'hiera.yaml') not in resolved      # was resolved at every call
    os.remove(str(current))
    os.symlink(str(second), str(current))       # the folder re-pointed: the same path, another configuration
    assert lookup(current, 'n1', 'motd') == ['second']
    third = repo(tmp_path / 'third')
    write(third / 'other.yaml', HIERA.replace('common.yaml', 'other.yaml'))
    write(third / 'data' / 'other.yaml', 'motd: other\n')
    linked = third / 'linked.yaml'
    os.symlink('hiera.yaml', str(linked))       # a configuration that is a link: resolved each time
    assert lookup(third, 'n1', 'motd', config=str(linked)) == ['common']
    os.remove(str(linked))
    os.symlink('other.yaml', str(linked))
    assert lookup(third, 'n1', 'motd', config=str(linked)) == ['other']
