# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Constraints benchmark (issue 30): what checking every node costs, on bench_inventory.py's store (2,000 nodes, 5
levels, 22 host vars per host) with a vault value per environment. Files parsed once (a warm-up pass); then, in
process, each variant over every node, CPU time, the best of ROUNDS rounds, the variants taking turns:
- the baseline: Hierarchy.resolve_node per host (the merge of the rsop run's inventory, host_vars.py), no
  constraints in hier.yml;
- the same configuration through the plugins' hook (resolve_node, then ``if config.constraints: check_node``), and
  with ``constraints: {}``: no measurable cost (within the baseline's own noise, the baseline timed twice);
- with constraints of every kind (type, final, tighten, owners by level, by file glob and under a ``^`` regex,
  protect_items, required, vault, severity warn): resolve_node plus check_node per host. Target: <= 1.20x the
  baseline (issue 30: checking 2,000 hosts adds <= 20 % to an rsop run; the rsop run itself, the role's tasks
  included, costs far more than its merge: bench_rsop_diff.py);
- the same two with provenance (``provenance: true``, as the rsop role's inventory reads the data).
``--before DIR``: also time the baseline with another copy of the collection (DIR holds ansible_collections/, e.g.
the commit before constraints, from ``git archive``), in a child process each, alternately: the code path without
constraints against the one before they existed.
About 3 minutes on 2 cores (6 with --before).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_inventory import ENVIRONMENTS, generate  # noqa: E402  pylint: disable=wrong-import-position
from bench_provenance import best_times  # noqa: E402  pylint: disable=wrong-import-position

ROUNDS = 3
TARGET = 1.20
NODES = 2000
CONSTRAINTS = """constraints:
  SecurityBaseline/PasswordPolicy/MinimumLength:
    tighten: increase
    type: {type: integer, minimum: 8}
  SecurityBaseline/Tls/Protocols: {final: true}
  "^SecurityBaseline/": {owners: [Baselines/Security]}
  LcmConfig/Settings/RefreshFrequencyMins:
    tighten: decrease
    type: {type: integer, minimum: 15, maximum: 60}
  LcmConfig/Settings/RefreshMode: {final: true, type: {enum: [Pull, Push]}}
  WindowsFeatures: {protect_items: [Windows-Defender]}
  NtpServers: {tighten: superset, owners: ["data/Locations/*.yml"]}
  Site: {owners: ["Locations/%{Location}"], type: {type: object, required: [Name, Region]}}
  Tags: {tighten: subset}
  Packages:
    type:
      type: array
      items:
        type: object
        required: [Name]
        properties: {Name: {type: string, minLength: 1}, Version: {type: string, pattern: '^[0-9.]+$'}}
  DomainName: {required: true, type: {type: string}}
  ServiceAccountPassword: {required: true, vault: required}
  Description: {type: {type: string, maxLength: 60}, severity: warn}
"""
PASSWORD = b'bench-only'


def write_store(root: str) -> None:
    """bench_inventory's store, a vault value per environment, and three configurations: hier.yml (no
    constraints), empty.yml (``constraints: {}``), guarded.yml (CONSTRAINTS)."""
    from ansible.parsing.vault import VaultLib, VaultSecret
    generate(root, NODES)
    vault = VaultLib([('default', VaultSecret(PASSWORD))])
    for name in ENVIRONMENTS:
        ciphertext = vault.encrypt('secret-of-%s' % name).decode()
        with open(os.path.join(root, 'data', 'Environments', name + '.yml'), 'a') as stream:
            lines = ''.join('  %s\n' % line for line in ciphertext.splitlines())
            stream.write('ServiceAccountPassword: !vault |\n%s' % lines)
    with open(os.path.join(root, 'hier.yml')) as stream:
        config = stream.read()
    for name, extra in (('empty.yml', 'constraints: {}\n'), ('guarded.yml', CONSTRAINTS)):
        with open(os.path.join(root, name), 'w') as stream:
            stream.write(config + extra)


def nodes_of(hierarchy) -> list:
    """(variables, expansions) of every node; levels expanded before timing, as each variant reads them alike."""
    from ansible_collections.strata.hier.plugins.plugin_utils.nodes import named_nodes
    nodes = []
    for name, (_file, data) in sorted(named_nodes(hierarchy.nodes(), print).items()):
        variables = dict(data, inventory_hostname=name)
        nodes.append((variables, hierarchy.expand_levels(variables)))
    return nodes


def merge_only(hierarchy, nodes, provenance=False):
    def run():
        for variables, expansions in nodes:
            hierarchy.resolve_node(variables, expansions=expansions, provenance=provenance)
    return run


def with_hook(hierarchy, nodes, provenance=False, found=None):
    """host_vars.merged_host_vars's order: the merge, then the check when the configuration has constraints."""
    from ansible_collections.strata.hier.plugins.plugin_utils.constraint_check import check_node

    def run():
        for variables, expansions in nodes:
            hierarchy.resolve_node(variables, expansions=expansions, provenance=provenance)
            if hierarchy.config.constraints:
                findings = check_node(hierarchy, expansions, variables['inventory_hostname'])
                if found is not None:
                    found.extend(findings)
    return run


def worker(root: str) -> None:
    """The baseline alone, for --before: its best CPU time as JSON on stdout."""
    from ansible.parsing.dataloader import DataLoader
    from ansible.plugins.loader import init_plugin_loader
    init_plugin_loader()
    from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy_cache import get_hierarchy
    hierarchy = get_hierarchy(os.path.join(root, 'hier.yml'), DataLoader())
    nodes = nodes_of(hierarchy)
    run = merge_only(hierarchy, nodes)
    run()
    print(json.dumps(best_times({'merge': run}, ROUNDS)['merge']))


def before_and_after(root: str, before: str) -> tuple:
    """Best CPU time of the baseline in a child process with the collection ``before`` and with this one."""
    here = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..'))
    best = {}
    for _round in range(2):
        for name, collections in (('before', os.path.abspath(before)), ('now', here)):
            env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=collections, PYTHONPATH=collections)
            output = subprocess.run([sys.executable, os.path.abspath(__file__), '--worker', root], env=env,
                                    check=True, capture_output=True, text=True).stdout
            spent = json.loads(output.strip().splitlines()[-1])
            best[name] = min(best.get(name, spent), spent)
    return best['before'], best['now']


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--before', metavar='DIR', help='a folder holding ansible_collections/ of another version')
    parser.add_argument('--worker', metavar='ROOT', help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker)
        return
    from ansible.parsing.dataloader import DataLoader
    from ansible.plugins.loader import init_plugin_loader
    init_plugin_loader()   # the collection loader, before anything imports ansible_collections
    from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy_cache import get_hierarchy
    root = tempfile.mkdtemp(prefix='bench-constraints-')
    write_store(root)
    plain, empty, guarded = (get_hierarchy(os.path.join(root, name), DataLoader())
                             for name in ('hier.yml', 'empty.yml', 'guarded.yml'))
    assert empty.config.constraints is None and guarded.config.constraints
    nodes, findings = nodes_of(plain), []
    with_hook(guarded, nodes, found=findings)()      # warm-up: every file parsed, and the findings counted
    variants = {'baseline': merge_only(plain, nodes), 'baseline again': merge_only(plain, nodes),
                'no constraints, through the hook': with_hook(plain, nodes),
                'constraints: {}, through the hook': with_hook(empty, nodes),
                'constraints of every kind': with_hook(guarded, nodes),
                'baseline with provenance': merge_only(plain, nodes, True),
                'constraints of every kind, with provenance': with_hook(guarded, nodes, True)}
    best = best_times(variants, ROUNDS)
    print('-- %d nodes, %d constraints, %d findings (%d of severity error); load average %.1f' % (
        len(nodes), len(guarded.config.constraints.exact_paths()) + len(guarded.config.constraints.patterns),
        len(findings), sum(finding['severity'] == 'error' for finding in findings), os.getloadavg()[0]))
    print('%-58s %8s %8s' % ('', 'CPU s', 'CPU x'))
    for name, spent in best.items():
        base = best['baseline with provenance' if 'provenance' in name else 'baseline']
        note = ''
        if name == 'constraints of every kind':
            note = '  target <= %.2fx: %s' % (TARGET, 'met' if spent / base <= TARGET else 'MISSED')
        print('%-58s %8.2f %7.2fx%s' % (name, spent, spent / base, note))
    if args.before:
        old, new = before_and_after(root, args.before)
        print('%-58s %8.2f %7.2fx' % ('baseline, the collection before (child process)', old, 1.0))
        print('%-58s %8.2f %7.2fx' % ('baseline, this collection (child process)', new, new / old))
    subprocess.run(['rm', '-rf', root], check=True)


if __name__ == '__main__':
    main()
