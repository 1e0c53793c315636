# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""cloud-init's merging: its own test cases (tests/unittests/test_merging.py with the files of
tests/data/merge_sources/), the seed page's examples, and its real behaviour where it differs
from its documentation."""

from __future__ import annotations

import copy
import datetime
import functools
import json

import pytest
from hypothesis import given, settings, strategies as st

from ansible_collections.strata.hier.plugins.module_utils.dialects.cloud_init import (
    CloudInitMergers, DictMerger, ListMerger, merge_cloud_configs, parse_merge_how,
)
from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeInputError, StrategyError


def in_received_order(documents, merge_how=None):
    """merge_cloud_configs on documents listed as cloud-init receives them (the core takes them most specific first)."""
    return merge_cloud_configs(list(documents)[::-1], merge_how)


def merged(*documents, merge_how=None):
    return in_received_order(documents, merge_how).value


class TestCloudInitMergeSources:
    """cloud-init's test_merge_cc_samples: sourceN-*.yaml merged in order must give expectedN.yaml.

    Where the stored source and expected files come from different revisions (7, 8, 10), the
    expected value is the expected file with the source file's own values.
    """

    def test_1(self):
        assert merged({'Blah': ['blah2']},
                      {'Blah': ['b'], 'merge_how': 'dict(recurse_array,no_replace)+list(append)'}) == \
            {'Blah': ['blah2', 'b']}

    def test_2(self):
        # source2-1.yaml is not in the stored copy of the repository; it is source5-1.yaml's content
        assert merged({'Blah': 1, 'Blah2': 2, 'Blah3': 3}, {'Blah': 3, 'Blah2': 2, 'Blah3': [1]}) == \
            {'Blah': 3, 'Blah2': 2, 'Blah3': [1]}

    def test_3(self):
        assert merged({'Blah': ['blah1']},
                      {'Blah': ['blah2'], 'merge_how': 'dict(recurse_array,no_replace)+list(prepend)'}) == \
            {'Blah': ['blah2', 'blah1']}

    def test_4(self):
        assert merged({'Blah': {'b': 1}}, {'Blah': {'b': None}, 'merge_how': 'dict(allow_delete,no_replace)+list()'}) == \
            {'Blah': {}}

    def test_5(self):
        assert merged({'Blah': 1, 'Blah2': 2, 'Blah3': 3},
                      {'Blah': 3, 'Blah2': 2, 'Blah3': [1], 'merge_how': 'dict(replace)+list(append)'}) == \
            {'Blah': 3, 'Blah2': 2, 'Blah3': [1]}

    def test_6(self):
        assert merged({'run_cmds': ['bash', 'top']},
                      {'run_cmds': ['ps', 'vi', 'emacs'], 'merge_type': 'list(append)+dict(recurse_array)+str()'}) == \
            {'run_cmds': ['bash', 'top', 'ps', 'vi', 'emacs']}

    def test_7(self):
        passwd = '$6$j212wezy$7H/1LT4f9/N3wpgNunhsIqtMj62OKiS3nyNwuizouQc3u7MbYCarYeAHWYPYb2FT.lbioDm2RrkJPb9BZMN1O/'
        users_1 = ['default',
                   {'name': 'foobar', 'gecos': 'Foo B. Bar', 'primary_group': 'foobar', 'groups': 'users',
                    'selinux_user': 'staff_u', 'expiredate': '2012-09-01', 'ssh_import_id': 'foobar',
                    'lock-passwd': False, 'passwd': passwd},
                   {'name': 'barfoo', 'gecos': 'Bar B. Foo', 'sudo': 'ALL=(ALL) NOPASSWD:ALL',
                    'groups': 'users, admin', 'ssh_import_id': 'None', 'lock-passwd': True,
                    'ssh_authorized_keys': ['<ssh pub key 1>', '<ssh pub key 2>']},
                   {'name': 'cloudy', 'gecos': 'Magic Cloud App Daemon User', 'inactive': '5', 'system': True}]
        users_2 = ['bob', 'joe', 'sue',
                   {'name': 'foobar_jr', 'gecos': 'Foo B. Bar Jr', 'primary-group': 'foobar', 'groups': 'users',
                    'selinux-user': 'staff_u', 'expiredate': datetime.date(2012, 9, 1), 'ssh-import-id': 'foobar',
                    'lock-passwd': False, 'passwd': passwd}]
        result = merged({'users': users_1}, {'users': users_2, 'merge_how': 'dict(recurse_array)+list(append)'})
        assert result == {'users': users_1 + users_2}

    def test_8(self):
        mounts = [['ephemeral0', '/mnt', 'auto', 'defaults,noexec'], ['sdc', '/opt/data'],
                  ['xvdh', '/opt/data', 'auto', 'defaults,nofail', '0', '0'], ['dd', '/dev/zero']]
        result = merged({'mounts': mounts},
                        {'mounts': [['ephemeral22', '/mnt', 'auto', 'defaults,noexec']],
                         'merge_how': 'dict(recurse_array)+list(recurse_list,recurse_str)+str()'})
        assert result == {'mounts': [['ephemeral22', '/mnt', 'auto', 'defaults,noexec']] + mounts[1:]}

    def test_9(self):
        post = ['pub_key_dsa', 'pub_key_rsa', 'pub_key_ecdsa', 'instance_id']
        assert merged({'phone_home': {'url': 'http://my.example.com/$INSTANCE_ID/', 'post': post}},
                      {'phone_home': {'url': '$BLAH_BLAH'}, 'merge_how': 'dict(recurse_str)+str(append)'}) == \
            {'phone_home': {'url': 'http://my.example.com/$INSTANCE_ID/$BLAH_BLAH', 'post': post}}

    def test_10(self):
        assert merged({'power_state': {'delay': 30, 'mode': 'poweroff', 'message': ['Bye', 'Bye']}},
                      {'power_state': {'message': ['Pew', 'Pew']}, 'merge_how': 'dict(recurse_list)+list(append)'}) == \
            {'power_state': {'delay': 30, 'mode': 'poweroff', 'message': ['Bye', 'Bye', 'Pew', 'Pew']}}

    def test_11(self):
        assert merged({'a': 1, 'b': 2, 'c': 3}, {'b': 4}, {'a': 22}) == {'a': 22, 'b': 4, 'c': 3}

    def test_12(self):
        # expected12.yaml is not in the stored copy; dict(replace) gives source12-2.yaml's value
        assert merged({'a': {'c': 1, 'd': 2, 'e': {'z': 'a', 'y': 'b'}}}, {'a': {'e': {'y': 2}}}) == \
            {'a': {'e': {'y': 2}}}


COMPAT = 'list()+dict()+str()'    # cloud-init's default mergers (util.mergemanydict, conf.d)


def old_mergedict(src, cand):
    """cloud-init's test helper _old_mergedict: the first value wins, maps merge recursively."""
    if isinstance(src, dict) and isinstance(cand, dict):
        src = dict(src)
        for key, value in cand.items():
            src[key] = value if key not in src else old_mergedict(src[key], value)
    return src


class TestCloudInitCompat:
    """cloud-init's test_compat_*: its default mergers merge as the old mergedict did."""

    @pytest.mark.parametrize('documents', [
        [{'1': '2', 'b': 'c'}, {'b': 'e'}],
        [{'Blah': 1, 'Blah2': 2, 'Blah3': 3}, {'Blah': 1, 'Blah2': 2, 'Blah3': [1]}],
        [{'b': [1, 2, 3]}, {'b': [4, 5]}, {'b': [6, 7]}],
        [{'b': 'hi'}, {'b': 'howdy'}, {'b': 'hallo'}],
        [{'1': '2', 'b': {'f': 'g', 'e': 'c', 'h': 'd', 'hh': {'1': 2}}}, {'b': {'e': 'c', 'hh': {'3': 4}}}],
        [{'1': '2', 'b': {'f': 'g'}}, {'b': {'e': 'c'}}],
        [{'1': '2', 'b': {'f': ['1']}}, {'b': {'f': []}}],
    ])
    def test_compat(self, documents):
        assert merged(*documents, merge_how=COMPAT) == functools.reduce(old_mergedict, documents, {})


KEYS = st.sampled_from(['a', 'b', 'c', 'runcmd'])
VALUES = st.recursive(st.one_of(st.none(), st.integers(0, 3), st.sampled_from(['x', 'y'])),
                      lambda children: st.one_of(st.lists(children, max_size=3),
                                                 st.dictionaries(KEYS, children, max_size=3)), max_leaves=10)
DOCUMENTS = st.lists(st.dictionaries(KEYS, VALUES, max_size=4), max_size=5)


@settings(max_examples=300, deadline=None)
@given(DOCUMENTS)
def test_default_mergers(documents):
    """cloud-init's default mergers: as the old mergedict where the layers keep one type per key, and as
    cloud-init's mergers everywhere (a list under a later map becomes the map: the list merger replaces)."""
    assert merged(*documents, merge_how=COMPAT) == oracle(copy.deepcopy(documents), COMPAT)


@settings(max_examples=300, deadline=None)
@given(DOCUMENTS)
def test_cloud_config_default_replaces_top_level_keys(documents):
    before = copy.deepcopy(documents)
    expected: dict = {}
    for document in documents:
        expected.update(document)
    assert merged(*documents) == expected
    assert documents == before


class TestSeed:
    FIRST = {'runcmd': ['bash1', 'bash2']}
    SECOND = {'runcmd': ['bash3', 'bash4']}
    MERGE_HOW = [{'name': 'list', 'settings': ['append']}, {'name': 'dict', 'settings': ['no_replace', 'recurse_list']}]

    def test_the_previous_way_replaces(self):
        assert merged(self.FIRST, self.SECOND) == {'runcmd': ['bash3', 'bash4']}

    def test_example_cloud_config(self):
        first = dict(self.FIRST, merge_how=self.MERGE_HOW)
        second = dict(self.SECOND, merge_how=self.MERGE_HOW)
        assert merged(first, second) == {'runcmd': ['bash1', 'bash2', 'bash3', 'bash4']}

    def test_string_form_of_the_same(self):
        spec = 'list(append)+dict(no_replace,recurse_list)+str()'
        assert merged(self.FIRST, self.SECOND, merge_how=spec) == {'runcmd': ['bash1', 'bash2', 'bash3', 'bash4']}

    def test_dictionary_format_as_the_filters_merge_how(self):
        # the seed's {'merge_how': [...]} (a map holding merge_how, as a document does), for documents naming none
        merge_how = {'merge_how': self.MERGE_HOW}
        assert merged({'runcmd': ['a']}, {'runcmd': ['b']}, merge_how=merge_how) == {'runcmd': ['a', 'b']}
        assert merged({'runcmd': ['a']}, {'runcmd': ['b']}, merge_how={'merge_type': 'list(append)+dict(recurse_list)'}) \
            == {'runcmd': ['a', 'b']}
        assert merged({'runcmd': ['a']}, {'runcmd': ['b']}, merge_how={'merge_how': None}) == {'runcmd': ['b']}
        with pytest.raises(StrategyError, match="the filter's merge_how as a map must hold merge_how.*it has name"):
            merged({'a': 1}, merge_how={'name': 'list', 'settings': ['append']})

    def test_dictionary_format(self):
        merge_how = [{'name': 'list', 'settings': ['append']},
                     {'name': 'dict', 'settings': ['no_replace', 'recurse_list']},
                     {'name': 'str', 'settings': ['append']}]
        assert parse_merge_how(merge_how) == parse_merge_how('list(append)+dict(no_replace,recurse_list)+str(append)')
        assert merged({'runcmd': ['a'], 's': 'x'}, {'runcmd': ['b'], 's': 'y', 'merge_how': merge_how}) == \
            {'runcmd': ['a', 'b'], 's': 'x'}       # no recurse_str: the existing string stays


class TestRealBehaviour:
    def test_a_documents_merge_how_governs_that_document_not_the_next(self):
        first = {'runcmd': ['bash1'], 'merge_how': 'list(append)+dict(no_replace,recurse_list)'}
        # the docs' stack would append the second document; cloud-init replaces it
        assert merged(first, {'runcmd': ['bash2']}) == {'runcmd': ['bash2']}
        second = {'runcmd': ['bash2'], 'merge_how': 'list(append)+dict(no_replace,recurse_list)'}
        assert merged({'runcmd': ['bash1']}, second) == {'runcmd': ['bash1', 'bash2']}

    def test_a_spec_without_a_dict_merger_leaves_the_document_unmerged(self):
        result = in_received_order([{'a': 1}, {'a': 2, 'b': 3, 'merge_how': 'list(append)+str()'}])
        value, warnings = result.value, result.warnings
        assert value == {'a': 1} and 'no dict merger' in warnings[0] and 'document 1' in warnings[0]
        # even the first document merges into an empty configuration with its own mergers
        assert merged({'a': 1, 'merge_how': 'list(append)'}) == {}

    def test_types_without_a_merger_keep_the_existing_value(self):
        spec = 'dict(no_replace,recurse_list,recurse_str)'
        assert merged({'l': [1], 's': 'a', 'n': 1}, {'l': [2], 's': 'b', 'n': 2, 'x': 3, 'merge_how': spec}) == \
            {'l': [1], 's': 'a', 'n': 1, 'x': 3}

    def test_no_replace_keeps_existing_values_and_merges_maps(self):
        spec = 'dict()+list()+str()'
        new = {'a': {'x': 2, 'y': 2, 'l': [2]}, 'b': 'new', 'c': None, 'merge_how': spec}
        assert merged({'a': {'x': 1, 'l': [1]}, 'b': 'old'}, new) == {'a': {'x': 1, 'l': [1], 'y': 2}, 'b': 'old', 'c': None}

    def test_replace_sets_a_null(self):
        assert merged({'a': 1, 'b': {'x': 1}}, {'a': None}) == {'a': None, 'b': {'x': 1}}

    def test_allow_delete(self):
        spec = 'dict(allow_delete,replace)+list()+str()'
        assert merged({'a': 1, 'b': 2}, {'a': None, 'c': None, 'merge_how': spec}) == {'b': 2, 'c': None}

    def test_list_replace_is_positional(self):
        spec = 'dict(no_replace,recurse_list)+list()+str()'
        assert merged({'l': [1, 2, 3]}, {'l': [4, 5], 'merge_how': spec}) == {'l': [4, 5, 3]}
        assert merged({'l': [1]}, {'l': [4, 5], 'merge_how': spec}) == {'l': [4]}
        assert merged({'l': [{'a': 1}]}, {'l': [{'b': 2}], 'merge_how': spec}) == {'l': [{'b': 2}]}
        deep = 'dict(no_replace,recurse_list)+list(recurse_dict,recurse_str)+str(append)'
        assert merged({'l': [{'a': 1, 'k': 'x'}, 'p']}, {'l': [{'a': 2, 'b': 2}, 'q'], 'merge_how': deep}) == \
            {'l': [{'a': 1, 'k': 'x', 'b': 2}, 'pq']}

    def test_list_methods(self):
        def lists(method):
            return merged({'l': ['o']}, {'l': ['n'], 'merge_how': 'dict(recurse_list)+list(%s)' % method})['l']
        assert (lists('append'), lists('prepend'), lists('no_replace'), lists('replace')) == \
            (['o', 'n'], ['n', 'o'], ['o'], ['n'])
        # the first method cloud-init finds wins: append before prepend, replace before no_replace
        assert lists('prepend,append') == ['o', 'n']
        assert merged({'a': 1}, {'a': 2, 'merge_how': 'dict(no_replace,replace)'}) == {'a': 2}

    def test_the_first_merger_of_a_type_wins(self):
        assert merged({'l': ['o']}, {'l': ['n'], 'merge_how': 'dict(recurse_list)+list(append)+list(prepend)'}) == \
            {'l': ['o', 'n']}

    def test_lists_of_maps_and_scalars_merge_together(self):
        spec = 'dict(recurse_list)+list(append)'
        assert merged({'users': [{'name': 'a'}]}, {'users': ['default'], 'merge_how': spec}) == \
            {'users': [{'name': 'a'}, 'default']}

    def test_the_existing_values_type_decides(self):
        # a map merged into a string: the str merger replaces it; without str merger the string stays
        assert merged({'a': 'text'}, {'a': {'x': 1}, 'merge_how': 'dict()+str()'}) == {'a': {'x': 1}}
        assert merged({'a': 'text'}, {'a': {'x': 1}, 'merge_how': 'dict()'}) == {'a': 'text'}
        # a string merged into a map: the dict merger keeps the map
        result = in_received_order([{'a': {'x': 1}}, {'a': 'text', 'merge_how': 'dict(recurse_str)+str()'}])
        assert result.value == {'a': {'x': 1}} and result.warnings == []
        # list(append) with a string adds its characters, with a map its keys
        spec = 'dict(recurse_str)+list(append)'
        assert merged({'l': ['x']}, {'l': 'ab', 'merge_how': spec}) == {'l': ['x', 'a', 'b']}
        assert merged({'l': ['x']}, {'l': {'k': 1}, 'merge_how': spec}) == {'l': ['x', 'k']}   # maps always recurse
        assert merged({'l': ['x']}, {'l': {'k': 1}, 'merge_how': 'dict()+list(prepend)'}) == {'l': ['k', 'x']}
        # list(replace) takes a new value that is not a list
        assert merged({'l': ['x']}, {'l': {'k': 1}, 'merge_how': 'dict()+list()'}) == {'l': {'k': 1}}
        # numbers, booleans and nulls have no merger: the existing value stays
        assert merged({'n': 1, 'z': None}, {'n': {'k': 1}, 'z': {'k': 1}, 'merge_how': 'dict()'}) == {'n': 1, 'z': None}

    def test_what_cloud_init_fails_on_is_an_error(self):
        with pytest.raises(MergeInputError, match="document 1.*str.append. cannot append a list.*'s'"):
            merged({'s': 'a'}, {'s': ['b'], 'merge_how': 'dict(recurse_list)+str(append)'})
        with pytest.raises(MergeInputError, match='document 1.*no key 0'):
            merged({'l': ['a']}, {'l': {'k': 1}, 'merge_how': 'dict()+list(no_replace)'})
        assert merged({'l': ['a']}, {'l': {0: 'b'}, 'merge_how': 'dict()+list(no_replace)'}) == {'l': ['a']}

    def test_keys_keep_the_existing_order(self):
        assert list(merged({'b': 1, 'a': 1}, {'c': 2, 'b': 2})) == ['b', 'a', 'c']
        assert list(merged({'b': 1, 'a': 1}, {'c': 2, 'b': 2, 'merge_how': 'dict()'})) == ['b', 'a', 'c']

    def test_merge_keys_are_removed_and_merge_type_is_the_fallback(self):
        assert merged({'l': ['o']}, {'l': ['n'], 'merge_how': None, 'merge_type': 'dict(recurse_list)+list(append)'}) == \
            {'l': ['o', 'n']}
        assert merged({'a': 1, 'merge_how': 'dict()', 'merge_type': 'list()'}) == {'a': 1}

    def test_appended_strings_keep_a_str_subclass(self):
        """A str subclass (such as a marker of untrusted text) among appended parts is not laundered into str."""
        class Marked(str):
            pass
        result = merged({'s': 'a'}, {'s': Marked('b'), 'merge_how': 'dict(recurse_str)+str(append)'})['s']
        assert result == 'ab' and isinstance(result, Marked)

    def test_nothing_is_a_knockout_and_nulls_are_skipped(self):
        assert merged(None, {'--a': 1, 'l': ['--x']}, None) == {'--a': 1, 'l': ['--x']}

    def test_inputs_are_not_modified_or_shared(self):
        first = {'a': {'l': [1]}, 'merge_how': 'dict(recurse_list)+list(append)'}
        second = {'a': {'l': [2], 'm': {'x': 1}}, 'merge_how': 'dict(recurse_list)+list(append)'}
        before = copy.deepcopy((first, second))
        result = merged(first, second)
        result['a']['m']['x'] = 5
        result['a']['l'].append(3)
        assert (first, second) == before


class TestSpecs:
    def test_string_and_list_forms(self):
        assert dict(parse_merge_how('List(Append)+dict(no_replace, recurse_list)+')) == \
            {'list': frozenset(['append']), 'dict': frozenset(['no_replace', 'recurse_list'])}
        assert dict(parse_merge_how([['list', 'append'], {'name': 'm_dict', 'settings': 'no_replace,recurse_list'},
                                     {'name': 'str'}])) == \
            {'list': frozenset(['append']), 'dict': frozenset(['no_replace', 'recurse_list']), 'str': frozenset()}
        assert parse_merge_how('') == parse_merge_how([]) == parse_merge_how(None) == ()

    def test_an_empty_spec_uses_the_default(self):
        assert merged({'a': 1}, {'a': 2, 'merge_how': ''}) == {'a': 2}
        assert merged({'l': [1]}, {'l': [2], 'merge_how': ''}, merge_how='dict(recurse_list)+list(append)') == \
            {'l': [1, 2]}

    def test_mergers_of_a_spec(self):
        mergers = CloudInitMergers.of(parse_merge_how('dict(no_replace,recurse_list)+list(append,recurse_str)+str(append)'))
        assert mergers == CloudInitMergers(DictMerger(False, False, True, False), ListMerger('append', False, False, True),
                                           True)
        assert CloudInitMergers.of(parse_merge_how('dict(replace,allow_delete)')) == \
            CloudInitMergers(DictMerger(True, True, False, False), None, None)
        assert CloudInitMergers.of(parse_merge_how('list()')).dict is None

    @pytest.mark.parametrize('spec, words', [
        ('list(append', ["'list(append'", 'not in the format']),
        ('lists(append)', ["unknown merger 'lists'", 'dict, list, str']),
        ('list(apend)', ["unknown option 'apend'", "merger 'list'", 'append, prepend']),
        ('dict(prepend)', ["unknown option 'prepend'", "merger 'dict'"]),
        ({'name': 'list'}, ['must be a string', 'not dict']),
        (['list'], ['must be a map with name and settings']),
        ([{'name': 'list', 'settings': [1]}], ['must have a name and a list of settings']),
        ([{'settings': ['append']}], ['must have a name']),
        (5, ['must be a string']),
    ])
    def test_malformed(self, spec, words):
        with pytest.raises(StrategyError) as error:
            merged({'a': 1, 'merge_how': spec})
        message = str(error.value)
        assert 'document 0' in message
        for word in words:
            assert word in message

    def test_malformed_filter_default(self):
        with pytest.raises(StrategyError, match="the filter's merge_how"):
            merged({'a': 1}, merge_how='nope')


@pytest.mark.parametrize('documents, words', [
    ({'a': 1}, ['must be a list']),
    ([{'a': 1}, ['x']], ['document 1', 'must be a map']),
])
def test_bad_documents(documents, words):
    with pytest.raises(MergeInputError) as error:
        in_received_order(documents) if isinstance(documents, list) else merge_cloud_configs(documents)
    for word in words:
        assert word in str(error.value)


# --- differential test against cloud-init's algorithm --------------------------------------------------
# A port of cloudinit/mergers (LookupMerger, m_dict, m_list, m_str) and the cloud-config part handler, used as
# an oracle (tests/oracle/cloud_init/ runs cloud-init's own code): the existing value's type picks the merger,
# the new value's type and the recurse_* options decide what a merger hands on.

def oracle_merge(old, new, mergers):
    if isinstance(old, dict):
        name = 'dict'
    elif isinstance(old, list):
        name = 'list'
    elif isinstance(old, str):
        name = 'str'
    else:
        return old
    if name not in mergers:
        return old
    return {'dict': _oracle_dict, 'list': _oracle_list, 'str': _oracle_str}[name](old, new, mergers[name], mergers)


def _recursing(options, value, maps):
    return (isinstance(value, list) and ('recurse_array' in options or 'recurse_list' in options)
            or isinstance(value, str) and 'recurse_str' in options or isinstance(value, dict) and maps)


def _oracle_dict(old, new, options, mergers):
    if not isinstance(new, dict):
        return old
    replace = 'replace' in options
    value = dict(old)
    for key, item in new.items():
        if key not in value:
            value[key] = item
        elif item is None and 'allow_delete' in options:
            value.pop(key)
        elif replace:
            value[key] = item
        elif _recursing(options, item, True):
            value[key] = oracle_merge(value[key], item, mergers)
    return value


def _oracle_list(old, new, options, mergers):
    method = next((m for m in ('append', 'prepend', 'replace', 'no_replace') if m in options), 'replace')
    if method == 'replace' and not isinstance(new, list):
        return new
    if method == 'append':
        return list(old) + list(new)
    if method == 'prepend':
        return list(new) + list(old)
    result = list(old)
    for index in range(min(len(result), len(new))):
        item = new[index]
        if method == 'no_replace':
            continue
        if _recursing(options, item, 'recurse_dict' in options):
            result[index] = oracle_merge(result[index], item, mergers)
        else:
            result[index] = item
    return result


def _oracle_str(old, new, options, _mergers):
    return old + new if 'append' in options else new


def oracle(documents, default):
    merged = {}
    for document in documents:
        body = dict(document)
        spec = body.pop('merge_how', None)
        mergers = dict(parse_merge_how(spec)) or dict(parse_merge_how(default))
        merged = oracle_merge(merged, body, mergers)
    return merged


SCHEMA = {'n': int, 's': str, 'l': [str], 'll': [[str]], 'lm': [{'k': str, 'v': int}],
          'm': {'n': int, 's': str, 'l': [int], 'm': {'s': str, 'n': int}}}


def values_of(schema, nullable):
    if schema is int:
        value = st.integers(0, 3)
    elif schema is str:
        value = st.sampled_from(['a', 'b', 'c'])
    elif isinstance(schema, list):
        value = st.lists(values_of(schema[0], False), max_size=3)
    else:
        value = st.fixed_dictionaries({}, optional={key: values_of(sub, True) for key, sub in schema.items()})
    return st.one_of(st.none(), value) if nullable else value


SPECS = st.builds(
    lambda dict_opts, list_opts, str_opts: '+'.join(
        part for part in ('dict(%s)' % ','.join(dict_opts) if dict_opts is not None else '',
                          'list(%s)' % ','.join(list_opts) if list_opts is not None else '',
                          'str(%s)' % ','.join(str_opts) if str_opts is not None else '') if part),
    st.one_of(st.none(), st.lists(st.sampled_from(['replace', 'no_replace', 'allow_delete', 'recurse_list',
                                                   'recurse_array', 'recurse_str']), max_size=3)),
    st.one_of(st.none(), st.lists(st.sampled_from(['append', 'prepend', 'replace', 'no_replace', 'recurse_dict',
                                                   'recurse_list', 'recurse_str']), max_size=3)),
    st.one_of(st.none(), st.lists(st.sampled_from(['append']), max_size=1)))
BODIES = st.one_of(values_of(SCHEMA, False), st.dictionaries(KEYS, VALUES, max_size=4))   # one type per key, or any
CLOUD_DOCUMENTS = st.lists(st.tuples(BODIES, st.one_of(st.none(), SPECS)), max_size=4)


@settings(max_examples=500, deadline=None)
@given(CLOUD_DOCUMENTS, SPECS)
def test_same_as_cloud_inits_algorithm(documents, default):
    documents = [dict(body, merge_how=spec) if spec else body for body, spec in documents]
    default = default or 'dict(replace)+list()+str()'
    try:
        expected = oracle(copy.deepcopy(documents), default)
    except (TypeError, KeyError):       # cloud-init skips the part; the filter's error names it
        with pytest.raises(MergeInputError, match='document'):
            merged(*documents, merge_how=default)
        return
    result = merged(*documents, merge_how=default)
    assert result == expected
    assert json.dumps(result) == json.dumps(expected)        # the same key order too
