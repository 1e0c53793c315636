# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

import pytest

from ansible.errors import AnsibleFilterError

from ansible_collections.strata.hier.plugins.filter.cloud_init_merge import FilterModule, cloud_init_merge

MERGE_HOW = [{'name': 'list', 'settings': ['append']}, {'name': 'dict', 'settings': ['no_replace', 'recurse_list']}]


def test_registered():
    assert FilterModule().filters()['cloud_init_merge'] is cloud_init_merge


def test_combine_convention_and_seed():
    first = {'merge_how': MERGE_HOW, 'runcmd': ['bash1', 'bash2']}
    second = {'merge_how': MERGE_HOW, 'runcmd': ['bash3', 'bash4']}
    assert cloud_init_merge(first, second) == {'runcmd': ['bash1', 'bash2', 'bash3', 'bash4']}
    assert cloud_init_merge([first, second]) == cloud_init_merge(first, second)
    assert cloud_init_merge({'runcmd': ['bash1', 'bash2']}, {'runcmd': ['bash3', 'bash4']}) == \
        {'runcmd': ['bash3', 'bash4']}


def test_merge_how_is_the_default_spec():
    assert cloud_init_merge({'runcmd': ['a']}, {'runcmd': ['b']},
                            merge_how='list(append)+dict(no_replace,recurse_list)+str()') == {'runcmd': ['a', 'b']}
    assert cloud_init_merge({'runcmd': ['a']}, {'runcmd': ['b']}, merge_how=MERGE_HOW) == {'runcmd': ['a', 'b']}
    # cloud-init's dictionary format
    assert cloud_init_merge([{'runcmd': ['a']}, {'runcmd': ['b']}], merge_how={'merge_how': MERGE_HOW}) == \
        {'runcmd': ['a', 'b']}


@pytest.mark.parametrize('args, kwargs, words', [
    (({'a': 1}, {'merge_how': 'list(apend)'}), {}, ['cloud_init_merge:', "unknown option 'apend'", 'document 1']),
    (([{'a': 1}],), {'merge_how': 'tuple()'}, ["unknown merger 'tuple'", "the filter's merge_how"]),
    (({'a': 1}, 'text'), {}, ['document 1', 'must be a map']),
    (({'a': 1},), {}, ['must be a list']),
])
def test_errors(args, kwargs, words):
    with pytest.raises(AnsibleFilterError) as error:
        cloud_init_merge(*args, **kwargs)
    for word in words:
        assert word in str(error.value)


def test_unmerged_document_warns(mocker):
    warning = mocker.patch('ansible_collections.strata.hier.plugins.plugin_utils.filters.Display.warning')
    assert cloud_init_merge({'a': 1}, {'a': 2, 'merge_how': 'list(append)'}) == {'a': 1}
    assert 'no dict merger' in warning.call_args[0][0]
