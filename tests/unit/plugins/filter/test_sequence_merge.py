# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

import pytest

from ansible.errors import AnsibleFilterError

from ansible_collections.strata.hier.plugins.filter.sequence_merge import FilterModule, sequence_merge

GROUP = [{'ip': '127.0.0.1', 'hostnames': ['localhost', 'mymachine']},
         {'ip': '10.10.10.10', 'hostnames': ['loghost']}]
DEVICE = [{'ip': '127.0.0.1', 'hostnames': ['localhost', 'mymachine.mydomain.net']},
          {'ip': '10.10.10.100', 'hostnames': ['mailserver']}]


def test_registered():
    assert FilterModule().filters()['sequence_merge'] is sequence_merge


def test_combine_convention():
    assert sequence_merge(['g'], ['r'], ['n']) == ['n', 'r', 'g']
    assert sequence_merge([['g'], ['r'], ['n']], mode='prepend') == ['g', 'r', 'n']


def test_seed_examples():
    assert sequence_merge(['c', 'd'], ['a', 'b'], mode='replace', kind='set') == ['a', 'b']
    assert sequence_merge(['c', 'd'], ['a', 'b'], mode='append', kind='set') == ['a', 'b', 'c', 'd']
    assert sequence_merge(['c', 'd'], ['a', 'b'], mode='prepend', kind='set') == ['c', 'd', 'a', 'b']
    assert sequence_merge([GROUP, DEVICE], kind='set', primary_key='ip') == [
        {'ip': '127.0.0.1', 'hostnames': ['localhost', 'mymachine.mydomain.net', 'mymachine']},
        {'ip': '10.10.10.100', 'hostnames': ['mailserver']},
        {'ip': '10.10.10.10', 'hostnames': ['loghost']}]
    assert sequence_merge([GROUP, DEVICE], mode='prepend', kind='set') == [
        {'ip': '10.10.10.10', 'hostnames': ['loghost']},
        {'ip': '127.0.0.1', 'hostnames': ['mymachine', 'localhost', 'mymachine.mydomain.net']},
        {'ip': '10.10.10.100', 'hostnames': ['mailserver']}]


@pytest.mark.parametrize('args, kwargs, words', [
    ((['a'], ['b']), {'mode': 'merge'}, ['sequence_merge:', "'merge'", 'replace, append, prepend']),
    ((['a'], ['b']), {'kind': 'bag'}, ['list, set']),
    ((['a'], 'text'), {}, ['scope 1', 'must be a list, a map or null']),
    (('text',), {}, ['must be a list']),
    (([],), {}, ['nothing to merge']),
])
def test_errors(args, kwargs, words):
    with pytest.raises(AnsibleFilterError) as error:
        sequence_merge(*args, **kwargs)
    for word in words:
        assert word in str(error.value)


def test_type_mismatch_warns(mocker):
    warning = mocker.patch('ansible_collections.strata.hier.plugins.plugin_utils.filters.Display.warning')
    assert sequence_merge({'a': ['x']}, {'a': 'text'}) == {'a': 'text'}
    assert 'type mismatch' in warning.call_args[0][0] and warning.call_args[0][0].startswith('sequence_merge: ')
