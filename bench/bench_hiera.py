# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Hiera benchmark: a Puppet-shaped repository (hiera.yaml version 5) read by strata.hier.

The repository: node, role, datacenter, OS family and common levels (``nodes/%{trusted.certname}.yaml`` ...),
``lookup_options`` in common.yaml (``unique``, ``deep`` with a knockout prefix, ``hash``), ``::`` keys and
interpolation in values; ``--nodes`` node files (default 2,000), each with its facts file.  Measured in the same run:

- lookups per second of the Hiera core (``HieraLookup.lookup``, files already parsed, each key with its
  lookup_options) against a plain-merge baseline over the same parsed files (first found, ``dict.update``,
  list concatenation: the cheapest code giving a layered answer, without Hiera's rules);
- lookup plugin calls on one host (``bench_hiera_calls.py``: a key per call, and every key in one call) against
  Puppet's own ``lookup()`` of the same keys in the host's catalog compile (Ruby with Puppet's library, the cost per
  lookup: the compile with many rounds of the keys minus the compile without, timed in one process), when Puppet is
  installed (target: a call per key <= 1.0x Puppet's lookup);
- whole nodes (every key of a node, what the inventory plugin gives a host): ``bench_hiera_calls.py --whole``, in a
  process of its own, against Puppet's ``lookup()`` of every key of each node in the node's own catalog compile (Ruby
  with Puppet's library, the compile of each node timed with and without the lookups: what ``puppet lookup --node``
  does per node), on the same ``WHOLE_NODES`` nodes, their answers compared (target: below Puppet's);
- ``ansible-inventory --list`` on a hiera.yaml inventory source against a static YAML inventory holding the same
  merged host vars (target <= 1.5x CPU time).

Run with the collection on ANSIBLE_COLLECTIONS_PATH and PYTHONPATH (scripts/bench does that).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_inventory import ansible_inventory, host_vars_of, write_static  # noqa: E402  pylint: disable=wrong-import-position

from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.engine import HieraLookup, hiera_scope  # noqa: E402
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.config import parse_hiera_config  # noqa: E402

ROLES = tuple('role%02d' % index for index in range(20))
DATACENTERS = ('dc1', 'dc2', 'dc3', 'dc4')
FAMILIES = ('Debian', 'RedHat')
HIERA = """version: 5
defaults: {datadir: data, data_hash: yaml_data}
hierarchy:
  - {name: node, path: "nodes/%{trusted.certname}.yaml"}
  - {name: role, path: "roles/%{facts.role}.yaml"}
  - {name: datacenter, path: "datacenters/%{facts.datacenter}.yaml"}
  - {name: os, path: "os/%{facts.os.family}.yaml"}
  - {name: common, path: common.yaml}
"""
KEYS = ('ntp::servers', 'profile::base::packages', 'profile::base::users', 'profile::web::vhosts', 'sysctl',
        'motd', 'profile::monitoring::checks', 'dns::nameservers')


def common_file() -> dict:
    return {
        'lookup_options': {'ntp::servers': {'merge': 'unique'}, 'profile::base::packages': {'merge': 'unique'},
                           'profile::base::users': {'merge': {'strategy': 'deep', 'knockout_prefix': '--'}},
                           'profile::web::vhosts': {'merge': 'deep'}, 'sysctl': {'merge': 'hash'},
                           '^profile::monitoring::': {'merge': 'deep'}},
        'ntp::servers': ['0.pool.ntp.org', '1.pool.ntp.org'],
        'profile::base::packages': ['vim', 'curl', 'htop'],
        'profile::base::users': {'admins': ['alice', 'bob'], 'shell': '/bin/bash'},
        'sysctl': {'vm.swappiness': 60, 'net.ipv4.ip_forward': 0},
        'motd': 'Managed host %{trusted.certname} (%{facts.role} in %{facts.datacenter})',
        'profile::monitoring::checks': {'ping': {'interval': 60}, 'disk': {'warn': 80, 'crit': 90}},
        'dns::nameservers': ['10.0.0.2', '10.0.0.3'],
    }


def role_file(name: str) -> dict:
    return {'profile::base::packages': ['%s-agent' % name, 'curl'],
            'profile::web::vhosts': {'%s.example.com' % name: {'port': 443, 'docroot': '/srv/%s' % name}},
            'profile::base::users': {'admins': ['--bob', '%s-owner' % name]},
            'profile::monitoring::checks': {'http': {'url': 'https://%s.example.com/' % name}}}


def datacenter_file(name: str) -> dict:
    return {'ntp::servers': ['ntp.%s.example.com' % name], 'dns::nameservers': ['10.%d.0.2' % len(name)]}


def os_file(name: str) -> dict:
    return {'profile::base::packages': ['%s-release' % name.lower()], 'sysctl': {'kernel.panic': 10}}


def node_file(rng: random.Random, index: int) -> dict:
    data = {'profile::base::users': {'admins': ['oncall%d' % (index % 5)]}}
    if index % 3 == 0:
        data['sysctl'] = {'vm.swappiness': 10}
    if index % 4 == 0:
        data['ntp::servers'] = ['ntp-local-%d.example.com' % rng.randrange(100)]
    return data


def dump(path: str, data: dict) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as stream:
        yaml.dump(data, stream, Dumper=yaml.CSafeDumper, sort_keys=False, default_flow_style=False)


def generate(root: str, nodes: int) -> dict:
    """Write the repository; return {node name: facts}."""
    rng = random.Random(nodes)
    with open(os.path.join(root, 'hiera.yaml'), 'w') as stream:
        stream.write(HIERA)
    dump(os.path.join(root, 'data', 'common.yaml'), common_file())
    for name in ROLES:
        dump(os.path.join(root, 'data', 'roles', name + '.yaml'), role_file(name))
    for name in DATACENTERS:
        dump(os.path.join(root, 'data', 'datacenters', name + '.yaml'), datacenter_file(name))
    for name in FAMILIES:
        dump(os.path.join(root, 'data', 'os', name + '.yaml'), os_file(name))
    hosts = {}
    for index in range(nodes):
        name = 'node%05d.example.com' % index
        facts = {'role': ROLES[rng.randrange(len(ROLES))], 'datacenter': DATACENTERS[index % len(DATACENTERS)],
                 'os': {'family': FAMILIES[index % 2]}}
        dump(os.path.join(root, 'data', 'nodes', name + '.yaml'), node_file(rng, index))
        dump(os.path.join(root, 'facts', name + '.yaml'), facts)
        hosts[name] = facts
    return hosts


def read(path: str, _level):
    with open(path) as stream:
        return yaml.load(stream, Loader=yaml.CSafeLoader)


def plain_merge(files: dict, host: str, facts: dict, key: str):
    """The baseline: the level files' values merged without Hiera's rules (first map wins per key, lists added)."""
    paths = ('nodes/%s.yaml' % host, 'roles/%s.yaml' % facts['role'], 'datacenters/%s.yaml' % facts['datacenter'],
             'os/%s.yaml' % facts['os']['family'], 'common.yaml')
    values = [files[path][key] for path in paths if path in files and key in files[path]]
    if not values:
        return None
    if isinstance(values[0], list):
        return [item for value in values for item in value]
    if isinstance(values[0], dict):
        merged = {}
        for value in reversed(values):
            merged.update(value)
        return merged
    return values[0]


def bench_lookups(root: str, hosts: dict, sample: int) -> None:
    path = os.path.join(root, 'hiera.yaml')
    config = parse_hiera_config(read(path, 'yaml_data'), path)
    shared: dict = {}
    names = sorted(hosts)[:sample]
    for name in names:      # parse every file once, outside the timings
        HieraLookup(config, read, hiera_scope(name, hosts[name]), files=shared).data_keys()
    parsed = {os.path.relpath(file, os.path.join(root, 'data')): data for file, data in shared.items()}

    start = time.perf_counter()
    for name in names:
        engine = HieraLookup(config, read, hiera_scope(name, hosts[name]), files=shared)
        for key in KEYS:
            engine.lookup(key)
    hiera_seconds = time.perf_counter() - start
    start = time.perf_counter()
    for name in names:
        for key in KEYS:
            plain_merge(parsed, name, hosts[name], key)
    plain_seconds = time.perf_counter() - start
    lookups = len(names) * len(KEYS)
    print('lookups: %d hosts x %d keys; Hiera core %.0f lookups/s (%.1f us each); plain merge %.0f lookups/s; '
          'ratio %.1fx' % (len(names), len(KEYS), lookups / hiera_seconds, hiera_seconds / lookups * 1e6,
                           lookups / plain_seconds, hiera_seconds / plain_seconds))


PUPPET_ROUNDS = 300


def bench_against_puppet(root: str, hosts: dict) -> None:
    name = next(name for name in sorted(hosts) if hosts[name]['os']['family'] == _facter_family())
    facts = hosts[name]
    here = os.path.dirname(os.path.abspath(__file__))
    calls = subprocess.run([sys.executable, os.path.join(here, 'bench_hiera_calls.py'), os.path.join(root, 'hiera.yaml'),
                            name, json.dumps(facts), str(PUPPET_ROUNDS)] + list(KEYS), capture_output=True, text=True,
                           check=True, env=dict(os.environ, PYTHONPATH=''))
    single, batch = (float(number) for number in calls.stdout.split())
    puppet = _puppet_per_lookup(root, name, facts)
    if puppet is None:
        print('lookup calls: %.0f us per key one key a call, %.0f us in one call of %d keys; Puppet not installed: '
              'no baseline' % (single, batch, len(KEYS)))
        return
    print('lookup calls: %.0f us per key one key a call (%.2fx Puppet), %.0f us in one call of %d keys (%.2fx); '
          "Puppet's lookup() %.0f us per key in a compile; target <= 1.0x: %s"
          % (single, single / puppet, batch, len(KEYS), batch / puppet, puppet,
             'met' if single <= puppet else 'MISSED'))


def _facter_family() -> str:
    done = subprocess.run(['facter', 'os.family'], capture_output=True, text=True, check=False) \
        if shutil.which('facter') else None
    return done.stdout.strip() if done and done.stdout.strip() in FAMILIES else FAMILIES[0]


def _puppet_code(root: str) -> str:
    """A Puppet code folder whose production environment holds the repository (made once)."""
    code = os.path.join(root, 'puppet-code')
    if not os.path.isdir(code):
        shutil.copytree(os.path.join(root, 'data'), os.path.join(code, 'environments', 'production', 'data'))
        shutil.copy(os.path.join(root, 'hiera.yaml'), os.path.join(code, 'environments', 'production'))
    return code


def _puppet_per_lookup(root: str, name: str, facts: dict) -> float:
    """Puppet's CPU per lookup(): the node's compile with PUPPET_ROUNDS rounds of the keys against the compile
    without, timed inside one Ruby process (PUPPET_WHOLE): a difference of two whole ``puppet apply`` runs drowned
    in their noise on a busy machine."""
    spec = os.path.join(root, 'per-lookup.json')
    with open(spec, 'w') as stream:
        json.dump({'nodes': [[name, facts]], 'keys': list(KEYS), 'rounds': WHOLE_ROUNDS, 'repeat': PUPPET_ROUNDS},
                  stream)
    puppet = _puppet_whole_node(root, spec)
    return None if puppet is None else puppet['per_node'] / (PUPPET_ROUNDS * len(KEYS))


WHOLE_NODES = 50
WHOLE_ROUNDS = 5
PUPPET_WHOLE = r"""
require 'puppet'
require 'json'
code, spec = ARGV
Puppet.initialize_settings(['--codedir', code, '--confdir', code, '--vardir', File.join(code, 'var'),
                            '--logdir', File.join(code, 'log'), '--environmentpath', File.join(code, 'environments')])
spec = JSON.parse(File.read(spec))
environment = Puppet.lookup(:environments).get!('production')
Puppet[:code] = 'undef'

# What `puppet lookup --node NAME --facts FILE KEY...` does for a node: its catalog compile, lookup() in its top scope.
def node_answers(environment, name, facts, keys, repeat = 1)
  node = Puppet::Node.new(name, facts: Puppet::Node::Facts.new(name, facts.merge('clientcert' => name)),
                          environment: environment)
  answers = nil
  trusted = Puppet::Context::TrustedInformation.new('local', name, {})
  Puppet.override(current_environment: environment, trusted_information: trusted) do
    compiler = Puppet::Parser::Compiler.new(node)
    compiler.compile do |catalog|
      invocation = proc { Puppet::Pops::Lookup::Invocation.new(compiler.topscope, {}, {}, nil) }
      repeat.times { answers = keys.map { |key| Puppet::Pops::Lookup.lookup(key, nil, nil, false, nil, invocation.call) } }
      catalog
    end
  end
  answers
end

def cpu
  Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
end

nodes, keys = spec['nodes'], spec['keys']
node_answers(environment, nodes[0][0], nodes[0][1], keys)     # warm: code loaded, files read
best = { true => Float::INFINITY, false => Float::INFINITY }
spec['rounds'].times do
  [true, false].each do |looked_up|
    start = cpu
    nodes.each { |name, facts| node_answers(environment, name, facts, looked_up ? keys : [], spec['repeat'] || 1) }
    best[looked_up] = [best[looked_up], cpu - start].min
  end
end
puts JSON.generate({'per_node' => (best[true] - best[false]) / nodes.size * 1e6,
                    'answers' => keys.zip(node_answers(environment, nodes[0][0], nodes[0][1], keys)).to_h})
"""


def bench_whole_node(root: str, hosts: dict) -> None:
    """Every key of each of WHOLE_NODES nodes: strata.hier's Source against Puppet's lookup() in each node's compile."""
    nodes = [[name, hosts[name]] for name in sorted(hosts)[:WHOLE_NODES]]
    spec = os.path.join(root, 'whole-nodes.json')
    with open(spec, 'w') as stream:
        json.dump({'nodes': nodes, 'keys': list(KEYS), 'rounds': WHOLE_ROUNDS}, stream)
    here = os.path.dirname(os.path.abspath(__file__))
    done = subprocess.run([sys.executable, os.path.join(here, 'bench_hiera_calls.py'), '--whole',
                           os.path.join(root, 'hiera.yaml'), spec, str(WHOLE_ROUNDS)], capture_output=True, text=True,
                          check=True, env=dict(os.environ, PYTHONPATH=''))
    ours = json.loads(done.stdout)
    puppet = _puppet_whole_node(root, spec)
    if puppet is None:
        print('whole node: %d nodes x %d keys; %.0f us per node; Puppet (Ruby with its library) not installed: '
              'no baseline' % (len(nodes), len(KEYS), ours['per_node']))
        return
    agree = 'agree' if ours['answers'] == puppet['answers'] else 'DIFFER: %r against %r' % (ours['answers'],
                                                                                            puppet['answers'])
    ratio = ours['per_node'] / puppet['per_node']
    print("whole node: %d nodes x %d keys; %.0f us per node (the inventory's host_vars, a pass over the nodes); "
          "Puppet's lookup() of every key in the node's compile %.0f us per node; %.2fx, target < 1.0x: %s; "
          'answers %s' % (len(nodes), len(KEYS), ours['per_node'], puppet['per_node'], ratio,
                          'met' if ratio < 1.0 else 'MISSED', agree))


def _puppet_whole_node(root: str, spec: str):
    """Puppet's CPU per node for every key (compiles with the lookups minus compiles without), None without Puppet's
    Ruby library."""
    if shutil.which('ruby') is None or subprocess.run(['ruby', '-e', "require 'puppet'"], capture_output=True,
                                                      check=False).returncode:
        return None
    script = os.path.join(root, 'puppet_whole.rb')
    with open(script, 'w') as stream:
        stream.write(PUPPET_WHOLE)
    done = subprocess.run(['ruby', script, _puppet_code(root), spec], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def bench_inventory(root: str, target: float) -> None:
    source = os.path.join(root, 'site.hier.yml')
    with open(source, 'w') as stream:
        stream.write('plugin: strata.hier.hier\nconfig: hiera.yaml\nnodes: data/nodes/*.yaml\nfacts_dir: facts\n')
    hiera_run = ansible_inventory(root, source, 'hiera')
    host_vars = host_vars_of(hiera_run[3])
    static = os.path.join(root, 'static.yml')
    write_static(static, host_vars)
    static_run = ansible_inventory(root, static, 'static')
    assert host_vars_of(static_run[3]) == host_vars, 'the static inventory does not give the same host vars'
    ratio = hiera_run[1] / static_run[1]
    print('inventory: %d hosts; hiera.yaml source %.2fs CPU (%.2fs wall, %.0f MiB); static %.2fs CPU (%.2fs wall, '
          '%.0f MiB); %.2fx CPU, target <= %.1fx: %s'
          % (len(host_vars), hiera_run[1], hiera_run[0], hiera_run[2], static_run[1], static_run[0], static_run[2],
             ratio, target, 'met' if ratio <= target else 'MISSED'))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split('\n', maxsplit=1)[0])
    parser.add_argument('--nodes', type=int, default=2000)
    parser.add_argument('--sample', type=int, default=500, help='hosts timed in the lookup benchmark')
    parser.add_argument('--no-inventory', action='store_true', help='leave out the ansible-inventory run')
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix='strata-hiera-bench-') as root:
        hosts = generate(root, arguments.nodes)
        bench_lookups(root, hosts, arguments.sample)
        bench_against_puppet(root, hosts)
        bench_whole_node(root, hosts)
        if not arguments.no_inventory:
            bench_inventory(root, 1.5)


if __name__ == '__main__':
    main()
