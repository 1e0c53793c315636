# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Puppet's answers for merges of eyaml values: writes tests/unit/plugins/fixtures/eyaml/puppet_answers.json.

The environment, ``tests/unit/plugins/fixtures/eyaml/puppet_env/`` (hiera.yaml version 5, eyaml levels and plain
yaml levels, keys/), is written with the ``eyaml`` gem by ``--write-env`` (new keys and ciphertexts; one ciphertext
is copied to two levels on purpose); without it the committed environment is asked again. Each host and key is
asked with ``puppet lookup`` (no ``--merge``, and ``--merge`` first, unique, hash, deep as the CASES say), in a copy
of the environment and with that copy as the working directory: Puppet's eyaml_lookup_key reads relative key paths
relative to its working directory, strata.hier relative to the hiera.yaml's folder, and the two are the same here.
Without ``puppet`` or ``eyaml`` it says so and exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.normpath(os.path.join(HERE, '..', '..', 'unit', 'plugins', 'fixtures', 'eyaml'))
ENVIRONMENT = os.path.join(FIXTURES, 'puppet_env')
ANSWERS = os.path.join(FIXTURES, 'puppet_answers.json')

HOSTS = {
    'db01.example.com': {'role': 'db'},
    'web01.example.com': {'role': 'web'},
}
"""Each host: its node name (``trusted.certname``) and its custom facts; hostname, domain, fqdn and clientcert
derive from the name."""

CASES = {
    'db::config': ['first', 'hash', 'deep'],
    'app::tokens': ['first', 'unique', 'deep'],
    'app::settings': ['first', 'hash', 'deep'],
    'app::api_key': ['first', 'unique'],
    'app::plain': ['first', 'deep'],
}
"""Each key and the merges it is asked with (``first``: no ``--merge``; the data has no lookup_options)."""

HIERA_YAML = '''---
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
%s'''
EYAML_LEVEL = '''  - name: "%s secrets"
    lookup_key: eyaml_lookup_key
    path: "secrets/%s.eyaml"
    options:
      pkcs7_private_key: keys/private_key.pkcs7.pem
      pkcs7_public_key: keys/public_key.pkcs7.pem
'''
YAML_LEVEL = '''  - name: "%s data"
    path: "%s.yaml"
'''
LEVELS = [('Per-node', 'nodes/%{trusted.certname}'), ('Per-role', 'roles/%{facts.role}'), ('Common', 'common')]


def hiera_yaml():
    return HIERA_YAML % ''.join(EYAML_LEVEL % level + YAML_LEVEL % level for level in LEVELS)


def data_files(enc):
    """Path -> text of the data, ``enc(text)`` giving the gem's ciphertext (string form) and ``enc(text, indent)``
    its folded block form (``>``, lines indented by ``indent``); ``copied`` is one ciphertext written in two levels."""
    copied = enc('token shared by common and role db')
    return {
        'data/secrets/common.eyaml': (
            'db::config:\n  host: db.example.com\n  password: %s\n  users:\n    app: %s\n'
            'app::tokens:\n  - %s\n  - %s\n'
            'app::settings:\n  cache:\n    secret: %s\n  db:\n    password: %s\n'
            'app::api_key: %s\n'
            % (enc('common db password'), enc('common app user ✓'), copied, enc('common token'),
               enc('common cache secret', 6), enc('settings db password'), enc('common api key'))),
        'data/common.yaml': 'app::plain: {level: common, keep: 1}\napp::settings:\n  log: info\n',
        'data/secrets/roles/db.eyaml': (
            'db::config:\n  password: %s\n  users:\n    report: %s\n'
            'app::tokens:\n  - %s\n  - %s\n'
            'app::settings:\n  cache:\n    secret: %s\n    ttl: 60\n'
            % (enc('role db password', 4), enc('role report user'), copied, enc('role db token'),
               enc('role cache secret'))),
        'data/roles/db.yaml': 'db::config:\n  port: 5432\napp::plain: {level: role}\n',
        'data/roles/web.yaml': 'app::tokens:\n  - plain web token\n',
        'data/secrets/nodes/db01.example.com.eyaml': (
            'app::api_key: %s\ndb::config:\n  users:\n    app: %s\n'
            % (enc('db01 api key'), enc('db01 app user'))),
        'data/nodes/db01.example.com.yaml': 'db::config:\n  port: 5433\napp::tokens:\n  - plain db01 token\n',
        'data/nodes/web01.example.com.yaml': 'app::settings:\n  cache:\n    ttl: 5\n',
    }


def gem(args, keys, text=None):
    paths = ['--pkcs7-private-key=' + keys[0], '--pkcs7-public-key=' + keys[1]]
    return subprocess.run(['eyaml'] + args + paths, input=text, check=True, capture_output=True, text=True).stdout


def write_environment(folder):
    """A new environment: keys made by the gem, every value encrypted by it."""
    shutil.rmtree(folder, ignore_errors=True)
    keys = (os.path.join(folder, 'keys', 'private_key.pkcs7.pem'), os.path.join(folder, 'keys', 'public_key.pkcs7.pem'))
    gem(['createkeys'], keys)

    def enc(text, indent=0):
        if not indent:
            return gem(['encrypt', '--stdin', '-o', 'string'], keys, text).strip()
        lines = gem(['encrypt', '--stdin', '-o', 'block'], keys, text).strip().splitlines()
        return '>\n' + '\n'.join(' ' * indent + line.strip() for line in lines)

    files = dict(data_files(enc), **{'hiera.yaml': hiera_yaml()})
    for relative, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(folder, relative)), exist_ok=True)
        with open(os.path.join(folder, relative), 'w', encoding='utf-8') as stream:
            stream.write(text)


def facts(host):
    hostname, domain = host.split('.', 1)
    return dict(HOSTS[host], hostname=hostname, domain=domain, fqdn=host, clientcert=host)


def lookup(work, host, key, merge):
    """Puppet's answer: {"status": "found", "value": V} or {"status": "error", "message": M} or not_found."""
    with open(os.path.join(work, 'facts.json'), 'w', encoding='utf-8') as stream:
        json.dump(facts(host), stream)
    argv = ['puppet', 'lookup', '--confdir', os.path.join(work, 'conf'), '--codedir', os.path.join(work, 'code'),
            '--vardir', os.path.join(work, 'var'), '--environment', 'production', '--node', host,
            '--facts', os.path.join(work, 'facts.json'), '--render-as', 'json']
    argv += ['--merge', merge] if merge != 'first' else []
    done = subprocess.run(argv + [key], cwd=os.path.join(work, 'code', 'environments', 'production'),
                          capture_output=True, text=True, check=False)
    if done.returncode == 0:
        return {'status': 'found', 'value': json.loads(done.stdout)}
    message = re.sub(r'\x1b\[[0-9;]*m', '', done.stderr).strip()
    return {'status': 'error', 'message': message} if message else {'status': 'not_found'}


def ask(environment):
    """Every host's answer to every case, in a copy of the environment."""
    work = tempfile.mkdtemp(prefix='strata_eyaml_puppet_')
    os.makedirs(os.path.join(work, 'conf'))
    shutil.copytree(environment, os.path.join(work, 'code', 'environments', 'production'))
    cases = [{'host': host, 'key': key, 'merge': merge, 'answer': lookup(work, host, key, merge)}
             for host in sorted(HOSTS) for key, merges in CASES.items() for merge in merges]
    shutil.rmtree(work)
    return cases


def versions():
    puppet = subprocess.run(['puppet', '--version'], capture_output=True, text=True, check=False).stdout.strip()
    done = subprocess.run(['eyaml', 'version'], capture_output=True, text=True, check=False)
    return puppet, re.search(r'\d+\.\d+\.\d+', done.stdout + done.stderr).group(0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--write-env', action='store_true', help='write a new environment (keys, ciphertexts)')
    args = parser.parse_args()
    if shutil.which('puppet') is None or shutil.which('eyaml') is None:
        print('puppet or eyaml is not installed: the Puppet eyaml oracle is skipped. See README.md.')
        return 0
    if args.write_env or not os.path.exists(ENVIRONMENT):
        write_environment(ENVIRONMENT)
    puppet, hiera_eyaml = versions()
    record = {'puppet': puppet, 'hiera_eyaml': hiera_eyaml, 'environment': 'puppet_env',
              'hosts': {host: facts(host) for host in sorted(HOSTS)}, 'cases': ask(ENVIRONMENT)}
    with open(ANSWERS, 'w', encoding='utf-8') as stream:
        stream.write(json.dumps(record, indent=1, ensure_ascii=False) + '\n')
    statuses = [case['answer']['status'] for case in record['cases']]
    counts = ', '.join('%d %s' % (statuses.count(status), status) for status in sorted(set(statuses)))
    print('%d cases (%s) written to %s' % (len(statuses), counts, ANSWERS))
    return 0


if __name__ == '__main__':
    sys.exit(main())
