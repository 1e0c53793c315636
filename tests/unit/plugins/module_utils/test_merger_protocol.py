# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The merger protocol: what a merger gets is named by its type, and each word of it has one meaning."""

from __future__ import annotations

import inspect

import pytest

from ansible_collections.strata.hier.plugins.module_utils.core import kinds, merging
from ansible_collections.strata.hier.plugins.module_utils.core.kinds import FAST_PATHS, SCALAR, family_of
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.base import Merger
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.dispatch import ByType
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.hash_arrays import HashArrayMerger
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.maps import MapMerger
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.scalar_lists import ScalarListMerger
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.scalars import ScalarMerger
from ansible_collections.strata.hier.plugins.module_utils.core.rules import MergeRules, Rule
from ansible_collections.strata.hier.plugins.module_utils.core.strategy import PRESETS

MERGERS = (Merger, MapMerger, ScalarListMerger, HashArrayMerger, ByType)


@pytest.mark.parametrize('cls', MERGERS, ids=lambda cls: cls.__name__)
def test_a_merger_gets_a_merge_run_and_a_strategy_by_their_types(cls):
    parameters = inspect.signature(cls.merge).parameters
    assert (parameters['run'].annotation, parameters['strategy'].annotation) == ('MergeRun', 'MergeStrategy')


@pytest.mark.parametrize('part', [MapMerger(), ScalarListMerger(), HashArrayMerger(), ScalarMerger(), ByType()],
                         ids=lambda part: type(part).__name__)
def test_describe_is_a_strategy_s_own(part):
    """A strategy describes itself as a Datum strategy map; its mergers and dispatch give their strategy keys."""
    assert not hasattr(part, 'describe')
    settings, options = part.strategy_keys()
    assert isinstance(settings, dict) and isinstance(options, dict)
    assert PRESETS['deep'].describe()['merge_hash'] == 'deep'


def test_a_rule_is_a_record_of_its_strategy_and_name():
    rules = MergeRules('hash', {'Packages': 'deep'})
    rule = rules.resolve(('Packages',))
    assert isinstance(rule, Rule) and (rule.strategy.name, rule.name) == ('deep', 'Packages')
    assert rules.default == Rule(rules.default.strategy, 'default_lookup_options')
    assert [found.name for found in rules.all_rules()] == ['Packages']


class _Text(str):
    """A str subclass, as Ansible's tagged strings are."""


def test_the_type_caches_belong_to_the_switch_not_to_module_globals():
    assert not {'SCALAR_TYPES', 'VALUE_TYPES', 'MAP_TYPES', '_FAMILY_BY_TYPE'} & set(vars(kinds))
    try:
        assert family_of(_Text('x')) is SCALAR and _Text in FAST_PATHS.scalar_types
    finally:
        FAST_PATHS.scalar_types.discard(_Text)
        FAST_PATHS.value_types.discard(_Text)
        FAST_PATHS.family_by_type.pop(_Text, None)


def test_a_merge_run_reads_the_switch_once_when_it_starts():
    rules = MergeRules('deep')
    assert merging.MergeRun(rules, []).fast
    assert not merging.MergeRun(rules, [], provenance=object()).fast     # provenance notes what fast paths skip
    with FAST_PATHS.general():
        run = merging.MergeRun(rules, [])
        assert family_of(_Text('x')) is SCALAR and _Text not in FAST_PATHS.family_by_type     # nothing learned
    assert not run.fast and FAST_PATHS.on and _Text not in FAST_PATHS.family_by_type
