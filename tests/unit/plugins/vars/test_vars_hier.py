# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The vars plugin: hierarchy data for hosts of any inventory (issue 11)."""

from __future__ import annotations

import copy
import json
import os

import pytest

from ansible.errors import AnsibleError
from ansible.inventory.data import InventoryData
from ansible.parsing.dataloader import DataLoader
from ansible.parsing.vault import VaultLib, VaultSecret
from ansible.plugins.loader import vars_loader
from ansible.vars.plugins import _plugin_should_run

from ansible_collections.strata.hier.plugins.plugin_utils import store as store_module
from ansible_collections.strata.hier.plugins.plugin_utils.compat import is_vault_value, vault_ciphertext
from ansible_collections.strata.hier.tests.unit.plugins.fresh_process import run_fresh

CIPHERTEXT = VaultLib([('default', VaultSecret(b'unit-test'))]).encrypt('s3cret').decode()


def write(path, text):
    os.makedirs(os.path.dirname(str(path)), exist_ok=True)
    with open(str(path), 'w') as stream:
        stream.write(text)


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A hierarchy over roles (a list variable) and groups (group_names in Ansible's precedence)."""
    monkeypatch.delenv('STRATA_HIER_CONFIG', raising=False)
    write(tmp_path / 'hier.yml', 'datadir: data\nhierarchy:\n  - "Nodes/%{inventory_hostname}"\n'
          '  - mapped_paths: [roles, role, "Roles/%{role}"]\n  - mapped_paths: [group_names, group, "Groups/%{group}"]\n'
          '  - "Sites/%{site}"\n  - Common\nlookup_options:\n  Packages: Unique\n')
    write(tmp_path / 'data' / 'Common.yml', 'Packages: [base]\nTimezone: UTC\nLevel: common\n')
    write(tmp_path / 'data' / 'Sites' / 'ber.yml', 'Timezone: Europe/Berlin\n')
    write(tmp_path / 'data' / 'Roles' / 'web.yml', 'Packages: [nginx]\nLevel: web\n')
    write(tmp_path / 'data' / 'Roles' / 'db.yml', 'Packages: [postgres]\nLevel: db\n')
    write(tmp_path / 'data' / 'Groups' / 'prod.yml', 'Packages: [audit]\nGroupLevel: prod\n')
    write(tmp_path / 'data' / 'Groups' / 'eu.yml', 'GroupLevel: eu\n')
    write(tmp_path / 'data' / 'Nodes' / 'web1.yml', 'Secret: !vault %s\nLevel: node\n' % json.dumps(CIPHERTEXT))
    return tmp_path


def inventory():
    data = InventoryData()
    for group in ('prod', 'eu', 'europe'):
        data.add_group(group)
    data.add_child('europe', 'eu')          # eu is deeper than prod: more specific
    data.add_host('web1', 'prod')
    data.add_host('web1', 'eu')
    data.add_host('lonely')
    data.set_variable('europe', 'site', 'ber')
    data.set_variable('web1', 'roles', ['web', 'db'])
    return data


def host_vars(project, name='web1', data=None, basedir=None):
    loader = DataLoader()
    loader.set_basedir(str(basedir or project))
    plugin = vars_loader.get('strata.hier.hier')
    plugin.set_options()    # the loader keeps one instance (stateless) per process: read this test's settings
    return plugin.get_vars(loader, str(project), [(data or inventory()).get_host(name)])


def test_a_host_gets_its_merged_data_from_inventory_variables(project):
    got = host_vars(project)
    assert got['Packages'] == ['nginx', 'postgres', 'audit', 'base']      # roles in list order, then groups
    assert got['Timezone'] == 'Europe/Berlin'      # site: a variable of a parent group
    assert got['Level'] == 'node'
    assert is_vault_value(got['Secret']) and vault_ciphertext(got['Secret']) == CIPHERTEXT


def test_group_names_are_read_most_specific_first(project):
    assert host_vars(project)['GroupLevel'] == 'eu'     # deeper group first
    data = inventory()
    data.set_variable('prod', 'ansible_group_priority', 10)
    data.groups['prod'].set_priority(10)
    data.add_child('all', 'prod')
    data.groups['prod'].depth = data.groups['eu'].depth     # same depth: the higher priority wins
    assert host_vars(project, data=data)['GroupLevel'] == 'prod'


def test_a_host_with_no_data_gets_nothing(project):
    write(project / 'hier.yml', 'datadir: data\nhierarchy: ["Nodes/%{inventory_hostname}"]\n')
    assert host_vars(project, 'lonely') == {}


def test_keys_can_be_chosen(project, monkeypatch):
    monkeypatch.setenv('STRATA_HIER_VARS_KEYS', 'Timezone')
    monkeypatch.setenv('STRATA_HIER_VARS_KEYS_PATTERN', '.*Level')
    assert sorted(host_vars(project)) == ['GroupLevel', 'Level', 'Timezone']


def test_files_are_parsed_once_for_all_hosts_and_calls(project, monkeypatch):
    parsed = []
    load_untrusted = store_module.load_untrusted
    monkeypatch.setattr(store_module, 'load_untrusted',
                        lambda loader, path, error, *rest: parsed.append(path) or load_untrusted(loader, path, error, *rest))
    data = inventory()
    data.add_host('web2', 'prod')
    data.set_variable('web2', 'roles', ['web'])
    host_vars(project, data=data)
    assert host_vars(project, 'web2', data=data)['Packages'] == ['nginx', 'audit', 'base']
    host_vars(project, data=data)
    data_files = [path for path in parsed if os.sep + 'data' + os.sep in path]
    assert len(data_files) == len(set(data_files)) and len(data_files) >= 5


def test_a_broken_file_names_file_and_line(project):
    write(project / 'data' / 'Sites' / 'ber.yml', 'Timezone: [unclosed\nOther: 1\n')
    with pytest.raises(AnsibleError, match=r'Sites/ber.yml:2'):
        host_vars(project)


def test_a_mapped_level_over_a_non_list_names_host_level_and_file(project):
    data = inventory()
    data.set_variable('web1', 'roles', 'web')
    with pytest.raises(AnsibleError, match=r"host web1: .*hier.yml: level mapped_paths \[roles, role, Roles/%\{role\}\]: "
                                           r"variable 'roles' of host web1 is a str, not a list"):
        host_vars(project, data=data)


def test_the_setting_is_read_when_no_configuration_is_beside_playbook_or_inventory(
        project, tmp_path_factory, monkeypatch):
    elsewhere = tmp_path_factory.mktemp('elsewhere')
    monkeypatch.setenv('STRATA_HIER_CONFIG', str(project / 'hier.yml'))
    assert host_vars(project, basedir=elsewhere)['Level'] == 'node'
    monkeypatch.delenv('STRATA_HIER_CONFIG')
    with pytest.raises(AnsibleError, match=r'no hierarchy configuration found; searched %s/hier.yml, %s/hiera.yaml'
                       % (elsewhere, elsewhere)):
        host_vars(project, basedir=elsewhere)


def test_groups_get_nothing(project):
    loader = DataLoader()
    loader.set_basedir(str(project))
    assert vars_loader.get('strata.hier.hier').get_vars(loader, str(project), [inventory().groups['prod']]) == {}


def test_a_host_name_leaving_the_data_folder_is_an_error_naming_it(project):
    data = inventory()
    data.add_host('../../etc')
    with pytest.raises(AnsibleError, match=r"host \.\./\.\./etc: .*hier.yml: level 'Nodes/%\{inventory_hostname\}' "
                                           r"expands to 'Nodes/\.\./\.\./etc', which would leave datadir"):
        host_vars(project, '../../etc', data=data)


def test_a_vault_value_as_level_variable_is_refused_not_decrypted(project):
    data = inventory()
    data.set_variable('web1', 'roles', [DataLoader().load('x: !vault %s' % json.dumps(CIPHERTEXT))['x']])
    with pytest.raises(AnsibleError, match=r"level mapped_paths \[roles, role, Roles/%\{role\}\]: variable 'role' is "
                                           r"\(or holds\) a vault value"):
        host_vars(project, data=data)


def fresh_plugin():
    """The loader's instance with no option read yet (it keeps one instance per process)."""
    plugin = copy.copy(vars_loader.get('strata.hier.hier'))
    plugin._options, plugin._origins = {}, {}
    return plugin


@pytest.mark.parametrize('stage', ['bogus', 'Task', 'inventroy'])
def test_a_stage_that_is_none_of_its_choices_is_an_error_naming_the_setting(project, monkeypatch, stage):
    monkeypatch.setenv('STRATA_HIER_VARS_STAGE', stage)
    message = (r"^strata.hier.hier vars plugin: stage must be one of all, task, inventory, not '%s' \(set by the "
               r"environment variable STRATA_HIER_VARS_STAGE\)$" % stage)
    # ansible-core asks get_option('stage') whether to run the plugin, and runs it as if unset on a KeyError
    with pytest.raises(AnsibleError, match=message):
        _plugin_should_run.__wrapped__(fresh_plugin(), 'task')
    loader = DataLoader()
    loader.set_basedir(str(project))
    with pytest.raises(AnsibleError, match=message):
        fresh_plugin().get_vars(loader, str(project), [inventory().get_host('web1')])


@pytest.mark.parametrize('stage, runs', [('task', [True, False]), ('inventory', [False, True]), ('all', [True, True])])
def test_a_valid_stage_still_decides_when_the_plugin_runs(monkeypatch, stage, runs):
    monkeypatch.setenv('STRATA_HIER_VARS_STAGE', stage)
    assert [_plugin_should_run.__wrapped__(fresh_plugin(), when) for when in ('task', 'inventory')] == runs


STAGE_FROM_INI = '''
import json, sys
from ansible.errors import AnsibleError
from ansible.plugins.loader import init_plugin_loader, vars_loader
from ansible.vars.plugins import _plugin_should_run
init_plugin_loader([sys.argv[1]])
try:
    print(json.dumps(_plugin_should_run(vars_loader.get('strata.hier.hier'), 'task')))
except AnsibleError as exc:
    print(json.dumps(str(exc)))
'''


def test_a_stage_from_ansible_cfg_names_its_section_key_and_file(tmp_path):
    (tmp_path / 'ansible.cfg').write_text('[strata_hier]\nvars_stage = bogus\n')
    environment = {name: value for name, value in os.environ.items() if not name.startswith(('ANSIBLE_', 'STRATA_'))}
    environment['ANSIBLE_CONFIG'] = str(tmp_path / 'ansible.cfg')
    assert run_fresh(STAGE_FROM_INI, environment=environment) == (
        "strata.hier.hier vars plugin: stage must be one of all, task, inventory, not 'bogus' (set by "
        "[strata_hier] vars_stage in %s)" % (tmp_path / 'ansible.cfg'))


def test_provenance_gives_hier_sources_and_hier_provenance(project, monkeypatch):
    monkeypatch.setenv('STRATA_HIER_VARS_PROVENANCE', 'true')
    got = host_vars(project)
    assert got['hier_provenance']['Packages/1'] == {
        'value': 'postgres', 'file': os.path.join('data', 'Roles', 'db.yml'), 'line': 1, 'column': 12,
        'level': 'Roles/%{role} [role=db]', 'level_path': 'Roles/db', 'rule': 'Packages',
        'rule_at': 'hier.yml:9'}
    assert [source['file'] for source in got['hier_sources']['Level']] == ['Nodes/web1.yml']
    monkeypatch.setenv('STRATA_HIER_VARS_PROVENANCE', 'false')
    assert 'hier_provenance' not in host_vars(project)
