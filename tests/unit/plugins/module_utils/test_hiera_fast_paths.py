# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Hiera engine's fast path of a plain lookup (no explain, no provenance: the levels reduced without the
explain's wrappers, each value of a data file checked once) agrees with its general path (issue 26, item 3)."""

from __future__ import annotations

import os
import tempfile
from unittest import mock

import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from ansible_collections.strata.hier.plugins.module_utils.core.errors import HieraNotFound, MergeError
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera import engine as hiera_engine
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.test_fast_paths import general_path
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.test_hiera_core import HIERA, engine, write

SCALARS = st.one_of(st.sampled_from(['p', 'q', '--p', '--', '%{facts.role}', "%{lookup('other')}", '']),
                    st.integers(-1, 1), st.booleans(), st.none())
TREES = st.recursive(SCALARS, lambda children: st.one_of(
    st.lists(children, max_size=3),
    st.dictionaries(st.sampled_from(['a', 'b', '--a', '%{facts.role}', True]), children, max_size=3)), max_leaves=8)
MERGES = st.sampled_from([None, 'first', 'unique', 'hash', 'deep', {'strategy': 'deep', 'knockout_prefix': '--'},
                          {'strategy': 'deep', 'merge_hash_arrays': True}])
LEVELS = st.fixed_dictionaries({}, optional={'nodes/web01.example.com.yaml': TREES, 'roles/web.yaml': TREES,
                                             'common.yaml': TREES})


def answers(folder, levels, other, merge, options):
    """Each key's answer (value, or the error's type and text) from a fresh engine."""
    files = {path: yaml.safe_dump({'k': value, 'other': other}) for path, value in levels.items()}
    common = yaml.safe_load(files.get('common.yaml', '{}'))
    common['lookup_options'] = {'k': {'merge': options}} if options else {}
    files['common.yaml'] = yaml.safe_dump(common)
    write(folder, dict({'hiera.yaml': HIERA}, **{os.path.join('data', path): text for path, text in files.items()}))
    found = []
    for key in ('k', 'k.a', 'k.1', 'other', 'missing'):
        lookups = engine(folder, {})
        for _again in range(2):     # the second from the same engine: its files read, its texts interpolated
            try:
                found.append(('value', lookups.lookup(key, merge)))
            except (HieraNotFound, MergeError) as exc:
                found.append((type(exc).__name__, str(exc).replace(folder, 'FOLDER')))
        assert unchanged(lookups)
    return found


def unchanged(lookups):
    """Whether the engine's parsed files are still as written: a merge changes no data it read."""
    return all(data == yaml.safe_load(open(path, encoding='utf-8'))
               for path, data in lookups._files.items())     # pylint: disable=protected-access


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LEVELS, TREES, MERGES, MERGES)
def test_a_plain_lookup_answers_as_the_general_path(levels, other, merge, options):
    with tempfile.TemporaryDirectory() as folder:
        fast = answers(folder, levels, other, merge, options)
    with tempfile.TemporaryDirectory() as folder, general_path():
        general = answers(folder, levels, other, merge, options)
    assert fast == general


FILES = {'data/common.yaml': 'k: {a: [1, 2]}\n', 'data/roles/web.yaml': 'k: {a: [3]}\n'}


def test_the_fast_path_is_taken_and_the_general_one_under_the_switch(tmp_path):
    with mock.patch.object(hiera_engine.HieraLookup, '_plain_levels',
                           side_effect=AssertionError('fast path')) as plain:
        with general_path():
            assert engine(tmp_path, FILES).lookup('k', 'deep') == {'a': [1, 2, 3]}
        assert not plain.called
        try:
            engine(tmp_path, FILES).lookup('k', 'deep')
        except AssertionError:
            pass
        assert plain.called


def test_a_value_of_a_data_file_is_checked_once_while_the_file_is_the_same(tmp_path, monkeypatch):
    checked = []
    real = hiera_engine._check_keys
    monkeypatch.setattr(hiera_engine, '_check_keys', lambda value, *args: checked.append(value) or real(value, *args))
    shared = {}
    files = dict(FILES, **{'data/nodes/db01.yaml': 'k: {a: [4]}\n'})
    assert engine(tmp_path, files, shared=shared).lookup('k', 'deep') == {'a': [1, 2, 3]}
    assert len(checked) == 2
    assert engine(tmp_path, {}, shared=shared).lookup('k', 'deep') == {'a': [1, 2, 3]}     # another host, same files
    assert len(checked) == 2        # was each value again
    assert engine(tmp_path, {}, node='db01', shared=shared).lookup('k', 'deep') == {'a': [1, 2, 3, 4]}
    assert len(checked) == 3
    with general_path():
        engine(tmp_path, {}, shared=shared).lookup('k', 'deep')
    assert len(checked) == 5
