# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The collection's helpers load with Python's bytecode cache (plugin_utils/bytecode.py), and nothing else does."""

from __future__ import annotations

import os
import py_compile
import shutil
import sys
from importlib.machinery import SourceFileLoader
from importlib.util import cache_from_source, module_from_spec, source_hash

import pytest

from ansible_collections.strata.hier.plugins.plugin_utils import bytecode
from ansible_collections.strata.hier.tests.unit.plugins.fresh_process import (
    COLLECTIONS_ROOT, run_fresh, write_role_store,
)

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
                       ('ansible_collections.other.coll.plugins.module_utils.core.merging', [str(tmp_path)]),
                       ('ansible_collections.strata.hier.plugins.lookup.merging', [str(tmp_path)])):
        assert bytecode.HelperFinder.find_spec(name, path) is None, name


def test_a_worker_loads_the_helpers_from_bytecode_behind_what_comes_first(tmp_path):
    pycache = tmp_path / 'pycache'
    report = run_worker(pycache)
    finders = report['finders']
    assert finders[0] == 'First'
    assert finders.index('HelperFinder') == finders.index('_AnsibleCollectionFinder') - 1
    loaders = dict(report['helpers'])
    assert HELPER + 'core.merging' in loaders
    # all but the finder's own module, which Ansible loads before the finder exists
    assert loaders.pop('ansible_collections.strata.hier.plugins.plugin_utils.bytecode') == '_AnsibleCollectionLoader'
    assert set(loaders.values()) == {'_TimestampBytecodeLoader'}, loaders     # a SourceFileLoader
    first = written(pycache)
    assert len(first) >= len(report['helpers'])     # each helper's bytecode written (with Ansible's own modules)
    again = run_worker(pycache)
    assert again['helpers'] == report['helpers']
    assert written(pycache) == first                # read back, not compiled and written again


def plant(source, code, mode, target=None):
    """Bytecode of ``code`` where Python looks for that of ``source`` (or at ``target``): hash-based, unchecked or
    checked (its header claiming the hash of ``source``, which anyone can compute)."""
    planted = source.parent.parent / ('planted-' + source.name)
    planted.write_text(code)
    target = str(target or cache_from_source(str(source)))
    invalidation = (py_compile.PycInvalidationMode.UNCHECKED_HASH if mode == 'unchecked'
                    else py_compile.PycInvalidationMode.CHECKED_HASH)
    py_compile.compile(str(planted), cfile=target, dfile=str(source), invalidation_mode=invalidation, doraise=True)
    if mode == 'forged':
        with open(target, 'r+b') as stream:
            stream.seek(8)
            stream.write(source_hash(source.read_bytes()))
    return target


@pytest.mark.parametrize('mode', ['unchecked', 'forged'])
def test_hash_based_bytecode_planted_for_a_helper_is_not_run(tmp_path, mode):
    """Issue 25, finding 12: Python runs an unchecked-hash pyc without reading the source (and a checked one
    whose header claims the source's hash); Ansible's loader never reads bytecode, so neither may the finder."""
    folder = tmp_path / 'helpers'
    folder.mkdir()
    source = folder / 'helper.py'
    source.write_text('WHO = "source"\n')
    plant(source, 'WHO = "planted"\n', mode)
    spec = bytecode.HelperFinder.find_spec(HELPER + 'helper', [str(folder)])
    module = module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.WHO == 'source'


def test_timestamp_bytecode_older_than_its_source_is_not_run(tmp_path):
    """Issue 25, finding 12: a timestamp pyc whose header matches the source's modification time and size is run
    by Python without reading the source; a checkout writes a committed __pycache__ before the source beside it."""
    folder = tmp_path / 'helpers'
    folder.mkdir()
    source = folder / 'helper.py'
    source.write_text('WHO = "source"\n')
    planted = tmp_path / 'planted.py'
    planted.write_text('WHO = "planted"\n')
    target = cache_from_source(str(source))
    py_compile.compile(str(planted), cfile=target, dfile=str(source), doraise=True,
                       invalidation_mode=py_compile.PycInvalidationMode.TIMESTAMP)
    stat = source.stat()
    with open(target, 'r+b') as stream:     # the header claims the source's modification time and size
        stream.seek(8)
        stream.write(int(stat.st_mtime).to_bytes(4, 'little') + stat.st_size.to_bytes(4, 'little'))

    def load():
        spec = bytecode.HelperFinder.find_spec(HELPER + 'helper', [str(folder)])
        module = module_from_spec(spec)
        spec.loader.exec_module(module)
        return module.WHO

    os.utime(target, ns=(stat.st_mtime_ns - 10 ** 9, stat.st_mtime_ns - 10 ** 9))     # checked out first
    assert load() == 'source'


# A fresh process loading the lookup from a copy of the collection (the first argument is the real one's root)
PLANTED_WORKER = '''
import json, sys
from ansible.plugins.loader import init_plugin_loader, lookup_loader
init_plugin_loader([sys.argv[2]])
lookup_loader.get('strata.hier.hier')
module = sys.modules['ansible_collections.strata.hier.plugins.module_utils.core.merging']
print(json.dumps({'file': module.__file__, 'planted': getattr(module, 'PLANTED', False)}))
'''


def test_a_worker_does_not_run_an_unchecked_pyc_planted_in_the_collection(tmp_path):
    """End to end, as a collection installed inside the data repository: the pyc beside the source."""
    real = os.path.join(COLLECTIONS_ROOT, 'ansible_collections', 'strata', 'hier')
    copy = tmp_path / 'ansible_collections' / 'strata' / 'hier'
    for folder in ('plugins', 'meta'):
        shutil.copytree(os.path.join(real, folder), str(copy / folder),
                        ignore=shutil.ignore_patterns('__pycache__'))
    source = copy / 'plugins' / 'module_utils' / 'core' / 'merging.py'
    plant(source, source.read_text() + '\nPLANTED = True\n', 'unchecked',
          source.parent / '__pycache__' / ('merging.%s.pyc' % sys.implementation.cache_tag))
    environment = {name: value for name, value in os.environ.items()
                   if name not in ('PYTHONPYCACHEPREFIX', 'PYTHONDONTWRITEBYTECODE')}
    report = run_fresh(PLANTED_WORKER, tmp_path, environment=environment)
    assert report['file'] == str(source)
    assert report['planted'] is False


# Issue 33: helpers compiled from source with no bytecode kept are named once per run, with the fix.

def load_helper(folder):
    """Load ``folder/helper.py`` through the finder; return why its bytecode was not kept (what it added)."""
    before = len(bytecode.UNCACHED)
    spec = bytecode.HelperFinder.find_spec(HELPER + 'helper', [str(folder)])
    spec.loader.exec_module(module_from_spec(spec))
    added = bytecode.UNCACHED[before:]
    del bytecode.UNCACHED[before:]
    return added


@pytest.fixture
def helper(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, 'pycache_prefix', None)
    monkeypatch.setattr(sys, 'dont_write_bytecode', False)
    folder = tmp_path / 'helpers'
    folder.mkdir()
    (folder / 'helper.py').write_text('WHO = "source"\n')
    return folder


def test_a_helper_compiled_and_kept_or_read_from_bytecode_is_not_noted(helper):
    assert load_helper(helper) == []
    assert os.path.isfile(cache_from_source(str(helper / 'helper.py')))     # kept: the next load reads it
    sys.dont_write_bytecode = True
    assert load_helper(helper) == []


def test_a_helper_compiled_without_writing_bytecode_is_noted(helper):
    sys.dont_write_bytecode = True
    assert load_helper(helper) == ['PYTHONDONTWRITEBYTECODE is set']
    assert not (helper / '__pycache__').exists()


def test_a_helper_whose_bytecode_cannot_be_written_is_noted(helper):
    (helper / '__pycache__').write_text('a file where the folder would be: not writable, even by root\n')
    assert load_helper(helper) == ['%s cannot be written' % (helper / '__pycache__')]


@pytest.fixture
def run_folder(tmp_path, monkeypatch):
    """A run's private temporary folder, this process not having told yet, the helpers noted as not kept."""
    from ansible import constants
    folder = tmp_path / 'ansible-local-run'
    folder.mkdir()
    monkeypatch.setattr(constants, 'DEFAULT_LOCAL_TMP', str(folder))
    monkeypatch.setattr(bytecode, '_TOLD', [])
    monkeypatch.setattr(bytecode, 'UNCACHED', ['PYTHONDONTWRITEBYTECODE is set'])
    return folder


def test_the_missing_bytecode_is_named_once_per_run_with_its_fix(run_folder, monkeypatch):
    seen = []
    bytecode.warn_uncached(seen.append)
    bytecode.warn_uncached(seen.append)
    assert len(seen) == 1
    assert 'PYTHONDONTWRITEBYTECODE is set' in seen[0]
    assert seen[0].endswith('python -m compileall -q --invalidation-mode timestamp %s' % bytecode.COLLECTION)
    assert bytecode.COLLECTION.endswith(os.path.join('ansible_collections', 'strata', 'hier'))
    monkeypatch.setattr(bytecode, '_TOLD', [])      # another process of the same run (a forked worker)
    bytecode.warn_uncached(seen.append)
    assert len(seen) == 1


def test_nothing_is_named_where_every_helper_had_bytecode(run_folder, monkeypatch):
    monkeypatch.setattr(bytecode, 'UNCACHED', [])
    seen = []
    bytecode.warn_uncached(seen.append)
    assert seen == [] and os.listdir(str(run_folder)) == []


# ansible-playbook as it runs the lookup: the main process loads it (as the preload callback does), then forks a
# worker per host; each worker runs the lookup and notes the warnings it gives in a file.
PLAY_WITHOUT_BYTECODE = '''
import json, os, sys
from ansible.plugins.loader import init_plugin_loader, lookup_loader
from ansible.parsing.dataloader import DataLoader
from ansible.template import Templar
init_plugin_loader([sys.argv[1]])
config, log, preload = sys.argv[2], sys.argv[3], sys.argv[4] == 'preload'
if preload:
    lookup_loader.get('strata.hier.hier')

def worker(host):
    loader = DataLoader()
    lookup = lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader))
    display = sys.modules[type(lookup).__module__].display
    display.warning = lambda message, *args, **kwargs: open(log, 'a').write(message + '\\n')
    return lookup.run(['Packages'], variables={'inventory_hostname': host, 'role': 'web'}, config=config)

for host in ('web1', 'web2', 'web3'):
    if os.fork() == 0:
        worker(host)
        os._exit(0)
    os.wait()
print(json.dumps(open(log).read().splitlines() if os.path.exists(log) else []))
'''


@pytest.mark.parametrize('preload', ['preload', 'lookup only'])
def test_a_run_without_bytecode_names_it_once(tmp_path, preload):
    config = write_role_store(tmp_path, 'Unique')
    environment = dict(os.environ, PYTHONPYCACHEPREFIX=str(tmp_path / 'empty-pycache'), PYTHONDONTWRITEBYTECODE='1')
    warnings = run_fresh(PLAY_WITHOUT_BYTECODE, config, tmp_path / 'warnings.txt', preload, environment=environment)
    assert len(warnings) == 1, warnings
    assert 'PYTHONDONTWRITEBYTECODE is set' in warnings[0] and 'python -m compileall' in warnings[0]


def test_a_run_with_bytecode_names_nothing(tmp_path):
    config = write_role_store(tmp_path, 'Unique')
    environment = {name: value for name, value in os.environ.items() if name != 'PYTHONDONTWRITEBYTECODE'}
    environment['PYTHONPYCACHEPREFIX'] = str(tmp_path / 'pycache')
    # the first run compiles and keeps the bytecode, the next reads it: PYTHONDONTWRITEBYTECODE then changes nothing
    for run, extra in enumerate([{}, {'PYTHONDONTWRITEBYTECODE': '1'}]):
        log = tmp_path / ('warnings-%d.txt' % run)
        assert run_fresh(PLAY_WITHOUT_BYTECODE, config, log, 'lookup only', environment=dict(environment, **extra)) == []
