# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Lookup benchmark: 1,000 hosts each looking up 5 keys in generated data.

In one process (the lookup plugin called as Ansible calls it):
- time per lookup, against a baseline of the same 5,000 answers computed by
  parsing each host's files with yaml.CSafeLoader and merging them with a plain
  recursive merge (what a hand-written script would do);
- how many files were parsed: it must equal the number of distinct files.
With --play, also a real ansible-playbook run over the same hosts, against the
same play with the lookups replaced by constants.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import yaml

from ansible.parsing.dataloader import DataLoader
from ansible.plugins.loader import init_plugin_loader, lookup_loader
from ansible.template import Templar

HOSTS = 1000
ENVIRONMENTS = ('dev', 'test', 'prod')
ROLES = tuple('role%d' % index for index in range(10))
LOCATIONS = tuple('site%d' % index for index in range(5))
KEYS = ('Packages', 'Features', 'Network', 'Timezone', 'Settings')
CONFIG = """datadir: data
hierarchy:
  - "nodes/%{Environment}/%{inventory_hostname}"
  - "locations/%{Location}"
  - "environments/%{Environment}"
  - "roles/%{Role}"
  - "baselines/common"
lookup_options:
  Packages: {merge_hash_array: DeepTuple, merge_options: {tuple_keys: [Name]}}
  Features: Unique
  Network: hash
  Settings: deep
"""


def layer(index: int) -> dict:
    return {
        'Packages': [{'Name': 'pkg%d' % ((index + item) % 40), 'Version': str(index), 'Opts': {'a': item}}
                     for item in range(8)],
        'Features': ['feat%d' % ((index * 3 + item) % 30) for item in range(6)],
        'Network': {'Dns': '10.0.%d.1' % (index % 250), 'Gw%d' % (index % 4): '10.0.0.254'},
        'Timezone': 'Zone%d' % index,
        'Settings': {'Level%d' % (index % 3): {'a': index, 'b': [index]}, 'Shared': {'x%d' % index: 1}},
    }


def host_vars(index: int) -> dict:
    return {'inventory_hostname': 'node%04d' % index, 'Environment': ENVIRONMENTS[index % 3],
            'Role': ROLES[index % len(ROLES)], 'Location': LOCATIONS[index % len(LOCATIONS)]}


def generate(root: str) -> int:
    """Write the store; return the number of distinct data files."""
    files = {'baselines/common': layer(0)}
    files.update({'roles/%s' % role: layer(10 + number) for number, role in enumerate(ROLES)})
    files.update({'environments/%s' % env: layer(30 + number) for number, env in enumerate(ENVIRONMENTS)})
    files.update({'locations/%s' % site: layer(40 + number) for number, site in enumerate(LOCATIONS)})
    for index in range(HOSTS):
        variables = host_vars(index)
        files['nodes/%s/%s' % (variables['Environment'], variables['inventory_hostname'])] = layer(100 + index)
    for name, data in files.items():
        path = os.path.join(root, 'data', name + '.yml')
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as stream:
            yaml.safe_dump(data, stream, sort_keys=False)
    with open(os.path.join(root, 'hier.yml'), 'w') as stream:
        stream.write(CONFIG)
    return len(files)


def plain_merge(base, override):
    if isinstance(base, dict) and isinstance(override, dict):
        merged = dict(base)
        for key, value in override.items():
            merged[key] = plain_merge(merged[key], value) if key in merged else value
        return merged
    return override


def baseline(root: str) -> float:
    """Parse each host's level files with CSafeLoader and merge them plainly."""
    start = time.perf_counter()
    for index in range(HOSTS):
        variables = host_vars(index)
        paths = ['nodes/%s/%s' % (variables['Environment'], variables['inventory_hostname']),
                 'locations/' + variables['Location'], 'environments/' + variables['Environment'],
                 'roles/' + variables['Role'], 'baselines/common']
        documents = []
        for path in paths:
            with open(os.path.join(root, 'data', path + '.yml')) as stream:
                documents.append(yaml.load(stream, Loader=yaml.CSafeLoader))
        for key in KEYS:
            value = None
            for document in reversed(documents):
                value = plain_merge(value, document.get(key))
    return time.perf_counter() - start


def in_process(root: str) -> float:
    loader = DataLoader()
    lookup = lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader))
    config = os.path.join(root, 'hier.yml')
    start = time.perf_counter()
    for index in range(HOSTS):
        results = lookup.run(list(KEYS), variables=host_vars(index), config=config)
        assert len(results) == len(KEYS)
    return time.perf_counter() - start


def play(root: str) -> tuple:
    """Real ansible-playbook runs: the lookups, then the same play with constants."""
    inventory = os.path.join(root, 'inventory.yml')
    with open(inventory, 'w') as stream:
        hosts = {}
        for index in range(HOSTS):
            variables = host_vars(index)
            hosts[variables.pop('inventory_hostname')] = variables
        yaml.safe_dump({'all': {'hosts': hosts, 'vars': {'ansible_connection': 'local'}}}, stream)
    timings = []
    for name, expression in (('lookups', "lookup('strata.hier.hier', '%s', config=cfg)"), ('constants', "'%s'")):
        playbook = os.path.join(root, name + '.yml')
        values = {key: '{{ %s }}' % (expression % key) for key in KEYS}
        with open(playbook, 'w') as stream:
            yaml.safe_dump([{'hosts': 'all', 'gather_facts': False, 'vars': {'cfg': os.path.join(root, 'hier.yml')},
                             'tasks': [{'ansible.builtin.set_fact': values}]}], stream)
        start = time.perf_counter()
        subprocess.run([os.path.join(os.path.dirname(sys.executable), 'ansible-playbook'), '-i', inventory,
                        '-f', '10', playbook], check=True, stdout=subprocess.DEVNULL)
        timings.append(time.perf_counter() - start)
    return tuple(timings)


def count_parses() -> dict:
    """Wraps the store's parser: the returned counter holds how many files it parsed in this process."""
    from ansible_collections.strata.hier.plugins.plugin_utils import store
    count = {'files': 0}
    load_untrusted = store.load_untrusted

    def counted(loader, path, error):
        if error is store.StoreError:       # a data file (the configuration is read through it too)
            count['files'] += 1
        return load_untrusted(loader, path, error)
    store.load_untrusted = counted
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--play', action='store_true', help='also time a real ansible-playbook run')
    args = parser.parse_args()
    init_plugin_loader()   # the collection loader, before anything imports ansible_collections
    parses = count_parses()
    with tempfile.TemporaryDirectory() as root:
        distinct = generate(root)
        plain = baseline(root)
        before = parses['files']
        cold = in_process(root)
        parsed = parses['files'] - before
        warm = in_process(root)
        lookups = HOSTS * len(KEYS)
        print('hosts %d, keys per host %d, distinct data files %d' % (HOSTS, len(KEYS), distinct))
        print('baseline: CSafeLoader + plain merge per host   %8.1f ms  (%.3f ms per lookup)'
              % (plain * 1000, plain * 1000 / lookups))
        print('strata lookup, first pass (parsing)          %8.1f ms  (%.3f ms per lookup, %.2fx baseline)'
              % (cold * 1000, cold * 1000 / lookups, cold / plain))
        print('strata lookup, second pass (files cached)    %8.1f ms  (%.3f ms per lookup, %.2fx baseline)'
              % (warm * 1000, warm * 1000 / lookups, warm / plain))
        print('files parsed in this process: %d for %d lookups (distinct files: %d)%s'
              % (parsed, lookups, distinct, '' if parsed == distinct else '  <-- MISMATCH'))
        if args.play:
            with_lookups, with_constants = play(root)
            print('ansible-playbook, 1 task x %d hosts: lookups %.1f s, constants %.1f s, ratio %.2fx; '
                  '%.2f ms per lookup over the constant play'
                  % (HOSTS, with_lookups, with_constants, with_lookups / with_constants,
                     (with_lookups - with_constants) * 1000 / lookups))


if __name__ == '__main__':
    main()
