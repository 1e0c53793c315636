# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""strata.hier's Hiera core against Puppet 7.23's recorded answers (tests/oracle/hiera/corpus.json).

Every case outside the documented departures (hiera_corpus.DEPARTURES, docs/hiera.md) must give Puppet's
answer: the same value with the same types and key order, not found, or an error; every listed departure
must still depart.  Puppet is not needed: the corpus holds its answers.
"""

from __future__ import annotations

import collections
import json

import pytest

from ansible_collections.strata.hier.tests.unit.plugins.module_utils.hiera_corpus import (
    DEPARTURES, EXPLAIN_DEPARTURES, Replayer, agrees, departure_of, explain_outline, load_corpus,
)


@pytest.fixture(scope='module')
def replayer(tmp_path_factory):
    return Replayer(load_corpus(), str(tmp_path_factory.mktemp('hiera-corpus')))


def _shown(case, ours):
    return '%s (key %r, merge %r): Puppet %s, strata.hier %s' % (
        case['id'], case['key'], case.get('merge'), json.dumps(case['answer'])[:300],
        json.dumps(ours, default=repr)[:300])


def test_every_case_agrees_with_puppet_but_the_listed_departures(replayer):
    """One replay of the whole corpus (ansible-test runs each test in a forked process, so a replay shared
    through a fixture would run again for every test): outside DEPARTURES every answer is Puppet's, and every
    listed departure still departs."""
    answers = {case['id']: (case, replayer.answer(case)) for case in replayer.corpus['cases']}
    disagreements = [_shown(case, ours) for case, ours in answers.values()
                     if not departure_of(case['id']) and not agrees(case, ours)]
    assert not disagreements, '%d disagreements:\n%s' % (len(disagreements), '\n'.join(disagreements[:30]))
    stale = [case_id for ids in DEPARTURES.values() for case_id in ids
             if case_id not in answers or agrees(*answers[case_id])]
    assert not stale, 'listed as departures but agreeing (or gone): %s' % stale


def test_the_corpus_exercises_every_answer_kind_and_merge(replayer):
    """The replay is not vacuous: Puppet's answers cover found values of every merge, not-found and errors."""
    cases = replayer.corpus['cases']
    statuses = collections.Counter(case['answer']['status'] for case in cases)
    merges = collections.Counter(case.get('merge', 'none') for case in cases if case['answer']['status'] == 'found')
    assert len(cases) == 1561
    assert statuses['found'] > 1000 and statuses['not_found'] > 100 and statuses['error'] > 250
    assert all(merges[name] > 50 for name in ('none', 'first', 'unique', 'hash', 'deep'))


@pytest.mark.parametrize('case_id, expected', [
    # a few answers spelled out, so a reader sees what the replay compares
    ('hand.knockout.three', ['y', '--z', 'w', 'z']),
    ('hand.unique.flat', ['c', 'd', 'a', 'b', 'z']),
    ('hand.deep.top-list', ['a', 'c', 'b']),
    ('hand.hash.key-order', None),
])
def test_spelled_out_answers(replayer, case_id, expected):
    case = next(case for case in replayer.corpus['cases'] if case['id'] == case_id)
    ours = replayer.answer(case)
    assert ours['status'] == 'found'
    if expected is None:
        expected = case['answer']['value']
        assert list(ours['value']) == list(expected)     # key order: least specific level's keys first
    assert ours['value'] == expected


def test_explain_follows_puppet_lookup_explain_step_by_step(replayer):
    """Levels, resolved paths, original paths, not found / no such key / found, merges and sub keys, in Puppet's
    order, for every recorded --explain case outside EXPLAIN_DEPARTURES."""
    cases = [case for case in replayer.corpus['cases'] if case.get('explain')]
    differing = []
    for case in cases:
        environment = replayer.folder(case['repository'])
        if explain_outline(case['explain_text'], environment) != explain_outline(replayer.explained(case), environment):
            differing.append(case['id'])
    assert len(cases) == 38
    assert sorted(differing) == sorted(EXPLAIN_DEPARTURES)
