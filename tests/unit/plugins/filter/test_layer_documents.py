# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

import copy

import pytest

from ansible.errors import AnsibleFilterError
from ansible.parsing.dataloader import DataLoader
from ansible.parsing.vault import VaultLib, VaultSecret

from ansible_collections.strata.hier.plugins.filter.layer_documents import FilterModule, layer_documents
from ansible_collections.strata.hier.plugins.plugin_utils.compat import DATA_TAGGING, is_vault_value, vault_ciphertext

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


# --- substitution with a real vault value -----------------------------------------------------
VAULT_SECRET = [('default', VaultSecret(b'unit-test'))]


def decrypted(value):
    """What 2.19+ templating hands a filter for a vault value: its text, still tagged with its ciphertext."""
    from ansible.parsing.vault import VaultSecretsContext   # pylint: disable=import-outside-toplevel  # 2.19+ only
    VaultSecretsContext.initialize(VaultSecretsContext(VAULT_SECRET))
    try:
        return str(value)
    finally:
        VaultSecretsContext._current = None    # pylint: disable=protected-access


@pytest.fixture
def vaulted_documents(tmp_path):
    """A Passphrase whose data is an inline vault value and a chart that substitutes it, loaded as Ansible loads
    files (2.19+: EncryptedString; 2.16: AnsibleVaultEncryptedUnicode)."""
    ciphertext = VaultLib(VAULT_SECRET).encrypt('s3cret').decode()
    text = ('- schema: deckhand/Passphrase/v1\n'
            '  metadata: {schema: metadata/Document/v1, name: pw, storagePolicy: encrypted}\n'
            '  data: !vault |\n' + ''.join('    %s\n' % line for line in ciphertext.splitlines()) +
            '- schema: armada/Chart/v1\n'
            '  metadata:\n'
            '    schema: metadata/Document/v1\n'
            '    name: chart\n'
            '    substitutions:\n'
            '      - src: {schema: deckhand/Passphrase/v1, name: pw, path: .}\n'
            '        dest: {path: .values.password}\n'
            '  data: {values: {url: "http://admin:PW@db"}}\n')
    path = tmp_path / 'documents.yml'
    path.write_text(text)
    loader = DataLoader()
    loader.set_vault_secrets(VAULT_SECRET)
    return loader.load_from_file(str(path))


def test_a_vault_value_stays_encrypted(vaulted_documents):
    password = vaulted_documents[0]['data']
    assert is_vault_value(password)
    chart = layer_documents(vaulted_documents)[1]
    assert chart['data']['values']['password'] is password
    assert chart['metadata']['storagePolicy'] == 'encrypted'
    assert vault_ciphertext(chart['data']['values']['password']) == vault_ciphertext(password)


@pytest.mark.parametrize('tagged_text', [False, True] if DATA_TAGGING else [False])
def test_a_vault_value_into_text_is_an_error(vaulted_documents, tagged_text):
    if tagged_text:     # 2.19+ templating hands filters the decrypted text, still tagged with its ciphertext
        vaulted_documents[0]['data'] = decrypted(vaulted_documents[0]['data'])
        assert vaulted_documents[0]['data'] == 's3cret'
    vaulted_documents[1]['metadata']['substitutions'][0]['dest'] = {'path': '.values.url', 'pattern': 'PW'}
    with pytest.raises(AnsibleFilterError) as error:
        layer_documents(vaulted_documents)
    assert str(error.value) == (
        "layer_documents: armada/Chart/v1/chart: substitution 1: dest.path '.values.url': dest.pattern needs the "
        "source as text, but it is an encrypted value (an Ansible vault value), never decrypted by substitution: "
        "substitute it whole, without a pattern (Deckhand: UnknownSubstitutionError)")


def test_a_decrypted_vault_value_substituted_whole_keeps_its_tag(vaulted_documents):
    if DATA_TAGGING:
        vaulted_documents[0]['data'] = decrypted(vaulted_documents[0]['data'])
    chart = layer_documents(vaulted_documents)[1]
    assert vault_ciphertext(chart['data']['values']['password']) == vault_ciphertext(vaulted_documents[0]['data'])
