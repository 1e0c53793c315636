# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Provenance (issue 28): file:line of every value, list item and map key of a merged value, what it shadowed and
what knockouts removed, for hier.yml and Datum.yml stores."""

from __future__ import annotations

import os

import pytest

from ansible.parsing.dataloader import DataLoader
from ansible.parsing.vault import VaultLib, VaultSecret

from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy_cache import get_hierarchy
from ansible_collections.strata.hier.plugins.plugin_utils.provenance_report import origin_lines
from ansible_collections.strata.hier.plugins.plugin_utils.source_lines import Positions, line_of
from ansible_collections.strata.hier.tests.unit.plugins.readme_project import DB01, README_FILES, write


SECRET = [('default', VaultSecret(b'unit-test'))]


def store(root, files, loader=None):
    write(root, files)
    return get_hierarchy(str(root / 'hier.yml'), loader or DataLoader())


def where(record):
    return '%s:%s' % (record['file'], record['line'])


@pytest.fixture
def readme(tmp_path):
    return store(tmp_path, README_FILES)


def test_readme_packages_each_item_with_its_line_and_the_knocked_out_item(readme):
    records = readme.lookup('packages', DB01, provenance=True).records
    assert list(records) == ['packages', 'packages/0', 'packages/1', 'packages/2']
    assert [(records['packages/%d' % index]['value'], where(records['packages/%d' % index])) for index in range(3)] == [
        ('ntpsec', 'data/nodes/db01.yml:3'), ('postgresql', 'data/roles/db.yml:1'),
        ('openssh-server', 'data/common.yml:1')]
    assert records['packages']['removed'] == [
        {'value': 'chrony', 'file': 'data/common.yml', 'line': 1,
         'marker': {'file': 'data/nodes/db01.yml', 'line': 3}}]
    assert records['packages/0']['column'] == 22 and records['packages/0']['level'] == 'nodes/%{NodeName}'
    assert records['packages/0']['level_path'] == 'nodes/db01'
    assert (records['packages/1']['rule'], records['packages/1']['rule_at']) == ('packages', 'hier.yml:8')


def test_readme_ntp_makestep_shadows_the_common_value(readme):
    records = readme.lookup('ntp', DB01, provenance=True).records
    makestep = records['ntp/makestep']
    assert (makestep['value'], where(makestep)) == ('0.1 -1', 'data/roles/db.yml:3')
    assert makestep['shadowed'] == [{'file': 'data/common.yml', 'line': 4, 'value': '1.0 3'}]
    assert (makestep['rule'], makestep['rule_at']) == ('ntp', 'hier.yml:9')
    # the nested list merges by the default (not written in hier.yml: no line)
    assert (records['ntp/servers']['rule'], records['ntp/servers']['rule_at']) == ('default_lookup_options', None)
    assert where(records['ntp/servers/1']) == 'data/common.yml:3' and records['ntp/servers/1']['column'] == 29
    # the map key: its most specific definition; the less specific one is merged into it, so not shadowed
    assert where(records['ntp']) == 'data/roles/db.yml:2' and 'shadowed' not in records['ntp']


def test_provenance_changes_nothing_of_the_answer(readme):
    for key in ('packages', 'ntp', 'NodeName'):
        plain, traced = readme.lookup(key, DB01), readme.lookup(key, DB01, provenance=True)
        assert (traced.value, traced.sources, traced.warnings) == (plain.value, plain.sources, plain.warnings)
        assert plain.records is None


def test_a_map_taken_whole_shadows_the_less_specific_maps(tmp_path):
    files = dict(README_FILES, **{'hier.yml': README_FILES['hier.yml'].replace('ntp: deep', 'ntp: MostSpecific')})
    records = store(tmp_path, files).lookup('ntp', DB01, provenance=True).records
    assert records['ntp']['shadowed'] == [{'file': 'data/common.yml', 'line': 2}]
    assert list(records) == ['ntp', 'ntp/makestep']


def test_unique_duplicates_are_shadowed(tmp_path):
    files = {
        'hier.yml': 'datadir: data\nhierarchy: [a, b]\nlookup_options:\n  xs: Unique\n',
        'data/a.yml': 'xs:\n  - one\n  - two\n',
        'data/b.yml': 'xs: [zero, one]\n',
    }
    records = store(tmp_path, files).lookup('xs', {}, provenance=True).records
    assert [(records['xs/%d' % index]['value'], where(records['xs/%d' % index])) for index in range(3)] == [
        ('one', 'data/a.yml:2'), ('two', 'data/a.yml:3'), ('zero', 'data/b.yml:1')]
    assert records['xs/0']['shadowed'] == [{'file': 'data/b.yml', 'line': 1, 'value': 'one'}]


def test_hash_array_items_record_each_key_and_tuple_knockouts(tmp_path):
    files = {
        'hier.yml': 'datadir: data\nhierarchy: [node, base]\nlookup_options:\n  users: DeepTuple\n',
        'data/node.yml': 'users:\n  - Name: ann\n    Shell: zsh\n  - Name: --bob\n',
        'data/base.yml': 'users:\n  - Name: ann\n    Shell: bash\n    Uid: 1000\n  - Name: bob\n    Uid: 1001\n',
    }
    records = store(tmp_path, files).lookup('users', {}, provenance=True).records
    assert list(records) == ['users', 'users/0', 'users/0/Name', 'users/0/Shell', 'users/0/Uid']
    assert where(records['users/0']) == 'data/node.yml:2'
    assert (records['users/0/Shell']['value'], where(records['users/0/Shell'])) == ('zsh', 'data/node.yml:3')
    assert records['users/0/Shell']['shadowed'] == [{'file': 'data/base.yml', 'line': 3, 'value': 'bash'}]
    assert (records['users/0/Uid']['value'], where(records['users/0/Uid'])) == (1000, 'data/base.yml:4')
    assert records['users']['removed'] == [
        {'file': 'data/base.yml', 'line': 5, 'value': {'Name': 'bob', 'Uid': 1001},
         'marker': {'file': 'data/node.yml', 'line': 4}}]


def test_knockouts_inside_nested_maps_lists_and_hash_array_items_are_recorded_where_they_removed(tmp_path):
    """A knockout below the looked-up path: the record of the map, list or item it removed from names the value
    and the marker (the parent's record of the key used to replace it, losing them)."""
    files = {
        'hier.yml': 'datadir: data\nhierarchy: [node, base]\nlookup_options:\n  users: DeepTuple\n'
                    '  conf: deep\n  conf/l: Unique\n',
        'data/node.yml': 'users:\n  - Name: ann\n    --Uid: null\n    opts:\n      --x: null\n'
                         'conf:\n  m:\n    --x: null\n  l: [--p]\n',
        'data/base.yml': 'users:\n  - Name: ann\n    Uid: 1000\n    opts: {x: 1, y: 2}\n'
                         'conf:\n  m: {x: 1, k: 2}\n  l: [p, r]\n',
    }
    hierarchy = store(tmp_path, files)
    users = hierarchy.lookup('users', {}, provenance=True)
    conf = hierarchy.lookup('conf', {}, provenance=True)
    assert users.value == [{'Name': 'ann', 'opts': {'y': 2}}] and conf.value == {'m': {'k': 2}, 'l': ['r']}
    assert users.records['users/0']['removed'] == [
        {'file': 'data/base.yml', 'line': 3, 'value': 1000, 'marker': {'file': 'data/node.yml', 'line': 3}}]
    assert users.records['users/0/opts']['removed'] == [
        {'file': 'data/base.yml', 'line': 4, 'value': 1, 'marker': {'file': 'data/node.yml', 'line': 5}}]
    assert conf.records['conf/m']['removed'] == [
        {'file': 'data/base.yml', 'line': 6, 'value': 1, 'marker': {'file': 'data/node.yml', 'line': 8}}]
    assert conf.records['conf/l']['removed'] == [
        {'file': 'data/base.yml', 'line': 7, 'value': 'p', 'marker': {'file': 'data/node.yml', 'line': 9}}]


def test_a_key_knocked_out_of_less_specific_levels_names_the_marker(tmp_path):
    files = {
        'hier.yml': 'datadir: data\nhierarchy: [node, role, base]\nlookup_options: {ports: Unique}\n',
        'data/node.yml': 'ports: [443]\n',
        'data/role.yml': 'other: 1\n--ports: null\n',
        'data/base.yml': 'ports: [22]\n',
    }
    records = store(tmp_path, files).lookup('ports', {}, provenance=True).records
    assert list(records) == ['ports', 'ports/0'] and where(records['ports/0']) == 'data/node.yml:1'
    assert records['ports']['removed'] == [
        {'file': 'data/base.yml', 'line': 1, 'value': [22], 'marker': {'file': 'data/role.yml', 'line': 2}}]


def test_a_datum_store_names_folders_files_and_case_folded_keys(tmp_path):
    files = {
        'Datum.yml': 'ResolutionPrecedence:\n  - AllNodes\\$($Node.NodeName)\n  - Roles\\$($Node.Role)\n'
                     'default_lookup_options: MostSpecific\nlookup_options:\n  Features: Unique\n',
        'AllNodes/n1.yml': 'features: [b]\n',
        'Roles/web.yml': 'Features:\n  - a\n',
    }
    write(tmp_path, files)
    hierarchy = get_hierarchy(str(tmp_path / 'Datum.yml'), DataLoader())
    records = hierarchy.lookup('Features', {'NodeName': 'n1', 'Role': 'web'}, provenance=True).records
    assert [(record['value'], where(record)) for path, record in records.items() if path != 'Features'] == [
        ('b', 'AllNodes/n1.yml:1'), ('a', 'Roles/web.yml:2')]
    assert records['Features']['rule_at'] == 'Datum.yml:6'


def test_vault_values_stay_encrypted_and_vaulted_files_are_withheld(tmp_path):
    vault = VaultLib(SECRET)
    value = vault.encrypt('s3cret-value').decode()
    whole = vault.encrypt('token: whole-file-s3cret\n').decode()
    loader = DataLoader()
    loader.set_vault_secrets(SECRET)
    files = {
        'hier.yml': 'datadir: data\nhierarchy: [node, base]\nlookup_options:\n  creds: deep\n',
        'data/node.yml': 'creds:\n  password: !vault |\n' + ''.join('    %s\n' % line for line in value.splitlines()),
        'data/base.yml': whole,
    }
    hierarchy = store(tmp_path, files, loader)
    records = hierarchy.lookup('creds', {}, provenance=True).records
    assert type(records['creds/password']['value']).__name__ in ('AnsibleVaultEncryptedUnicode', 'EncryptedString')
    lines = origin_lines(records) + origin_lines(hierarchy.lookup('token', {}, provenance=True).records)
    text = '\n'.join(lines)
    assert 's3cret' not in text and 'creds/password = <' in text
    token = hierarchy.lookup('token', {}, provenance=True).records['token']
    assert token == {'file': 'data/base.yml', 'withheld': True, 'level': 'base', 'level_path': 'base',
                     'rule': 'default_lookup_options', 'rule_at': None}


def test_origin_lines_name_each_value_shadow_and_removal(readme):
    lines = origin_lines(readme.lookup('packages', DB01, provenance=True).records)
    assert lines == [
        "packages   removed 'chrony' at data/common.yml:1 by the marker at data/nodes/db01.yml:3",
        "packages/0 = 'ntpsec'  from data/nodes/db01.yml:3 (level nodes/%{NodeName})",
        "packages/1 = 'postgresql'  from data/roles/db.yml:1 (level roles/%{Role})",
        "packages/2 = 'openssh-server'  from data/common.yml:1 (level common)"]


def test_positions_of_keys_and_list_items(tmp_path):
    path = str(tmp_path / 'f.yml')
    with open(path, 'w') as stream:
        stream.write('a:\n  b: [x, y]\n  c:\n    - k: 1\n    - k: 2\n')
    positions = Positions()
    assert positions.position(path, ['a', 'b', 1]) == (2, 10)
    assert positions.position(path, ['a', 'c', 1, 'k']) == (5, 7)
    assert positions.position(path, ['a', 'missing']) == (None, None)
    assert line_of(path, ['a', 'missing']) == 1       # error messages: the deepest key found
    assert Positions(case_insensitive=True).position(path, ['A', 'B']) == (2, 3)
    assert positions.position(os.path.join(str(tmp_path), 'absent.yml'), ['a']) == (None, None)


def test_positions_memo_is_kept_until_the_file_changes(tmp_path):
    path = str(tmp_path / 'f.yml')
    with open(path, 'w') as stream:
        stream.write('a: 1\n')
    positions = Positions()
    memo = positions.memo(path, 'located')
    memo['a'] = 1
    assert positions.memo(path, 'located') is memo and positions.memo(path, 'other') == {}
    with open(path, 'w') as stream:
        stream.write('b: 2\na: 1\n')
    positions.begin_pass()
    assert positions.memo(path, 'located') == {}


def test_lines_located_for_one_host_serve_the_next_until_the_file_changes(readme, tmp_path):
    """The places of a file are located once for every host reading it (Positions.memo): another lookup gets the
    same lines, and an edit of the file moves them at the next pass."""
    first = readme.lookup('ntp', DB01, provenance=True).records
    assert readme.lookup('ntp', DB01, provenance=True).records == first
    assert first['ntp/makestep']['shadowed'] == [{'file': 'data/common.yml', 'line': 4, 'value': '1.0 3'}]
    common = tmp_path / 'data' / 'common.yml'
    common.write_text('# moved down a line\n' + common.read_text())
    readme.begin_pass()
    moved = readme.lookup('ntp', DB01, provenance=True).records
    assert moved['ntp/makestep']['shadowed'] == [{'file': 'data/common.yml', 'line': 5, 'value': '1.0 3'}]
