# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Provenance records of subtrees copied whole from one file (issue 28): built once per file, level and rule and
copied for every host, the same records as the general path builds path by path."""

from __future__ import annotations

import os

from ansible.parsing.dataloader import DataLoader

from ansible_collections.strata.hier.plugins.module_utils.core.kinds import FAST_PATHS
from ansible_collections.strata.hier.plugins.plugin_utils import provenance_report
from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy_cache import get_hierarchy
from ansible_collections.strata.hier.tests.unit.plugins.readme_project import write

FILES = {
    'hier.yml': 'datadir: data\nhierarchy:\n  - "nodes/%{NodeName}"\n  - "common"\n'
                'lookup_options:\n  pkgs:\n    merge_hash_array: DeepTuple\n    merge_options: {tuple_keys: [Name]}\n'
                '  conf: deep\n',
    'data/common.yml': 'pkgs:\n  - Name: a\n    opts: {x: 1, y: {z: 2}}\n  - Name: b\n    v: 1\n'
                       'conf:\n  shared: {k: 1, deep: {l: 2}}\n  both: 1\n',
    'data/nodes/n1.yml': 'pkgs:\n  - Name: b\n    v: 2\nconf:\n  both: 2\n',
    'data/nodes/n2.yml': 'pkgs:\n  - Name: c\nconf:\n  mine: {m: 1}\n',
}


def test_records_of_whole_subtrees_are_built_once_and_copied_for_each_host(tmp_path, monkeypatch):
    write(tmp_path, FILES)
    hierarchy = get_hierarchy(str(tmp_path / 'hier.yml'), DataLoader())
    built = []
    record = provenance_report._record
    monkeypatch.setattr(provenance_report, '_record', lambda *args: built.append(args[0]) or record(*args))
    first = {key: hierarchy.lookup(key, {'NodeName': 'n1'}, provenance=True).records for key in ('pkgs', 'conf')}
    first['pkgs']['pkgs/1/opts/y/z']['value'] = 'changed by a caller'
    second = {key: hierarchy.lookup(key, {'NodeName': 'n2'}, provenance=True).records for key in ('pkgs', 'conf')}
    # common.yml's item a and conf/shared come whole: the records below them are built for n1 only (their paths
    # relative to the whole); Name: below a for n1, below c and b (merged with n1's b before) for n2
    assert built.count(('opts', 'y', 'z')) == built.count(('deep', 'l')) == 1 and built.count(('Name',)) == 3
    assert second['pkgs']['pkgs/1/opts/y/z'] == {
        'value': 2, 'file': 'data/common.yml', 'line': 3, 'column': 22, 'level': 'common', 'level_path': 'common',
        'rule': 'pkgs', 'rule_at': 'hier.yml:6'}
    assert second['conf']['conf/shared/deep/l']['line'] == 7
    for node, records in (('n1', first), ('n2', second)):
        with FAST_PATHS.general():
            general = {key: hierarchy.lookup(key, {'NodeName': node}, provenance=True).records
                       for key in ('pkgs', 'conf')}
        if node == 'n1':
            general['pkgs']['pkgs/1/opts/y/z']['value'] = 'changed by a caller'
        assert repr(records) == repr(general)


def test_a_level_file_is_worked_out_once_per_pass_for_every_host(tmp_path, monkeypatch):
    """Where a layer's places lie (its file, the keys before the looked-up key's, whether it is a folder) is worked
    out once per pass and level for all hosts reading the file, not per lookup; again in the next pass."""
    write(tmp_path, FILES)
    hierarchy = get_hierarchy(str(tmp_path / 'hier.yml'), DataLoader())
    common = str(tmp_path / 'data' / 'common.yml')
    looked_at = []
    isdir = os.path.isdir
    monkeypatch.setattr(os.path, 'isdir', lambda path: looked_at.append(path) or isdir(path))
    hierarchy.begin_pass()
    first = [hierarchy.lookup('conf', {'NodeName': node}, provenance=True).records for node in ('n1', 'n2', 'n1')]
    assert looked_at.count(common) == 1
    hierarchy.begin_pass()
    again = [hierarchy.lookup('conf', {'NodeName': node}, provenance=True).records for node in ('n1', 'n2', 'n1')]
    assert looked_at.count(common) == 2
    assert repr(again) == repr(first) and first[0] == first[2]
    assert first[1]['conf/shared/deep/l']['file'] == 'data/common.yml' and first[0]['conf/both']['shadowed'] == [
        {'file': 'data/common.yml', 'line': 8, 'value': 1}]
