# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Levels whose variables hosts do not have (issue 33, item 1): a level no host fills is a warning naming the level,
its variables and its configuration line; strict_levels makes an undefined level variable an error; the lookup
says so at -v."""

from __future__ import annotations

import sys

import pytest

from ansible.errors import AnsibleError, AnsibleParserError
from ansible.inventory.data import InventoryData
from ansible.parsing.dataloader import DataLoader
from ansible.plugins.loader import inventory_loader, lookup_loader, vars_loader
from ansible.template import Templar

from ansible_collections.strata.hier.plugins.plugin_utils.config import ConfigError
from ansible_collections.strata.hier.plugins.plugin_utils.sources.hier_yml import load_config
from ansible_collections.strata.hier.tests.unit.plugins.inventory.test_inventory_hier import write
from ansible_collections.strata.hier.tests.unit.plugins.warnings_seen import warnings_seen

HIER = '''datadir: data
hierarchy:
  - "nodes/%{inventory_hostname}"
  - "roles/%{Rol}"
  - "sites/%{Site}"
  - common
nodes: "nodes/*"
'''


@pytest.fixture
def project(tmp_path):
    """web01 and db01, both with a Role (the level misspells it) and only db01 with a Site."""
    write(tmp_path / 'hier.yml', HIER)
    write(tmp_path / 'data' / 'nodes' / 'web01.yml', 'Role: web\n')
    write(tmp_path / 'data' / 'nodes' / 'db01.yml', 'Role: db\nSite: ber\n')
    write(tmp_path / 'data' / 'roles' / 'web.yml', 'packages: [nginx]\n')
    write(tmp_path / 'data' / 'sites' / 'ber.yml', 'tz: Europe/Berlin\n')
    write(tmp_path / 'data' / 'common.yml', 'packages: [chrony]\n')
    return tmp_path


def parse(tmp_path, options=''):
    """The inventory of a source over the project's configuration, and the warnings its parse gave."""
    config = next(name for name in ('hier.yml', 'Datum.yml', 'hiera.yaml') if (tmp_path / name).exists())
    write(tmp_path / 'nodes.hier.yml', 'plugin: strata.hier.hier\nconfig: %s\n%s' % (config, options))
    plugin = inventory_loader.get('strata.hier.hier')
    inventory, warnings = InventoryData(), []
    with warnings_seen(plugin.display, warnings):
        plugin.parse(inventory, DataLoader(), str(tmp_path / 'nodes.hier.yml'), cache=False)
    return inventory, warnings


def test_a_level_no_host_fills_is_one_warning_naming_level_variable_and_line(project):
    inventory, warnings = parse(project)
    warning, = warnings             # one for the level, not one per host; none for sites/%{Site} (db01 fills it)
    assert "%s:4: level 'roles/%%{Rol}': variable 'Rol' is undefined for both hosts" % (project / 'hier.yml') in warning
    assert 'the level is skipped' in warning and 'strict_levels: true in hier.yml' in warning
    assert inventory.get_host('web01').vars['packages'] == ['chrony']      # the data is still what the levels say


def test_a_level_some_hosts_fill_is_no_warning(project):
    write(project / 'hier.yml', HIER.replace('%{Rol}', '%{Role}'))
    assert parse(project)[1] == []


def test_a_mapped_level_over_an_undefined_list_is_warned_but_not_one_over_an_empty_list(project):
    write(project / 'hier.yml', HIER.replace('"roles/%{Rol}"', '{mapped_paths: [Roels, role, "roles/%{role}"]}'))
    warning, = parse(project)[1]
    assert ":4: level 'mapped_paths [Roels, role, roles/%{role}]': variable 'Roels' is undefined" in warning
    write(project / 'data' / 'nodes' / 'web01.yml', 'Roels: []\n')
    assert parse(project)[1] == []


@pytest.mark.parametrize('where', ['configuration', 'source'])
def test_strict_levels_makes_one_host_without_the_variable_an_error(project, where):
    strict = 'strict_levels: true\n'
    write(project / 'hier.yml', HIER.replace('%{Rol}', '%{Role}') + (strict if where == 'configuration' else ''))
    with pytest.raises(AnsibleParserError) as caught:
        parse(project, strict if where == 'source' else '')
    message = str(caught.value)
    assert "host web01: %s:5: level 'sites/%%{Site}': variable 'Site' is undefined" % (project / 'hier.yml') in message
    assert 'strict_levels' in message


def test_strict_levels_passes_when_every_level_variable_is_defined(project):
    hier = HIER.replace('%{Rol}', '%{Role}').replace('  - "sites/%{Site}"\n', '')
    write(project / 'hier.yml', hier + 'strict_levels: true\n')
    inventory, warnings = parse(project)
    assert warnings == [] and inventory.get_host('web01').vars['packages'] == ['nginx']


@pytest.mark.parametrize('value, kind', [('"yes"', 'a string'), ('1', 'a number'), ('null', 'null'),
                                         ('[true]', 'a list')])
def test_strict_levels_must_be_a_boolean(project, value, kind):
    write(project / 'hier.yml', HIER + 'strict_levels: %s\n' % value)
    with pytest.raises(ConfigError, match=r'hier\.yml:8: strict_levels must be true or false, not %s$' % kind):
        load_config(str(project / 'hier.yml'), DataLoader())


def test_the_warning_comes_back_from_the_inventory_cache(project, monkeypatch):
    cache = 'cache: true\ncache_plugin: ansible.builtin.jsonfile\ncache_connection: %s\n' % (project / 'cache')
    first = parse(project, cache)[1]
    plugin = inventory_loader.get('strata.hier.hier')
    monkeypatch.setattr(type(plugin), '_merge_nodes', lambda *args: pytest.fail('merged again, not from the cache'))
    inventory, warnings = InventoryData(), []
    with warnings_seen(plugin.display, warnings):
        plugin.parse(inventory, DataLoader(), str(project / 'nodes.hier.yml'), cache=True)
    assert len(first) == 1 and warnings == first
    assert inventory.get_host('db01').vars['tz'] == 'Europe/Berlin'


# --- Datum.yml

DATUM = r"""ResolutionPrecedence:
  - 'AllNodes\$($Node.Environment)\$($Node.NodeName)'
  - 'Roles\$($Node.Rol)'
  - 'Baseline'
"""


@pytest.fixture
def datum(tmp_path):
    write(tmp_path / 'Datum.yml', DATUM)
    write(tmp_path / 'AllNodes' / 'Dev' / 'web01.yml', 'NodeName: web01\nEnvironment: Dev\nRole: web\n')
    write(tmp_path / 'AllNodes' / 'Dev' / 'db01.yml', 'NodeName: db01\nEnvironment: Dev\nRole: db\n')
    write(tmp_path / 'Roles' / 'web.yml', 'Packages: [nginx]\n')
    write(tmp_path / 'Baseline.yml', 'Packages: [chrony]\n')
    return tmp_path


def test_datum_a_level_no_node_fills_is_named_as_written_with_its_line(datum):
    warning, = parse(datum)[1]
    assert "%s:3: level 'Roles\\\\$($Node.Rol)': variable 'Rol' is undefined for both hosts" % (datum / 'Datum.yml') \
        in warning
    assert 'StrictLevels: true in Datum.yml' in warning


def test_datum_strict_levels_key_in_any_case(datum):
    write(datum / 'Datum.yml', DATUM.replace('ResolutionPrecedence', 'resolutionprecedence') + 'strictLevels: true\n')
    with pytest.raises(AnsibleParserError, match=r"host db01: .*Datum\.yml:3: level 'Roles\\\\\$\(\$Node\.Rol\)': "
                                                 r"variable 'Rol' is undefined"):
        parse(datum)
    write(datum / 'Datum.yml', DATUM + 'StrictLevels: 1\n')
    with pytest.raises(ConfigError, match=r'Datum\.yml:5: StrictLevels must be true or false, not a number'):
        load_config(str(datum / 'Datum.yml'), DataLoader())


# --- hiera.yaml

HIERA = '''version: 5
defaults: {datadir: data, data_hash: yaml_data}
hierarchy:
  - {name: node, path: "nodes/%{trusted.certname}.yaml"}
  - {name: role, path: "roles/%{facts.rol}.yaml"}
  - {name: site, path: "sites/%{facts.site}.yaml"}
  - {name: common, path: common.yaml}
'''


@pytest.fixture
def hiera(tmp_path):
    write(tmp_path / 'hiera.yaml', HIERA)
    write(tmp_path / 'data' / 'nodes' / 'web01.yaml', 'port: 80\n')
    write(tmp_path / 'data' / 'nodes' / 'db01.yaml', 'port: 5432\n')
    write(tmp_path / 'data' / 'common.yaml', 'ntp: [a]\n')
    write(tmp_path / 'facts' / 'web01.yaml', 'role: web\nsite: ber\n')
    write(tmp_path / 'facts' / 'db01.yaml', 'role: db\n')
    return tmp_path


def test_hiera_a_level_no_node_fills_is_one_warning(hiera):
    inventory, warnings = parse(hiera, 'nodes: data/nodes/*.yaml\nfacts_dir: facts\n')
    warning, = warnings             # site: web01 has one
    assert "%s:5: level 'role': variable 'facts.rol' is undefined for both hosts" % (hiera / 'hiera.yaml') in warning
    assert 'Hiera reads its paths with it empty' in warning and 'strict_levels: true in the inventory source' in warning
    assert inventory.get_host('db01').vars['port'] == 5432


def test_hiera_strict_levels_is_the_sources_option(hiera):
    write(hiera / 'hiera.yaml', HIERA.replace('facts.rol', 'facts.role'))
    with pytest.raises(AnsibleParserError, match=r"host db01: .*hiera\.yaml:6: level 'site': variable 'facts\.site' "
                                                 r"is undefined"):
        parse(hiera, 'nodes: data/nodes/*.yaml\nfacts_dir: facts\nstrict_levels: true\n')


# --- the vars plugin and the lookup

def static_inventory():
    data = InventoryData()
    data.add_host('web01')
    data.add_host('db01')
    data.set_variable('web01', 'Role', 'web')
    data.set_variable('db01', 'Role', 'db')
    data.set_variable('db01', 'Site', 'ber')
    data.reconcile_inventory()
    return data


def test_vars_plugin_warns_once_per_configuration_about_a_level_no_host_of_the_inventory_fills(project):
    loader = DataLoader()
    loader.set_basedir(str(project))
    plugin = vars_loader.get('strata.hier.hier')
    plugin.set_options()
    data, warnings = static_inventory(), []
    with warnings_seen(plugin._display, warnings):
        for name in ('web01', 'db01', 'web01'):
            plugin.get_vars(loader, str(project), [data.get_host(name)])
    warning, = warnings
    assert "%s:4: level 'roles/%%{Rol}': variable 'Rol' is undefined for both hosts" % (project / 'hier.yml') in warning


def test_vars_plugin_strict_levels_names_the_host(project):
    write(project / 'hier.yml', HIER.replace('%{Rol}', '%{Role}') + 'strict_levels: true\n')
    loader = DataLoader()
    loader.set_basedir(str(project))
    plugin = vars_loader.get('strata.hier.hier')
    plugin.set_options()
    with pytest.raises(AnsibleError, match=r"host web01: .*hier\.yml:5: level 'sites/%\{Site\}': variable 'Site'"):
        plugin.get_vars(loader, str(project), [static_inventory().get_host('web01')])


@pytest.mark.parametrize('verbosity', [0, 1])
def test_a_lookup_says_at_v_which_level_an_undefined_variable_skips(project, monkeypatch, verbosity):
    loader = DataLoader()
    plugin = lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader))
    display = sys.modules[type(plugin).__module__].display
    said = []
    monkeypatch.setattr(display, 'verbosity', verbosity)
    monkeypatch.setattr(display, 'v', lambda message, *args, **kwargs: said.append(message))
    variables = {'inventory_hostname': 'web01', 'Role': 'web'}
    assert plugin.run(['packages'], variables, config=str(project / 'hier.yml')) == [['chrony']]
    assert said == ([] if not verbosity else [
        "strata.hier.hier web01: %s:4: level 'roles/%%{Rol}': variable 'Rol' is undefined for this host, so the level "
        "is skipped" % (project / 'hier.yml'),
        "strata.hier.hier web01: %s:5: level 'sites/%%{Site}': variable 'Site' is undefined for this host, so the "
        "level is skipped" % (project / 'hier.yml')])


def test_a_hiera_lookup_says_at_v_which_level_reads_an_undefined_variable(hiera, monkeypatch):
    loader = DataLoader()
    plugin = lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader))
    display = sys.modules[type(plugin).__module__].display
    said = []
    monkeypatch.setattr(display, 'verbosity', 1)
    monkeypatch.setattr(display, 'v', lambda message, *args, **kwargs: said.append(message))
    variables = {'inventory_hostname': 'web01', 'site': 'ber'}
    assert plugin.run(['ntp', 'port'], variables, config=str(hiera / 'hiera.yaml')) == [['a'], 80]
    assert said == ["strata.hier.hier web01: %s:5: level 'role': variable 'facts.rol' is undefined for this host, so "
                    "Hiera reads its paths with it empty" % (hiera / 'hiera.yaml')]


def test_undefined_levels_keeps_the_levels_every_host_leaves_without_data():
    from ansible_collections.strata.hier.plugins.plugin_utils.undefined_levels import UndefinedLevels
    levels = UndefinedLevels()
    levels.add({1: ('A',), 2: ('B',)})
    levels.add({1: ('C',)})
    levels.add({1: ('A',), 3: ('D',)})
    warning, = levels.warnings(lambda index: 'level %d' % index, 'skipped', 'hint')
    assert warning == "level 1: variables 'A', 'C' are undefined for every host (3), so skipped; a misspelt " \
                      "variable? (hint)"
    assert UndefinedLevels().warnings(str, 'skipped', 'hint') == []
