# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 25, finding 7: regular expressions written in data (Deckhand's patterns, Hiera's lookup_options pattern
keys and knockout_prefix) are compiled only when Python's re matches them fast (safe_regex), and a chain of Deckhand
substitutions doubling a text stops at the rendering's work budget (finding 6)."""

from __future__ import annotations

import signal
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ansible_collections.strata.hier.plugins.module_utils.dialects.deckhand.layering import layer_documents
from ansible_collections.strata.hier.plugins.module_utils.core.errors import (
    ExpansionError, HieraError, MergeError, MergeInputError,
)
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.merges import merger_for
from ansible_collections.strata.hier.plugins.module_utils.core.safe_regex import (
    MAX_PATTERN, UnsafeRegexError, compile_untrusted,
)
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.test_deckhand import document, policy
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.test_hiera_core import engine

REFUSED = [
    ('((a+))+$', 'repeated part of variable length'),      # the old Deckhand guard's bypasses
    ('(a|a)+$', 'alternatives can both match the empty text'),
    ('(a+)+$', 'repeated part of variable length'),
    ('(a|aa)+$', 'repeated part of variable length'),
    ('(.*a){12}', 'repeated part of variable length'),
    (r'(\w+\s?)+$', 'repeated part of variable length'),
    ('^(a?){25}a{25}$', 'repeated part can match the empty text'),
    ('(a*)*b', 'repeated part can match the empty text'),
    ('a*a*b', 'two parts of variable length follow each other'),
    (r'\s*\s*$', 'two parts of variable length follow each other'),
    (r'(\d+|\w+)+$', 'two alternatives can match the same text'),
    ('.*:.*:.*$', '2 pairs of variable parts'),
    ('(.*):(.*)$', 'not anchored at the start'),
    (r'(a)\1', 'backreferences'),
    ('(?=.*a)b', 'lookaround'),
    ('a{2000}', 'counted repeat goes beyond 1000'),
    ('a' * (MAX_PATTERN + 1), 'longer than'),
    ('(' * 60 + 'a' + ')' * 60, 'nest more than'),
]

ACCEPTED = [
    ('^profile::.*', 'profile::apache'),
    ('IMAGE_TAG', 'image: IMAGE_TAG'),
    ('[a-z]+_key$', 'ssh_key'),
    ('^(.*):(.*)$', 'quay.io/airship/deckhand:v1.0'),
    ('INSERT_[A-Z]+_HERE', 'http://INSERT_HOST_HERE:80'),
    ('INSERT_SECRET_HERE', 'INSERT_SECRET_HERE'),
    ('^Security/.*', 'Security/Rules'),
    (r'^Security\\.*', 'Security\\Rules'),
    ('^(b|Name)$', 'Name'),
    ('^profile::.*::ports$', 'profile::nginx::ports'),
    ('(profile|profiles)::', 'profiles::x'),
    ('(a+b)+$', 'aabab'),
    (r'\S+\s+\S+', 'a b'),
    (r'(?<=image: )\S+', 'image: x'),
    (r'(?i)^[a-z]+\s*=\s*\d+$', 'Port = 80'),
]


@pytest.mark.parametrize('pattern, why', REFUSED)
def test_patterns_that_can_backtrack_super_linearly_are_refused(pattern, why):
    with pytest.raises(UnsafeRegexError) as error:
        compile_untrusted(pattern, 0, 'file.yaml: key x')
    message = str(error.value)
    assert message.startswith('file.yaml: key x: ') and why in message and isinstance(error.value, MergeError)


@pytest.mark.parametrize('pattern, text', ACCEPTED)
def test_ordinary_patterns_compile_and_match(pattern, text):
    assert compile_untrusted(pattern, 0, 'here').search(text) is not None


def test_the_callers_error_type_and_invalid_patterns():
    with pytest.raises(HieraError, match=r"^lookup_options key '\^\(': '\^\(' is not a regular expression"):
        compile_untrusted('^(', 0, "lookup_options key '^('", HieraError)


def test_texts_too_long_for_a_pattern_are_refused_and_ordinary_texts_are_not():
    pattern = compile_untrusted('[a-z]+_key$', 0, 'lookup_options key x')
    with pytest.raises(UnsafeRegexError, match='too long for it'):
        pattern.search('a' * 5000, 'key k')
    assert pattern.search('an ordinary text, with words of a few letters; ' * 200 + 'ssh_key') is not None
    assert compile_untrusted('IMAGE_TAG', 0, 'here').sub('v1', 'IMAGE_TAG ' * 100000).startswith('v1 v1')
    anchored = compile_untrusted('^(.*):(.*)$', 0, 'here')
    assert anchored.search('x' * 50 + ':' + 'y' * 50).group(2) == 'y' * 50
    with pytest.raises(UnsafeRegexError, match='too long for it'):
        anchored.search(':' * 5000 + '\n')


# --- a property: what the checker accepts matches adversarial texts quickly ---------------------------------
ATOMS = st.sampled_from(['a', 'b', ':', '.', '[ab]', '[^:]', r'\w', r'\s', '$', '^', '(?:)'])
QUANTIFIERS = st.sampled_from(['*', '+', '?', '{2}', '{0,3}', '*?', '{2,}', '+?'])


def _patterns():
    return st.recursive(ATOMS, lambda inner: st.one_of(
        st.tuples(inner, inner).map(''.join),
        st.tuples(inner, inner).map(lambda pair: '(%s|%s)' % pair),
        st.tuples(inner, QUANTIFIERS).map(lambda pair: '(%s)%s' % pair),
    ), max_leaves=8)


def _timeout(_signum, _frame):
    raise TimeoutError('the search took more than 5 seconds')


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_patterns(), st.sampled_from(['', '$', 'c', '!']), st.sampled_from(['a', 'ab', ':a', 'a ', 'a\n', 'aab']))
def test_accepted_patterns_search_adversarial_texts_quickly(body, tail, unit):
    try:
        pattern = compile_untrusted(body + tail)
    except UnsafeRegexError:
        return
    for length in (2000, 300, 100):     # a text refused as too long for the pattern: a shorter one
        text = (unit * length)[:length] + '!'
        try:
            pattern.check(text)
            break
        except UnsafeRegexError:
            continue
    else:
        pytest.fail('a text of 100 characters is refused for %r' % pattern.pattern)
    previous = signal.signal(signal.SIGALRM, _timeout)
    signal.alarm(5)
    try:
        started = time.perf_counter()
        pattern.search(text)
        pattern.sub('', text)
        assert time.perf_counter() - started < 1.0
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# --- where data's patterns are compiled -----------------------------------------------------------------------
@pytest.mark.parametrize('pattern', ['((a+))+$', '(a|a)+$'])
def test_deckhand_refuses_the_old_guards_bypasses(pattern):
    source = document('source', 'site', {'s': 'a' * 30 + '!'})
    target = document('target', 'site', {'s': 'x'}, substitutions=[
        {'src': {'schema': 'example/Kind/v1', 'name': 'source', 'path': '.s'},
         'dest': {'path': '.s', 'pattern': pattern}}])
    with pytest.raises(MergeError, match=r"target \(layer site\): substitution 1: dest: pattern: the regular "
                                         r"expression .* is refused"):
        layer_documents([policy(), source, target])


def test_hiera_lookup_options_pattern_keys_are_checked(tmp_path):
    hiera = engine(tmp_path, {'data/common.yaml': "lookup_options: {'^(a+)+$': {merge: unique}}\nk: [a]\n"})
    with pytest.raises(HieraError, match=r"lookup_options key '\^\(a\+\)\+\$': the regular expression .* refused"):
        hiera.lookup('k')
    fine = engine(tmp_path / 'fine', {'data/common.yaml': "lookup_options: {'^pro.*_key$': {merge: unique}}\n"
                                                          "profile_key: [a]\n"})
    assert fine.lookup('profile_key') == ['a']


def test_hiera_knockout_prefix_is_a_checked_pattern():
    deep = merger_for({'strategy': 'deep', 'knockout_prefix': '(-+)+'})
    with pytest.raises(MergeInputError, match=r"knockout_prefix '\(-\+\)\+': the regular expression"):
        deep.merge(['-' * 30 + 'x'], ['y'])
    assert merger_for({'strategy': 'deep', 'knockout_prefix': '--'}).merge(['--y', 'z'], ['y']) == ['z']


# --- finding 6: chained substitutions ----------------------------------------------------------------------------
def test_chained_substitutions_doubling_a_text_stop_at_the_work_budget():
    """Each document replaces both X of 'XX' with the previous one's text: 64 x 2^16 characters at the end."""
    documents = [policy(), document('d0', 'site', {'s': 'X' * 64})]
    for number in range(1, 17):
        documents.append(document('d%d' % number, 'site', {'s': 'XX'}, substitutions=[
            {'src': {'schema': 'example/Kind/v1', 'name': 'd%d' % (number - 1), 'path': '.s'},
             'dest': {'path': '.s', 'pattern': 'X'}}]))
    started = time.perf_counter()
    with pytest.raises(ExpansionError, match=r"example/Kind/v1/d\d+ \(layer site\): substitution 1: dest.path '.s': "
                                             r"expanding the data passes its work budget"):
        layer_documents(documents)
    assert time.perf_counter() - started < 2.0
    assert len(layer_documents(documents[:8]).documents[-1]['data']['s']) == 64 * 2 ** 6     # short chains render


def test_a_dest_path_index_pads_a_list_within_the_work_budget():
    """Found by the Deckhand fuzz target: a list shorter than dest.path's index is padded up to it (as Deckhand
    does), so '.s[100000000]' built a list of a hundred million maps from a few bytes; the padding is charged."""
    source = document('src', 'site', {'v': 'x'})
    target = document('target', 'site', {'s': []}, substitutions=[
        {'src': {'schema': 'example/Kind/v1', 'name': 'src', 'path': '.v'}, 'dest': {'path': '.s[100000000]'}}])
    started = time.perf_counter()
    with pytest.raises(ExpansionError, match=r"target \(layer site\): substitution 1: dest.path '.s\[100000000\]': "
                                             r"expanding the data passes its work budget"):
        layer_documents([policy(), source, target])
    assert time.perf_counter() - started < 2.0
    target['data']['s'] = []
    target['metadata']['substitutions'][0]['dest']['path'] = '.s[3]'
    assert layer_documents([policy(), source, target]).documents[-1]['data']['s'] == [{}, {}, {}, 'x']
