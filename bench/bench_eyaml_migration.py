# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""eyaml to vault migration benchmark: ``strata.hier.eyaml_to_vault``'s work over 2,000 eyaml values.

The values are made as the eyaml gem makes them (PKCS7, RSA key transport, AES-256-CBC) with the unit tests' key pair
(tests/unit/plugins/fixtures/eyaml_migration/keys), 20 per file. Measured in one process, CPU time:
- decrypting every eyaml value (RSA-2048 private key operations);
- encrypting every plain text as a vault value (one PBKDF2 key derivation each: most of the cost);
- the whole run in check mode (read, decrypt, encrypt, rewrite the text in memory), then with ``verify`` (every
  vault value decrypted again: another key derivation each before ansible-core 2.19, which keeps the keys it derived),
  then applied (the files written).
Run with the collection importable (scripts/bench's copy); --values picks another size.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time

from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.serialization import pkcs7

from ansible.parsing.vault import VaultLib, VaultSecret

from ansible_collections.strata.hier.plugins.plugin_utils import eyaml
from ansible_collections.strata.hier.plugins.plugin_utils.eyaml import EyamlKeys, EyamlValue
from ansible_collections.strata.hier.plugins.plugin_utils.jobs.eyaml_migration import migrate

KEYS = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'unit', 'plugins', 'fixtures',
                    'eyaml_migration', 'keys')
SECRETS = [('default', VaultSecret(b'bench-password'))]


def generate(root: str, count: int) -> None:
    with open(os.path.join(KEYS, 'public_key.pkcs7.pem'), 'rb') as stream:
        certificate = x509.load_pem_x509_certificate(stream.read())
    builder = pkcs7.PKCS7EnvelopeBuilder().add_recipient(certificate)
    shutil.copytree(KEYS, os.path.join(root, 'keys'))
    os.makedirs(os.path.join(root, 'data'))
    for first in range(0, count, 20):
        lines = []
        for number in range(first, min(first + 20, count)):
            der = builder.set_data(b'plain-text-%d' % number).encrypt(serialization.Encoding.DER, [])
            lines.append('# value %d\nkey_%d: ENC[PKCS7,%s]\nplain_%d: kept\n'
                         % (number, number, __import__('base64').b64encode(der).decode(), number))
        with open(os.path.join(root, 'data', 'file_%04d.yaml' % first), 'w', encoding='utf-8') as stream:
            stream.write(''.join(lines))


def cpu(work):
    start = time.process_time()
    result = work()
    return time.process_time() - start, result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument('--values', type=int, default=2000)
    count = parser.parse_args().values
    root = tempfile.mkdtemp(prefix='bench-eyaml-')
    try:
        generate(root, count)
        options = dict(path=root, vault_id=None, verify=False, private_key=None, public_key=None)
        keys = EyamlKeys(root)
        values = [EyamlValue(value, keys, 'bench') for value in _ciphertexts(root)]
        took, plaintexts = cpu(lambda: [value.keys._decrypt(value) for value in values])  # pylint: disable=protected-access
        print('decrypt %d eyaml values: %.2f s CPU (%.2f ms each)' % (count, took, 1000 * took / count))
        vault = VaultLib(SECRETS)
        took, encrypted = cpu(lambda: [vault.encrypt(text, SECRETS[0][1]) for text in plaintexts])
        print('encrypt %d vault values: %.2f s CPU (%.2f ms each)' % (count, took, 1000 * took / count))
        took, _plain = cpu(lambda: [VaultLib(SECRETS).decrypt(text) for text in encrypted[:200]])
        print('decrypt 200 of them again: %.2f s CPU' % took)
        for label, verify, write in (('check mode', False, False), ('check mode, verify', True, False),
                                     ('applied, verify', True, True)):
            eyaml._PLAINTEXT.clear()     # pylint: disable=protected-access  # each run decrypts as a new process does
            wall = time.time()
            took, result = cpu(lambda: migrate(dict(options, verify=verify), SECRETS, write=write))
            assert len(result['rewritten']) == count and not result['problems']
            print('migration, %s: %.2f s CPU, %.2f s wall' % (label, took, time.time() - wall))
    finally:
        shutil.rmtree(root)


def _ciphertexts(root):
    import re
    for name in sorted(os.listdir(os.path.join(root, 'data'))):
        with open(os.path.join(root, 'data', name), encoding='utf-8') as stream:
            yield from re.findall(r'ENC\[PKCS7,[^\]]+\]', stream.read())


if __name__ == '__main__':
    main()
