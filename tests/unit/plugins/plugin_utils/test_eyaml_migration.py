# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The eyaml to vault migration (plugin_utils/jobs/eyaml_migration.py, the strata.hier.eyaml_to_vault module and
playbook): the text rewriting, a round trip of values made by the eyaml gem, the run's errors, no plaintext shown."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
import yaml

from ansible.parsing.dataloader import DataLoader
from ansible.parsing.vault import VaultLib, VaultSecret

from ansible_collections.strata.hier.plugins.plugin_utils.eyaml import EyamlError, EyamlKeys
from ansible_collections.strata.hier.plugins.plugin_utils.jobs.eyaml_migration import (
    Migration, data_files, migrate, rewritten, run_secrets, scan,
)
from ansible_collections.strata.hier.plugins.plugin_utils.compat import decrypted, is_vault_value
from ansible_collections.strata.hier.tests.unit.plugins.fresh_process import COLLECTIONS_ROOT
from ansible_collections.strata.hier.tests.unit.plugins.vault_context import secrets_context

FIXTURE = os.path.join(os.path.dirname(__file__), '..', 'fixtures', 'eyaml_migration')
"""A folder seeded with the eyaml gem (``eyaml createkeys``, ``eyaml encrypt -o string|block``): keys/ and data/."""
PLAINTEXTS = {
    ('data/common.yaml', 'db_password'): 'Seeded-Plain-Secret-1',
    ('data/common.yaml', 'api_token'): 'Seeded-Quoted-Secret-2',
    ('data/common.yaml', 'smtp_password'): 'Seeded-Single-Secret-3',
    ('data/common.yaml', 'folded_secret'): 'Seeded-Folded-Secret-4',
    ('data/common.yaml', 'literal_secret'): 'Seeded-Literal-Secret-5\nsecond line \u00fcn\u00efcode',
    ('data/nodes/db01.example.com.yaml', 'crlf_secret'): 'Seeded-Crlf-Secret-9',
    ('data/roles/web.yaml', 'web/users/0/password'): 'Seeded-Nested-Secret-7',
    ('data/roles/web.yaml', 'web/users/1'): 'Seeded-List-Secret-6',
    ('data/roles/web.yaml', 'web/settings/secret'): 'Seeded-Anchor-Secret-8',
    ('data/roles/web.yaml', 'web/flow/token'): 'Seeded-Flow-Secret-10',
}
LINES = ['data/common.yaml:7 db_password', 'data/common.yaml:8 api_token', 'data/common.yaml:9 smtp_password',
         'data/common.yaml:11 folded_secret', 'data/common.yaml:23 literal_secret',
         'data/nodes/db01.example.com.yaml:1 crlf_secret', 'data/roles/web.yaml:4 web/users/0/password',
         'data/roles/web.yaml:5 web/users/1', 'data/roles/web.yaml:7 web/settings/secret',
         'data/roles/web.yaml:11 web/flow/token']
PASSWORD = b'migration-password'
SECRETS = [('default', VaultSecret(PASSWORD))]
TOKEN = 'ENC[PKCS7,QUJDREVG]'
VAULT = '$ANSIBLE_VAULT;1.1;AES256\n6161\n6262\n'


def options(root, **given):
    return dict(dict(path=str(root), vault_id=None, verify=False, private_key=None, public_key=None), **given)


CRLF_FILE = 'data/nodes/db01.example.com.yaml'
"""A file of the seeded repository with CRLF line ends (kept with LF in the collection: its sanity test wants LF)."""


def seeded(tmp_path):
    root = tmp_path / 'repo'
    shutil.copytree(FIXTURE, str(root))
    crlf = root / CRLF_FILE
    crlf.write_bytes(crlf.read_bytes().replace(b'\n', b'\r\n'))
    return root


def contents(root):
    return {name: (root / name).read_bytes() for name in data_files(str(root))}


def fake_rewrite(text):
    """The text rewritten with every value's vault text VAULT (no key, no secret: the layout alone)."""
    spots, problems = scan(text, 'f.yaml')
    assert not problems
    return rewritten(text, spots, [VAULT] * len(spots))


def vault_block(indent):
    return ''.join('\n%s%s' % (' ' * indent, line) for line in VAULT.splitlines())


@pytest.mark.parametrize('text, expected', [
    ('a: %s\n' % TOKEN, 'a: !vault |%s\n' % vault_block(2)),
    ('a: %s   # the db\nb: 1\n' % TOKEN, 'a: !vault |   # the db%s\nb: 1\n' % vault_block(2)),
    ('a: "%s"\n' % TOKEN, 'a: !vault |%s\n' % vault_block(2)),
    ("a: '%s'\n" % TOKEN, 'a: !vault |%s\n' % vault_block(2)),
    ('a: >  # folded\n    ENC[PKCS7,QUJD\n    REVG]\n\n\nb: 1\n', 'a: !vault |  # folded%s\n\n\nb: 1\n' % vault_block(2)),
    ('a: |-\n    ENC[PKCS7,QUJDREVG]\nb: 1\n', 'a: !vault |%s\nb: 1\n' % vault_block(2)),
    ('l:\n  - x   # one\n  - %s\n  - y\n' % TOKEN, 'l:\n  - x   # one\n  - !vault |%s\n  - y\n' % vault_block(4)),
    ('l:\n- %s\n' % TOKEN, 'l:\n- !vault |%s\n' % vault_block(2)),
    ('a:\n  b:\n    - c: %s\n' % TOKEN, 'a:\n  b:\n    - c: !vault |%s\n' % vault_block(8)),
    ('a:\n  %s\nb: 1\n' % TOKEN, 'a:\n  !vault |%s\nb: 1\n' % vault_block(2)),
    ('a: &pw %s\nb: *pw\n' % TOKEN, 'a: &pw !vault |%s\nb: *pw\n' % vault_block(2)),
    ('a: !!str %s\n' % TOKEN, 'a: !vault |%s\n' % vault_block(2)),
    ('a: {b: "%s", c: 1}\n' % TOKEN, 'a: {b: !vault "$ANSIBLE_VAULT;1.1;AES256\\n6161\\n6262", c: 1}\n'),
    ('a: ["%s"]\n' % TOKEN, 'a: [!vault "$ANSIBLE_VAULT;1.1;AES256\\n6161\\n6262"]\n'),
    ('a: %s\r\n# c\r\nb: 1\r\n' % TOKEN, 'a: !vault |%s\r\n# c\r\nb: 1\r\n' % vault_block(2).replace('\n', '\r\n')),
    ('a: %s' % TOKEN, 'a: !vault |%s' % vault_block(2)),
    ('---\na: %s\n---\nb: %s\n' % (TOKEN, TOKEN), '---\na: !vault |%s\n---\nb: !vault |%s\n' % ((vault_block(2),) * 2)),
], ids=['plain', 'comment', 'double', 'single', 'folded', 'literal', 'list', 'indentless-list', 'nested', 'next-line',
        'anchor', 'tag', 'flow-map', 'flow-list', 'crlf', 'no-final-newline', 'documents'])
def test_each_layout_is_rewritten_keeping_every_other_byte(text, expected):
    assert fake_rewrite(text) == expected
    assert [vault.strip() for vault in vault_texts(expected)] == [VAULT.strip()] * text.count('ENC[')


def test_a_token_broken_over_the_lines_of_a_literal_block_is_a_problem_not_rewritten():
    spots, problems = scan('a: 1\nb: |-\n    ENC[PKCS7,QUJD\n    REVG]\n', 'f.yaml')
    assert spots == [] and len(problems) == 1
    assert problems[0].startswith('f.yaml:2 b: ') and 'literal block' in problems[0]


def vault_texts(text):
    """The text of each ``!vault`` value of a YAML text, in the order written."""
    found = []
    loader = type('VaultText', (yaml.SafeLoader,), {})
    loader.add_constructor('!vault', lambda self, node: found.append(self.construct_scalar(node)))
    list(yaml.load_all(text, Loader=loader))
    return found


def test_a_rewritten_value_reads_as_the_vault_text():
    loader = type('VaultText', (yaml.SafeLoader,), {})
    loader.add_constructor('!vault', lambda self, node: ('vault', self.construct_scalar(node)))
    text = ('top:\n  - name: x\n    pw: &a %s  # c\n  - %s\nflow: {k: "%s"}\nfolded: >\n  ENC[PKCS7,\n  QUJDREVG]\n'
            'alias: *a\nplain: kept\n' % (TOKEN, TOKEN, TOKEN))
    vault = ('vault', VAULT)        # a literal block keeps its last line break; Ansible reads both the same
    assert yaml.load(fake_rewrite(text), Loader=loader) == {
        'top': [{'name': 'x', 'pw': vault}, vault], 'flow': {'k': ('vault', VAULT.strip())}, 'folded': vault,
        'alias': vault,
        'plain': 'kept'}


def test_a_file_without_eyaml_is_kept_byte_for_byte():
    text = '# c\na: 1   # x\nb: "ENC is not a token"\nc: &x [1, 2]\nd: *x\n'
    assert scan(text, 'f.yaml') == ([], [])
    assert fake_rewrite(text) == text


def test_values_no_level_reads_are_named_by_file_line_and_key_and_not_rewritten():
    text = 'a:\n  b: "prefix ENC[PKCS7,QUJD] suffix"\nc: ENC[GPG,QUJD]\nd: %s\n' % TOKEN
    spots, problems = scan(text, 'data/x.yaml')
    assert [spot.line for spot in spots] == [4]
    assert problems == [
        'data/x.yaml:2 a/b: the value holds eyaml ciphertext within other text; only a whole value can be an eyaml '
        'value; not rewritten',
        'data/x.yaml:3 c: the value is encrypted with the eyaml encryptor GPG; only PKCS7 is supported; not rewritten']


def test_a_file_that_is_not_yaml_is_named_by_file_and_line_without_its_text():
    spots, problems = scan('a: 1\nb: [Seeded-Broken-Secret\nc: 2\n', 'data/x.yaml')
    assert spots == [] and len(problems) == 1
    assert problems[0].startswith('data/x.yaml:3: not valid YAML (') and 'Seeded' not in problems[0]


def test_data_files_skip_hidden_folders_links_and_other_files(tmp_path):
    for name in ('a.yaml', 'b.yml', 'c.json', 'sub/d.yaml', '.git/e.yaml', 'sub/.hidden/f.yml'):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text('x: 1\n')
    outside = tmp_path.parent / 'outside'
    outside.mkdir()
    (outside / 'g.yaml').write_text('x: 1\n')
    os.symlink(str(outside), str(tmp_path / 'linked'))
    os.symlink(str(tmp_path / 'a.yaml'), str(tmp_path / 'link.yaml'))
    assert data_files(str(tmp_path)) == ['a.yaml', 'b.yml', 'sub/d.yaml']


def loaded(path):
    """A file as a play reads it, vault values decrypted."""
    loader = DataLoader()
    loader.set_vault_secrets(SECRETS)
    with secrets_context(SECRETS):
        return plain(loader.load_from_file(str(path)))


def plain(value):
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    return str(decrypted(value)) if is_vault_value(value) else value


def with_plaintexts(data, file, path=()):
    """The original data with each eyaml value replaced by its seeded plain text."""
    if isinstance(data, dict):
        return {key: with_plaintexts(item, file, path + (key,)) for key, item in data.items()}
    if isinstance(data, list):
        return [with_plaintexts(item, file, path + (str(index),)) for index, item in enumerate(data)]
    shown = '/'.join(path)
    if (file, shown) in PLAINTEXTS:
        return PLAINTEXTS[file, shown]
    aliased = shown in ('web/again', 'web/copy/secret')     # aliases of the anchored value
    return PLAINTEXTS[file, 'web/settings/secret'] if aliased else data


def test_values_made_by_the_eyaml_gem_round_trip_as_vault_values(tmp_path):
    root = seeded(tmp_path)
    before = contents(root)
    result = migrate(options(root, verify=True), SECRETS, write=True)
    assert result['applied'] and result['changed'] and not result.get('failed')
    assert result['report'][:len(LINES)] == LINES
    assert result['files'] == [{'file': 'data/common.yaml', 'count': 5},
                               {'file': 'data/nodes/db01.example.com.yaml', 'count': 1},
                               {'file': 'data/roles/web.yaml', 'count': 4}]
    after = contents(root)
    assert after['data/nodes/web01.example.com.yaml'] == before['data/nodes/web01.example.com.yaml']
    crlf = after['data/nodes/db01.example.com.yaml']
    assert crlf.count(b'\r\n') == crlf.count(b'\n') > 3
    for file in ('data/common.yaml', 'data/roles/web.yaml', 'data/nodes/db01.example.com.yaml'):
        original = yaml.safe_load(before[file].decode('utf-8'))
        assert loaded(root / file) == with_plaintexts(original, file)
        assert b'ENC[' not in after[file] and b'Seeded' not in after[file]
    again = migrate(options(root, verify=True), SECRETS, write=True)
    assert (again['changed'], again['applied'], again['rewritten'], again['files']) == (False, False, [], [])
    assert contents(root) == after


def test_check_mode_writes_nothing(tmp_path):
    root = seeded(tmp_path)
    before = contents(root)
    stamps = {name: os.stat(str(root / name)).st_mtime_ns for name in before}
    result = migrate(options(root, verify=True), SECRETS, write=False)
    assert result['changed'] and not result['applied'] and len(result['rewritten']) == 10
    assert 'nothing written' in result['msg']
    assert contents(root) == before
    assert {name: os.stat(str(root / name)).st_mtime_ns for name in before} == stamps
    assert sorted(os.listdir(str(root / 'data'))) == ['common.yaml', 'nodes', 'roles']


def test_the_file_mode_is_kept(tmp_path):
    root = seeded(tmp_path)
    os.chmod(str(root / 'data' / 'common.yaml'), 0o640)
    migrate(options(root), SECRETS, write=True)
    assert os.stat(str(root / 'data' / 'common.yaml')).st_mode & 0o777 == 0o640


def test_verify_catches_a_vault_text_that_does_not_decrypt_to_the_eyaml_value(tmp_path):
    root = seeded(tmp_path)
    vault = VaultLib(SECRETS)

    def tampered(text):     # one value's vault text made from another plain text
        return vault.encrypt(text + ('x' if text == 'Seeded-Anchor-Secret-8' else ''), SECRETS[0][1]).decode()

    keys = EyamlKeys(str(root))
    migration = Migration(str(root), keys, tampered, lambda text: vault.decrypt(text).decode()).plan()
    assert migration.problems == [
        "data/roles/web.yaml:7 web/settings/secret: verify: the vault value does not decrypt to the eyaml value's "
        "plain text",
        'data/roles/web.yaml: verify: the rewritten data differs from the original at web/copy/secret',
        'data/roles/web.yaml: verify: the rewritten data differs from the original at web/again']
    unverified = Migration(str(root), keys, tampered).plan()
    assert unverified.problems == []
    before = contents(root)
    with pytest.raises(EyamlError, match='nothing written'):
        migration.write()
    assert contents(root) == before


def test_a_value_that_cannot_be_migrated_fails_the_run_and_nothing_is_written(tmp_path):
    root = seeded(tmp_path)
    (root / 'data' / 'roles' / 'db.yaml').write_text('db:\n  pw: "x ENC[PKCS7,QUJD]"\n')
    before = contents(root)
    result = migrate(options(root), SECRETS, write=True)
    assert result['failed'] and not result['applied'] and not result['changed']
    assert result['problems'] == ['data/roles/db.yaml:2 db/pw: the value holds eyaml ciphertext within other text; '
                                  'only a whole value can be an eyaml value; not rewritten']
    assert 'data/roles/db.yaml:2 db/pw' in result['msg']
    assert contents(root) == before


def test_the_vault_id_is_chosen_as_encrypt_string_chooses_it(tmp_path):
    root = seeded(tmp_path)
    two = [('dev', VaultSecret(b'dev-password')), ('prod', VaultSecret(PASSWORD))]
    with pytest.raises(EyamlError, match='no vault secret is loaded'):
        migrate(options(root), [], write=False)
    with pytest.raises(EyamlError, match='the vault ids dev, prod are loaded: give vault_id='):
        migrate(options(root), two, write=False)
    with pytest.raises(EyamlError, match=r'vault_id=qa is not loaded for this run \(loaded: dev, prod\)'):
        migrate(options(root, vault_id='qa'), two, write=False)
    assert migrate(options(root, vault_id='prod'), two, write=True)['vault_id'] == 'prod'
    text = (root / 'data' / 'common.yaml').read_text()
    assert text.count('$ANSIBLE_VAULT;1.2;AES256;prod') == 5


def test_keys_are_relative_to_the_path_or_given_as_text(tmp_path, monkeypatch):
    root = seeded(tmp_path)
    shutil.move(str(root / 'keys'), str(tmp_path / 'elsewhere'))
    with pytest.raises(EyamlError) as raised:
        migrate(options(root), SECRETS, write=True)
    assert 'data/common.yaml:7: decrypting the eyaml value needs the key %s' % (root / 'keys' / 'private_key.pkcs7.pem') \
        in str(raised.value)
    result = migrate(options(root, private_key='../elsewhere/private_key.pkcs7.pem',
                             public_key='../elsewhere/public_key.pkcs7.pem'), SECRETS, write=False)
    assert len(result['rewritten']) == 10
    monkeypatch.setenv('STRATA_HIER_EYAML_PRIVATE_KEY', (tmp_path / 'elsewhere' / 'private_key.pkcs7.pem').read_text())
    monkeypatch.setenv('STRATA_HIER_EYAML_PUBLIC_KEY', (tmp_path / 'elsewhere' / 'public_key.pkcs7.pem').read_text())
    assert migrate(options(root, verify=True), SECRETS, write=True)['applied']


def playbook(cwd, *arguments):
    # ansible-playbook of the ansible-core under test (the venv of ansible-test units may have no script of it)
    environment = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=COLLECTIONS_ROOT, ANSIBLE_NOCOLOR='true',
                       ANSIBLE_INVENTORY_ENABLED='host_list', PYTHONPATH=os.pathsep.join(path for path in sys.path if path))
    command = [sys.executable, '-m', 'ansible.cli.playbook', '-i', 'localhost,', 'strata.hier.eyaml_to_vault', '-vvv',
               '--vault-id', 'prod@vault-password.txt'] + list(arguments)
    run = subprocess.run(command, cwd=str(cwd), env=environment, capture_output=True, text=True, check=False)
    return run.returncode, run.stdout + run.stderr


def test_the_playbook_migrates_in_check_mode_by_default_and_never_prints_a_plaintext(tmp_path):
    root = seeded(tmp_path)
    (tmp_path / 'vault-password.txt').write_bytes(PASSWORD)
    before = contents(root)
    outputs = []
    code, output = playbook(tmp_path, '-e', 'path=repo', '-e', 'verify=true')
    outputs.append(output)
    assert code == 0 and 'data/roles/web.yaml:7 web/settings/secret' in output, output
    assert 'nothing written' in output and contents(root) == before
    code, output = playbook(tmp_path, '-e', 'path=repo', '-e', 'apply=true', '--check')
    outputs.append(output)
    assert code == 0 and contents(root) == before, output
    code, output = playbook(tmp_path, '-e', 'path=repo', '-e', 'apply=true', '-e', 'verify=true')
    outputs.append(output)
    assert code == 0 and '10 eyaml values in 3 files rewritten as vault values (vault id prod), verified' in output, \
        output
    assert loaded(root / 'data' / 'roles' / 'web.yaml')['web']['again'] == 'Seeded-Anchor-Secret-8'
    code, output = playbook(tmp_path, '-e', 'path=repo', '-e', 'apply=true')
    outputs.append(output)
    assert code == 0 and 'no eyaml value in 4 files' in output and 'changed=0' in output, output
    (root / 'data' / 'bad.yaml').write_text('x: ENC[GPG,QUJD]\n')
    code, output = playbook(tmp_path, '-e', 'path=repo')
    outputs.append(output)
    assert code == 2 and 'data/bad.yaml:1 x: the value is encrypted with the eyaml encryptor GPG' in output, output
    everything = '\n'.join(outputs)
    for secret in PLAINTEXTS.values():
        assert secret.split('\n')[0] not in everything
    assert 'Seeded-' not in everything and '\u00fcn\u00efcode' not in everything


def test_verify_compares_vault_values_already_there_by_their_text(tmp_path):
    root = seeded(tmp_path)
    secret = VaultSecret(b'not-loaded')
    other = VaultLib([('ops', secret)]).encrypt('Seeded-Other-Secret', secret, vault_id='ops').decode()
    common = root / 'data' / 'common.yaml'
    indented = ''.join('  %s\n' % line for line in other.splitlines())
    common.write_text(common.read_text() + 'ops_token: !vault |\n' + indented)
    result = migrate(options(root, verify=True), SECRETS, write=True)
    assert result['applied'] and not result['problems']
    assert common.read_text().count('$ANSIBLE_VAULT;1.2;AES256;ops') == 1


def test_only_files_holding_eyaml_are_parsed_and_one_that_is_not_yaml_stops_the_run(tmp_path):
    root = seeded(tmp_path)
    (root / 'templates').mkdir()
    (root / 'templates' / 'motd.yml').write_text('motd: {{ banner }\n  - [\n')
    assert migrate(options(root), SECRETS, write=False)['problems'] == []
    (root / 'data' / 'broken.yaml').write_text('a: ENC[PKCS7,QUJD]\nb: [x\n')
    before = contents(root)
    result = migrate(options(root), SECRETS, write=True)
    assert result['failed'] and result['problems'] == ['data/broken.yaml:3: not valid YAML '
                                                       "(expected ',' or ']', but got '<stream end>'); not rewritten"]
    assert contents(root) == before


def test_the_run_s_secrets_are_those_ansible_loaded():
    loader = DataLoader()
    loader.set_vault_secrets(SECRETS)
    with secrets_context(SECRETS):
        assert run_secrets(loader) == SECRETS
