# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Replays tests/oracle/hiera/corpus.json (Puppet 7.23's recorded answers) against strata.hier's Hiera core.

No Puppet needed: the corpus holds the repositories, the facts, the questions and Puppet's answers.  Each
repository is written to a temporary folder, its hiera.yaml parsed by ``hiera_config``, and each question
asked of a ``HieraLookup`` with the repository's facts (``hiera_scope``) and the command line's merge as
Puppet received it (README.md of the oracle).  An answer agrees when both found the same value (same
types, same key order, as Puppet's JSON shows it), both found nothing, or both failed.

``DEPARTURES`` lists the cases where strata.hier answers differently on purpose, each with its reason
(docs/hiera.md repeats them); the test checks both that every other case agrees and that each listed case
still departs, so the list cannot go stale.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any, Dict, List, Optional, Tuple

import yaml

from ansible_collections.strata.hier.plugins.module_utils.core.errors import (
    HieraError, HieraNotFound, MergeError,
)
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.engine import Explainer, HieraLookup, hiera_scope
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.config import parse_hiera_config
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.module_layer import Modules

CORPUS = os.path.join(os.path.dirname(__file__), '..', '..', '..', 'oracle', 'hiera', 'corpus.json')
MODULE_CORPUS = os.path.join(os.path.dirname(CORPUS), 'module_corpus.json')

# Why a case departs -> the case ids.
DEPARTURES: Dict[str, Tuple[str, ...]] = {
    'hiera.yaml version 3 and 4, an empty or non-map hiera.yaml, and no hiera.yaml at all are errors '
    '(Puppet ignores the first three with a warning and finds nothing, and accepts version 4)': (
        'hand.config-error.version-3', 'hand.config-error.version-3-explicit', 'hand.config-error.version-4',
        'hand.config-error.empty-file', 'hand.config-error.not-a-hash', 'hand.config.no-hiera-yaml',
    ),
    'options on a yaml_data/json_data level are ignored with a warning (Puppet fails every lookup)': (
        'hand.config-error.options-ignored',
    ),
    'hocon_data is not supported (no HOCON parser in Ansible)': ('hand.config-error.data-hash-hocon',),
    'eyaml levels are read (the Puppet that recorded the corpus lacks the hiera_eyaml library and fails); their '
    'ENC[...] values are eyaml values, decrypted where a lookup returns them (tests/unit/plugins/plugin_utils/'
    'test_eyaml_sources.py)': ('hand.config-error.eyaml',),
    'YAML 1.1 as PyYAML reads it: sexagesimal 1:20 is 80 (Psych: 4800); :sym is the text ":sym" (Psych: a Ruby '
    'symbol, which Puppet refuses)': (
        'hand.yaml-scalar.sexagesimal', 'hand.yaml-scalar.symbol',
    ),
    'convert_to in lookup_options is not supported (Puppet type conversion; issue 10 leaves it out)': (
        'hand.lookup-options.no-merge-entry',
    ),
}


# The same for the module layer's corpus (tests/oracle/hiera/module_oracle.py, module_corpus.json).
MODULE_DEPARTURES: Dict[str, Tuple[str, ...]] = {
    "a module's hiera.yaml version 4 is an error, as the environment's (Puppet reads it with a deprecation warning)": (
        'hand.module.provider.version-4',
    ),
}

# Explain cases whose account differs (the answer itself agrees or is a departure above).
EXPLAIN_DEPARTURES = {
    'hand.config.no-hiera-yaml': 'no hiera.yaml is an error (departure above)',
    'hand.data-file.unparsable': 'Puppet fails before naming the merge of lookup_options',
    'hand.interpolation.alias-explain': "the variables read by an interpolation are not itemised ('Found key: \"facts\"')",
}
_EXPLAIN_LINE = re.compile(r'^\s*(Hierarchy entry|Path "|Original path|Path not found|No such key|Found key: "[^"]*"'
                           r'|Searching for|Merge strategy|Merged result|Sub key|Module .*|Global and Environment|'
                           r'Environment Data Provider|Using configuration)')
_GLOBAL_LAYER = re.compile(r'\n( *)Global Data Provider[^\n]*\n\1  [^\n]*')


def explain_outline(text: str, environment: str) -> List[str]:
    """The steps of an explanation: levels, paths, found or not, merges (values and Puppet's empty global layer
    left out)."""
    outline = []
    for line in _GLOBAL_LAYER.sub('', text.replace('{environment}', environment)).split('\n'):
        match = _EXPLAIN_LINE.match(line)
        if match:
            outline.append(match.group(1) if match.group(1).startswith(('Found key', 'Merged')) else line.strip())
    return outline


def load_corpus(path: str = CORPUS) -> Dict[str, Any]:
    with open(path, encoding='utf-8') as handle:
        return json.load(handle)


def write_repository(repository: Dict[str, Any], folder: str) -> None:
    for relative, text in repository['files'].items():
        path = os.path.join(folder, relative)
        if relative.endswith('/'):
            os.makedirs(path, exist_ok=True)
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w', encoding='utf-8') as handle:
            handle.write(text)


def read_data(path: str, level: Any) -> Any:
    """The test's loader: PyYAML's safe loader (as Ansible's) and json."""
    try:
        with open(path, encoding='utf-8') as handle:
            if level.data_hash == 'json_data':
                return json.load(handle)
            return yaml.safe_load(handle)
    except (yaml.YAMLError, ValueError) as exc:
        raise HieraError('Unable to parse (%s): %s' % (path, exc)) from exc


def cli_merge(case: Dict[str, Any]) -> Tuple[Any, Optional[str]]:
    """The merge ``puppet lookup`` passes for the case's flags, or (None, refusal) when the CLI refuses them."""
    merge = case.get('merge')
    flags = {name: case[name] for name in ('knockout_prefix', 'sort_merged_arrays', 'merge_hash_arrays')
             if name in case}
    if merge is None:
        return None, ('deep options without --merge' if flags else None)
    if merge not in ('first', 'unique', 'hash', 'deep'):
        return None, 'unknown --merge %s' % merge
    if merge != 'deep':
        return (None, 'deep options without --merge deep') if flags else ({'strategy': merge}, None)
    options = {'strategy': 'deep', 'sort_merged_arrays': bool(flags.get('sort_merged_arrays')),
               'merge_hash_arrays': bool(flags.get('merge_hash_arrays'))}
    if 'knockout_prefix' in flags:
        options['knockout_prefix'] = flags['knockout_prefix']
    return options, None


def canonical(value: Any) -> str:
    """The value as Puppet's JSON shows it (text keys), types and key order kept."""
    return json.dumps(_text_keys(value), ensure_ascii=False)


def _text_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(key) if not isinstance(key, str) else key: _text_keys(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_text_keys(item) for item in value]
    return value


class Replayer:
    """Answers corpus cases; repositories are written once each under ``root``."""

    def __init__(self, corpus: Dict[str, Any], root: str) -> None:
        self.corpus = corpus
        self.root = root
        self.written: Dict[str, str] = {}

    def folder(self, name: str) -> str:
        if name not in self.written:
            folder = os.path.join(self.root, name)
            write_repository(self.corpus['repositories'][name], folder)
            self.written[name] = folder
        return self.written[name]

    def answer(self, case: Dict[str, Any]) -> Dict[str, Any]:
        """strata.hier's answer, in the corpus's form (``status`` and ``value`` or ``message``)."""
        repository = self.corpus['repositories'][case['repository']]
        merge, refusal = cli_merge(case)
        if refusal:
            return {'status': 'error', 'message': 'command line: %s' % refusal}
        try:
            engine = self.engine(case['repository'], repository)
            return {'status': 'found', 'value': engine.lookup(case['key'], merge)}
        except HieraNotFound:
            return {'status': 'not_found'}
        except (MergeError, OSError) as exc:
            return {'status': 'error', 'message': str(exc)}

    def explained(self, case: Dict[str, Any]) -> str:
        """strata.hier's explanation of the case (whatever the answer)."""
        explainer = Explainer()
        try:
            engine = self.engine(case['repository'], self.corpus['repositories'][case['repository']])
            engine.explain = explainer
            engine.lookup(case['key'], cli_merge(case)[0])
        except (HieraNotFound, MergeError, OSError):
            pass
        return explainer.text()

    def engine(self, name: str, repository: Dict[str, Any]) -> HieraLookup:
        path = os.path.join(self.folder(name), 'hiera.yaml')
        if not os.path.exists(path):
            raise HieraError('%s: no hiera.yaml' % path)
        with open(path, encoding='utf-8') as handle:
            try:
                data = yaml.safe_load(handle)
            except yaml.YAMLError as exc:
                raise HieraError('Unable to parse (%s): %s' % (path, exc)) from exc
        config = parse_hiera_config(data, path)
        return HieraLookup(config, read_data, hiera_scope(repository['node'], repository['facts']),
                           modules=Modules(os.path.dirname(path), read_module_config))


def read_module_config(path: str, module: str) -> Any:
    """A module's hiera.yaml, as the test's loader reads it."""
    with open(path, encoding='utf-8') as handle:
        try:
            data = yaml.safe_load(handle)
        except yaml.YAMLError as exc:
            raise HieraError('Unable to parse (%s): %s' % (path, exc)) from exc
    return parse_hiera_config(data, path, module)


def agrees(case: Dict[str, Any], ours: Dict[str, Any]) -> bool:
    theirs = case['answer']
    if theirs['status'] != ours['status']:
        return False
    if theirs['status'] == 'found':
        return canonical(theirs['value']) == canonical(ours['value'])
    return True


def departure_of(case_id: str) -> Optional[str]:
    for reason, ids in list(DEPARTURES.items()) + list(MODULE_DEPARTURES.items()):
        if case_id in ids:
            return reason
    return None
