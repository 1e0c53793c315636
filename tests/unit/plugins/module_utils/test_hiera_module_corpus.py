# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Puppet's module layer: strata.hier's Hiera core against Puppet 7.23's recorded answers about module keys
(tests/oracle/hiera/module_corpus.json, written by module_oracle.py).

Every case outside hiera_corpus.MODULE_DEPARTURES (docs/hiera.md) gives Puppet's answer, the warnings Puppet gives
have one of strata.hier's, and every recorded ``--explain`` has the same steps (layers, module data providers,
levels, paths, merges).  Puppet is not needed.
"""

from __future__ import annotations

import collections
import json

import pytest

from ansible_collections.strata.hier.tests.unit.plugins.module_utils.hiera_corpus import (
    MODULE_CORPUS, MODULE_DEPARTURES, Replayer, agrees, departure_of, explain_outline, load_corpus,
)


@pytest.fixture(scope='module')
def replayer(tmp_path_factory):
    return Replayer(load_corpus(MODULE_CORPUS), str(tmp_path_factory.mktemp('hiera-module-corpus')))


def test_every_module_case_agrees_with_puppet_but_the_listed_departures(replayer):
    answers = {case['id']: (case, replayer.answer(case)) for case in replayer.corpus['cases']}
    disagreements = ['%s (key %r, merge %r): Puppet %s, strata.hier %s' % (
        case['id'], case['key'], case.get('merge'), json.dumps(case['answer'])[:300], json.dumps(ours, default=repr)[:300])
        for case, ours in answers.values() if not departure_of(case['id']) and not agrees(case, ours)]
    assert not disagreements, '%d disagreements:\n%s' % (len(disagreements), '\n'.join(disagreements))
    stale = [case_id for ids in MODULE_DEPARTURES.values() for case_id in ids if agrees(*answers[case_id])]
    assert not stale, 'listed as departures but agreeing: %s' % stale


def test_the_module_corpus_covers_what_the_module_layer_does(replayer):
    cases = replayer.corpus['cases']
    assert len(cases) >= 40
    statuses = collections.Counter(case['answer']['status'] for case in cases)
    assert statuses['found'] > 30 and statuses['not_found'] > 5 and statuses['error'] > 5
    merges = collections.Counter(case.get('merge', 'none') for case in cases if case['answer']['status'] == 'found')
    assert all(merges[name] for name in ('none', 'first', 'unique', 'hash', 'deep'))
    assert sum(1 for case in cases if case.get('explain')) >= 6


def test_a_module_data_file_holding_other_keys_warns_as_puppet_does(replayer):
    """Puppet warns about the module file holding another namespace's keys; strata.hier too (once), naming it."""
    case = next(case for case in replayer.corpus['cases'] if case['id'] == 'hand.module.foreign.own')
    assert any("must use keys qualified with the name of the module" in warning for warning in case['warnings'])
    engine = replayer.engine(case['repository'], replayer.corpus['repositories'][case['repository']])
    assert engine.lookup('alpha::x') == 'alpha'
    warned = [warning for warning in engine.warnings if "Module 'alpha'" in warning]
    assert len(warned) == 1 and 'modules/alpha/data/common.yaml' in warned[0] and '"beta::x", "beta::y", "top"' in warned[0]


def test_module_explain_follows_puppet_lookup_explain_step_by_step(replayer):
    cases = [case for case in replayer.corpus['cases'] if case.get('explain')]
    differing = []
    for case in cases:
        environment = replayer.folder(case['repository'])
        theirs = explain_outline(case['explain_text'], environment)
        ours = explain_outline(replayer.explained(case), environment)
        if theirs != ours:
            differing.append('%s:\nPuppet %s\nours   %s' % (case['id'], theirs, ours))
    assert not differing, '\n'.join(differing)
