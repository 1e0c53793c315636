# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Differential test of strata.hier.heat_merge against the Heat engine's own environment merging.

Heat's side is its real code: ``heat.common.environment_util.merge_environments(environment_files, files,
params, param_schemata)`` as the engine calls it (heat/engine/service.py), with the files as YAML text, the
parameter schemata built by ``heat.engine.hot.parameters.HOTParamSchema.from_dict`` from the case's types,
and ``params`` the environment the API builds (``environment_format.default_for_missing`` plus the stack's
-P parameters).  The filter's side is this checkout's module_utils/dialects/heat.py with ``parameter_types`` and
``parameters``.

Generated cases: 1 to 4 files with parameters of every HOT type (some undeclared, some of another type than
declared, some null), per-file merge strategies, resource registries, now and then an empty (null) section
or an empty file, and -P parameters.  Verdicts: agree (same environment, same key order), both fail, Heat
fails where the filter gives a value (a documented departure: docs/heat.md lists them), or disagree.

    python3 -m venv /tmp/heatvenv && /tmp/heatvenv/bin/pip install openstack-heat
    /tmp/heatvenv/bin/python tests/oracle/heat/heat_oracle.py

Without Heat the script says so and exits 0.  --write FILE keeps cases for the unit test
tests/unit/plugins/module_utils/test_heat_oracle_cases.py.
"""

from __future__ import annotations

import argparse
import copy
import inspect
import json
import os
import random
import sys
import traceback

import yaml

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from oracle_collection import COLLECTION, module_utils  # noqa: E402  # pylint: disable=wrong-import-position
TYPES = ('string', 'number', 'comma_delimited_list', 'json', 'boolean')
STRATEGIES = ('overwrite', 'merge', 'deep_merge')
NAMES = ('p1', 'p2', 'p3', 'p4', 'p5')
UNDECLARED = ('u1', 'u2')


def json_value(rng, depth):
    kind = rng.choice(('str', 'str', 'int', 'list', 'map', 'none') if depth < 3 else ('str', 'int', 'none'))
    if kind == 'str':
        return rng.choice(('a', 'bc', ''))
    if kind == 'int':
        return rng.randint(0, 2)
    if kind == 'none':
        return None
    if kind == 'list':
        return [rng.choice(('x', 'y')) for _item in range(rng.randint(0, 2))]
    return {key: json_value(rng, depth + 1) for key in rng.sample(('k', 'l', 'm'), rng.randint(0, 3))}


def value_of(rng, ptype):
    roll = rng.random()
    if roll < 0.08:
        return None
    if roll < 0.18:
        ptype = rng.choice(TYPES)       # a value of another type than declared
    if ptype == 'string':
        return rng.choice(('a', 'bc', ''))
    if ptype == 'number':
        return rng.choice((1, 2, '3'))
    if ptype == 'boolean':
        return rng.random() < 0.5
    if ptype == 'comma_delimited_list':
        return rng.choice((['x'], ['y', 'z'], [], 'x,y', 'w', ''))
    value = {key: json_value(rng, 1) for key in rng.sample(('k', 'l', 'm'), rng.randint(0, 3))}
    return json.dumps(value) if rng.random() < 0.2 else value


def parameters_of(rng, types):
    names = list(NAMES) + list(UNDECLARED)
    return {name: value_of(rng, types.get(name, rng.choice(TYPES))) for name in rng.sample(names, rng.randint(1, 4))}


def environment(rng, types):
    if rng.random() < 0.04:
        return None
    env = {}
    for section in ('parameters', 'parameter_defaults'):
        if rng.random() < 0.6:
            env[section] = parameters_of(rng, types) if rng.random() < 0.95 else {}
    if rng.random() < 0.6:
        strategies = {name: rng.choice(STRATEGIES) for name in rng.sample(NAMES + UNDECLARED, rng.randint(0, 3))}
        if rng.random() < 0.5:
            strategies['default'] = rng.choice(STRATEGIES)
        env['parameter_merge_strategies'] = strategies
    if rng.random() < 0.3:
        env['resource_registry'] = {rng.choice(('OS::A', 'OS::B')): rng.choice(('a.yaml', 'b.yaml', None)),
                                    'resources': {rng.choice(('r1', 'r2')): {'hooks': 'pre-create'}}}
    if rng.random() < 0.03:
        env[rng.choice(('parameters', 'resource_registry', 'parameter_merge_strategies'))] = None
    return env


def case(rng):
    types = {name: rng.choice(TYPES) for name in NAMES}
    files = [environment(rng, types) for _file in range(rng.randint(1, 4))]
    base = parameters_of(rng, types) if rng.random() < 0.3 else None
    return {'environments': files, 'parameter_types': types, 'parameters': base}


def heat_merge(item):
    """Heat's merge_environments: the environment's sections, or the exception's class name."""
    from heat.common import environment_format, environment_util  # pylint: disable=import-outside-toplevel
    from heat.engine.hot.parameters import HOTParamSchema  # pylint: disable=import-outside-toplevel
    names = ['env%d.yaml' % index for index in range(len(item['environments']))]
    files = {name: None if env is None else yaml.safe_dump(env, sort_keys=False) for name, env in zip(names, item['environments'])}
    schemata = {name: HOTParamSchema.from_dict(name, {'type': ptype}) for name, ptype in item['parameter_types'].items()}
    params = {}
    environment_format.default_for_missing(params)
    params['parameters'].update(copy.deepcopy(item['parameters'] or {}))
    try:
        environment_util.merge_environments(names, files, params, schemata)
    except Exception as exc:  # pylint: disable=broad-except  # the verdict is the exception's kind
        return {'error': type(exc).__name__, 'at': traceback.extract_tb(exc.__traceback__)[-1].line}
    return params


def compare(heat, errors, item):
    expected = heat_merge(item)
    extra = {}
    if item['parameters'] is not None:
        if 'parameters' not in inspect.signature(heat.merge_environments).parameters:
            return 'disagree', expected, 'no parameters option'      # a collection from before it
        extra['parameters'] = copy.deepcopy(item['parameters'])
    try:
        result = heat.merge_environments(copy.deepcopy(item['environments'])[::-1], item['parameter_types'], **extra)
    except errors.MergeError as exc:
        if 'error' in expected:
            return 'both fail', expected, 'error: %s' % exc
        if 'cannot merge number parameters' in str(exc):
            return 'number', expected, 'error: %s' % exc     # Heat concatenates number texts: a departure
        return 'disagree', expected, 'error: %s' % exc
    if 'error' in expected:
        return 'heat fails', expected, result.value
    got = result.value
    same = all(json.dumps(got.get(section)) == json.dumps(expected[section])
               for section in ('parameters', 'parameter_defaults', 'resource_registry'))
    return ('agree' if same else 'disagree'), expected, got


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n', 1)[0])
    parser.add_argument('--collection', default=COLLECTION)
    parser.add_argument('--cases', type=int, default=10000)
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--show', type=int, default=5)
    parser.add_argument('--show-heat-fails', type=int, default=0)
    parser.add_argument('--write', help='write kept cases (JSON) with Heat\'s answers')
    parser.add_argument('--keep', type=int, default=300)
    parser.add_argument('--keep-failing', type=int, default=100)
    parser.add_argument('--verdicts', help='write each case\'s verdict (JSON list) to this file')
    parser.add_argument('--fixed', help='a --verdicts file of an earlier run (such as the collection before a fix): '
                                        'also write the cases that now agree (or both fail) and did not then '
                                        '(at most --keep-fixed)')
    parser.add_argument('--keep-fixed', type=int, default=400)
    args = parser.parse_args()
    try:
        import heat.common.environment_util  # noqa: F401  # pylint: disable=import-outside-toplevel,unused-import
    except ImportError:
        print('Heat (openstack-heat) is not installed here: nothing compared (see the docstring to get it)')
        return 0
    heat, errors = module_utils(args.collection, 'dialects.heat', 'core.errors')
    rng = random.Random(args.seed)
    counts = {'agree': 0, 'both fail': 0, 'heat fails': 0, 'number': 0, 'disagree': 0}
    quota = {'agree': args.keep, 'both fail': args.keep_failing, 'fixed': args.keep_fixed}
    fixed, verdicts = {}, []
    if args.fixed:
        with open(args.fixed, encoding='utf-8') as stream:
            fixed = {index: verdict for index, verdict in enumerate(json.load(stream)) if verdict != 'agree'}
    kept, shown, shown_fails = [], 0, 0
    reasons = {}
    for index in range(args.cases):
        item = case(rng)
        verdict, expected, got = compare(heat, errors, item)
        counts[verdict] += 1
        verdicts.append(verdict)
        if verdict == 'heat fails':
            reason = '%s at %s' % (expected['error'], expected['at'])
            reasons[reason] = reasons.get(reason, 0) + 1
        if verdict == 'disagree' and shown < args.show:
            shown += 1
            print('DISAGREE %s\n  heat:   %r\n  filter: %r' % (json.dumps(item), expected, got))
        if verdict == 'heat fails' and shown_fails < args.show_heat_fails:
            shown_fails += 1
            print('HEAT FAILS %s\n  heat:   %r\n  filter: %r' % (json.dumps(item), expected, got))
        now_fixed = fixed.get(index, verdict) != verdict and verdict in ('agree', 'both fail')
        reason = 'fixed' if now_fixed else verdict
        if quota.get(reason, 0) > 0:
            quota[reason] -= 1
            item['fixed'] = now_fixed
            item['expected'] = {'error': expected['error']} if verdict == 'both fail' else {
                section: expected[section] for section in ('parameters', 'parameter_defaults', 'resource_registry')}
            kept.append(item)
    print('%d cases: %d agree, %d both fail, %d Heat fails where the filter gives a value, %d number texts Heat '
          'concatenates where the filter raises (documented departures), %d disagree'
          % (args.cases, counts['agree'], counts['both fail'], counts['heat fails'], counts['number'],
             counts['disagree']))
    if fixed:
        print('%d cases the earlier run did not agree on: %d now agree or both fail'
              % (len(fixed), sum(1 for index, verdict in fixed.items()
                                 if verdicts[index] != verdict and verdicts[index] in ('agree', 'both fail'))))
    if args.verdicts:
        with open(args.verdicts, 'w', encoding='utf-8') as stream:
            json.dump(verdicts, stream)
    for reason, count in sorted(reasons.items(), key=lambda entry: -entry[1]):
        print('  Heat fails, the filter gives a value: %5d  %s' % (count, reason))
    if args.write:
        with open(args.write, 'w', encoding='utf-8') as stream:
            json.dump(kept, stream, separators=(',', ':'))
            stream.write('\n')
    return 1 if counts['disagree'] else 0


if __name__ == '__main__':
    sys.exit(main())
