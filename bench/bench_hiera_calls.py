# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""CPU microseconds per key of lookup plugin calls on one host of a hiera.yaml (bench_hiera.py runs it in a process
of its own, as Ansible loads the collection: ANSIBLE_COLLECTIONS_PATH, no PYTHONPATH).

Usage: bench_hiera_calls.py HIERA_YAML HOST FACTS_JSON ROUNDS KEY...; prints two numbers: a key per call, and every
key in one call."""

from __future__ import annotations

import json
import sys
import time

from ansible.plugins.loader import init_plugin_loader

init_plugin_loader()    # the collection loader, before anything imports ansible_collections

from ansible.parsing.dataloader import DataLoader  # noqa: E402  pylint: disable=wrong-import-position
from ansible.plugins.loader import lookup_loader  # noqa: E402  pylint: disable=wrong-import-position
from ansible.template import Templar  # noqa: E402  pylint: disable=wrong-import-position


def main() -> None:
    config, host, facts, rounds, keys = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), int(sys.argv[4]), sys.argv[5:]
    variables = {'inventory_hostname': host, 'role': facts['role'], 'datacenter': facts['datacenter'],
                 'ansible_facts': {'os_family': facts['os']['family']}}
    loader = DataLoader()
    plugin = lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader))
    plugin.run(list(keys), variables, config=config)       # warm: files parsed, code loaded
    start = time.process_time()
    for _round in range(rounds):
        for key in keys:
            plugin.run([key], variables, config=config)
    single = (time.process_time() - start) / (rounds * len(keys))
    start = time.process_time()
    for _round in range(rounds):
        plugin.run(list(keys), variables, config=config)
    batch = (time.process_time() - start) / (rounds * len(keys))
    print('%.1f %.1f' % (single * 1e6, batch * 1e6))


if __name__ == '__main__':
    main()
