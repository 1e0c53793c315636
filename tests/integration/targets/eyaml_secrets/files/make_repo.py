# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes a repository with eyaml secrets into FOLDER: keys made as ``eyaml createkeys`` makes them, a hiera.yaml
with an eyaml level and a hier.yml with secrets.eyaml over the same values (string and block forms), each secret
SECRET with a suffix."""

import base64
import datetime
import os
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.ciphers import algorithms
from cryptography.hazmat.primitives.serialization import pkcs7
from cryptography.x509.oid import NameOID


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w', encoding='utf-8') as stream:
        stream.write(text)


def keys(folder):
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, '/')])
    start = datetime.datetime(2026, 1, 1)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(1).not_valid_before(start).not_valid_after(start + datetime.timedelta(days=3650))
            .sign(key, hashes.SHA256()))
    write(os.path.join(folder, 'keys', 'private_key.pkcs7.pem'), key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.NoEncryption()).decode())
    write(os.path.join(folder, 'keys', 'public_key.pkcs7.pem'), cert.public_bytes(serialization.Encoding.PEM).decode())
    return cert


def encrypt(text, cert):
    der = (pkcs7.PKCS7EnvelopeBuilder().set_data(text.encode('utf-8')).add_recipient(cert)
           .set_content_encryption_algorithm(algorithms.AES256).encrypt(serialization.Encoding.DER, []))
    return 'ENC[PKCS7,%s]' % base64.b64encode(der).decode()


def block(token, indent):
    return '>\n' + ''.join(' ' * indent + token[start:start + 60] + '\n' for start in range(0, len(token), 60))


def main(folder, secret):
    cert = keys(folder)
    common, node = encrypt(secret + '-common', cert), encrypt(secret + '-node', cert)
    write(os.path.join(folder, 'hiera.yaml'), 'version: 5\ndefaults: {datadir: data}\nhierarchy:\n'
          '  - name: Secrets\n    lookup_key: eyaml_lookup_key\n'
          '    paths: ["nodes/%{trusted.certname}.yaml", common.yaml]\n'
          '    options: {pkcs7_private_key: keys/private_key.pkcs7.pem, pkcs7_public_key: keys/public_key.pkcs7.pem}\n')
    write(os.path.join(folder, 'data', 'common.yaml'), 'lookup_options:\n  db: {merge: deep}\n'
          'plain: hello\ndb:\n  user: admin\n  password: %s\n' % common)
    write(os.path.join(folder, 'data', 'nodes', 'web1.yaml'), 'db:\n  password: %s' % block(node, 4))
    write(os.path.join(folder, 'data', 'nodes', 'web2.yaml'), 'plain: from-web2\n')
    write(os.path.join(folder, 'hier.yml'), 'datadir: data\nhierarchy: ["nodes/%{inventory_hostname}", common]\n'
          'nodes: "nodes/*"\nlookup_options: {db: deep}\nsecrets:\n  eyaml: {}\n'
          'constraints:\n  db/password: {vault: required, type: {type: string}}\n')


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
