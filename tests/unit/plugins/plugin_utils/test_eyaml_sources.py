# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""eyaml values through the sources and the plugins (issue 31): a hiera.yaml eyaml level and a hier.yml's
secrets.eyaml answer the lookup decrypted, keep every report, cache and rsop file encrypted, and give the inventory
and vars plugins vault values of the run; the guard and the key errors name file and line."""

from __future__ import annotations

import datetime
import json
import os

import pytest

from ansible.errors import AnsibleError
from ansible.inventory.data import InventoryData
from ansible.parsing.dataloader import DataLoader
from ansible.plugins.loader import inventory_loader, lookup_loader, vars_loader
from ansible.template import Templar

from ansible_collections.strata.hier.plugins.filter.to_vaulted_yaml import to_vaulted_yaml
from ansible_collections.strata.hier.plugins.plugin_utils import eyaml
from ansible_collections.strata.hier.plugins.plugin_utils.cache_form import for_cache, from_cache
from ansible_collections.strata.hier.plugins.plugin_utils.compat import is_vault_value, vault_ciphertext
from ansible_collections.strata.hier.tests.unit.plugins.inventory.test_inventory_hier import write
from ansible_collections.strata.hier.tests.unit.plugins.vault_context import secrets_context

SECRETS = {'common': 'c0mmon-pässwörd ✓', 'node': 'n0de-secret', 'shared': 'shared-item', 'other': 'other-item'}


def make_keys(folder):
    """An eyaml key pair as ``eyaml createkeys`` writes it: an RSA key and a self-signed certificate, PEM."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import rsa
    from cryptography.x509.oid import NameOID
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, '/')])
    now = datetime.datetime(2026, 1, 1)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(1).not_valid_before(now).not_valid_after(now + datetime.timedelta(days=3650))
            .sign(key, hashes.SHA256()))
    os.makedirs(str(folder), exist_ok=True)
    write(folder / 'private_key.pkcs7.pem', key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.NoEncryption()).decode())
    write(folder / 'public_key.pkcs7.pem', cert.public_bytes(serialization.Encoding.PEM).decode())
    return cert


def encrypt(text, cert):
    """``ENC[PKCS7,...]`` of ``text`` as the eyaml gem makes it (AES-256-CBC content)."""
    import base64
    from cryptography.hazmat.primitives.serialization import Encoding, pkcs7
    from cryptography.hazmat.primitives.ciphers import algorithms
    der = (pkcs7.PKCS7EnvelopeBuilder().set_data(text.encode('utf-8')).add_recipient(cert)
           .set_content_encryption_algorithm(algorithms.AES256).encrypt(Encoding.DER, []))
    return 'ENC[PKCS7,%s]' % base64.b64encode(der).decode()


def block(ciphertext, indent):
    """The block form: the token folded over lines of 60 characters (``eyaml encrypt -o block``)."""
    lines = [ciphertext[start:start + 60] for start in range(0, len(ciphertext), 60)]
    return '>\n' + ''.join(' ' * indent + line + '\n' for line in lines)


HIERA = '''version: 5
defaults: {datadir: data}
hierarchy:
  - name: Secrets
    lookup_key: eyaml_lookup_key
    paths: ["nodes/%{trusted.certname}.yaml", common.yaml]
    options: {pkcs7_private_key: keys/private_key.pkcs7.pem, pkcs7_public_key: keys/public_key.pkcs7.pem}
  - {name: Plain, data_hash: yaml_data, path: plain.yaml}
'''


@pytest.fixture(autouse=True)
def run_context():
    """The vault secrets of a play (2.19 decrypts a vault value only within them): the run's secret joins them."""
    with secrets_context([]):
        yield


@pytest.fixture
def repo(tmp_path, monkeypatch):
    monkeypatch.delenv(eyaml.ENV_PRIVATE_KEY, raising=False)
    monkeypatch.delenv(eyaml.ENV_PUBLIC_KEY, raising=False)
    cert = make_keys(tmp_path / 'keys')
    values = {name: encrypt(text, cert) for name, text in SECRETS.items()}
    write(tmp_path / 'hiera.yaml', HIERA)
    write(tmp_path / 'data' / 'common.yaml', 'lookup_options:\n  db: {merge: deep}\n  items: {merge: unique}\n'
          'plain: hello\ndb:\n  user: admin\n  password: %s\nitems:\n  - %s\n  - %s\n'
          % (values['common'], values['shared'], values['other']))
    write(tmp_path / 'data' / 'nodes' / 'web1.yaml', 'db:\n  password: %sitems:\n  - %s\n'
          % (block(values['node'], 4), values['shared']))
    write(tmp_path / 'data' / 'plain.yaml', 'only_plain: 1\n')
    eyaml._PLAINTEXT.clear()    # pylint: disable=protected-access  # decryptions of this test only
    return tmp_path


HOST = {'inventory_hostname': 'web1'}


def lookup(repo, *terms, **options):
    loader = DataLoader()
    plugin = lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader))
    return plugin.run(list(terms), options.pop('variables', HOST), config=str(repo / 'hiera.yaml'), **options)


def test_the_lookup_answers_eyaml_values_decrypted_and_merged_by_ciphertext(repo):
    assert lookup(repo, 'db') == [{'user': 'admin', 'password': SECRETS['node']}]
    # the node's copy of the shared ciphertext is the common one: one item, as puppet lookup --merge unique
    assert lookup(repo, 'items') == [[SECRETS['shared'], SECRETS['other']]]
    assert lookup(repo, 'plain') == ['hello']


def test_each_ciphertext_is_decrypted_at_most_once(repo):
    before = eyaml.COUNTS['decrypted']
    for round_ in range(3):
        assert lookup(repo, 'db', 'items')[0]['password'] == SECRETS['node'], round_
    assert eyaml.COUNTS['decrypted'] - before == 3     # node password, shared, other


def test_reports_never_decrypt(repo):
    before = eyaml.COUNTS['decrypted']
    reports = [lookup(repo, 'db', explain=True), lookup(repo, 'db', provenance=True),
               lookup(repo, whole_node=True, provenance=True)]
    text = json.dumps(reports, default=str)
    assert eyaml.COUNTS['decrypted'] == before
    assert 'ENC[PKCS7,' in text
    assert not [secret for secret in SECRETS.values() if secret in text]


def test_a_returned_value_without_its_private_key_names_the_value_and_the_key_file(repo):
    os.rename(str(repo / 'keys' / 'private_key.pkcs7.pem'), str(repo / 'keys' / 'moved.pem'))
    assert lookup(repo, 'plain') == ['hello']           # plain values need no key
    with pytest.raises(AnsibleError) as error:
        lookup(repo, 'db')
    message = str(error.value)
    assert 'data/nodes/web1.yaml:3' in message and 'keys/private_key.pkcs7.pem' in message   # the value's line
    assert eyaml.ENV_PRIVATE_KEY in message


def test_the_keys_may_come_as_text_from_the_environment(repo, monkeypatch):
    for name, variable in (('private_key', eyaml.ENV_PRIVATE_KEY), ('public_key', eyaml.ENV_PUBLIC_KEY)):
        with open(str(repo / 'keys' / ('%s.pkcs7.pem' % name))) as stream:
            monkeypatch.setenv(variable, stream.read())
    os.rename(str(repo / 'keys'), str(repo / 'elsewhere'))
    assert lookup(repo, 'db') == [{'user': 'admin', 'password': SECRETS['node']}]


def test_a_value_for_another_key_pair_is_an_error_naming_file_and_line(repo, tmp_path_factory):
    other = encrypt('x', make_keys(tmp_path_factory.mktemp('other')))
    write(repo / 'data' / 'nodes' / 'web1.yaml', '# a comment\ndb:\n  password: %s\n' % other)
    with pytest.raises(AnsibleError) as error:
        lookup(repo, 'db')
    assert 'data/nodes/web1.yaml:3' in str(error.value) and 'another key pair' in str(error.value)


def test_ciphertext_in_a_level_without_eyaml_keys_is_an_error_naming_file_line_and_key(repo):
    write(repo / 'data' / 'plain.yaml', 'only_plain: 1\nnested:\n  token: ENC[PKCS7,MIIBeQYJKoZIhvcNAQcD]\n')
    with pytest.raises(AnsibleError) as error:
        lookup(repo, 'only_plain')
    message = str(error.value)
    assert 'data/plain.yaml:3' in message and "'nested/token'" in message and "level 'Plain'" in message


@pytest.mark.parametrize('value, says', [
    ('ENC[GPG,aGVsbG8=]', 'encryptor GPG'),
    ('"user: ENC[PKCS7,aGVsbG8=]"', 'within other text'),
])
def test_what_eyaml_cannot_read_is_an_error_naming_the_file_and_line(repo, value, says):
    write(repo / 'data' / 'common.yaml', 'plain: hello\nkey: %s\n' % value)
    with pytest.raises(AnsibleError) as error:
        lookup(repo, 'plain')
    assert 'data/common.yaml:2' in str(error.value) and says in str(error.value)


def parse_inventory(repo):
    write(repo / 'site.hier.yml', 'plugin: strata.hier.hier\nconfig: hiera.yaml\nnodes: data/nodes/*.yaml\n')
    inventory = InventoryData()
    inventory_loader.get('strata.hier.hier').parse(inventory, DataLoader(), str(repo / 'site.hier.yml'), cache=False)
    return inventory.get_host('web1').vars


def test_inventory_host_variables_hold_vault_values_of_the_run(repo):
    host = parse_inventory(repo)
    password = host['db']['password']
    assert is_vault_value(password) and host['hier_encrypted_keys'] == ['db', 'items']
    assert vault_ciphertext(password).startswith('ENC[PKCS7,')      # written out as the data file has it
    assert str(password) == SECRETS['node']                         # a task decrypts it with the run's secret
    assert [str(item) for item in host['items']] == [SECRETS['shared'], SECRETS['other']]  # unique, by ciphertext


def test_an_inventory_without_the_private_key_warns_and_the_value_cannot_be_used(repo, monkeypatch):
    os.remove(str(repo / 'keys' / 'private_key.pkcs7.pem'))
    warnings = []
    monkeypatch.setattr('ansible.utils.display.Display.warning', lambda self, message, *a, **k: warnings.append(message))
    host = parse_inventory(repo)
    assert [warning for warning in warnings if 'eyaml' in warning] == [   # once for the key pair, not per value
        warnings[0]] and 'data/nodes/web1.yaml:3' in warnings[0] and 'private_key.pkcs7.pem' in warnings[0]
    assert 'any other eyaml value of hiera.yaml level' in warnings[0]
    with pytest.raises(Exception):
        str(host['db']['password'])


def test_host_variables_are_written_and_cached_encrypted(repo):
    host = parse_inventory(repo)
    written = to_vaulted_yaml(host, keys=['db', 'items'])
    assert 'ENC[PKCS7,' in written and '!vault' not in written
    assert not [secret for secret in SECRETS.values() if secret in written]
    cached = json.dumps(for_cache({'db': eyaml.EyamlValue(_ciphertext(repo), _keys(repo), 'f')}))
    assert 'ENC[PKCS7,' in cached and SECRETS['common'] not in cached
    restored = from_cache(json.loads(cached))['db']
    assert isinstance(restored, eyaml.EyamlValue) and restored.decrypted() == SECRETS['common']


def _keys(repo):
    return eyaml.EyamlKeys(str(repo), 'keys/private_key.pkcs7.pem', 'keys/public_key.pkcs7.pem', 'test')


def _ciphertext(repo):
    with open(str(repo / 'data' / 'common.yaml')) as stream:
        return next(line.split(': ', 1)[1].strip() for line in stream if 'password:' in line)


def test_the_vars_plugin_gives_the_same_vault_values(tmp_path, monkeypatch):
    monkeypatch.delenv('STRATA_HIER_CONFIG', raising=False)
    cert = make_keys(tmp_path / 'keys')
    write(tmp_path / 'hier.yml', 'datadir: data\nhierarchy: ["Nodes/%{inventory_hostname}", Common]\n'
          'secrets:\n  eyaml: {private_key: keys/private_key.pkcs7.pem, public_key: keys/public_key.pkcs7.pem}\n')
    write(tmp_path / 'data' / 'Common.yml', 'Password: %s\nPlain: 1\n' % encrypt(SECRETS['common'], cert))
    data = InventoryData()
    data.add_host('web1')
    loader = DataLoader()
    loader.set_basedir(str(tmp_path))
    plugin = vars_loader.get('strata.hier.hier')
    plugin.set_options()
    host = plugin.get_vars(loader, str(tmp_path), [data.get_host('web1')])
    assert is_vault_value(host['Password']) and str(host['Password']) == SECRETS['common']
    assert host['hier_encrypted_keys'] == ['Password'] and host['Plain'] == 1


def hier_lookup(folder, *terms, **options):
    loader = DataLoader()
    plugin = lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader))
    return plugin.run(list(terms), {'Node': 'n1'}, config=str(folder / 'hier.yml'), **options)


def test_a_hier_yml_reads_eyaml_values_with_its_secrets(tmp_path):
    cert = make_keys(tmp_path / 'keys')
    write(tmp_path / 'hier.yml', 'hierarchy: ["Nodes/%{Node}", Common]\nsecrets:\n  eyaml: {}\n'
          'lookup_options: {Users: deep}\n')
    write(tmp_path / 'Common.yml', 'Users:\n  root: %s\n  admin: plain\n' % encrypt(SECRETS['common'], cert))
    write(tmp_path / 'Nodes' / 'n1.yml', 'Users:\n  app: %s' % block(encrypt(SECRETS['node'], cert), 4))
    assert hier_lookup(tmp_path, 'Users') == [{'root': SECRETS['common'], 'admin': 'plain', 'app': SECRETS['node']}]
    explained = json.dumps(hier_lookup(tmp_path, 'Users', explain=True), default=str)
    assert 'ENC[PKCS7,' in explained and SECRETS['node'] not in explained


def test_a_hier_yml_without_secrets_refuses_ciphertext(tmp_path):
    write(tmp_path / 'hier.yml', 'hierarchy: [Common]\n')
    write(tmp_path / 'Common.yml', 'A: 1\nToken: ENC[PKCS7,aGVsbG8=]\n')
    with pytest.raises(AnsibleError) as error:
        hier_lookup(tmp_path, 'A')
    assert 'Common.yml:2' in str(error.value) and "'Token'" in str(error.value)


@pytest.mark.parametrize('secrets, says', [
    ('secrets: {vault: {}}', 'secrets must be a map with the key eyaml'),
    ('secrets: {eyaml: {private: k}}', 'private_key and public_key'),
    ('secrets: {eyaml: {private_key: 3}}', 'secrets.eyaml.private_key must be a file name'),
])
def test_a_wrong_secrets_setting_names_its_line(tmp_path, secrets, says):
    write(tmp_path / 'hier.yml', 'hierarchy: [Common]\n%s\n' % secrets)
    write(tmp_path / 'Common.yml', 'A: 1\n')
    with pytest.raises(AnsibleError) as error:
        hier_lookup(tmp_path, 'A')
    assert 'hier.yml:2' in str(error.value) and says in str(error.value)


def test_a_thousand_values_decrypt_once_each_and_never_for_checks_or_whole_nodes(tmp_path):
    from ansible_collections.strata.hier.plugins.plugin_utils.source import open_source
    cert = make_keys(tmp_path / 'keys')
    write(tmp_path / 'hier.yml', 'hierarchy: ["Nodes/%{Node}", Common]\nsecrets: {eyaml: {}}\n'
          'lookup_options: {Tokens: Unique}\n'
          'constraints:\n  Tokens: {vault: required, type: {type: array, items: {type: string}}}\n')
    tokens = [encrypt('token-%d' % number, cert) for number in range(1000)]
    write(tmp_path / 'Common.yml', 'Tokens:\n' + ''.join('  - %s\n' % token for token in tokens))
    write(tmp_path / 'Nodes' / 'n1.yml', 'Tokens:\n  - %s\n' % tokens[0])     # a copy: one item
    before = eyaml.COUNTS['decrypted']
    view = open_source(str(tmp_path / 'hier.yml'), DataLoader()).for_host({'Node': 'n1'})
    assert view.check() == [] and len(view.whole()['Tokens'].value) == 1000
    assert eyaml.COUNTS['decrypted'] == before
    assert hier_lookup(tmp_path, 'Tokens') == [['token-%d' % number for number in range(1000)]]
    assert hier_lookup(tmp_path, 'Tokens') == [['token-%d' % number for number in range(1000)]]
    assert eyaml.COUNTS['decrypted'] - before == 1000


def test_an_error_names_the_line_of_its_own_value_among_values_of_one_length(repo):
    cert = make_keys(repo / 'keys2')
    values = [encrypt('same-length-%d' % number, cert) for number in range(3)]
    write(repo / 'data' / 'common.yaml', 'a: %s\nb: %s\nc: %s' % (values[0], values[1], block(values[2], 2)))
    assert values[0][:50] == values[1][:50]         # why a value is found whole, not by its start
    found = {name: eyaml.EyamlValue(value, _keys(repo), str(repo / 'data' / 'common.yaml')).position()
             for name, value in zip('abc', values)}
    assert [place.rsplit(':', 1)[1] for place in found.values()] == ['1', '2', '4']


FIXTURES = os.path.join(os.path.dirname(__file__), '..', 'fixtures', 'eyaml')
with open(os.path.join(FIXTURES, 'puppet_answers.json'), encoding='utf-8') as _stream:
    PUPPET = json.load(_stream)


@pytest.mark.parametrize('case', PUPPET['cases'], ids=lambda case: '%(host)s-%(key)s-%(merge)s' % case)
def test_the_lookup_answers_as_puppet_lookup_with_hiera_eyaml(case):
    """Puppet 7 with hiera-eyaml's backend, recorded by tests/oracle/eyaml/puppet_eyaml_oracle.py: eyaml levels
    beside yaml levels, maps holding eyaml values at two levels, a unique list with a ciphertext copied."""
    facts = PUPPET['hosts'][case['host']]
    variables = dict({'inventory_hostname': case['host']}, role=facts['role'])
    merge = None if case['merge'] == 'first' else case['merge']
    loader = DataLoader()
    plugin = lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader))
    answer = plugin.run([case['key']], variables, config=os.path.join(FIXTURES, 'puppet_env', 'hiera.yaml'),
                        **({'merge': merge} if merge else {}))
    assert case['answer']['status'] == 'found' and answer == [case['answer']['value']]


def test_an_eyaml_value_as_a_level_variable_is_refused_not_read_as_a_path(tmp_path):
    cert = make_keys(tmp_path / 'keys')
    write(tmp_path / 'hier.yml', 'hierarchy: ["Nodes/%{Node}", "Roles/%{Role}", Common]\nnodes: "Nodes/*"\n'
          'secrets: {eyaml: {}}\n')
    write(tmp_path / 'Nodes' / 'n1.yml', 'Role: %s\n' % encrypt('web', cert))
    write(tmp_path / 'Roles' / 'web.yml', 'Port: 80\n')
    write(tmp_path / 'Common.yml', 'Port: 1\n')
    inventory = InventoryData()
    write(tmp_path / 'site.hier.yml', 'plugin: strata.hier.hier\nconfig: hier.yml\nstrict: true\n')
    with pytest.raises(AnsibleError) as error:     # the ciphertext in a path would skip the level (Port: 1)
        inventory_loader.get('strata.hier.hier').parse(inventory, DataLoader(), str(tmp_path / 'site.hier.yml'),
                                                       cache=False)
    assert "variable 'Role' is (or holds) a vault value or an eyaml value" in str(error.value)
