# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The fast parser gives what DataLoader gives, on every supported ansible-core: values (vault values as the
version's vault type), and for what it does not read itself, DataLoader's own answer or error."""

from __future__ import annotations

import datetime
import os
import random

import pytest

from ansible.parsing.dataloader import DataLoader
from ansible.parsing.vault import VaultLib, VaultSecret

from ansible_collections.strata.hier.plugins.plugin_utils import parse as parse_module
from ansible_collections.strata.hier.plugins.plugin_utils.compat import is_vault_value, vault_ciphertext
from ansible_collections.strata.hier.plugins.plugin_utils.parse import NEEDS_DATALOADER, parse
from ansible_collections.strata.hier.plugins.plugin_utils.data_files import load_untrusted
from ansible_collections.strata.hier.plugins.plugin_utils.store import StoreError

SECRET = [('default', VaultSecret(b'unit-test'))]


def vaulted(text, indent=2):
    lines = VaultLib(SECRET).encrypt(text).decode().splitlines()
    return '!vault |\n' + ''.join(' ' * indent + line + '\n' for line in lines)


PARSED_FAST = {
    'map.yml': 'a: 1\nb: [x, "y", 2.5, true, null, ~, yes, off]\nc: {d: {e: "f"}}\n',
    'scalars.yml': 'int: 0x1F\noct: 0o17\nold_oct: 017\nexp: 1e3\nfloat: 1.0e3\ninf: .inf\nbig: %s\nneg: -12_000\n'
                   'date_like: "2024-01-01"\nbin_like: 0b101\nsexagesimal: 1:30\n' % ('9' * 400),
    'aliases.yml': 'base: &base {a: 1, l: [1, 2]}\nuse: *base\nmerged:\n  <<: *base\n  b: 2\nlist: &l [1, 2]\nagain: *l\n',
    'multiline.yml': 'literal: |\n  one\n  two\nfolded: >\n  one\n  two\nquoted: "tab\\there \\u00e9"\n',
    'unicode.yml': 'name: "Zoë"\n\u00e9t\u00e9: été\nemoji: "\U0001F600"\n',
    'empty.yml': '',
    'comment_only.yml': '# nothing\n',
    'scalar.yml': 'just a string\n',
    'list.yml': '- 1\n- two\n- {three: 3}\n',
    'doc_marker.yml': '---\na: 1\n...\n',
    'keys.yml': '5: int key\ntrue: bool key\n~: null key\n1.5: float key\n"quoted": q\n',
    'set.yml': 'tags: !!set {a, b}\n',
    'binary.yml': 'blob: !!binary aGVsbG8=\n',
    'json.json': '{"a": 1, "b": [1.5, "x", null, true], "c": {"d": 1e3}, "e": "\\u00e9\\/"}',
    'json_dupes.json': '{"a": 1, "a": 2}',
    'json_scalar.json': '42',
    'json_nan.json': '[NaN, Infinity, -Infinity]',
    'yaml_like_json.yml': '{"a": 1, b: 2}',
    'vault.yml': 'plain: 1\nsecret: %slist:\n  - %s' % (vaulted('s3cret'), vaulted('other', 4)),
    'timestamp.yml': 'when: 2024-01-02\nat: 2024-01-02 10:20:30\n',
    'bom.yml': '\ufeffa: 1\n',
    'crlf.yml': 'a: 1\r\nb: two\r\n',
}

FOR_DATALOADER = {
    'bad_indent.yml': 'a:\n  b: 1\n c: 2\n',
    'unclosed.yml': 'a: [1, 2\n',
    'tab.yml': 'a:\n\tb: 1\n',
    'two_docs.yml': 'a: 1\n---\nb: 2\n',
    'duplicate.yml': 'a: 1\na: 2\n',
    'equal_keys.yml': '1: int key\ntrue: bool key\n',     # 1 == True: one key twice, as Python sees it
    'duplicate_nested.yml': 'x:\n  a: 1\n  a: 2\n',
    'merge_override.yml': 'base: &b {a: 1}\nuse:\n  <<: *b\n  a: 2\n',
    'unsafe.yml': 'a: !unsafe "{{ x }}"\n',
    'omap.yml': 'a: !!omap [{x: 1}, {y: 2}]\n',
    'unknown_tag.yml': 'a: !custom 1\n',
    'python_tag.yml': 'a: !!python/object:os.system ls\n',
    'vault_map.yml': 'a: !vault {b: 1}\n',
    'ansible_json.json': '{"a": {"__ansible_vault": "%s"}}',
    'ansible_unsafe.json': '{"a": {"__ansible_unsafe": "{{ x }}"}}',
    'latin1.yml': b'name: Zo\xeb\n',
    'unhashable_key.yml': '? [a]\n: 1\n',
    'huge_int.yml': 'n: %s\n' % ('9' * 5000),
    'whole_file.yml': None,     # written vaulted below
}


def write(path, text):
    with open(path, 'wb') as stream:
        stream.write(text if isinstance(text, bytes) else text.encode('utf-8'))


def loader():
    data_loader = DataLoader()
    data_loader.set_vault_secrets(SECRET)
    return data_loader


def comparable(value, seen=None):
    """Values without the version's wrapper types, vault values by ciphertext, shared containers kept apart."""
    if is_vault_value(value):
        return ('vault', vault_ciphertext(value))
    if isinstance(value, dict):
        return {comparable(key): comparable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [comparable(item) for item in value]
    if isinstance(value, (set, frozenset)):
        return {'set': sorted(map(str, value))}
    kind = next((kind for kind in BUILTIN_SCALARS if isinstance(value, kind)), type(value))
    return kind.__name__, 'nan' if value != value else value   # pylint: disable=comparison-with-itself


BUILTIN_SCALARS = (bool, int, float, str, bytes, datetime.datetime, datetime.date, type(None))


def dataloader_answer(path):
    try:
        return 'value', comparable(loader().load_from_file(path, cache='none' if _new_cache_api() else False,
                                                           unsafe=True))
    except Exception as exc:  # pylint: disable=broad-except
        return 'error', type(exc).__name__


def _new_cache_api():
    from ansible_collections.strata.hier.plugins.plugin_utils.compat import CORE_VERSION
    return CORE_VERSION >= (2, 17)


@pytest.fixture(autouse=True)
def no_run_cache(monkeypatch):
    """Each test reads files itself, unless it tests the run cache."""
    monkeypatch.setattr(parse_module, '_FOLDER', {'path': None})


@pytest.mark.parametrize('name', sorted(PARSED_FAST))
def test_parsed_fast_with_the_values_dataloader_gives(tmp_path, name):
    path = str(tmp_path / name)
    write(path, PARSED_FAST[name])
    data = parse(path, loader())
    assert data is not NEEDS_DATALOADER
    assert ('value', comparable(data)) == dataloader_answer(path)


def test_vault_values_are_the_versions_vault_type_and_decrypt(tmp_path):
    path = str(tmp_path / 'vault.yml')
    write(path, PARSED_FAST['vault.yml'])
    data = parse(path, loader())
    assert is_vault_value(data['secret']) and is_vault_value(data['list'][0])
    assert vault_ciphertext(data['secret']).startswith('$ANSIBLE_VAULT;1.1;AES256')
    from ansible_collections.strata.hier.plugins.plugin_utils.compat import DATA_TAGGING, decrypted
    if DATA_TAGGING:
        from ansible.parsing.vault import VaultSecretsContext
        VaultSecretsContext.initialize(VaultSecretsContext(SECRET))
    try:
        assert decrypted(data['secret']) == 's3cret'
    finally:
        if DATA_TAGGING:
            VaultSecretsContext._current = None  # pylint: disable=protected-access


def test_aliases_stay_shared(tmp_path):
    path = str(tmp_path / 'aliases.yml')
    write(path, PARSED_FAST['aliases.yml'])
    data = parse(path, loader())
    assert data['base'] is data['use'] and data['list'] is data['again']


@pytest.mark.parametrize('name', sorted(FOR_DATALOADER))
def test_left_to_dataloader(tmp_path, name):
    path = str(tmp_path / name)
    text = FOR_DATALOADER[name]
    if name == 'whole_file.yml':
        text = VaultLib(SECRET).encrypt('a: 1\n').decode()
    elif name == 'ansible_json.json':
        text = text % VaultLib(SECRET).encrypt('x').decode().replace('\n', '\\n')
    write(path, text)
    assert parse(path, loader()) is NEEDS_DATALOADER


@pytest.mark.parametrize('name', sorted(set(FOR_DATALOADER) - {'whole_file.yml', 'ansible_json.json'}))
def test_store_gives_dataloaders_value_or_error(tmp_path, name):
    """Through the store's reader: the value DataLoader gives, or an error naming the file."""
    path = str(tmp_path / name)
    write(path, FOR_DATALOADER[name])
    kind, expected = dataloader_answer(path)
    try:
        data = load_untrusted(loader(), path, StoreError)
    except StoreError as exc:
        assert kind == 'error' and path in str(exc)
    else:
        assert ('value', comparable(data)) == (kind, expected)


def test_random_documents_agree_with_dataloader(tmp_path):
    """Generated documents: nested maps and lists of YAML's plain scalars, in block and flow style."""
    rng = random.Random(7)
    scalars = ['1', '-2', '3.5', 'yes', 'No', 'null', '~', '"q"', "'s'", 'text with spaces', '0x10', '1e5', '.nan',
               '2001-12-14', '"2001-12-14"', '+1', '1_000', 'é', '0o7', '07', '1:20', 'on', '[]', '{}']

    def node(depth, indent):
        kind = rng.random()
        if depth > 3 or kind < 0.4:
            return ' ' + rng.choice(scalars) + '\n'
        if kind < 0.7:
            return '\n' + ''.join('%s- %s' % (' ' * indent, node(depth + 1, indent + 2).lstrip())
                                  for _item in range(rng.randint(1, 4)))
        return '\n' + ''.join('%sk%d:%s' % (' ' * indent, index, node(depth + 1, indent + 2))
                              for index in range(rng.randint(1, 4)))

    for number in range(60):
        path = str(tmp_path / ('random%d.yml' % number))
        write(path, ''.join('top%d:%s' % (index, node(0, 2)) for index in range(rng.randint(1, 5))))
        data = parse(path, loader())
        assert data is not NEEDS_DATALOADER
        assert ('value', comparable(data)) == dataloader_answer(path)


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """The run's folder for parsed files, private as ansible-core creates it."""
    run = tmp_path / 'run'
    run.mkdir(mode=0o700)
    monkeypatch.setattr(parse_module, '_FOLDER', {'path': str(run)})
    return run


def test_run_cache_is_used_by_another_process_and_checked(tmp_path, monkeypatch, folder):
    path = str(tmp_path / 'vault.yml')
    write(path, PARSED_FAST['vault.yml'])
    first = parse(path, loader())
    kept = os.listdir(str(folder))
    assert len(kept) == 1
    calls = []
    monkeypatch.setattr(parse_module, '_parse_text', calls.append)
    again = parse(path, loader())
    assert calls == [] and comparable(again) == comparable(first) and is_vault_value(again['secret'])
    with open(str(folder / kept[0]), 'rb') as stream:
        assert b's3cret' not in stream.read()
    write(path, PARSED_FAST['vault.yml'].replace('plain: 1', 'plain: 2'))   # same size, a new ctime
    assert parse(path, loader()) is NEEDS_DATALOADER and len(calls) == 1


def test_run_cache_never_holds_a_whole_file_vaulted_file(tmp_path, folder):
    path = str(tmp_path / 'whole.yml')
    write(path, VaultLib(SECRET).encrypt('secret_key: s3cret\n').decode())
    assert load_untrusted(loader(), path, StoreError) == {'secret_key': 's3cret'}
    assert os.listdir(str(folder)) == []


def test_run_cache_written_by_someone_else_is_ignored(tmp_path, monkeypatch, folder):
    path = str(tmp_path / 'map.yml')
    write(path, PARSED_FAST['map.yml'])
    parse(path, loader())
    kept = str(folder / os.listdir(str(folder))[0])
    os.chmod(kept, 0o666)
    calls = []
    monkeypatch.setattr(parse_module, '_parse_text', calls.append)
    parse(path, loader())
    assert len(calls) == 1


def test_a_failed_write_to_the_run_cache_leaves_nothing_and_costs_only_a_parse(tmp_path, monkeypatch, folder):
    path = str(tmp_path / 'map.yml')
    write(path, PARSED_FAST['map.yml'])
    real_replace = os.replace

    def full_disk(source, target):
        raise OSError(28, 'No space left on device')
    monkeypatch.setattr(parse_module.os, 'replace', full_disk)
    first = parse(path, loader())
    assert os.listdir(str(folder)) == []        # no temporary file left behind
    monkeypatch.setattr(parse_module.os, 'replace', real_replace)
    assert comparable(parse(path, loader())) == comparable(first)
    assert len(os.listdir(str(folder))) == 1    # written by the next parse


def test_the_nesting_check_sees_the_bytes_parsed_and_is_skipped_for_a_kept_file(tmp_path, folder):
    path = str(tmp_path / 'map.yml')
    write(path, PARSED_FAST['map.yml'])
    seen = []
    first = parse(path, loader(), seen.append)
    with open(path, 'rb') as stream:
        assert seen == [stream.read()]
    assert parse(path, loader(), seen.append) == first and len(seen) == 1     # kept: the check passed already


def test_a_deep_file_is_refused_before_parsing_whether_or_not_the_run_folder_exists(tmp_path, monkeypatch, folder):
    path = str(tmp_path / 'deep.yml')
    write(path, 'a: ' + '[' * 5000 + ']' * 5000 + '\n')
    calls = []
    monkeypatch.setattr(parse_module, '_parse_text', calls.append)
    for _round in range(2):
        with pytest.raises(StoreError, match='deep.yml:1: the data nests deeper than 500 levels'):
            load_untrusted(loader(), path, StoreError)
        monkeypatch.setattr(parse_module, '_FOLDER', {'path': None})
    assert calls == [] and os.listdir(str(folder)) == []


def test_a_file_for_dataloader_is_read_once_for_the_nesting_check(tmp_path, monkeypatch, folder):
    from ansible_collections.strata.hier.plugins.plugin_utils import data_files
    checks = []
    real_check = data_files.refuse_deep_nesting

    def counted(path, error, raw=None):
        checks.append(raw is not None)
        real_check(path, error, raw)
    monkeypatch.setattr(data_files, 'refuse_deep_nesting', counted)
    path = str(tmp_path / 'tagged.yml')
    write(path, 'a: !unsafe "{{ x }}"\n')                  # read by the fast parser, which gives it to DataLoader
    assert comparable(load_untrusted(loader(), path, StoreError)) == comparable({'a': '{{ x }}'})
    assert checks == [True]
    monkeypatch.chdir(str(tmp_path))
    checks.clear()
    assert comparable(load_untrusted(DataLoader(), 'tagged.yml', StoreError)) == comparable({'a': '{{ x }}'})
    assert checks == [False]                                # a relative path: checked before DataLoader reads it


def test_text_results_are_made_once_per_run_by_text_and_purpose(folder):
    made = []

    def make(text):
        made.append(text)
        return {'length': len(text), 'words': text.split()}
    first = parse_module.kept_for_text('words', 'a b c', make)
    again = parse_module.kept_for_text('words', 'a b c', make)
    assert first == again == {'length': 5, 'words': ['a', 'b', 'c']} and first is not again
    assert made == ['a b c']
    parse_module.kept_for_text('other purpose', 'a b c', make)
    parse_module.kept_for_text('words', 'a b d', make)
    assert made == ['a b c'] * 2 + ['a b d'] and len(os.listdir(str(folder))) == 3


def test_text_results_that_marshal_cannot_keep_are_made_each_time(folder):
    made = []

    def make(text):
        made.append(text)
        return {'when': datetime.date(2024, 1, 2)}
    for _round in range(2):
        assert parse_module.kept_for_text('dates', 'x', make) == {'when': datetime.date(2024, 1, 2)}
    assert len(made) == 2 and os.listdir(str(folder)) == []


def test_text_results_are_made_without_a_run_folder(monkeypatch):
    monkeypatch.setattr(parse_module, '_FOLDER', {'path': None})
    assert parse_module.kept_for_text('upper', 'abc', str.upper) == 'ABC'


def test_private_folder_is_refused_when_others_may_write(tmp_path, monkeypatch):
    from ansible import constants
    shared = tmp_path / 'shared'
    shared.mkdir()
    os.chmod(str(shared), 0o777)
    monkeypatch.setattr(constants, 'DEFAULT_LOCAL_TMP', str(shared), raising=False)
    assert parse_module._private_folder() is None   # pylint: disable=protected-access
    private = tmp_path / 'private'
    private.mkdir(mode=0o700)
    monkeypatch.setattr(constants, 'DEFAULT_LOCAL_TMP', str(private), raising=False)
    assert parse_module._private_folder() == str(private / 'strata.hier-parsed')  # pylint: disable=protected-access


def test_libyaml_parses_where_pyyaml_has_it():
    import yaml
    if yaml.__with_libyaml__:
        from yaml.cyaml import CParser
        assert issubclass(parse_module._Loader, CParser)   # pylint: disable=protected-access
