# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fuzz target of Hiera repositories, as a data writer sees them: random hiera.yaml levels (path, paths, glob,
globs, mapped_paths, interpolated facts), data files full of ``%{...}`` (lookup, hiera, alias, scope, literal;
nested, cyclic, chained), lookup_options with regex keys and merge behaviours, whole-file and inline vault values,
links. Driven through plugin_utils/sources/hiera_yaml.py as the lookup and inventory plugins drive it; the oracle is
surfaces.py's (docs/security.md). STRATA_FUZZ_EXAMPLES sets the examples per test; ``scripts/fuzz`` runs many.
"""

from __future__ import annotations

import os
import tempfile

import pytest
import yaml
from hypothesis import given, strategies as st

from ansible.utils.display import Display

from ansible_collections.strata.hier.plugins.module_utils.core.errors import HieraNotFound
from ansible_collections.strata.hier.plugins.plugin_utils.sources.hiera_yaml import HieraSource, whole_node
from ansible_collections.strata.hier.tests.unit.plugins.plugin_utils.surfaces import (
    FINDINGS, FUZZ, INLINE_SECRET, INLINE_VAULT, allowance, bounded, check_error,
    check_vaulted_keys, check_warnings, line_limit, loader, metered, shows, size_of, started, WHOLE_VAULTED,
    warnings_kept, write_files,
)

PATHS = ['common.yaml', 'nodes/%{trusted.certname}.yaml', 'roles/%{facts.role}.yaml', '%{role}.yaml',
         'roles/%{::role}.yaml', 'os/%{facts.os.family}.yaml', 'env/%{facts.env}.yaml', 'json/%{role}.json',
         '%{facts.evil}.yaml', '../escape.yaml', '/etc/hosts', '%{trusted.hostname}/%{facts.missing}.yaml',
         'whole.yaml', '', '%{', 'roles']
METHOD_PATHS = ['%{lookup("a")}.yaml', '%{literal("c")}ommon.yaml']
"""Method syntax in a level's path: refused, the error naming the hiera.yaml and the level (found by this target)."""
GLOBS = ['*.yaml', '**/*.yaml', 'roles/*.yaml', '{common,roles/web}.yaml', 'roles/%{facts.braces}.yaml',
         '[a-z]*.yaml', 'nodes/**', '%{facts.role}/../*.yaml']
MAPPED = [['facts.apps', 'app', 'apps/%{app}.yaml'], ['role', 'r', 'roles/%{r}.yaml'],
          ['facts.evil', 'e', '%{e}.yaml'], ['apps', 'app', 'apps/%{app}/%{literal("x")}.yaml']]


@st.composite
def hiera_yaml(draw):
    paths = PATHS + METHOD_PATHS
    levels = []
    for index in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(['path', 'paths', 'glob', 'globs', 'mapped_paths']))
        if kind == 'path':
            location = draw(st.sampled_from(paths))
        elif kind == 'glob':
            location = draw(st.sampled_from(GLOBS))
        elif kind == 'mapped_paths':
            location = draw(st.sampled_from(MAPPED))
        else:
            location = draw(st.lists(st.sampled_from(paths if kind == 'paths' else GLOBS), max_size=3))
        level = {'name': 'l%d' % index, kind: location}
        if draw(st.integers(0, 5)) == 0:
            level['data_hash'] = draw(st.sampled_from(['json_data', 'yaml_data', 'eyaml_lookup_key']))
        if draw(st.integers(0, 7)) == 0:
            level['datadir'] = draw(st.sampled_from(['data/roles', '..', '/etc', 'data']))
        levels.append(level)
    config = {'version': 5, 'defaults': {'datadir': 'data', 'data_hash': 'yaml_data'}, 'hierarchy': levels}
    if draw(st.integers(0, 9)) == 0:
        config = draw(st.sampled_from([{'version': 4}, {'version': 5, 'hierarchy': 'x'}, {'version': 5, 'x': 1},
                                       {'version': 5, 'hierarchy': [{'name': 'a'}]}]))
    return yaml.safe_dump(config)


INTERPOLATIONS = ['%{lookup("a")}', "%{lookup('b')}", '%{hiera("c")}', '%{alias("a")}', '%{alias("x::y")}',
                  'pre %{alias("a")}', '%{scope("role")}', '%{facts.role}', '%{::role}', '%{trusted.certname}',
                  '%{literal("%")}{lookup("a")}', '%{lookup("a")}-%{lookup("b")}', '%{lookup("a.0")}',
                  '%{lookup("a.k")}', '%{lookup("x::y")}', '%{lookup("inline")}', '%{alias("inline")}',
                  '%{lookup("whole")}', '%{unknown("a")}', '%{}', '%{lookup("a"}', '%{lookup("lookup_options")}',
                  '%{facts}', '%{trusted}', '%{facts.evil}', '%{lookup("%{facts.role}")}', '%{alias("c")}',
                  '%{ lookup("c") }', '%{::}', '%{"quoted.key"}', '%{lookup("\'q.x\'")}']
KEYS = ['a', 'b', 'c', 'x::y', 'a.b', '"q"', 'q.x', 'inline', '%{facts.role}', '--a', 'é']
VAULTED_KEY = '%{lookup("whole")}'
"""A map key interpolating a whole-file vaulted value: its host variable must be in hier_vaulted_keys (issue 25,
finding 4)."""
SCALARS = st.one_of(st.sampled_from(INTERPOLATIONS), st.sampled_from(['--a', 'x', '', 'web', '%', '%{']),
                    st.integers(-2, 2), st.booleans(), st.none())


def values(keys):
    return st.recursive(SCALARS, lambda children: st.one_of(
        st.lists(children, max_size=3), st.dictionaries(st.sampled_from(keys + ['k', 'k2', 'x']), children, max_size=3)),
        max_leaves=8)


VALUES = values(KEYS)
VAULTED_VALUES = values(KEYS + [VAULTED_KEY])
MERGES = st.sampled_from(['first', 'unique', 'hash', 'deep', {'strategy': 'deep', 'knockout_prefix': '--',
                                                              'merge_hash_arrays': True, 'sort_merged_arrays': True},
                          {'strategy': 'deep', 'knockout_prefix': '(x'}, {'strategy': 'hash'}, 'bogus', 5, None,
                          {'strategy': 'unique', 'x': 1}])
OPTION_KEYS = ['a', 'b', 'c', '^a', '^(a|b)$', '^x::', '^[', '^.*$', 'x::y', '^\\z', '^\\h+$']
HOSTILE_REGEXES = ['^(a|a)+$', '^((a+))+$', '^(a+)+$', '^(.*a){12}$']
HOSTILE_PREFIXES = ['(a|a)+', '((-+))+']
"""Patterns whose backtracking match takes exponential time: refused (issue 25, finding 7)."""


LOOKUP_OPTIONS = st.dictionaries(st.sampled_from(OPTION_KEYS), st.one_of(
    st.fixed_dictionaries({'merge': MERGES}), st.sampled_from(['deep', [1], None])), max_size=3)


FILES = ['common.yaml', 'nodes/web01.example.com.yaml', 'roles/web.yaml', 'web.yaml', 'os/Debian.yaml',
         'env/prod.yaml', 'apps/x.yaml', 'apps/y.yaml', 'json/web.json', 'a.yaml', 'roles/sub/c.yaml']


@st.composite
def data_file(draw, name, vaulted_keys=False):
    data = draw(st.dictionaries(st.sampled_from(KEYS), VAULTED_VALUES if vaulted_keys else VALUES, max_size=4))
    if draw(st.integers(0, 2)) == 0:
        data['lookup_options'] = draw(LOOKUP_OPTIONS)
    if draw(st.integers(0, 5)) == 0:
        data['inline'] = 'INLINE'
    text = yaml.safe_dump(data, default_flow_style=False).replace("'INLINE'", INLINE_VAULT).replace(
        'INLINE', INLINE_VAULT)
    if name.endswith('.json') and draw(st.booleans()):
        text = yaml.safe_dump(data, default_flow_style=True).replace('INLINE', 'x')
    if draw(st.integers(0, 15)) == 0:
        text = draw(st.sampled_from(['a: [unclosed\n', 'a: &x [1]\nb: *x\n', '- 1\n', 'a: !!binary aGk=\n',
                                     'a: 2001-01-01\n', '{true: 1, null: 2}\n', 'a: {true: 1}\n', '\t', '\xff']))
    return text


@st.composite
def chain(draw):
    """Keys k0..kN, each interpolating the one before once or twice: a chain of lookups, or a doubling."""
    length = draw(st.integers(2, 70))
    twice = draw(st.booleans())
    form = draw(st.sampled_from(['%{lookup("kN")}', '%{hiera("kN")}', '%{alias("kN")}']))
    data = {'k0': 'ab'}
    for index in range(1, length):
        one = form.replace('N', str(index - 1))
        data['k%d' % index] = one + one if twice and 'alias' not in form else one
    return data, 'k%d' % (length - 1)


@st.composite
def repository(draw, finding=None):
    hostile, links, chains = finding == 'regexes', finding == 'links', finding == 'chains'
    files = {'hiera.yaml': draw(hiera_yaml())}
    for name in draw(st.lists(st.sampled_from(FILES), min_size=1, max_size=5, unique=True)):
        files['data/' + name] = draw(data_file(name, finding == 'vaulted-keys'))
    if draw(st.integers(0, 3)) == 0 or finding == 'vaulted-keys':
        files['data/' + draw(st.sampled_from(['whole.yaml', 'common.yaml', 'roles/web.yaml']))] = WHOLE_VAULTED
    keys = draw(st.lists(st.sampled_from(KEYS + ['w', 'wmap', 'k', 'lookup_options', 'a.0', 'a.k', '']),
                         min_size=1, max_size=3))
    if chains:
        data, last = draw(chain())
        files['data/common.yaml'] = yaml.safe_dump(data)
        keys.append(last)
    refused = ()
    if finding == 'vaulted-keys':   # every file read, whole.yaml vaulted, a map key interpolating it
        files['hiera.yaml'] = yaml.safe_dump({'version': 5, 'hierarchy': [{'name': 'all', 'glob': '**/*.yaml'}]})
        files['data/whole.yaml'] = WHOLE_VAULTED
        files['data/keys.yaml'] = yaml.safe_dump({draw(st.sampled_from(KEYS)): {VAULTED_KEY: draw(SCALARS)}})
    if hostile:     # a regex key refuses every lookup (lookup_options are read for each), a knockout_prefix key a's
        # (a knockout prefix is read only where a deep merge meets items: a is found on two levels)
        data = {'a': ['aaaa'], 'b': ['--a'], 'lookup_options': draw(LOOKUP_OPTIONS)}
        pattern = draw(st.sampled_from(HOSTILE_REGEXES + HOSTILE_PREFIXES))
        if pattern in HOSTILE_REGEXES:
            data['lookup_options'][pattern] = {'merge': 'deep'}
            refused = tuple(['a'] + keys)
        else:
            data['lookup_options']['a'] = {'merge': {'strategy': 'deep', 'knockout_prefix': pattern}}
            refused = ('a',)
        files['data/hostile.yaml'] = yaml.safe_dump(data)
        files['data/more.yaml'] = yaml.safe_dump({'a': ['--a', 'aaaa']})
        levels = [{'name': name, 'path': name + '.yaml'} for name in ('hostile', 'more', 'common')]
        files['hiera.yaml'] = yaml.safe_dump({'version': 5, 'hierarchy': levels})
        keys = ['a'] + keys
    if links:
        for name in draw(st.lists(st.sampled_from(['link.yaml', 'roles/link.yaml', 'loop', 'roles/loop', 'up.yaml']),
                                  min_size=1, max_size=3, unique=True)):
            targets = ['../../outside/secret.yaml', '/etc/hostname', '.', '..', '../../outside', 'common.yaml']
            files['data/' + name] = ('link', draw(st.sampled_from(targets)))
    return files, keys, refused


FACT_TEXTS = ['web', 'prod', '..', '../..', '../../outside/secret', '*', '**', '%{facts.evil}', '%{lookup("a")}',
              '{a,b}', '', 'Debian', 'x/../..']
NUL_TEXTS = ['web\x00', '\x00']
"""A NUL byte in a fact: in a glob level, os.listdir raises ValueError (found by this target; not one of issue 25's
findings)."""


def host(nul=False):
    return st.fixed_dictionaries({'inventory_hostname': st.sampled_from(['web01.example.com', 'db', '..', 'a/b'])},
                                 optional=dict({name: fact_values(nul) for name in ('role', 'env', 'evil', 'apps')},
                                               braces=st.integers(0, 7).map(lambda n: '{a,b}' * n),
                                               ansible_facts=st.fixed_dictionaries({}, optional={
                                                   'os_family': fact_values(nul), 'role': fact_values(nul)})))


def fact_values(nul):
    return st.one_of(st.sampled_from(FACT_TEXTS + NUL_TEXTS if nul else FACT_TEXTS),
                     st.integers(0, 2), st.none(),
                     st.lists(st.sampled_from(['x', 'y', '..', '%{lookup("a")}']), max_size=3),
                     st.dictionaries(st.sampled_from(['x', 'family']), st.sampled_from(['x', 'y', '..']), max_size=2))


OUTSIDE = 'a: outside-of-repo\nb: outside-of-repo\nc: outside-of-repo\n'


def fuzz_repository(files, keys, refused, facts, merge):
    with tempfile.TemporaryDirectory() as folder:
        root = os.path.join(folder, 'repo')
        write_files(folder, {'outside/secret.yaml': OUTSIDE})
        written = write_files(root, files)
        names = [root, 'lookup_options', 'hiera.yaml'] + keys + KEYS + ['w'] + ['k%d' % index for index in range(80)]
        start = started()
        with warnings_kept() as warnings:
            outputs = metered(lambda: _run(os.path.join(root, 'hiera.yaml'), keys, facts, merge, names, refused),
                              line_limit(written))
        bounded(start)
        check_warnings(warnings)
        for output in outputs:
            assert not shows(output, 'outside-of-repo'), 'a file outside the repository was read'
            assert size_of(output) <= allowance(written), 'the result is larger than the expansion budget allows'


def _run(path, keys, facts, merge, names, refused):
    outputs = []
    try:
        source = HieraSource(path, loader())
    except Exception as exc:  # pylint: disable=broad-except  # check_error judges it
        check_error(exc, names)
        return outputs
    for key in keys:
        for explain in (False, True):
            engine = source.engine(facts, explain=explain)
            try:
                value = engine.lookup(key, merge)
            except HieraNotFound:
                continue
            except Exception as exc:  # pylint: disable=broad-except
                check_error(exc, names)
                continue
            finally:
                assert not shows(engine.explain.lines, INLINE_SECRET), 'explain shows a vault value'
            assert not shows(value, INLINE_SECRET), 'a lookup result shows a vault value in clear'
            assert key not in refused or merge is not None, 'a regex from data that backtracks exponentially was used'
            outputs.append(value)
    try:
        host_vars = whole_node(source, facts, '__', provenance=True, warn=Display().warning)
    except Exception as exc:  # pylint: disable=broad-except
        check_error(exc, names)
    else:
        assert not refused or refused == ('a',), 'a regex from data that backtracks exponentially was used'
        check_vaulted_keys(host_vars)
        outputs.append(host_vars)
    return outputs


MERGE_ARGUMENT = st.one_of(st.none(), st.sampled_from(['first', 'unique', 'hash', 'deep']))


@FUZZ
@given(repository(), host(), MERGE_ARGUMENT)
def test_hiera_repositories(generated, facts, merge):
    fuzz_repository(*generated, facts, merge)


# Each finding's inputs in a target of its own: the target above runs clean without them (a finding not fixed yet
# is marked xfail).
@pytest.mark.parametrize('finding', [
    'regexes',
    'links',
    'vaulted-keys',
    'chains',
    'nul',
])
@FINDINGS
@given(data=st.data())
def test_hiera_findings(finding, data):
    files, keys, refused = data.draw(repository(finding))
    fuzz_repository(files, keys, refused, data.draw(host(finding == 'nul')), data.draw(MERGE_ARGUMENT))
