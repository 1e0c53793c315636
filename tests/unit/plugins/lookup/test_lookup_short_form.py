# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The short form: the lookup loaded under another name, and its configuration found without config= (issue 11)."""

from __future__ import annotations

import os

import pytest

from ansible.errors import AnsibleError
from ansible.parsing.dataloader import DataLoader
from ansible.template import Templar

from ansible_collections.strata.hier.plugins.lookup.hier import LookupModule


def write(path, text):
    os.makedirs(os.path.dirname(str(path)), exist_ok=True)
    with open(str(path), 'w') as stream:
        stream.write(text)


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.delenv('STRATA_HIER_CONFIG', raising=False)
    write(tmp_path / 'data' / 'Common.yml', 'Packages: [base]\nTimezone: UTC\n')
    write(tmp_path / 'data' / 'Nodes' / 'n1.yml', 'Packages: [extra]\n')
    write(tmp_path / 'hier.yml', 'datadir: data\nhierarchy: ["Nodes/%{Node}", Common]\nlookup_options: {Packages: Unique}\n')
    return tmp_path


def reexported(basedir, name='hier_short_form_test'):
    """The lookup as a one-line re-export loads it: another load name, no DOCUMENTATION of its own."""
    loader = DataLoader()
    loader.set_basedir(str(basedir))
    plugin = LookupModule(loader=loader, templar=Templar(loader=loader))
    plugin._load_name = name
    return plugin


def test_every_option_works_under_another_load_name(project):
    plugin = reexported(project)
    assert plugin.run(['Packages'], {'Node': 'n1'}) == [['extra', 'base']]
    assert plugin.run(['Missing'], {'Node': 'n1'}, default='none') == ['none']
    assert plugin.run(['Packages'], {'Node': 'n1'}, merge='MostSpecific') == [['extra']]
    report, = plugin.run(['Timezone'], {'Node': 'n1'}, explain=True, config=str(project / 'hier.yml'))
    assert report['value'] == 'UTC' and report['levels'][1]['file'] == 'Common.yml'


def test_discovery_order_playbook_folder_then_inventory_then_setting(project, tmp_path_factory, monkeypatch):
    playbooks = tmp_path_factory.mktemp('playbooks')
    inventory = tmp_path_factory.mktemp('inventory')
    os.rename(str(project / 'hier.yml'), str(inventory / 'hier.yml'))
    write(inventory / 'hier.yml', open(str(inventory / 'hier.yml')).read().replace('datadir: data',
                                                                                   'datadir: %s' % (project / 'data')))
    sources = {'Node': 'n1', 'ansible_inventory_sources': [str(inventory / 'hosts.yml')]}
    assert reexported(playbooks).run(['Packages'], sources) == [['extra', 'base']]      # beside the inventory
    write(playbooks / 'Datum.yml', 'ResolutionPrecedence: [Common]\n')
    write(playbooks / 'Common.yml', 'Packages: [from_playbook_folder]\n')
    assert reexported(playbooks).run(['Packages'], sources) == [['from_playbook_folder']]     # playbook folder first
    monkeypatch.setenv('STRATA_HIER_CONFIG', str(inventory / 'hier.yml'))
    assert reexported(playbooks).run(['Packages'], sources) == [['from_playbook_folder']]     # the setting last
    assert reexported(project).run(['Packages'], {'Node': 'n1'}) == [['extra', 'base']]


def test_no_configuration_lists_the_places_searched(tmp_path, monkeypatch):
    monkeypatch.delenv('STRATA_HIER_CONFIG', raising=False)
    inventory = tmp_path / 'inv'
    inventory.mkdir()
    with pytest.raises(AnsibleError) as caught:
        reexported(tmp_path).run(['Packages'], {'ansible_inventory_sources': [str(inventory / 'hosts'), 'a,b']})
    message = str(caught.value)
    for place in (tmp_path / 'hier.yml', tmp_path / 'hiera.yaml', tmp_path / 'Datum.yml', inventory / 'hier.yml',
                  inventory / 'Datum.yml'):
        assert str(place) in message
    assert 'STRATA_HIER_CONFIG' in message and 'a,b' not in message
