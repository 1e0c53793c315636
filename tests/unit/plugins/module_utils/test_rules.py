# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

import pytest

from ansible_collections.strata.hier.plugins.module_utils.core.errors import StrategyError
from ansible_collections.strata.hier.plugins.module_utils.core.rules import MergeRules, split_path


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
