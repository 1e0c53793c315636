# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""A Hiera repository written by an attacker (issue 25, findings 5, 6 and 8): links out of the repository,
globs through links to folders, YAML alias bombs, brace patterns from facts. Each ends in an error naming the
file (and the level), after work bounded by the data as written."""

from __future__ import annotations

import contextlib
import os
import signal

import pytest

from ansible_collections.strata.hier.plugins.module_utils.core import limits
from ansible_collections.strata.hier.plugins.module_utils.core.errors import ExpansionError, HieraError, MergeError
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.config import ruby_glob
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.test_hiera_core import HIERA, engine, write


class Overtime(Exception):
    """Not an OSError (TimeoutError is one, and the glob walk ignores those of a folder it cannot list)."""


@contextlib.contextmanager
def deadline(seconds):
    """Interrupt the block after ``seconds`` (the code before the fix ran for minutes or forever)."""
    def expire(_signum, _frame):
        raise Overtime('still running after %s s: the work is not bounded' % seconds)
    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def with_level(level):
    return HIERA.replace('  - {name: common, path: common.yaml}\n', '  - %s\n  - {name: common, path: common.yaml}\n'
                         % level)


# ---------------------------------------------------------------- finding 5: links out of the repository

def test_a_data_file_linking_out_of_the_repository_is_refused_naming_it(tmp_path):
    write(tmp_path / 'elsewhere', {'secret.yaml': 'k: stolen\n'})
    repo = tmp_path / 'repo'
    hiera = engine(repo, {'data/common.yaml': 'k: 1\n', 'data/roles/.keep': ''})
    os.symlink(str(tmp_path / 'elsewhere' / 'secret.yaml'), str(repo / 'data' / 'roles' / 'web.yaml'))
    with pytest.raises(HieraError, match=r"level 'role' reads \S+/roles/web\.yaml, which a link leads to "
                                         r"\S+/elsewhere/secret\.yaml, outside the configuration's folder"):
        hiera.lookup('k')


def test_a_folder_linking_out_of_the_repository_is_refused_in_paths_and_globs(tmp_path):
    write(tmp_path / 'elsewhere', {'web.yaml': 'k: stolen\n'})
    repo = tmp_path / 'repo'
    files = {'hiera.yaml': with_level('{name: g, glob: "linked/*.yaml"}'), 'data/common.yaml': 'k: 1\n'}
    write(repo, files)
    os.symlink(str(tmp_path / 'elsewhere'), str(repo / 'data' / 'linked'))
    with pytest.raises(HieraError, match=r"level 'g' reads \S+/linked/web\.yaml, which a link leads to"):
        engine(repo, files).lookup('k')
    os.symlink(str(tmp_path / 'elsewhere'), str(repo / 'data' / 'roles'))
    with pytest.raises(HieraError, match=r"level 'role' reads \S+/roles/web\.yaml, which a link leads to"):
        engine(repo, {'data/common.yaml': 'k: 1\n'}).lookup('k')


def test_links_inside_the_repository_are_followed_as_a_hier_yml_store_follows_them(tmp_path):
    files = {'hiera.yaml': with_level('{name: g, glob: "linked/*.yaml"}'), 'data/common.yaml': 'k: [c]\n',
             'shared/web.yaml': 'k: [r]\n', 'data/nodes/db.yaml': 'k: [n]\n', 'data/roles/.keep': ''}
    write(tmp_path, files)
    os.symlink('../../shared/web.yaml', str(tmp_path / 'data' / 'roles' / 'web.yaml'))     # leaves datadir only
    os.symlink('nodes', str(tmp_path / 'data' / 'linked'))
    os.symlink('db.yaml', str(tmp_path / 'data' / 'nodes' / 'web01.example.com.yaml'))
    hiera = engine(tmp_path, files)
    assert hiera.lookup('k', 'unique') == ['n', 'r', 'c']
    assert [holder['file'] for holder in hiera.holders('k')][2:4] == [
        str(tmp_path / 'data' / 'linked' / name) for name in ('db.yaml', 'web01.example.com.yaml')]


# ---------------------------------------------------------------- finding 6: globs through links, alias bombs

def test_a_double_star_glob_does_not_follow_links_to_folders(tmp_path):
    write(tmp_path, {'data/a.yaml': '', 'data/sub/b.yaml': '', 'data/sub/deeper/c.yaml': ''})
    for name in ('l1', 'l2'):       # each a link to its folder: following them walks 2^40 paths
        os.symlink('.', str(tmp_path / 'data' / name))
    os.symlink('..', str(tmp_path / 'data' / 'sub' / 'up'))
    with deadline(3):
        found = ruby_glob(str(tmp_path / 'data') + '/**/*.yaml')
    assert [os.path.relpath(path, str(tmp_path / 'data')) for path in found] == \
        ['a.yaml', 'sub/b.yaml', 'sub/deeper/c.yaml']        # as Ruby's Dir.glob: ** enters real folders only


def test_a_glob_multiplied_by_links_is_charged_to_the_nodes_budget(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, 'EXPANSION_FLOOR', 20000)
    files = {'hiera.yaml': with_level('{name: g, glob: "%s/x.yaml"}' % '/'.join(['*'] * 8)),
             'data/common.yaml': 'k: 1\n'}
    write(tmp_path, files)
    for name in ('l1', 'l2'):       # a single * follows links, as Ruby's does: 3^8 paths (so does 2^40)
        os.symlink('.', str(tmp_path / 'data' / name))
    with deadline(3), pytest.raises(ExpansionError, match=r"hiera\.yaml: level 'g': expanding the data passes its "
                                                          r"work budget"):
        engine(tmp_path, files).lookup('k')


def alias_bomb(levels):
    """``levels`` anchors, each a list of nine aliases of the one before: 9^levels strings in a few hundred bytes."""
    lines = ['a0: &a0 [x, y, z, w, v, u, t, s, r]']
    lines.extend('a%d: &a%d [%s]' % (level, level, ', '.join(['*a%d' % (level - 1)] * 9))
                 for level in range(1, levels))
    return '\n'.join(lines) + '\n'


def test_a_yaml_alias_bomb_is_refused_at_the_cost_of_the_file_as_written(tmp_path):
    bomb = alias_bomb(9)            # 468 bytes standing for 387 million strings
    hiera = engine(tmp_path, {'data/common.yaml': bomb})
    with deadline(3), pytest.raises(MergeError, match=r"common\.yaml: expanding the data passes its work budget"
                                                      r".*key 'a8', level 'common'"):
        hiera.lookup('a8')
    hiera = engine(tmp_path, {'data/common.yaml': bomb})      # a node's budget is spent: a fresh one
    assert hiera.lookup('a1') == [['x', 'y', 'z', 'w', 'v', 'u', 't', 's', 'r']] * 9      # small parts answer


def test_aliases_below_the_budget_answer_in_full_and_nesting_counts_them_repeated(tmp_path):
    hiera = engine(tmp_path, {'data/common.yaml': alias_bomb(3) + 'b: {one: *a1, two: {more: *a1}}\n'})
    row = ['x', 'y', 'z', 'w', 'v', 'u', 't', 's', 'r']
    assert hiera.lookup('a2') == [[row] * 9] * 9
    assert hiera.lookup('b.two.more') == [row] * 9
    deep = '[' * 40 + '1' + ']' * 40
    hiera = engine(tmp_path / 'deep', {'data/common.yaml': 'inner: &i %s\nouter: %s*i%s\n'
                                       % (deep, '[' * 30, ']' * 30)})
    with pytest.raises(HieraError, match='nests deeper than 64 levels'):
        hiera.lookup('outer')       # 70 levels once the alias is written out, as before


# ---------------------------------------------------------------- finding 8: brace patterns from facts

def test_braces_in_a_fact_are_globbed_as_puppet_does(tmp_path):
    files = {'hiera.yaml': with_level('{name: g, glob: "picks/%{facts.pick}.yaml"}'),
             'data/picks/a.yaml': 'k: [a]\n', 'data/picks/b.yaml': 'k: [b]\n', 'data/common.yaml': 'k: [c]\n'}
    assert engine(tmp_path, files, facts={'pick': '{b,a}'}).lookup('k', 'unique') == ['b', 'a', 'c']


def test_braces_doubling_per_group_are_charged_to_the_nodes_budget(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, 'EXPANSION_FLOOR', 20000)
    files = {'hiera.yaml': with_level('{name: g, glob: "picks/%{facts.pick}.yaml"}'), 'data/common.yaml': 'k: 1\n'}
    hiera = engine(tmp_path, files, facts={'pick': '{a,b}' * 12})        # 4,096 patterns; 80 characters: 2^16
    with pytest.raises(ExpansionError, match=r"hiera\.yaml: level 'g': expanding the data passes its work budget"):
        hiera.lookup('k')


def test_a_level_path_using_method_syntax_names_the_hiera_yaml_and_level(tmp_path):
    """Found by the Hiera fuzz target: Hiera refuses %{lookup()} in a level's path, and the error named neither the
    hiera.yaml nor the level."""
    hiera = engine(tmp_path, {'hiera.yaml': with_level('{name: meth, path: "%{lookup(\'k\')}.yaml"}'),
                              'data/common.yaml': 'k: 1\n'})
    with pytest.raises(HieraError, match=r"hiera\.yaml: level 'meth': Interpolation using method syntax is not "
                                         r"allowed in this context"):
        hiera.lookup('k')


@pytest.mark.parametrize('level', ['{name: tiers, path: "tiers/%{facts.tier}.yaml"}',
                                   '{name: tiers, glob: "tiers/%{facts.tier}/*.yaml"}',
                                   '{name: tiers, mapped_paths: [facts.tiers, t, "tiers/%{t}.yaml"]}'])
def test_a_fact_holding_a_nul_character_in_a_level_path_is_an_error_naming_the_level(tmp_path, level):
    """Found by the Hiera fuzz target: os.listdir and os.path.realpath raise ValueError on a NUL character."""
    hiera = engine(tmp_path, {'hiera.yaml': with_level(level), 'data/common.yaml': 'k: 1\n'},
                   facts={'role': 'web', 'tier': 'a\0', 'tiers': ['a\0']})
    with pytest.raises(HieraError, match=r"hiera\.yaml: level 'tiers': the path '\S*tiers/a\\x00\S*' holds a NUL "
                                         r"character"):
        hiera.lookup('k')
