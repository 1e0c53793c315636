# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Provenance of Hiera lookups (issue 28): file and line of every part of an answer, what it shadowed and what each
knockout removed, for a hiera.yaml (module_utils/dialects/hiera/provenance.py, plugin_utils/sources/hiera_yaml.py).

- golden records on a small repository (deep merge with a knockout, unique, first shadowing, lookup_options lines);
- the levels provenance names are the levels ``puppet lookup --explain`` found the key on (the recorded corpus);
- re-merging: the values at the places the records name, alone in otherwise empty data files, give the same answer
  (generated repositories), and a lookup with provenance answers as one without.
"""

from __future__ import annotations

import json
import os
import re
import tempfile

import pytest
import yaml
from hypothesis import given, strategies as st

from ansible_collections.strata.hier.plugins.module_utils.core.errors import HieraNotFound, MergeError
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.engine import HieraLookup, hiera_scope
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.config import parse_hiera_config
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.keys import split_key
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.ruby import eql_key
from ansible_collections.strata.hier.plugins.plugin_utils.compat import is_vault_value
from ansible_collections.strata.hier.plugins.plugin_utils.sources.hiera_yaml import (
    HieraSource, provenance_records, whole_node,
)
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.hiera_corpus import (
    Replayer, cli_merge, load_corpus, read_data,
)
from ansible_collections.strata.hier.tests.unit.plugins.plugin_utils.surfaces import (
    FUZZ, INLINE_SECRET, INLINE_VAULT, WHOLE_VAULTED, loader, shows, write_files,
)

GOLDEN = {
    'hiera.yaml': 'version: 5\ndefaults:\n  datadir: data\n  data_hash: yaml_data\nhierarchy:\n'
                  '  - name: node\n    path: nodes/%{trusted.certname}.yaml\n'
                  '  - name: role\n    path: roles/%{facts.role}.yaml\n'
                  '  - name: common\n    path: common.yaml\n',
    'data/nodes/db01.yaml': 'lookup_options:\n  packages:\n    merge:\n      strategy: deep\n      knockout_prefix: "--"\n'
                            'packages:\n  - --chrony\n  - ntpsec\nntp:\n  makestep: 0.1 -1\nmotd: welcome to db01\n',
    'data/roles/db.yaml': 'lookup_options:\n  users:\n    merge: unique\npackages: [chrony, postgresql]\n'
                          'users: [alice, bob]\n',
    'data/common.yaml': 'lookup_options:\n  ntp:\n    merge: deep\npackages:\n  - openssh-server\n'
                        'ntp:\n  makestep: 1.0 3\n  servers: [0.pool.ntp.org, 1.pool.ntp.org]\n'
                        'users: [bob, carol]\nmotd: welcome\n',
}
HOST = {'inventory_hostname': 'db01', 'role': 'db'}
NODE, ROLE, COMMON = 'data/nodes/db01.yaml', 'data/roles/db.yaml', 'data/common.yaml'


def _where(file, line, column, level, **more):
    return dict(more, file=file, line=line, column=column, level=level, level_path=file)


def _rule(name, at):
    return {'rule': name, 'rule_at': at}


def _item(value, file, line, column, level, rule, **more):
    return dict(_where(file, line, column, level, **more), value=value, **rule)


PACKAGES = _rule('packages', NODE + ':2')
NTP = _rule('ntp', COMMON + ':2')
USERS = _rule('users', ROLE + ':2')
EXPECTED = {
    'packages': {
        'packages': dict(_where(NODE, 6, 1, 'node', end_line=8), **PACKAGES, removed=[
            {'file': ROLE, 'line': 4, 'value': 'chrony', 'marker': {'file': NODE, 'line': 7}}],
            merged=[{'file': ROLE, 'line': 4}, {'file': COMMON, 'line': 4}]),
        'packages/0': _item('openssh-server', COMMON, 5, 5, 'common', PACKAGES),
        'packages/1': _item('postgresql', ROLE, 4, 20, 'role', PACKAGES),
        'packages/2': _item('ntpsec', NODE, 8, 5, 'node', PACKAGES),
    },
    'ntp': {
        'ntp': dict(_where(NODE, 9, 1, 'node', end_line=10), **NTP, merged=[{'file': COMMON, 'line': 6}]),
        'ntp/makestep': _item('0.1 -1', NODE, 10, 3, 'node', NTP,
                              shadowed=[{'file': COMMON, 'line': 7, 'value': '1.0 3'}]),
        'ntp/servers': dict(_where(COMMON, 8, 3, 'common'), **NTP),
        'ntp/servers/0': _item('0.pool.ntp.org', COMMON, 8, 13, 'common', NTP),
        'ntp/servers/1': _item('1.pool.ntp.org', COMMON, 8, 29, 'common', NTP),
    },
    'users': {
        'users': dict(_where(ROLE, 5, 1, 'role'), **USERS, merged=[{'file': COMMON, 'line': 9}]),
        'users/0': _item('alice', ROLE, 5, 9, 'role', USERS),
        'users/1': _item('bob', ROLE, 5, 16, 'role', USERS, shadowed=[{'file': COMMON, 'line': 9, 'value': 'bob'}]),
        'users/2': _item('carol', COMMON, 9, 14, 'common', USERS),
    },
    'motd': {
        'motd': _item('welcome to db01', NODE, 11, 1, 'node', _rule(None, None),
                      shadowed=[{'file': COMMON, 'line': 10, 'value': 'welcome'}]),
    },
}


@pytest.fixture(scope='module')
def golden(tmp_path_factory):
    root = str(tmp_path_factory.mktemp('golden'))
    write_files(root, GOLDEN)
    return HieraSource(os.path.join(root, 'hiera.yaml'), loader())


@pytest.mark.parametrize('key', sorted(EXPECTED))
def test_golden_records(golden, key):
    """Deep merge with a knockout (removed, with its marker's line), a unique array (a dropped copy shadowed), a
    first-found key shadowing a less specific one, rules declared on a data file's lookup_options line."""
    engine = golden.engine(HOST, provenance=True)
    engine.lookup(key)
    records = provenance_records(golden, engine)
    assert records == EXPECTED[key]
    assert list(records) == list(EXPECTED[key])     # the looked-up path first, in the value's order


def test_sub_key_records_start_at_the_looked_up_path(golden):
    engine = golden.engine(HOST, provenance=True)
    assert engine.lookup('ntp.servers.1') == '1.pool.ntp.org'
    assert provenance_records(golden, engine) == {'ntp/servers/1': EXPECTED['ntp']['ntp/servers/1']}


def test_merge_argument_is_the_rule(golden):
    engine = golden.engine(HOST, provenance=True)
    assert engine.lookup('motd', 'unique') == ['welcome to db01', 'welcome']
    records = provenance_records(golden, engine)
    assert records['motd/1']['rule'] == 'merge' and records['motd/1']['line'] == 10


def test_without_provenance_nothing_is_traced(golden):
    engine = golden.engine(HOST)
    engine.lookup('packages')
    assert engine.trace is None and provenance_records(golden, engine) == {}


def test_whole_node_gives_hier_provenance_per_host_variable(golden):
    host_vars = whole_node(golden, HOST, '__', provenance=True, warn=[].append)
    expected = {}
    for key in ('packages', 'ntp', 'users', 'motd'):     # the data's keys, first seen first
        expected.update(EXPECTED[key])
    assert host_vars['hier_provenance'] == expected
    assert 'hier_provenance' not in whole_node(golden, HOST, '__', warn=[].append)


def test_vault_values_stay_vault_values_and_vaulted_files_are_withheld(tmp_path):
    files = {'hiera.yaml': GOLDEN['hiera.yaml'], 'data/nodes/db01.yaml': 'secret: %s\n' % INLINE_VAULT,
             'data/common.yaml': WHOLE_VAULTED, 'data/roles/db.yaml': 'lookup_options:\n  w: {merge: unique}\n'
                                                                      'w: [role]\n'}
    write_files(str(tmp_path), files)
    source = HieraSource(str(tmp_path / 'hiera.yaml'), loader())
    engine = source.engine(HOST, provenance=True)
    engine.lookup('secret')
    record = provenance_records(source, engine)['secret']
    assert is_vault_value(record['value']) and record['line'] == 1
    assert not shows(json.dumps(record, default=lambda value: '<vault>'), INLINE_SECRET)
    engine.lookup('w')
    records = provenance_records(source, engine)
    assert records['w/1'] == {'file': 'data/common.yaml', 'withheld': True, 'level': 'common',
                              'level_path': 'data/common.yaml', 'rule': 'w', 'rule_at': 'data/roles/db.yaml:2'}
    # a host variable in hier_vaulted_keys: its paths and values may be vaulted data in clear
    host_vars = whole_node(source, HOST, '__', provenance=True, warn=[].append)
    assert 'w' in host_vars['hier_vaulted_keys']
    assert [path for path in host_vars['hier_provenance'] if path.startswith('w/')] == []
    assert host_vars['hier_provenance']['w']['withheld'] and 'value' not in host_vars['hier_provenance']['w']


# ---------------------------------------------------------------------------------------- Puppet's explain


_FOUND = re.compile(r'^Found key: "(.*)" value: ')


def puppet_found(text, key, environment):
    """(level, file) where Puppet's --explain text found the root of ``key``, in the lookup of ``key`` itself (the
    lookups of lookup_options and of interpolations left out)."""
    lines = text.replace('{environment}', environment).split('\n')
    start = lines.index('Searching for "%s"' % key)
    root, found, level, path, skipping = str(split_key(key)[0]), [], None, None, None
    for line in lines[start + 1:]:
        indent, stripped = len(line) - len(line.lstrip()), line.strip()
        if indent == 0:
            break
        if skipping is not None and indent > skipping:
            continue
        skipping = indent if stripped.startswith('Searching for') else None
        if stripped.startswith('Hierarchy entry "'):
            level = stripped[len('Hierarchy entry "'):-1]
        elif stripped.startswith('Path "'):
            path = os.path.relpath(stripped[len('Path "'):-1], environment)
        elif _FOUND.match(stripped) and _FOUND.match(stripped).group(1) == root:
            found.append((level, path))
    return found


def _named(records):
    places = {(record['level'], record['file']) for record in records.values() if record.get('file')}
    files = {file for _level, file in places}
    for record in records.values():
        files.update(other['file'] for other in record.get('shadowed', []))
        files.update(other['file'] for other in record.get('removed', []))
    return places, files


def test_levels_named_are_the_levels_puppet_lookup_explain_found(tmp_path):
    """Over the recorded ``puppet lookup --explain`` corpus: every place provenance names is a level and file Puppet
    found the key in; with a merge, the files named (places, shadowed, removed) are exactly those Puppet found (a
    sub key: among them); with first found, the key's own record is Puppet's one found level."""
    replayer = Replayer(load_corpus(), str(tmp_path))
    cases = [case for case in replayer.corpus['cases'] if case.get('explain') and case['answer']['status'] == 'found']
    checked = []
    for case in cases:
        folder = replayer.folder(case['repository'])
        found = puppet_found(case['explain_text'], case['key'], folder)
        records = _records(case, replayer, folder)
        if records is None:
            continue
        places, files = _named(records)
        assert places <= set(found), case['id']
        if len(found) == 1:
            first = next(iter(records.values()))
            assert (first['level'], first['file']) == found[0], case['id']
        elif '.' in case['key']:
            assert files <= {file for _level, file in found}, case['id']
        else:
            assert files == {file for _level, file in found}, case['id']
        checked.append(case['id'])
    assert len(checked) >= 25, checked


def _records(case, replayer, folder):
    repository = replayer.corpus['repositories'][case['repository']]
    path = os.path.join(folder, 'hiera.yaml')
    with open(path, encoding='utf-8') as handle:
        config = parse_hiera_config(yaml.safe_load(handle), path)
    engine = HieraLookup(config, read_data, hiera_scope(repository['node'], repository['facts']), provenance=True)
    try:
        engine.lookup(case['key'], cli_merge(case)[0])
    except (HieraNotFound, MergeError):     # a departure (hiera_corpus.DEPARTURES)
        return None
    return provenance_records(HieraSource(path, loader()), engine)


# ---------------------------------------------------------------------------------------- re-merging


HIERA_YAML = yaml.safe_dump({'version': 5, 'defaults': {'datadir': 'data', 'data_hash': 'yaml_data'}, 'hierarchy': [
    {'name': 'node', 'path': 'nodes/%{trusted.certname}.yaml'}, {'name': 'role', 'path': 'roles/%{facts.role}.yaml'},
    {'name': 'envs', 'glob': 'env/*.yaml'}, {'name': 'common', 'path': 'common.yaml'}]})
DATA_FILES = ['nodes/web01.yaml', 'roles/web.yaml', 'env/a.yaml', 'env/b.yaml', 'common.yaml']
ROOT_KEYS = ['a', 'b', 'c']
MERGES = st.sampled_from(['first', 'unique', 'hash', 'deep', {'strategy': 'deep', 'knockout_prefix': '--'},
                          {'strategy': 'deep', 'sort_merged_arrays': True},
                          {'strategy': 'deep', 'knockout_prefix': '--', 'sort_merged_arrays': True}])
SCALARS = st.sampled_from(['x', 'y', 'z', '--x', '--y', '--', '', 1, 2, 1.0, True, False, None, '%{facts.role}'])
VALUES = st.recursive(SCALARS, lambda children: st.one_of(
    st.lists(children, max_size=4), st.dictionaries(st.sampled_from(['k', 'l', 'x']), children, max_size=3)),
    max_leaves=10).filter(lambda value: isinstance(value, (dict, list)) or value is None or value == '--x')
"""Mostly maps and lists: what merges meet."""


@st.composite
def hiera_repository(draw):
    files = {'hiera.yaml': HIERA_YAML}
    for name in draw(st.lists(st.sampled_from(DATA_FILES), min_size=2, max_size=5, unique=True)):
        data = draw(st.dictionaries(st.sampled_from(ROOT_KEYS), VALUES, min_size=2, max_size=3))
        if draw(st.integers(0, 2)):
            data['lookup_options'] = draw(st.dictionaries(st.sampled_from(ROOT_KEYS + ['^[ab]$']),
                                                          st.fixed_dictionaries({'merge': MERGES}), min_size=1,
                                                          max_size=2))
        files['data/' + name] = yaml.safe_dump(data, default_flow_style=False)     # a key or an item a line
    return files


FACTS = {'inventory_hostname': 'web01', 'role': 'web'}


@FUZZ
@given(hiera_repository(), st.sampled_from(ROOT_KEYS),     # a sub key's answer depends on levels its records need
       # not name (a map new in a deep merge merges with itself): test_sub_key_records_start_at_the_looked_up_path
       st.sampled_from([None, None, None, 'first', 'unique', 'hash', 'deep']))
def test_remerging_the_named_places_gives_the_same_answer(files, key, merge):
    with tempfile.TemporaryDirectory() as folder:
        write_files(os.path.join(folder, 'repo'), files)
        source = HieraSource(os.path.join(folder, 'repo', 'hiera.yaml'), loader())
        answer, records = _answer(source, key, merge)
        if records is None:
            return
        assert list(records)[0] == '/'.join(str(segment) for segment in split_key(key))
        assert canonical(answer) == canonical(_answer(source, key, merge, provenance=False)[0])
        rebuilt = _rebuilt(os.path.join(folder, 'repo'), files, records, answer, key)
        write_files(os.path.join(folder, 'again'), rebuilt)
        again = HieraSource(os.path.join(folder, 'again', 'hiera.yaml'), loader())
        remerged = _answer(again, key, merge, provenance=False)[0]
        assert eql_key(remerged) == eql_key(answer), (records, rebuilt)


def canonical(value):
    return json.dumps(value)     # types and key order


def _answer(source, key, merge, provenance=True):
    engine = source.engine(FACTS, provenance=provenance)
    try:
        value = engine.lookup(key, merge)
    except (HieraNotFound, MergeError):
        return None, None
    return value, provenance_records(source, engine) if provenance else {}


def _rebuilt(root, files, records, answer, key):
    """The repository with each data file holding only its lookup_options and what the records name: each scalar and
    empty map or list of the answer at its place (a container's parts are placed by their own records), then what
    is written at the places of the shadowed definitions, the removed values and their markers (Hiera's deep merge
    may answer otherwise when a lower level lacks a key: a map new in the merge merges with itself)."""
    written = {}
    for name in files:
        if name.startswith('data/'):
            data = yaml.safe_load(files[name]) or {}
            written[name] = {'lookup_options': data['lookup_options']} if 'lookup_options' in data else {}
    others = []
    for path, record in records.items():
        value = _at(answer, path.split('/')[len(split_key(key)):])
        container = isinstance(value, (dict, list)) and value
        keys = _keys_at(os.path.join(root, record['file']), record['line'], record['column'], not container,
                        path.split('/')[-1])
        if container:
            _put(written[record['file']], keys, _Items() if isinstance(value, list) else _Map(), again=True)
        else:
            _put(written[record['file']], keys, record.get('value', value))
        for other in record.get('shadowed', []) + record.get('removed', []):
            others.extend([other] + ([other['marker']] if 'marker' in other else []))
    for other in others:
        keys = _keys_at(os.path.join(root, other['file']), other['line'], deepest=False)     # a whole list item
        _put(written[other['file']], keys, _written_at(os.path.join(root, other['file']), keys), again=True)
    rebuilt = {name: yaml.safe_dump(_compacted(data)) for name, data in written.items()}
    rebuilt['hiera.yaml'] = files['hiera.yaml']
    return rebuilt


def _written_at(path, keys):
    with open(path, encoding='utf-8') as handle:
        value = yaml.safe_load(handle)
    for key in keys:
        value = value[key[1] if isinstance(key, tuple) else key]
    return value


def _at(value, segments):
    for segment in segments:
        value = value[int(segment)] if isinstance(value, list) else value[segment]
    return value


def _keys_at(path, line, column=None, deepest=True, last=None):
    """The key path of the key or list item written at line:column of a YAML file (the deepest one starting there: a
    list item that is a map starts where its first key does; the shallowest for a map or list); without a column, any
    on the line (files written in block style: one key or item a line, but a map item's first key); ``last``:
    preferably the one ending with that key or index."""
    with open(path, encoding='utf-8') as handle:
        node = yaml.compose(handle, Loader=yaml.SafeLoader)
    found = []

    def walk(current, keys):
        pairs = []
        if isinstance(current, yaml.MappingNode):
            pairs = [(key_node, value_node, keys + (key_node.value,)) for key_node, value_node in current.value]
        elif isinstance(current, yaml.SequenceNode):
            pairs = [(item, item, keys + (('#', index),)) for index, item in enumerate(current.value)]
        for mark_node, child, child_keys in pairs:
            if mark_node.start_mark.line + 1 == line and column in (None, mark_node.start_mark.column + 1):
                found.append(child_keys)
            walk(child, child_keys)

    walk(node, ())
    assert found, 'no key or item at %s:%s:%s' % (path, line, column)
    named = [keys for keys in found if str(keys[-1][1] if isinstance(keys[-1], tuple) else keys[-1]) == last]
    found = named or found      # the key or index the record's path ends with (a map item starts at its first key)
    return max(found, key=len) if deepest else min(found, key=len)


class _Items(dict):
    """A list being rebuilt: items by their index in the original file."""


class _Map(dict):
    """A map a record places, its keys placed by their own records (``unique`` wraps a single value: an item may be
    placed where its list is)."""


def _put(data, keys, value, again=False):
    """``value`` at ``keys``; ``again``: unless something is there already (else two records name one spot)."""
    for index, key in enumerate(keys):
        slot = key[1] if isinstance(key, tuple) else key
        if not isinstance(data, dict):      # inside a value put whole (a shadowed definition): there already
            assert again, 'a record places a value inside another %r' % (keys,)
            return
        if index == len(keys) - 1:
            placeholder = isinstance(data.get(slot), (_Items, _Map)) and not data[slot]
            assert again or slot not in data or placeholder, 'two records place a value at one spot %r' % (keys,)
            if not again or slot not in data or (placeholder and isinstance(value, (_Items, _Map))):
                data[slot] = value      # an item placed where its list is (unique wraps a single value)
        else:
            data = data.setdefault(slot, _Items() if isinstance(keys[index + 1], tuple) else {})


def _compacted(value):
    if isinstance(value, _Items):
        return [_compacted(value[index]) for index in sorted(value)]
    if isinstance(value, dict):
        return {key: _compacted(item) for key, item in value.items()}
    return value
