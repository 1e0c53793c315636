# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Differential test of strata.hier.cloud_init_merge against cloud-init's own mergers.

cloud-init's side is its real code (cloudinit/mergers: __init__.py, m_dict.py, m_list.py, m_str.py, which
import only cloudinit.importer and cloudinit.type_utils) driven as the cloud-config part handler
(cloudinit/handlers/cloud_config.py, _merge_part) drives it: each part's merge_how popped, the part merged
into the configuration so far with its own mergers (the default ``dict(replace)+list()+str()`` when it names
none), a part whose merge raises skipped.  The filter's side is this checkout's module_utils/dialects/cloud_init.py.

Generated cases: 2 to 4 documents sharing a few keys, values of every YAML type at each key (so layers
hold different types at one key), nested; every combination of merger options appears in turn.  A case
agrees when both give the same configuration (with the same key order), or cloud-init skips a part
because its merge raised and the filter raises an error naming that document (a documented departure).

    apt-get download cloud-init && dpkg-deb -x cloud-init_*.deb /tmp/ci
    python3 tests/oracle/cloud_init/cloud_init_oracle.py --cloud-init /tmp/ci/usr/lib/python3/dist-packages

Without cloud-init the script says so and exits 0.  --write FILE keeps cases for the unit test
tests/unit/plugins/module_utils/test_cloud_init_oracle_cases.py.
"""

from __future__ import annotations

import argparse
import copy
import itertools
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from oracle_collection import COLLECTION, module_utils  # noqa: E402  # pylint: disable=wrong-import-position
CLOUD_DEFAULT = 'dict(replace)+list()+str()'

KEYS = ('a', 'b', 'c')
STRINGS = ('x', 'yz', '')


def spec_combinations():
    """Every combination of options of each merger (None: the merger is not named), as option lists."""
    dict_specs = [None]
    for methods, delete, lists, strings in itertools.product(
            ([], ['replace'], ['no_replace'], ['no_replace', 'replace']), (False, True),
            (None, 'recurse_list', 'recurse_array'), (False, True)):
        dict_specs.append(methods + (['allow_delete'] if delete else []) + ([lists] if lists else [])
                          + (['recurse_str'] if strings else []))
    list_specs = [None]
    for methods, maps, lists, strings in itertools.product(
            ([], ['append'], ['prepend'], ['replace'], ['no_replace'], ['prepend', 'append'], ['no_replace', 'replace']),
            (False, True), (None, 'recurse_list', 'recurse_array'), (False, True)):
        list_specs.append(methods + (['recurse_dict'] if maps else []) + ([lists] if lists else [])
                          + (['recurse_str'] if strings else []))
    str_specs = [None, [], ['append']]
    return list(itertools.product(dict_specs, list_specs, str_specs))


def spec_text(rng, combination):
    parts = []
    for name, options in zip(('dict', 'list', 'str'), combination):
        if options is not None:
            options = list(options)
            rng.shuffle(options)
            parts.append('%s(%s)' % (name, ','.join(options)))
    rng.shuffle(parts)
    if rng.random() < 0.3:
        return [{'name': part.split('(')[0], 'settings': [o for o in part[:-1].split('(')[1].split(',') if o]}
                for part in parts]
    return '+'.join(parts)


def value(rng, depth):
    kind = rng.choice(('none', 'int', 'bool', 'str', 'str', 'list', 'list', 'map', 'map') if depth < 3 else
                      ('none', 'int', 'bool', 'str', 'str'))
    if kind == 'none':
        return None
    if kind == 'int':
        return rng.randint(0, 3)
    if kind == 'bool':
        return rng.random() < 0.5
    if kind == 'str':
        return rng.choice(STRINGS)
    if kind == 'list':
        return [value(rng, depth + 1) for _item in range(rng.randint(0, 3))]
    return {key: value(rng, depth + 1) for key in rng.sample(KEYS, rng.randint(0, 3))}


def case(rng, index, combinations):
    documents = []
    for position in range(rng.randint(2, 4)):
        document = {key: value(rng, 1) for key in rng.sample(KEYS, rng.randint(1, 3))}
        last = position == 0
        if last or rng.random() < 0.6:
            combination = combinations[index % len(combinations)] if last else rng.choice(combinations)
            spec = spec_text(rng, combination)
            if spec:
                document['merge_how'] = spec
        documents.append(document)
    documents.reverse()     # the fixed combination is the last document's
    merge_how = None if rng.random() < 0.5 else spec_text(rng, rng.choice(combinations))
    return {'documents': documents, 'merge_how': merge_how or None}


def cloud_init_merge(mergers, documents, merge_how):
    """cloud-init's cloud-config part handler over the documents: (configuration, indexes of skipped parts)."""
    default = mergers.string_extract_mergers(CLOUD_DEFAULT)
    if merge_how:
        default = (mergers.string_extract_mergers(merge_how) if isinstance(merge_how, str)
                   else mergers.dict_extract_mergers({'merge_how': merge_how}))
    buffer, skipped = {}, []
    for position, document in enumerate(copy.deepcopy(documents)):
        try:
            parsed = mergers.dict_extract_mergers(document) or default
            buffer = mergers.construct(parsed).merge(buffer, document)
        except Exception:  # pylint: disable=broad-except  # cloud-init logs it and skips the part
            skipped.append(position)
    return buffer, skipped


def compare(cloud_init, errors, mergers, item):
    expected, skipped = cloud_init_merge(mergers, item['documents'], item['merge_how'])
    try:
        result = cloud_init.merge_cloud_configs(copy.deepcopy(item['documents'])[::-1], item['merge_how']).value
    except errors.MergeError as exc:
        if skipped and 'document %d ' % skipped[0] in str(exc):
            return 'both fail', None, str(exc)
        return 'disagree', expected, 'error: %s' % exc
    if skipped:
        return 'disagree', expected, result
    if json.dumps(result) == json.dumps(expected):
        return 'agree', expected, result
    return 'disagree', expected, result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n', 1)[0])
    parser.add_argument('--cloud-init', default='/tmp/ci/usr/lib/python3/dist-packages',
                        help='folder holding the cloudinit package')
    parser.add_argument('--collection', default=COLLECTION, help='the collection to test (default: this checkout)')
    parser.add_argument('--cases', type=int, default=25000)
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--show', type=int, default=5)
    parser.add_argument('--write', help='write kept cases (JSON) with cloud-init\'s answers')
    parser.add_argument('--keep', type=int, default=300,
                        help='agreeing cases to write besides the failing ones and those --fixed names')
    parser.add_argument('--verdicts', help='write each case\'s verdict (JSON list) to this file')
    parser.add_argument('--fixed', help='a --verdicts file of an earlier run (such as the collection before a fix): '
                                        'also write the cases it disagreed on (at most --keep-fixed)')
    parser.add_argument('--keep-fixed', type=int, default=600)
    parser.add_argument('--keep-failing', type=int, default=150)
    args = parser.parse_args()
    sys.path.insert(0, args.cloud_init)
    try:
        from cloudinit import mergers  # pylint: disable=import-outside-toplevel
    except ImportError:
        print('cloud-init not found in %s: nothing compared (see the docstring to get it)' % args.cloud_init)
        return 0
    cloud_init, errors = module_utils(args.collection, 'dialects.cloud_init', 'core.errors')
    rng = random.Random(args.seed)
    combinations = spec_combinations()
    counts = {'agree': 0, 'both fail': 0, 'disagree': 0}
    kept, shown, verdicts = [], 0, []
    quota = {'fixed': args.keep_fixed, 'both fail': args.keep_failing, 'agree': args.keep}
    fixed = set()
    if args.fixed:
        with open(args.fixed, encoding='utf-8') as stream:
            fixed = {index for index, verdict in enumerate(json.load(stream)) if verdict == 'disagree'}
    for index in range(args.cases):
        item = case(rng, index, combinations)
        verdict, expected, got = compare(cloud_init, errors, mergers, item)
        counts[verdict] += 1
        verdicts.append(verdict)
        if verdict == 'disagree' and shown < args.show:
            shown += 1
            print('DISAGREE %s\n  cloud-init: %r\n  filter:     %r' % (json.dumps(item), expected, got))
        reason = 'fixed' if index in fixed else verdict
        if verdict != 'disagree' and quota[reason] > 0:
            quota[reason] -= 1
            item['fixed'] = index in fixed
            item['expected'] = expected if verdict == 'agree' else {'error': 'document %d' % cloud_init_merge(
                mergers, item['documents'], item['merge_how'])[1][0]}
            kept.append(item)
    print('%d cases (%d merger option combinations): %d agree, %d both fail (cloud-init skips the part, the filter '
          'raises naming it), %d disagree'
          % (args.cases, len(combinations), counts['agree'], counts['both fail'], counts['disagree']))
    if fixed:
        print('%d cases the earlier run disagreed on now agree or fail as documented'
              % sum(1 for index in fixed if verdicts[index] != 'disagree'))
    if args.verdicts:
        with open(args.verdicts, 'w', encoding='utf-8') as stream:
            json.dump(verdicts, stream)
    if args.write:
        with open(args.write, 'w', encoding='utf-8') as stream:
            json.dump(kept, stream, indent=None, separators=(',', ':'))
            stream.write('\n')
    return 1 if counts['disagree'] else 0


if __name__ == '__main__':
    sys.exit(main())
