# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The rsop diff between two git refs (issue 29): changes per host with their causes, groups, shadowed and dead
edits, secrets, and which hosts are merged again; scripted changes of the README's first project and of
examples/hierarchy."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess

import pytest

from ansible.parsing.dataloader import DataLoader
from ansible.parsing.vault import VaultLib, VaultSecret

from ansible_collections.strata.hier.plugins.plugin_utils.jobs import rsop_diff as rsop_diff_module
from ansible_collections.strata.hier.plugins.plugin_utils.jobs.git_refs import GitError
from ansible_collections.strata.hier.plugins.plugin_utils.jobs.rsop_diff import main, rsop_diff
from ansible_collections.strata.hier.plugins.plugin_utils.jobs.rsop_diff_report import SCHEMA, gate_failures, markdown

from ansible_collections.strata.hier.tests.unit.plugins.readme_project import README_FILES, write

EXAMPLES = os.path.join(os.path.dirname(__file__), '..', '..', '..', '..', 'examples', 'hierarchy')
PASSWORD = open(os.path.join(EXAMPLES, 'vault-password.txt'), 'rb').read().strip()
ADMIN_PASSWORD = 'D3v-S3cret!'      # the plain text of AdminPassword in examples/hierarchy
LONDON_MASK = '255.255.0.0'         # a value of the whole-file vaulted Locations/London.yml


def git(repo, *arguments):
    subprocess.run(['git', '-C', str(repo), '-c', 'user.email=t@example.com', '-c', 'user.name=t'] + list(arguments),
                   check=True, capture_output=True)


def repository(path, files=None, tree=None):
    if tree:
        shutil.copytree(tree, str(path))
    write(path, files or {})
    git(path, 'init', '-q')
    git(path, 'add', '-A')
    git(path, 'commit', '-qm', 'base')
    return path


def vault_loader():
    loader = DataLoader()
    loader.set_vault_secrets([('default', VaultSecret(PASSWORD))])
    return loader


@pytest.fixture
def readme(tmp_path):
    return repository(tmp_path / 'repo', README_FILES)


@pytest.fixture
def example(tmp_path):
    return repository(tmp_path / 'repo', tree=EXAMPLES)


def changes_of(report):
    return {host: [(change['path'], change['op'], change['from'], change['to'],
                    [(cause.get('file'), cause.get('line')) if 'line' in cause else cause['cause']
                     for cause in change['cause']])
                   for change in group['changes']]
            for group in report['groups'] for host in group['hosts']}


def edit(path, old, new):
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def test_readme_value_change_with_its_line_and_where_it_is_shadowed(readme):
    edit(readme / 'data' / 'common.yml', '"1.0 3"', '"2.0 5"')
    report = rsop_diff(str(readme), 'HEAD')
    assert report['schema'] == SCHEMA and (report['base'], report['head']) == ('HEAD', 'work tree')
    assert changes_of(report) == {'web01': [('ntp/makestep', 'changed', '1.0 3', '2.0 5',
                                             [('data/common.yml', 4), ('data/common.yml', 4)])]}
    assert report['shadowed_edits'] == [{'file': 'data/common.yml', 'line': 4, 'ref': 'work tree',
                                         'path': 'ntp/makestep', 'no_effect_on': {'db01': 'data/roles/db.yml:3'}}]
    assert report['dead_edits'] == []
    assert report['summary'] == {'hosts_total': 2, 'hosts_changed': 1, 'values_changed': 1, 'errors': 0,
                                 'shadowed_edits': 1, 'dead_edits': 0, 'hosts_recomputed': 2}
    assert markdown(report) == GOLDEN_MARKDOWN
    with open(os.path.join(EXAMPLES, '..', '..', 'docs', 'rsop.md')) as stream:
        assert GOLDEN_MARKDOWN.strip() in stream.read()     # what docs/rsop.md shows


GOLDEN_MARKDOWN = '''## strata.hier rsop diff: `HEAD` → `work tree`

**1 of 2 hosts change** (1 values), 0 errors, 1 shadowed edits, 0 dead edits.

### 1 host: `web01`

| path | change | from | to | cause |
| --- | --- | --- | --- | --- |
| `ntp/makestep` | changed | `1.0 3` | `2.0 5` | `data/common.yml:4` (work tree)<br>`data/common.yml:4` (HEAD) |

<details><summary>1 edits shadowed on some hosts</summary>

- `data/common.yml:4` (`ntp/makestep`): no effect on `db01` (shadowed at `data/roles/db.yml:3`)

</details>

'''


def test_readme_item_added_removed_and_knocked_out_between_two_commits(readme):
    edit(readme / 'data' / 'roles' / 'web.yml', '[nginx]', '[nginx, curl]')
    edit(readme / 'data' / 'roles' / 'db.yml', '[postgresql]', '[postgresql, --openssh-server]')
    git(readme, 'commit', '-qam', 'head')
    report = rsop_diff(str(readme), 'HEAD~1', 'HEAD')
    assert report['head'] == 'HEAD'
    assert changes_of(report) == {
        'web01': [('packages/1', 'added', None, 'curl', [('data/roles/web.yml', 1), ('data/roles/web.yml', 1)])],
        'db01': [('packages', 'removed', 'openssh-server', None, [('data/roles/db.yml', 1)])]}


def test_a_dead_edit_and_a_role_file_recomputing_only_its_hosts(readme):
    edit(readme / 'data' / 'roles' / 'db.yml', '"0.1 -1"', '"0.1 -1"\n  unused: 1')
    write(readme, {'data/other.yml': 'nobody: reads-this\n'})
    report = rsop_diff(str(readme), 'HEAD')
    assert report['groups'] == [{'hosts': ['db01'], 'changes': [{
        'path': 'ntp/unused', 'op': 'added', 'from': None, 'to': 1,
        'cause': [{'file': 'data/roles/db.yml', 'line': 4, 'ref': 'work tree'}]}]}]
    assert report['summary']['hosts_recomputed'] == 1       # web01 reads no changed file
    assert report['dead_edits'] == [{'file': 'data/other.yml', 'line': 1, 'ref': 'work tree',
                                     'why': "changes no host's merged data"}]


def test_node_files_added_and_removed_and_level_order_changed(readme):
    os.remove(str(readme / 'data' / 'nodes' / 'web01.yml'))
    write(readme, {'data/nodes/app01.yml': 'NodeName: app01\nRole: web\n'})
    report = rsop_diff(str(readme), 'HEAD')
    assert changes_of(report) == {'app01': [('', 'host added', None, None, ['node file added'])],
                                  'web01': [('', 'host removed', None, None, ['node file removed'])]}
    git(readme, 'checkout', '-q', '--', '.')
    os.remove(str(readme / 'data' / 'nodes' / 'app01.yml'))
    edit(readme / 'hier.yml', '  - "roles/%{Role}"\n  - "common"', '  - "common"\n  - "roles/%{Role}"')
    report = rsop_diff(str(readme), 'HEAD')
    named = ['configuration changed', 'level paths changed']
    assert changes_of(report)['db01'] == [
        ('packages', 'reordered', ['ntpsec', 'postgresql', 'openssh-server'],
         ['ntpsec', 'openssh-server', 'postgresql'], named),
        ('ntp/makestep', 'changed', '0.1 -1', '1.0 3', named)]
    assert report['groups'][0]['changes'][0]['cause'][1] == {
        'cause': 'level paths changed', 'from': ['nodes/db01', 'roles/db', 'common'],
        'to': ['nodes/db01', 'common', 'roles/db']}


def test_a_tuple_keyed_item_moved_between_files_is_no_change(tmp_path):
    repo = repository(tmp_path / 'repo', {
        'hier.yml': 'datadir: data\nhierarchy: ["nodes/%{NodeName}", role, base]\nnodes: "nodes/*"\n'
                    'lookup_options:\n  users: {merge_hash_array: DeepTuple, merge_options: {tuple_keys: [Name]}}\n',
        'data/nodes/n1.yml': 'NodeName: n1\nusers:\n  - {Name: ann, Shell: zsh}\n',
        'data/role.yml': 'users:\n  - {Name: bob, Uid: 2}\n  - {Name: cid, Uid: 3}\n',
        'data/base.yml': 'users:\n  - {Name: ann, Uid: 1}\n'})
    edit(repo / 'data' / 'role.yml', '  - {Name: cid, Uid: 3}\n', '')
    edit(repo / 'data' / 'base.yml', '  - {Name: ann, Uid: 1}\n', '  - {Name: ann, Uid: 1}\n  - {Name: cid, Uid: 3}\n')
    report = rsop_diff(str(repo), 'HEAD')
    assert report['groups'] == [] and report['summary']['hosts_recomputed'] == 1
    assert report['dead_edits'] == [
        {'file': 'data/base.yml', 'line': 3, 'ref': 'work tree', 'why': "changes no host's merged data"},
        {'file': 'data/role.yml', 'line': 3, 'ref': 'HEAD', 'why': "changes no host's merged data"}]
    edit(repo / 'data' / 'base.yml', '  - {Name: cid, Uid: 3}\n', '  - {Name: cid, Uid: 4}\n')
    assert changes_of(rsop_diff(str(repo), 'HEAD')) == {
        'n1': [('users/2/Uid', 'changed', 3, 4, [('data/base.yml', 3), ('data/role.yml', 3)])]}


def test_secrets_compare_by_keyed_hash_with_the_password_and_by_ciphertext_without(example):
    vault = VaultLib([('default', VaultSecret(PASSWORD))])
    dev = example / 'data' / 'Environments' / 'Dev.yml'
    text = dev.read_text()
    old = text[text.index('AdminPassword'):]
    dev.write_text(text.replace(old, _vault_key('AdminPassword', vault.encrypt(ADMIN_PASSWORD).decode())))
    assert changes_of(rsop_diff(str(example), 'HEAD', loader=vault_loader())) == {}     # re-encrypted, unchanged
    without = rsop_diff(str(example), 'HEAD', loader=DataLoader())
    assert {change[:4] for host in without['groups'] for change in changes_of(without)[host['hosts'][0]]} == {
        ('AdminPassword', 'changed', '(secret)', '(secret)')}
    dev.write_text(text.replace(old, _vault_key('AdminPassword', vault.encrypt('N3w-S3cret!').decode())))
    report = rsop_diff(str(example), 'HEAD', loader=vault_loader())
    first = report['groups'][0]['changes'][0]
    assert (first['path'], first['op'], first['from'], first['to']) == (
        'AdminPassword', 'changed', '(secret)', '(secret)')
    assert first['cause'][0]['file'] == 'data/Environments/Dev.yml'
    for shown in (json.dumps(report), markdown(report), json.dumps(without), markdown(without)):
        assert ADMIN_PASSWORD not in shown and 'N3w-S3cret!' not in shown


def _vault_key(key, ciphertext):
    """``key: !vault |`` and the ciphertext's lines."""
    return '%s: !vault |\n%s' % (key, ''.join('  %s\n' % line for line in ciphertext.splitlines()))


def test_whole_file_vaulted_data_is_withheld(example):
    vault = VaultLib([('default', VaultSecret(PASSWORD))])
    london = example / 'data' / 'Locations' / 'London.yml'
    plain = vault.decrypt(london.read_text()).decode()
    london.write_text(vault.encrypt(plain.replace(LONDON_MASK, '255.255.255.0')).decode())
    report = rsop_diff(str(example), 'HEAD', loader=vault_loader())
    shown = json.dumps(report) + markdown(report)
    assert LONDON_MASK not in shown and '255.255.255.0' not in shown
    assert changes_of(report) == dict.fromkeys(['DSCWeb01', 'DSCWeb02'], [
        ('NetworkConfig/SubnetMask', 'changed', '(withheld)', '(withheld)',
         ['whole-file vaulted file changed'])])


def test_every_change_of_seeded_random_edits_has_a_cause(example):
    """Seeded random edits of the example store (two files a round): every change names a changed line or a named
    cause."""
    vault = VaultLib([('default', VaultSecret(PASSWORD))])
    london = example / 'data' / 'Locations' / 'London.yml'
    london.write_text(vault.decrypt(london.read_text()).decode())   # each round would decrypt it twice
    git(example, 'commit', '-qam', 'London in clear')
    rng = random.Random(28)
    files = sorted(os.path.join(root, name) for root, _dirs, names in os.walk(str(example / 'data'))
                   for name in names if name.endswith('.yml') and 'London' not in name and 'Datum' not in name)
    loader = vault_loader()
    for _round in range(int(os.environ.get('STRATA_HIER_EDIT_ROUNDS', '30'))):     # 200 edits: 100 rounds
        git(example, 'checkout', '-q', '--', '.')
        for path in rng.sample(files, 2):
            _random_edit(rng, path)
        report = rsop_diff(str(example), 'HEAD', loader=loader)
        diff = subprocess.run(['git', '-C', str(example), 'diff'], capture_output=True, text=True, check=True).stdout
        assert report['summary']['errors'] == 0, report['errors']
        for group in report['groups']:
            for change in group['changes']:
                assert change['cause'] and {'cause': 'unexplained'} not in change['cause'], (change, diff)


def _random_edit(rng, path):
    """Change a scalar, delete a line holding a scalar, or add a list item."""
    with open(path) as stream:
        lines = stream.read().splitlines()
    spots = [index for index, line in enumerate(lines) if re.match(r'^\s*(- )?[A-Za-z]+: [A-Za-z0-9.]+\s*$', line)]
    if not spots:
        return
    index = rng.choice(spots)
    action = rng.choice(['change', 'delete', 'add'])
    if action == 'change':
        lines[index] = re.sub(r': \S+\s*$', ': edited%d' % rng.randrange(100), lines[index])
    elif action == 'delete' and not lines[index].lstrip().startswith('- '):
        del lines[index]
    else:
        indent = re.match(r'^(\s*)', lines[index]).group(1)
        if lines[index].lstrip().startswith('- '):
            indent += '  '
        lines.insert(index + 1, '%sAdded%d: %d' % (indent, rng.randrange(100), rng.randrange(100)))
    with open(path, 'w') as stream:
        stream.write('\n'.join(lines) + '\n')


def test_a_ref_that_is_no_ref_and_a_folder_that_is_no_repository(readme, tmp_path):
    with pytest.raises(GitError, match="'--output=x' is no git ref"):
        rsop_diff(str(readme), '--output=x')
    with pytest.raises(GitError, match='rev-parse'):
        rsop_diff(str(readme), 'no-such-ref')
    with pytest.raises(GitError, match='not a git repository'):
        rsop_diff(str(tmp_path), 'HEAD')


def test_the_command_line_writes_both_files_and_gates(readme, monkeypatch, capsys):
    edit(readme / 'data' / 'common.yml', '"1.0 3"', '"2.0 5"')
    monkeypatch.chdir(str(readme))
    assert main(['--base', 'HEAD', '--out', 'out']) == 0
    report = json.loads((readme / 'out' / 'rsop-diff.json').read_text())
    assert report['summary']['hosts_changed'] == 1
    assert '**1 of 2 hosts change**' in (readme / 'out' / 'rsop-diff.md').read_text()
    assert main(['--base', 'HEAD', '--out', 'out', '--fail-if', 'hosts_changed,errors']) == 1
    assert 'fail_if: hosts_changed=1' in capsys.readouterr().err
    assert gate_failures(report, ['dead_edits']) == []
    with pytest.raises(ValueError, match='unknown fail_if nope; valid: hosts_changed'):
        gate_failures(report, ['nope'])


def test_markdown_stays_under_its_limit(readme):
    report = {'base': 'a', 'head': 'b', 'summary': dict.fromkeys(
        ('hosts_total', 'hosts_changed', 'values_changed', 'errors', 'shadowed_edits', 'dead_edits'), 1),
        'groups': [{'hosts': ['h%d' % index], 'changes': [{'path': 'k', 'op': 'changed', 'from': 'x' * 100,
                                                           'to': 'y', 'cause': [{'cause': 'configuration changed'}]}]}
                   for index in range(2000)], 'shadowed_edits': [], 'dead_edits': [], 'errors': []}
    text = markdown(report, limit=5000)
    assert len(text) < 5000 and text.rstrip().endswith('more sections are in `rsop-diff.json`.')


def test_hosts_are_merged_only_when_a_changed_file_reaches_them(example, monkeypatch):
    merged = []
    original = rsop_diff_module.Side.merge
    monkeypatch.setattr(rsop_diff_module.Side, 'merge', lambda side, name: merged.append(name) or original(side, name))
    edit(example / 'data' / 'Roles' / 'FileServer.yml', 'Ensure: Present', 'Ensure: Absent')
    rsop_diff(str(example), 'HEAD', loader=vault_loader())
    assert sorted(set(merged)) == ['DSCFile01', 'DSCFile02']


def test_a_case_insensitive_store_reaches_the_host_of_a_file_written_in_another_case(tmp_path):
    repo = repository(tmp_path / 'repo', {
        'hier.yml': 'datadir: data\nhierarchy: ["nodes/%{NodeName}", "roles/%{Role}"]\nnodes: "nodes/*"\n'
                    'case_insensitive_keys: true\n',
        'data/nodes/n1.yml': 'NodeName: n1\nRole: WEB\n',
        'data/roles/web.yml': 'port: 80\n'})
    edit(repo / 'data' / 'roles' / 'web.yml', '80', '8080')
    report = rsop_diff(str(repo), 'HEAD')
    line = [('data/roles/web.yml', 1), ('data/roles/web.yml', 1)]      # the line at each ref
    assert changes_of(report) == {'n1': [('port', 'changed', 80, 8080, line)]}


def test_a_linked_data_file_is_read_at_the_base_ref_too(tmp_path):
    repo = repository(tmp_path / 'repo', README_FILES)
    os.rename(str(repo / 'data' / 'roles' / 'db.yml'), str(repo / 'data' / 'db-role.yml'))
    os.symlink(os.path.join('..', 'db-role.yml'), str(repo / 'data' / 'roles' / 'db.yml'))
    git(repo, 'add', '-A')
    git(repo, 'commit', '-qm', 'the db role linked')
    edit(repo / 'data' / 'nodes' / 'db01.yml', 'Role: db', 'Role: db  # the database node')
    report = rsop_diff(str(repo), 'HEAD')
    assert report['summary']['hosts_recomputed'] == 1 and report['summary']['errors'] == 0
    assert report['groups'] == []


def test_a_host_that_cannot_be_merged_fails_the_command_line_by_default(readme, monkeypatch):
    write(readme, {'data/roles/web.yml': 'packages: [nginx\n'})
    monkeypatch.chdir(str(readme))
    assert main(['--base', 'HEAD', '--out', 'out']) == 1
    report = json.loads((readme / 'out' / 'rsop-diff.json').read_text())
    assert [error['host'] for error in report['errors']] == ['web01']
    assert main(['--base', 'HEAD', '--out', 'out', '--fail-if', '']) == 0


def test_duplicate_items_are_matched_one_by_one(tmp_path):
    repo = repository(tmp_path / 'repo', {
        'hier.yml': 'datadir: data\nhierarchy: ["nodes/%{NodeName}"]\nnodes: "nodes/*"\n',
        'data/nodes/n1.yml': 'NodeName: n1\nxs: [a, a, b]\n'})
    edit(repo / 'data' / 'nodes' / 'n1.yml', '[a, a, b]', '[a, b, a, a]')
    line = [('data/nodes/n1.yml', 2), ('data/nodes/n1.yml', 2)]      # the line at each ref
    assert changes_of(rsop_diff(str(repo), 'HEAD')) == {
        'n1': [('xs/3', 'added', None, 'a', line), ('xs', 'reordered', ['a', 'a', 'b'], ['a', 'b', 'a', 'a'], line)]}


def test_eyaml_values_compare_by_ciphertext_and_show_as_secrets(tmp_path):
    from ansible_collections.strata.hier.tests.unit.plugins.plugin_utils.test_eyaml_sources import encrypt, make_keys
    from ansible_collections.strata.hier.plugins.plugin_utils import eyaml
    cert = make_keys(tmp_path / 'keys')
    first, second = encrypt('Ey4ml-0ld', cert), encrypt('Ey4ml-N3w', cert)
    repo = repository(tmp_path / 'repo', {
        'hier.yml': 'datadir: data\nhierarchy: ["nodes/%{inventory_hostname}", common]\nnodes: "nodes/*"\n'
                    'secrets: {eyaml: {private_key: ../keys/private_key.pkcs7.pem, '
                    'public_key: ../keys/public_key.pkcs7.pem}}\n',
        'data/common.yml': 'Password: %s\nUser: app\n' % first, 'data/nodes/n1.yml': 'Role: web\n'})
    decrypted = eyaml.COUNTS['decrypted']
    assert changes_of(rsop_diff(str(repo), 'HEAD')) == {}
    edit(repo / 'data' / 'common.yml', first, second)
    report = rsop_diff(str(repo), 'HEAD')
    assert [change[:4] for change in changes_of(report)['n1']] == [('Password', 'changed', '(secret)', '(secret)')]
    for shown in (json.dumps(report), markdown(report)):
        assert 'Ey4ml-' not in shown and 'ENC[' not in shown
    assert eyaml.COUNTS['decrypted'] == decrypted       # the diff never decrypts


def test_what_reading_the_configuration_warns_about_is_in_the_report_with_its_ref(example):
    datum = example / 'dscworkshop' / 'Datum.yml'
    datum.write_text(datum.read_text() + 'default_lookup_option: hash\n')
    report = rsop_diff(str(example), 'HEAD', config='dscworkshop/Datum.yml', loader=vault_loader())
    warning, = [warning for warning in report['warnings'] if 'default_lookup_option' in warning]
    assert warning.startswith("dscworkshop/Datum.yml:86: key 'default_lookup_option' is not one Datum reads")
    assert warning.endswith('(%s)' % report['head'])        # not the base's: it reads no such key
    handler, = [warning for warning in report['warnings'] if 'not evaluated' in warning]
    assert handler.endswith('(HEAD, %s)' % report['head'])     # both refs warn alike: once
    assert not any(str(example) in warning for warning in report['warnings'])
