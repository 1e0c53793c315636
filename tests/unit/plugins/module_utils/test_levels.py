# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

import re

import pytest

from ansible_collections.strata.hier.plugins.module_utils.core.levels import (
    LevelError, check_level, expand, from_datum, split_level,
)

NODE = {'Environment': 'Dev', 'NodeName': 'SRV01', 'Location': {'Site': 'FRA', 'Rack': 3}, 'Count': 2}


def test_expand_variables_and_sub_keys():
    assert expand('AllNodes/%{Environment}/%{NodeName}', NODE).path == ('AllNodes', 'Dev', 'SRV01')
    assert expand('Sites/%{ Location.Site }/R%{Location.Rack}', NODE).path == ('Sites', 'FRA', 'R3')
    assert expand('Baselines/Security', NODE).path == ('Baselines', 'Security')


def test_undefined_variable_skips_the_level_with_the_reason():
    expansion = expand('Roles/%{Role}/%{Location.Room}', NODE)
    assert expansion.path is None
    assert expansion.reason == "variable 'Role', 'Location.Room' is undefined"


def test_fetch_reads_variables():
    def fetch(variables, name):
        if name == 'Missing':
            raise KeyError(name)
        return name.upper()
    assert expand('a/%{x}', {}, fetch).path == ('a', 'X')
    assert expand('a/%{Missing}', {}, fetch).path is None


def test_non_scalar_variable_is_an_error():
    with pytest.raises(LevelError, match="variable 'Location' is a dict"):
        expand('Locations/%{Location}', NODE)


def test_datum_resolution_precedence():
    assert from_datum('AllNodes\\$($Node.Environment)\\$($Node.NodeName)') == 'AllNodes/%{Environment}/%{NodeName}'
    assert from_datum('Baselines\\Security') == 'Baselines/Security'
    assert expand(from_datum('Roles\\$( $Node.Role )'), {'Role': 'Web'}).path == ('Roles', 'Web')


@pytest.mark.parametrize('text, words', [
    ('Roles/../../etc', 'would leave datadir'),
    ('/etc/passwd', 'absolute path'),
    ('C:\\Windows', 'absolute path'),
    ('Roles//x', 'empty path segment'),
    ('.', 'would leave datadir'),
])
def test_paths_that_leave_the_data_folder(text, words):
    with pytest.raises(LevelError, match=words):
        split_level(text)


def test_dot_segments_are_dropped_as_in_datum_paths():
    assert split_level('./Roles/./Web') == ('Roles', 'Web')
    assert split_level(from_datum('.\\Common\\Base')) == ('Common', 'Base')


@pytest.mark.parametrize('template, marker', [
    ('Nodes/%{}', '%{'),
    ('Nodes/%{NodeName', '%{'),
    ('Nodes/{{ NodeName }}', '{{'),
    (from_datum('Nodes\\$($Node.NodeName.ToLower())'), '$('),
    (from_datum('Nodes\\$Node.NodeName'), '$Node'),
])
def test_what_looks_like_a_placeholder_but_is_none_is_refused(template, marker):
    with pytest.raises(LevelError, match=re.escape(repr(marker))):
        check_level(template)
    check_level('AllNodes/%{Environment}/%{Node.Name}')


def test_datum_variables_match_any_case():
    assert expand('Nodes/%{nodename}', {'NodeName': 'web'}, case_insensitive=True).path == ('Nodes', 'web')
    assert expand('Nodes/%{node.NAME}', {'Node': {'Name': 'web'}}, case_insensitive=True).path == ('Nodes', 'web')
    assert expand('Nodes/%{nodename}', {'NodeName': 'web'}).path is None


def test_variable_values_cannot_traverse():
    with pytest.raises(LevelError, match='would leave datadir'):
        expand('Roles/%{Role}', {'Role': '../../secrets'})
