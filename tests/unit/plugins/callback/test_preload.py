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


# The callback sees the playbook and the play start in the process that forks; then, possibly after a data file
# changed (argv[4]: path, argv[5]: its new text, written with a later mtime), a forked worker looks up Packages,
# without config= (discovered beside the playbook, the loader's folder) or with argv[3]'s. Prints the worker's
# value (or error) and how many files it parsed or read back from the run's folder.
PLAY_DATA = '''
import json, os, sys
from ansible.parsing.dataloader import DataLoader
from ansible.plugins.loader import callback_loader, init_plugin_loader, lookup_loader
from ansible.template import Templar
init_plugin_loader([sys.argv[1]])
playbook_dir, enabled, config, changed, text = sys.argv[2:7]
loader = DataLoader()
loader.set_basedir(playbook_dir)

class Play:
    name, _loader = 'play', loader

if enabled == 'enabled':
    callback = callback_loader.get('strata.hier.preload')
    callback.v2_playbook_on_start(None)
    callback.v2_playbook_on_play_start(Play())
if changed:
    before = os.stat(changed).st_mtime_ns
    with open(changed, 'w') as stream:
        stream.write(text)
    os.utime(changed, ns=(before + 10 ** 9, before + 10 ** 9))
reader, writer = os.pipe()
if os.fork() == 0:
    from ansible_collections.strata.hier.plugins.plugin_utils import parse
    counts = dict(parse.COUNTS)
    lookup = lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader))
    options = {'config': config} if config else {}
    try:
        report = {'value': lookup.run(['Packages'], variables={'inventory_hostname': 'web1', 'role': 'web'},
                                      **options)}
    except Exception as exc:
        report = {'error': '%s: %s' % (type(exc).__name__, exc)}
    report['read'] = sum(parse.COUNTS.values()) - sum(counts.values())
    os.write(writer, json.dumps(report).encode())
    os._exit(0)
os.close(writer)
with os.fdopen(reader) as stream:
    worker = json.load(stream)
os.wait()
print(json.dumps(worker))
'''


def play_data(folder, callback, config='', changed='', text=''):
    return run_fresh(PLAY_DATA, folder, callback, config, changed, text)


def test_with_the_callback_the_worker_finds_the_data_parsed(store, tmp_path):
    assert play_data(tmp_path, 'enabled') == {'value': [['nginx', 'ssh', 'base']], 'read': 0}
    without = play_data(tmp_path, 'disabled')
    assert without['value'] == [['nginx', 'ssh', 'base']] and without['read'] == 3      # the hier.yml and two data files


@pytest.mark.parametrize('text', ['Packages: [apache]\n', 'Packages: [nginx, tls]\n'])   # the second: same size
def test_a_file_changed_after_the_preload_is_read_again(store, tmp_path, text):
    web = str(tmp_path / 'data' / 'roles' / 'web.yml')
    preloaded = play_data(tmp_path, 'enabled', changed=web, text=text)
    assert preloaded['read'] == 1       # the changed file only
    assert preloaded['value'] == play_data(tmp_path, 'disabled', changed=web, text=text)['value']
    assert preloaded['value'] != [['nginx', 'ssh', 'base']]


def test_a_lookup_with_another_config_reads_its_own(store, tmp_path):
    other = write_role_store(tmp_path / 'other', 'Unique', common='[other]', web='[web]')
    assert play_data(tmp_path, 'enabled', config=other) == {'value': [['web', 'other']], 'read': 3}


def test_a_broken_data_file_fails_the_lookup_as_without_the_callback(store, tmp_path):
    (tmp_path / 'data' / 'roles' / 'web.yml').write_text('Packages: [nginx\n')
    preloaded = play_data(tmp_path, 'enabled')
    assert 'web.yml' in preloaded['error']
    assert preloaded['error'] == play_data(tmp_path, 'disabled')['error']


def test_no_configuration_found_preloads_nothing_and_fails_nowhere(tmp_path):
    report = play_data(tmp_path, 'enabled')
    assert 'no hierarchy configuration found' in report['error']
    assert report['error'] == play_data(tmp_path, 'disabled')['error']
