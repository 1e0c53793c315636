# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""eyaml oracle: the real ``eyaml`` gem against strata.hier's plugin_utils/eyaml.py, both ways.

Makes a fresh key pair with ``eyaml createkeys``, encrypts generated plain texts (ASCII, UTF-8, multi-line, empty,
long, trailing line breaks) with ``eyaml encrypt`` in string and block form, and checks that eyaml.py reads each
as the gem and Puppet's eyaml_lookup_key do (gem_decrypt.rb, the gem's own parser). Then the reverse: values
encrypted by cryptography's PKCS7EnvelopeBuilder (AES-256-CBC, as the gem does) must decrypt with the gem to the
same text. Exit 1 on any disagreement; without ``eyaml`` or ``ruby`` it says so and exits 0.

Run it with the Python of an ansible-core virtual environment (eyaml.py imports ansible), e.g.
``/work/devenv/core-2.19.14/bin/python tests/oracle/eyaml/eyaml_oracle.py``.
"""

from __future__ import annotations

import argparse
import base64
import importlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
COLLECTION = os.path.abspath(os.path.join(HERE, '..', '..', '..'))
GEM_DECRYPT = os.path.join(HERE, 'gem_decrypt.rb')
ALPHABET = 'abcXYZ019 .,;:-_/\\"\'%{}[]#&*!|>äöüß✓€漢字🙂\t'


def eyaml_module():
    """This checkout's plugin_utils/eyaml.py, imported as ansible_collections.strata.hier."""
    base = tempfile.mkdtemp(prefix='strata_eyaml_oracle_')
    os.makedirs(os.path.join(base, 'ansible_collections', 'strata'))
    os.symlink(COLLECTION, os.path.join(base, 'ansible_collections', 'strata', 'hier'))
    sys.path.insert(0, base)
    return importlib.import_module('ansible_collections.strata.hier.plugins.plugin_utils.eyaml')


def plain_texts(seed, count):
    """Generated texts, the awkward ones first."""
    fixed = ['', 'a', 'x' * 4096, 'line one\nline two', 'ends with a break\n', 'two breaks\n\n', '\n',
             ' leading and trailing spaces ', 'crlf\r\nline\r\n', 'pässwörd ✓', '%{not_interpolated}']
    rng = random.Random(seed)
    made = [''.join(rng.choice(ALPHABET + '\n') for index in range(rng.randint(1, 300)))
            for number in range(max(0, count - len(fixed)))]
    return fixed + made


def gem(args, keys, text=None):
    paths = ['--pkcs7-private-key=' + keys[0], '--pkcs7-public-key=' + keys[1]]
    return subprocess.run(['eyaml'] + args + paths, input=text, check=True, capture_output=True, text=True).stdout


def gem_values(texts, keys):
    """A data file's text: each plain text encrypted by the gem, in string form and in folded block form."""
    lines = []
    for number, text in enumerate(texts):
        string = gem(['encrypt', '--stdin', '-o', 'string'], keys, text).strip()
        block = [line.strip() for line in gem(['encrypt', '--stdin', '-o', 'block'], keys, text).strip().splitlines()]
        lines.append('v%03d_string: %s\n' % (number, string))
        lines.append('v%03d_block: >\n%s' % (number, ''.join('  %s\n' % line for line in block)))
    return ''.join(lines)


def gem_reading(path, keys):
    done = subprocess.run(['ruby', GEM_DECRYPT, path] + list(keys), check=True, capture_output=True, text=True)
    return {tuple(entry['path']): entry for entry in map(json.loads, done.stdout.splitlines())}


def check_gem_to_python(eyaml, folder, texts, keys):
    """Disagreements of eyaml.py with the gem on the gem's values."""
    import yaml
    path = os.path.join(folder, 'gem.yaml')
    with open(path, 'w', encoding='utf-8') as stream:
        stream.write(gem_values(texts, keys))
    with open(path, encoding='utf-8') as stream:
        data = eyaml.read_values(yaml.safe_load(stream), path, eyaml.EyamlKeys(folder), 'oracle')
    wrong = []
    for key, entry in gem_reading(path, keys).items():
        value = data[key[0]]
        number = int(key[0][1:4])
        mine = (value.keys.decrypt(value), value.decrypted())
        if mine != (texts[number], entry['puppet']) or entry['plain'] != texts[number]:
            wrong.append('%s: eyaml.py %r, gem %r, Puppet %r' % (key[0], mine, entry['plain'], entry['puppet']))
    return wrong, len(data)


def check_python_to_gem(folder, texts, keys):
    """Disagreements of the gem with the plain texts on values cryptography's PKCS7EnvelopeBuilder encrypted."""
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.ciphers import algorithms
    from cryptography.hazmat.primitives.serialization import pkcs7
    with open(keys[1], 'rb') as stream:
        certificate = x509.load_pem_x509_certificate(stream.read())
    path = os.path.join(folder, 'python.yaml')
    with open(path, 'w', encoding='utf-8') as stream:
        for number, text in enumerate(texts):
            der = pkcs7.PKCS7EnvelopeBuilder().set_data(text.encode('utf-8')).add_recipient(certificate) \
                .set_content_encryption_algorithm(algorithms.AES256) \
                .encrypt(serialization.Encoding.DER, [pkcs7.PKCS7Options.Binary])
            stream.write('v%03d: ENC[PKCS7,%s]\n' % (number, base64.b64encode(der).decode('ascii')))
    read = gem_reading(path, keys)
    return ['v%03d: gem %r, written %r' % (number, read[('v%03d' % number,)]['plain'], text)
            for number, text in enumerate(texts) if read[('v%03d' % number,)]['plain'] != text]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--seed', type=int, default=31)
    parser.add_argument('--values', type=int, default=40, help='plain texts, each in two forms (default 40)')
    args = parser.parse_args()
    if shutil.which('eyaml') is None or shutil.which('ruby') is None:
        print('eyaml is not installed (no `eyaml` or `ruby` on PATH): the eyaml oracle is skipped. See README.md.')
        return 0
    eyaml = eyaml_module()
    folder = tempfile.mkdtemp(prefix='strata_eyaml_')
    keys = (os.path.join(folder, eyaml.DEFAULT_PRIVATE_KEY), os.path.join(folder, eyaml.DEFAULT_PUBLIC_KEY))
    gem(['createkeys'], keys)
    texts = plain_texts(args.seed, args.values)
    wrong, count = check_gem_to_python(eyaml, folder, texts, keys)
    reverse = check_python_to_gem(folder, texts, keys)
    print('gem -> eyaml.py: %d values (%d texts, string and block form), %d disagreements'
          % (count, len(texts), len(wrong)))
    print('cryptography -> gem: %d values, %d disagreements' % (len(texts), len(reverse)))
    for line in wrong + reverse:
        print('  ' + line)
    shutil.rmtree(folder)
    return 1 if wrong or reverse else 0


if __name__ == '__main__':
    sys.exit(main())
