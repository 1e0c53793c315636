# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""eyaml values (issue 31): the eyaml gem's own values decrypt to what the gem and Puppet read, errors name the
value's file and line, each ciphertext is decrypted once, and merges compare eyaml values by ciphertext.

The fixtures (tests/unit/plugins/fixtures/eyaml/) were made by the real ``eyaml`` gem with
tests/oracle/eyaml/make_fixtures.py; plaintexts.json holds what the gem decrypts and what Puppet answers."""

from __future__ import annotations

import copy
import json
import os
import re

import pytest
import yaml

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives.serialization import pkcs7

from ansible_collections.strata.hier.plugins.module_utils.core.merging import merge_layers
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.merges import merger_for
from ansible_collections.strata.hier.plugins.module_utils.core.rules import MergeRules
from ansible_collections.strata.hier.plugins.plugin_utils import eyaml
from ansible_collections.strata.hier.plugins.plugin_utils.eyaml import EyamlError, EyamlKeys, EyamlValue

FIXTURES = os.path.join(os.path.dirname(__file__), '..', 'fixtures', 'eyaml')
with open(os.path.join(FIXTURES, 'plaintexts.json'), encoding='utf-8') as _stream:
    RECORD = json.load(_stream)
READ = [entry for entry in RECORD['values'] if entry['decrypted']]
KEY_FOLDERS = {'values.yaml': 'keys', 'literal.yaml': 'keys', 'wrong_key.yaml': 'other_keys'}


@pytest.fixture(autouse=True)
def fresh(monkeypatch):
    """No plaintext memoised by another test; no key given by the environment of the test run."""
    monkeypatch.setattr(eyaml, '_PLAINTEXT', {})
    monkeypatch.delenv(eyaml.ENV_PRIVATE_KEY, raising=False)
    monkeypatch.delenv(eyaml.ENV_PUBLIC_KEY, raising=False)


def keys_of(folder='keys', root=FIXTURES, **names):
    names.setdefault('private_key', folder + '/private_key.pkcs7.pem')
    names.setdefault('public_key', folder + '/public_key.pkcs7.pem')
    return EyamlKeys(root, where="level 'secrets'", **names)


def load(name, folder=None, root=FIXTURES):
    path = os.path.join(root, name)
    with open(path, encoding='utf-8') as stream:
        data = yaml.safe_load(stream)
    keys = keys_of(folder or KEY_FOLDERS.get(name, 'keys'), root=FIXTURES)
    return eyaml.read_values(data, path, keys, 'secrets'), path


def dig(data, path):
    for key in path:
        data = data[key]
    return data


def pem(folder, name):
    with open(os.path.join(FIXTURES, folder, name), encoding='utf-8') as stream:
        return stream.read()


def value_line(path, keys):
    """The line where the value at ``keys`` starts its base64 text, from YAML's own positions."""
    with open(path, encoding='utf-8') as stream:
        node = yaml.compose(stream)
    for key in keys:
        if isinstance(key, int):
            node = node.value[key]
        else:
            node = next(item for name, item in node.value if name.value == key)
    return node.start_mark.line + 1 + (1 if node.style in ('>', '|') else 0)


# --- the gem's values --------------------------------------------------------------------------------------------
@pytest.mark.parametrize('entry', READ, ids=lambda entry: '%s:%s' % (entry['file'], '/'.join(map(str, entry['path']))))
def test_gem_values_decrypt_as_the_gem_and_puppet_read_them(entry):
    data, path = load(entry['file'])
    value = dig(data, entry['path'])
    assert isinstance(value, EyamlValue)
    assert value.keys.decrypt(value) == entry['plain']
    assert value.decrypted() == entry['puppet']
    first = ['same_string'] if entry['path'] == ['same_folded'] else entry['path']     # one ciphertext: its first line
    assert value.position() == '%s:%d' % (path, value_line(path, first))


def test_the_fixtures_cover_what_the_issue_asks():
    plain = {entry['plain'] for entry in READ}
    assert {'pässwörd ✓', ''} <= plain
    assert any('\n' in text for text in plain) and any(len(text.encode()) > 1024 for text in plain)
    with open(os.path.join(FIXTURES, 'values.yaml'), encoding='utf-8') as stream:
        text = stream.read()
    assert re.search(r': >\n', text) and re.search(r': \|\n', text) and re.search(r': ENC\[PKCS7,', text)
    # a plain text ending in a line break: Puppet chomps the string form, the folded form's own break is chomped
    answers = {tuple(entry['path']): entry['puppet'] for entry in READ}
    assert answers[('multiline_newline_string',)] + '\n' == answers[('multiline_newline_folded',)]


def test_plain_values_of_an_eyaml_level_need_no_key():
    data, path = load('values.yaml', folder='absent')
    assert data['plain'] == 'not encrypted' and data['in_map']['user'] == 'admin'
    assert eyaml.decrypted(data['in_map']['user']) == 'admin'


def test_decrypted_answers_a_whole_value_and_leaves_plain_ones():
    data, path = load('values.yaml')
    answer = eyaml.decrypted(data['in_map'])
    assert answer == {'user': 'admin', 'password': 'map password', 'nested': {'deeper': 'nested pässwörd'}}
    assert isinstance(data['in_map']['password'], EyamlValue)      # the data itself stays encrypted


# --- keys ----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize('name', ['other_string', 'other_folded'])
def test_a_value_for_another_key_pair_is_an_error_naming_its_file_and_line(name):
    data, path = load('wrong_key.yaml', folder='keys')
    with pytest.raises(EyamlError) as caught:
        eyaml.decrypted(data)
    message = str(caught.value)
    assert message.startswith('%s:%d: ' % (path, value_line(path, ['other_string'])))
    assert 'another key pair' in message and 'for the other key pair' not in message
    assert dig(load('wrong_key.yaml')[0], [name]).decrypted() == 'for the other key pair'


def test_a_missing_key_file_is_an_error_naming_the_value_and_the_key(tmp_path):
    data, path = load('values.yaml', folder='keys')
    keys = keys_of(root=str(tmp_path), private_key='secret/private.pem')
    value = EyamlValue(data['utf8_folded'].ciphertext, keys, path)
    with pytest.raises(EyamlError) as caught:
        value.decrypted()
    message = str(caught.value)
    assert message.startswith('%s:%d: ' % (path, value_line(path, ['utf8_folded'])))
    assert str(tmp_path / 'secret' / 'private.pem') in message and eyaml.ENV_PRIVATE_KEY in message


def test_keys_given_as_text_in_the_environment_win_over_the_files(monkeypatch):
    monkeypatch.setenv(eyaml.ENV_PRIVATE_KEY, pem('other_keys', 'private_key.pkcs7.pem'))
    monkeypatch.setenv(eyaml.ENV_PUBLIC_KEY, pem('other_keys', 'public_key.pkcs7.pem'))
    data, path = load('wrong_key.yaml', folder='keys')         # the files are the wrong pair: the text wins
    assert eyaml.decrypted(data)['other_string'] == 'for the other key pair'
    data, path = load('wrong_key.yaml', folder='absent')       # no key file at all
    assert eyaml.decrypted(data)['other_folded'] == 'for the other key pair'


def test_a_private_key_that_is_not_pem_is_an_error(tmp_path, monkeypatch):
    (tmp_path / 'private.pem').write_text('not a key\n')
    data, path = load('values.yaml')
    keys = keys_of(root=str(tmp_path), private_key='private.pem',
                   public_key=os.path.join(FIXTURES, 'keys', 'public_key.pkcs7.pem'))
    with pytest.raises(EyamlError) as caught:
        EyamlValue(data['ascii_string'].ciphertext, keys, path).decrypted()
    message = str(caught.value)
    assert message.startswith('%s:%d: ' % (path, value_line(path, ['ascii_string'])))
    assert str(tmp_path / 'private.pem') in message and 'not an unencrypted PEM private key' in message
    monkeypatch.setenv(eyaml.ENV_PUBLIC_KEY, 'not a certificate')
    with pytest.raises(EyamlError, match='%s is not a PEM certificate' % eyaml.ENV_PUBLIC_KEY):
        data['ascii_string'].decrypted()


# --- once per ciphertext -----------------------------------------------------------------------------------------
def test_each_ciphertext_is_decrypted_at_most_once_for_a_thousand_values():
    data, path = load('values.yaml')
    distinct = [dig(data, entry['path']) for entry in READ if entry['file'] == 'values.yaml']
    many = {'key%04d' % number: distinct[number % len(distinct)] for number in range(1000)}
    before = eyaml.COUNTS['decrypted']
    first = eyaml.decrypted(many)
    assert eyaml.COUNTS['decrypted'] - before == len(set(distinct)) == len(distinct) - 1   # same_* share one
    again = eyaml.decrypted(many)
    assert eyaml.COUNTS['decrypted'] - before == len(set(distinct))
    assert first == again and first['key0001'] == distinct[1].decrypted()


# --- the guard -----------------------------------------------------------------------------------------------------
def write(tmp_path, text):
    path = tmp_path / 'common.yaml'
    path.write_text(text, encoding='utf-8')
    return str(path), yaml.safe_load(text)


def ascii_ciphertext():
    return load('values.yaml')[0]['ascii_string'].ciphertext


@pytest.mark.parametrize('value, words', [
    ('ENC[GPG,hQEMAw==]', 'is encrypted with the eyaml encryptor GPG; only PKCS7 is supported'),
    ('ENC[KMS,AQICAHg=]', 'is encrypted with the eyaml encryptor KMS; only PKCS7 is supported'),
    ('password is ENC[PKCS7,MIIB]', 'holds eyaml ciphertext within other text'),
    ('|\n    ENC[PKCS7,MIIB\n    AAAA]', 'broken over lines (a literal block, |): Puppet does not decrypt it'),
])
def test_ciphertext_an_eyaml_level_cannot_read_is_an_error_naming_file_line_and_key(tmp_path, value, words):
    path, data = write(tmp_path, 'plain: 1\nouter:\n  inner: %s\n' % value)
    with pytest.raises(EyamlError) as caught:
        eyaml.read_values(data, path, keys_of(), 'secrets')
    assert str(caught.value).startswith("%s:3: the value of 'outer/inner' " % path) and words in str(caught.value)


def test_the_gems_literal_blocks_are_refused_as_puppet_answers_their_ciphertext():
    literal = [entry for entry in RECORD['values'] if entry['file'] == 'literal.yaml']
    assert len(literal) == 3
    for entry in literal:       # what Puppet answers: the ciphertext, line breaks and all
        assert entry['puppet'].startswith('ENC[PKCS7,') and '\n' in entry['puppet'] and not entry['decrypted']
    key_line = value_line(os.path.join(FIXTURES, 'literal.yaml'), ['ascii_literal']) - 1
    with pytest.raises(EyamlError, match=r"literal\.yaml:%d: the value of 'ascii_literal' is eyaml ciphertext "
                                         r"broken over lines \(a literal block, \|\)" % key_line):
        load('literal.yaml')


@pytest.mark.parametrize('text, where', [('a: 1\nsecret: %s\n', ":2: the value of 'secret'"),
                                         ('a: 1\nlist:\n  - plain\n  - >\n    %s\n', ":2: the value of 'list/1'")])
def test_ciphertext_in_a_level_without_keys_is_an_error(tmp_path, text, where):
    path, data = write(tmp_path, text % ascii_ciphertext())
    with pytest.raises(EyamlError) as caught:
        eyaml.read_values(data, path, None, "level 'common'")
    assert str(caught.value) == path + where + " looks like eyaml ciphertext; level 'common' has no eyaml keys"


def test_plain_data_is_returned_as_it_is(tmp_path):
    data = {'a': ['ENC is not a token', 'ENC[]'], 'b': {'c': 1}}
    assert eyaml.read_values(data, 'x.yaml', None, 'common') is data


def test_damaged_base64_is_an_error_naming_file_and_line(tmp_path):
    path, data = write(tmp_path, 'a: 1\nsecret: ENC[PKCS7,MIIBiQYJKoZIhvc]\n')
    value = eyaml.read_values(data, path, keys_of(), 'secrets')['secret']
    with pytest.raises(EyamlError, match=re.escape('%s:2: the eyaml value is not valid base64' % path)):
        value.decrypted()


def test_damaged_ciphertext_is_an_error_naming_file_and_line(tmp_path):
    good = ascii_ciphertext()[len('ENC[PKCS7,'):-1]
    damaged = good[:200] + ('A' if good[200] != 'A' else 'B') + good[201:]      # the RSA-encrypted key changed
    path, data = write(tmp_path, 'a: 1\nb: 2\nsecret: ENC[PKCS7,%s]\n' % damaged)
    value = eyaml.read_values(data, path, keys_of(), 'secrets')['secret']
    with pytest.raises(EyamlError, match=re.escape('%s:3: the eyaml value cannot be decrypted' % path)):
        value.decrypted()


# --- cryptography's version ----------------------------------------------------------------------------------------
def test_a_cryptography_without_pkcs7_decryption_is_a_clear_error(monkeypatch):
    monkeypatch.delattr(pkcs7, 'pkcs7_decrypt_der')
    data, path = load('values.yaml')
    with pytest.raises(EyamlError) as caught:
        data['ascii_string'].decrypted()
    message = str(caught.value)
    assert message.startswith('%s:%d: ' % (path, value_line(path, ['ascii_string'])))
    assert 'needs the Python package cryptography 45.0 or later' in message
    assert eyaml.MIN_CRYPTOGRAPHY == (45, 0)


def test_a_cryptography_that_decrypts_aes_128_only_is_a_clear_error(monkeypatch):
    def aes_128_only(*args):        # what cryptography 44 raises for the gem's AES-256-CBC values
        raise UnsupportedAlgorithm('Only AES-128-CBC is currently supported for content decryption.')

    monkeypatch.setattr(pkcs7, 'pkcs7_decrypt_der', aes_128_only)
    data, path = load('values.yaml')
    with pytest.raises(EyamlError) as caught:
        data['ascii_string'].decrypted()
    message = str(caught.value)
    assert 'needs the Python package cryptography 45.0 or later; this is cryptography ' in message
    assert 'Only AES-128-CBC' in message and 'padding' not in message.lower()


# --- an opaque value -----------------------------------------------------------------------------------------------
def test_equal_by_ciphertext_the_string_and_block_forms_of_one_ciphertext_too():
    data, path = load('values.yaml')
    string, folded = data['same_string'], data['same_folded']
    assert string == folded and hash(string) == hash(folded) and len({string, folded}) == 1
    assert data['ascii_string'] != data['ascii_folded']        # two encryptions of one text differ
    assert string != string.ciphertext and string.ciphertext != 'the same ciphertext'
    assert copy.deepcopy(string) is string and copy.copy(string) is string


def test_text_and_repr_never_give_the_plain_text():
    data, path = load('values.yaml')
    values = [dig(data, entry['path']) for entry in READ if entry['file'] == 'values.yaml']
    for value in values:
        plain = value.decrypted()
        for shown in (str(value), repr(value), repr([value]), '%s' % value):
            assert shown == value.ciphertext or shown == '[%s]' % value.ciphertext
            assert not plain or plain not in shown


# --- merges --------------------------------------------------------------------------------------------------------
def test_the_merge_core_compares_eyaml_values_by_ciphertext():
    data, path = load('values.yaml')
    copied, again = data['same_string'], load('values.yaml')[0]['same_folded']      # one ciphertext in two levels
    other = data['ascii_string']
    unique = merge_layers([[copied, 'plain'], [again, other, 'plain']], MergeRules('Unique')).value
    assert unique == [copied, 'plain', other] and unique[0] is copied
    deep = merge_layers([{'db': {'password': copied, 'users': [copied]}},
                         {'db': {'password': other, 'host': 'h', 'users': [again, other]}}],
                        MergeRules('deep')).value
    assert deep == {'db': {'password': copied, 'host': 'h', 'users': [copied, other]}}
    assert eyaml.decrypted(deep) == {'db': {'password': 'the same ciphertext', 'host': 'h',
                                            'users': ['the same ciphertext', 'correct horse battery staple']}}


def test_hieras_merges_compare_eyaml_values_by_ciphertext():
    data, path = load('values.yaml')
    copied, again, other = data['same_string'], load('values.yaml')[0]['same_folded'], data['ascii_string']
    unique = merger_for('unique').reduce([[copied, 'plain'], [again, other]], lambda value: value)
    assert unique == [copied, 'plain', other]
    deep = merger_for('deep').reduce([{'db': {'password': copied, 'users': [copied]}},
                                      {'db': {'password': other, 'users': [again, other], 'host': 'h'}}],
                                     lambda value: value)
    assert deep == {'db': {'password': copied, 'users': [again, other], 'host': 'h'}}
    assert merger_for('hash').reduce([{'a': copied}, {'a': other, 'b': other}], lambda value: value) == \
        {'a': copied, 'b': other}


def test_an_answer_is_not_walked_for_eyaml_values_while_none_was_made(monkeypatch):
    monkeypatch.setitem(eyaml.COUNTS, 'values', 0)
    monkeypatch.setattr(eyaml, 'find', lambda *args, **kwargs: pytest.fail('the answer was walked'))
    answer = {'users': [{'name': 'a'}], 'motd': 'hi'}
    assert eyaml.decrypted(answer) is answer
