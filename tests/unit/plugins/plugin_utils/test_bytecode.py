# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The collection's helpers load with Python's bytecode cache (plugin_utils/bytecode.py), and nothing else does."""

from __future__ import annotations

import os
from importlib.machinery import SourceFileLoader

from ansible_collections.strata.hier.plugins.plugin_utils import bytecode
from ansible_collections.strata.hier.tests.unit.plugins.fresh_process import run_fresh

HELPER = 'ansible_collections.strata.hier.plugins.module_utils.'

# A fresh process as an ansible-playbook worker starts: Ansible's collection finder, something ahead of it (as
# ansible-test's import restrictions), then the lookup plugin loaded by name; prints how each helper was loaded.
WORKER = '''
import json, sys
from ansible.plugins.loader import init_plugin_loader, lookup_loader
init_plugin_loader([sys.argv[1]])

class First:
    find_spec = staticmethod(lambda *args: None)

sys.meta_path.insert(0, First)
lookup_loader.get('strata.hier.hier')
names = [type(finder).__name__ if not isinstance(finder, type) else finder.__name__ for finder in sys.meta_path]
helpers = {name: type(module.__loader__).__name__ for name, module in sys.modules.items()
           if name.startswith(('ansible_collections.strata.hier.plugins.module_utils.',
                               'ansible_collections.strata.hier.plugins.plugin_utils.'))
           and (getattr(module, '__file__', None) or '').endswith('.py')}   # not folders
print(json.dumps({'finders': names, 'helpers': helpers}))
'''


def run_worker(pycache):
    environment = dict(os.environ, PYTHONPYCACHEPREFIX=str(pycache))
    environment.pop('PYTHONDONTWRITEBYTECODE', None)
    return run_fresh(WORKER, environment=environment)


def written(pycache):
    return {os.path.join(folder, name): os.stat(os.path.join(folder, name)).st_mtime_ns
            for folder, _dirs, names in os.walk(pycache) for name in names if name.endswith('.pyc')}


def test_the_finder_claims_only_the_helpers_source_files(tmp_path):
    (tmp_path / 'merging.py').write_text('X = 1\n')
    (tmp_path / 'mergers').mkdir()
    spec = bytecode.HelperFinder.find_spec(HELPER + 'merging', [str(tmp_path)])
    assert isinstance(spec.loader, SourceFileLoader)
    assert spec.origin == str(tmp_path / 'merging.py')
    for name, path in ((HELPER + 'mergers', [str(tmp_path)]),                 # a folder: Ansible's
                       (HELPER + 'missing', [str(tmp_path)]),
                       (HELPER + 'merging', None),                             # not inside a package
                       ('ansible_collections.other.coll.plugins.module_utils.merging', [str(tmp_path)]),
                       ('ansible_collections.strata.hier.plugins.lookup.merging', [str(tmp_path)])):
        assert bytecode.HelperFinder.find_spec(name, path) is None, name


def test_a_worker_loads_the_helpers_from_bytecode_behind_what_comes_first(tmp_path):
    pycache = tmp_path / 'pycache'
    report = run_worker(pycache)
    finders = report['finders']
    assert finders[0] == 'First'
    assert finders.index('HelperFinder') == finders.index('_AnsibleCollectionFinder') - 1
    loaders = dict(report['helpers'])
    assert HELPER + 'merging' in loaders
    # all but the finder's own module, which Ansible loads before the finder exists
    assert loaders.pop('ansible_collections.strata.hier.plugins.plugin_utils.bytecode') == '_AnsibleCollectionLoader'
    assert set(loaders.values()) == {'SourceFileLoader'}, loaders
    first = written(pycache)
    assert len(first) >= len(report['helpers'])     # each helper's bytecode written (with Ansible's own modules)
    again = run_worker(pycache)
    assert again['helpers'] == report['helpers']
    assert written(pycache) == first                # read back, not compiled and written again
