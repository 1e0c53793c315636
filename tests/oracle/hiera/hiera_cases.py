# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Hand-written Hiera 5 questions for hiera_oracle.py: one small repository per behaviour, each asked the
questions that pin the behaviour down (see FINDINGS.md for what Puppet answered).

A repository is {'files': {path relative to the environment directory: text}, 'facts': {...}, 'node': name};
a case is {'id', 'repository', 'key', 'features', and optionally 'merge', 'knockout_prefix',
'sort_merged_arrays', 'merge_hash_arrays', 'explain'} (README.md describes the format).
"""

from __future__ import annotations

import copy
import textwrap
from typing import Any, Dict, List, Optional, Tuple

NODE = 'web01.example.com'

# Facts chosen to map onto Ansible: os.* and networking-like facts onto ansible_facts, the custom facts
# (role, datacenter, tier, apps, ...) onto host vars, the node name onto inventory_hostname.
FACTS: Dict[str, Any] = {
    'hostname': 'web01',
    'domain': 'example.com',
    'fqdn': NODE,
    'clientcert': NODE,
    'os': {'family': 'Debian', 'name': 'Ubuntu', 'release': {'major': '22', 'full': '22.04'}},
    'role': 'web',
    'datacenter': 'dc1',
    'tier': 'prod',
    'apps': ['nginx', 'php'],
    'port': 8080,
    'virtual': False,
    'owner': '',
    'labels': {'team': 'ops', 'cost': 'c1'},
}

STANDARD_HIERA = '''\
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: "Per-node data"
    path: "nodes/%{trusted.certname}.yaml"
  - name: "Per-role data"
    path: "roles/%{facts.role}.yaml"
  - name: "Per-OS family"
    path: "os/%{facts.os.family}.yaml"
  - name: "Common data"
    path: "common.yaml"
'''
LEVEL_FILES = {'node': 'data/nodes/%s.yaml' % NODE, 'role': 'data/roles/web.yaml',
               'os': 'data/os/Debian.yaml', 'common': 'data/common.yaml'}


def facts(drop: Tuple[str, ...] = (), **changes: Any) -> Dict[str, Any]:
    """The standard facts with some changed or dropped."""
    result = copy.deepcopy(FACTS)
    result.update(changes)
    for name in drop:
        result.pop(name, None)
    return result


def text(block: str) -> str:
    return textwrap.dedent(block).lstrip('\n')


class Book:
    """Collects repositories and the questions asked of them."""

    def __init__(self) -> None:
        self.repositories: Dict[str, dict] = {}
        self.cases: List[dict] = []

    def repo(self, name: str, files: Dict[str, str], fact_values: Optional[Dict[str, Any]] = None,
             node: str = NODE) -> str:
        name = 'hand.' + name
        assert name not in self.repositories, name
        self.repositories[name] = {'files': {path: text(body) for path, body in files.items()},
                                   'facts': fact_values if fact_values is not None else facts(), 'node': node}
        return name

    def layered(self, name: str, levels: Dict[str, str], hiera: str = STANDARD_HIERA,
                fact_values: Optional[Dict[str, Any]] = None) -> str:
        """A repository with the standard four-level hiera.yaml; levels maps node/role/os/common to data."""
        files = {'hiera.yaml': hiera}
        files.update({LEVEL_FILES[level]: body for level, body in levels.items()})
        return self.repo(name, files, fact_values)

    def ask(self, repository: str, case_id: str, key: str, features: List[str], merge: Optional[str] = None,
            knockout_prefix: Optional[str] = None, sort: bool = False, hash_arrays: bool = False,
            explain: bool = False) -> None:
        case: Dict[str, Any] = {'id': 'hand.' + case_id, 'repository': repository, 'key': key,
                                'features': features}
        if merge:
            case['merge'] = merge
        if knockout_prefix is not None:
            case['knockout_prefix'] = knockout_prefix
        if sort:
            case['sort_merged_arrays'] = True
        if hash_arrays:
            case['merge_hash_arrays'] = True
        if explain:
            case['explain'] = True
        assert all(other['id'] != case['id'] for other in self.cases), case['id']
        self.cases.append(case)


# --- hiera.yaml: defaults, levels, locations ------------------------------------------------------------
def config_cases(book: Book) -> None:
    feature = ['config:defaults']
    repo = book.repo('defaults-datadir', {
        'hiera.yaml': '''
            version: 5
            defaults:
              datadir: hieradata
              data_hash: yaml_data
            hierarchy:
              - name: common
                path: common.yaml
            ''',
        'hieradata/common.yaml': 'where: hieradata\n',
        'data/common.yaml': 'where: data\nonly_in_data: 1\n'})
    book.ask(repo, 'defaults.datadir', 'where', feature)
    book.ask(repo, 'defaults.datadir-not-data', 'only_in_data', feature)

    repo = book.repo('defaults-absent', {
        'hiera.yaml': '''
            version: 5
            hierarchy:
              - name: common
                path: common.yaml
            ''',
        'data/common.yaml': 'where: data\n'})
    book.ask(repo, 'defaults.absent', 'where', feature, explain=True)

    repo = book.repo('defaults-json', {
        'hiera.yaml': '''
            version: 5
            defaults:
              data_hash: json_data
            hierarchy:
              - name: common
                path: common.json
              - name: yaml level
                path: extra.yaml
                data_hash: yaml_data
            ''',
        'data/common.json': '{"where": "json", "n": null, "list": [1, "2", 3.5, true]}\n',
        'data/extra.yaml': 'where: yaml\nyaml_only: yes\n'})
    book.ask(repo, 'defaults.json-data-hash', 'where', feature + ['backend:json_data'])
    book.ask(repo, 'defaults.json-null', 'n', feature + ['backend:json_data', 'value:null'])
    book.ask(repo, 'defaults.json-list', 'list', feature + ['backend:json_data'])
    book.ask(repo, 'defaults.level-yaml-over-json-default', 'yaml_only', feature + ['backend:yaml_data'])

    repo = book.repo('defaults-no-data-hash', {
        'hiera.yaml': '''
            version: 5
            defaults:
              datadir: data
            hierarchy:
              - name: common
                path: common.yaml
            ''',
        'data/common.yaml': 'a: 1\n'})
    book.ask(repo, 'defaults.no-data-hash', 'a', feature + ['error'])

    repo = book.repo('level-datadir', {
        'hiera.yaml': '''
            version: 5
            defaults:
              datadir: data
              data_hash: yaml_data
            hierarchy:
              - name: site
                datadir: site-data
                path: "%{facts.datacenter}.yaml"
              - name: interpolated datadir
                datadir: "dc/%{facts.datacenter}"
                path: common.yaml
              - name: common
                path: common.yaml
            ''',
        'site-data/dc1.yaml': 'a: site\n',
        'dc/dc1/common.yaml': 'a: dc\nb: dc\n',
        'data/common.yaml': 'a: common\nb: common\nc: common\n'})
    book.ask(repo, 'level.datadir', 'a', ['config:level-datadir'])
    book.ask(repo, 'level.datadir-interpolated', 'b', ['config:level-datadir', 'interpolation:path'])
    book.ask(repo, 'level.datadir-default', 'c', ['config:level-datadir'])
    book.ask(repo, 'level.datadir-merge', 'a', ['config:level-datadir', 'merge:unique'], merge='unique',
             explain=True)

    repo = book.repo('paths', {
        'hiera.yaml': '''
            version: 5
            hierarchy:
              - name: several paths
                paths:
                  - "nodes/%{trusted.certname}.yaml"
                  - "missing.yaml"
                  - "roles/%{facts.role}.yaml"
                  - "common.yaml"
              - name: last
                path: last.yaml
            ''',
        'data/nodes/%s.yaml' % NODE: 'a: node\nl: [node]\n',
        'data/roles/web.yaml': 'a: role\nb: role\nl: [role, node]\n',
        'data/common.yaml': 'a: common\nb: common\nc: common\nl: [common]\n',
        'data/last.yaml': 'l: [last]\n'})
    feature = ['config:paths']
    book.ask(repo, 'paths.first-path-wins', 'a', feature)
    book.ask(repo, 'paths.second-existing', 'b', feature)
    book.ask(repo, 'paths.unique-order', 'l', feature + ['merge:unique'], merge='unique')
    book.ask(repo, 'paths.explain', 'l', feature + ['merge:unique'], merge='unique', explain=True)

    repo = book.repo('glob', {
        'hiera.yaml': '''
            version: 5
            hierarchy:
              - name: glob
                glob: "conf.d/*.yaml"
              - name: globs
                globs:
                  - "extra/z*.yaml"
                  - "extra/**/*.yaml"
              - name: brace glob
                glob: "brace/{b,a}.yaml"
              - name: common
                path: common.yaml
            ''',
        'data/conf.d/20-b.yaml': 'a: 20-b\nl: [20]\nonly20: x\n',
        'data/conf.d/10-a.yaml': 'a: 10-a\nl: [10]\n',
        'data/conf.d/B.yaml': 'a: B\nl: [B]\n',
        'data/conf.d/subdir.yaml/': '',
        'data/conf.d/notyaml.txt': 'a: txt\n',
        'data/extra/zz.yaml': 'e: zz\nel: [zz]\n',
        'data/extra/deep/x.yaml': 'e: deep-x\nel: [deep-x]\n',
        'data/extra/a.yaml': 'e: a\nel: [a]\n',
        'data/brace/a.yaml': 'br: a\nbl: [a]\n',
        'data/brace/b.yaml': 'br: b\nbl: [b]\n',
        'data/common.yaml': 'a: common\nl: [common]\ne: common\n'})
    feature = ['config:glob']
    book.ask(repo, 'glob.first-in-sorted-order', 'a', feature)
    book.ask(repo, 'glob.unique-order', 'l', feature + ['merge:unique'], merge='unique')
    book.ask(repo, 'glob.deep-order', 'l', feature + ['merge:deep'], merge='deep')
    book.ask(repo, 'glob.only-one-file', 'only20', feature)
    book.ask(repo, 'globs.first', 'e', ['config:globs'])
    book.ask(repo, 'globs.unique-order', 'el', ['config:globs', 'merge:unique'], merge='unique')
    book.ask(repo, 'glob.brace-order', 'bl', feature + ['merge:unique'], merge='unique')
    book.ask(repo, 'glob.brace-first', 'br', feature)
    book.ask(repo, 'glob.explain', 'l', feature + ['merge:unique'], merge='unique', explain=True)

    repo = book.repo('glob-interpolated', {
        'hiera.yaml': '''
            version: 5
            hierarchy:
              - name: per dc
                glob: "dc/%{facts.datacenter}/*.yaml"
              - name: nothing matches
                glob: "none/*.yaml"
            ''',
        'data/dc/dc1/b.yaml': 'a: b\n',
        'data/dc/dc1/a.yaml': 'a: a\n',
        'data/dc/dc2/0.yaml': 'a: other-dc\n'})
    book.ask(repo, 'glob.interpolated', 'a', feature + ['interpolation:path'])

    repo = book.repo('glob-recursive-order', {
        'hiera.yaml': '''
            version: 5
            hierarchy:
              - name: recursive
                glob: "tree/**/*.yaml"
              - name: case and digits
                glob: "flat/*.yaml"
            ''',
        'data/tree/a-b/x.yaml': 'l: [a-b/x]\n',
        'data/tree/a/x.yaml': 'l: [a/x]\n',
        'data/tree/a.yaml': 'l: [a.yaml]\n',
        'data/tree/a/b/c.yaml': 'l: [a/b/c]\n',
        'data/tree/Z.yaml': 'l: [Z.yaml]\n',
        'data/flat/b.yaml': 'f: [b]\n',
        'data/flat/B.yaml': 'f: [B]\n',
        'data/flat/_x.yaml': 'f: [_x]\n',
        'data/flat/10.yaml': 'f: [10]\n',
        'data/flat/9.yaml': 'f: [9]\n',
        'data/flat/.hidden.yaml': 'f: [hidden]\n',
        'data/flat/é.yaml': 'f: [e-acute]\n'})
    book.ask(repo, 'glob.recursive-order', 'l', feature + ['merge:unique'], merge='unique')
    book.ask(repo, 'glob.name-order', 'f', feature + ['merge:unique'], merge='unique')
    book.ask(repo, 'glob.no-match-explain', 'zzz', feature, explain=True)

    repo = book.repo('mapped-paths', {
        'hiera.yaml': '''
            version: 5
            hierarchy:
              - name: apps
                mapped_paths: [facts.apps, app, "apps/%{app}.yaml"]
              - name: apps via top scope
                mapped_paths: [apps, app, "apps2/%{app}.yaml"]
              - name: labels map
                mapped_paths: [facts.labels, label, "labels/%{label}.yaml"]
              - name: single string
                mapped_paths: [facts.role, r, "roles/%{r}.yaml"]
              - name: missing fact
                mapped_paths: [facts.nothing, x, "x/%{x}.yaml"]
              - name: common
                path: common.yaml
            ''',
        'data/apps/nginx.yaml': 'a: nginx\nl: [nginx]\nonly_php: ~\n',
        'data/apps/php.yaml': 'a: php\nl: [php]\nonly_php: php\n',
        'data/apps2/php.yaml': 'a2: php2\n',
        'data/labels/["team", "ops"].yaml': 'lab: team-ops\n',
        'data/roles/web.yaml': 'r: web\n',
        'data/common.yaml': 'a: common\nl: [common]\n'})
    feature = ['config:mapped_paths']
    book.ask(repo, 'mapped.first-item-first', 'a', feature)
    book.ask(repo, 'mapped.unique-order', 'l', feature + ['merge:unique'], merge='unique')
    book.ask(repo, 'mapped.deep-order', 'l', feature + ['merge:deep'], merge='deep')
    book.ask(repo, 'mapped.null-in-first-item', 'only_php', feature + ['value:null'])
    book.ask(repo, 'mapped.top-scope-variable', 'a2', feature)
    book.ask(repo, 'mapped.hash-fact', 'lab', feature)
    book.ask(repo, 'mapped.string-fact', 'r', feature)
    book.ask(repo, 'mapped.explain', 'l', feature + ['merge:unique'], merge='unique', explain=True)
    repo = book.repo('mapped-paths-empty', {
        'hiera.yaml': '''
            version: 5
            hierarchy:
              - name: apps
                mapped_paths: [facts.apps, app, "apps/%{app}.yaml"]
              - name: common
                path: common.yaml
            ''',
        'data/apps/.yaml': 'a: empty-name\n',
        'data/common.yaml': 'a: common\n'}, facts(apps=[]))
    book.ask(repo, 'mapped.empty-list', 'a', feature, explain=True)
    repo = book.repo('mapped-paths-duplicates', {
        'hiera.yaml': '''
            version: 5
            hierarchy:
              - name: apps
                mapped_paths: [facts.apps, app, "apps/%{app}.yaml"]
            ''',
        'data/apps/php.yaml': 'l: [php, php]\nh: {k: [1]}\n',
        'data/apps/nginx.yaml': 'l: [nginx]\nh: {k: [2]}\n'}, facts(apps=['php', 'nginx', 'php']))
    book.ask(repo, 'mapped.duplicate-items-unique', 'l', feature + ['merge:unique'], merge='unique')
    book.ask(repo, 'mapped.duplicate-items-deep', 'h', feature + ['merge:deep'], merge='deep')
    book.ask(repo, 'mapped.duplicate-items-deep-list', 'l', feature + ['merge:deep'], merge='deep')
    repo = book.repo('mapped-paths-number', {
        'hiera.yaml': '''
            version: 5
            hierarchy:
              - name: port
                mapped_paths: [facts.port, p, "ports/%{p}.yaml"]
            ''',
        'data/ports/8080.yaml': 'a: port\n'})
    book.ask(repo, 'mapped.number-fact', 'a', feature + ['error'])
    repo = book.repo('mapped-paths-bad', {
        'hiera.yaml': '''
            version: 5
            hierarchy:
              - name: two items
                mapped_paths: [facts.apps, "apps/%{app}.yaml"]
            ''',
        'data/apps/nginx.yaml': 'a: 1\n'})
    book.ask(repo, 'mapped.two-items', 'a', feature + ['error'])


def level_interpolation_cases(book: Book) -> None:
    feature = ['interpolation:path']
    repo = book.repo('path-interpolation', {
        'hiera.yaml': '''
            version: 5
            hierarchy:
              - {name: certname, path: "certname/%{trusted.certname}.yaml"}
              - {name: dotted fact, path: "os/%{facts.os.release.major}.yaml"}
              - {name: top scope, path: "top/%{::datacenter}.yaml"}
              - {name: bare, path: "bare/%{tier}.yaml"}
              - {name: trusted hostname, path: "short/%{trusted.hostname}.yaml"}
              - {name: missing fact, path: "missing/%{facts.nothing}.yaml"}
              - {name: missing top, path: "missing2/%{nothing}.yaml"}
              - {name: number, path: "port/%{facts.port}.yaml"}
              - {name: boolean, path: "virtual/%{facts.virtual}.yaml"}
              - {name: list, path: "list/%{facts.apps}.yaml"}
              - {name: empty, path: "empty/%{facts.owner}.yaml"}
              - {name: quoted segment, path: "quoted/%{facts.labels.'team'}.yaml"}
              - {name: spaces, path: "spaces/%{ facts.role }.yaml"}
              - {name: two, path: "two/%{facts.role}-%{facts.tier}.yaml"}
              - {name: empty expr, path: "emptyexpr/%{}x.yaml"}
              - {name: common, path: common.yaml}
            ''',
        'data/certname/%s.yaml' % NODE: 'certname: yes\n',
        'data/os/22.yaml': 'dotted: 22\n',
        'data/top/dc1.yaml': 'top: dc1\n',
        'data/bare/prod.yaml': 'bare: prod\n',
        'data/short/web01.yaml': 'short: web01\n',
        'data/missing/.yaml': 'missing: empty-name\n',
        'data/missing2/.yaml': 'missing2: empty-name\n',
        'data/port/8080.yaml': 'port: 8080\n',
        'data/virtual/false.yaml': 'virtual: "false"\n',
        'data/list/["nginx", "php"].yaml': 'list: ruby-inspect\n',
        'data/empty/.yaml': 'empty: empty-name\n',
        'data/quoted/ops.yaml': 'quoted: ops\n',
        'data/spaces/web.yaml': 'spaces: web\n',
        'data/two/web-prod.yaml': 'two: web-prod\n',
        'data/emptyexpr/x.yaml': 'emptyexpr: x\n',
        'data/common.yaml': 'certname: no\n'})
    for key in ('certname', 'dotted', 'top', 'bare', 'short', 'missing', 'missing2', 'port', 'virtual', 'list',
                'empty', 'quoted', 'spaces', 'two', 'emptyexpr'):
        book.ask(repo, 'path-interpolation.' + key, key, feature)
    book.ask(repo, 'path-interpolation.explain', 'missing', feature, explain=True)

    repo = book.repo('path-function', {
        'hiera.yaml': '''
            version: 5
            hierarchy:
              - {name: function, path: "%{lookup('x')}.yaml"}
            ''',
        'data/x.yaml': 'a: 1\n'})
    book.ask(repo, 'path-interpolation.function-not-allowed', 'a', feature + ['error'])
    repo = book.repo('path-scope-function', {
        'hiera.yaml': '''
            version: 5
            hierarchy:
              - {name: scope, path: "%{scope('facts.role')}.yaml"}
            ''',
        'data/web.yaml': 'a: 1\n'})
    book.ask(repo, 'path-interpolation.scope-not-allowed', 'a', feature + ['error'])
    repo = book.repo('path-directory', {
        'hiera.yaml': '''
            version: 5
            hierarchy:
              - {name: resolves to the datadir, path: "%{facts.nothing}"}
              - {name: common, path: common.yaml}
            ''',
        'data/common.yaml': 'a: common\n'})
    book.ask(repo, 'path-interpolation.resolves-to-directory', 'a', feature + ['error'])
    repo = book.repo('path-outside', {
        'hiera.yaml': '''
            version: 5
            hierarchy:
              - {name: up, path: "../outside/%{facts.role}.yaml"}
            ''',
        'outside/web.yaml': 'a: outside datadir\n'})
    book.ask(repo, 'path-interpolation.parent-dir', 'a', feature)
    repo = book.repo('path-fact-slash', {
        'hiera.yaml': '''
            version: 5
            hierarchy:
              - {name: by role, path: "roles/%{facts.role}.yaml"}
            ''',
        'data/roles/': '',
        'data/secret/x.yaml': 'a: reached through a fact\n'}, facts(role='../secret/x'))
    book.ask(repo, 'path-interpolation.fact-with-dotdot', 'a', feature)


def bad_config_cases(book: Book) -> None:
    def bad(name: str, hiera: str, key: str = 'a', extra: Optional[Dict[str, str]] = None,
            feature: str = 'config:error') -> None:
        files = {'hiera.yaml': hiera, 'data/common.yaml': 'a: 1\n'}
        files.update(extra or {})
        book.ask(book.repo('bad-' + name, files), 'config-error.' + name, key, [feature, 'error'])

    bad('version-3', '''
        ---
        :backends:
          - yaml
        :hierarchy:
          - common
        :yaml:
          :datadir: data
        ''', feature='config:version')
    bad('version-3-explicit', '''
        version: 3
        hierarchy:
          - common
        ''', feature='config:version')
    bad('version-missing', '''
        hierarchy:
          - name: common
            path: common.yaml
        ''', feature='config:version')
    bad('version-6', '''
        version: 6
        hierarchy: []
        ''', feature='config:version')
    book.ask(book.repo('version-4', {
        'hiera.yaml': '''
            version: 4
            datadir: data
            hierarchy:
              - name: common
                backend: yaml
                path: common
            ''',
        'data/common.yaml': 'a: from a version 4 file\n'}), 'config-error.version-4', 'a', ['config:version'])
    bad('eyaml', '''
        version: 5
        hierarchy:
          - name: secrets
            lookup_key: eyaml_lookup_key
            path: secrets.eyaml
            options:
              pkcs7_private_key: /etc/puppetlabs/puppet/eyaml/private_key.pkcs7.pem
              pkcs7_public_key: /etc/puppetlabs/puppet/eyaml/public_key.pkcs7.pem
          - name: common
            path: common.yaml
        ''', extra={'data/secrets.eyaml': 'a: ENC[PKCS7,xyz]\n'}, feature='config:backend')
    bad('data-dig', '''
        version: 5
        hierarchy:
          - name: dig
            data_dig: my_dig
            path: common.yaml
        ''', feature='config:backend')
    bad('lookup-key-custom', '''
        version: 5
        hierarchy:
          - name: custom
            lookup_key: mymodule::lookup
            uri: "https://vault.example.com/"
        ''', feature='config:backend')
    bad('data-hash-unknown', '''
        version: 5
        hierarchy:
          - name: custom
            data_hash: custom_data
            path: common.yaml
        ''', feature='config:backend')
    bad('data-hash-hocon', '''
        version: 5
        hierarchy:
          - name: hocon
            data_hash: hocon_data
            path: common.conf
        ''', extra={'data/common.conf': 'a = 1\n'}, feature='config:backend')
    bad('hiera3-backend', '''
        version: 5
        hierarchy:
          - name: old
            hiera3_backend: eyaml
            path: common
        ''', feature='config:backend')
    bad('two-functions', '''
        version: 5
        hierarchy:
          - name: both
            data_hash: yaml_data
            lookup_key: eyaml_lookup_key
            path: common.yaml
        ''', feature='config:backend')
    bad('two-locations', '''
        version: 5
        hierarchy:
          - name: both
            path: common.yaml
            glob: "*.yaml"
        ''')
    bad('duplicate-name', '''
        version: 5
        hierarchy:
          - name: common
            path: common.yaml
          - name: common
            path: other.yaml
        ''')
    bad('no-name', '''
        version: 5
        hierarchy:
          - path: common.yaml
        ''')
    bad('no-location', '''
        version: 5
        hierarchy:
          - name: nowhere
        ''')
    bad('unknown-level-key', '''
        version: 5
        hierarchy:
          - name: common
            path: common.yaml
            merge: deep
        ''')
    bad('unknown-top-key', '''
        version: 5
        hierarchy:
          - name: common
            path: common.yaml
        lookup_options: {}
        ''')
    bad('path-not-string', '''
        version: 5
        hierarchy:
          - name: common
            path: [common.yaml]
        ''')
    bad('reserved-option', '''
        version: 5
        hierarchy:
          - name: common
            path: common.yaml
            options:
              path: x
        ''')
    bad('mapped-paths-wrong-size', '''
        version: 5
        hierarchy:
          - name: apps
            mapped_paths: [facts.apps, app, "apps/%{app}.yaml", extra]
        ''')
    bad('default-hierarchy', '''
        version: 5
        default_hierarchy:
          - name: common
            path: common.yaml
        hierarchy:
          - name: common
            path: common.yaml
        ''')
    bad('not-a-hash', '''
        - just
        - a list
        ''', feature='config:version')
    bad('empty-file', '', feature='config:version')
    bad('unparsable', '''
        version: 5
        hierarchy: [
        ''')
    bad('empty-hierarchy', '''
        version: 5
        hierarchy: []
        ''', feature='config:hierarchy')
    bad('options-ignored', '''
        version: 5
        defaults:
          data_hash: yaml_data
          options:
            anything: 1
        hierarchy:
          - name: common
            path: common.yaml
            options:
              other: [1, 2]
        ''', feature='config:options')
    book.ask(book.repo('no-hiera-yaml', {'data/common.yaml': 'a: default config\n'}),
             'config.no-hiera-yaml', 'a', ['config:defaults'], explain=True)


# --- data files -------------------------------------------------------------------------------------------
def data_file_cases(book: Book) -> None:
    feature = ['data:file']
    repo = book.layered('data-files', {
        'node': '',
        'role': '# only a comment\n',
        'os': '- a list\n- not a hash\n',
        'common': 'a: common\nl: [common]\n'})
    book.ask(repo, 'data-file.empty-files', 'a', feature)
    book.ask(repo, 'data-file.empty-files-unique', 'l', feature + ['merge:unique'], merge='unique', explain=True)
    repo = book.layered('data-unparsable', {'node': 'a: [unclosed\n', 'common': 'a: common\n'})
    book.ask(repo, 'data-file.unparsable', 'a', feature + ['error'], explain=True)
    repo = book.layered('data-scalar-file', {'node': 'just a string\n', 'common': 'a: common\n'})
    book.ask(repo, 'data-file.scalar', 'a', feature)
    repo = book.layered('data-false-file', {'node': 'false\n', 'common': 'a: common\n'})
    book.ask(repo, 'data-file.false', 'a', feature)
    repo = book.layered('data-lookup-options-broken', {'node': 'lookup_options: [a]\na: node\n',
                                                       'common': 'a: common\n'})
    book.ask(repo, 'data-file.lookup-options-not-hash', 'a', feature + ['lookup_options', 'error'])
    repo = book.layered('data-yaml-scalars', {'common': '''
        yes_word: yes
        on_word: on
        octal: 010
        sexagesimal: 1:20
        underscore: 1_000
        float_exp: 1e3
        float: 1.50
        tilde: ~
        null_word: null
        empty_value:
        quoted_empty: ""
        int_key: {1: one, "2": two}
        bool_key: {true: t}
        '''})
    for key in ('yes_word', 'on_word', 'octal', 'sexagesimal', 'underscore', 'float_exp', 'float', 'tilde',
                'null_word', 'empty_value', 'quoted_empty', 'int_key', 'bool_key'):
        book.ask(repo, 'yaml-scalar.' + key.replace('_', '-'), key, ['data:yaml-scalars'])
    for name, value in (('date', '2024-01-02'), ('timestamp', '2024-01-02 10:00:00'), ('binary', '!!binary aGVsbG8='),
                        ('symbol', ':sym'), ('set', '!!set {a, b}'), ('ruby-object', '!ruby/object:Object {}')):
        repo = book.layered('data-yaml-' + name, {'node': 'a: node\n', 'common': 'value: %s\na: common\n' % value})
        book.ask(repo, 'yaml-scalar.%s' % name, 'value', ['data:yaml-scalars'])
        book.ask(repo, 'yaml-scalar.%s-other-key' % name, 'a', ['data:yaml-scalars'])
    repo = book.layered('data-anchors', {'common': '''
        base: &base {a: 1, l: [1, 2]}
        derived:
          <<: *base
          b: 2
        alias_list: [*base, *base]
        '''})
    book.ask(repo, 'yaml-anchors.merge-key', 'derived', ['data:yaml-scalars'])
    book.ask(repo, 'yaml-anchors.alias', 'alias_list', ['data:yaml-scalars'])
    repo = book.layered('data-duplicate-keys', {'common': 'a: first\na: second\n'})
    book.ask(repo, 'data-file.duplicate-key', 'a', feature)


# --- keys ---------------------------------------------------------------------------------------------------
def key_cases(book: Book) -> None:
    repo = book.layered('keys', {
        'node': '''
            partial: {only_here: 1}
            merged: {servers: [n1.example.com, n2.example.com]}
            ''',
        'common': '''
            ntp:
              servers: [c1.example.com]
              iburst: true
              options: {minpoll: 4, "dotted.key": d, 0: zero-int-key, "1": one-string-key}
            partial: {elsewhere: 2}
            merged: {servers: [c1.example.com], iburst: true}
            "a.b": dotted data key
            a: {b: nested}
            "profile::ntp::servers": [p1, p2]
            "::leading": leading colons
            list: [[x, y], {k: v}]
            text: plain string
            Case: upper
            case: lower
            "with space": spaced
            '''})
    feature = ['key:dotted']
    book.ask(repo, 'key.dig-map', 'ntp.iburst', feature)
    book.ask(repo, 'key.dig-list-index', 'ntp.servers.0', feature)
    book.ask(repo, 'key.dig-list-index-1', 'ntp.servers.1', feature)
    book.ask(repo, 'key.dig-list-out-of-range', 'ntp.servers.5', feature)
    book.ask(repo, 'key.dig-list-negative', 'ntp.servers.-1', feature)
    book.ask(repo, 'key.dig-first-found-root', 'partial.elsewhere', feature)
    book.ask(repo, 'key.dig-first-found-root-explain', 'partial.elsewhere', feature, explain=True)
    book.ask(repo, 'key.dig-after-deep-merge', 'partial.elsewhere', feature + ['merge:deep'], merge='deep')
    book.ask(repo, 'key.dig-after-hash-merge', 'merged.iburst', feature + ['merge:hash'], merge='hash')
    book.ask(repo, 'key.dig-after-hash-merge-int-key', 'ntp.iburst', feature + ['merge:hash'], merge='hash')
    book.ask(repo, 'key.dig-after-unique-merge', 'merged.servers', feature + ['merge:unique'], merge='unique')
    book.ask(repo, 'key.dig-deep-list', 'merged.servers.1', feature + ['merge:deep'], merge='deep', explain=True)
    book.ask(repo, 'key.dig-first-list', 'merged.servers.1', feature)
    book.ask(repo, 'key.dig-int-segment-on-hash-int-key', 'ntp.options.0', feature)
    book.ask(repo, 'key.dig-int-segment-on-hash-string-key', 'ntp.options.1', feature)
    book.ask(repo, 'key.dig-quoted-int-segment', 'ntp.options."1"', ['key:quoted'])
    book.ask(repo, 'key.dig-quoted-dotted', "ntp.options.'dotted.key'", ['key:quoted'])
    book.ask(repo, 'key.dotted-data-key-unquoted', 'a.b', feature)
    book.ask(repo, 'key.dotted-data-key-quoted', '"a.b"', ['key:quoted'])
    book.ask(repo, 'key.namespaced', 'profile::ntp::servers', ['key:namespaced'])
    book.ask(repo, 'key.namespaced-explain', 'profile::ntp::servers', ['key:namespaced'], explain=True)
    book.ask(repo, 'key.namespaced-dig', 'profile::ntp::servers.1', ['key:namespaced', 'key:dotted'])
    book.ask(repo, 'key.leading-colons', '::leading', ['key:namespaced'])
    book.ask(repo, 'key.dig-list-of-lists', 'list.0.1', feature)
    book.ask(repo, 'key.dig-list-then-map', 'list.1.k', feature)
    book.ask(repo, 'key.dig-into-string', 'text.x', feature + ['error'])
    book.ask(repo, 'key.dig-into-list-by-name', 'ntp.servers.x', feature + ['error'])
    book.ask(repo, 'key.dig-missing-subkey', 'ntp.nothing', feature)
    book.ask(repo, 'key.dig-missing-root', 'nothing.x', feature)
    book.ask(repo, 'key.case-upper', 'Case', ['key:plain'])
    book.ask(repo, 'key.case-lower', 'case', ['key:plain'])
    book.ask(repo, 'key.spaces-in-key', 'with space', ['key:plain'])
    book.ask(repo, 'key.spaces-around-segments', 'ntp . iburst', feature)
    for name, key in (('double-dot', 'ntp..iburst'), ('trailing-dot', 'ntp.'), ('leading-dot', '.ntp'),
                      ('unclosed-quote', 'ntp."iburst'), ('empty-quotes', 'ntp.""')):
        book.ask(repo, 'key.syntax-' + name, key, ['key:syntax', 'error'])
    book.ask(repo, 'key.missing', 'does_not_exist', ['key:missing'])
    book.ask(repo, 'key.missing-explain', 'does_not_exist', ['key:missing'], explain=True)
    book.ask(repo, 'key.lookup-options', 'lookup_options', ['key:lookup_options', 'error'])
    book.ask(repo, 'key.lookup-options-explain', 'lookup_options', ['key:lookup_options', 'error'], explain=True)
    book.ask(repo, 'key.lookup-options-dotted', 'lookup_options.ntp', ['key:lookup_options', 'error'])

    repo = book.layered('keys-null', {'node': 'n: ~\nm: {k: ~}\n', 'common': 'n: common\nm: {k: common}\n'})
    book.ask(repo, 'key.null-found', 'n', ['value:null'])
    book.ask(repo, 'key.null-dig', 'm.k', ['value:null', 'key:dotted'])
    book.ask(repo, 'key.null-dig-below', 'n.x', ['value:null', 'key:dotted'])


# --- interpolation in data ------------------------------------------------------------------------------
def interpolation_cases(book: Book) -> None:
    repo = book.layered('interpolation', {
        'node': '''
            node_value: from node
            ''',
        'common': r'''
            fact: "%{facts.role}"
            fact_dotted: "%{facts.os.release.full}"
            top_scope: "%{::datacenter}"
            bare: "%{datacenter}"
            certname: "%{trusted.certname}"
            trusted_domain: "%{trusted.domain}"
            trusted_all: "%{trusted}"
            facts_all: "%{facts.labels}"
            missing: "[%{facts.nothing}]"
            missing_top: "[%{nothing}]"
            missing_nested: "[%{facts.os.nothing.deeper}]"
            number: "%{facts.port}"
            number_in_text: "port %{facts.port}"
            boolean: "%{facts.virtual}"
            list: "%{facts.apps}"
            empty: "[%{facts.owner}]"
            dig_list: "%{facts.apps.1}"
            quoted: "%{facts.labels.'team'}"
            top_dotted: "%{::facts.role}"
            top_trusted: "%{::trusted.certname}"
            spaces: "%{ facts.role }"
            empty_expr: "a%{}b%{::}c"
            unclosed: "100%{facts.role"
            percent: "100% sure"
            dig_string: "%{facts.role.x}"
            environment: "%{environment}"
            server_facts: "%{server_facts.environment}"
            nested:
              list: ["%{facts.role}", {deeper: "%{facts.tier}"}]
              "%{facts.role}_key": interpolated key
            lookup: "%{lookup('node_value')}"
            hiera: "%{hiera('node_value')}"
            lookup_list: "%{lookup('a_list')}"
            lookup_number: "%{lookup('a_number')}"
            lookup_missing: "[%{lookup('no_such_key')}]"
            lookup_dotted: "%{lookup('a_hash.k')}"
            lookup_double_quotes: '%{lookup("node_value")}'
            lookup_unquoted: "%{lookup(node_value)}"
            lookup_spaces: "%{lookup( 'node_value' )}"
            lookup_chain: "%{lookup('lookup')}"
            alias_list: "%{alias('a_list')}"
            alias_hash: "%{alias('a_hash')}"
            alias_number: "%{alias('a_number')}"
            alias_boolean: "%{alias('a_boolean')}"
            alias_null: "%{alias('a_null')}"
            alias_missing: "%{alias('no_such_key')}"
            alias_string: "%{alias('node_value')}"
            alias_in_text: "x %{alias('a_list')}"
            alias_spaces: " %{alias('a_list')}"
            alias_in_list: ["%{alias('a_list')}", other]
            literal: "%{literal('%')}{facts.role}"
            literal_text: "%{literal('a b')}"
            scope: "%{scope('facts.role')}"
            scope_top: "%{scope('datacenter')}"
            unknown_function: "%{foo('x')}"
            a_list: [a, "%{facts.role}"]
            a_hash: {k: v, n: 1}
            a_number: 42
            a_boolean: false
            a_null: ~
            merged_list: [common]
            lookup_merged: "%{lookup('merged_list')}"
            alias_merged: "%{alias('merged_list')}"
            lit: "%{literal('%')}{facts.role}"
            lookup_of_literal: "%{lookup('lit')}"
            alias_of_literal: "%{alias('lit')}"
            lookup_index: "%{lookup('a_list.1')}"
            alias_index: "%{alias('a_hash.n')}"
            alias_key: {"%{alias('a_list')}": x}
            lookup_options:
              merged_list: {merge: unique}
            ''',
        'role': 'merged_list: [role]\n'})
    feature = ['interpolation:data']
    for key in ('fact', 'fact_dotted', 'top_scope', 'bare', 'certname', 'trusted_domain', 'trusted_all', 'facts_all',
                'missing', 'missing_top', 'missing_nested', 'number', 'number_in_text', 'boolean', 'list', 'empty',
                'dig_list', 'quoted', 'top_dotted', 'top_trusted', 'spaces', 'empty_expr', 'unclosed', 'percent',
                'dig_string', 'environment', 'server_facts', 'nested'):
        book.ask(repo, 'interpolation.' + key.replace('_', '-'), key, feature)
    for key in ('lookup', 'hiera', 'lookup_list', 'lookup_number', 'lookup_missing', 'lookup_dotted',
                'lookup_double_quotes', 'lookup_unquoted', 'lookup_spaces', 'lookup_chain', 'lookup_merged',
                'lookup_of_literal', 'lookup_index'):
        book.ask(repo, 'interpolation.' + key.replace('_', '-'), key, ['interpolation:lookup'])
    for key in ('alias_list', 'alias_hash', 'alias_number', 'alias_boolean', 'alias_null', 'alias_missing',
                'alias_string', 'alias_in_text', 'alias_spaces', 'alias_in_list', 'alias_merged', 'alias_of_literal',
                'alias_index', 'alias_key'):
        book.ask(repo, 'interpolation.' + key.replace('_', '-'), key, ['interpolation:alias'])
    for key in ('literal', 'literal_text'):
        book.ask(repo, 'interpolation.' + key.replace('_', '-'), key, ['interpolation:literal'])
    for key in ('scope', 'scope_top'):
        book.ask(repo, 'interpolation.' + key.replace('_', '-'), key, ['interpolation:scope'])
    book.ask(repo, 'interpolation.unknown-function', 'unknown_function', feature + ['error'])
    book.ask(repo, 'interpolation.alias-explain', 'alias_list', ['interpolation:alias'], explain=True)
    book.ask(repo, 'interpolation.lookup-explain', 'lookup_merged', ['interpolation:lookup'], explain=True)
    book.ask(repo, 'interpolation.nested-dig', 'nested.list.1.deeper', feature + ['key:dotted'])

    repo = book.layered('interpolation-fact-text', {'common': 'a: "%{facts.role}"\nb: "%{lookup(\'x\')}"\n'},
                        fact_values=facts(role='%{facts.tier}'))
    book.ask(repo, 'interpolation.fact-value-reinterpolated', 'a', feature)

    repo = book.layered('interpolation-merge', {
        'node': 'l: ["%{facts.role}", n]\nh: {"%{facts.tier}": node}\n',
        'common': 'l: [web, c]\nh: {prod: common, other: common}\n'})
    book.ask(repo, 'interpolation.before-unique-merge', 'l', feature + ['merge:unique'], merge='unique')
    book.ask(repo, 'interpolation.key-before-hash-merge', 'h', feature + ['merge:hash'], merge='hash')

    repo = book.layered('cycles', {'common': '''
        self: "%{lookup('self')}"
        a: "%{lookup('b')}"
        b: "%{lookup('c')}"
        c: "%{lookup('a')}"
        alias_self: "%{alias('alias_self')}"
        nested: {x: ["%{lookup('nested.x')}"]}
        dotted_other: {x: "%{lookup('dotted_other.y')}", y: fine}
        chain_ok: "%{lookup('chain2')}-%{lookup('chain2')}"
        chain2: "%{lookup('chain3')}"
        chain3: end
        via_hiera: "%{hiera('via_lookup')}"
        via_lookup: "%{lookup('via_hiera')}"
        '''})
    feature = ['interpolation:cycle']
    for key in ('self', 'a', 'alias_self', 'nested', 'dotted_other', 'chain_ok', 'via_hiera'):
        book.ask(repo, 'cycle.' + key.replace('_', '-'), key, feature)
    book.ask(repo, 'cycle.explain', 'a', feature, explain=True)


# --- lookup_options -------------------------------------------------------------------------------------
def lookup_options_cases(book: Book) -> None:
    feature = ['lookup_options']
    repo = book.layered('lookup-options-levels', {
        'node': '''
            lookup_options:
              l: {merge: unique}
              d:
                merge: {strategy: deep, knockout_prefix: "xx"}
            l: [node]
            d: {a: [node, xxcommon]}
            h: {node: 1}
            ''',
        'common': '''
            lookup_options:
              l:
                merge: {strategy: deep, sort_merged_arrays: true}
              d: {merge: hash}
              h: {merge: hash}
            l: [common, b]
            d: {a: [common], c: 1}
            h: {common: 1}
            '''})
    book.ask(repo, 'lookup-options.higher-level-entry-wins-whole', 'l', feature)
    book.ask(repo, 'lookup-options.map-form-from-node', 'd', feature)
    book.ask(repo, 'lookup-options.from-common-only', 'h', feature)
    book.ask(repo, 'lookup-options.cli-merge-overrides', 'l', feature + ['merge:cli-override'], merge='first')
    book.ask(repo, 'lookup-options.cli-deep-overrides-options', 'd', feature + ['merge:cli-override'], merge='deep')
    book.ask(repo, 'lookup-options.explain', 'l', feature, explain=True)

    repo = book.layered('lookup-options-regex', {
        'node': '''
            lookup_options:
              "^app_.*$": {merge: first}
              "^app_b": {merge: deep}
            ''',
        'role': '''
            lookup_options:
              "^app_": {merge: unique}
            app_a: [role]
            app_b: [role]
            app_exact: [role]
            profile::x: [role]
            ''',
        'common': '''
            lookup_options:
              app_exact: {merge: deep}
              "^app_ex": {merge: first}
              "^profile::": {merge: unique}
              "^PROFILE": {merge: unique}
            app_a: [common]
            app_b: [common]
            app_exact: [common]
            profile::x: [common]
            '''})
    book.ask(repo, 'lookup-options.regex-lower-level-first', 'app_a', feature + ['lookup_options:regex'])
    book.ask(repo, 'lookup-options.regex-order-explain', 'app_b', feature + ['lookup_options:regex'],
             explain=True)
    book.ask(repo, 'lookup-options.exact-over-regex', 'app_exact', feature + ['lookup_options:regex'])
    book.ask(repo, 'lookup-options.regex-namespaced', 'profile::x', feature + ['lookup_options:regex'])

    repo = book.layered('lookup-options-regex-same-file', {
        'common': '''
            lookup_options:
              "^a": {merge: first}
              "^ab": {merge: unique}
              "b$": {merge: unique}
              '^x\\z': {merge: unique}
              '(?i)^CASE': {merge: unique}
            ab: [common]
            xb: [common]
            x: [common]
            case: [common]
            ''',
        'role': 'ab: [role]\nxb: [role]\nx: [role]\ncase: [role]\n'})
    for key in ('ab', 'xb', 'x', 'case'):
        book.ask(repo, 'lookup-options.regex-same-file-' + key, key, feature + ['lookup_options:regex'])

    repo = book.layered('lookup-options-dotted', {
        'node': 'svc: {ports: [1]}\n',
        'common': '''
            lookup_options:
              svc: {merge: deep}
              svc.ports: {merge: unique}
            svc: {ports: [2], name: common}
            '''})
    book.ask(repo, 'lookup-options.root-key-for-dotted', 'svc.ports', feature + ['key:dotted'])
    book.ask(repo, 'lookup-options.root-key-name', 'svc.name', feature + ['key:dotted'])

    repo = book.layered('lookup-options-interpolated', {
        'node': 'web_conf: [node]\n',
        'common': '''
            lookup_options:
              "%{facts.role}_conf": {merge: unique}
            web_conf: [common]
            '''})
    book.ask(repo, 'lookup-options.interpolated-key', 'web_conf', feature + ['interpolation:data'])

    def options_case(name: str, options: str, merge_key_data: Tuple[str, str] = ('[node]', '[common]')) -> None:
        repository = book.layered('lookup-options-' + name, {
            'node': 'k: %s\n' % merge_key_data[0],
            'common': 'lookup_options:\n  k: %s\nk: %s\n' % (options, merge_key_data[1])})
        book.ask(repository, 'lookup-options.' + name, 'k', feature)

    options_case('unknown-strategy', '{merge: deeper}')
    options_case('strategy-map-unique', '{merge: {strategy: unique}}')
    options_case('strategy-map-first', '{merge: {strategy: first}}')
    options_case('strategy-map-no-strategy', '{merge: {knockout_prefix: "--"}}')
    options_case('strategy-map-bad-option', '{merge: {strategy: hash, knockout_prefix: "--"}}',
                 ('{a: 1}', '{b: 2}'))
    options_case('strategy-map-unknown-option', '{merge: {strategy: deep, frobnicate: true}}',
                 ('{a: 1}', '{b: 2}'))
    options_case('strategy-map-option-type', '{merge: {strategy: deep, sort_merged_arrays: "yes"}}')
    options_case('strategy-map-deep-all', '{merge: {strategy: deep, knockout_prefix: "--", '
                 'sort_merged_arrays: true, merge_hash_arrays: true}}',
                 ('[{a: 1}, {b: 2}]', '[{c: 3}]'))
    options_case('strategy-map-merge-debug', '{merge: {strategy: deep, merge_debug: false}}')
    options_case('merge-null', '{merge: ~}')
    options_case('no-merge-entry', '{convert_to: Array}', ('node', 'common'))
    options_case('entry-not-hash', 'unique')
    options_case('merge-name-first', '{merge: first}')
    options_case('merge-name-uppercase', '{merge: Unique}')
    options_case('strategy-symbol-name', '{merge: {strategy: "deep"}}', ('{a: [1]}', '{a: [2]}'))

    repo = book.layered('lookup-options-null-level', {
        'node': 'lookup_options: ~\nk: [node]\n',
        'common': 'lookup_options:\n  k: {merge: unique}\nk: [common]\n'})
    book.ask(repo, 'lookup-options.null-in-higher-level', 'k', feature + ['value:null'])
    repo = book.layered('lookup-options-empty-entry', {
        'node': 'lookup_options:\n  k: {}\nk: [node]\n',
        'common': 'lookup_options:\n  k: {merge: unique}\nk: [common]\n'})
    book.ask(repo, 'lookup-options.empty-entry-in-higher-level', 'k', feature)
    repo = book.layered('lookup-options-via-interpolation', {
        'node': 'k: [node]\n',
        'common': 'lookup_options:\n  k: {merge: unique}\nk: [common]\nuser: "%{alias(\'k\')}"\n'})
    book.ask(repo, 'lookup-options.applies-to-alias', 'user', feature + ['interpolation:alias'])
    book.ask(repo, 'lookup-options.cli-merge-not-passed-to-alias', 'user',
             feature + ['interpolation:alias', 'merge:cli-override'], merge='first')


# --- merge behaviours -------------------------------------------------------------------------------------
def first_cases(book: Book) -> None:
    repo = book.layered('first', {
        'node': 'n: ~\ne: ""\nl: []\nh: {}\nf: false\n',
        'role': 'n: role\ne: role\nl: [role]\nh: {role: 1}\nf: true\nonly_role: r\n',
        'common': 'n: common\nonly_common: c\n'})
    feature = ['merge:first']
    for key in ('n', 'e', 'l', 'h', 'f', 'only_role', 'only_common'):
        book.ask(repo, 'first.' + key.replace('_', '-'), key, feature)
    book.ask(repo, 'first.explicit', 'n', feature, merge='first')
    book.ask(repo, 'first.explain', 'n', feature, explain=True)


def unique_cases(book: Book) -> None:
    feature = ['merge:unique']
    repo = book.layered('unique', {
        'node': '''
            flat: [c, [d, [a]], a]
            scalars: x
            hash_and_scalar: {a: 1}
            null_first: ~
            nested_dupes: [b]
            empty_string: ""
            empty_list: []
            mixed: [1, "1", 1.0, true, "true", ~]
            two_hashes: {a: 1}
            null_lowest: [a]
            ''',
        'role': '''
            flat: [a, b]
            nested_dupes: [a, [a, b]]
            null_first: [q]
            null_second: ~
            empty_list: [r]
            mixed: [2, 1]
            hashes_in_lists: [{a: 1}, {a: 1}, {b: 2}]
            ''',
        'common': '''
            flat: [b, z]
            scalars: [y, x]
            hash_and_scalar: s
            only_hash: {only: hash}
            null_second: [c]
            empty_string: [c]
            empty_list: []
            two_hashes: {b: 2}
            hashes_in_lists: [{a: 1}, {c: 3}]
            single_dupes: [a, a, [b, [a]]]
            single_nested_dupes: [a, [a]]
            single_scalar: s
            single_null: ~
            null_lowest: ~
            '''})
    for key in ('flat', 'scalars', 'hash_and_scalar', 'null_first', 'null_second', 'nested_dupes', 'empty_string',
                'empty_list', 'mixed', 'two_hashes', 'hashes_in_lists', 'only_hash', 'single_dupes',
                'single_nested_dupes', 'single_scalar', 'single_null', 'null_lowest'):
        book.ask(repo, 'unique.' + key.replace('_', '-'), key, feature, merge='unique')
    book.ask(repo, 'unique.explain', 'flat', feature, merge='unique', explain=True)
    book.ask(repo, 'unique.type-error-explain', 'two_hashes', feature + ['error'], merge='unique', explain=True)

    repo = book.repo('unique-one-level', {
        'hiera.yaml': '''
            version: 5
            hierarchy:
              - name: common
                path: common.yaml
            ''',
        'data/common.yaml': 'dupes: [a, a, [b, [a]]]\nnested: [a, [a]]\nscalar: s\nhash: {a: 1}\n'})
    for key in ('dupes', 'nested', 'scalar', 'hash'):
        book.ask(repo, 'unique.one-level-' + key, key, feature + ['config:single-level'], merge='unique')
    repo = book.repo('unique-one-level-two-paths', {
        'hiera.yaml': '''
            version: 5
            hierarchy:
              - name: common
                paths: [missing.yaml, common.yaml]
            ''',
        'data/common.yaml': 'dupes: [a, a, [b, [a]]]\nnested: [a, [a]]\nscalar: s\nhash: {a: 1}\n'})
    for key in ('dupes', 'nested', 'scalar', 'hash'):
        book.ask(repo, 'unique.one-level-two-paths-' + key, key, feature + ['config:paths'], merge='unique')


def hash_cases(book: Book) -> None:
    feature = ['merge:hash']
    repo = book.layered('hash', {
        'node': '''
            h: {z: 1, b: {n: 1}}
            scalar_high: x
            null_high: ~
            empty_high: {}
            int_keys: {1: one}
            list_high: [a]
            ''',
        'role': '''
            h: {a: 2, b: {m: 2}}
            ''',
        'common': '''
            h: {y: 0, a: 3}
            scalar_high: {a: 1}
            null_high: {a: 1}
            empty_high: {a: 1}
            int_keys: {2: two}
            list_high: {a: 1}
            only_scalar: s
            only_list: [a, a]
            '''})
    for key in ('h', 'scalar_high', 'null_high', 'empty_high', 'int_keys', 'list_high', 'only_scalar', 'only_list'):
        book.ask(repo, 'hash.' + key.replace('_', '-'), key, feature, merge='hash')
    book.ask(repo, 'hash.explain', 'h', feature, merge='hash', explain=True)
    repo = book.layered('hash-null-low', {'node': 'k: {a: 1}\n', 'common': 'k: ~\n'})
    book.ask(repo, 'hash.null-low', 'k', feature, merge='hash')
    repo = book.layered('hash-key-order', {
        'node': 'k: {d: node, a: node}\n',
        'role': 'k: {c: role, a: role, e: role}\n',
        'common': 'k: {b: common, c: common}\n'})
    book.ask(repo, 'hash.key-order', 'k', feature, merge='hash')
    book.ask(repo, 'deep.key-order', 'k', ['merge:deep'], merge='deep')


def deep_cases(book: Book) -> None:
    feature = ['merge:deep']
    repo = book.layered('deep', {
        'node': '''
            d: {z: [3, 1], b: {n: 1, l: [x, y, x]}, c: 9}
            null_high: ~
            empty_hash_high: {}
            hash_over_array: {a: 1}
            array_over_hash: [a]
            scalar_over_hash: s
            false_low: [y]
            null_nested: {k: ~, j: ~}
            empty_string_high: ""
            dupes_high_only: {l: [a, a, b]}
            new_key: {l: [a, a, b]}
            new_key_markers: {m: [--a, a, b, b]}
            dupes_low: {l: [c]}
            top_list: [b, a]
            ''',
        'role': '''
            d: {a: [1], z: [1, 2], b: {l: [y, z]}}
            top_list: [a, c, c]
            ''',
        'common': '''
            null_high: {a: 1}
            empty_hash_high: scalar
            hash_over_array: [x]
            array_over_hash: {a: 1}
            scalar_over_hash: {a: 1}
            false_low: false
            null_nested: {k: 1, j: {x: 1}}
            empty_string_high: {a: 1}
            dupes_low: {l: [a, a]}
            new_key: {other: 1}
            new_key_markers: {other: 1}
            only_dupes: [a, a]
            '''})
    for key in ('d', 'null_high', 'empty_hash_high', 'hash_over_array', 'array_over_hash', 'scalar_over_hash',
                'false_low', 'null_nested', 'empty_string_high', 'dupes_high_only', 'dupes_low', 'top_list',
                'only_dupes', 'new_key', 'new_key_markers'):
        book.ask(repo, 'deep.' + key.replace('_', '-'), key, feature, merge='deep')
    book.ask(repo, 'knockout.new-key-markers', 'new_key_markers', feature + ['merge:knockout'], merge='deep',
             knockout_prefix='--')
    book.ask(repo, 'deep.explain', 'd', feature, merge='deep', explain=True)

    feature = ['merge:deep', 'merge:knockout']
    repo = book.layered('knockout', {
        'node': '''
            arr: [--a, c, --]
            in_hash: {a: "--zz", b: [--q, r], nn: [k, k, --k2], "--key": x}
            three: [z, --y]
            scalar: "--gone"
            only_high: [--a, b]
            whole: "--"
            list_marker_only: ["--"]
            regex_prefix: ["..a", bc]
            ''',
        'role': '''
            in_hash: {a: x, b: [q, s], nn: ~, key: kept}
            three: [--x, w]
            scalar: here
            ''',
        'common': '''
            arr: [a, b]
            three: [x, y, --z, --x]
            low_only: [--a, a, --]
            whole: [1, 2]
            list_marker_only: [1, 2]
            regex_prefix: [a, bc, c, "", xyz]
            '''})
    for key in ('arr', 'in_hash', 'three', 'scalar', 'only_high', 'low_only', 'whole', 'list_marker_only'):
        book.ask(repo, 'knockout.' + key.replace('_', '-'), key, feature, merge='deep', knockout_prefix='--')
    book.ask(repo, 'knockout.three-explain', 'three', feature, merge='deep', knockout_prefix='--', explain=True)
    book.ask(repo, 'knockout.regex-metacharacters', 'regex_prefix', feature, merge='deep', knockout_prefix='..')
    book.ask(repo, 'knockout.without-prefix', 'arr', ['merge:deep'], merge='deep')
    book.ask(repo, 'knockout.unique-keeps-markers', 'three', ['merge:unique'], merge='unique')
    book.ask(repo, 'knockout.cli-without-deep', 'arr', feature + ['error'], merge='unique', knockout_prefix='--')
    book.ask(repo, 'knockout.cli-without-merge', 'arr', feature + ['error'], knockout_prefix='--')
    book.ask(repo, 'knockout.empty-prefix', 'arr', feature + ['error'], merge='deep', knockout_prefix='')

    feature = ['merge:deep', 'merge:sort_merged_arrays']
    repo = book.layered('sort', {
        'node': '''
            ints: [3, 1]
            strings: [b, B, a, "10", "9"]
            mixed: [b, 2]
            nested: {l: [z, y], only_high: [q, p, q]}
            hashes: [{b: 1}]
            bools: [true]
            nulls: [~, a]
            floats: [1.5, 1]
            ''',
        'role': '''
            ints: [2, 10]
            strings: [c, A]
            mixed: [a, 1]
            nested: {l: [x]}
            hashes: [{a: 1}]
            bools: [false]
            nulls: [b]
            floats: [0.5]
            ''',
        'common': '''
            nested: {only_low: [c, b, a]}
            single: [c, a, b]
            '''})
    for key in ('ints', 'strings', 'mixed', 'nested', 'hashes', 'bools', 'nulls', 'floats', 'single'):
        book.ask(repo, 'sort.' + key, key, feature, merge='deep', sort=True)
    book.ask(repo, 'sort.cli-without-deep', 'ints', feature + ['error'], merge='hash', sort=True)

    feature = ['merge:deep', 'merge:merge_hash_arrays']
    repo = book.layered('hash-arrays', {
        'node': '''
            pairs: [{a: 1}, {b: 2}]
            longer_low: [{a: 1}]
            mixed_items: [{a: 1}, x]
            empty_high: []
            nested: [{l: [1], h: {x: 1}}]
            with_null: [~]
            ''',
        'role': '''
            pairs: [{a: 2, c: 3}]
            longer_low: [{b: 1}, {c: 1}, {d: 1}]
            mixed_items: [{b: 1}]
            empty_high: [{a: 1}]
            nested: [{l: [2], h: {y: 1}}]
            with_null: [{a: 1}]
            '''})
    for key in ('pairs', 'longer_low', 'mixed_items', 'empty_high', 'nested', 'with_null'):
        book.ask(repo, 'hash-arrays.' + key.replace('_', '-'), key, feature, merge='deep', hash_arrays=True)
    book.ask(repo, 'hash-arrays.off', 'pairs', ['merge:deep'], merge='deep')
    book.ask(repo, 'hash-arrays.with-sort', 'longer_low', feature + ['merge:sort_merged_arrays', 'error'],
             merge='deep', hash_arrays=True, sort=True)
    book.ask(repo, 'hash-arrays.explain', 'pairs', feature, merge='deep', hash_arrays=True, explain=True)

    repo = book.layered('deep-options-from-data', {
        'node': 'k: [--a, c]\n',
        'common': '''
            lookup_options:
              k:
                merge:
                  strategy: deep
                  knockout_prefix: "--"
                  sort_merged_arrays: true
            k: [b, a, d]
            '''})
    book.ask(repo, 'deep.options-from-data', 'k', ['merge:deep', 'lookup_options', 'merge:knockout',
                                                   'merge:sort_merged_arrays'], explain=True)
    book.ask(repo, 'deep.cli-deep-drops-data-options', 'k', ['merge:deep', 'merge:cli-override'], merge='deep')


def cli_cases(book: Book) -> None:
    repo = book.layered('cli', {'common': 'a: [1]\n'})
    book.ask(repo, 'cli.unknown-merge', 'a', ['merge:cli', 'error'], merge='deeper')


def hand_written() -> Tuple[Dict[str, dict], List[dict]]:
    """All hand-written repositories and cases."""
    book = Book()
    for group in (config_cases, level_interpolation_cases, bad_config_cases, data_file_cases, key_cases,
                  interpolation_cases, lookup_options_cases, first_cases, unique_cases, hash_cases, deep_cases,
                  cli_cases):
        group(book)
    return book.repositories, book.cases
