# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Merge strategies: Datum's presets, sub-strategies and merge options.

A strategy is written by users as a preset name (``deep``), an alias
(``MergeRecursively``), a single sub-strategy name (``Unique``) or a map of
sub-strategies (Datum's custom structure).  ``parse_strategy`` turns any of
them into an immutable ``MergeStrategy``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Optional, Tuple

from ansible_collections.strata.hier.plugins.module_utils.errors import StrategyError

MOST_SPECIFIC = 'MostSpecific'
HASH = 'hash'
DEEP = 'deep'
UNIQUE = 'Unique'
SUM = 'Sum'
UNIQUE_KEY_VAL_TUPLES = 'UniqueKeyValTuples'
DEEP_TUPLE = 'DeepTuple'

MERGE_HASH_MODES = (MOST_SPECIFIC, HASH, DEEP)
BASETYPE_ARRAY_MODES = (MOST_SPECIFIC, UNIQUE, SUM)
HASH_ARRAY_MODES = (MOST_SPECIFIC, SUM, UNIQUE_KEY_VAL_TUPLES, DEEP_TUPLE)
TUPLE_MODES = (UNIQUE_KEY_VAL_TUPLES, DEEP_TUPLE)

DEFAULT_KNOCKOUT_PREFIX = '--'
DEFAULT_TUPLE_KEYS = ('Name', 'Version')   # Datum's deep preset


@dataclass(frozen=True)
class MergeStrategy:
    """How values of one key path merge across layers."""

    merge_hash: str = MOST_SPECIFIC
    merge_basetype_array: str = MOST_SPECIFIC
    merge_hash_array: str = MOST_SPECIFIC
    knockout_prefix: Optional[str] = None
    tuple_keys: Tuple[str, ...] = DEFAULT_TUPLE_KEYS
    name: str = MOST_SPECIFIC

    def describe(self) -> dict:
        """The strategy as a Datum strategy map (for explain output)."""
        return {
            'merge_hash': self.merge_hash,
            'merge_basetype_array': self.merge_basetype_array,
            'merge_hash_array': self.merge_hash_array,
            'merge_options': {'knockout_prefix': self.knockout_prefix,
                              'tuple_keys': list(self.tuple_keys)},
        }

    def with_(self, **changes: Any) -> 'MergeStrategy':
        return replace(self, **changes)


PRESETS = {
    MOST_SPECIFIC: MergeStrategy(name=MOST_SPECIFIC),
    HASH: MergeStrategy(merge_hash=HASH, knockout_prefix=DEFAULT_KNOCKOUT_PREFIX, name=HASH),
    DEEP: MergeStrategy(merge_hash=DEEP, merge_basetype_array=UNIQUE, merge_hash_array=DEEP_TUPLE,
                        knockout_prefix=DEFAULT_KNOCKOUT_PREFIX, name=DEEP),
}
PRESET_ALIASES = {'First': MOST_SPECIFIC, 'MergeTopKeys': HASH, 'MergeRecursively': DEEP}

# A single sub-strategy name: that sub-strategy, the rest at MostSpecific, knockout on.
SHORTHANDS = {
    UNIQUE: {'merge_basetype_array': UNIQUE},
    SUM: {'merge_basetype_array': SUM, 'merge_hash_array': SUM},
    UNIQUE_KEY_VAL_TUPLES: {'merge_hash_array': UNIQUE_KEY_VAL_TUPLES},
    DEEP_TUPLE: {'merge_hash_array': DEEP_TUPLE},
}

STRATEGY_NAMES = tuple(PRESETS) + tuple(PRESET_ALIASES) + tuple(SHORTHANDS)
_MAP_FIELDS = {
    'merge_hash': MERGE_HASH_MODES,
    'merge_basetype_array': BASETYPE_ARRAY_MODES,
    'merge_hash_array': HASH_ARRAY_MODES,
}
_MAP_KEYS = ('strategy',) + tuple(_MAP_FIELDS) + ('merge_options',)
_OPTION_KEYS = ('knockout_prefix', 'tuple_keys')


def _canonical(name: Any, valid: tuple, what: str, where: str) -> str:
    """Names match case-insensitively (Datum uses PowerShell's -match); return the canonical spelling."""
    if isinstance(name, str):
        for candidate in valid:
            if candidate.lower() == name.strip().lower():
                return candidate
    raise StrategyError('unknown %s %r%s; valid names: %s'
                        % (what, name, _for(where), ', '.join(valid)))


def _for(where: str) -> str:
    return ' for %s' % where if where else ''


def parse_strategy(spec: Any, where: str = '') -> MergeStrategy:
    """Turn a user-written strategy into a MergeStrategy.

    ``where`` names the rule in error messages (for example ``lookup_options 'Packages'``).
    """
    if isinstance(spec, MergeStrategy):
        return spec
    if isinstance(spec, str):
        return _parse_name(spec, where)
    if isinstance(spec, Mapping):
        return _parse_map(spec, where)
    raise StrategyError('a strategy must be a name or a map, not %s%s; valid names: %s'
                        % (type(spec).__name__, _for(where), ', '.join(STRATEGY_NAMES)))


def _parse_name(spec: str, where: str) -> MergeStrategy:
    name = _canonical(spec, STRATEGY_NAMES, 'strategy', where)
    name = PRESET_ALIASES.get(name, name)
    if name in PRESETS:
        return PRESETS[name]
    return MergeStrategy(knockout_prefix=DEFAULT_KNOCKOUT_PREFIX, name=name, **SHORTHANDS[name])


def _lower_keys(spec: Mapping, valid: tuple, what: str, where: str) -> dict:
    """Map keys compare case-insensitively, as in Datum's hashtables."""
    result = {}
    for key, value in spec.items():
        result[_canonical(key, valid, what, where)] = value
    return result


def _parse_map(spec: Mapping, where: str) -> MergeStrategy:
    fields = _lower_keys(spec, _MAP_KEYS, 'strategy key', where)
    base = _parse_name(fields.pop('strategy'), where) if 'strategy' in fields else PRESETS[MOST_SPECIFIC]
    changes = {}
    for field, modes in _MAP_FIELDS.items():
        if field in fields:
            changes[field] = _canonical(fields[field], modes, field, where)
    options = fields.get('merge_options') or {}
    if not isinstance(options, Mapping):
        raise StrategyError('merge_options must be a map%s' % _for(where))
    options = _lower_keys(options, _OPTION_KEYS, 'merge option', where)
    merges = any(changes.get(field, getattr(base, field)) != MOST_SPECIFIC for field in _MAP_FIELDS)
    prefix = base.knockout_prefix or (DEFAULT_KNOCKOUT_PREFIX if merges else None)
    changes['knockout_prefix'] = parse_knockout_prefix(options.get('knockout_prefix', prefix), where)
    if 'tuple_keys' in options:
        changes['tuple_keys'] = parse_tuple_keys(options['tuple_keys'], where)
    return validate(base.with_(name='custom', **changes), where)


def parse_knockout_prefix(prefix: Any, where: str = '') -> Optional[str]:
    if prefix is None or prefix == '':
        return None
    if not isinstance(prefix, str):
        raise StrategyError('knockout_prefix must be a string or null, not %r%s' % (prefix, _for(where)))
    return prefix


def parse_tuple_keys(keys: Any, where: str = '') -> Tuple[str, ...]:
    if isinstance(keys, (list, tuple)) and all(isinstance(key, str) and key for key in keys):
        return tuple(keys)
    raise StrategyError('tuple_keys must be a list of non-empty strings, not %r%s' % (keys, _for(where)))


def validate(strategy: MergeStrategy, where: str = '') -> MergeStrategy:
    if strategy.merge_hash_array in TUPLE_MODES and not strategy.tuple_keys:
        raise StrategyError('merge_hash_array %s needs merge_options.tuple_keys%s'
                            % (strategy.merge_hash_array, _for(where)))
    return strategy


def with_options(strategy: MergeStrategy, tuple_keys: Any = None, knockout_prefix: Any = False,
                 where: str = '') -> MergeStrategy:
    """Override merge options given beside a strategy (the filter's keyword arguments).

    ``knockout_prefix=False`` means "not given"; ``None`` or ``''`` turns knockout off.
    """
    changes = {}
    if tuple_keys is not None:
        changes['tuple_keys'] = parse_tuple_keys(tuple_keys, where)
    if knockout_prefix is not False:
        changes['knockout_prefix'] = parse_knockout_prefix(knockout_prefix, where)
    return validate(strategy.with_(**changes), where) if changes else strategy
