# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

import re
from unittest import mock

import pytest
from hypothesis import given, settings, strategies as st

from ansible_collections.strata.hier.plugins.module_utils.core import rules as rules_module
from ansible_collections.strata.hier.plugins.module_utils.core.errors import StrategyError
from ansible_collections.strata.hier.plugins.module_utils.core.kinds import FAST_PATHS
from ansible_collections.strata.hier.plugins.module_utils.core.rules import MergeRules, literal_start, split_path


def test_exact_before_regex_before_default():
    rules = MergeRules('MostSpecific', {'^Sec.*': 'hash', 'Security': 'deep', '^Security/.*': 'Unique'})
    assert rules.resolve(('Security',)).name == 'Security'
    assert rules.resolve(('Security',)).strategy.name == 'deep'
    assert rules.resolve(('Security', 'Rules')).name == '^Sec.*'      # first regex in declaration order
    assert rules.resolve(('Other',)).name == 'default_lookup_options'
    assert rules.explicit(('Other',)) is None


def test_regex_order_is_declaration_order():
    first = MergeRules('MostSpecific', {'^Security/.*': 'Unique', '^Sec.*': 'hash'})
    assert first.resolve(('Security', 'Rules')).name == '^Security/.*'


def test_backslash_paths_accepted():
    rules = MergeRules('MostSpecific', {'SoftwareBaseline\\Packages': 'DeepTuple'})
    assert rules.resolve(split_path('SoftwareBaseline/Packages')).name == 'SoftwareBaseline\\Packages'
    assert split_path('a\\b/c') == ('a', 'b', 'c')
    assert split_path(['a', 'b']) == ('a', 'b')
    assert split_path('') == ()


def test_keys_are_case_sensitive_unless_asked():
    sensitive = MergeRules('MostSpecific', {'Packages': 'DeepTuple', '^sec': 'hash'})
    assert sensitive.explicit(('packages',)) is None
    assert sensitive.explicit(('Security',)) is None
    insensitive = MergeRules('MostSpecific', {'Packages': 'DeepTuple', '^sec': 'hash'}, case_insensitive_keys=True)
    assert insensitive.explicit(('packages',)).name == 'Packages'
    assert insensitive.explicit(('Security',)).name == '^sec'


def test_unknown_strategy_in_lookup_options_names_the_rule():
    with pytest.raises(StrategyError, match="lookup_options 'Packages'"):
        MergeRules('MostSpecific', {'Packages': 'DeepTupel'})
    with pytest.raises(StrategyError, match='default_lookup_options'):
        MergeRules('Deepest')


def test_bad_regex_and_bad_lookup_options():
    with pytest.raises(StrategyError, match='invalid regular expression'):
        MergeRules('MostSpecific', {'^(': 'deep'})
    with pytest.raises(StrategyError, match='lookup_options must be a map'):
        MergeRules('MostSpecific', ['Packages'])


PIECES = st.sampled_from(['a', 'b', 'A', 'x/', '/', '\\\\', '\\.', '\\/', '.', '.*', '*', '+', '?', '{2}', '{1,2}', '|',
                          '(a|b)', '(?i:a)', '[ab]', '\\d', '\\w', '$', '\u212a', 'k', 'ſ', 's', '_', '-', ' '])
PATTERNS = st.lists(PIECES, max_size=6).map(lambda pieces: '^' + ''.join(pieces))
TEXTS = st.lists(st.sampled_from(['a', 'b', 'A', 'B', 'x', 'X', 'k', 'K', '\u212a', 's', 'S', 'ſ', '.', '1', '_', ' ']),
                 max_size=4).map(''.join)
KEY_PATHS = st.lists(TEXTS, min_size=1, max_size=3).map(tuple)


def _compiled(pattern, case_insensitive):
    try:
        return re.compile(pattern, re.IGNORECASE if case_insensitive else 0)
    except re.error:
        return None


def _every_rule_tried(patterns, case_insensitive, path):
    """The rule of a path as a scan of every regex rule in declaration order finds it (the index's oracle)."""
    text = '/'.join(path)
    for pattern in patterns:
        regex = re.compile(pattern, re.IGNORECASE if case_insensitive else 0)
        if regex.search(text) or regex.search(text.replace('/', '\\')):
            return pattern
    return None


@settings(max_examples=400, deadline=None)
@given(st.lists(PATTERNS, max_size=8, unique=True), st.booleans(), st.lists(KEY_PATHS, max_size=8))
def test_the_prefix_index_gives_the_rule_every_rule_tried_gives(patterns, case_insensitive, paths):
    """Only the regex rules whose literal start a path begins with are tried (and those without one): the same
    first match in declaration order as trying every rule, with the fast paths on and off."""
    patterns = [pattern for pattern in patterns if _compiled(pattern, case_insensitive) is not None]
    rules = MergeRules('MostSpecific', dict.fromkeys(patterns, 'deep'), case_insensitive_keys=case_insensitive)
    with FAST_PATHS.general():
        general = MergeRules('MostSpecific', dict.fromkeys(patterns, 'deep'), case_insensitive_keys=case_insensitive)
        slow = [general.explicit(path) for path in paths]
    for path, scanned in zip(paths, slow):
        rule = rules.explicit(path)
        expected = _every_rule_tried(patterns, case_insensitive, path)
        assert (rule and rule.name) == expected == (scanned and scanned.name), (patterns, path)


@pytest.mark.parametrize('pattern, flags, start', [
    ('^app/.*', 0, ('app/', False)),
    ('^Security\\\\.*', 0, ('Security\\', False)),
    ('^ab*', 0, ('a', False)),
    ('^ab+', 0, ('ab', False)),
    ('^a\\.b{2}', 0, ('a.', False)),
    ('^a|b', 0, ('', False)),
    ('^(a)b', 0, ('', False)),
    ('^a\\db', 0, ('a', False)),
    ('^Sec', re.IGNORECASE, ('sec', True)),
    ('^s\u212aa', re.IGNORECASE, ('s', True)),
    ('^s\u212aa', 0, ('s\u212aa', False)),
    ('^ab', re.MULTILINE, ('', False)),
    ('^a b', re.VERBOSE, ('', False)),
])
def test_literal_start(pattern, flags, start):
    assert literal_start(re.compile(pattern, flags)) == start


class _Counted:
    """A compiled regex that counts its searches."""

    searches = 0

    def __init__(self, regex):
        self._regex = regex
        self.pattern, self.flags = regex.pattern, regex.flags

    def search(self, text):
        _Counted.searches += 1
        return self._regex.search(text)


def test_a_path_is_tried_against_the_rules_it_may_match_only():
    """n paths against n/10 regex rules: each path tries the rules of its literal start, not all of them."""
    compile_ = re.compile
    with mock.patch.object(rules_module.re, 'compile', side_effect=lambda *args: _Counted(compile_(*args))):
        rules = MergeRules('MostSpecific', {'^app%d/.*' % index: 'deep' for index in range(200)})
    _Counted.searches = 0
    assert rules.resolve(('app17', 'key')).name == '^app17/.*'
    assert rules.explicit(('other', 'key')) is None
    assert _Counted.searches <= 2
