# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Levels per item of a list variable (Hiera's mapped_paths)."""

from __future__ import annotations

import pytest

from ansible_collections.strata.hier.plugins.module_utils.core.levels import LevelError
from ansible_collections.strata.hier.plugins.module_utils.core.mapped_levels import MappedLevel, expand_level, parse_level

ROLES = MappedLevel('roles', 'role', 'Roles/%{Env}/%{role}')


def test_one_path_per_item_in_list_order():
    expansions = expand_level(ROLES, {'roles': ['web', 'db'], 'Env': 'prod'})
    assert [expansion.path for expansion in expansions] == [('Roles', 'prod', 'web'), ('Roles', 'prod', 'db')]
    assert [expansion.level for expansion in expansions] == ['Roles/%{Env}/%{role} [role=web]',
                                                             'Roles/%{Env}/%{role} [role=db]']


def test_an_item_does_not_change_the_variables():
    variables = {'roles': ['web'], 'Env': 'prod', 'role': 'kept'}
    expand_level(ROLES, variables)
    assert variables == {'roles': ['web'], 'Env': 'prod', 'role': 'kept'}


@pytest.mark.parametrize('variables, reason', [
    ({'Env': 'prod'}, "variable 'roles' is undefined"),
    ({'roles': [], 'Env': 'prod'}, "variable 'roles' is an empty list"),
])
def test_undefined_or_empty_is_one_skipped_level(variables, reason):
    expansion, = expand_level(ROLES, variables)
    assert expansion.path is None and expansion.reason == reason


@pytest.mark.parametrize('value, kind', [('web', 'str'), ({'a': 1}, 'dict'), (None, 'null')])
def test_a_variable_that_is_not_a_list_is_an_error_naming_host_and_level(value, kind):
    with pytest.raises(LevelError, match=r"level mapped_paths \[roles, role, Roles/%\{Env\}/%\{role\}\]: variable "
                                         r"'roles' of host h1 is a " + kind + ", not a list"):
        expand_level(ROLES, {'roles': value, 'inventory_hostname': 'h1'})


def test_an_item_leaving_datadir_is_refused():
    with pytest.raises(LevelError, match='would leave datadir'):
        expand_level(ROLES, {'roles': ['..'], 'Env': 'prod'})


def test_parse_level():
    assert parse_level('Common') == 'Common'
    assert parse_level({'mapped_paths': ['roles', 'role', 'Roles/%{role}']}) == MappedLevel('roles', 'role',
                                                                                            'Roles/%{role}')
    for bad in ({'mapped_paths': ['roles', 'role']}, {'mapped_paths': 'x'}, {'paths': []}, 3,
                {'mapped_paths': ['roles', 'a-b', 'R/%{a-b}']}):
        with pytest.raises(LevelError):
            parse_level(bad)
    with pytest.raises(LevelError, match='Jinja'):
        parse_level({'mapped_paths': ['roles', 'role', 'Roles/{{ role }}']})
