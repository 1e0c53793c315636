# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Lookup benchmark: 1,000 hosts each looking up 5 keys in generated data (issue 13, targets 1, 2, 3 and 5).

In one process (the lookup plugin called as Ansible calls it; CPU times, which other work on a shared machine
disturbs far less than wall time):
- time per lookup, against a baseline of the same 5,000 answers computed by
  parsing each host's files with yaml.CSafeLoader and merging them with a plain
  recursive merge (what a hand-written script would do);
- how many files were parsed: it must equal the number of distinct files;
- parsing every data file with the collection's parser against DataLoader (target 5: >= 2x faster).
In forked workers, as ansible-playbook runs a task (a parent that has not loaded the collection forks one worker
per host): the CPU time of a host's first lookup above its later ones (target 1: <= 10 ms), without bytecode and
with Python's bytecode cache (plugin_utils/bytecode.py), the folders listed per lookup (target 2: 0) and how often
each file was parsed across the workers (target 3: at most once).
With --play, also real ansible-playbook runs over the same hosts, with Python's bytecode cache as by default: the
first lookup's cost above a later one in ansible-playbook's own workers (target 1: <= 10 ms), without and with the
collection's preload callback (which loads the lookup in the process that forks the workers). A whole play against
the same play reading static host_vars files and against Ansible's own lookup: bench_play.py.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
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


def layer(index: int, items: int = 8) -> dict:
    """One level file's data: the list of ``items`` maps overlaps the other levels' by its tuple key (bench_play.py: 20)."""
    return {
        'Packages': [{'Name': 'pkg%d' % ((index + item) % 40), 'Version': str(index), 'Opts': {'a': item}}
                     for item in range(items)],
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
    start = time.process_time()
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
    return time.process_time() - start


def in_process(root: str) -> float:
    loader = DataLoader()
    lookup = lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader))
    config = os.path.join(root, 'hier.yml')
    start = time.process_time()
    for index in range(HOSTS):
        results = lookup.run(list(KEYS), variables=host_vars(index), config=config)
        assert len(results) == len(KEYS)
    return time.process_time() - start


LOOKUP = "{{ lookup('%(lookup)s', '%(key)s', config=cfg) }}"
PLAYS = (       # the play against static host_vars files (and Ansible's own lookup): bench_play.py
    ('timed', LOOKUP, 'strata_timed', False),
    ('timed, preloaded', LOOKUP, 'strata_timed', True),
)
"""(name, each value's template, the lookup it names, with the preload callback):
'timed' plays call the lookup through TIMED_LOOKUP, which notes the CPU time of each call in the worker."""

TIMED_LOOKUP = '''
import os, time
from ansible.plugins.loader import lookup_loader
from ansible.plugins.lookup import LookupBase


class LookupModule(LookupBase):
    """strata.hier.hier, loaded and run in the call, which notes: host, CPU seconds (the bench's own wrapper)."""

    def run(self, terms, variables=None, **kwargs):
        start = time.process_time()
        lookup = lookup_loader.get('strata.hier.hier', loader=self._loader, templar=self._templar)
        result = lookup.run(terms, variables, **kwargs)
        spent = time.process_time() - start
        with open(os.environ['STRATA_BENCH_TIMINGS'], 'a') as stream:
            stream.write('%s %.9f\\n' % (variables['inventory_hostname'], spent))
        return result
'''


def play(root: str) -> dict:
    """Real ansible-playbook runs over the hosts (see PLAYS).

    Returns {name: (wall seconds, CPU seconds of ansible-playbook and its workers)}, and for each timed play
    {name: {host: [CPU seconds of each lookup call, in the order of the calls]}}.
    """
    inventory = os.path.join(root, 'inventory.yml')
    with open(inventory, 'w') as stream:
        hosts = {}
        for index in range(HOSTS):
            variables = host_vars(index)
            hosts[variables.pop('inventory_hostname')] = variables
        yaml.safe_dump({'all': {'hosts': hosts, 'vars': {'ansible_connection': 'local'}}}, stream)
    os.makedirs(os.path.join(root, 'lookup_plugins'), exist_ok=True)
    with open(os.path.join(root, 'lookup_plugins', 'strata_timed.py'), 'w') as stream:
        stream.write(TIMED_LOOKUP)
    timings, calls = {}, {}
    runs = list(PLAYS)
    for name, template, lookup, preload in runs:
        playbook = os.path.join(root, name.replace(', ', '_') + '.yml')
        values = {'Merged' + key: template % {'lookup': lookup, 'key': key} for key in KEYS}
        with open(playbook, 'w') as stream:
            yaml.safe_dump([{'hosts': 'all', 'gather_facts': False, 'vars': {'cfg': os.path.join(root, 'hier.yml')},
                             'tasks': [{'ansible.builtin.set_fact': values}]}], stream)
        noted = os.path.join(root, name.replace(', ', '_') + '.timings')
        wall, cpu = timed_child([os.path.join(os.path.dirname(sys.executable), 'ansible-playbook'),
                                 '-i', inventory, '-f', '10', playbook], preload, noted)
        best = timings.get(name, (wall, cpu))
        timings[name] = (min(wall, best[0]), min(cpu, best[1]))
        if lookup == 'strata_timed':
            calls[name] = {}
            with open(noted) as stream:
                for line in stream:
                    host, spent = line.split()
                    calls[name].setdefault(host, []).append(float(spent))
    return {'plays': timings, 'calls': calls}


def print_plays(results: dict) -> None:
    """The play against static host_vars (target 1: <= 1.2x), and what the first lookup on a host costs above a
    later one in ansible-playbook's own workers (target 1: <= 10 ms)."""
    for name, hosts in results['calls'].items():
        assert all(len(spent) == len(KEYS) for spent in hosts.values()) and len(hosts) == HOSTS, name
        above = statistics.median(spent[0] - statistics.median(spent[1:]) for spent in hosts.values())
        later = statistics.median(statistics.median(spent[1:]) for spent in hosts.values())
        print('ansible-playbook\'s workers%s: first lookup on a host %.1f ms CPU above a later one '
              '(median of %d hosts; a later one %.2f ms)  (target <= 10 ms)'
              % (', preload callback' if 'preloaded' in name else '', above * 1000, len(hosts), later * 1000))


def write_static_host_vars(root: str) -> None:
    """host_vars/<host>.yml next to the inventory: each host's 5 merged values, as the lookup gives them."""
    from ansible_collections.strata.hier.plugins.plugin_utils.compat import plain
    loader = DataLoader()
    lookup = lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader))
    os.makedirs(os.path.join(root, 'host_vars'), exist_ok=True)
    for index in range(HOSTS):
        variables = host_vars(index)
        values = lookup.run(list(KEYS), variables=variables, config=os.path.join(root, 'hier.yml'))
        with open(os.path.join(root, 'host_vars', variables['inventory_hostname'] + '.yml'), 'w') as stream:
            yaml.safe_dump(dict(zip(KEYS, plain(values))), stream)


def timed_child(command: list, preload: bool = False, timings: str = '') -> tuple:
    """(wall, CPU) of a command and the processes it waited for; ``preload``: with the preload callback enabled;
    ``timings``: the file the bench's timed lookup notes its calls in."""
    environment = python_environment(bytecode=True)
    if preload:
        environment['ANSIBLE_CALLBACKS_ENABLED'] = 'strata.hier.preload'
    environment['STRATA_BENCH_TIMINGS'] = timings or os.devnull
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=environment)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def parse_speed(root: str) -> tuple:
    """(DataLoader seconds, collection parser seconds, files) over every data file, the run's folder unused."""
    from ansible_collections.strata.hier.plugins.plugin_utils import parse
    files = [os.path.join(folder, name) for folder, _dirs, names in os.walk(os.path.join(root, 'data'))
             for name in names]
    loader = DataLoader()
    kept = parse._FOLDER.get('path')      # pylint: disable=protected-access
    parse._FOLDER['path'] = None          # pylint: disable=protected-access  # parse every file, keep none
    try:
        timings = []
        for read in (lambda path: loader.load_from_file(path, cache='none', unsafe=True),
                     lambda path: parse.parse(path, loader)):
            start = time.process_time()
            results = [read(path) for path in files]
            timings.append(time.process_time() - start)
        assert not any(result is parse.NEEDS_DATALOADER for result in results)
    finally:
        parse._FOLDER['path'] = kept      # pylint: disable=protected-access
    return timings[0], timings[1], len(files)


PROBE_HOSTS = 40


def probe(root: str, parent_loads: str) -> None:
    """Print (JSON) what forked workers cost, as in ansible-playbook: this process has not loaded the collection
    (the caller runs it afresh; ``parent_loads`` 'inventory': it loads strata.hier's inventory plugin as a play over
    such an inventory source does, 'lookup': the lookup, as the preload callback does) and forks one worker per
    host, one after the other, each doing a host's 5 lookups."""
    like_playbook_parent()
    if parent_loads == 'inventory':
        from ansible.plugins.loader import inventory_loader
        inventory_loader.get('strata.hier.hier')
    elif parent_loads == 'lookup':       # as the preload callback does
        lookup_loader.get('strata.hier.hier')
    loader = DataLoader()
    reports = []
    for index in range(PROBE_HOSTS):
        reader, writer = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(reader)
            with os.fdopen(writer, 'w') as stream:
                json.dump(worker(root, loader, index), stream)
            os._exit(0)     # pylint: disable=protected-access  # a forked worker leaves as Ansible's do
        os.close(writer)
        with os.fdopen(reader) as stream:
            reports.append(json.load(stream))
        os.waitpid(pid, 0)
    print(json.dumps(reports))


def like_playbook_parent() -> None:
    """What ansible-playbook's parent has loaded before it forks a task's workers: the inventory and executor code
    and ansible.builtin's routing (resolving the task's action reads it); so the workers' figures are the lookup's."""
    import ansible.executor.task_executor  # noqa: F401  # pylint: disable=unused-import
    import ansible.inventory.manager  # noqa: F401  # pylint: disable=unused-import
    from ansible.plugins.loader import action_loader
    action_loader.find_plugin('ansible.builtin.set_fact')


def worker(root: str, loader: DataLoader, index: int) -> dict:
    listed = []
    for name in ('listdir', 'scandir'):
        real = getattr(os, name)
        setattr(os, name, lambda path='.', real=real: listed.append(path) or real(path))
    config = os.path.join(root, 'hier.yml')
    variables = host_vars(index)
    start = time.process_time()
    lookup = lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader))
    load = time.process_time() - start
    lookup.run([KEYS[0]], variables=variables, config=config)
    first = time.process_time() - start
    start = time.process_time()
    for key in KEYS[1:]:
        lookup.run([key], variables=variables, config=config)
    later = (time.process_time() - start) / (len(KEYS) - 1)
    return {'first': first, 'load': load, 'later': later, 'listings': len(listed), 'counts': parse_counts(),
            'files': level_files(variables)}


def parse_counts() -> dict:
    from ansible_collections.strata.hier.plugins.plugin_utils.parse import COUNTS
    return COUNTS


def level_files(variables: dict) -> list:
    return ['nodes/%s/%s' % (variables['Environment'], variables['inventory_hostname']),
            'locations/' + variables['Location'], 'environments/' + variables['Environment'],
            'roles/' + variables['Role'], 'baselines/common']


COLLECTION = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def python_environment(bytecode: bool) -> dict:
    """The environment of a child Python: with bytecode as Python's default (written to and read from __pycache__),
    or with none (PYTHONDONTWRITEBYTECODE=1, as some CI machines set, and the collection's __pycache__ removed)."""
    environment = dict(os.environ)
    if bytecode:
        environment.pop('PYTHONDONTWRITEBYTECODE', None)
        return environment
    environment['PYTHONDONTWRITEBYTECODE'] = '1'
    for folder, dirs, _names in os.walk(COLLECTION):
        if '__pycache__' in dirs:
            shutil.rmtree(os.path.join(folder, '__pycache__'))
    return environment


PROBES = (('no bytecode', False, ()), ('bytecode cached', True, ()),
          ('bytecode cached, the parent has run strata.hier\'s inventory plugin', True,
           ('--parent-loads', 'inventory')),
          ('bytecode cached, the parent has loaded the lookup (preload callback)', True, ('--parent-loads', 'lookup')))


def workers(root: str) -> None:
    """Run the probe in a fresh process: without bytecode, with Python's bytecode cache, and with the collection
    loaded by the parent (an inventory or vars plugin of the collection in use); print its figures."""
    for label, bytecode, options in PROBES:
        output = subprocess.run([sys.executable, os.path.abspath(__file__), '--probe', root, *options], check=True,
                                stdout=subprocess.PIPE, text=True, env=python_environment(bytecode)).stdout
        reports = json.loads(output.splitlines()[-1])
        extra = sorted((report['first'] - report['later']) * 1000 for report in reports)
        later = sorted(report['later'] * 1000 for report in reports)
        load = sorted(report['load'] * 1000 for report in reports)
        print('forked workers (%d hosts, one worker each), %s: first lookup %.1f ms CPU above later ones (median; '
              'later ones %.2f ms)  (target <= 10 ms); of it, loading the plugin %.1f ms'
              % (len(reports), label, extra[len(extra) // 2], later[len(later) // 2], load[len(load) // 2]))
    files = {name for report in reports for name in report['files']} | {'hier.yml'}   # the configuration too
    parsed = sum(report['counts']['parsed'] + report['counts']['dataloader'] for report in reports)
    reused = sum(report['counts']['reused'] for report in reports)
    listings = sum(report['listings'] for report in reports)
    print('folder listings per lookup in the workers: %.2f (%d in %d lookups)  (target 0: stat, not list)'
          % (listings / (len(reports) * len(KEYS)), listings, len(reports) * len(KEYS)))
    print('files parsed across the workers: %d for %d distinct files (%d read back from the run\'s folder)%s  '
          '(target: each at most once)' % (parsed, len(files), reused, '' if parsed <= len(files) else '  <-- MORE'))


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
    parser.add_argument('--play', action='store_true', help='also time real ansible-playbook runs')
    parser.add_argument('--probe', metavar='ROOT', help=argparse.SUPPRESS)
    parser.add_argument('--parent-loads', choices=('inventory', 'lookup'), help=argparse.SUPPRESS)
    args = parser.parse_args()
    init_plugin_loader()   # the collection loader, before anything imports ansible_collections
    if args.probe:
        probe(args.probe, args.parent_loads)
        return
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
        try:
            dataloader, fast, files = parse_speed(root)
            print('parsing %d files (CPU): DataLoader %.1f ms, strata.hier parser %.1f ms: %.2fx faster  '
                  '(target >= 2x)' % (files, dataloader * 1000, fast * 1000, dataloader / fast))
        except ImportError:     # before parse.py
            print('parsing: DataLoader only (1.00x)')
        workers(root)
        if args.play:
            print_plays(play(root))


if __name__ == '__main__':
    main()
