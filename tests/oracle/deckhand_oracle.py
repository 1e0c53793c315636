# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Differential test: strata.hier's layer_documents against Airship Deckhand's own engine
(deckhand.engine.layering.DocumentLayering, layering and substitution) on generated document sets.

See README.md beside this file for how to install Deckhand's engine. Without it, this script says so and
exits 0. With --write FILE it writes the cases where both agree (inputs and Deckhand's outputs) for the
unit tests.
"""

from __future__ import annotations

import argparse
import copy
import importlib
import json
import logging
import os
import random
import sys
import tempfile
from typing import Any, Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAYERS = ['global', 'region', 'site']
PASSPHRASE = 'deckhand/Passphrase/v1'
VERSIONS = 'pegleg/SoftwareVersions/v1'
PATTERN = 'INSERT_SECRET_HERE'


def import_deckhand(source: Optional[str]) -> Any:
    """Deckhand's layering module, or None when it cannot be imported here."""
    if source:
        sys.path.insert(0, source)
    try:
        return importlib.import_module('deckhand.engine.layering')
    except Exception as exc:  # pylint: disable=broad-except  # any missing dependency means: no oracle here
        print('Deckhand\'s engine is not importable (%s: %s); skipped. See tests/oracle/README.md.'
              % (type(exc).__name__, exc))
        return None


def import_strata() -> Any:
    """This checkout's deckhand module, importable as ansible_collections.strata.hier (standard library only)."""
    top = tempfile.mkdtemp(prefix='strata-oracle-')
    os.makedirs(os.path.join(top, 'ansible_collections', 'strata'))
    os.symlink(ROOT, os.path.join(top, 'ansible_collections', 'strata', 'hier'))
    sys.path.insert(0, top)
    return importlib.import_module('ansible_collections.strata.hier.plugins.module_utils.dialects.deckhand.layering')


# --- generated document sets -----------------------------------------------------------------
class Generator:
    """One random site: passphrases, a SoftwareVersions document, families of layered documents, and
    substitutions between them (sometimes from abstract or missing sources, sometimes in cycles)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.documents: List[dict] = []

    def site(self) -> List[dict]:
        rng = self.rng
        self.add('deckhand/LayeringPolicy/v1', 'layering-policy', {'layerOrder': LAYERS}, control=True)
        for number in range(rng.randint(1, 3)):
            self.add(PASSPHRASE, 'password-%d' % number, 'pw%d-%s' % (number, rng.choice(['x', 'y:z', 'a b'])),
                     layer='site', encrypted=rng.random() < 0.3)
        self.add(VERSIONS, 'software-versions', {'images': {'image-%d' % i: 'registry/image-%d:1.%d' % (i, i)
                                                            for i in range(3)}}, layer='global')
        for family in range(rng.randint(1, 3)):
            self.family(family)
        for position, document in enumerate(self.documents):
            if document['schema'].startswith('example/') and rng.random() < 0.6:
                # Sources come before their destination (parents do too), so most sets have no cycle.
                unused = ['.url0', '.url1', '.url2']
                rng.shuffle(unused)
                document['metadata']['substitutions'] = [self.substitution(document, self.documents[1:position], unused)
                                                         for _number in range(rng.randint(1, 3))]
        if rng.random() < 0.15:
            self.fault()
        return [document for document in self.documents if document['metadata'].get('substitutions') != []]

    def fault(self) -> None:
        """One substitution that may fail: from any document (maybe abstract, maybe a cycle) or a missing one."""
        document = self.rng.choice([document for document in self.documents if document['schema'].startswith('example/')])
        substitution = self.substitution(document, self.documents[1:], [])
        fault = self.rng.random()
        if fault < 0.25:
            substitution['src'].update(name='missing-document', path='.')
        elif fault < 0.5:
            substitution['src']['path'] = '.missing'
        elif fault < 0.75:     # a parent candidate of another schema, or in the same (site) layer
            schema, layer = ('example/Other/v1', 'global') if fault < 0.62 else ('example/Kind0/v1', 'site')
            self.add(schema, 'intruder', self.data(), layer=layer, labels={'family': 'family-0', 'tier': 'global'})
            return
        document['metadata'].setdefault('substitutions', []).append(substitution)

    def add(self, schema: str, name: str, data: Any, layer: str = 'global', control: bool = False, **more: Any) -> dict:
        metadata: Dict[str, Any] = {'schema': 'metadata/%s/v1' % ('Control' if control else 'Document'), 'name': name}
        if not control:
            metadata['storagePolicy'] = 'encrypted' if more.get('encrypted') else 'cleartext'
            definition: Dict[str, Any] = {'layer': layer, 'abstract': bool(more.get('abstract'))}
            if more.get('selector'):
                definition['parentSelector'] = more['selector']
                definition['actions'] = more['actions']
            metadata['layeringDefinition'] = definition
        for key in ('labels', 'replacement'):
            if more.get(key):
                metadata[key] = more[key]
        document = {'schema': schema, 'metadata': metadata, 'data': data}
        self.documents.append(document)
        return document

    def family(self, family: int) -> None:
        rng = self.rng
        schema = 'example/Kind%d/v1' % (family % 2)
        name = 'family-%d' % family
        self.add(schema, name, self.data(), abstract=rng.random() < 0.5, labels={'family': name, 'tier': 'global'})
        if rng.random() < 0.6:
            self.add(schema, name + '-region', self.data(), layer='region', abstract=rng.random() < 0.3,
                     labels={'family': name, 'tier': 'region'}, selector={'family': name, 'tier': 'global'},
                     actions=self.actions())
        for number in range(rng.randint(1, 2)):
            selector = {'family': name} if rng.random() < 0.7 else {'family': name, 'tier': 'global'}
            replacement = number == 0 and selector.get('tier') == 'global' and rng.random() < 0.2
            self.add(schema, name if replacement else '%s-site-%d' % (name, number), self.data(), layer='site',
                     selector=selector, actions=self.actions(), replacement=replacement)

    def data(self) -> dict:
        rng = self.rng
        data: Dict[str, Any] = {'a': {'x': rng.randint(0, 9), 'y': 'text-%d' % rng.randint(0, 9)},
                                'b': rng.choice([100, 'two', {'nested': True}])}
        for number in range(3):
            data['url%d' % number] = 'http://admin:%s@service-%d:8080' % (PATTERN, number)
        if rng.random() < 0.5:
            data['c'] = {'deep': {'one': 'first %s' % PATTERN, 'two': ['second %s' % PATTERN, 7]}}
        return data

    def actions(self) -> List[dict]:
        choices = [[{'method': 'merge', 'path': '.'}], [{'method': 'merge', 'path': '.a'}],
                   [{'method': 'replace', 'path': '.a'}, {'method': 'merge', 'path': '.'}],
                   [{'method': 'merge', 'path': '.'}, {'method': 'delete', 'path': '.b'}],
                   [{'method': 'merge', 'path': '.data'}], [{'method': 'merge', 'path': 'a'}]]
        return self.rng.choice(choices)

    def substitution(self, destination: dict, candidates: List[dict], unused: List[str]) -> dict:
        rng = self.rng
        concrete = [document for document in candidates if not document['metadata']['layeringDefinition']['abstract']]
        source = rng.choice(concrete or candidates)
        src = {'schema': source['schema'], 'name': source['metadata']['name'], 'path': self.source_path(source)}
        if source['schema'] == VERSIONS and rng.random() < 0.5:
            src.update(pattern='^(.*):(.*)$', match_group=rng.choice([1, 2]))
        # A map substituted into text is a documented departure (Deckhand writes its Python repr): rarely.
        text = src['path'] not in ('.a', '.b') or rng.random() < 0.05
        dests = [self.destination(destination, unused if text else []) for _number in range(rng.choice([1, 1, 2]))]
        return {'src': src, 'dest': dests if len(dests) > 1 or rng.random() < 0.3 else dests[0]}

    def source_path(self, source: dict) -> str:
        if source['schema'] == PASSPHRASE:
            return '.'
        if source['schema'] == VERSIONS:
            return '.images.image-%d' % self.rng.choice([0, 1, 2])
        return self.rng.choice(['.a.x', '.a', '.b', '.url0', '.a.y', '.url1'])

    def destination(self, document: dict, unused: List[str]) -> dict:
        """A new path, or a placeholder not replaced yet (Deckhand ignores a pattern it does not find)."""
        rng = self.rng
        choice = rng.random()
        if choice < 0.45 or not unused:
            return {'path': rng.choice(['.new', '.a.sub', '.deeper.still.here', '.a.x', '.list[1]', '.whole'])}
        if choice < 0.8 or 'c' not in document['data']:
            return {'path': unused.pop(), 'pattern': PATTERN}
        if choice < 0.97 and unused:
            return {'path': '.c', 'pattern': PATTERN, 'recurse': {'depth': rng.choice([-1, 1, 2, 3])}}
        return {'path': '.'}


# --- running both ----------------------------------------------------------------------------
Outcome = Tuple[str, Any]

# Disagreements that docs/deckhand.md lists as departures: (words of strata's error, what Deckhand does).
DEPARTURES = [
    ('needs the source as text, but it is a dict', 'a map put into text with dest.pattern: Deckhand writes its '
     'Python repr; strata.hier: UnknownSubstitutionError'),
    ("replaces text, but the destination has nothing there", 'dest.recurse on a missing dest.path: Deckhand creates '
     'an empty map there; strata.hier: MissingDocumentPattern'),
    ('has nothing at src.path', 'src.path into a source whose data is not a map: Deckhand ignores the path and takes '
     'the whole data; strata.hier: SubstitutionSourceDataNotFound'),
]
MESSAGES: Dict[int, str] = {}


def strata_outcome(module: Any, documents: List[dict]) -> Outcome:
    try:
        result = module.layer_documents(copy.deepcopy(documents)).documents
    except module.DocumentError as exc:
        MESSAGES[id(documents)] = str(exc)
        return 'error', type(exc).__name__
    return 'documents', summary(result)


def deckhand_outcome(layering: Any, documents: List[dict]) -> Outcome:
    try:
        result = layering.DocumentLayering(copy.deepcopy(documents), validate=False).render()
    except Exception as exc:  # pylint: disable=broad-except  # the oracle's errors are results to compare
        return 'error', type(exc).__name__
    return 'documents', summary([dict(document) for document in result])


def summary(documents: List[dict]) -> List[list]:
    """Schema, name, data and storagePolicy of each returned document, sorted (Deckhand's order differs)."""
    rows = [[document['schema'], document['metadata']['name'], plain(document.get('data')),
             document['metadata'].get('storagePolicy')] for document in documents]
    return sorted(rows, key=lambda row: (row[0], row[1]))


def kept(agreeing: List[Tuple[dict, Outcome]], per_outcome: int) -> List[dict]:
    """The first agreeing cases of each outcome (rendered documents, or each of Deckhand's errors)."""
    counts: Dict[str, int] = {}
    cases = []
    for case, _ours in agreeing:
        outcome = case['deckhand'].get('error', 'documents')
        counts[outcome] = counts.get(outcome, 0) + 1
        if counts[outcome] <= (per_outcome if outcome == 'documents' else max(1, per_outcome // 5)):
            cases.append(case)
    return cases


def strip_deletes(documents: List[dict]) -> List[dict]:
    """The documents without their delete actions (Deckhand's engine deletes by value, a listed departure)."""
    documents = copy.deepcopy(documents)
    for document in documents:
        definition = document['metadata'].get('layeringDefinition', {})
        if definition.get('actions'):
            definition['actions'] = [action for action in definition['actions'] if action['method'] != 'delete'] or \
                [{'method': 'merge', 'path': '.'}]
    return documents


def plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--deckhand-src', help="a folder holding Deckhand's source (the 'deckhand' package)")
    parser.add_argument('--cases', type=int, default=500)
    parser.add_argument('--seed', type=int, default=0, help='the first case\'s seed; case n uses seed + n')
    parser.add_argument('--write', help='write the agreeing cases (at most --keep) to this JSON file')
    parser.add_argument('--keep', type=int, default=25, help='agreeing cases to write per outcome (documents, each error)')
    parser.add_argument('--show', type=int, default=5, help='disagreements to print in full')
    args = parser.parse_args()
    layering = import_deckhand(args.deckhand_src)
    if layering is None:
        return 0
    logging.disable(logging.CRITICAL)     # Deckhand logs every error it raises
    strata = import_strata()
    agreeing, disagreeing = [], []
    for seed in range(args.seed, args.seed + args.cases):
        documents = Generator(seed).site()
        ours, theirs = strata_outcome(strata, documents), deckhand_outcome(layering, documents)
        case = {'seed': seed, 'documents': documents, 'deckhand': {theirs[0]: theirs[1]}}
        if ours == theirs:
            agreeing.append((case, ours))
        else:
            without_deletes = strip_deletes(documents)
            case.update(message=MESSAGES.get(id(documents), ''),
                        agree_without_deletes=strata_outcome(strata, without_deletes) == deckhand_outcome(layering, without_deletes))
            disagreeing.append((case, ours))
    unexplained = report(agreeing, disagreeing, args.show)
    if args.write:
        with open(args.write, 'w', encoding='utf-8') as stream:
            json.dump(kept(agreeing, args.keep), stream, indent=None, separators=(',', ':'))
            stream.write('\n')
    return 1 if unexplained else 0


def classify(case: dict, ours: Outcome) -> str:
    """Why strata.hier and Deckhand disagree: a listed departure, Deckhand failing otherwise, or unexplained."""
    theirs = case['deckhand'].get('error')
    if ours[0] == 'error' and theirs is not None:
        if theirs in ('AttributeError', 'TypeError', 'KeyError'):
            return 'both fail; Deckhand crashes with %s (data of another kind in the way)' % theirs
        return 'both fail; the first error found differs (render order): strata %s, Deckhand %s' % (ours[1], theirs)
    if ours[0] == 'documents' and theirs is None and case['agree_without_deletes']:
        return 'departure: delete removes the path it names; Deckhand deletes the first value equal to it'
    message = case.get('message', '')
    for words, departure in DEPARTURES:
        if ours[0] == 'error' and words in message:
            return 'departure: ' + departure
    return 'UNEXPLAINED: strata %s, Deckhand %s' % (ours[1] if ours[0] == 'error' else 'documents', theirs or 'documents')


def report(agreeing: List[Tuple[dict, Outcome]], disagreeing: List[Tuple[dict, Outcome]], show: int) -> int:
    """Print the counts; the number of unexplained disagreements."""
    kinds: Dict[str, int] = {}
    for case, ours in agreeing:
        kind = 'agree: ' + ('documents' if 'documents' in case['deckhand'] else case['deckhand']['error'])
        kinds[kind] = kinds.get(kind, 0) + 1
    unexplained = []
    for case, ours in disagreeing:
        kind = classify(case, ours)
        kinds[kind] = kinds.get(kind, 0) + 1
        if kind.startswith('UNEXPLAINED'):
            unexplained.append((case, ours))
    print('%d cases: %d agree, %d disagree (%d unexplained)'
          % (len(agreeing) + len(disagreeing), len(agreeing), len(disagreeing), len(unexplained)))
    for kind, count in sorted(kinds.items()):
        print('  %4d  %s' % (count, kind))
    for case, ours in unexplained[:show]:
        print('--- seed %d\nstrata:   %s\nDeckhand: %s' % (case['seed'], json.dumps(ours), json.dumps(case['deckhand'])))
    return len(unexplained)


if __name__ == '__main__':
    sys.exit(main())
