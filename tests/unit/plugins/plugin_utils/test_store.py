# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

import os

import pytest

from ansible.parsing.dataloader import DataLoader

from ansible_collections.strata.hier.plugins.plugin_utils import store as store_module
from ansible_collections.strata.hier.plugins.plugin_utils.store import DataStore, StoreError


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as stream:
        stream.write(text)


@pytest.fixture
def datadir(tmp_path):
    root = str(tmp_path / 'data')
    write(os.path.join(root, 'Roles', 'Web.yml'), 'Packages: [a]\nSettings:\n  Port: 80\n  --Old: null\n')
    write(os.path.join(root, 'Envs', 'Dev.json'), '{"Tier": "dev"}')
    write(os.path.join(root, 'Envs', 'Prod.yaml'), 'Tier: prod\n')
    write(os.path.join(root, 'Empty.yml'), '')
    return root


@pytest.fixture
def parses(monkeypatch):
    """Counts the files the store parses (its calls to load_untrusted)."""
    count = {'files': 0}
    load_untrusted = store_module.load_untrusted

    def counted(*args, **kwargs):
        count['files'] += 1
        return load_untrusted(*args, **kwargs)
    monkeypatch.setattr(store_module, 'load_untrusted', counted)
    return count


def test_folders_files_and_keys(datadir):
    store = DataStore(datadir, DataLoader())
    assert store.get(('Roles', 'Web', 'Settings', 'Port')).value == 80
    assert store.get(('Roles', 'Web')).file.endswith('Web.yml')
    assert store.get(('Envs', 'Dev', 'Tier')).value == 'dev'
    assert store.get(('Envs',)).value == {'Dev': {'Tier': 'dev'}, 'Prod': {'Tier': 'prod'}}
    assert store.get(('Envs', 'Test')).value is None
    assert store.get(('Roles', 'Web', 'Packages', 'x')).value is None
    assert store.get(('Empty',)).value == {}


def test_knockout_of_the_looked_up_key(datadir):
    store = DataStore(datadir, DataLoader())
    found = store.get(('Roles', 'Web', 'Settings', 'Old'), knockout_prefix='--')
    assert found.knocked_out and found.value is None
    assert not store.get(('Roles', 'Web', 'Settings', 'Port'), knockout_prefix='--').knocked_out


def test_case_insensitive(datadir):
    store = DataStore(datadir, DataLoader(), case_insensitive=True)
    assert store.get(('roles', 'WEB', 'settings', 'port')).value == 80
    assert DataStore(datadir, DataLoader()).get(('roles', 'Web')).value is None


def test_each_file_parsed_once_until_it_changes(datadir, parses):
    store = DataStore(datadir, DataLoader())
    before = parses['files']
    for _attempt in range(5):
        DataStore(datadir, DataLoader()).get(('Roles', 'Web', 'Packages'))
    assert parses['files'] == before + 1
    path = os.path.join(datadir, 'Roles', 'Web.yml')
    write(path, 'Packages: [b, c]\n')
    os.utime(path, ns=(1, 1))
    assert store.get(('Roles', 'Web', 'Packages')).value == ['b', 'c']
    assert parses['files'] == before + 2
    write(path, 'Packages: [d]\n')
    os.utime(path, ns=(2, 2))
    assert store.get(('Roles', 'Web', 'Packages')).value == ['b', 'c']    # one pass sees one snapshot
    store.begin_pass()
    assert store.get(('Roles', 'Web', 'Packages')).value == ['d']


def test_links_out_of_the_data_folder_are_refused(datadir, tmp_path):
    write(str(tmp_path / 'secret.yml'), 'x: 1\n')
    os.symlink(str(tmp_path / 'secret.yml'), os.path.join(datadir, 'Roles', 'Leak.yml'))
    with pytest.raises(StoreError, match='outside the data folder'):
        DataStore(datadir, DataLoader()).get(('Roles', 'Leak', 'x'))


def test_two_files_for_one_key(datadir):
    write(os.path.join(datadir, 'Roles', 'Web.yaml'), 'a: 1\n')
    with pytest.raises(StoreError, match='both define the key'):
        DataStore(datadir, DataLoader()).get(('Roles', 'Web'))


def test_missing_data_folder(tmp_path):
    with pytest.raises(StoreError, match='does not exist'):
        DataStore(str(tmp_path / 'nope'), DataLoader())


def test_a_file_that_is_not_utf8_is_named(datadir):
    with open(os.path.join(datadir, 'Roles', 'Win.yml'), 'wb') as stream:
        stream.write('Name: Web\n'.encode('utf-16'))
    with pytest.raises(StoreError, match=r'Win.yml'):
        DataStore(datadir, DataLoader()).get(('Roles', 'Win', 'Name'))


def test_a_named_file_is_found_by_stat_without_listing_its_folder(tmp_path, monkeypatch):
    """Issue 13, target 2: a lookup touches only the files its levels name, however many the folder holds."""
    root = str(tmp_path / 'data')
    for index in range(50):
        write(os.path.join(root, 'nodes', 'n%02d.yml' % index), 'Node: %d\n' % index)
    write(os.path.join(root, 'nodes', 'Big.YAML'), 'Node: big\n')
    os.makedirs(os.path.join(root, 'nodes', 'sub'))
    write(os.path.join(root, 'nodes', 'sub', 'x.json'), '{"Node": "x"}')
    listed = []
    real_listdir = os.listdir
    monkeypatch.setattr(store_module.os, 'listdir', lambda path: listed.append(path) or real_listdir(path))
    store = DataStore(root, DataLoader())
    assert store.get(('nodes', 'n07', 'Node')).value == 7
    assert store.get(('nodes', 'Big', 'Node')).value == 'big'
    assert store.get(('nodes', 'sub', 'x', 'Node')).value == 'x'
    assert store.get(('nodes', 'missing', 'Node')).value is None
    assert store.get(('nodes', 'n08'), ('Node',)).value == 8
    assert listed == []
    # the same answers as the listing gives (case-insensitive stores list the folder to fold names)
    listing = DataStore(root, DataLoader(), case_insensitive=True)
    assert listing.get(('nodes', 'n07', 'Node')).value == 7 and listed


def test_a_named_file_follows_changes_to_its_folder(tmp_path):
    root = str(tmp_path / 'data')
    write(os.path.join(root, 'nodes', 'a.yml'), 'Node: a\n')
    store = DataStore(root, DataLoader())
    assert store.get(('nodes', 'b', 'Node')).value is None
    write(os.path.join(root, 'nodes', 'b.yml'), 'Node: b\n')
    os.utime(os.path.join(root, 'nodes'), ns=(1, 1))    # a new mtime, whatever the clock's resolution
    store.begin_pass()
    assert store.get(('nodes', 'b', 'Node')).value == 'b'


def test_two_files_of_one_named_key_are_an_error_by_stat_too(tmp_path):
    root = str(tmp_path / 'data')
    write(os.path.join(root, 'nodes', 'a.yml'), 'Node: 1\n')
    write(os.path.join(root, 'nodes', 'a.json'), '{"Node": 2}')
    with pytest.raises(StoreError, match=r'a\.json and .*a\.yml both define the key .a.'):
        DataStore(root, DataLoader()).get(('nodes', 'a', 'Node'))


def test_a_level_walk_is_kept_for_one_pass_and_continues_with_each_key(datadir):
    store = DataStore(datadir, DataLoader())
    assert store.get(('Roles',), ('Web', 'Settings', 'Port')).value == 80
    assert store.get(('Roles', 'Web'), ('Packages',)).value == ['a']
    assert store.get(('Envs',), ('Dev', 'Tier')).value == 'dev'
    assert store.get(('Envs', 'Test'), ('Tier',)) is store_module.NOT_FOUND
    write(os.path.join(datadir, 'Envs', 'Test.yml'), 'Tier: test\n')
    assert store.get(('Envs', 'Test'), ('Tier',)).value is None      # one pass sees one snapshot
    store.begin_pass()
    assert store.get(('Envs', 'Test'), ('Tier',)).value == 'test'


def test_a_level_walk_that_fails_names_the_whole_key_path(datadir, tmp_path):
    os.makedirs(str(tmp_path / 'outside'))
    os.symlink(str(tmp_path / 'outside'), os.path.join(datadir, 'Away'))
    store = DataStore(datadir, DataLoader())
    for _attempt in range(2):
        with pytest.raises(StoreError, match="'Away/Key' resolves to .*outside the data folder"):
            store.get(('Away',), ('Key',))


def test_a_file_replaced_by_one_of_the_same_size_and_mtime_is_read_again(datadir):
    path = os.path.join(datadir, 'Roles', 'Web.yml')
    store = DataStore(datadir, DataLoader())
    assert store.get(('Roles', 'Web', 'Packages')).value == ['a']
    before = os.stat(path)
    write(path + '.new', open(path).read().replace('[a]', '[b]'))
    os.utime(path + '.new', ns=(before.st_atime_ns, before.st_mtime_ns))
    os.replace(path + '.new', path)     # another inode: what an editor's or a deployment's atomic write makes
    store.begin_pass()
    assert store.get(('Roles', 'Web', 'Packages')).value == ['b']


def test_preload_loads_every_data_file_but_those_only_dataloader_reads(datadir, parses):
    write(os.path.join(datadir, 'Twice.yml'), 'a: 1\na: 2\n')     # duplicate keys: DataLoader's warning, not ours
    write(os.path.join(datadir, 'Broken.yml'), 'a: [1\n')
    store = DataStore(datadir, DataLoader())
    loaded = store.preload()
    assert sorted(os.path.relpath(path, datadir) for path in loaded) == [
        'Empty.yml', os.path.join('Envs', 'Dev.json'), os.path.join('Envs', 'Prod.yaml'),
        os.path.join('Roles', 'Web.yml')]
    counted = parses['files']
    store.begin_pass()
    assert store.get(('Roles', 'Web', 'Packages')).value == ['a']
    assert parses['files'] == counted       # found parsed
    with pytest.raises(StoreError, match='Broken.yml'):
        store.get(('Broken', 'a'))
    assert store.get(('Twice', 'a')).value == 2


def test_preload_walks_to_each_file_so_a_lookup_finds_its_entries_known(datadir, monkeypatch):
    """A worker forked after the preload finds each level's entries found and real paths checked: its first lookup
    stats each folder once (its mtime), no candidate names; a file added later is still found."""
    store = DataStore(datadir, DataLoader())
    store.preload()
    kinds = []
    original = store_module.entry_kind
    monkeypatch.setattr(store_module, 'entry_kind', lambda name, path: kinds.append(name) or original(name, path))
    store.begin_pass()
    assert store.get(('Roles', 'Web', 'Packages')).value == ['a']
    assert store.get(('Envs', 'Prod')).value == {'Tier': 'prod'}
    assert kinds == []
    write(os.path.join(datadir, 'Roles', 'Db.yml'), 'Packages: [d]\n')
    store.begin_pass()
    assert store.get(('Roles', 'Db', 'Packages')).value == ['d']


def test_preload_takes_the_folders_of_fewest_files_first(tmp_path):
    root = str(tmp_path / 'data')
    for index in range(4):
        write(os.path.join(root, 'nodes', 'node%d.yml' % index), 'a: %d\n' % index)
    write(os.path.join(root, 'roles', 'web.yml'), 'a: web\n')
    write(os.path.join(root, 'common.yml'), 'a: common\n')
    loaded = DataStore(root, DataLoader()).preload(most=3)
    assert [os.path.relpath(path, root) for path in loaded] == [
        'common.yml', os.path.join('roles', 'web.yml'), os.path.join('nodes', 'node0.yml')]
