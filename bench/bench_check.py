# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Check job benchmark: ``strata.hier.check`` over a 2,000-node store, against merging every node.

The store is bench_inventory.py's (5 levels, 22 host vars per host) with 7 constraints, one of each kind, one of them
a ``^regex``, which some nodes break (the knockouts of ``Telnet-Client``, node addresses outside the type's pattern).
Measured in one process, wall and CPU time:
- every node merged (``Hierarchy.resolve_node``, as the inventory plugin does), the files parsed by a first pass: the
  baseline;
- ``NodeChecks`` over every node (the check job's work), on the same parsed files;
- the check job's entry as the action plugin runs it (the configuration read, every node checked, the three reports
  written) in a fresh hierarchy, the files parsed again.
Run with the collection importable (scripts/bench's copy): about a minute on 2 cores; --nodes picks another size.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_inventory import generate  # noqa: E402  (beside this file)

CONSTRAINTS = """constraints:
  SecurityBaseline/PasswordPolicy/MinimumLength: {final: true, type: {type: integer, minimum: 12}}
  WindowsFeatures: {protect_items: [Telnet-Client]}
  LcmConfig/Settings/RefreshFrequencyMins: {tighten: decrease}
  Timezone: {owners: ["Locations/%{Location}"]}
  DomainName: {required: true, severity: warn}
  "^NetworkConfig/Ip.*": {type: {type: string, pattern: "^10\\\\.1?[0-9]\\\\."}, severity: warn}
  AdminToken: {vault: required, severity: warn}
"""


def cpu_now() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def timed(func) -> tuple:
    wall, cpu = time.perf_counter(), cpu_now()
    result = func()
    return time.perf_counter() - wall, cpu_now() - cpu, result


def merge_all(hierarchy) -> int:
    """Every node merged, as the inventory plugin does; the count of nodes."""
    from ansible_collections.strata.hier.plugins.plugin_utils.nodes import named_nodes
    hierarchy.begin_pass()
    count = 0
    for name, (_node_file, data) in named_nodes(hierarchy.nodes(), print).items():
        variables = dict(data, inventory_hostname=name)
        hierarchy.resolve_node(variables, expansions=hierarchy.expand_levels(variables))
        count += 1
    return count


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument('--nodes', type=int, default=2000)
    options = parser.parse_args()
    from ansible.parsing.dataloader import DataLoader
    from ansible_collections.strata.hier.plugins.plugin_utils.jobs.check_report import check, write_report
    from ansible_collections.strata.hier.plugins.plugin_utils.sources.hier_yml import load_config
    from ansible_collections.strata.hier.plugins.plugin_utils.constraint_check import NodeChecks
    from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy import Hierarchy
    root = tempfile.mkdtemp(prefix='bench-check-')
    generate(root, options.nodes)
    with open(os.path.join(root, 'hier.yml'), 'a') as stream:
        stream.write(CONSTRAINTS)
    loader = DataLoader()
    hierarchy = Hierarchy(load_config(os.path.join(root, 'hier.yml'), loader), loader)
    merge_all(hierarchy)        # parses every file once, as a run's first pass would
    merged = timed(lambda: merge_all(hierarchy))
    checked = timed(lambda: NodeChecks(hierarchy))
    job = timed(lambda: write_report(check(root, None, DataLoader()), os.path.join(root, 'check')))
    summary = checked[2]
    print('%d nodes, %d findings (%d hosts checked)' % (merged[2], len(summary.findings), len(summary.hosts)))
    print('%-62s %8s %8s %8s' % ('', 'wall s', 'CPU s', 'CPU x'))
    print('%-62s %8.2f %8.2f %8s' % ('every node merged (resolve_node), files parsed', merged[0], merged[1], '1.00x'))
    print('%-62s %8.2f %8.2f %7.2fx' % ('NodeChecks over every node, files parsed', checked[0], checked[1],
                                        checked[1] / merged[1]))
    print('%-62s %8.2f %8.2f %7.2fx' % ('the check job: configuration read, files parsed, reports written', job[0],
                                        job[1], job[1] / merged[1]))


if __name__ == '__main__':
    main()
