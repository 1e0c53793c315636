# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""ACM sequence aggregation: every worked example of the seed page, with its exact result.

/system/dns/host is modelled as a list of {ip, hostnames: [...]}; scopes are given least
specific first, as to every filter.
"""

from __future__ import annotations

import copy

import pytest

from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeInputError, StrategyError
from ansible_collections.strata.hier.plugins.module_utils.dialects.sequence import merge_scopes, sequence_strategy

# group level (outer)
GROUP = [{'ip': '127.0.0.1', 'hostnames': ['localhost', 'mymachine']},
         {'ip': '10.10.10.10', 'hostnames': ['loghost']}]
# device scope (inner)
DEVICE = [{'ip': '127.0.0.1', 'hostnames': ['localhost', 'mymachine.mydomain.net']},
          {'ip': '10.10.10.100', 'hostnames': ['mailserver']}]


def hosts_file(hosts):
    """The /etc/hosts lines the seed shows."""
    return [' '.join([host['ip']] + host['hostnames']) for host in hosts]


def aggregate(*scopes, **options):
    """merge_scopes on scopes listed least specific first (the core takes them most specific first)."""
    return merge_scopes(list(scopes)[::-1], **options).value


class TestSeedScalarSets:
    """'a, b' at the inner level, 'c, d' at the outer level."""

    def test_replace(self):
        assert aggregate(['c', 'd'], ['a', 'b'], mode='replace', kind='set') == ['a', 'b']

    def test_append(self):
        assert aggregate(['c', 'd'], ['a', 'b'], mode='append', kind='set') == ['a', 'b', 'c', 'd']

    def test_prepend(self):
        assert aggregate(['c', 'd'], ['a', 'b'], mode='prepend', kind='set') == ['c', 'd', 'a', 'b']


class TestSeedHostsFile:
    def test_sequence_replace(self):
        assert hosts_file(aggregate(GROUP, DEVICE, mode='replace')) == [
            '127.0.0.1 localhost mymachine.mydomain.net',
            '10.10.10.100 mailserver',
        ]

    def test_sequence_append_list(self):
        assert hosts_file(aggregate(GROUP, DEVICE, mode='append', kind='list')) == [
            '127.0.0.1 localhost mymachine.mydomain.net',
            '10.10.10.100 mailserver',
            '127.0.0.1 localhost mymachine',
            '10.10.10.10 loghost',
        ]

    def test_sequence_append_set_with_primary_key_ip(self):
        assert hosts_file(aggregate(GROUP, DEVICE, mode='append', kind='set', primary_key='ip')) == [
            '127.0.0.1 localhost mymachine.mydomain.net mymachine',
            '10.10.10.100 mailserver',
            '10.10.10.10 loghost',
        ]

    def test_sequence_prepend_set(self):
        assert hosts_file(aggregate(GROUP, DEVICE, mode='prepend', kind='set')) == [
            '10.10.10.10 loghost',
            '127.0.0.1 mymachine localhost mymachine.mydomain.net',
            '10.10.10.100 mailserver',
        ]

    def test_prepend_set_with_primary_key_is_the_same(self):
        assert aggregate(GROUP, DEVICE, mode='prepend', kind='set', primary_key='ip') == \
            aggregate(GROUP, DEVICE, mode='prepend', kind='set')

    def test_default_mode_is_append_list(self):
        assert aggregate(GROUP, DEVICE) == aggregate(GROUP, DEVICE, mode='append', kind='list')

    def test_inputs_are_not_modified_or_shared(self):
        before = copy.deepcopy((GROUP, DEVICE))
        result = aggregate(GROUP, DEVICE, kind='set', primary_key='ip')
        assert (GROUP, DEVICE) == before
        result[0]['hostnames'].append('changed')
        assert (GROUP, DEVICE) == before


class TestSemantics:
    def test_duplicates_within_one_scope(self):
        assert aggregate(['a', 'b', 'a'], kind='set') == ['a', 'b']
        assert aggregate(['a', 'b', 'a'], kind='list') == ['a', 'b', 'a']

    def test_three_scopes(self):
        assert aggregate(['g'], ['r'], ['n'], mode='append') == ['n', 'r', 'g']
        assert aggregate(['g'], ['r'], ['n'], mode='prepend') == ['g', 'r', 'n']
        assert aggregate(['g'], None, ['n'], mode='replace') == ['n']
        assert aggregate(['g'], ['r'], None, mode='replace') == ['r']

    def test_primary_key_in_a_list_merges_matched_maps_and_keeps_other_duplicates(self):
        assert aggregate([{'ip': 1, 'a': 'g'}, {'x': 1}], [{'ip': 1, 'b': 'n'}, {'x': 1}], primary_key='ip') == \
            [{'ip': 1, 'b': 'n', 'a': 'g'}, {'x': 1}, {'x': 1}]
        assert aggregate(['x'], ['x'], primary_key='ip') == ['x', 'x']

    def test_a_sequence_mixing_maps_and_scalars_matches_whole_elements(self):
        assert aggregate([{'ip': 1, 'a': 'g'}, 'x'], [{'ip': 1}, 'x'], kind='set', primary_key='ip') == \
            [{'ip': 1}, 'x', {'ip': 1, 'a': 'g'}]

    def test_composite_and_cml_primary_keys(self):
        group = [{'ip': 1, 'port': 80, 'h': ['a']}, {'ip': 1, 'port': 443}]
        node = [{'ip': 1, 'port': 80, 'h': ['b']}]
        assert aggregate(group, node, kind='set', primary_key=['ip', 'port']) == \
            [{'ip': 1, 'port': 80, 'h': ['b', 'a']}, {'ip': 1, 'port': 443}]
        # with ip alone, both entries of the group are the same element
        assert aggregate(group, node, kind='set', primary_key='.ip') == [{'ip': 1, 'port': 80, 'h': ['b', 'a']}]

    def test_set_elements_the_most_specific_scalar_wins(self):
        assert aggregate([{'ip': 1, 'name': 'old'}], [{'ip': 1, 'name': 'new'}], kind='set', primary_key='ip') == \
            [{'ip': 1, 'name': 'new'}]

    def test_namespaces_merge_key_by_key(self):
        group = {'dns': {'host': GROUP, 'domain': 'example.com'}, 'ntp': ['a']}
        device = {'dns': {'host': DEVICE}, 'ntp': ['b']}
        result = aggregate(group, device, kind='set', primary_key='ip')
        assert result['dns']['domain'] == 'example.com' and result['ntp'] == ['b', 'a']
        assert result['dns']['host'] == aggregate(GROUP, DEVICE, kind='set', primary_key='ip')

    def test_nothing_is_a_knockout(self):
        assert aggregate(['a'], ['--a'], kind='set') == ['--a', 'a']

    def test_cml_tag_names_and_case(self):
        assert aggregate(['c'], ['a'], mode='sequence-prepend', kind='SET') == ['c', 'a']

    def test_strategy_describes_itself(self):
        strategy = sequence_strategy('prepend', 'set', 'ip')
        described = strategy.describe()
        assert described['merge_hash_array'] == 'DeepTuple'
        assert described['merge_options']['array_order'] == 'general_first'
        assert described['merge_options']['tuple_keys'] == ['ip']


@pytest.mark.parametrize('args, kwargs, error, words', [
    (([['a']],), {'mode': 'merge'}, StrategyError, ["'merge'", 'replace, append, prepend']),
    (([['a']],), {'kind': 'bag'}, StrategyError, ["'bag'", 'list, set']),
    (([['a']],), {'primary_key': 5}, StrategyError, ['primary_key', '5']),
    (([['a'], 'text'],), {}, MergeInputError, ['scope 1', 'not str']),
    (('text',), {}, MergeInputError, ['must be a list']),
    (([],), {}, MergeInputError, ['nothing to merge']),
])
def test_errors(args, kwargs, error, words):
    if isinstance(args[0], list):
        args = (args[0][::-1],) + args[1:]      # scopes listed least specific first, as the messages count them
    with pytest.raises(error) as raised:
        merge_scopes(*args, **kwargs)
    for word in words:
        assert word in str(raised.value)
