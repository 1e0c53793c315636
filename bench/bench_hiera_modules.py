# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Hiera module layer benchmark (issue 26, cause 4): bench_hiera.py's repository and keys, looked up by the Hiera
core without a module layer, with one (``modules/`` holding a module none of the keys belongs to), and the keys of
a module with data (``modules/app``: a hiera.yaml of two levels, lookup_options, a merge across both layers).

Run with the collection on PYTHONPATH (as scripts/bench runs bench_hiera.py); ``--rounds`` alternates the
measurements, so the machine's noise falls on each alike.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_hiera import KEYS, generate, read  # noqa: E402  pylint: disable=wrong-import-position

from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.engine import HieraLookup, hiera_scope  # noqa: E402
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.config import parse_hiera_config  # noqa: E402
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.module_layer import Modules  # noqa: E402

MODULE_KEYS = ('app::packages', 'app::settings', 'app::port', 'app::only')
APP_HIERA = """version: 5
hierarchy:
  - {name: app role, path: "roles/%{facts.role}.yaml"}
  - {name: app common, path: common.yaml}
"""


def write_module(root: str, roles) -> None:
    files = {'modules/app/hiera.yaml': APP_HIERA,
             'modules/app/data/common.yaml': 'lookup_options:\n  app::packages: {merge: unique}\n'
                                             '  "^app::set": {merge: deep}\n'
                                             'app::packages: [a, b]\napp::settings: {a: {b: 1}, c: 2}\n'
                                             'app::port: 80\napp::only: common\n'}
    files.update({'modules/app/data/roles/%s.yaml' % role: 'app::packages: [%s]\napp::settings: {a: {d: %s}}\n'
                  % (role, role) for role in roles})
    with open(os.path.join(root, 'data', 'common.yaml'), 'a') as stream:
        stream.write('app::settings: {env: 1}\napp::packages: [env]\n')
    for relative, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(root, relative)), exist_ok=True)
        with open(os.path.join(root, relative), 'w') as stream:
            stream.write(text)


def timed(config, hosts, names, keys, modules, shared) -> float:
    start = time.process_time()
    for name in names:
        engine = HieraLookup(config, read, hiera_scope(name, hosts[name]), files=shared, modules=modules)
        for key in keys:
            engine.lookup(key)
    return (time.process_time() - start) / (len(names) * len(keys)) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split('\n', maxsplit=1)[0])
    parser.add_argument('--nodes', type=int, default=500)
    parser.add_argument('--rounds', type=int, default=5)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix='strata-hiera-modules-bench-') as root:
        hosts = generate(root, arguments.nodes)
        write_module(root, sorted({facts['role'] for facts in hosts.values()}))
        path = os.path.join(root, 'hiera.yaml')
        config = parse_hiera_config(read(path, 'yaml_data'), path)
        modules = Modules(root, lambda module_path, name: parse_hiera_config(read(module_path, 'yaml_data'),
                                                                             module_path, name))
        names, shared = sorted(hosts), {}
        timed(config, hosts, names, KEYS + MODULE_KEYS, modules, shared)      # every file parsed, outside the timings
        rows = {'keys of no module with data, no module layer': [], 'the same, with the module layer': [],
                'keys of a module with data': []}
        for _round in range(arguments.rounds):
            rows['keys of no module with data, no module layer'].append(timed(config, hosts, names, KEYS, None, shared))
            rows['the same, with the module layer'].append(timed(config, hosts, names, KEYS, modules, shared))
            rows['keys of a module with data'].append(timed(config, hosts, names, MODULE_KEYS, modules, shared))
        for label, times in rows.items():
            print('%-48s best %.1f us, median %.1f us of CPU per lookup' % (label, min(times), sorted(times)[len(times) // 2]))


if __name__ == '__main__':
    main()
