# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Merge strategies: a merger per kind of value, and Datum's syntax for them.

A ``MergeStrategy`` holds one merger for maps, scalars, base-type arrays and hash arrays, and the
dispatch that hands values to them (mergers/).  Users write strategies as Datum does: a preset name
(``deep``), an alias (``MergeRecursively``), a single sub-strategy name (``Unique``) or a map of
sub-strategies (Datum's custom structure) with ``merge_options`` ``knockout_prefix`` and
``tuple_keys``; ``parse_strategy`` turns any of them into a MergeStrategy.  That syntax is all a
``lookup_options`` rule can say.  Deckhand (deckhand.py) merges by a Datum strategy; ACM's sequences
(sequence.py) build theirs from the mergers with the settings only they use (array order, items matched by
their scalar values, lists of maps and of scalars together).  cloud-init and Heat merge by folds (folding.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any, Callable, Dict, List, Optional, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.errors import StrategyError
from ansible_collections.strata.hier.plugins.module_utils.core.kinds import MAP, MAP_LIST, SCALAR, family_of, kind_of
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.base import (
    DEFAULT_TUPLE_KEYS, MOST_SPECIFIC, Merger, canonical_name, for_where,
)
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.dispatch import ByType
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.hash_arrays import (
    DEEP_TUPLE, UNIQUE_KEY_VAL_TUPLES, HashArrayMerger,
)
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.maps import DEEP, HASH, MapMerger
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.scalar_lists import SUM, UNIQUE, ScalarListMerger
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.scalars import ScalarMerger
from ansible_collections.strata.hier.plugins.module_utils.core.records import Record, derived

__all__ = ('MergeStrategy', 'canonical_name', 'parse_strategy', 'with_options', 'datum_strategy',
           'MOST_SPECIFIC', 'HASH', 'DEEP', 'UNIQUE', 'SUM', 'UNIQUE_KEY_VAL_TUPLES', 'DEEP_TUPLE')

DEFAULT_KNOCKOUT_PREFIX = '--'
_CONTAINERS = ('maps', 'scalar_lists', 'hash_arrays')


class MergeStrategy(Record):
    """How the values of one key path merge across layers: a merger per kind of value."""

    name: str = MOST_SPECIFIC
    maps: MapMerger = MapMerger()
    scalars: ScalarMerger = ScalarMerger()
    scalar_lists: ScalarListMerger = ScalarListMerger()
    hash_arrays: HashArrayMerger = HashArrayMerger()
    dispatch: ByType = ByType()
    is_whole: bool = derived()
    """Every container is taken whole from the most specific layer."""
    knockout_prefix: Optional[str] = derived()
    """The prefix of knockout markers (the map merger's; Datum's strategies give every merger the same)."""
    tuple_keys: Tuple[str, ...] = derived()
    _derived: Dict[Any, 'MergeStrategy'] = derived()
    """Strategies derived from this one (whole, deep_items...), built once."""

    def __post_init__(self) -> None:
        self.settle('is_whole', all(getattr(self, name).mode == MOST_SPECIFIC for name in _CONTAINERS))
        self.settle('knockout_prefix', self.maps.knockout_prefix)
        self.settle('tuple_keys', self.hash_arrays.tuple_keys)
        self.settle('_derived', {})

    # Datum's names for what the mergers do (read-only: a strategy is changed by building its mergers).
    @property
    def merge_hash(self) -> str:
        return self.maps.mode

    @property
    def merge_basetype_array(self) -> str:
        return self.scalar_lists.mode

    @property
    def merge_hash_array(self) -> str:
        return self.hash_arrays.mode

    def _cached(self, key: Any, build: Callable[[], 'MergeStrategy']) -> 'MergeStrategy':
        derived = self._derived.get(key)
        if derived is None:
            derived = self._derived[key] = build()
        return derived

    @property
    def whole(self) -> 'MergeStrategy':
        """Take the most specific value whole, still dropping markers of the prefix in force."""
        return self._cached('whole', lambda: self._with_each(lambda merger: merger.whole()))

    @property
    def deep_items(self) -> 'MergeStrategy':
        """The strategy of DeepTuple's items: maps merge key by key, whatever the map merger's mode."""
        return self._cached('deep', lambda: self.with_maps(self.maps.with_settings(mode=DEEP)))

    def with_maps(self, maps: MapMerger) -> 'MergeStrategy':
        if maps == self.maps:
            return self
        return self._cached(('maps', maps), lambda: self.replace(maps=maps))

    def with_settings(self, **settings: Any) -> 'MergeStrategy':
        """The strategy with the settings its container mergers have among ``settings`` changed."""
        return self._with_each(lambda merger: merger.with_settings(**settings))

    def with_key_case(self, case_insensitive: bool) -> 'MergeStrategy':
        """The strategy with keys (and tuple values) compared case-insensitively, or as written."""
        return self._cached(('case', case_insensitive), lambda: self.with_settings(case_insensitive=case_insensitive))

    def _with_each(self, change: Callable[[Merger], Merger]) -> 'MergeStrategy':
        changed = {name: change(getattr(self, name)) for name in _CONTAINERS}
        if all(changed[name] is getattr(self, name) for name in _CONTAINERS):
            return self
        return self.replace(**changed)

    def sources(self, value: Any, indexes: List[int]) -> List[int]:
        """The layers (of ``indexes``, most specific first) that supply a merged value like ``value``."""
        family = family_of(value)
        if family is SCALAR:
            return self.scalars.sources(indexes)
        if family is MAP:
            return self.maps.sources(indexes)
        merger = self.hash_arrays if kind_of(value) == MAP_LIST else self.scalar_lists
        return merger.sources(indexes)

    def describe(self) -> dict:
        """The strategy as a Datum strategy map (for explain output); settings beyond Datum only when set."""
        described: Dict[str, Any] = {}
        options: Dict[str, Any] = {'knockout_prefix': self.knockout_prefix, 'tuple_keys': list(self.tuple_keys)}
        for part in (self.dispatch, self.scalars, self.maps, self.scalar_lists, self.hash_arrays):
            settings, extra = part.strategy_keys()
            described.update(settings)
            options.update(extra)
        described['merge_options'] = options
        return described


def datum_strategy(name: str, modes: Mapping, knockout_prefix: Optional[str],
                   tuple_keys: Tuple[str, ...] = DEFAULT_TUPLE_KEYS) -> MergeStrategy:
    """A strategy of Datum's settings: sub-strategy modes by key (merge_hash...; MostSpecific when left out)."""
    return MergeStrategy(
        name=name,
        maps=MapMerger(modes.get('merge_hash', MOST_SPECIFIC), knockout_prefix),
        scalar_lists=ScalarListMerger(modes.get('merge_basetype_array', MOST_SPECIFIC), knockout_prefix,
                                      tuple_keys=tuple_keys),
        hash_arrays=HashArrayMerger(modes.get('merge_hash_array', MOST_SPECIFIC), knockout_prefix,
                                    tuple_keys=tuple_keys))


PRESETS = {
    MOST_SPECIFIC: datum_strategy(MOST_SPECIFIC, {}, None),
    HASH: datum_strategy(HASH, {'merge_hash': HASH}, DEFAULT_KNOCKOUT_PREFIX),
    DEEP: datum_strategy(DEEP, {'merge_hash': DEEP, 'merge_basetype_array': UNIQUE, 'merge_hash_array': DEEP_TUPLE},
                         DEFAULT_KNOCKOUT_PREFIX),
}
PRESET_ALIASES = {'First': MOST_SPECIFIC, 'MergeTopKeys': HASH, 'MergeRecursively': DEEP}

# A single sub-strategy name: that sub-strategy, the rest at MostSpecific, knockout on.
SHORTHANDS = {name: datum_strategy(name, modes, DEFAULT_KNOCKOUT_PREFIX) for name, modes in (
    (UNIQUE, {'merge_basetype_array': UNIQUE}),
    (SUM, {'merge_basetype_array': SUM, 'merge_hash_array': SUM}),
    (UNIQUE_KEY_VAL_TUPLES, {'merge_hash_array': UNIQUE_KEY_VAL_TUPLES}),
    (DEEP_TUPLE, {'merge_hash_array': DEEP_TUPLE}),
)}

STRATEGY_NAMES = tuple(PRESETS) + tuple(PRESET_ALIASES) + tuple(SHORTHANDS)
_SUB_STRATEGIES = {'merge_hash': MapMerger, 'merge_basetype_array': ScalarListMerger,
                   'merge_hash_array': HashArrayMerger}
_SLOTS = dict(zip(_SUB_STRATEGIES, _CONTAINERS))
_MAP_KEYS = ('strategy',) + tuple(_SUB_STRATEGIES) + ('merge_options',)
_OPTION_KEYS = ('knockout_prefix', 'tuple_keys')


def parse_strategy(spec: Any, where: str = '') -> MergeStrategy:
    """Turn a user-written strategy into a MergeStrategy (a MergeStrategy is taken as it is).

    ``where`` names the rule in error messages (for example ``lookup_options 'Packages'``).
    """
    if isinstance(spec, MergeStrategy):
        return spec
    if isinstance(spec, str):
        return _parse_name(spec, where)
    if isinstance(spec, Mapping):
        return _parse_map(spec, where)
    raise StrategyError('a strategy must be a name or a map, not %s%s; valid names: %s'
                        % (type(spec).__name__, for_where(where), ', '.join(STRATEGY_NAMES)))


def _parse_name(spec: str, where: str) -> MergeStrategy:
    name = canonical_name(spec, STRATEGY_NAMES, 'strategy', where)
    name = PRESET_ALIASES.get(name, name)
    return PRESETS[name] if name in PRESETS else SHORTHANDS[name]


def _lower_keys(spec: Mapping, valid: tuple, what: str, where: str) -> dict:
    """Map keys compare case-insensitively, as in Datum's hashtables."""
    return {canonical_name(key, valid, what, where): value for key, value in spec.items()}


def _parse_map(spec: Mapping, where: str) -> MergeStrategy:
    fields = _lower_keys(spec, _MAP_KEYS, 'strategy key', where)
    base = _parse_name(fields.pop('strategy'), where) if 'strategy' in fields else PRESETS[MOST_SPECIFIC]
    modes = {setting: getattr(base, slot).mode for setting, slot in _SLOTS.items()}
    for setting, merger in _SUB_STRATEGIES.items():
        if setting in fields:
            modes[setting] = canonical_name(fields[setting], merger.MODES, setting, where)
    options = fields.get('merge_options') or {}
    if not isinstance(options, Mapping):
        raise StrategyError('merge_options must be a map%s' % for_where(where))
    options = _lower_keys(options, _OPTION_KEYS, 'merge option', where)
    merges = any(mode != MOST_SPECIFIC for mode in modes.values())
    prefix = base.knockout_prefix or (DEFAULT_KNOCKOUT_PREFIX if merges else None)
    prefix = parse_knockout_prefix(options.get('knockout_prefix', prefix), where)
    tuple_keys = parse_tuple_keys(options['tuple_keys'], where) if 'tuple_keys' in options else base.tuple_keys
    return _checked(where, partial(datum_strategy, 'custom', modes, prefix, tuple_keys))


def _checked(where: str, build: Callable[[], MergeStrategy]) -> MergeStrategy:
    """Build a strategy; the mergers' own checks name the rule."""
    try:
        return build()
    except StrategyError as exc:
        raise StrategyError('%s%s' % (exc, for_where(where))) from exc


def parse_knockout_prefix(prefix: Any, where: str = '') -> Optional[str]:
    """A prefix, or None (knockout off) for null, false or '' (Datum: any false value turns it off)."""
    if prefix is None or prefix is False or prefix == '':
        return None
    if not isinstance(prefix, str):
        raise StrategyError('knockout_prefix must be a string, or null, false or an empty string to turn knockout '
                            'off, not %r%s' % (prefix, for_where(where)))
    return prefix


def parse_tuple_keys(keys: Any, where: str = '') -> Tuple[str, ...]:
    if isinstance(keys, (list, tuple)) and all(isinstance(key, str) and key for key in keys):
        return tuple(keys)
    raise StrategyError('tuple_keys must be a list of non-empty strings, not %r%s' % (keys, for_where(where)))


_NOT_GIVEN: Any = object()


def with_options(strategy: MergeStrategy, tuple_keys: Any = None, knockout_prefix: Any = _NOT_GIVEN,
                 where: str = '') -> MergeStrategy:
    """Override merge options given beside a strategy (the filter's keyword arguments).

    A knockout_prefix left out keeps the strategy's; null, false or '' turns knockout off.
    """
    settings = {}
    if tuple_keys is not None:
        settings['tuple_keys'] = parse_tuple_keys(tuple_keys, where)
    if knockout_prefix is not _NOT_GIVEN:
        settings['knockout_prefix'] = parse_knockout_prefix(knockout_prefix, where)
    return _checked(where, partial(strategy.with_settings, **settings)) if settings else strategy
