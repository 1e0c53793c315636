# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Puppet's module layer: asks `puppet lookup` about keys of modules (`modules/<name>/hiera.yaml` and data) and
writes tests/oracle/hiera/module_corpus.json (corpus.json's format, README.md).

The questions are the hand-written MODULE cases below: merges across the environment's and a module's levels,
a module's lookup_options (exact and ``^`` patterns) and the environment's winning over them, a module without a
hiera.yaml, a module data file holding another namespace's keys, interpolation in module data, two modules of one
name along the modulepath, environment.conf's modulepath, explain.  Each repository is written as an environment
(hiera_oracle.write_repository; the codedir's own ``modules`` and Puppet's ``$basemodulepath`` hold nothing) and
asked through hiera_oracle's runner.  Without `puppet` on PATH it says so and exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import hiera_oracle  # noqa: E402  pylint: disable=wrong-import-position
from hiera_cases import Book, facts  # noqa: E402  pylint: disable=wrong-import-position

DEFAULT_CORPUS = os.path.join(HERE, 'module_corpus.json')

ENV_HIERA = '''\
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: "Per-node data"
    path: "nodes/%{trusted.certname}.yaml"
  - name: "Common data"
    path: "common.yaml"
'''
APP_HIERA = '''\
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: "App per-role"
    path: "roles/%{facts.role}.yaml"
  - name: "App common"
    path: "common.yaml"
'''
NODE_FILE = 'data/nodes/web01.example.com.yaml'


def merges(book: Book) -> None:
    """first, unique, hash, deep across the environment's levels and the module's."""
    repo = book.repo('merges', {
        'hiera.yaml': ENV_HIERA,
        NODE_FILE: '''
            app::list: [node1]
            app::map: {a: node, nested: {x: node}}
            ''',
        'data/common.yaml': '''
            app::list: [env1, shared]
            app::map: {b: env, nested: {y: env}}
            app::scalar: env
            ''',
        'modules/app/hiera.yaml': APP_HIERA,
        'modules/app/data/roles/web.yaml': '''
            app::list: [role1, shared]
            app::map: {c: role, nested: {x: role, z: role}}
            app::only: role
            ''',
        'modules/app/data/common.yaml': '''
            app::list: [mod1]
            app::map: {a: mod, d: mod, nested: {w: mod}}
            app::scalar: mod
            app::only: mod
            app::only_list: [m1, m2]
            app::only_map: {k: mod}
            ''',
    })
    for key in ('app::list', 'app::map', 'app::scalar', 'app::only'):
        for merge in (None, 'unique', 'hash', 'deep'):
            book.ask(repo, 'module.merge.%s-%s' % (key.split('::')[1], merge or 'none'), key,
                     ['module', 'merge:%s' % (merge or 'none')], merge=merge)
    book.ask(repo, 'module.merge.only-list-unique', 'app::only_list', ['module', 'merge:unique'], merge='unique')
    book.ask(repo, 'module.merge.only-map-deep', 'app::only_map', ['module', 'merge:deep'], merge='deep')
    book.ask(repo, 'module.merge.dig', 'app::map.nested.x', ['module', 'key:dotted'], merge='deep')
    book.ask(repo, 'module.merge.missing', 'app::nothing', ['module', 'key:missing'], merge='deep')
    book.ask(repo, 'module.merge.explain-deep', 'app::map', ['module', 'explain'], merge='deep', explain=True)
    book.ask(repo, 'module.merge.explain-first', 'app::only', ['module', 'explain'], explain=True)


def options(book: Book) -> None:
    """A module's lookup_options apply to its keys; the environment's entry wins over the module's."""
    repo = book.repo('options', {
        'hiera.yaml': ENV_HIERA,
        'data/common.yaml': '''
            lookup_options:
              app::both:
                merge: hash
              "^app::pat_env":
                merge: unique
            app::both: {env: 1, same: env}
            app::list: [env1]
            app::deep_map: {a: {x: env}}
            app::pat_env_list: [env1]
            app::pattern_order: [env1]
            plain: [env]
            ''',
        'modules/app/hiera.yaml': APP_HIERA,
        'modules/app/data/common.yaml': '''
            lookup_options:
              app::both:
                merge: deep
              app::list:
                merge: unique
              "^app::deep_":
                merge: deep
              "^app::pat":
                merge: unique
              app::knock:
                merge:
                  strategy: deep
                  knockout_prefix: "--"
            app::both: {mod: 1, same: mod}
            app::list: [mod1, env1]
            app::deep_map: {a: {y: mod}, b: mod}
            app::pat_env_list: [mod1]
            app::pattern_order: [mod1]
            app::knock: [a, b]
            ''',
        'modules/app/data/roles/web.yaml': '''
            app::knock: [--a, c]
            app::list: [role1]
            ''',
    })
    for key in ('app::both', 'app::list', 'app::deep_map', 'app::pat_env_list', 'app::pattern_order', 'app::knock'):
        book.ask(repo, 'module.options.%s' % key.split('::')[1], key, ['module', 'lookup_options'])
    book.ask(repo, 'module.options.cli-wins', 'app::list', ['module', 'lookup_options', 'merge:cli-override'],
             merge='first')
    book.ask(repo, 'module.options.not-for-other-keys', 'plain', ['module', 'lookup_options'], merge='first')
    book.ask(repo, 'module.options.explain', 'app::both', ['module', 'lookup_options', 'explain'], explain=True)
    book.ask(repo, 'module.options.explain-pattern', 'app::deep_map', ['module', 'lookup_options:regex', 'explain'],
             explain=True)


def options_refused(book: Book) -> None:
    """A module's lookup_options naming another namespace fail that module's keys (Puppet's validation)."""
    repo = book.repo('options-refused', {
        'hiera.yaml': ENV_HIERA,
        'data/common.yaml': 'good::k: env\nbad::k: env\nbadpat::k: env\nbadtype::k: env\n',
        'modules/good/hiera.yaml': APP_HIERA,
        'modules/good/data/common.yaml': 'lookup_options:\n  good::k: {merge: unique}\ngood::k: mod\n',
        'modules/bad/hiera.yaml': APP_HIERA,
        'modules/bad/data/common.yaml': 'lookup_options:\n  bad::k: {merge: unique}\n  other::k: {merge: deep}\n'
                                        'bad::k: mod\n',
        'modules/badpat/hiera.yaml': APP_HIERA,
        'modules/badpat/data/common.yaml': 'lookup_options:\n  "^other::": {merge: deep}\nbadpat::k: mod\n',
        'modules/badtype/hiera.yaml': APP_HIERA,
        'modules/badtype/data/common.yaml': 'lookup_options: [1]\nbadtype::k: mod\n',
    })
    for module in ('good', 'bad', 'badpat', 'badtype'):
        book.ask(repo, 'module.options-refused.%s' % module, '%s::k' % module, ['module', 'lookup_options', 'error'])


def providers(book: Book) -> None:
    """A module without a hiera.yaml (with or without data), no module of that name, a broken module hiera.yaml."""
    repo = book.repo('providers', {
        'hiera.yaml': ENV_HIERA,
        'data/common.yaml': 'gamma::env: env\n',
        'modules/gamma/data/common.yaml': 'gamma::k: gamma\ngamma::env: mod\n',
        'modules/delta/manifests/': '',
        'modules/broken/hiera.yaml': 'version: 5\nhierarchy:\n  - name: x\n    path: [1\n',
        'modules/broken/data/common.yaml': 'broken::k: v\n',
        'modules/v4/hiera.yaml': 'version: 4\nhierarchy:\n  - name: common\n    backend: yaml\n',
        'modules/v4/data/common.yaml': 'v4::k: v\n',
        'modules/nodefault/hiera.yaml': 'version: 5\n',
        'modules/nodefault/data/common.yaml': 'nodefault::k: default hierarchy\n',
    })
    book.ask(repo, 'module.provider.no-hiera-yaml', 'gamma::k', ['module'])
    book.ask(repo, 'module.provider.no-hiera-yaml-env', 'gamma::env', ['module'], merge='unique')
    book.ask(repo, 'module.provider.no-hiera-yaml-explain', 'gamma::k', ['module', 'explain'], explain=True)
    book.ask(repo, 'module.provider.no-data', 'delta::k', ['module'])
    book.ask(repo, 'module.provider.no-module', 'nosuch::k', ['module'])
    book.ask(repo, 'module.provider.no-module-explain', 'nosuch::k', ['module', 'explain'], merge='deep', explain=True)
    book.ask(repo, 'module.provider.broken', 'broken::k', ['module', 'error'])
    book.ask(repo, 'module.provider.broken-other-key', 'gamma::env', ['module'])
    book.ask(repo, 'module.provider.version-only', 'nodefault::k', ['module', 'config:hierarchy'])
    book.ask(repo, 'module.provider.version-4', 'v4::k', ['module', 'config:version'])


def foreign(book: Book) -> None:
    """A module's data file holding another namespace's keys: ignored for them, with a warning."""
    repo = book.repo('foreign', {
        'hiera.yaml': ENV_HIERA,
        'data/common.yaml': 'alpha::env: env\n',
        'modules/alpha/hiera.yaml': APP_HIERA,
        'modules/alpha/data/common.yaml': 'alpha::x: alpha\nbeta::x: from alpha\nbeta::y: from alpha\ntop: alpha\n',
        'modules/beta/hiera.yaml': APP_HIERA,
        'modules/beta/data/common.yaml': 'beta::x: beta\n',
    })
    book.ask(repo, 'module.foreign.own', 'alpha::x', ['module'])
    book.ask(repo, 'module.foreign.other-module', 'beta::x', ['module'])
    book.ask(repo, 'module.foreign.other-module-missing', 'beta::y', ['module', 'key:missing'])
    book.ask(repo, 'module.foreign.unqualified', 'top', ['module', 'key:missing'])


def interpolation(book: Book) -> None:
    """Facts, lookup(), alias() in a module's data and in its hierarchy's paths."""
    repo = book.repo('interpolation', {
        'hiera.yaml': ENV_HIERA,
        'data/common.yaml': 'plain_env: from env\napp::port: 8080\n',
        'modules/app/hiera.yaml': '''
            version: 5
            defaults:
              datadir: moddata
              data_hash: yaml_data
            hierarchy:
              - name: "App per-datacenter"
                path: "dc/%{facts.datacenter}.yaml"
              - name: "App common"
                path: "common.yaml"
            ''',
        'modules/app/moddata/dc/dc1.yaml': 'app::where: "in %{facts.datacenter} for %{trusted.certname}"\n',
        'modules/app/moddata/common.yaml': '''
            app::where: common
            app::url: "http://%{facts.fqdn}:%{lookup('app::port')}/"
            app::env_text: "%{lookup('plain_env')}"
            app::ports: "%{alias('app::port_list')}"
            app::port_list: [1, 2]
            app::same: "%{alias('app::port')}"
            app::other_module: "%{lookup('other::k')}"
            ''',
        'modules/other/hiera.yaml': APP_HIERA,
        'modules/other/data/common.yaml': 'other::k: other module\n',
    })
    for key in ('app::where', 'app::url', 'app::env_text', 'app::ports', 'app::same', 'app::other_module'):
        book.ask(repo, 'module.interpolation.%s' % key.split('::')[1], key, ['module', 'interpolation:data'])


def modulepath(book: Book) -> None:
    """environment.conf's modulepath: site-modules first, two modules of one name, the default modulepath."""
    modules = {
        'site-modules/alpha/hiera.yaml': APP_HIERA,
        'site-modules/alpha/data/common.yaml': 'alpha::k: [site]\nalpha::site_only: site\n',
        'modules/alpha/hiera.yaml': APP_HIERA,
        'modules/alpha/data/common.yaml': 'alpha::k: [modules]\nalpha::modules_only: modules\n',
        'modules/beta/hiera.yaml': APP_HIERA,
        'modules/beta/data/common.yaml': 'beta::k: beta\n',
        'data/common.yaml': 'alpha::k: [env]\n',
        'hiera.yaml': ENV_HIERA,
    }
    site_first = book.repo('modulepath-site-first', dict(
        modules, **{'environment.conf': '# r10k control repository\nmodulepath = site-modules:modules:$basemodulepath\n'}))
    modules_first = book.repo('modulepath-modules-first', dict(modules, **{'environment.conf': 'modulepath=modules:site-modules\n'}))
    default = book.repo('modulepath-default', dict(modules))
    for repo, name in ((site_first, 'site-first'), (modules_first, 'modules-first'), (default, 'default')):
        book.ask(repo, 'module.path.%s.unique' % name, 'alpha::k', ['module', 'modulepath'], merge='unique')
        book.ask(repo, 'module.path.%s.site-only' % name, 'alpha::site_only', ['module', 'modulepath'])
        book.ask(repo, 'module.path.%s.modules-only' % name, 'alpha::modules_only', ['module', 'modulepath'])
        book.ask(repo, 'module.path.%s.beta' % name, 'beta::k', ['module', 'modulepath'])
    book.ask(site_first, 'module.path.site-first.explain', 'alpha::k', ['module', 'modulepath', 'explain'],
             merge='unique', explain=True)


def module_cases():
    book = Book()
    for group in (merges, options, options_refused, providers, foreign, interpolation, modulepath):
        group(book)
    return book.repositories, book.cases


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--jobs', type=int, default=2, help='puppet processes in parallel')
    parser.add_argument('--out', default=DEFAULT_CORPUS)
    parser.add_argument('--timeout', type=float, default=120.0)
    args = parser.parse_args()
    puppet = shutil.which('puppet')
    if puppet is None:
        print('puppet is not installed (no `puppet` on PATH): the module oracle is skipped. See README.md.')
        return 0
    repositories, cases = module_cases()
    for repository in repositories.values():
        repository['facts'] = facts()
    questions = {'repositories': repositories, 'cases': cases}
    started = time.time()
    runner = hiera_oracle.Runner('fork', args.jobs, puppet, args.timeout)
    try:
        results = runner.run(repositories, cases, progress=True)
    finally:
        runner.close()
    elapsed = time.time() - started
    meta = {'puppet_version': hiera_oracle.puppet_version(puppet), 'mode': 'fork', 'jobs': args.jobs,
            'seconds': round(elapsed), 'generated_at': time.strftime('%Y-%m-%d', time.gmtime()), 'cases': len(cases)}
    hiera_oracle.write_corpus(args.out, meta, questions, results)
    print('%d cases in %.0f s: %s' % (len(cases), elapsed, hiera_oracle.summary(questions, results)))
    print(json.dumps(meta))
    return 0


if __name__ == '__main__':
    sys.exit(main())
