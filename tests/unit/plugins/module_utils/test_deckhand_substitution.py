# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Deckhand substitution: the examples of Deckhand's "Document Substitution" page with their results, scenarios of
Deckhand's own tests (layering and substitution together), errors named as Deckhand names them, and values that
must never be turned into text (vault values)."""

from __future__ import annotations

import copy

import pytest
import yaml

from ansible_collections.strata.hier.plugins.module_utils.dialects.deckhand.layering import layer_documents
from ansible_collections.strata.hier.plugins.module_utils.dialects.deckhand.documents import (
    InvalidDocumentFormat, MissingDocumentPattern, SubstitutionDependencyCycle, SubstitutionSourceDataNotFound,
    SubstitutionSourceNotFound, UnknownSubstitutionError,
)
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.test_deckhand import document, policy


def secret(schema, name, data, encrypted=False, layer='site'):
    return {'schema': schema, 'metadata': {'schema': 'metadata/Document/v1', 'name': name,
                                           'storagePolicy': 'encrypted' if encrypted else 'cleartext',
                                           'layeringDefinition': {'layer': layer}}, 'data': data}


def sub(schema, name, path, dest, **src):
    return {'src': dict(schema=schema, name=name, path=path, **src), 'dest': dest}


def by_name(documents):
    result = layer_documents(documents)
    return {doc['metadata']['name']: doc for doc in result.documents}


def data_of(documents, name):
    return by_name(documents)[name]['data']


def fails(documents, kind=Exception):
    with pytest.raises(kind) as error:
        layer_documents(documents)
    return str(error.value)


# --- the page's examples --------------------------------------------------------------------
PAGE_EXAMPLE = """
---
schema: deckhand/Certificate/v1
metadata:
  name: example-cert
  storagePolicy: cleartext
  layeringDefinition:
    layer: site
data: |
  CERTIFICATE DATA
---
schema: deckhand/CertificateKey/v1
metadata:
  name: example-key
  storagePolicy: encrypted
  layeringDefinition:
    layer: site
data: |
  KEY DATA
---
schema: deckhand/Passphrase/v1
metadata:
  name: example-password
  storagePolicy: encrypted
  layeringDefinition:
    layer: site
data: my-secret-password
---
schema: armada/Chart/v1
metadata:
  name: example-chart-01
  storagePolicy: cleartext
  layeringDefinition:
    layer: region
  substitutions:
    - dest:
        path: .chart.values.tls.certificate
      src:
        schema: deckhand/Certificate/v1
        name: example-cert
        path: .
    - dest:
        path: .chart.values.tls.key
      src:
        schema: deckhand/CertificateKey/v1
        name: example-key
        path: .
    - dest:
        path: .chart.values.some_url
        pattern: INSERT_[A-Z]+_HERE
      src:
        schema: deckhand/Passphrase/v1
        name: example-password
        path: .
data:
  chart:
    details:
      data: here
    values:
      some_url: http://admin:INSERT_PASSWORD_HERE@service-name:8080/v1
"""


def page_documents():
    return [policy('global', 'region', 'site')] + list(yaml.safe_load_all(PAGE_EXAMPLE))


def test_page_example():
    documents = page_documents()
    before = copy.deepcopy(documents)
    chart = by_name(documents)['example-chart-01']
    assert chart['data'] == {'chart': {'details': {'data': 'here'}, 'values': {
        'some_url': 'http://admin:my-secret-password@service-name:8080/v1',
        'tls': {'certificate': 'CERTIFICATE DATA\n', 'key': 'KEY DATA\n'}}}}
    # Deckhand marks a document that received data from an encrypted source as encrypted.
    assert chart['metadata'] == dict(before[4]['metadata'], storagePolicy='encrypted')
    assert documents == before


def test_page_pattern_example():
    documents = [
        secret('deckhand/Passphrase/v1', 'example-password', 'my-secret-password'),
        secret('deckhand/Passphrase/v1', 'another-password', 'another-secret-password'),
        document('example-chart-01', 'region', {'chart': {'details': {'data': 'here'}, 'values': {
            'some_url': 'http://admin:INSERT_PASSWORD_HERE@service-name:8080/v1',
            'script': 'some_function("INSERT_ANOTHER_PASSWORD")\nanother_function("INSERT_ANOTHER_PASSWORD")\n'}}},
            schema='armada/Chart/v1', substitutions=[
                sub('deckhand/Passphrase/v1', 'example-password', '.',
                    {'path': '.chart.values.some_url', 'pattern': 'INSERT_[A-Z]+_HERE'}),
                sub('deckhand/Passphrase/v1', 'another-password', '.',
                    {'path': '.chart.values.script', 'pattern': 'INSERT_ANOTHER_PASSWORD'})]),
    ]
    assert data_of([policy()] + documents, 'example-chart-01')['chart']['values'] == {
        'some_url': 'http://admin:my-secret-password@service-name:8080/v1',
        'script': 'some_function("another-secret-password")\nanother_function("another-secret-password")\n'}


def recursive_chart(depth, pattern='INSERT_[A-Z]+_HERE'):
    return [policy(), secret('deckhand/Passphrase/v1', 'example-password', 'my-secret-password'),
            document('example-chart-01', 'region', {'chart': {'details': {'data': 'here'}, 'values': {
                'admin_url': 'http://admin:INSERT_PASSWORD_HERE@service-name:35357/v1',
                'internal_url': 'http://internal:INSERT_PASSWORD_HERE@service-name:5000/v1',
                'nested': {'public_url': 'http://public:INSERT_PASSWORD_HERE@service-name:5000/v1',
                           'list': ['INSERT_PASSWORD_HERE', 3, None], 'other': 'no placeholder'}}}},
                     schema='armada/Chart/v1', substitutions=[
                         sub('deckhand/Passphrase/v1', 'example-password', '.',
                             {'path': '.chart.values', 'pattern': pattern, 'recurse': {'depth': depth}})])]


def test_page_recursive_example():
    # The page's example uses a regular expression; Deckhand's engine tests recursion with `pattern in text`
    # (a literal), which would replace nothing here. The page's output also misspells the password.
    values = data_of(recursive_chart(-1), 'example-chart-01')['chart']['values']
    assert values == {'admin_url': 'http://admin:my-secret-password@service-name:35357/v1',
                      'internal_url': 'http://internal:my-secret-password@service-name:5000/v1',
                      'nested': {'public_url': 'http://public:my-secret-password@service-name:5000/v1',
                                 'list': ['my-secret-password', 3, None], 'other': 'no placeholder'}}


def test_recursion_depth_counts_levels_below_the_path():
    values = data_of(recursive_chart(1), 'example-chart-01')['chart']['values']
    assert values['admin_url'] == 'http://admin:my-secret-password@service-name:35357/v1'
    assert values['nested']['public_url'] == 'http://public:INSERT_PASSWORD_HERE@service-name:5000/v1'
    values = data_of(recursive_chart(2), 'example-chart-01')['chart']['values']
    assert values['nested']['public_url'] == 'http://public:my-secret-password@service-name:5000/v1'
    assert values['nested']['list'] == ['INSERT_PASSWORD_HERE', 3, None]
    assert data_of(recursive_chart(3), 'example-chart-01')['chart']['values']['nested']['list'][0] == \
        'my-secret-password'
    assert data_of(recursive_chart(0), 'example-chart-01') == recursive_chart(0)[2]['data']


def test_page_source_pattern_example(mocker):
    versions = secret('pegleg/SoftwareVersions/v1', 'software-versions',
                      {'images': {'hello': 'docker.io/library/hello-world:latest'}}, layer='global')
    chart = document('example-chart-01', 'global', {'values': {'images': {'hello': {'repo': None, 'tag': None}}}},
                     schema='armada/Chart/v1', substitutions=[
                         sub('pegleg/SoftwareVersions/v1', 'software-versions', '.images.hello',
                             {'path': '.values.images.hello.repo'}, pattern='^(.*):(.*)', match_group=1),
                         sub('pegleg/SoftwareVersions/v1', 'software-versions', '.images.hello',
                             {'path': '.values.images.hello.tag'}, pattern='^(.*):(.*)', match_group=2),
                         sub('pegleg/SoftwareVersions/v1', 'software-versions', '.images.hello',
                             {'path': '.values.digest'}, pattern='sha256:.*')])
    result = layer_documents([policy(), versions, chart])
    assert result.documents[2]['data'] == {'values': {'images': {'hello': {
        'repo': 'docker.io/library/hello-world', 'tag': 'latest'}}, 'digest': 'docker.io/library/hello-world:latest'}}
    # "If the regex does not match, a warning is logged, and the entire source string is used."
    assert result.warnings == ["armada/Chart/v1/example-chart-01 (layer global): substitution 3: src.pattern "
                               "'sha256:.*' does not match the value at src.path '.images.hello' of "
                               "pegleg/SoftwareVersions/v1/software-versions (layer global); the whole value is used, "
                               "as in Deckhand"]


# --- destinations ---------------------------------------------------------------------------
def one_sub(dest, data, source_data='s3cret', **src):
    return [policy(), secret('deckhand/Passphrase/v1', 'pw', source_data),
            document('dest', 'site', data, substitutions=[sub('deckhand/Passphrase/v1', 'pw', '.', dest, **src)])]


@pytest.mark.parametrize('path, data, expected', [
    ('.a', {}, {'a': 's3cret'}),
    ('.a.b.c', {'x': 1}, {'x': 1, 'a': {'b': {'c': 's3cret'}}}),
    ('.l[2]', {}, {'l': [{}, {}, 's3cret']}),                  # Deckhand pads lists with empty maps
    ('.l[1].k', {'l': [1]}, {'l': [1, {'k': 's3cret'}]}),
    ('.', {'old': 1}, 's3cret'),
    ('a.b', {}, {'a': {'b': 's3cret'}}),                        # Deckhand adds the leading dot
    ('.data.x', {}, {'data': {'x': 's3cret'}}),                # substitution paths are keys of the data section
    ('$.a', {'a': 'old'}, {'a': 's3cret'}),
])
def test_destination_paths(path, data, expected):
    assert data_of(one_sub({'path': path}, data), 'dest') == expected


def test_a_list_of_destinations_and_numbers_into_text():
    dest = [{'path': '.port'}, {'path': '.url', 'pattern': 'PORT'}, {'path': '.flag', 'pattern': 'FLAG'}]
    documents = one_sub(dest, {'url': 'http://h:PORT/', 'flag': 'on=FLAG'}, source_data=8080)
    documents += [secret('example/Flag/v1', 'flag', True)]
    flag = sub('example/Flag/v1', 'flag', '.', {'path': '.flag', 'pattern': 'FLAG'})
    documents[2]['metadata']['substitutions'].append(flag)
    documents[2]['metadata']['substitutions'][0]['dest'] = dest[:2]
    assert data_of(documents, 'dest') == {'url': 'http://h:8080/', 'flag': 'on=True', 'port': 8080}   # Python's str


def test_pattern_replacement_is_literal():
    # Deckhand's engine passes the secret to re.sub as a template, so \\1 or \\g<0> in a password would be read
    # as group references; the text is put in as it is.
    assert data_of(one_sub({'path': '.u', 'pattern': 'PW'}, {'u': 'a:PW@b'}, source_data=r'x\1\g<0>y'), 'dest') == \
        {'u': r'a:x\1\g<0>y@b'}


def test_pattern_not_found_leaves_the_text_with_a_warning():
    result = layer_documents(one_sub({'path': '.u', 'pattern': 'MISSING'}, {'u': 'a:PW@b'}))
    assert result.documents[2]['data'] == {'u': 'a:PW@b'}
    assert result.warnings == ["example/Kind/v1/dest (layer site): substitution 1: dest.path '.u': dest.pattern "
                               "'MISSING' is not in the text there; nothing is replaced, as in Deckhand"]


@pytest.mark.parametrize('dest, data, words', [
    ({'path': '.u', 'pattern': 'PW'}, {}, "dest.pattern 'PW' replaces text, but the destination has nothing there "
                                          "(Deckhand: MissingDocumentPattern)"),
    ({'path': '.u', 'pattern': 'PW'}, {'u': 5}, 'but the destination has a int there'),
    ({'path': '.u', 'pattern': 'PW', 'recurse': {'depth': -1}}, {}, 'has nothing there'),
])
def test_pattern_destination_errors(dest, data, words):
    assert words in fails(one_sub(dest, data), MissingDocumentPattern)


@pytest.mark.parametrize('path, data', [('.a.b', {'a': 'text'}), ('.l[0]', {'l': 'text'}), ('.a', 'text data')])
def test_a_value_in_the_way_of_dest_path(path, data):
    message = fails(one_sub({'path': path}, data), UnknownSubstitutionError)
    assert message.startswith("example/Kind/v1/dest (layer site): substitution 1: dest.path %r: the data holds a str "
                              "where the path needs a " % path)


def test_map_into_text_is_an_error():
    documents = one_sub({'path': '.u', 'pattern': 'PW'}, {'u': 'PW'}, source_data={'user': 'x'})
    assert 'dest.pattern needs the source as text, but it is a dict' in fails(documents, UnknownSubstitutionError)


# --- sources ----------------------------------------------------------------------------------
def test_source_is_rendered_and_never_shared():
    # Deckhand's test_substitution_does_not_alter_source_document, in short: later substitutions write into the
    # substituted value; the source keeps its data.
    endpoints = secret('pegleg/EndpointCatalogue/v1', 'endpoints', {'ucp': {'mq': {'hosts': {'default': 'mq'}}}})
    accounts = secret('pegleg/AccountCatalogue/v1', 'accounts', {'ucp': {'mq': {'admin': {'username': 'rabbit'}}}})
    password = secret('deckhand/Passphrase/v1', 'mq-password', 'password15')
    chart = document('chart', 'global', {}, schema='armada/Chart/v1', substitutions=[
        sub('pegleg/EndpointCatalogue/v1', 'endpoints', '.ucp.mq', {'path': '.values.mq'}),
        sub('pegleg/AccountCatalogue/v1', 'accounts', '.ucp.mq.admin', {'path': '.values.mq.auth.user'}),
        sub('deckhand/Passphrase/v1', 'mq-password', '.', {'path': '.values.mq.auth.user.password'}),
    ])
    other = document('other', 'global', {}, schema='armada/Chart/v1', substitutions=[
        sub('pegleg/EndpointCatalogue/v1', 'endpoints', '.ucp.mq', {'path': '.mq'})])
    documents = [policy(), endpoints, accounts, password, chart, other]
    before = copy.deepcopy(documents)
    result = by_name(documents)
    assert result['chart']['data'] == {'values': {'mq': {'hosts': {'default': 'mq'}, 'auth': {
        'user': {'username': 'rabbit', 'password': 'password15'}}}}}
    assert result['other']['data'] == {'mq': {'hosts': {'default': 'mq'}}}
    assert result['endpoints']['data'] == before[1]['data'] and documents == before
    result['chart']['data']['values']['mq']['hosts']['default'] = 'changed'
    assert documents == before


def test_children_inherit_their_abstract_parents_substitutions():
    # Deckhand's test_layering_and_substitution_site_abstract_and_global_concrete.
    documents = [policy(), secret('deckhand/Certificate/v1', 'global-cert', 'global-secret'),
                 document('global', 'global', {'global': 'random'}, labels={'l': 'g'}, abstract=True,
                          substitutions=[sub('deckhand/Certificate/v1', 'global-cert', '.', {'path': '.cert'})]),
                 document('site', 'site', {'site': 'stuff'}, selector={'l': 'g'}, actions=[('merge', '.')])]
    assert data_of(documents, 'site') == {'global': 'random', 'cert': 'global-secret', 'site': 'stuff'}


def test_substitution_after_layering_and_dependency_chain_in_any_order():
    # Deckhand's test_layering_with_substitution_dependency_chain: site-3 <- site-2 <- site-1 <- site-cert.
    def site(number, source, path):
        return document('site-%d' % number, 'site', {'k%d' % number: 'placeholder'}, selector={'l': 'g'},
                        actions=[('merge', '.')], substitutions=[sub(*source, path, {'path': '.k%d' % number})])
    documents = [policy(),
                 document('global', 'global', {'a': {'x': 1, 'y': 2}}, labels={'l': 'g'}, substitutions=[
                     sub('deckhand/Certificate/v1', 'global-cert', '.', {'path': '.b'})]),
                 site(3, ('example/Kind/v1', 'site-2'), '.k2'), site(2, ('example/Kind/v1', 'site-1'), '.k1'),
                 site(1, ('deckhand/CertificateKey/v1', 'site-cert'), '.'),
                 secret('deckhand/Certificate/v1', 'global-cert', 'global-secret'),
                 secret('deckhand/CertificateKey/v1', 'site-cert', 'site-secret')]
    expected = {'global': {'a': {'x': 1, 'y': 2}, 'b': 'global-secret'}}
    for number in (1, 2, 3):
        expected['site-%d' % number] = {'a': {'x': 1, 'y': 2}, 'b': 'global-secret', 'k%d' % number: 'site-secret'}
    for order in (documents, documents[::-1], documents[3:] + documents[:3]):
        assert {name: doc['data'] for name, doc in by_name(order).items() if name in expected} == expected


def test_a_replaced_documents_replacement_is_the_source():
    documents = [policy('global', 'site'),
                 document('conf', 'global', {'value': 'global'}, labels={'l': 'g'}),
                 document('conf', 'site', {'value': 'site'}, selector={'l': 'g'}, actions=[('merge', '.')],
                          replacement=True),
                 document('user', 'site', {}, schema='example/User/v1', substitutions=[
                     sub('example/Kind/v1', 'conf', '.value', {'path': '.got'})])]
    assert data_of(documents, 'user') == {'got': 'site'}


def test_chains_longer_than_the_recursion_limit():
    documents = [policy(), secret('deckhand/Passphrase/v1', 'doc-0', 'end')]
    documents += [document('doc-%d' % number, 'site', {}, substitutions=[
        sub('deckhand/Passphrase/v1' if number == 1 else 'example/Kind/v1', 'doc-%d' % (number - 1),
            '.' if number == 1 else '.v', {'path': '.v'})]) for number in range(1, 3000)]
    assert data_of(documents[::-1], 'doc-2999') == {'v': 'end'}


# --- errors -----------------------------------------------------------------------------------
def test_missing_and_abstract_sources():
    documents = one_sub({'path': '.a'}, {})
    documents[2]['metadata']['substitutions'][0]['src']['name'] = 'nowhere'
    assert fails(documents, SubstitutionSourceNotFound) == (
        "example/Kind/v1/dest (layer site): substitution 1: the source document deckhand/Passphrase/v1/nowhere is "
        "not among the documents (Deckhand: SubstitutionSourceNotFound)")
    documents = one_sub({'path': '.a'}, {})
    documents[1]['metadata']['layeringDefinition']['abstract'] = True
    assert 'deckhand/Passphrase/v1/pw is abstract; only concrete documents are substitution sources' in \
        fails(documents, SubstitutionSourceNotFound)


@pytest.mark.parametrize('path, source_data', [('.missing', {'a': 1}), ('.a', {'a': None}), ('.x', 'text')])
def test_source_path_not_found(path, source_data):
    documents = one_sub({'path': '.a'}, {}, source_data=source_data)
    documents[2]['metadata']['substitutions'][0]['src']['path'] = path
    assert fails(documents, SubstitutionSourceDataNotFound) == (
        "example/Kind/v1/dest (layer site): substitution 1: the source document deckhand/Passphrase/v1/pw (layer site) "
        "has nothing at src.path %r (Deckhand: SubstitutionSourceDataNotFound)" % path)


def test_cycles_name_the_documents():
    # Deckhand's test_layering_with_substitution_cycle_fails: site-1 -> site-3 -> site-2 -> site-1.
    def site(number, source):
        return document('site-%d' % number, 'site', {}, substitutions=[
            sub('example/Kind/v1', 'site-%d' % source, '.', {'path': '.k'})])
    message = fails([policy(), site(1, 3), site(2, 1), site(3, 2)], SubstitutionDependencyCycle)
    assert message == ('documents depend on each other through their parents and substitution sources: '
                       'example/Kind/v1/site-1 (layer site) -> example/Kind/v1/site-3 (layer site) -> '
                       'example/Kind/v1/site-2 (layer site) -> example/Kind/v1/site-1 (layer site) (each needs the '
                       'next rendered first) (Deckhand: SubstitutionDependencyCycle)')
    assert 'example/Kind/v1/site-1 (layer site) -> example/Kind/v1/site-1 (layer site)' in \
        fails([policy(), site(1, 1)], SubstitutionDependencyCycle)


def test_a_parent_substituting_from_its_child_is_a_cycle():
    documents = [policy(), document('g', 'global', {}, labels={'l': 'g'}, substitutions=[
        sub('example/Kind/v1', 's', '.', {'path': '.k'})]),
        document('s', 'site', {}, selector={'l': 'g'}, actions=[('merge', '.')])]
    assert 'example/Kind/v1/g (layer global) -> example/Kind/v1/s (layer site) -> example/Kind/v1/g' in \
        fails(documents, SubstitutionDependencyCycle)


@pytest.mark.parametrize('substitutions, words', [
    ('text', 'metadata.substitutions must be a list, not str'),
    ([{'src': {}}], 'substitution 1 must be a map with src and dest'),
    ([sub('a/B/v1', 'n', '.', {'path': '.x'}, patern='x')], 'substitution 1: src: unknown key(s) patern'),
    ([sub('a/B/v1', 'n', 5, {'path': '.x'})], 'substitution 1: src.path must be a string, not 5'),
    ([sub('a/B/v1', 'n', '.', {'path': '.x', 'pattern': 'x', 'recurse': True})],
     'substitution 1: dest: recurse must be a map with depth'),
    ([sub('a/B/v1', 'n', '.', {'path': '.x', 'pattern': 'x', 'recurse': {'depth': -2}})], 'recurse must be a map'),
    ([sub('a/B/v1', 'n', '.', {'path': '.x', 'recurse': {'depth': 1}})], 'recurse needs a pattern'),
    ([sub('a/B/v1', 'n', '.', {'path': '.x', 'pattern': '('})], "dest: pattern: '(' is not a regular expression"),
    ([sub('a/B/v1', 'n', '.', [])], 'dest is an empty list'),
    ([sub('a/B/v1', 'n', '.', {'path': '.x', 'pattern': '(a+)+$'})],
     "dest: pattern: the regular expression '(a+)+$' is refused: a repeated part"),
    ([sub('a/B/v1', 'n', '.', {'path': '.x'}, pattern=r'^(\w+\s?)*$')], 'src.pattern: the regular expression'),
    # Issue 25, finding 7: the old guard (a blacklist of nested repeats as text) let these through.
    ([sub('a/B/v1', 'n', '.', {'path': '.x', 'pattern': '((a+))+$'})], "'((a+))+$' is refused: a repeated part"),
    ([sub('a/B/v1', 'n', '.', {'path': '.x', 'pattern': '(a|a)+$'})],
     "'(a|a)+$' is refused: two alternatives can both match the empty text"),
    ([sub('a/B/v1', 'n', '.a[*]', {'path': '.x'})], "src.path: cannot read the path '.a[*]'"),
    ([sub('a/B/v1', 'n', '.', {'path': '.x'}, match_group=-1)], 'src.match_group must be a number'),
])
def test_malformed_substitutions(substitutions, words):
    documents = [policy(), document('d', 'site', {}, substitutions=substitutions)]
    message = fails(documents, InvalidDocumentFormat)
    assert message.startswith('example/Kind/v1/d (layer site)') and words in message


def test_a_missing_match_group():
    documents = one_sub({'path': '.a'}, {}, pattern='s(3)', match_group=2)
    assert "src.pattern 's(3)' has no group 2" in fails(documents, InvalidDocumentFormat)


# --- values that are not text -------------------------------------------------------------------
class NoText:
    """Stands in for a vault value: decrypting means turning it into text, which must never happen."""

    def __str__(self):
        raise AssertionError('a vault value was turned into text')

    __repr__ = __format__ = __bytes__ = __str__


def vaulted(dest, data, **src):
    value = NoText()
    documents = [policy(), secret('deckhand/Passphrase/v1', 'pw', value, encrypted=True),
                 document('dest', 'site', data, substitutions=[sub('deckhand/Passphrase/v1', 'pw', '.', dest, **src)])]
    return value, documents


def test_vault_values_are_moved_never_read():
    value, documents = vaulted([{'path': '.password'}, {'path': '.nested.l[1]'}], {'url': 'x'})
    result = by_name(documents)
    assert result['dest']['data']['password'] is value and result['dest']['data']['nested']['l'][1] is value
    assert result['pw']['data'] is value
    assert result['dest']['metadata']['storagePolicy'] == 'encrypted'


def test_recursion_that_matches_nothing_leaves_vault_values_alone():
    value, documents = vaulted({'path': '.', 'pattern': 'PW', 'recurse': {'depth': -1}}, {'url': 'x'})
    assert data_of(documents, 'dest') == {'url': 'x'}


@pytest.mark.parametrize('dest, src', [
    ({'path': '.url', 'pattern': 'PW'}, {}),
    ({'path': '.', 'pattern': 'PW', 'recurse': {'depth': -1}}, {}),
    ({'path': '.url'}, {'pattern': 'x'}),
])
def test_vault_values_into_text_are_errors(dest, src):
    _value, documents = vaulted(dest, {'url': 'http://a:PW@b'}, **src)
    message = fails(documents, UnknownSubstitutionError)
    assert 'NoText' in message and 'never' in message and 'without a pattern' in message


def test_secrets_mark_their_destinations_encrypted_downstream():
    documents = [policy(), secret('deckhand/Passphrase/v1', 'pw', 'x', encrypted=True),
                 document('first', 'site', {}, substitutions=[sub('deckhand/Passphrase/v1', 'pw', '.', {'path': '.p'})]),
                 document('second', 'site', {}, substitutions=[sub('example/Kind/v1', 'first', '.', {'path': '.f'})]),
                 document('clear', 'site', {'c': 1})]
    result = by_name(documents)
    assert [result[name]['metadata'].get('storagePolicy') for name in ('first', 'second', 'clear')] == \
        ['encrypted', 'encrypted', None]
    assert result['second']['data'] == {'f': {'p': 'x'}}
