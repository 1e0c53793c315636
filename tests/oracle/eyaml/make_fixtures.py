# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The eyaml unit tests' fixed cases, made by the real ``eyaml`` gem (Debian's ``hiera-eyaml``).

Writes ``tests/unit/plugins/fixtures/eyaml/``: ``keys/`` and ``other_keys/`` (``eyaml createkeys``, kept when
present; ``--new-keys`` makes new ones), ``values.yaml`` (values encrypted with ``keys/`` by ``eyaml encrypt`` in
string form and in block form, folded and literal on one line, at the top, in a list and in a map),
``literal.yaml`` (tokens broken over the lines of a literal block: Puppet answers their ciphertext),
``wrong_key.yaml`` (values
encrypted with ``other_keys/``) and ``plaintexts.json``: for each encrypted string, what the gem decrypts
(``plain``) and what Puppet's ``eyaml_lookup_key`` answers (``puppet``: the text around the token kept, then
chomped), both read by ``gem_decrypt.rb`` with the gem's own parser. Without ``eyaml`` it says so and exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.normpath(os.path.join(HERE, '..', '..', 'unit', 'plugins', 'fixtures', 'eyaml'))
GEM_DECRYPT = os.path.join(HERE, 'gem_decrypt.rb')

PLAINTEXTS = {
    'ascii': 'correct horse battery staple',
    'utf8': 'pässwörd ✓',
    'multiline': 'line one\nline two\n  indented three',
    'multiline_newline': '-----BEGIN SECRET-----\nabc\n-----END SECRET-----\n',
    'empty': '',
    'long': ''.join('%04d ' % number for number in range(300)),
}
"""Each value's plain text; ``long`` is 1,500 bytes, ``multiline_newline`` ends with a newline (Puppet chomps)."""


def key_paths(folder):
    return ['--pkcs7-private-key=' + os.path.join(folder, 'private_key.pkcs7.pem'),
            '--pkcs7-public-key=' + os.path.join(folder, 'public_key.pkcs7.pem')]


def create_keys(folder, new):
    if os.path.exists(folder) and not new:
        return
    shutil.rmtree(folder, ignore_errors=True)
    subprocess.run(['eyaml', 'createkeys'] + key_paths(folder), check=True, capture_output=True)


def encrypt(text, form, folder):
    """The gem's ``ENC[PKCS7,...]`` of ``text``: one line (``string``) or the lines of its block form."""
    # --stdin, not -s: a text starting with '-' would be read as an option
    done = subprocess.run(['eyaml', 'encrypt', '--stdin', '-o', form] + key_paths(folder), check=True,
                          input=text, capture_output=True, text=True)
    lines = [line.strip() for line in done.stdout.strip().splitlines()]
    return lines


def block(indent, style, lines):
    """``style`` (``>`` or ``|``) and the block's lines indented under a key or list item."""
    return ' %s\n%s' % (style, ''.join(' ' * indent + line + '\n' for line in lines))


def values_text(folder):
    """values.yaml: every plain text in string and folded form, some in literal form, in a list and a map."""
    out = ['# Made by tests/oracle/eyaml/make_fixtures.py with the eyaml gem and keys/: regenerate, do not edit.\n',
           'plain: not encrypted\n']
    for name, text in PLAINTEXTS.items():
        out.append('%s_string: %s\n' % (name, encrypt(text, 'string', folder)[0]))
        out.append('%s_folded:%s' % (name, block(2, '>', encrypt(text, 'block', folder))))
    out.append('multiline_newline_one_line_literal:%s'     # this one it does, the block's line break kept
               % block(2, '|', encrypt(PLAINTEXTS['multiline_newline'], 'string', folder)))
    same = encrypt('the same ciphertext', 'string', folder)[0]
    out.append('same_string: %s\n' % same)
    out.append('same_folded:%s' % block(2, '>', [same[index:index + 60] for index in range(0, len(same), 60)]))
    out.append('in_list:\n  - plain item\n  -%s  - %s\n'
               % (block(4, '>', encrypt('list item', 'block', folder)), encrypt('list string', 'string', folder)[0]))
    out.append('in_map:\n  user: admin\n  password:%s  nested:\n    deeper: %s\n'
               % (block(4, '>', encrypt('map password', 'block', folder)),
                  encrypt('nested pässwörd', 'string', folder)[0]))
    return ''.join(out)


def literal_text(folder):
    """literal.yaml: tokens broken over the lines of a literal block, which Puppet answers as their ciphertext."""
    out = ['# Made by tests/oracle/eyaml/make_fixtures.py with the eyaml gem and keys/: regenerate, do not edit.\n',
           'plain: not encrypted\n']
    for name in ('ascii', 'multiline_newline'):
        out.append('%s_literal:%s' % (name, block(2, '|', encrypt(PLAINTEXTS[name], 'block', folder))))
    out.append('in_map:\n  user: admin\n  token:%s' % block(4, '|', encrypt('map token', 'block', folder)))
    return ''.join(out)


def wrong_key_text(folder):
    return ('# Made by tests/oracle/eyaml/make_fixtures.py with the eyaml gem and other_keys/.\n'
            'plain: not encrypted\nother_string: %s\nother_folded:%s'
            % (encrypt('for the other key pair', 'string', folder)[0],
               block(2, '>', encrypt('for the other key pair', 'block', folder))))


def gem_reading(name, folder):
    """What the gem (and Puppet's eyaml_lookup_key) reads in one data file, an entry per encrypted string."""
    keys = [os.path.join(folder, 'private_key.pkcs7.pem'), os.path.join(folder, 'public_key.pkcs7.pem')]
    done = subprocess.run(['ruby', GEM_DECRYPT, os.path.join(FIXTURES, name)] + keys, check=True,
                          capture_output=True, text=True)
    return [dict(json.loads(line), file=name) for line in done.stdout.splitlines()]


def gem_version():
    done = subprocess.run(['eyaml', 'version'], check=True, capture_output=True, text=True)
    return re.search(r'\d+\.\d+\.\d+', done.stdout + done.stderr).group(0)


def write(name, text):
    with open(os.path.join(FIXTURES, name), 'w', encoding='utf-8') as stream:
        stream.write(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--new-keys', action='store_true', help='replace keys/ and other_keys/')
    args = parser.parse_args()
    if shutil.which('eyaml') is None:
        print('eyaml is not installed (no `eyaml` on PATH): the eyaml fixtures are not made. See README.md.')
        return 0
    keys, other = os.path.join(FIXTURES, 'keys'), os.path.join(FIXTURES, 'other_keys')
    create_keys(keys, args.new_keys)
    create_keys(other, args.new_keys)
    write('values.yaml', values_text(keys))
    write('literal.yaml', literal_text(keys))
    write('wrong_key.yaml', wrong_key_text(other))
    record = {'gem': gem_version(), 'plaintexts': PLAINTEXTS,
              'values': gem_reading('values.yaml', keys) + gem_reading('literal.yaml', keys)
              + gem_reading('wrong_key.yaml', other)}
    write('plaintexts.json', json.dumps(record, indent=1, ensure_ascii=False) + '\n')
    print('%d encrypted values written to %s' % (len(record['values']), FIXTURES))
    return 0


if __name__ == '__main__':
    sys.exit(main())
