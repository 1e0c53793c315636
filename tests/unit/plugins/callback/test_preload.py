# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The preload callback: the lookup loaded in the process that forks the workers, which then import none of it."""

from __future__ import annotations

import pytest

from ansible_collections.strata.hier.tests.unit.plugins.fresh_process import run_fresh, write_role_store

# A fresh process standing for ansible-playbook's main one: the callback (enabled or not) sees the playbook start,
# then a forked worker runs a lookup; prints what the parent had loaded and what the worker had to import.
PLAY = '''
import json, os, sys
from ansible import constants as C
from ansible.parsing.dataloader import DataLoader
from ansible.plugins.loader import callback_loader, init_plugin_loader, lookup_loader
from ansible.template import Templar
init_plugin_loader([sys.argv[1]])
OURS = 'ansible_collections.strata.hier.plugins.'

def ours():
    return {name for name in sys.modules if name.startswith(OURS)}

if sys.argv[3] == 'enabled':
    callback_loader.get('strata.hier.preload').v2_playbook_on_start(None)
# Ansible registers a plugin's options under its module's name
parent = {'modules': sorted(ours()), 'options': C.config.has_configuration_definition('lookup', OURS + 'lookup.hier')}
reader, writer = os.pipe()
if os.fork() == 0:
    before = ours()
    loader = DataLoader()
    lookup = lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader))
    value = lookup.run(['Packages'], variables={'inventory_hostname': 'web1', 'role': 'web'}, config=sys.argv[2])
    os.write(writer, json.dumps({'imported': sorted(ours() - before), 'value': value}).encode())
    os._exit(0)
os.close(writer)
with os.fdopen(reader) as stream:
    worker = json.load(stream)
os.wait()
print(json.dumps({'parent': parent, 'worker': worker}))
'''


@pytest.fixture
def store(tmp_path):
    return write_role_store(tmp_path, 'Unique', common='[base, ssh]', web='[nginx, ssh]')


def play(config, callback):
    return run_fresh(PLAY, config, callback)


def test_with_the_callback_the_workers_import_nothing_of_the_lookup(store):
    report = play(store, 'enabled')
    assert 'ansible_collections.strata.hier.plugins.lookup.hier' in report['parent']['modules']
    assert 'ansible_collections.strata.hier.plugins.module_utils.core.merging' in report['parent']['modules']
    assert report['parent']['options'] is True      # the worker does not parse the lookup's DOCUMENTATION again
    assert report['worker'] == {'imported': [], 'value': [['nginx', 'ssh', 'base']]}


def test_without_it_each_worker_imports_the_lookup_itself(store):
    report = play(store, 'disabled')
    assert report['parent'] == {'modules': [], 'options': False}
    assert 'ansible_collections.strata.hier.plugins.lookup.hier' in report['worker']['imported']
    assert report['worker']['value'] == [['nginx', 'ssh', 'base']]
