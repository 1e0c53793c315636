# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Merge strategies: Datum's presets, sub-strategies and merge options.

A strategy is written by users as a preset name (``deep``), an alias
(``MergeRecursively``), a single sub-strategy name (``Unique``) or a map of
sub-strategies (Datum's custom structure).  ``parse_strategy`` turns any of
them into an immutable ``MergeStrategy``.

Beyond Datum (additive: every default keeps Datum's behaviour), a strategy map may set
``merge_string`` and ``merge_scalar``, the sub-strategy values ``LeastSpecific`` and
``Positional``, and the merge options ``array_order``, ``key_order``, ``string_order``,
``string_separator``, ``match_items_by``, ``null_values``, ``type_mismatch``,
``list_kinds`` and ``positional_items``; docs/merge-strategies.md describes them.
The filters for other systems (cloud-init, Heat, sequence aggregation) translate
their configuration into these settings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Optional, Tuple

from ansible_collections.strata.hier.plugins.module_utils.errors import StrategyError

MOST_SPECIFIC = 'MostSpecific'
HASH = 'hash'
DEEP = 'deep'
UNIQUE = 'Unique'
SUM = 'Sum'
UNIQUE_KEY_VAL_TUPLES = 'UniqueKeyValTuples'
DEEP_TUPLE = 'DeepTuple'
LEAST_SPECIFIC = 'LeastSpecific'    # the least specific value, whole ("the existing value wins")
POSITIONAL = 'Positional'           # arrays: items at the same index merge
JOIN = 'Join'                       # strings: joined with string_separator

MERGE_HASH_MODES = (MOST_SPECIFIC, HASH, DEEP, LEAST_SPECIFIC)
BASETYPE_ARRAY_MODES = (MOST_SPECIFIC, UNIQUE, SUM, LEAST_SPECIFIC, POSITIONAL)
HASH_ARRAY_MODES = (MOST_SPECIFIC, SUM, UNIQUE_KEY_VAL_TUPLES, DEEP_TUPLE, LEAST_SPECIFIC, POSITIONAL)
STRING_MODES = (MOST_SPECIFIC, LEAST_SPECIFIC, JOIN)
SCALAR_MODES = (MOST_SPECIFIC, LEAST_SPECIFIC)
TUPLE_MODES = (UNIQUE_KEY_VAL_TUPLES, DEEP_TUPLE)
WHOLE_MODES = (MOST_SPECIFIC, LEAST_SPECIFIC)

# merge_options beyond Datum; the first value of each is the default.
SPECIFIC_FIRST = 'specific_first'
GENERAL_FIRST = 'general_first'
ORDERS = (SPECIFIC_FIRST, GENERAL_FIRST)
TUPLE_KEYS = 'tuple_keys'
SCALAR_VALUES = 'scalar_values'
MATCH_MODES = (TUPLE_KEYS, SCALAR_VALUES)
NOT_FOUND = 'not_found'
VALUE = 'value'
DELETE = 'delete'
NULL_MODES = (NOT_FOUND, VALUE, DELETE)
SEPARATE = 'separate'
TOGETHER = 'together'
LIST_KINDS = (SEPARATE, TOGETHER)
MISMATCH_MODES = (MOST_SPECIFIC, LEAST_SPECIFIC)

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
    # Beyond Datum; the defaults are Datum's behaviour.
    merge_string: str = MOST_SPECIFIC
    """Strings in every layer: MostSpecific, LeastSpecific or Join."""
    merge_scalar: str = MOST_SPECIFIC
    """Other scalars (numbers, booleans, null when it is a value, mixed types): MostSpecific or LeastSpecific."""
    array_order: str = SPECIFIC_FIRST
    """Merged arrays list the most specific layer's items first, or the least specific layer's."""
    key_order: str = SPECIFIC_FIRST
    """Merged maps list the most specific layer's keys first, or the least specific layer's."""
    string_order: str = SPECIFIC_FIRST
    """Join puts the most specific string first, or the least specific one."""
    string_separator: str = ''
    match_items_by: str = TUPLE_KEYS
    """Tuple modes match hash-array items by tuple_keys, or by all their scalar values."""
    null_values: str = NOT_FOUND
    """A null in a map is not found (Datum), a value like any other, or deletes the key from less specific layers."""
    type_mismatch: str = MOST_SPECIFIC
    """When layers hold different types, the most specific value's type wins, or the least specific value's."""
    list_kinds: str = SEPARATE
    """Lists of maps and lists of scalars do not merge with each other, or merge together as one list."""
    positional_items: Optional['MergeStrategy'] = None
    """Positional arrays: how the items at one index merge (its sub-strategies); None: the most specific item."""
    plain_scalars: bool = field(init=False, repr=False, compare=False)
    """Scalars merge as Datum's do: the most specific wins (the merge's hot path)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, 'plain_scalars', self.merge_string == MOST_SPECIFIC == self.merge_scalar)

    def describe(self) -> dict:
        """The strategy as a Datum strategy map (for explain output); settings beyond Datum only when set."""
        described = {
            'merge_hash': self.merge_hash,
            'merge_basetype_array': self.merge_basetype_array,
            'merge_hash_array': self.merge_hash_array,
            'merge_options': {'knockout_prefix': self.knockout_prefix,
                              'tuple_keys': list(self.tuple_keys)},
        }
        for name in _EXTRA_FIELDS:
            if getattr(self, name) != _DEFAULTS[name]:
                described[name] = getattr(self, name)
        for name in _EXTRA_OPTIONS:
            value = getattr(self, name)
            if value != _DEFAULTS[name]:
                described['merge_options'][name] = value.describe() if isinstance(value, MergeStrategy) else value
        return described

    def with_(self, **changes: Any) -> 'MergeStrategy':
        return replace(self, **changes)


_EXTRA_FIELDS = ('merge_string', 'merge_scalar')
_EXTRA_OPTIONS = ('array_order', 'key_order', 'string_order', 'string_separator', 'match_items_by', 'null_values',
                  'type_mismatch', 'list_kinds', 'positional_items')
_DEFAULTS = {name: getattr(MergeStrategy, name) for name in _EXTRA_FIELDS + _EXTRA_OPTIONS}

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
    'merge_string': STRING_MODES,
    'merge_scalar': SCALAR_MODES,
}
_MAP_KEYS = ('strategy',) + tuple(_MAP_FIELDS) + ('merge_options',)
_OPTION_CHOICES = {
    'array_order': ORDERS,
    'key_order': ORDERS,
    'string_order': ORDERS,
    'match_items_by': MATCH_MODES,
    'null_values': NULL_MODES,
    'type_mismatch': MISMATCH_MODES,
    'list_kinds': LIST_KINDS,
}
_OPTION_KEYS = ('knockout_prefix', 'tuple_keys') + tuple(_OPTION_CHOICES) + ('string_separator', 'positional_items')


def canonical_name(name: Any, valid: tuple, what: str, where: str = '') -> str:
    """Names match case-insensitively (Datum uses PowerShell's -match); return the canonical spelling.

    An unknown name is a StrategyError naming ``what`` it should be and listing the valid names.
    """
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
    name = canonical_name(spec, STRATEGY_NAMES, 'strategy', where)
    name = PRESET_ALIASES.get(name, name)
    if name in PRESETS:
        return PRESETS[name]
    return MergeStrategy(knockout_prefix=DEFAULT_KNOCKOUT_PREFIX, name=name, **SHORTHANDS[name])


def _lower_keys(spec: Mapping, valid: tuple, what: str, where: str) -> dict:
    """Map keys compare case-insensitively, as in Datum's hashtables."""
    result = {}
    for key, value in spec.items():
        result[canonical_name(key, valid, what, where)] = value
    return result


def _parse_map(spec: Mapping, where: str) -> MergeStrategy:
    fields = _lower_keys(spec, _MAP_KEYS, 'strategy key', where)
    base = _parse_name(fields.pop('strategy'), where) if 'strategy' in fields else PRESETS[MOST_SPECIFIC]
    changes = {}
    for name, modes in _MAP_FIELDS.items():
        if name in fields:
            changes[name] = canonical_name(fields[name], modes, name, where)
    options = fields.get('merge_options') or {}
    if not isinstance(options, Mapping):
        raise StrategyError('merge_options must be a map%s' % _for(where))
    options = _lower_keys(options, _OPTION_KEYS, 'merge option', where)
    merges = any(changes.get(name, getattr(base, name)) not in WHOLE_MODES for name in _MAP_FIELDS)
    prefix = base.knockout_prefix or (DEFAULT_KNOCKOUT_PREFIX if merges else None)
    changes['knockout_prefix'] = parse_knockout_prefix(options.get('knockout_prefix', prefix), where)
    if 'tuple_keys' in options:
        changes['tuple_keys'] = parse_tuple_keys(options['tuple_keys'], where)
    for option, choices in _OPTION_CHOICES.items():
        if option in options:
            changes[option] = canonical_name(options[option], choices, 'merge option %s value' % option, where)
    if 'string_separator' in options:
        separator = options['string_separator']
        if not isinstance(separator, str):
            raise StrategyError('string_separator must be a string, not %r%s' % (separator, _for(where)))
        changes['string_separator'] = separator
    if options.get('positional_items') is not None:
        changes['positional_items'] = parse_strategy(options['positional_items'],
                                                     '%s positional_items' % where if where else 'positional_items')
    return validate(base.with_(name='custom', **changes), where)


def parse_knockout_prefix(prefix: Any, where: str = '') -> Optional[str]:
    """A prefix, or None (knockout off) for null, false or '' (Datum: any false value turns it off)."""
    if prefix is None or prefix is False or prefix == '':
        return None
    if not isinstance(prefix, str):
        raise StrategyError('knockout_prefix must be a string, or null, false or an empty string to turn knockout '
                            'off, not %r%s' % (prefix, _for(where)))
    return prefix


def parse_tuple_keys(keys: Any, where: str = '') -> Tuple[str, ...]:
    if isinstance(keys, (list, tuple)) and all(isinstance(key, str) and key for key in keys):
        return tuple(keys)
    raise StrategyError('tuple_keys must be a list of non-empty strings, not %r%s' % (keys, _for(where)))


def validate(strategy: MergeStrategy, where: str = '') -> MergeStrategy:
    if strategy.merge_hash_array in TUPLE_MODES and not strategy.tuple_keys and strategy.match_items_by == TUPLE_KEYS:
        raise StrategyError('merge_hash_array %s needs merge_options.tuple_keys%s'
                            % (strategy.merge_hash_array, _for(where)))
    return strategy


_NOT_GIVEN: Any = object()


def with_options(strategy: MergeStrategy, tuple_keys: Any = None, knockout_prefix: Any = _NOT_GIVEN,
                 where: str = '') -> MergeStrategy:
    """Override merge options given beside a strategy (the filter's keyword arguments).

    A knockout_prefix left out keeps the strategy's; null, false or '' turns knockout off.
    """
    changes = {}
    if tuple_keys is not None:
        changes['tuple_keys'] = parse_tuple_keys(tuple_keys, where)
    if knockout_prefix is not _NOT_GIVEN:
        changes['knockout_prefix'] = parse_knockout_prefix(knockout_prefix, where)
    return validate(strategy.with_(**changes), where) if changes else strategy
