# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 26, cause 4: Puppet's module layer (``<module>::`` keys answered from the module's hiera.yaml and data,
after the environment's levels), through the Source the plugins use.  Puppet's own answers are replayed in
tests/unit/plugins/module_utils/test_hiera_module_corpus.py; these tests pin each rule on the plugins' path."""

from __future__ import annotations

import os

import pytest

from ansible.parsing.dataloader import DataLoader

from ansible_collections.strata.hier.plugins.module_utils.core.errors import HieraError
from ansible_collections.strata.hier.plugins.plugin_utils.sources.hiera_yaml import whole_node
from ansible_collections.strata.hier.plugins.plugin_utils.source import open_source

HOST = {'inventory_hostname': 'web01.example.com', 'role': 'web'}
ENV_HIERA = 'version: 5\nhierarchy:\n  - {name: common, path: common.yaml}\n'
MODULE_HIERA = '''version: 5
hierarchy:
  - name: "App role"
    path: "roles/%{facts.role}.yaml"
  - name: "App common"
    path: common.yaml
'''


def write(root, files):
    for relative, text in files.items():
        path = os.path.join(str(root), relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as stream:
            stream.write(text)


def source(root, files):
    write(root, dict({'hiera.yaml': ENV_HIERA}, **files))
    return open_source(str(root / 'hiera.yaml'), DataLoader())


def view(root, files):
    return source(root, files).for_host(HOST)


APP = {
    'data/common.yaml': 'lookup_options:\n  app::h: {merge: hash}\napp::list: [env]\napp::h: {env: 1, both: env}\n',
    'modules/app/hiera.yaml': MODULE_HIERA,
    'modules/app/data/roles/web.yaml': 'app::list: [role]\napp::only: role\n',
    'modules/app/data/common.yaml': 'lookup_options:\n  app::list: {merge: unique}\n  app::h: {merge: deep}\n'
                                    '  "^app::deep_": {merge: deep}\n'
                                    'app::list: [mod]\napp::h: {mod: 1, both: mod}\napp::only: common\n'
                                    'app::deep_x: {a: {b: mod}}\n',
}


def test_a_module_key_is_answered_from_the_module_after_the_environment(tmp_path):
    host = view(tmp_path, APP)
    assert host.lookup('app::only').value == 'role'
    assert host.lookup('app::list', merge='first').value == ['env']
    assert host.lookup('app::list', merge='deep').value == ['mod', 'role', 'env']


def test_a_modules_lookup_options_apply_to_its_keys_and_the_environments_entry_wins(tmp_path):
    host = view(tmp_path, APP)
    assert host.lookup('app::list').value == ['env', 'role', 'mod']         # the module's unique
    assert host.lookup('app::h').value == {'mod': 1, 'both': 'env', 'env': 1}     # the environment's hash
    assert host.lookup('app::deep_x').value == {'a': {'b': 'mod'}}           # a ^app:: pattern of the module


def test_a_module_lookup_options_entry_for_another_namespace_is_an_error_naming_file_and_line(tmp_path):
    data = 'lookup_options:\n  app::k: {merge: unique}\n  other::k: {merge: deep}\napp::k: [1]\n'
    host = view(tmp_path, dict(APP, **{'modules/app/data/common.yaml': data}))
    with pytest.raises(HieraError, match=r"modules/app/data/common\.yaml:3: all lookup_options keys must start with "
                                         r"module name 'app' \(got \"other::k\"\)"):
        host.lookup('app::k')
    assert host.lookup('other::nothing').found is False      # another module's keys are not concerned


def test_module_data_holding_another_namespaces_keys_is_ignored_for_them_with_one_warning(tmp_path):
    hiera = source(tmp_path, dict(APP, **{
        'modules/app/data/common.yaml': 'app::k: app\nbeta::k: from app\n',
        'modules/beta/hiera.yaml': MODULE_HIERA, 'modules/beta/data/common.yaml': 'beta::other: beta\n'}))
    host = hiera.for_host(HOST)
    answer = host.lookup('app::k')
    assert answer.value == 'app'
    assert [warning for warning in answer.warnings if "Module 'app'" in warning] == [
        "Module 'app': %s:2 holds keys not qualified with the module's name, which are ignored (as Puppet): "
        '"beta::k"' % (tmp_path / 'modules/app/data/common.yaml')]
    assert host.lookup('beta::k').found is False
    assert not [warning for warning in hiera.for_host(HOST).lookup('app::k').warnings if 'Module' in warning]


def test_interpolation_in_module_data(tmp_path):
    host = view(tmp_path, dict(APP, **{'modules/app/data/common.yaml': (
        "app::url: \"http://%{trusted.certname}:%{lookup('app::port')}/%{facts.role}\"\n"
        "app::port: 80\napp::same: \"%{alias('app::list')}\"\n")}))
    assert host.lookup('app::url').value == 'http://web01.example.com:80/web'
    assert host.lookup('app::same').value == ['env']       # alias: the whole lookup (the environment's first)


def test_environment_conf_modulepath_site_modules_first_and_the_first_module_of_a_name_wins(tmp_path):
    files = {'site-modules/app/hiera.yaml': MODULE_HIERA, 'site-modules/app/data/common.yaml': 'app::k: site\n',
             'modules/app/hiera.yaml': MODULE_HIERA, 'modules/app/data/common.yaml': 'app::k: modules\n',
             'environment.conf': '# control repository\nmodulepath = site-modules:modules:$basemodulepath\n'}
    answer = view(tmp_path, files).lookup('app::k')
    assert answer.value == 'site'
    assert any("environment.conf:2: modulepath entries '$basemodulepath' are not read" in warning
               for warning in answer.warnings)


def test_a_module_folder_the_modulepath_does_not_reach_is_named_once(tmp_path):
    files = {'site-modules/app/hiera.yaml': MODULE_HIERA, 'site-modules/app/data/common.yaml': 'app::k: site\n'}
    hiera = source(tmp_path, files)
    answer = hiera.for_host(HOST).lookup('app::k')
    assert answer.found is False
    assert any('does not reach site-modules/app/hiera.yaml' in warning for warning in answer.warnings)
    assert not any('does not reach' in warning for warning in hiera.for_host(HOST).lookup('app::k').warnings)


def test_a_module_with_data_but_no_hiera_yaml_gives_nothing_as_puppet_7_with_a_warning(tmp_path):
    answer = view(tmp_path, {'modules/app/data/common.yaml': 'app::k: v\n'}).lookup('app::k')
    assert answer.found is False
    assert any('modules/app/data: a module data folder without the module\'s hiera.yaml is not read' in warning
               for warning in answer.warnings)


def test_a_broken_module_hiera_yaml_is_an_error_naming_every_problem_with_its_line(tmp_path):
    host = view(tmp_path, {'modules/app/hiera.yaml': 'version: 5\nhierarchy:\n  - name: a\n    path: a.yaml\n'
                                                     '    glob: "*.yaml"\n  - name: b\n    data_hash: hocon_data\n'
                                                     '    path: b.yaml\n',
                           'data/common.yaml': 'plain: 1\n'})
    with pytest.raises(HieraError) as caught:
        host.lookup('app::k')
    message = str(caught.value)
    assert 'modules/app/hiera.yaml has 2 problems' in message
    assert 'modules/app/hiera.yaml:3: ' in message and 'modules/app/hiera.yaml:7: ' in message
    assert host.lookup('plain').value == 1       # keys of no module never read it


def test_explain_names_the_module_data_provider(tmp_path):
    explained = view(tmp_path, APP).lookup('app::only', explain=True).explain()['explain']
    assert 'Module "app" Data Provider (hiera configuration version 5)' in explained
    assert 'Using configuration "%s"' % (tmp_path / 'modules/app/hiera.yaml') in explained
    assert 'Module "nosuch" not found' in view(tmp_path, APP).lookup('nosuch::k', explain=True).explain()['explain']


def test_provenance_names_the_module_file_and_level(tmp_path):
    answer = view(tmp_path, APP).lookup('app::only', provenance=True)
    record = answer.records['app::only']
    assert (record['file'], record['level'], record['line']) == ('modules/app/data/roles/web.yaml', 'App role', 2)
    rule = view(tmp_path, APP).lookup('app::list', provenance=True).records['app::list']
    assert (rule['rule'], rule['rule_at']) == ('app::list', 'modules/app/data/common.yaml:2')


def test_whole_node_has_every_modules_keys(tmp_path):
    hiera = source(tmp_path, APP)
    host_vars = whole_node(hiera, HOST, '__', warn=[].append)
    assert host_vars['app__only'] == 'role' and host_vars['app__list'] == ['env', 'role', 'mod']
    assert host_vars['app__deep_x'] == {'a': {'b': 'mod'}}


def test_the_fingerprint_covers_module_data_and_environment_conf(tmp_path):
    hiera = source(tmp_path, APP)
    before = hiera.fingerprint([])
    write(tmp_path, {'modules/app/data/common.yaml': 'app::only: changed and longer\n'})
    changed = hiera.fingerprint([])
    assert changed != before
    write(tmp_path, {'environment.conf': 'modulepath = modules\n'})
    assert hiera.fingerprint([]) != changed


def test_a_changed_module_data_file_is_read_again_in_the_next_pass(tmp_path):
    hiera = source(tmp_path, APP)
    assert hiera.for_host(HOST).lookup('app::only', merge='first').value == 'role'
    write(tmp_path, {'modules/app/data/roles/web.yaml': 'app::only: role changed\n'})
    hiera.begin_pass()
    assert hiera.for_host(HOST).lookup('app::only').value == 'role changed'
