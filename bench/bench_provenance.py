# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Provenance benchmark (issue 28): the lookup benchmark's store (bench_lookup.py: 1,000 hosts, 5 keys, every
merge kind), each host's keys looked up through the Hierarchy, files cached:
- with provenance (records with file and line per path) against the same lookups without (target: <= 3x);
- with provenance and ansible-core 2.19's Origin tags put on the value (compat.origin_tagged, the lookup's
  ``origin_tags`` setting) against the same lookups without;
- provenance off against itself, in two rounds (the noise of the figures);
- one pass over the hosts with provenance on a store read for the first time (a copy of it: its files parsed by a
  plain pass, not yet composed for lines, nothing of provenance kept), against the plain pass: what an inventory parse
  with ``provenance: true`` adds. The rounds above repeat the same lookups, so what provenance keeps per file and level
  (lines located, records below wholes) is there from the second round on; this figure has none of it.
CPU times, the best of ROUNDS rounds each, the variants taking turns: a shared machine's other work only adds time.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time

from ansible.parsing.dataloader import DataLoader
from ansible.plugins.loader import init_plugin_loader

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_lookup import HOSTS, KEYS, generate, host_vars  # noqa: E402  pylint: disable=wrong-import-position

ROUNDS = 5


def variants(hierarchy, root):
    """name -> a function looking up every host's keys one way."""
    from ansible_collections.strata.hier.plugins.plugin_utils.compat import origin_tagged
    hosts = [(host_vars(index), hierarchy.expand_levels(host_vars(index))) for index in range(HOSTS)]

    def plain():
        for variables, expansions in hosts:
            for key in KEYS:
                hierarchy.lookup(key, variables, expansions=expansions)

    def provenance():
        for variables, expansions in hosts:
            for key in KEYS:
                hierarchy.lookup(key, variables, expansions=expansions, provenance=True)

    def tagged():
        for variables, expansions in hosts:
            for key in KEYS:
                resolution = hierarchy.lookup(key, variables, expansions=expansions, provenance=True)
                origin_tagged(resolution.value, resolution.records, root, resolution.key)
    return {'plain': plain, 'plain again': plain, 'provenance': provenance, 'origin tags': tagged}


def best_times(functions, rounds=ROUNDS):
    """name -> the least CPU time of ``rounds`` runs, the functions taking turns (bench_constraints.py too)."""
    best = {}
    for _round in range(rounds):
        for name, function in functions.items():
            start = time.process_time()
            function()
            spent = time.process_time() - start
            best[name] = min(best.get(name, spent), spent)
    return best


def one_pass(root, rounds=3):
    """(plain pass, first provenance pass) of a fresh copy of the store, the best of ``rounds`` copies each."""
    from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy_cache import get_hierarchy
    best = {}
    for number in range(rounds):
        copy = os.path.join(root, 'copy%d' % number)
        shutil.copytree(os.path.join(root, 'store'), copy)
        hierarchy = get_hierarchy(os.path.join(copy, 'hier.yml'), DataLoader())
        hierarchy.begin_pass()
        functions = variants(hierarchy, copy)
        functions['plain']()        # files parsed
        for name in ('plain', 'provenance'):
            start = time.process_time()
            functions[name]()
            spent = time.process_time() - start
            best[name] = min(best.get(name, spent), spent)
        shutil.rmtree(copy)
    return best['plain'], best['provenance']


def main():
    init_plugin_loader()
    from ansible_collections.strata.hier.plugins.plugin_utils.compat import DATA_TAGGING
    from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy_cache import get_hierarchy
    with tempfile.TemporaryDirectory() as top:
        root = os.path.join(top, 'store')
        generate(root)
        hierarchy = get_hierarchy(os.path.join(root, 'hier.yml'), DataLoader())
        hierarchy.begin_pass()
        functions = variants(hierarchy, root)
        functions['plain']()        # parse every file once: the rounds time merging
        functions['provenance']()   # and compose each file once for its lines
        best = best_times(functions)
        first_plain, first_provenance = one_pass(top)
    lookups = HOSTS * len(KEYS)
    plain = best['plain']
    print('%d lookups (%d hosts x %d keys), files cached, best CPU of %d rounds' % (lookups, HOSTS, len(KEYS), ROUNDS))
    print('without provenance                 %8.1f ms  (%.3f ms per lookup)' % (plain * 1000, plain * 1000 / lookups))
    print('without provenance, again          %8.1f ms  (%.2fx: the noise)'
          % (best['plain again'] * 1000, best['plain again'] / plain))
    print('with provenance (records)          %8.1f ms  (%.2fx)  (target <= 3x)'
          % (best['provenance'] * 1000, best['provenance'] / plain))
    print('with provenance and Origin tags    %8.1f ms  (%.2fx)%s'
          % (best['origin tags'] * 1000, best['origin tags'] / plain, '' if DATA_TAGGING else '  (before 2.19: no tags)'))
    print('one pass of a store read anew: plain %.1f ms, with provenance %.1f ms (%.2fx: nothing kept from an earlier '
          'pass)' % (first_plain * 1000, first_provenance * 1000, first_provenance / first_plain))


if __name__ == '__main__':
    main()
