# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Vars plugin benchmark: a static inventory of 2,000 hosts with the strata.hier.hier vars plugin, against the same
inventory with the same merged data written as host_vars/ files (issue 11).

The store is bench_inventory.py's (5 levels, 22 merged keys per host); the static inventory gives each host the four
variables its levels need. Measured in the same run, each as wall time, CPU time (the child's rusage, its forked
workers included) and peak memory (the largest maxrss of the child and its workers):
- ``ansible-inventory --list``;
- ``ansible-playbook`` of a trivial play (one debug task reading a merged variable on every host).
Ratios are against the host_vars/ baseline, judged on CPU time; target <= 1.5x. The data files are parsed once per
run: the play's debug output checks the answers, and the parse count is printed from an in-process run.

Run with the collection on ANSIBLE_COLLECTIONS_PATH (scripts/bench does that); --hosts picks another size.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

import yaml

from bench_inventory import ENVIRONMENTS, generate, host_vars_of, line  # pylint: disable=import-error
from bench_lookup import count_parses  # pylint: disable=import-error

TARGET = 1.5
LEVEL_VARS = ('NodeName', 'Environment', 'Role', 'Location')
PLAY = """- hosts: all
  gather_facts: false
  connection: local
  tasks:
    - ansible.builtin.debug:
        msg: "{{ Timezone }} {{ Packages | length }}"
"""


def run(command: list, env: dict, output: str) -> tuple:
    """(wall seconds, CPU seconds, peak MiB) of one command, stdout to ``output``."""
    with open(output, 'wb') as out, open(output + '.err', 'wb') as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=err, env=env)
        _pid, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status):
        with open(output + '.err') as stream:
            sys.exit('%s failed:\n%s' % (' '.join(command), stream.read()[-3000:]))
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


def tool(name: str) -> str:
    return os.path.join(os.path.dirname(sys.executable), name)


def write_inventory(folder: str, files: dict) -> list:
    """hosts.yml in ``folder``: every node as a host with the variables its levels read; the host names."""
    hosts = {}
    for name, data in files.items():
        if name.startswith('AllNodes/'):
            hosts[data['NodeName']] = {key: data[key] for key in LEVEL_VARS}
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, 'hosts.yml'), 'w') as stream:
        yaml.dump({'all': {'hosts': hosts}}, stream, Dumper=yaml.CSafeDumper, default_flow_style=False)
    with open(os.path.join(folder, 'play.yml'), 'w') as stream:
        stream.write(PLAY)
    return sorted(hosts)


def write_host_vars(folder: str, merged: dict) -> None:
    """The baseline: the vars plugin's answers as host_vars/<host>.yml files beside a copy of the inventory."""
    os.makedirs(os.path.join(folder, 'host_vars'), exist_ok=True)
    for host, variables in merged.items():
        data = {key: value for key, value in variables.items() if key not in LEVEL_VARS}
        with open(os.path.join(folder, 'host_vars', host + '.yml'), 'w') as stream:
            yaml.dump(data, stream, Dumper=yaml.CSafeDumper, default_flow_style=False)


def environment(root: str, plugins: str) -> dict:
    return dict(os.environ, ANSIBLE_VARS_ENABLED=plugins, STRATA_HIER_CONFIG=os.path.join(root, 'hier.yml'),
                ANSIBLE_INVENTORY_ENABLED='yaml', ANSIBLE_HOST_KEY_CHECKING='false')


def bench(size: int) -> None:
    root = tempfile.mkdtemp(prefix='bench-vars-')
    files = generate(root, size)
    plugin_dir, baseline_dir = os.path.join(root, 'vars_plugin'), os.path.join(root, 'host_vars_files')
    hosts = write_inventory(plugin_dir, files)
    shutil.copytree(plugin_dir, baseline_dir)
    with_plugin = environment(root, 'host_group_vars,strata.hier.hier')
    baseline = environment(root, 'host_group_vars')
    listing = os.path.join(plugin_dir, 'list.json')
    plugin_list = run([tool('ansible-inventory'), '-i', os.path.join(plugin_dir, 'hosts.yml'), '--list'], with_plugin,
                      listing)
    merged = host_vars_of(listing)
    assert sorted(merged) == hosts and all(len(merged[host]) > 20 for host in hosts)
    write_host_vars(baseline_dir, merged)
    baseline_list = run([tool('ansible-inventory'), '-i', os.path.join(baseline_dir, 'hosts.yml'), '--list'], baseline,
                        os.path.join(baseline_dir, 'list.json'))
    assert host_vars_of(os.path.join(baseline_dir, 'list.json')) == merged, 'the baseline holds other data'
    play = [tool('ansible-playbook'), '-i', 'hosts.yml', 'play.yml', '-f', '5']
    baseline_play = _in(baseline_dir, lambda: run(play, baseline, os.path.join(baseline_dir, 'play.out')))
    plugin_play = _in(plugin_dir, lambda: run(play, with_plugin, os.path.join(plugin_dir, 'play.out')))
    print('%d hosts, %d data files (%s environments)' % (size, len(files), len(ENVIRONMENTS)))
    print('%-52s %7s %7s  %6s  %6s %6s' % ('', 'wall s', 'cpu s', 'MiB', 'cpu', 'wall'))
    line('ansible-inventory --list, host_vars/ files', *baseline_list[:2], peak=baseline_list[2])
    line('ansible-inventory --list, vars plugin', *plugin_list[:2], static=baseline_list, peak=plugin_list[2],
         target=TARGET)
    line('ansible-playbook (1 debug task), host_vars/ files', *baseline_play[:2], peak=baseline_play[2])
    line('ansible-playbook (1 debug task), vars plugin', *plugin_play[:2], static=baseline_play, peak=plugin_play[2],
         target=TARGET)
    parsed = parse_count(root, plugin_dir)
    print('vars plugin answering every host twice, in process: %d file parses for %d data files' % (parsed, len(files)))
    shutil.rmtree(root)


def parse_count(root: str, plugin_dir: str) -> int:
    """How many files the store parses while the vars plugin answers every host twice, in this process."""
    from ansible.inventory.manager import InventoryManager
    from ansible.parsing.dataloader import DataLoader
    from ansible.plugins.loader import init_plugin_loader, vars_loader
    init_plugin_loader()     # installs the collection finder: then the collection imports
    parses = count_parses()
    os.environ['STRATA_HIER_CONFIG'] = os.path.join(root, 'hier.yml')
    loader = DataLoader()
    inventory = InventoryManager(loader, [os.path.join(plugin_dir, 'hosts.yml')])
    plugin = vars_loader.get('strata.hier.hier')
    for _round in range(2):
        for host in inventory.get_hosts():
            plugin.get_vars(loader, plugin_dir, [host])
    return parses['files']


def _in(folder: str, func):
    here = os.getcwd()
    os.chdir(folder)
    try:
        return func()
    finally:
        os.chdir(here)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--hosts', type=int, default=2000)
    bench(parser.parse_args().hosts)


if __name__ == '__main__':
    main()
