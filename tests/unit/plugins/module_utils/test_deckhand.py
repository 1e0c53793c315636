# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Deckhand document layering: every example of Deckhand's "Document Layering" page with its exact result,
the page's sample documents (also with region-1234 removed), scenarios of Deckhand's own tests, and errors.
"""

from __future__ import annotations

import copy

import pytest
import yaml

from ansible_collections.strata.hier.plugins.module_utils.dialects.deckhand.layering import Renderer, layer_documents
from ansible_collections.strata.hier.plugins.module_utils.dialects.deckhand.documents import (
    InvalidDocumentParent, SubstitutionDependencyCycle, parse_action_path, parse_document, parse_path,
)
from ansible_collections.strata.hier.plugins.module_utils.core.errors import DocumentError, MergeDepthError, MergeError
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.shapes import looped, nested

SCHEMA = 'example/Kind/v1'


def policy(*layers, name='layering-policy'):
    return {'schema': 'deckhand/LayeringPolicy/v1', 'metadata': {'schema': 'metadata/Control/v1', 'name': name},
            'data': {'layerOrder': list(layers or ('global', 'region', 'site'))}}


def document(name, layer, data, labels=None, selector=None, actions=None, abstract=False, schema=SCHEMA,
             replacement=None, **metadata):
    """A Deckhand document; ``actions`` is a list of (method, path)."""
    definition = {'abstract': abstract, 'layer': layer}
    if selector is not None:
        definition['parentSelector'] = selector
    if actions is not None:
        definition['actions'] = [{'method': method, 'path': path} for method, path in actions]
    metadata.update({'schema': 'metadata/Document/v1', 'name': name, 'layeringDefinition': definition})
    if labels is not None:
        metadata['labels'] = labels
    if replacement is not None:
        metadata['replacement'] = replacement
    return {'schema': schema, 'metadata': metadata, 'data': data}


def rendered(documents, name=None):
    """The data of the returned documents (but the policy) by name, or of one of them."""
    result = {doc['metadata']['name']: doc['data'] for doc in layer_documents(documents).documents
              if not doc['schema'].startswith('deckhand/LayeringPolicy')}
    return result if name is None else result[name]


def failure(documents):
    with pytest.raises(DocumentError) as error:
        layer_documents(documents)
    return str(error.value)


# --- the page's action examples ---------------------------------------------------------
CHILD_DATA = {'a': {'x': 7, 'z': 3}, 'b': 4}
PARENT_DATA = {'a': {'x': 1, 'y': 2}, 'c': 9}


def one_action(method, path, child=None, parent=None):
    """The page's setting: a child layering onto its parent with one action."""
    return [
        policy('global', 'site'),
        document('parent', 'global', PARENT_DATA if parent is None else parent, labels={'key1': 'value1'},
                 abstract=True),
        document('child', 'site', CHILD_DATA if child is None else child, selector={'key1': 'value1'},
                 actions=[(method, path)]),
    ]


@pytest.mark.parametrize('method, path, expected', [
    ('merge', '.', {'a': {'x': 7, 'y': 2, 'z': 3}, 'b': 4, 'c': 9}),
    ('merge', '.a', {'a': {'x': 7, 'y': 2, 'z': 3}, 'c': 9}),
    ('merge', '.b', {'a': {'x': 1, 'y': 2}, 'b': 4, 'c': 9}),
    ('replace', '.', {'a': {'x': 7, 'z': 3}, 'b': 4}),
    ('replace', '.a', {'a': {'x': 7, 'z': 3}, 'c': 9}),
    ('replace', '.b', {'a': {'x': 1, 'y': 2}, 'b': 4, 'c': 9}),
    ('delete', '.', {}),
    ('delete', '.a', {'c': 9}),
    ('delete', '.c', {'a': {'x': 1, 'y': 2}}),
])
def test_seed_action_examples(method, path, expected):
    assert rendered(one_action(method, path), 'child') == expected


@pytest.mark.parametrize('method, path, words', [
    # "Error raised (.c missing in child)."
    ('merge', '.c', ["example/Kind/v1/child (layer site)", "merge '.c'", "missing in the document's own data"]),
    ('replace', '.c', ["example/Kind/v1/child (layer site)", "replace '.c'", "missing in the document's own data"]),
    # The page's last delete example ("Replace Path: .b", under delete) says ".b missing in child"; .b is in the
    # child but not in the parent's data, which delete removes from, as in Deckhand's engine.
    ('delete', '.b', ["example/Kind/v1/child (layer site)", "delete '.b'", 'missing in the data the document '
                      'inherits from its parent (example/Kind/v1/parent (layer global))']),
])
def test_seed_action_errors(method, path, words):
    message = failure(one_action(method, path))
    for word in words:
        assert word in message


def test_merge_keeps_the_child_first_in_merged_maps():
    # The core's order (most specific first); Deckhand's engine keeps the parent's keys first.
    assert list(rendered(one_action('merge', '.'), 'child')['a']) == ['x', 'z', 'y']


# --- the page's sample documents --------------------------------------------------------
SAMPLE = """
---
schema: deckhand/LayeringPolicy/v1
metadata:
  schema: metadata/Control/v1
  name: layering-policy
data:
  layerOrder:
    - global
    - region
    - site
---
schema: example/Kind/v1
metadata:
  schema: metadata/Document/v1
  name: global-1234
  labels:
    key1: value1
  layeringDefinition:
    abstract: true
    layer: global
data:
  a:
    x: 1
    y: 2
---
schema: example/Kind/v1
metadata:
  schema: metadata/Document/v1
  name: region-1234
  labels:
    key1: value1
  layeringDefinition:
    abstract: true
    layer: region
    parentSelector:
      key1: value1
    actions:
      - method: replace
        path: .a
data:
  a:
    z: 3
---
schema: example/Kind/v1
metadata:
  schema: metadata/Document/v1
  name: site-1234
  layeringDefinition:
    layer: site
    parentSelector:
      key1: value1
    actions:
      - method: merge
        path: .
data:
  b: 4
"""


def sample():
    return list(yaml.safe_load_all(SAMPLE))


def test_sample_documents():
    documents = sample()
    result = layer_documents(documents)
    assert result.warnings == []
    site = copy.deepcopy(documents[3])
    site['data'] = {'a': {'z': 3}, 'b': 4}
    # Abstract global-1234 and region-1234 are not returned; the LayeringPolicy is, as it is.
    assert result.documents == [documents[0], site]


def test_sample_documents_with_region_removed():
    documents = sample()
    del documents[2]
    assert rendered(documents) == {'site-1234': {'a': {'x': 1, 'y': 2}, 'b': 4}}


def test_sample_documents_with_concrete_region():
    documents = sample()
    documents[2]['metadata']['layeringDefinition']['abstract'] = False
    assert rendered(documents) == {'region-1234': {'a': {'z': 3}}, 'site-1234': {'a': {'z': 3}, 'b': 4}}


def test_inputs_are_never_modified_nor_shared():
    documents = sample()
    before = copy.deepcopy(documents)
    result = layer_documents(documents).documents
    assert documents == before
    result[0]['data']['layerOrder'].append('extra')
    result[1]['data']['a']['z'] = 'changed'
    result[1]['metadata']['layeringDefinition']['actions'].clear()
    assert documents == before


# --- parent selection -------------------------------------------------------------------
def test_parent_labels_are_a_superset_of_the_selector():
    documents = [
        policy(),
        document('g', 'global', {'a': 1}, labels={'k1': 'v1', 'k2': 'v2', 'k3': 'v3'}),
        document('s', 'site', {'b': 2}, selector={'k1': 'v1', 'k3': 'v3'}, actions=[('merge', '.')]),
    ]
    assert rendered(documents, 's') == {'a': 1, 'b': 2}


def test_nearest_layer_wins():
    documents = [
        policy(),
        document('g', 'global', {'from': 'global'}, labels={'k': 'v'}),
        document('other', 'region', {'from': 'other schema'}, labels={'k': 'other'}, schema='example/Other/v1'),
        document('s2', 'site', {'b': 2}, selector={'k': 'v'}, actions=[('merge', '.')]),
    ]
    assert rendered(documents, 's2') == {'from': 'global', 'b': 2}


@pytest.mark.parametrize('intruder, why', [
    (document('other', 'region', {}, labels={'k': 'v'}, schema='example/Other/v1'),
     'matches the labels of example/Other/v1/other (layer region), a document of another schema'),
    (document('s1', 'site', {}, labels={'k': 'v'}),
     "matches the labels of example/Kind/v1/s1 (layer site), which is not in a layer above 'site'"),
    (document('s1', 'site', {}, labels={'k': 'v', 'extra': 1}, abstract=True),
     "matches the labels of example/Kind/v1/s1 (layer site), which is not in a layer above 'site'"),
])
def test_matching_labels_of_another_schema_or_not_above_are_errors(intruder, why):
    # Deckhand's engine raises InvalidDocumentParent for both, naming both documents.
    documents = [policy(), document('g', 'global', {'a': 1}, labels={'k': 'v'}), intruder,
                 document('s2', 'site', {'b': 2}, selector={'k': 'v'}, actions=[('merge', '.')])]
    with pytest.raises(InvalidDocumentParent) as error:
        layer_documents(documents)
    assert str(error.value) == ("example/Kind/v1/s2 (layer site): its parentSelector {'k': 'v'} %s%s "
                                "(Deckhand: InvalidDocumentParent)"
                                % (why, '; documents of different schemas are never layered together'
                                   if 'schema' in why else ' (layerOrder: global, region, site); a parent must be '
                                   'in a higher layer'))


def test_a_lower_layer_match_is_an_error():
    documents = [policy(), document('g', 'global', {'a': 1}, labels={'k': 'v'}),
                 document('r', 'region', {'b': 2}, selector={'k': 'v'}, actions=[('merge', '.')]),
                 document('s', 'site', {}, labels={'k': 'v'})]
    assert "matches the labels of example/Kind/v1/s (layer site), which is not in a layer above 'region'" in \
        failure(documents)


def test_grandparent_when_the_nearer_layer_has_no_match():
    # Deckhand's test_layering_using_grandparent_as_parent: the region document does not match.
    documents = [
        policy(),
        document('etcd-global', 'global', {'chart_name': 'global-etcd'}, labels={'name': 'etcd-global'}),
        document('etcd-region', 'region', {}, actions=[('merge', '.')]),
        document('etcd', 'site', {}, selector={'name': 'etcd-global'}, actions=[('merge', '.')]),
    ]
    assert rendered(documents) == {'etcd-global': {'chart_name': 'global-etcd'}, 'etcd-region': {},
                                   'etcd': {'chart_name': 'global-etcd'}}


def test_two_abstract_regions_one_child_each():
    # Deckhand's test_layering_two_abstract_regions_one_child_each.
    documents = [
        policy(),
        document('g', 'global', {'a': 1, 'b': 2}, labels={'g': 'g'}, abstract=True),
        document('r1', 'region', {'c': 3, 'd': 4}, labels={'region': 'region1'}, selector={'g': 'g'},
                 actions=[('merge', '.')], abstract=True),
        document('r2', 'region', {'e': 5, 'f': 6}, labels={'region': 'region2'}, selector={'g': 'g'},
                 actions=[('merge', '.')], abstract=True),
        document('s1', 'site', {'g': 7, 'h': 8}, selector={'region': 'region1'}, actions=[('merge', '.')]),
        document('s2', 'site', {'i': 9, 'j': 10}, selector={'region': 'region2'}, actions=[('merge', '.')]),
    ]
    assert rendered(documents) == {'s1': {'a': 1, 'b': 2, 'c': 3, 'd': 4, 'g': 7, 'h': 8},
                                   's2': {'a': 1, 'b': 2, 'e': 5, 'f': 6, 'i': 9, 'j': 10}}


def test_unmatched_selector_keeps_own_data_with_a_warning():
    documents = [policy(), document('g', 'global', {'a': 1}, labels={'k': 'v'}),
                 document('s', 'site', {'b': 2}, selector={'k': 'other'}, actions=[('merge', '.')])]
    result = layer_documents(documents)
    assert result.documents[2]['data'] == {'b': 2}
    assert 'example/Kind/v1/s (layer site): no document of schema example/Kind/v1' in result.warnings[0]


def test_parent_without_actions_gives_nothing():
    documents = [policy(), document('g', 'global', {'a': 1}, labels={'k': 'v'}),
                 document('s', 'site', {'b': 2}, selector={'k': 'v'})]
    assert rendered(documents, 's') == {'b': 2}


# --- actions ----------------------------------------------------------------------------
def test_actions_apply_in_order():
    parent = {'a': {'x': 1, 'y': 2}}
    child = {'a': {'z': 3}}
    merge_then_replace = one_action('merge', '.', child, parent)
    merge_then_replace[2]['metadata']['layeringDefinition']['actions'].append({'method': 'replace', 'path': '.a'})
    replace_then_merge = one_action('replace', '.a', child, parent)
    replace_then_merge[2]['metadata']['layeringDefinition']['actions'].append({'method': 'merge', 'path': '.'})
    assert rendered(merge_then_replace, 'child') == {'a': {'z': 3}}
    assert rendered(replace_then_merge, 'child') == {'a': {'z': 3}}
    delete_then_merge = one_action('delete', '.', {'b': 4}, {'a': 1})
    delete_then_merge[2]['metadata']['layeringDefinition']['actions'].append({'method': 'merge', 'path': '.'})
    merge_then_delete = one_action('merge', '.', {'b': 4}, {'a': 1})
    merge_then_delete[2]['metadata']['layeringDefinition']['actions'].append({'method': 'delete', 'path': '.'})
    assert rendered(delete_then_merge, 'child') == {'b': 4}
    assert rendered(merge_then_delete, 'child') == {}


def test_three_layers_multiple_delete_replace():
    # Deckhand's test_layering_multiple_delete_replace.
    documents = [
        policy(),
        document('g', 'global', {'a': {'x': 1, 'y': 2}, 'b': {'v': 3, 'w': 4}}, labels={'g': 'g'}, abstract=True),
        document('r', 'region', {'b': {'z': 3}}, labels={'r': 'r'}, selector={'g': 'g'}, abstract=True,
                 actions=[('delete', '.a'), ('replace', '.b'), ('delete', '.b')]),
        document('s', 'site', {'b': 4}, selector={'r': 'r'}, actions=[('merge', '.')]),
    ]
    assert rendered(documents) == {'s': {'b': 4}}


def test_merge_of_primitives_and_lists_takes_the_child():
    parent = {'n': 1, 'l': [1, 2], 'm': {'l': [{'k': 1}], 'keep': True}}
    child = {'n': 7, 'l': [3], 'm': {'l': [{'k': 2}]}}
    assert rendered(one_action('merge', '.n', child, parent), 'child')['n'] == 7   # Deckhand's engine keeps 1
    assert rendered(one_action('merge', '.l', child, parent), 'child')['l'] == [3]
    assert rendered(one_action('merge', '.', child, parent), 'child') == \
        {'n': 7, 'l': [3], 'm': {'l': [{'k': 2}], 'keep': True}}


def test_merge_at_an_index():
    parent = {'a': [{'x': 1, 'y': 2}, {'other': 1}], 'l': [[1, 2]], 'n': [{'b': [1]}]}
    child = {'a': [{'x': 7}], 'l': [[3]], 'n': [{'b': [2]}]}
    assert rendered(one_action('merge', '.a[0]', child, parent), 'child')['a'] == [{'x': 7, 'y': 2}, {'other': 1}]
    # A list at a path with an index extends the parent's list (the page's "extend").
    assert rendered(one_action('merge', '.l[0]', child, parent), 'child')['l'] == [[1, 2, 3]]
    assert rendered(one_action('merge', '.n[0].b', child, parent), 'child')['n'] == [{'b': [1, 2]}]
    # Without an index the child's list replaces the parent's.
    assert rendered(one_action('merge', '.l', child, parent), 'child')['l'] == [[3]]


def test_replace_and_delete_at_an_index():
    parent = {'a': [1, 2, 3]}
    child = {'a': [9, 8]}
    assert rendered(one_action('replace', '.a[1]', child, parent), 'child') == {'a': [1, 8, 3]}
    assert rendered(one_action('delete', '.a[0]', child, parent), 'child') == {'a': [2, 3]}
    assert 'missing in the data' in failure(one_action('delete', '.a[5]', child, parent))


def test_nested_paths_create_what_is_missing():
    child = {'a': {'b': {'c': 1}}, 'l': [0, 0, 'third']}
    assert rendered(one_action('replace', '.a.b', child, {}), 'child') == {'a': {'b': {'c': 1}}}
    assert rendered(one_action('merge', '.a.b', child, {'a': {'b': {'d': 2}}}), 'child') == \
        {'a': {'b': {'d': 2, 'c': 1}}}
    # As Deckhand: a missing list is created and padded with empty maps.
    assert rendered(one_action('replace', '.l[2]', child, {}), 'child') == {'l': [{}, {}, 'third']}


def test_delete_removes_the_path_it_names():
    # Deckhand's engine deletes the first value equal to the one at the path, wherever it is (here 'x').
    parent = {'x': 1, 'a': {'y': 1, 'z': 2}}
    assert rendered(one_action('delete', '.a.y', {}, parent), 'child') == {'x': 1, 'a': {'z': 2}}


def test_null_and_markers_in_merges():
    # null never overrides (it is "not found"); knockout markers are plain keys for Deckhand.
    parent = {'a': {'x': 1}, 'b': 2}
    child = {'a': {'x': None, '--y': 1}, 'c': None}
    assert rendered(one_action('merge', '.', child, parent), 'child') == {'a': {'x': 1, '--y': 1}, 'b': 2, 'c': None}
    assert 'missing in the document' in failure(one_action('merge', '.c', child, parent))


def test_scalar_data_sections():
    documents = one_action('merge', '.', 'CERTIFICATE', 'PARENT')
    assert rendered(documents, 'child') == 'CERTIFICATE'
    assert 'holds a str where the path needs a map' in failure(one_action('replace', '.a', {'a': 1}, 'PARENT'))


@pytest.mark.parametrize('text, path', [
    ('.', ()), ('$', ()), ('$.a', ('a',)), (' .a.b ', ('a', 'b')), ('.a[0]', ('a', 0)),
    ('.a[10].b-c', ('a', 10, 'b-c')), (".'a.b'[1]", ('a.b', 1)), ('.a["x y"]', ('a', 'x y')),
    # Deckhand adds the leading dot: a.b is .a.b; .data is a key here (substitution paths)
    ('a.b', ('a', 'b')), ('a', ('a',)), ('.data.a', ('data', 'a')), ('[0].a', (0, 'a')), ('.[0]', (0,)),
])
def test_parse_path(text, path):
    assert parse_path(text) == path


@pytest.mark.parametrize('text, path', [
    # Deckhand's layering actions read a leading .data or $.data as the data section itself.
    ('.data', ()), ('$.data', ()), ('.data.a[0]', ('a', 0)), ('$.data.a.b', ('a', 'b')), ('.data[1]', (1,)),
    ('data.a', ('data', 'a')), ('a.b', ('a', 'b')), ('.', ()),
    # ... but only a whole key named data: Deckhand's engine turns .database.host into .base.host
    ('.database.host', ('database', 'host')), ('.data_x', ('data_x',)), ('.data.data', ('data',)),
])
def test_parse_action_path(text, path):
    assert parse_action_path(text) == path


def test_action_paths_as_deckhand_normalises_them():
    parent = {'a': [{'x': 1, 'y': 2}], 'keep': 1}
    child = {'a': [{'x': 7}], 'b': 4}
    assert rendered(one_action('merge', '.data.a[0]', child, parent), 'child') == {'a': [{'x': 7, 'y': 2}], 'keep': 1}
    assert rendered(one_action('merge', '.data', child, parent), 'child') == {'a': [{'x': 7}], 'b': 4, 'keep': 1}
    assert rendered(one_action('replace', 'b', child, parent), 'child') == {'a': [{'x': 1, 'y': 2}], 'keep': 1, 'b': 4}
    assert rendered(one_action('delete', '$.data.keep', child, parent), 'child') == {'a': [{'x': 1, 'y': 2}]}


@pytest.mark.parametrize('text', ['.a[x]', '.a..b', '.a[-1]', '.a.', '.a[*]', 5])
def test_bad_paths(text):
    with pytest.raises(DocumentError):
        parse_path(text)


# --- replacement ------------------------------------------------------------------------
def replacement_documents():
    # Deckhand's test_replacement_with_layering_with_replacer.
    return [
        policy('global', 'site'),
        document('a', 'global', {'conf': {'foo': 'default'}}, labels={'selector': 'foo'}),
        document('a', 'site', {'conf': {'bar': 'override'}}, labels={'selector': 'baz'}, selector={'selector': 'foo'},
                 actions=[('merge', '.')], replacement=True),
        document('b', 'site', {'conf': {'baz': 'another'}}, labels={'selector': 'qux'},
                 selector={'selector': 'foo'}, actions=[('merge', '.')]),
    ]


def test_replacement_replaces_its_parent_for_everyone():
    result = layer_documents(replacement_documents()).documents
    assert [(doc['metadata']['name'], doc['metadata'].get('replacement'), doc['data']) for doc in result[1:]] == [
        ('a', True, {'conf': {'bar': 'override', 'foo': 'default'}}),
        ('b', None, {'conf': {'baz': 'another', 'foo': 'default', 'bar': 'override'}}),
    ]


@pytest.mark.parametrize('change, words', [
    (lambda docs: docs[2]['metadata'].update(name='other'),
     ['example/Kind/v1/other (layer site) has "replacement: true" but its parent example/Kind/v1/a (layer global) '
      'has another metadata.name']),
    (lambda docs: docs[2]['metadata']['layeringDefinition'].pop('parentSelector'),
     ['example/Kind/v1/a (layer site) has "replacement: true" but no parent']),
    (lambda docs: docs[2]['metadata'].pop('replacement'),
     ['example/Kind/v1/a (layer site) has the same schema and metadata.name as its parent example/Kind/v1/a '
      '(layer global)', 'replacement: true']),
    (lambda docs: docs.append(document('a', 'site', {}, selector={'selector': 'foo'}, replacement=True)),
     ['both replace example/Kind/v1/a (layer global)']),
])
def test_replacement_errors(change, words):
    documents = replacement_documents()
    change(documents)
    message = failure(documents)
    for word in words:
        assert word in message


def test_a_replacement_cannot_be_replaced():
    documents = [
        policy(),
        document('a', 'global', {'v': 1}, labels={'l': 'g'}),
        document('a', 'region', {'v': 2}, labels={'l': 'r'}, selector={'l': 'g'}, actions=[('merge', '.')],
                 replacement=True),
        document('a', 'site', {'v': 3}, selector={'l': 'r'}, actions=[('merge', '.')], replacement=True),
    ]
    assert 'which is itself a replacement; only one level of replacement is allowed' in failure(documents)


# --- documents that do not layer -----------------------------------------------------------
def test_documents_without_layering_come_back_as_they_are():
    plain = {'schema': 'other/Plain/v1', 'metadata': {'name': 'plain'}, 'data': {'x': [1]}}
    no_selector = document('g', 'global', {'a': 1})
    abstract = document('hidden', 'global', {'a': 1}, abstract=True)
    result = layer_documents([policy(), plain, None, no_selector, abstract]).documents
    assert result == [policy(), plain, no_selector]


def test_no_policy_is_needed_when_nothing_layers():
    plain = {'schema': 'other/Plain/v1', 'metadata': {'name': 'plain', 'layeringDefinition': {'abstract': False}}}
    assert layer_documents([plain]).documents == [plain]
    assert layer_documents([]).documents == []


def test_warning_for_several_policies():
    documents = sample()
    documents.append(policy(name='second'))
    assert layer_documents(documents).warnings == [
        '2 LayeringPolicy documents were given; using the first, deckhand/LayeringPolicy/v1/layering-policy',
    ]


# --- errors -----------------------------------------------------------------------------
def test_error_is_a_merge_error():
    assert issubclass(DocumentError, MergeError)


@pytest.mark.parametrize('data', [nested(100), nested(1000), looped()], ids=['deep', 'very deep', 'self-referencing'])
@pytest.mark.parametrize('documents', [
    lambda data: [policy(), document('own', 'global', {'d': data})],
    lambda data: one_action('delete', '.c', parent={'c': 1, 'd': data}),
    lambda data: one_action('replace', '.d', child={'d': data}),
    lambda data: one_action('merge', '.d', child={'d': [data]}),
    lambda data: one_action('merge', '.l[0]', child={'l': [[data]]}, parent={'l': [['x']]}),
], ids=['own data', 'parent data', 'replace', 'merge', 'merge at an index'])
def test_too_deep_or_self_referencing_data_is_an_error(documents, data):
    with pytest.raises(MergeDepthError, match='deeper than 64 levels, or refers to itself'):
        layer_documents(documents(data))


def test_no_layering_policy():
    message = failure(sample()[1:])
    assert 'no LayeringPolicy' in message and 'example/Kind/v1/global-1234 (layer global) uses layering' in message


def test_layer_not_in_layer_order():
    documents = sample()
    documents[3]['metadata']['layeringDefinition']['layer'] = 'zone'
    assert failure(documents) == ("example/Kind/v1/site-1234 (layer zone): layer 'zone' is not in the "
                                  "LayeringPolicy's layerOrder (global, region, site) (Deckhand: InvalidDocumentLayer)")


def test_unknown_action_method():
    message = failure(one_action('append', '.a'))
    assert message == ("example/Kind/v1/child (layer site): action 1: unknown method 'append'; "
                       "valid methods: merge, replace, delete (Deckhand: UnsupportedActionMethod)")


def test_ambiguous_parent():
    documents = [policy(), document('global-1234', 'global', {}, labels={'g': 1})]
    documents += [document(name, 'region', {}, labels={'key1': 'value1'}, selector={'g': 1}, actions=[('merge', '.')])
                  for name in ('region-1234', 'region-5678')]
    documents.append(document('site-1234', 'site', {}, selector={'key1': 'value1'}, actions=[('merge', '.')]))
    message = failure(documents)
    assert message.startswith("example/Kind/v1/site-1234 (layer site): its parentSelector {'key1': 'value1'} "
                              "matches 2 documents in layer 'region'")
    assert message.endswith('example/Kind/v1/region-1234 (layer region), example/Kind/v1/region-5678 (layer region); '
                            'a document has exactly one parent (Deckhand: IndeterminateDocumentParent)')


def test_ambiguity_only_counts_the_nearest_layer():
    # Deckhand's engine counts the matches of every layer and raises IndeterminateDocumentParent here.
    documents = [
        policy(),
        document('global-1', 'global', {'g': 1}, labels={'key1': 'value1'}),
        document('global-2', 'global', {'g': 2}, labels={'key1': 'value1'}),
        document('region', 'region', {'r': 1}, labels={'key1': 'value1'}),
        document('site', 'site', {'b': 4}, selector={'key1': 'value1'}, actions=[('merge', '.')]),
    ]
    assert rendered(documents, 'site') == {'r': 1, 'b': 4}


def test_a_document_selecting_itself():
    documents = [policy(), document('lonely', 'global', {}, labels={'k': 'v'}, selector={'k': 'v'},
                                    actions=[('merge', '.')])]
    assert failure(documents) == ("example/Kind/v1/lonely (layer global): its parentSelector {'k': 'v'} selects the "
                                  "document itself, and no document of schema example/Kind/v1 in a layer above "
                                  "'global' has these labels; a document cannot be its own parent")


def test_layering_cycles_are_errors():
    # Parents always sit in a higher layer, so documents cannot form a cycle through layering alone;
    # the ordering still refuses one.
    first = parse_document(0, document('first', 'global', {}, actions=[('merge', '.')]))
    second = parse_document(1, document('second', 'site', {}, actions=[('merge', '.')]))
    first.parent, second.parent = second, first
    cycle = r'example/Kind/v1/first .* -> example/Kind/v1/second \(layer site\) -> example/Kind/v1/first'
    with pytest.raises(SubstitutionDependencyCycle, match=cycle):
        Renderer([first, second], []).order()
    first.parent = first
    with pytest.raises(SubstitutionDependencyCycle):
        Renderer([first], []).order()


@pytest.mark.parametrize('documents, words', [
    ([policy(), 'text'], ['document 1 (counting from 0) is a str']),
    ([policy(), {'schema': SCHEMA, 'metadata': {}}], ['document 1 (counting from 0) needs a schema and a metadata.name']),
    ([policy(), document('d', 'global', {}, actions=[('merge', '.a[*]')])], ["cannot read the path '.a[*]'"]),
    ([policy(), document('d', 'global', {}, actions=[('merge', '.a[x]')])], ["cannot read the path '.a[x]'"]),
    ([policy(), dict(document('d', 'site', {}), metadata={'name': 'd', 'layeringDefinition': {'actions': 'x'}})],
     ['actions must be a list']),
    ([policy(), dict(document('d', 'site', {}), metadata={'name': 'd', 'layeringDefinition': {'actions': [{}]}})],
     ['action 1 must be a map with a method and a path']),
    ([policy(), dict(document('d', 'site', {}), metadata={'name': 'd', 'layeringDefinition': {'parentSelector': 'x'}})],
     ['parentSelector must be a map']),
    ([policy(), dict(document('d', 'site', {}), metadata={'name': 'd', 'layeringDefinition': {'parentSelector': {'k': 1}}})],
     ['example/Kind/v1/d: it has a parentSelector but no metadata.layeringDefinition.layer']),
    ([dict(policy(), data={'layerOrder': 'global'}), document('d', 'global', {})], ['data.layerOrder must be a list']),
    ([policy('global', 'site', 'global'), document('d', 'global', {})], ['names a layer twice']),
    ([policy(), document('d', 'global', {}), document('d', 'site', {})], ['have the same schema and metadata.name']),
])
def test_malformed_documents(documents, words):
    message = failure(documents)
    for word in words:
        assert word in message
