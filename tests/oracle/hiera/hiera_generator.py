# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Random Hiera 5 repositories and questions for hiera_oracle.py, deterministic by seed.

Repository n of a run with seed S is built from random.Random(S * 100003 + n) alone, so a corpus can be
regenerated (or extended) exactly. Each repository gets a hiera.yaml of 2 to 6 levels of every kind issue 10
lists (path, paths, glob, globs, mapped_paths, per-level datadir, yaml_data and json_data, interpolated
paths, levels whose file is missing), data over a small shared vocabulary (so that levels collide: the
same keys, the same items, type mismatches, nulls, empty values, knockout markers, duplicates), sometimes
interpolation in values and lookup_options in the data; then about five questions (root keys, dotted keys,
missing keys; no merge, or each merge with random deep options).
"""

from __future__ import annotations

import json
import random
import re
from typing import Any, Dict, List, Optional, Tuple

import yaml

DEFAULT_SEED = 20260
DEFAULT_COUNT = 250

NODES = ['web01.example.com', 'db02.example.net']
ROLES = ['web', 'db']
FAMILIES = ['Debian', 'RedHat']
DATACENTERS = ['dc1', 'dc2']
APPS = ['nginx', 'php', 'redis']
KEYS = ['k0', 'k1', 'k2', 'k3', 'k4', 'app_x', 'app_y', 'profile::ntp::servers']
WORDS = ['a', 'b', 'c', 'd']
SUBKEYS = ['x', 'y', 'z', 'w']
MARKERS = ['--a', '--b', '--x', '--']
SHAPES = ['scalar', 'list', 'map', 'nested', 'list_of_maps', 'mixed']


# --- facts --------------------------------------------------------------------------------------------
def random_facts(rng: random.Random) -> Tuple[str, Dict[str, Any]]:
    node = rng.choice(NODES)
    host, domain = node.split('.', 1)
    apps = rng.sample(APPS, rng.randint(0, 3))
    facts: Dict[str, Any] = {
        'hostname': host, 'domain': domain, 'fqdn': node, 'clientcert': node,
        'os': {'family': rng.choice(FAMILIES), 'release': {'major': rng.choice(['8', '22'])}},
        'role': rng.choice(ROLES), 'datacenter': rng.choice(DATACENTERS), 'tier': rng.choice(['prod', 'test']),
        'apps': apps,
    }
    if rng.random() < 0.2:
        del facts['role']          # a level interpolating it resolves to "roles/.yaml"
    return node, facts


# --- hierarchy ------------------------------------------------------------------------------------------
class Level:
    """One hierarchy entry: its hiera.yaml entry and the data files (relative to the environment) that may
    hold its data, each with its format."""

    def __init__(self, entry: Dict[str, Any], files: List[Tuple[str, str]], kind: str) -> None:
        self.entry = entry
        self.files = files
        self.kind = kind


def fact_path(rng: random.Random, facts: Dict[str, Any], node: str) -> Tuple[str, str]:
    """A path template interpolating one fact, and the path it resolves to."""
    choices = [
        ('nodes/%{trusted.certname}.yaml', 'nodes/%s.yaml' % node),
        ('roles/%{facts.role}.yaml', 'roles/%s.yaml' % facts.get('role', '')),
        ('os/%{facts.os.family}.yaml', 'os/%s.yaml' % facts['os']['family']),
        ('dc/%{::datacenter}.yaml', 'dc/%s.yaml' % facts['datacenter']),
        ('tier/%{tier}.yaml', 'tier/%s.yaml' % facts['tier']),
        ('os/%{facts.os.family}/%{facts.os.release.major}.yaml',
         'os/%s/%s.yaml' % (facts['os']['family'], facts['os']['release']['major'])),
    ]
    return rng.choice(choices)


def random_level(rng: random.Random, number: int, facts: Dict[str, Any], node: str, datadir: str,
                 default_format: str) -> Level:
    kind = rng.choice(['path', 'path', 'path', 'paths', 'glob', 'globs', 'mapped_paths', 'datadir', 'json',
                       'missing'])
    name = 'level %d (%s)' % (number, kind)
    extension = 'json' if default_format == 'json' else 'yaml'
    if kind in ('path', 'missing'):
        template, resolved = fact_path(rng, facts, node)
        template, resolved = template.replace('.yaml', '.' + extension), resolved.replace('.yaml', '.' + extension)
        if kind == 'missing':
            return Level({'name': name, 'path': 'absent/' + template}, [], kind)
        return Level({'name': name, 'path': template}, [(datadir + '/' + resolved, default_format)], kind)
    if kind == 'paths':
        first, resolved = fact_path(rng, facts, node)
        second = 'shared-%d.%s' % (number, extension)
        paths = [first.replace('.yaml', '.' + extension), second]
        rng.shuffle(paths)
        files = [(datadir + '/' + resolved.replace('.yaml', '.' + extension), default_format),
                 (datadir + '/' + second, default_format)]
        return Level({'name': name, 'paths': paths}, files, kind)
    if kind in ('glob', 'globs'):
        folder = 'conf%d.d' % number
        names = rng.sample(['10-base', '20-site', '9-extra', 'B-upper', 'a-lower'], rng.randint(1, 3))
        files = [('%s/%s/%s.%s' % (datadir, folder, stem, extension), default_format) for stem in names]
        if kind == 'glob':
            return Level({'name': name, 'glob': '%s/*.%s' % (folder, extension)}, files, kind)
        return Level({'name': name, 'globs': ['%s/[0-9]*.%s' % (folder, extension), '%s/*.%s' % (folder, extension)]},
                     files, kind)
    if kind == 'mapped_paths':
        files = [('%s/apps/%s.%s' % (datadir, app, extension), default_format) for app in APPS]
        variable = rng.choice(['facts.apps', 'apps'])
        return Level({'name': name, 'mapped_paths': [variable, 'app', 'apps/%{app}.' + extension]}, files, kind)
    if kind == 'datadir':
        template, resolved = fact_path(rng, facts, node)
        template, resolved = template.replace('.yaml', '.' + extension), resolved.replace('.yaml', '.' + extension)
        return Level({'name': name, 'datadir': 'site-data', 'path': template}, [('site-data/' + resolved, default_format)],
                     kind)
    # json (or yaml, when json is the default) through the level's own data_hash
    other = 'yaml' if default_format == 'json' else 'json'
    template, resolved = fact_path(rng, facts, node)
    template, resolved = template.replace('.yaml', '.' + other), resolved.replace('.yaml', '.' + other)
    return Level({'name': name, 'path': template, 'data_hash': other + '_data'}, [(datadir + '/' + resolved, other)],
                 'json' if other == 'json' else 'yaml')


# --- values ---------------------------------------------------------------------------------------------
def scalar(rng: random.Random, markers: bool) -> Any:
    roll = rng.random()
    if markers and roll < 0.12:
        return rng.choice(MARKERS)
    if roll < 0.6:
        return rng.choice(WORDS)
    if roll < 0.75:
        return rng.randint(1, 3)
    if roll < 0.82:
        return rng.choice([True, False])
    if roll < 0.9:
        return None
    return rng.choice(['', 'a'])


def value_of_shape(rng: random.Random, shape: str, depth: int = 0) -> Any:
    if shape == 'scalar':
        return scalar(rng, markers=True)
    if shape == 'list':
        items = [scalar(rng, markers=True) for _number in range(rng.randint(0, 4))]
        if rng.random() < 0.15:
            items.append([rng.choice(WORDS), [rng.choice(WORDS)]])
        return items
    if shape == 'map':
        return {key: scalar(rng, markers=True) if rng.random() < 0.6 else value_of_shape(rng, 'list', depth + 1)
                for key in rng.sample(SUBKEYS, rng.randint(0, 3))}
    if shape == 'nested':
        if depth > 1:
            return value_of_shape(rng, 'map', depth + 1)
        return {key: value_of_shape(rng, rng.choice(['map', 'nested', 'list', 'scalar']), depth + 1)
                for key in rng.sample(SUBKEYS, rng.randint(1, 3))}
    if shape == 'list_of_maps':
        return [{key: scalar(rng, markers=False) for key in rng.sample(SUBKEYS, rng.randint(1, 2))}
                for _number in range(rng.randint(0, 3))]
    return value_of_shape(rng, rng.choice(SHAPES[:-1]), depth + 1)


INTERPOLATIONS = ['%{facts.role}', '%{trusted.certname}', '%{::datacenter}', '%{tier}', '%{facts.os.family}',
                  '%{facts.nothing}', "%{scope('facts.tier')}", "%{literal('%')}", '%{facts.apps}']


def interpolated(rng: random.Random, keys: List[str]) -> Any:
    """A string with interpolation (sometimes a whole-string alias, which keeps the type)."""
    other = rng.choice(keys)
    roll = rng.random()
    if roll < 0.2:
        return "%%{alias('%s')}" % other
    if roll < 0.4:
        return "v-%%{lookup('%s')}" % other
    if roll < 0.45:
        return "%%{hiera('%s')}" % other
    return rng.choice(['', 'pre-']) + rng.choice(INTERPOLATIONS) + rng.choice(['', '-post'])


def perturb(rng: random.Random, value: Any, shape: str, keys: List[str], interpolate: bool) -> Any:
    """A level's variant of a key's value: the shared value or another of the same shape, sometimes
    another type, null, empty, or with interpolated strings inside."""
    roll = rng.random()
    if roll < 0.45:
        value = value_of_shape(rng, shape)
    roll = rng.random()
    if roll < 0.06:
        return None
    if roll < 0.1:
        return rng.choice(['', [], {}])
    if roll < 0.16:
        return value_of_shape(rng, rng.choice(SHAPES))
    if interpolate and rng.random() < 0.25:
        return sprinkle(rng, value, keys)
    return value


def sprinkle(rng: random.Random, value: Any, keys: List[str]) -> Any:
    if isinstance(value, dict) and value:
        key = rng.choice(sorted(value))
        return dict(value, **{key: sprinkle(rng, value[key], keys)})
    if isinstance(value, list) and value:
        position = rng.randrange(len(value))
        return value[:position] + [sprinkle(rng, value[position], keys)] + value[position + 1:]
    return interpolated(rng, keys)


# --- lookup_options ---------------------------------------------------------------------------------------
def merge_option(rng: random.Random) -> Any:
    name = rng.choice(['first', 'unique', 'hash', 'deep', 'deep'])
    if rng.random() < 0.5:
        return name
    option: Dict[str, Any] = {'strategy': name}
    if name == 'deep':
        if rng.random() < 0.5:
            option['knockout_prefix'] = '--'
        if rng.random() < 0.25:
            option['sort_merged_arrays'] = True
        if rng.random() < 0.3:
            option['merge_hash_arrays'] = True
    return option


def lookup_options_entries(rng: random.Random, keys: List[str]) -> Dict[str, Any]:
    entries: Dict[str, Any] = {}
    for key in rng.sample(keys, rng.randint(1, 3)):
        entries[key] = {'merge': merge_option(rng)}
    if rng.random() < 0.5:
        entries[rng.choice(['^app_', '^k[0-2]$', '^profile::', '^k'])] = {'merge': merge_option(rng)}
    return entries


def pattern_matches(pattern: str, key: str) -> bool:
    return pattern.startswith('^') and re.search(pattern, key) is not None


LEVEL_FEATURES = {'path': 'config:path', 'paths': 'config:paths', 'glob': 'config:glob', 'globs': 'config:globs',
                  'mapped_paths': 'config:mapped_paths', 'datadir': 'config:level-datadir',
                  'json': 'backend:json_data', 'yaml': 'backend:yaml_data', 'missing': 'config:missing-file'}


# --- a repository -------------------------------------------------------------------------------------
def render(data: Dict[str, Any], data_format: str) -> str:
    if data_format == 'json':
        return json.dumps(data, indent=2) + '\n'
    if not data:
        return '{}\n'
    return yaml.safe_dump(data, sort_keys=False, default_flow_style=None, allow_unicode=True, width=100)


def hiera_yaml(rng: random.Random, levels: List[Level], datadir: str, default_format: str) -> Tuple[str, List[str]]:
    config: Dict[str, Any] = {'version': 5}
    features = []
    defaults: Dict[str, Any] = {}
    if datadir != 'data' or rng.random() < 0.5:
        defaults['datadir'] = datadir
        features.append('config:defaults')
    # defaults without data_hash leave levels without one: an error in every lookup (hand-written cases
    # cover it); here it stays rare
    if default_format == 'json' or defaults and rng.random() < 0.97 or rng.random() < 0.5:
        defaults['data_hash'] = default_format + '_data'
        features.append('config:defaults')
    if defaults:
        config['defaults'] = defaults
    config['hierarchy'] = [level.entry for level in levels]
    return yaml.safe_dump(config, sort_keys=False, default_flow_style=False), features


def generate_repository(rng: random.Random) -> Tuple[dict, Dict[str, Any]]:
    """One repository and what the questions need to know about it."""
    node, facts = random_facts(rng)
    datadir = rng.choice(['data', 'data', 'data', 'hieradata'])
    default_format = 'json' if rng.random() < 0.12 else 'yaml'
    levels = [random_level(rng, number, facts, node, datadir, default_format) for number in range(rng.randint(1, 5))]
    common_extension = 'json' if default_format == 'json' else 'yaml'
    levels.append(Level({'name': 'common', 'path': 'common.' + common_extension},
                        [('%s/common.%s' % (datadir, common_extension), default_format)], 'path'))
    keys = rng.sample(KEYS, rng.randint(3, 6))
    shapes = {key: rng.choice(SHAPES) for key in keys}
    base = {key: value_of_shape(rng, shapes[key]) for key in keys}
    interpolate = rng.random() < 0.35
    files: Dict[str, str] = {}
    values: Dict[str, List[Any]] = {key: [] for key in keys}
    options_entries: Dict[str, Any] = {}
    for level in levels:
        for path, data_format in level.files:
            if path in files or rng.random() < 0.1:
                continue               # a level whose file is absent (or shared with an earlier level)
            data = {key: perturb(rng, base[key], shapes[key], keys, interpolate) for key in keys if rng.random() < 0.6}
            if rng.random() < 0.15:
                entries = lookup_options_entries(rng, keys)
                options_entries.update(entries)
                data = dict({'lookup_options': entries}, **data)
            for key, value in data.items():
                if key != 'lookup_options':
                    values[key].append(value)
            files[path] = render(data, data_format)
    config, config_features = hiera_yaml(rng, levels, datadir, default_format)
    files['hiera.yaml'] = config
    features = set(config_features) | {'interpolation:path'}
    features.update(LEVEL_FEATURES[level.kind] for level in levels if level.kind in LEVEL_FEATURES)
    if default_format == 'json':
        features.add('backend:json_data')
    repository = {'files': dict(sorted(files.items())), 'facts': facts, 'node': node, 'features': sorted(features)}
    return repository, {'keys': keys, 'values': values, 'options': options_entries, 'shapes': shapes}


# --- questions ------------------------------------------------------------------------------------------
def dotted_key(rng: random.Random, key: str, values: List[Any]) -> Optional[str]:
    """A dotted key into one of the key's values (map keys and list indexes), or None."""
    candidates = [value for value in values if isinstance(value, (dict, list)) and value]
    if not candidates:
        return None
    value = rng.choice(candidates)
    segments = [key]
    while isinstance(value, (dict, list)) and value and rng.random() < 0.8:
        if isinstance(value, dict):
            segment = rng.choice(sorted(value, key=str))
            segments.append(str(segment))
            value = value[segment]
        else:
            index = rng.randrange(len(value) + 1)      # sometimes one past the end
            segments.append(str(index))
            value = value[index] if index < len(value) else None
    return '.'.join(segments) if len(segments) > 1 else None


MERGES_BY_SHAPE = {
    # mostly the merges that suit the shape, so that most answers are values rather than type errors
    'scalar': [None, None, 'first', 'unique', 'unique', 'deep', 'deep', 'hash'],
    'list': [None, None, 'first', 'unique', 'unique', 'deep', 'deep', 'deep', 'hash'],
    'map': [None, None, 'first', 'hash', 'hash', 'deep', 'deep', 'deep', 'unique'],
    'nested': [None, None, 'first', 'hash', 'hash', 'deep', 'deep', 'deep', 'unique'],
    'list_of_maps': [None, None, 'first', 'unique', 'deep', 'deep', 'deep', 'hash'],
    'mixed': [None, None, 'first', 'unique', 'hash', 'deep', 'deep'],
}


def random_question(rng: random.Random, info: Dict[str, Any]) -> Dict[str, Any]:
    keys = info['keys']
    key = rng.choice(keys)
    roll = rng.random()
    question: Dict[str, Any] = {'key': key}
    if roll < 0.05:
        question['key'] = rng.choice(['missing_key', 'k9', 'lookup_options'])
    elif roll < 0.25:
        question['key'] = dotted_key(rng, key, info['values'][key]) or key
    merge = rng.choice(MERGES_BY_SHAPE[info['shapes'][key]])
    if merge:
        question['merge'] = merge
    if merge == 'deep':
        if rng.random() < 0.5:
            question['knockout_prefix'] = '--'
        if rng.random() < 0.2:
            question['sort_merged_arrays'] = True
        if rng.random() < 0.3:
            question['merge_hash_arrays'] = True
    return question


def question_features(question: Dict[str, Any], info: Dict[str, Any]) -> List[str]:
    features = ['generated']
    root = question['key'].split('.')[0]
    features.append('merge:' + question.get('merge', 'none'))
    if question.get('knockout_prefix') is not None:
        features.append('merge:knockout')
    if question.get('sort_merged_arrays'):
        features.append('merge:sort_merged_arrays')
    if question.get('merge_hash_arrays'):
        features.append('merge:merge_hash_arrays')
    if '.' in question['key']:
        features.append('key:dotted')
    if '::' in root:
        features.append('key:namespaced')
    if root not in info['keys']:
        features.append('key:lookup_options' if root == 'lookup_options' else 'key:missing')
    options = info['options']
    if root in options or any(pattern_matches(pattern, root) for pattern in options):
        features.append('lookup_options')
        if root not in options:
            features.append('lookup_options:regex')
    text = json.dumps(info['values'].get(root, []))
    if '%{' in text:
        features.append('interpolation:data')
        for function in ('alias', 'lookup', 'hiera', 'literal', 'scope'):
            if function + "('" in text:
                features.append('interpolation:' + ('lookup' if function == 'hiera' else function))
    if 'null' in text:
        features.append('value:null')
    return sorted(set(features))


def generate(seed: int, count: int) -> Tuple[Dict[str, dict], List[dict]]:
    """count repositories and their questions (about five each)."""
    repositories: Dict[str, dict] = {}
    cases: List[dict] = []
    for number in range(count):
        rng = random.Random(seed * 100003 + number)
        name = 'gen.%04d' % number
        repositories[name], info = generate_repository(rng)
        seen = set()
        for question_number in range(rng.randint(4, 6)):
            question = random_question(rng, info)
            signature = json.dumps(question, sort_keys=True)
            if signature in seen:
                continue
            seen.add(signature)
            case = {'id': '%s.%d' % (name, question_number), 'repository': name}
            case.update(question)
            case['features'] = question_features(question, info)
            if rng.random() < 0.008:
                case['explain'] = True
            cases.append(case)
    return repositories, cases
