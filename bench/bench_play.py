# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Play benchmark (issue 32, item 6): what a strata lookup costs in a real ansible-playbook run.

    ANSIBLE_COLLECTIONS_PATH=<dir above ansible_collections> python bench/bench_play.py [--hosts 300] [--rounds 2]
        [--baseline <another dir above ansible_collections>]

300 hosts of a 5-level store (5 keys: a 20-item list of maps merged by tuple key, a Unique list, a hash map, a deep
map, a string), 10 forks, ``gather_facts: false``, connection local. Four plays differ only in where 5 values come
from: ``const`` (constant strings: what the play costs anyway), ``builtin`` (``lookup('ansible.builtin.env',
'HOME')``: Ansible's own cost of a lookup, the floor any lookup plugin can reach), ``static`` (the same merged values
read from host_vars files) and ``lookup`` (5 strata lookups). Each in two shapes: one ``set_fact`` task with 5 values,
and five tasks with one value each; with the preload callback enabled, and the lookup and static plays of both shapes
without it. Every figure is the CPU of the whole process tree (``os.wait4`` of ansible-playbook: it and every worker
it waited for), best of the rounds, the variants taking turns within each round; wall times beside them.

Printed per shape: the four figures, lookup / static, and the strata lookup's cost above ``const`` over the builtin
lookup's cost above ``const`` (issue 32's targets: <= 1.25x with preload in both shapes, so lookup / static <= 0.9x
in the one-task shape). ``--baseline``: the lookup plays also run against that collection (another checkout,
before a change), in the same rounds.

    ANSIBLE_COLLECTIONS_PATH=... python bench/bench_play.py --controller 2000,10000

measures instead what the preload callback adds to ansible-playbook's main process at a play's start, for stores of
these many hosts: CPU, wall and resident memory of its first play (every data file parsed) and of a later play (each
file's stat only), each in a fresh process, best of the rounds.
"""

from __future__ import annotations

import argparse
import compileall
import os
import py_compile
import subprocess
import sys
import tempfile
import time

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# pylint: disable-next=wrong-import-position
from bench_lookup import CONFIG, ENVIRONMENTS, LOCATIONS, ROLES, host_vars, layer as lookup_layer  # noqa: E402

LEVELS = CONFIG      # bench_lookup.py's hier.yml: five levels, every merge kind
KEYS = ('Packages', 'Features', 'Network', 'Timezone', 'Settings')
SOURCES = {
    'const': "value-%(key)s",
    'builtin': "{{ lookup('ansible.builtin.env', 'HOME') }}",
    'static': "{{ %(key)s }}",
    'lookup': "{{ lookup('strata.hier.hier', '%(key)s', config=cfg) }}",
}
"""Where each play's 5 values come from."""
SHAPES = (('one task, 5 lookups', 1), ('five tasks, 1 lookup each', 5))


def layer(index: int) -> dict:
    """One level file's data: bench_lookup.py's, with a 20-item list of maps merged by its tuple key."""
    return lookup_layer(index, items=20)


def generate(root: str, hosts: int) -> None:
    """The store, its hier.yml and an inventory of the hosts (their level variables, connection local)."""
    files = {'baselines/common': layer(0)}
    files.update({'roles/%s' % role: layer(10 + number) for number, role in enumerate(ROLES)})
    files.update({'environments/%s' % env: layer(30 + number) for number, env in enumerate(ENVIRONMENTS)})
    files.update({'locations/%s' % site: layer(40 + number) for number, site in enumerate(LOCATIONS)})
    inventory = {}
    for index in range(hosts):
        variables = host_vars(index)
        name = variables.pop('inventory_hostname')
        files['nodes/%s/%s' % (variables['Environment'], name)] = layer(100 + index)
        inventory[name] = variables
    for name, data in files.items():
        write_yaml(os.path.join(root, 'data', name + '.yml'), data)
    with open(os.path.join(root, 'hier.yml'), 'w') as stream:
        stream.write(LEVELS)
    write_yaml(os.path.join(root, 'inventory.yml'), {'all': {'hosts': inventory,
                                                             'vars': {'ansible_connection': 'local'}}})


def write_yaml(path: str, data) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as stream:
        yaml.safe_dump(data, stream, sort_keys=False)


def write_static_host_vars(root: str, hosts: int) -> None:
    """host_vars/<host>.yml next to the inventory: each host's 5 merged values, as the lookup gives them."""
    from ansible.parsing.dataloader import DataLoader
    from ansible.plugins.loader import init_plugin_loader, lookup_loader
    from ansible.template import Templar
    init_plugin_loader()
    from ansible_collections.strata.hier.plugins.plugin_utils.compat import plain
    loader = DataLoader()
    lookup = lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader))
    for index in range(hosts):
        variables = host_vars(index)
        values = lookup.run(list(KEYS), variables=variables, config=os.path.join(root, 'hier.yml'))
        write_yaml(os.path.join(root, 'host_vars', variables['inventory_hostname'] + '.yml'),
                   dict(zip(KEYS, plain(values))))


def write_playbook(root: str, source: str, tasks: int) -> str:
    """The play of one source in one shape: ``tasks`` set_fact tasks sharing the 5 values."""
    values = [('Merged' + key, SOURCES[source] % {'key': key}) for key in KEYS]
    per_task = len(values) // tasks
    play = {'hosts': 'all', 'gather_facts': False, 'vars': {'cfg': os.path.join(root, 'hier.yml')},
            'tasks': [{'ansible.builtin.set_fact': dict(values[start:start + per_task])}
                      for start in range(0, len(values), per_task)]}
    path = os.path.join(root, '%s-%d.yml' % (source, tasks))
    write_yaml(path, [play])
    return path


def run_play(root: str, playbook: str, preload: bool, collections: str, profile: str = '') -> tuple:
    """(wall, CPU) of ansible-playbook and every process it waited for (its forked workers); ``profile``: a folder
    where each worker writes its cProfile (one fork, so that no worker waits for a core while profiled)."""
    environment = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=collections, ANSIBLE_FORKS='1' if profile else '10',
                       ANSIBLE_HOST_KEY_CHECKING='False', STRATA_BENCH_PROFILES=profile)
    environment.pop('PYTHONDONTWRITEBYTECODE', None)     # Python's bytecode cache, as by default
    enabled = (['strata.hier.preload'] if preload else []) + (['profile_workers'] if profile else [])
    environment.pop('ANSIBLE_CALLBACKS_ENABLED', None)
    if enabled:     # (empty, Ansible would look a callback of no name up)
        environment['ANSIBLE_CALLBACKS_ENABLED'] = ','.join(enabled)
    environment['ANSIBLE_CALLBACK_PLUGINS'] = os.path.join(root, 'callback_plugins')
    command = [os.path.join(os.path.dirname(sys.executable), 'ansible-playbook'), '-i',
               os.path.join(root, 'inventory.yml'), playbook]
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=root, env=environment, stdout=subprocess.DEVNULL)
    _pid, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise SystemExit('%s failed (%d)' % (' '.join(command), process.returncode))
    return wall, usage.ru_utime + usage.ru_stime


def variants(baseline: str) -> list:
    """(label, source, tasks, preload, collection): every play of one round."""
    runs = []
    for _shape, tasks in SHAPES:
        for source in SOURCES:
            runs.append((source, source, tasks, True, 'new'))
        runs.append(('static, no preload', 'static', tasks, False, 'new'))
        runs.append(('lookup, no preload', 'lookup', tasks, False, 'new'))
        if baseline:
            runs.append(('lookup (baseline)', 'lookup', tasks, True, 'baseline'))
            runs.append(('lookup, no preload (baseline)', 'lookup', tasks, False, 'baseline'))
    return runs


def measure(root: str, rounds: int, collections: dict) -> dict:
    """{(label, tasks): (best wall, best CPU)} over the rounds; within a round the plays take turns."""
    best = {}
    runs = variants(collections.get('baseline'))
    for round_number in range(rounds):
        order = runs if round_number % 2 == 0 else list(reversed(runs))     # no play always after the same one
        for label, source, tasks, preload, collection in order:
            playbook = write_playbook(root, source, tasks)
            wall, cpu = run_play(root, playbook, preload, collections[collection])
            kept = best.get((label, tasks), (wall, cpu))
            best[(label, tasks)] = (min(wall, kept[0]), min(cpu, kept[1]))
    return best


def report(best: dict, hosts: int, rounds: int, baseline: bool) -> None:
    print('ansible-playbook, %d hosts, 5 levels, 5 keys, 10 forks, connection local; CPU of the process tree '
          '(wall), best of %d rounds' % (hosts, rounds))
    for shape, tasks in SHAPES:
        def cpu(label):
            return best[(label, tasks)][1]
        print('%s:' % shape)
        print('  ' + '  '.join('%s %.1f s (%.1f s)' % (source, cpu(source), best[(source, tasks)][0])
                               for source in SOURCES))
        suffixes = [''] + ([' (baseline)'] if baseline else [])
        for suffix in suffixes:
            lookup, nopreload = 'lookup' + suffix, 'lookup, no preload' + suffix
            above = (cpu(lookup) - cpu('const')) / (cpu('builtin') - cpu('const'))
            print('  %-12s lookup / static %.2fx (wall %.2fx); lookup cost / builtin cost above const %.2fx  '
                  '(targets <= 0.9x one task, <= 1.25x)' % (suffix.strip(' ()') or 'this', cpu(lookup) / cpu('static'),
                                                            best[(lookup, tasks)][0] / best[('static', tasks)][0],
                                                            above))
            print('  %-12s no preload: lookup %.1f s, lookup / static %.2fx; lookup cost per host and task above '
                  'builtin %.2f ms' % ('', cpu(nopreload), cpu(nopreload) / cpu('static, no preload'),
                                       (cpu(lookup) - cpu('builtin')) * 1000 / (hosts * tasks)))


PROFILE_CALLBACK = '''
import cProfile, json, os, resource
from ansible.executor.process import worker
from ansible.plugins.callback import CallbackBase


class CallbackModule(CallbackBase):
    """The bench's own: each worker's _run profiled into STRATA_BENCH_PROFILES/<pid>.prof; at the end, the CPU of
    ansible-playbook's main process and of its workers (main.json)."""

    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = 'aggregate'
    CALLBACK_NAME = 'profile_workers'
    CALLBACK_NEEDS_ENABLED = True

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        folder, run = os.environ['STRATA_BENCH_PROFILES'], worker.WorkerProcess._run

        def profiled(process):
            profile = cProfile.Profile()
            try:
                return profile.runcall(run, process)
            finally:
                profile.dump_stats(os.path.join(folder, '%d.prof' % os.getpid()))
        worker.WorkerProcess._run = profiled

    def v2_playbook_on_stats(self, stats):
        own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        with open(os.path.join(os.environ['STRATA_BENCH_PROFILES'], 'main.json'), 'w') as stream:
            json.dump({'main': own.ru_utime + own.ru_stime, 'workers': workers.ru_utime + workers.ru_stime}, stream)
'''


def profile_plays(root: str, collections: str, hosts: int, kept: str) -> None:
    """--profile: the const, builtin and lookup plays of both shapes once, one fork, each worker profiled; prints
    the CPU of the main process and of the workers per host and task, and the lookup play's costliest functions."""
    import json
    import pstats
    for tasks in (1, 5):
        for source in ('const', 'builtin', 'lookup'):
            folder = os.path.join(kept, '%s-%d' % (source, tasks))
            os.makedirs(folder)
            run_play(root, write_playbook(root, source, tasks), True, collections, folder)
            with open(os.path.join(folder, 'main.json')) as stream:
                split = json.load(stream)
            files = [os.path.join(folder, name) for name in os.listdir(folder) if name.endswith('.prof')]
            stats = pstats.Stats(files[0], stream=sys.stdout)
            stats.add(*files[1:])
            stats.files = []     # not every file's name in the output
            runs = hosts * tasks
            print('%s, %d task(s): main process %.2f ms, workers %.2f ms CPU per host and task (profiled: %.2f ms in '
                  'WorkerProcess._run)' % (source, tasks, split['main'] * 1000 / runs, split['workers'] * 1000 / runs,
                                           stats.total_tt * 1000 / len(files)))
            if source == 'lookup':     # the lookup's own calls, by their cumulative time
                stats.sort_stats('cumulative').print_stats('strata/hier|_invoke_lookup', 30)


CONTROLLER = '''
import json, os, resource, sys, time
from ansible.parsing.dataloader import DataLoader
from ansible.plugins.loader import callback_loader, init_plugin_loader
init_plugin_loader()
loader = DataLoader()
loader.set_basedir(sys.argv[1])

class Play:
    name, _loader = 'play', loader

callback = callback_loader.get('strata.hier.preload')
callback.v2_playbook_on_start(None)
def rss():
    with open('/proc/self/statm') as stream:
        return int(stream.read().split()[1]) * resource.getpagesize()
figures = []
for play in ('first', 'later'):
    before, cpu, wall = rss(), time.process_time(), time.perf_counter()
    callback.v2_playbook_on_play_start(Play())
    figures.append((time.process_time() - cpu, time.perf_counter() - wall, rss() - before))
print(json.dumps(figures))
'''


def controller(counts: str, rounds: int) -> None:
    """--controller: the preload callback's CPU, wall and memory at a play's start, per number of hosts."""
    import json
    for hosts in [int(count) for count in counts.split(',')]:
        with tempfile.TemporaryDirectory() as root:
            generate(root, hosts)
            runs = [json.loads(subprocess.run([sys.executable, '-c', CONTROLLER, root], check=True, cwd=root,
                                              capture_output=True, text=True).stdout.splitlines()[-1])
                    for _round in range(rounds)]
        for index, play in enumerate(('first play', 'later play')):
            cpu, wall = min(run[index][0] for run in runs), min(run[index][1] for run in runs)
            memory = min(run[index][2] for run in runs)
            print('%6d hosts (%d data files), %s: CPU %.0f ms, wall %.0f ms, resident memory +%.1f MB'
                  % (hosts, hosts + 19, play, cpu * 1000, wall * 1000, memory / 1e6))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--hosts', type=int, default=300, help='hosts of the inventory (default 300)')
    parser.add_argument('--rounds', type=int, default=2, help='rounds of every play, best kept (default 2)')
    parser.add_argument('--baseline', metavar='DIR', help='a directory above another ansible_collections/strata/hier '
                        'whose lookup also runs, in the same rounds')
    parser.add_argument('--profile', metavar='DIR', help='profile the workers of the const, builtin and lookup plays '
                        'instead (one fork), their .prof files kept in DIR')
    parser.add_argument('--controller', metavar='HOSTS', help='measure the preload callback at a play\'s start '
                        'instead, for stores of these numbers of hosts (comma-separated)')
    args = parser.parse_args()
    collections = {'new': os.environ.get('ANSIBLE_COLLECTIONS_PATH', '')}
    if not collections['new']:
        raise SystemExit('set ANSIBLE_COLLECTIONS_PATH to the directory above ansible_collections')
    if args.controller:
        controller(args.controller, args.rounds)
        return
    if args.baseline:
        collections['baseline'] = os.path.abspath(args.baseline)
    for path in collections.values():     # bytecode kept as by default, not compiled by the first play that loads it
        compileall.compile_dir(os.path.join(path, 'ansible_collections', 'strata', 'hier', 'plugins'), quiet=1,
                               invalidation_mode=py_compile.PycInvalidationMode.TIMESTAMP)
    with tempfile.TemporaryDirectory() as root:
        generate(root, args.hosts)
        write_static_host_vars(root, args.hosts)
        os.makedirs(os.path.join(root, 'callback_plugins'))
        with open(os.path.join(root, 'callback_plugins', 'profile_workers.py'), 'w') as stream:
            stream.write(PROFILE_CALLBACK)
        if args.profile:
            profile_plays(root, collections['new'], args.hosts, os.path.abspath(args.profile))
            return
        report(measure(root, args.rounds, collections), args.hosts, args.rounds, bool(args.baseline))


if __name__ == '__main__':
    main()
