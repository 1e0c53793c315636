# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Inventory benchmark: the strata.hier.hier inventory plugin against a static inventory of the same host vars.

For each store size (2,000 and 10,000 nodes; 5 levels: node, location, environment, role, baseline; node files
under AllNodes/<Env>/<Node>.yml; 22 host vars per host with nested maps, lists of maps merged by DeepTuple,
Unique lists and knockouts), measured in the same run:
- ``ansible-inventory --list`` on the hier source, and on a static YAML inventory holding the same, already
  merged host vars (written from the first run's output): wall time and peak memory (maxrss of that child);
- parsing the distinct data files with yaml.CSafeLoader (in process);
- the merge cost per host: Hierarchy.resolve_node over every node with the files already parsed, in process;
- ``cache: true`` (ansible.builtin.jsonfile): the run that fills the cache, then a second run that reads it.
Each figure is given as wall time and CPU time (the child's rusage, or this process's); ratios are against the
static inventory. The targets are judged on CPU time, which other work on a shared machine disturbs far less
than wall time: hier source <= 2x static at 10,000 nodes, merge < 2 ms per host, cached second run <= 1.2x
static.

Both kinds of source are read with the inventory plugins ``strata.hier.hier`` and ``yaml`` only
(ANSIBLE_INVENTORY_ENABLED): with the default list, ``auto`` would parse the static file once more before
``yaml`` does.

Run with the collection on ANSIBLE_COLLECTIONS_PATH (scripts/bench does that). About 6 minutes on 2 cores with
ansible-core 2.19, most of it in the 10,000-host static inventory and the cached run; --sizes picks others.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

import yaml

from ansible.parsing.dataloader import DataLoader
from ansible.plugins.loader import init_plugin_loader

ENVIRONMENTS = ('Dev', 'Test', 'Staging', 'Prod')
LOCATIONS = tuple('Site%02d' % index for index in range(20))
ROLES = tuple('Role%02d' % index for index in range(30))
CONFIG = """datadir: data
hierarchy:
  - "AllNodes/%{Environment}/%{NodeName}"
  - "Locations/%{Location}"
  - "Environments/%{Environment}"
  - "Roles/%{Role}"
  - "Baselines/Security"
nodes: "AllNodes/*/*"
default_lookup_options: MostSpecific
lookup_options:
  Packages:
    merge_hash_array: DeepTuple
    merge_options: {tuple_keys: [Name]}
  Services:
    merge_hash_array: DeepTuple
    merge_options: {tuple_keys: [Name]}
  RegistryValues:
    merge_hash_array: DeepTuple
    merge_options: {tuple_keys: [Key, ValueName]}
  WindowsFeatures: Unique
  NtpServers: Unique
  LcmConfig: deep
  NetworkConfig: deep
  "^SecurityBaseline/.*": deep
"""
TARGETS = {'hier': 2.0, 'merge_ms': 2.0, 'cached': 1.2}


# ---------------------------------------------------------------- the store

def packages(rng: random.Random, prefix: str, count: int) -> list:
    return [{'Name': '%s-pkg%d' % (prefix, item),
             'Version': '%d.%d.%d' % (rng.randint(1, 9), rng.randint(0, 20), rng.randint(0, 99))}
            for item in range(count)]


def baseline_file(rng: random.Random) -> dict:
    return {
        'SecurityBaseline': {'PasswordPolicy': {'MinimumLength': 14, 'Complexity': True},
                             'Tls': {'Protocols': ['TLS1.2', 'TLS1.3']}},
        'RegistryValues': [{'Key': r'HKLM:\SOFTWARE\Policies\Baseline', 'ValueName': 'Setting%d' % index,
                            'ValueData': index} for index in range(2)],
        'Packages': packages(rng, 'base', 1),
        'WindowsFeatures': ['Telnet-Client', 'Windows-Defender'],
        'LcmConfig': {'Settings': {'RefreshMode': 'Pull', 'RefreshFrequencyMins': 30}},
    }


def role_file(rng: random.Random, name: str) -> dict:
    return {
        'Packages': packages(rng, name.lower(), 3),
        'WindowsFeatures': ['Feature-%s' % name, 'Web-Server'],
        'Services': [{'Name': '%s-svc%d' % (name, index), 'StartupType': 'Automatic'} for index in range(2)],
    }


def environment_file(rng: random.Random, name: str) -> dict:
    return {
        'DomainName': '%s.corp.example' % name.lower(),
        'ComplianceLevel': 'High' if name == 'Prod' else 'Standard',
        'LcmConfig': {'Settings': {'ConfigurationMode': 'ApplyAndAutoCorrect' if name == 'Prod' else 'ApplyOnly'}},
        'Packages': [{'Name': 'base-pkg0', 'Version': '9.9.%d' % rng.randint(0, 9)}],
    }


def location_file(rng: random.Random, name: str, index: int) -> dict:
    return {
        'Timezone': 'W. Europe Standard Time' if index % 2 else 'UTC',
        'NtpServers': ['ntp.%s.corp.example' % name.lower(), 'pool.ntp.org'],
        'Site': {'Name': name, 'Region': 'Region%d' % (index % 4)},
        'NetworkConfig': {'Gateway': '10.%d.0.1' % index},
    }


def node_file(rng: random.Random, index: int) -> dict:
    environment = ENVIRONMENTS[index % len(ENVIRONMENTS)]
    role = ROLES[rng.randrange(len(ROLES))]
    location = LOCATIONS[rng.randrange(len(LOCATIONS))]
    address = '10.%d.%d.%d' % (LOCATIONS.index(location), index // 250 % 250, index % 250 + 1)
    data = {
        'NodeName': 'SRV%05d' % index,
        'Environment': environment,
        'Role': role,
        'Location': location,
        'Description': 'Node %d of %s' % (index, role),
        'AssetTag': 'AT-%06d' % index,
        'Owner': 'team%d' % (index % 17),
        'Tags': ['tier%d' % (index % 3)],
        'MaintenanceWindow': {'Day': ('Mon', 'Tue', 'Wed', 'Thu', 'Fri')[index % 5], 'Start': '02:00'},
        'NetworkConfig': {'IpAddress': address, 'Interfaces': [{'Name': 'Ethernet0', 'IpAddress': address}]},
        'Disks': [{'DriveLetter': 'C', 'SizeGB': (100, 250)[index % 2]}],
        'Packages': [{'Name': '%s-pkg0' % role.lower(), 'Version': '1.0.%d' % (index % 50)}],
        'WindowsFeatures': ['Feature-node%d' % (index % 4)] + (['--Telnet-Client'] if index % 7 == 0 else []),
        'LcmConfig': {'Settings': {'ConfigurationId': '%08x' % rng.getrandbits(32)}},
    }
    if index % 5 == 0:
        data['Services'] = [{'Name': '%s-svc1' % role, 'StartupType': 'Disabled'}]
    if index % 10 == 0:
        data['RegistryValues'] = [{'Key': r'HKLM:\SOFTWARE\Policies\Baseline', 'ValueName': 'Setting0',
                                   'ValueData': 1}]
    return data


def generate(root: str, nodes: int) -> dict:
    """Write the store; return {relative path: data} of every data file."""
    rng = random.Random(nodes)
    files = {'Baselines/Security': baseline_file(rng)}
    files.update({'Roles/%s' % name: role_file(rng, name) for name in ROLES})
    files.update({'Environments/%s' % name: environment_file(rng, name) for name in ENVIRONMENTS})
    files.update({'Locations/%s' % name: location_file(rng, name, index) for index, name in enumerate(LOCATIONS)})
    for index in range(nodes):
        data = node_file(rng, index)
        files['AllNodes/%s/%s' % (data['Environment'], data['NodeName'])] = data
    for name, data in files.items():
        path = os.path.join(root, 'data', name + '.yml')
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as stream:
            yaml.dump(data, stream, Dumper=yaml.CSafeDumper, sort_keys=False, default_flow_style=False)
    with open(os.path.join(root, 'hier.yml'), 'w') as stream:
        stream.write(CONFIG)
    return files


# ---------------------------------------------------------------- measurements

def ansible_inventory(root: str, source: str, name: str) -> tuple:
    """One ansible-inventory --list run: (wall seconds, CPU seconds, peak memory in MiB, output file)."""
    output, errors = os.path.join(root, name + '.json'), os.path.join(root, name + '.err')
    env = dict(os.environ, ANSIBLE_INVENTORY_ENABLED='strata.hier.hier,yaml',
               ANSIBLE_INVENTORY_ANY_UNPARSED_IS_FAILED='true')
    command = [os.path.join(os.path.dirname(sys.executable), 'ansible-inventory'), '-i', source, '--list']
    with open(output, 'wb') as out, open(errors, 'wb') as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=err, env=env)
        _pid, status, usage = os.wait4(process.pid, 0)     # this child's own rusage: its CPU time and peak memory
        elapsed = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        with open(errors) as stream:
            sys.exit('%s failed (%d):\n%s' % (' '.join(command), process.returncode, stream.read()[-3000:]))
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0, output


def same_file(one: str, other: str) -> bool:
    with open(one, 'rb') as first, open(other, 'rb') as second:
        return first.read() == second.read()


def host_vars_of(output: str) -> dict:
    """The host vars of an --list output, strings as plain strings.

    From ansible-core 2.19, --list shows a string that is not trusted as a template (all the data the hier
    plugin reads) as {"__ansible_unsafe": "text"}; a static inventory's strings are trusted and shown plain.
    """
    with open(output) as stream:
        return json.load(stream, object_hook=_plain)['_meta']['hostvars']


def _plain(mapping: dict):
    return mapping['__ansible_unsafe'] if len(mapping) == 1 and '__ansible_unsafe' in mapping else mapping


def write_static(path: str, host_vars: dict) -> None:
    with open(path, 'w') as stream:
        yaml.dump({'all': {'hosts': host_vars}}, stream, Dumper=yaml.CSafeDumper, sort_keys=False,
                  default_flow_style=False)


def write_source(path: str, root: str, cache: bool) -> None:
    with open(path, 'w') as stream:
        stream.write('plugin: strata.hier.hier\nconfig: %s\n' % os.path.join(root, 'hier.yml'))
        if cache:
            stream.write('cache: true\ncache_plugin: ansible.builtin.jsonfile\ncache_connection: %s\n'
                         % os.path.join(root, 'cache'))


def timed(func) -> tuple:
    """(wall seconds, CPU seconds of this process) of func()."""
    wall, cpu = time.perf_counter(), time.process_time()
    func()
    return time.perf_counter() - wall, time.process_time() - cpu


def parse_with_csafeloader(root: str, files: dict) -> tuple:
    def parse():
        for name in files:
            with open(os.path.join(root, 'data', name + '.yml'), 'rb') as stream:
                yaml.load(stream, Loader=yaml.CSafeLoader)
    return timed(parse)


def in_process(root: str) -> tuple:
    """Parsing the files through the store, then Hierarchy.resolve_node over every node: ((wall, cpu), (wall, cpu),
    node count)."""
    from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy_cache import open_hierarchy
    from ansible_collections.strata.hier.plugins.plugin_utils.nodes import named_nodes
    from ansible_collections.strata.hier.plugins.plugin_utils.store import DataStore
    hierarchy = open_hierarchy(os.path.join(root, 'hier.yml'), DataLoader())
    store = DataStore(hierarchy.config.datadir, DataLoader())   # files parsed once per process, for every store
    parsing = timed(lambda: [store.load(path) for path in glob_data(store.root)])
    nodes = [dict(data, inventory_hostname=name)
             for name, (_node_file, data) in named_nodes(hierarchy.nodes(), print).items()]
    merging = timed(lambda: [hierarchy.resolve_node(node) for node in nodes])
    return parsing, merging, len(nodes)


def glob_data(folder: str) -> list:
    return sorted(os.path.join(base, name) for base, _dirs, names in os.walk(folder)
                  for name in names if name.endswith('.yml'))


def line(label: str, wall: float, cpu: float, static: tuple = None, peak: float = None, target: float = None,
         note: str = '') -> None:
    text = '%-52s %7.2f %7.2f' % (label, wall, cpu)
    text += '  %6.0f' % peak if peak is not None else '  %6s' % ''
    if static:
        text += '  %5.2fx %5.2fx' % (cpu / static[1], wall / static[0])
        if target:
            text += '  target <= %.1fx: %s' % (target, 'met' if cpu / static[1] <= target else 'MISSED')
    print(text + note)


def bench(size: int, keep: str = None) -> None:
    root = keep or tempfile.mkdtemp(prefix='bench-inventory-')
    os.makedirs(root, exist_ok=True)
    files = generate(root, size)
    source, cached_source, static = (os.path.join(root, name) for name in
                                     ('nodes.hier.yml', 'cached.hier.yml', 'static.yml'))
    write_source(source, root, cache=False)
    write_source(cached_source, root, cache=True)

    # in process first, while this process holds little else (the garbage collector's passes grow with it)
    csafe = parse_with_csafeloader(root, files)
    store_parse, merge, merged_nodes = in_process(root)
    merge_ms = merge[1] * 1000 / merged_nodes

    hier = ansible_inventory(root, source, 'hier')
    host_vars = host_vars_of(hier[3])
    assert len(host_vars) == size, 'expected %d hosts, got %d' % (size, len(host_vars))
    keys = sum(len(variables) for variables in host_vars.values()) / float(size)
    write_static(static, host_vars)
    static_run = ansible_inventory(root, static, 'static')
    assert host_vars_of(static_run[3]) == host_vars, 'the static inventory does not give the same host vars'
    fill = ansible_inventory(root, cached_source, 'cache-fill')
    cached = ansible_inventory(root, cached_source, 'cached')
    assert same_file(cached[3], hier[3]) or host_vars_of(cached[3]) == host_vars, \
        'the cached run does not give the same host vars'
    del host_vars

    data_mib = sum(os.path.getsize(path) for path in glob_data(os.path.join(root, 'data'))) / 1048576.0
    print('-- %d nodes: %d data files (%.1f MiB), %.1f host vars per host; static inventory %.1f MiB; '
          'load average %.1f' % (size, len(files), data_mib, keys, os.path.getsize(static) / 1048576.0,
                                 os.getloadavg()[0]))
    print('%-52s %7s %7s  %6s  %6s %6s' % ('', 'wall s', 'CPU s', 'MiB', 'CPU', 'wall'))
    static_times = static_run[:2]
    line('ansible-inventory --list, static YAML inventory', *static_run[:2], static_times, static_run[2])
    line('ansible-inventory --list, hier source', *hier[:2], static_times, hier[2],
         TARGETS['hier'] if size >= 10000 else None)
    line('ansible-inventory --list, cache: true, fills cache', *fill[:2], static_times, fill[2])
    line('ansible-inventory --list, cache: true, 2nd run', *cached[:2], static_times, cached[2], TARGETS['cached'])
    line('parse the data files: yaml.CSafeLoader', *csafe, static_times)
    line('parse the data files: the store (DataLoader)', *store_parse, static_times)
    line('merge: Hierarchy.resolve_node, every node', *merge, static_times,
         note='  %.3f ms CPU per host (%.3f wall): target < %.1f ms: %s'
         % (merge_ms, merge[0] * 1000 / merged_nodes, TARGETS['merge_ms'],
            'met' if merge_ms < TARGETS['merge_ms'] else 'MISSED'))
    sys.stdout.flush()
    if not keep:
        subprocess.run(['rm', '-rf', root], check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--sizes', default='2000,10000', help='node counts, comma separated (default: 2000,10000)')
    parser.add_argument('--keep', metavar='DIR', help='generate into DIR/<size> and keep it')
    args = parser.parse_args()
    init_plugin_loader()   # the collection loader, before anything imports ansible_collections
    for size in (int(part) for part in args.sizes.split(',')):
        bench(size, os.path.join(args.keep, str(size)) if args.keep else None)


if __name__ == '__main__':
    main()
