# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Hiera interpolation against hostile data (issue 25, finding 6): ``%{lookup()}``, ``%{hiera()}`` and
``%{alias()}`` are looked up once per key and engine, and what they produce is charged to the engine's
ExpansionBudget."""

from __future__ import annotations

import pytest

from ansible_collections.strata.hier.plugins.module_utils import limits
from ansible_collections.strata.hier.plugins.module_utils.errors import MergeError
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.test_hiera_core import engine


def chain(count, text, first='x'):
    """``k0: first`` and keys ``k1``..``k<count>``, each ``text`` formatted with the key before it."""
    return 'k0: %s\n' % first + ''.join('k%d: %s\n' % (index, text.replace('PREVIOUS', 'k%d' % (index - 1)))
                                        for index in range(1, count + 1))


def counting_variables(hiera):
    """Count the engine's variable reads (every evaluation of ``k0: "%{facts.leaf}"`` reads one)."""
    reads = []
    original = hiera.variable

    def variable(name, subject):
        reads.append(name)
        return original(name, subject)

    hiera.variable = variable
    return reads


@pytest.mark.parametrize('function', ['lookup', 'hiera'])
def test_each_key_an_interpolation_looks_up_is_evaluated_once(tmp_path, function):
    """Each key holds its predecessor twice: Puppet's way evaluates k0 2**n times, strata.hier once."""
    text = "\"%%{%s('PREVIOUS')}%%{%s('PREVIOUS')}\"" % (function, function)
    hiera = engine(tmp_path, {'data/common.yaml': chain(10, text, first='"%{facts.leaf}"')},
                   facts={'role': 'web', 'leaf': 'ab'})
    reads = counting_variables(hiera)
    assert hiera.lookup('k10') == 'ab' * 2 ** 10
    assert reads.count('facts.leaf') == 1


def test_alias_is_evaluated_once_and_each_use_gets_its_own_copy(tmp_path):
    text = "[\"%{alias('PREVIOUS')}\", \"%{alias('PREVIOUS')}\"]"
    hiera = engine(tmp_path, {'data/common.yaml': chain(8, text, first='["%{facts.leaf}"]')},
                   facts={'role': 'web', 'leaf': 'ab'})
    reads = counting_variables(hiera)
    value = hiera.lookup('k8')
    assert reads.count('facts.leaf') == 1
    assert value[0] == value[1] and value[0] is not value[1] and value[0][0] is not value[1][0]
    hiera.lookup('k8')[0][0].append('changed')
    assert hiera.lookup('k8') == value


def test_a_merge_never_changes_what_an_interpolation_remembered(tmp_path):
    """deep's knockout removes its markers from the list it is given: a remembered alias value must not be it."""
    files = {'data/roles/web.yaml': "k: \"%{alias('m')}\"\n",
             'data/common.yaml': "m: [--a, b]\nk: [a, c]\nj: \"%{alias('m')}\"\n"}
    hiera = engine(tmp_path, files)
    assert hiera.lookup('k', {'strategy': 'deep', 'knockout_prefix': '--'}) == ['c', 'b']
    assert hiera.lookup('j') == ['--a', 'b']


def test_text_repeated_by_interpolation_passes_the_budget_naming_the_key(tmp_path):
    """Ten times the key before, three times over: a million characters from 1 KB, the budget's floor."""
    text = '"%s"' % ("%{lookup('PREVIOUS')}" * 10)
    hiera = engine(tmp_path, {'data/common.yaml': chain(3, text, first='x' * 1000)})
    with pytest.raises(MergeError, match=r"Hiera interpolation of 'k2': expanding the data passes its work budget "
                                         r".*\(key 'k3', level 'common', file \S+common\.yaml\)"):
        hiera.lookup('k3')
    assert hiera.budget.spent > limits.EXPANSION_FLOOR


def test_values_repeated_by_alias_pass_the_budget(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, 'EXPANSION_FLOOR', 5000)       # the default floor takes a million values
    text = "[\"%{alias('PREVIOUS')}\", \"%{alias('PREVIOUS')}\"]"
    hiera = engine(tmp_path, {'data/common.yaml': chain(10, text, first='[%s]' % ', '.join(['1'] * 100))})
    allowance = 5000 + limits.EXPANSION_FACTOR * (tmp_path / 'data' / 'common.yaml').stat().st_size
    assert 2 ** 10 * 100 > allowance
    with pytest.raises(MergeError, match=r"Hiera interpolation of 'k\d+': expanding the data passes its work budget"):
        hiera.lookup('k10')


def test_ordinary_reuse_stays_within_the_budget(tmp_path):
    common = "base: {a: 1, b: [x, y]}\nurl: https://example.com\n" + ''.join(
        "k%d: {url: \"%%{lookup('url')}/%d\", base: \"%%{alias('base')}\"}\n" % (index, index) for index in range(300))
    hiera = engine(tmp_path, {'data/common.yaml': common})
    assert [hiera.lookup('k%d' % index) for index in (0, 299)] == [
        {'url': 'https://example.com/0', 'base': {'a': 1, 'b': ['x', 'y']}},
        {'url': 'https://example.com/299', 'base': {'a': 1, 'b': ['x', 'y']}}]
