# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Strategy names as Datum reads them, for a Datum.yml (a hier.yml keeps strategy.py's strict names).

Datum matches names with PowerShell regexes (case-insensitive) and falls back silently: its
``Get-MergeStrategyFromString`` reads a name it does not know as MostSpecific, ``Merge-Datum`` reads
``merge_basetype_array`` values by prefix (``^Unique``, ``^Sum|^Add``) and ``merge_hash_array`` ones too
(``^DeepTuple|^DeepItemMergeByTuples``...), and ``Merge-Hashtable`` merges recursively only for ``merge_hash: deep``
(``MergeRecursively`` inside a strategy map merges top keys). ``datum_reading`` rewrites a rule into the names
strata.hier knows, with a note for every name read otherwise than written, so the caller can warn.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, List, Optional, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.strategy import STRATEGY_NAMES

MOST_SPECIFIC = 'MostSpecific'
# (sub-strategy, its names as strata.hier knows them, Datum's patterns in order, what Datum falls back to)
_SUB_STRATEGIES = {
    'merge_hash': (('MostSpecific', 'hash', 'deep'),
                   ((r'^MostSpecific$|^First', MOST_SPECIFIC), (r'^deep$', 'deep')), 'hash'),
    'merge_basetype_array': (('MostSpecific', 'Unique', 'Sum'),
                             ((r'^MostSpecific$|^First', MOST_SPECIFIC), (r'^Unique', 'Unique'), (r'^Sum|^Add', 'Sum')),
                             MOST_SPECIFIC),
    'merge_hash_array': (('MostSpecific', 'Sum', 'UniqueKeyValTuples', 'DeepTuple'),
                         ((r'^MostSpecific|^First', MOST_SPECIFIC), (r'^UniqueKeyValTuples', 'UniqueKeyValTuples'),
                          (r'^DeepTuple|^DeepItemMergeByTuples', 'DeepTuple'), (r'^Sum', 'Sum')), MOST_SPECIFIC),
}
_MAP_KEYS = ('strategy', 'merge_options') + tuple(_SUB_STRATEGIES)
_OPTION_KEYS = ('knockout_prefix', 'tuple_keys')


def datum_reading(spec: Any) -> Tuple[Any, List[str]]:
    """(the rule in names strata.hier knows, a note for each name Datum reads otherwise than written)."""
    notes: List[str] = []
    if isinstance(spec, str):
        return _top_name(spec, notes), notes
    if isinstance(spec, Mapping):
        return _strategy_map(spec, notes), notes
    return spec, notes


def _known(name: str, valid: Tuple[str, ...]) -> Optional[str]:
    return next((candidate for candidate in valid if candidate.lower() == name.strip().lower()), None)


def _top_name(name: str, notes: List[str]) -> str:
    if _known(name, STRATEGY_NAMES):
        return name
    notes.append('Datum reads the unknown strategy %r as MostSpecific' % name)
    return MOST_SPECIFIC


def _strategy_map(spec: Mapping, notes: List[str]) -> dict:
    read = {}
    for key, value in spec.items():
        name = _known(str(key), _MAP_KEYS)
        if name is None:
            notes.append('Datum ignores the strategy key %r' % key)
        elif name in _SUB_STRATEGIES and isinstance(value, str):
            read[key] = _sub_strategy(name, value, notes)
        elif name == 'merge_options' and isinstance(value, Mapping):
            read[key] = _options(value, notes)
        else:
            read[key] = value
    return read


def _sub_strategy(setting: str, value: str, notes: List[str]) -> str:
    known, patterns, fallback = _SUB_STRATEGIES[setting]
    if _known(value, known):
        return value
    read = next((mode for pattern, mode in patterns if re.search(pattern, value, re.IGNORECASE)), fallback)
    if read.lower() != value.strip().lower():
        notes.append('Datum reads %s %r as %s' % (setting, value, read))
    return read


def _options(options: Mapping, notes: List[str]) -> dict:
    read = {}
    for key, value in options.items():
        if _known(str(key), _OPTION_KEYS) is None:
            notes.append('Datum ignores the merge option %r' % key)
        else:
            read[key] = value
    return read
