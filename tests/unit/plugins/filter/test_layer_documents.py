# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

import copy

import pytest

from ansible.errors import AnsibleFilterError

from ansible_collections.strata.hier.plugins.filter.layer_documents import FilterModule, layer_documents

POLICY = {'schema': 'deckhand/LayeringPolicy/v1', 'metadata': {'schema': 'metadata/Control/v1', 'name': 'lp'},
          'data': {'layerOrder': ['global', 'site']}}
GLOBAL = {'schema': 'example/Kind/v1',
          'metadata': {'schema': 'metadata/Document/v1', 'name': 'global-1234', 'labels': {'key1': 'value1'},
                       'layeringDefinition': {'abstract': True, 'layer': 'global'}},
          'data': {'a': {'x': 1, 'y': 2}}}
SITE = {'schema': 'example/Kind/v1',
        'metadata': {'schema': 'metadata/Document/v1', 'name': 'site-1234',
                     'layeringDefinition': {'layer': 'site', 'parentSelector': {'key1': 'value1'},
                                            'actions': [{'method': 'merge', 'path': '.'}]}},
        'data': {'b': 4}}


def site_with(data):
    site = copy.deepcopy(SITE)
    site['data'] = data
    return site


def test_registered():
    assert FilterModule().filters()['layer_documents'] is layer_documents


def test_renders_concrete_documents():
    assert layer_documents([POLICY, GLOBAL, SITE]) == [POLICY, site_with({'a': {'x': 1, 'y': 2}, 'b': 4})]


def test_arguments_add_documents():
    expected = layer_documents([POLICY, GLOBAL, SITE])
    assert layer_documents([POLICY, GLOBAL], [SITE]) == expected
    assert layer_documents(POLICY, GLOBAL, SITE) == expected
    assert layer_documents(iter([POLICY, None, GLOBAL, SITE])) == expected    # from_yaml_all gives a generator


@pytest.mark.parametrize('args, words', [
    (('text',), ['layer_documents: the input must be a list of documents (maps), not str']),
    (([POLICY], 5), ['layer_documents: argument 1 must be a list of documents']),
    (([GLOBAL, SITE],), ['layer_documents: no LayeringPolicy', 'example/Kind/v1/global-1234 (layer global)']),
])
def test_errors_become_filter_errors(args, words):
    with pytest.raises(AnsibleFilterError) as error:
        layer_documents(*args)
    for word in words:
        assert word in str(error.value)


def test_self_referencing_data_is_a_filter_error():
    data = {}
    data['self'] = data
    site = site_with({'b': data})
    site['metadata']['layeringDefinition']['actions'] = [{'method': 'replace', 'path': '.b'}]
    with pytest.raises(AnsibleFilterError, match='layer_documents: data nests deeper than 64 levels, or refers to itself'):
        layer_documents([POLICY, GLOBAL, site])


def test_missing_action_path_names_document_and_path():
    site = copy.deepcopy(SITE)
    site['metadata']['layeringDefinition']['actions'] = [{'method': 'replace', 'path': '.c'}]
    with pytest.raises(AnsibleFilterError) as error:
        layer_documents([POLICY, GLOBAL, site])
    assert str(error.value).startswith("layer_documents: example/Kind/v1/site-1234 (layer site): replace '.c': "
                                       "the path is missing in the document's own data")


def test_warnings_are_shown(mocker):
    warning = mocker.patch('ansible_collections.strata.hier.plugins.plugin_utils.filters.Display.warning')
    site = copy.deepcopy(SITE)
    site['metadata']['layeringDefinition']['parentSelector'] = {'key1': 'nothing'}
    assert layer_documents([POLICY, GLOBAL, site]) == [POLICY, site]
    assert warning.call_args[0][0].startswith('layer_documents: example/Kind/v1/site-1234 (layer site): no document')
