# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Hiera interpolation against hostile data (issue 25, findings 6 and 9): ``%{lookup()}``, ``%{hiera()}`` and
``%{alias()}`` are looked up once per key and engine, what they produce is charged to the engine's
ExpansionBudget, and chains of them end in an ExpansionError naming the key, never in a RecursionError."""

from __future__ import annotations

import pytest

from ansible_collections.strata.hier.plugins.module_utils.core import limits
from ansible_collections.strata.hier.plugins.module_utils.core.errors import ExpansionError, HieraError, MergeError
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


@pytest.mark.parametrize('function', ['lookup', 'hiera', 'alias'])
def test_a_long_chain_of_interpolations_is_an_expansion_error_naming_the_key(tmp_path, function):
    hiera = engine(tmp_path, {'data/common.yaml': chain(60, "\"%%{%s('PREVIOUS')}\"" % function)})
    with pytest.raises(MergeError, match=r"Hiera interpolation of 'k\d+' in 'k\d+': interpolations nest deeper "
                                         r".*\(key 'k\d+', level 'common', file \S+common\.yaml\)"):
        hiera.lookup('k60')
    assert hiera.lookup('k10') == 'x' and hiera.budget.depth == 0


def test_a_short_chain_works_and_a_cycle_is_still_a_cycle(tmp_path):
    hiera = engine(tmp_path, {'data/common.yaml': chain(12, "\"%{lookup('PREVIOUS')}\"")
                              + "a: \"%{alias('b')}\"\nb: \"%{hiera('c')}\"\nc: \"%{lookup('a')}\"\n"})
    assert hiera.lookup('k12') == 'x'
    with pytest.raises(HieraError, match=r'Recursive lookup detected in \[a, b, c\]'):
        hiera.lookup('a')


def test_a_chain_of_variables_stops_at_the_expansion_depth(tmp_path):
    facts = dict({'role': 'web', 'v0': 'end'}, **{'v%d' % index: '%%{v%d}' % (index - 1) for index in range(1, 80)})
    hiera = engine(tmp_path, {'data/common.yaml': 'k: "%{v79}"\nshort: "%{v20}"\n'}, facts=facts)
    with pytest.raises(MergeError, match=r"Hiera interpolation of 'scope:v\d+': expansions nest more than %d deep.*"
                                         r"key 'k'" % limits.MAX_EXPANSION_DEPTH):
        hiera.lookup('k')
    assert hiera.lookup('short') == 'end'


def test_data_nesting_deeper_than_pythons_stack_is_an_expansion_error(tmp_path):
    """A fact nested thousands deep (host variables have no depth limit), read in a value and in a path."""
    deep = ['x']
    for _level in range(3000):
        deep = [deep]
    hiera = engine(tmp_path, {'data/common.yaml': 'k: "%{deep}"\nplain: 1\n'}, facts={'role': 'web', 'deep': deep})
    with pytest.raises(ExpansionError, match="Hiera key 'k': data and interpolations nest deeper than Python"):
        hiera.lookup('k')
    assert hiera.lookup('plain') == 1
    in_path = engine(tmp_path / 'path', {'data/common.yaml': 'k: 1\n'}, facts={'role': '%{deep}', 'deep': deep})
    with pytest.raises(ExpansionError, match='nest deeper than Python'):
        in_path.data_keys()
    with pytest.raises(ExpansionError, match='nest deeper than Python'):
        in_path.lookup('k')


def test_a_text_of_variables_is_interpolated_once_per_engine_and_charged_at_each_use(tmp_path):
    """An engine keeps a text of variables alone with its result (its scope never changes): a later use reads no
    variable, and is charged to the budget as the first was, so repeating it still ends at the budget."""
    hiera = engine(tmp_path, {'data/common.yaml': 'a: "%{facts.role}-%{trusted.certname}%{literal(\'%\')}"\n'
                                                  'b: "%{facts.role}-%{trusted.certname}%{literal(\'%\')}"\n'})
    reads = counting_variables(hiera)
    hiera.lookup('a')
    assert reads[-2:] == ['facts.role', 'trusted.certname']      # after the levels' variables
    del reads[:]
    spent = [hiera.budget.spent]
    for key in ('a', 'a', 'b'):
        assert hiera.lookup(key) == 'web-web01.example.com%'
        spent.append(hiera.budget.spent)
    assert reads == []
    assert spent[1] - spent[0] == spent[2] - spent[1] == spent[3] - spent[2] > 0
    hiera.budget.spent = hiera.budget.allowance - 3     # its first substitution passes the budget, as it would have
    with pytest.raises((ExpansionError, HieraError), match="Hiera interpolation of 'scope:facts.role': expanding"):
        hiera.lookup('a')


def test_a_text_whose_variable_interpolates_again_is_not_kept(tmp_path):
    """A variable holding ``%{...}`` is interpolated again, one expansion deeper: such a text is made at each use
    (the text of variables alone it holds is kept)."""
    hiera = engine(tmp_path, {'data/common.yaml': 'a: "%{facts.outer}"\n'},
                   facts={'role': 'web', 'outer': '%{facts.role}!'})
    reads = counting_variables(hiera)
    assert hiera.lookup('a') == 'web!'
    del reads[:]        # the levels' variables read with the first
    assert hiera.lookup('a') == 'web!'
    assert reads == ['facts.outer']
