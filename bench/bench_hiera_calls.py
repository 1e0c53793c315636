# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""CPU microseconds per key of lookup plugin calls on one host of a hiera.yaml (bench_hiera.py runs it in a process
of its own, as Ansible loads the collection: ANSIBLE_COLLECTIONS_PATH, no PYTHONPATH).

Usage: bench_hiera_calls.py HIERA_YAML HOST FACTS_JSON ROUNDS KEY...; prints two numbers: a key per call, and every
key in one call (each the best of REPEAT runs of ROUNDS rounds, as Puppet's side is the best of 5 compiles).

Whole nodes: bench_hiera_calls.py --whole HIERA_YAML SPEC_JSON ROUNDS (SPEC_JSON: {nodes: [[name, facts]...]}); prints
a JSON object: ``per_node`` (CPU microseconds per node of every key of the node, as the inventory plugin asks them of
the Source in one pass: ``for_host(variables).host_vars``; best of ROUNDS passes, each a new pass over every node, the
files already read) and ``answers`` (the first node's answers by key, to compare with Puppet's)."""

from __future__ import annotations

import json
import sys
import time

from ansible.plugins.loader import init_plugin_loader

init_plugin_loader()    # the collection loader, before anything imports ansible_collections

from ansible.parsing.dataloader import DataLoader  # noqa: E402  pylint: disable=wrong-import-position
from ansible.plugins.loader import lookup_loader  # noqa: E402  pylint: disable=wrong-import-position
from ansible.template import Templar  # noqa: E402  pylint: disable=wrong-import-position


def whole_nodes(config: str, nodes: list, rounds: int) -> None:
    from ansible_collections.strata.hier.plugins.plugin_utils.source import open_source
    loader = DataLoader()
    variables = [dict(facts, inventory_hostname=name) for name, facts in nodes]
    warnings: list = []

    def one_pass() -> float:
        start = time.process_time()
        source = open_source(config, loader)
        for host in variables:
            source.for_host(host).host_vars(warnings.append)
        return time.process_time() - start
    one_pass()      # warm: files parsed, code loaded
    best = min(one_pass() for _round in range(rounds))
    answers = open_source(config, loader).for_host(variables[0]).whole()
    print(json.dumps({'per_node': best / len(nodes) * 1e6, 'warnings': warnings[:3],
                      'answers': {key: answer.value for key, answer in answers.items()}}))


def main() -> None:
    if sys.argv[1] == '--whole':
        with open(sys.argv[3]) as stream:
            nodes = json.load(stream)['nodes']
        whole_nodes(sys.argv[2], nodes, int(sys.argv[4]))
        return
    config, host, facts, rounds, keys = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), int(sys.argv[4]), sys.argv[5:]
    variables = {'inventory_hostname': host, 'role': facts['role'], 'datacenter': facts['datacenter'],
                 'ansible_facts': {'os_family': facts['os']['family']}}
    loader = DataLoader()
    plugin = lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader))
    plugin.run(list(keys), variables, config=config)       # warm: files parsed, code loaded

    def singles() -> None:
        for key in keys:
            plugin.run([key], variables, config=config)

    single = _best(singles, rounds) / (rounds * len(keys))
    batch = _best(lambda: plugin.run(list(keys), variables, config=config), rounds) / (rounds * len(keys))
    print('%.1f %.1f' % (single * 1e6, batch * 1e6))


def _best(call, rounds: int) -> float:
    """The CPU seconds of ``rounds`` calls, the best of REPEAT times (as Puppet's side is measured: a busy machine
    only adds time)."""
    best = float('inf')
    for _repeat in range(REPEAT):
        start = time.process_time()
        for _round in range(rounds):
            call()
        best = min(best, time.process_time() - start)
    return best


REPEAT = 5


if __name__ == '__main__':
    main()
