# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""What every merger shares.

A merger merges the values of one kind (maps, base-type arrays, ...) that several layers hold at
one key path, most specific first.  It is built once, from its mode (the sub-strategy, such as
``deep`` or ``Unique``) and its settings, which it validates and settles there (which layers it
takes, its knockout prefix, whether keys compare case-insensitively...), so merging tests nothing twice.
``merge(run, path, values, strategy, depth)`` gets the running merge (``merging.MergeRun``: rules, warnings,
work budget, whether the fast paths are on), the key path, the values, the strategy the merger belongs to (a
``MergeStrategy``, for the strategies of nested values) and the nesting depth.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Dict, List, Optional, Sequence, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.errors import StrategyError
from ansible_collections.strata.hier.plugins.module_utils.core.identity import shown
from ansible_collections.strata.hier.plugins.module_utils.core.records import Record, derived

if TYPE_CHECKING:
    from ansible_collections.strata.hier.plugins.module_utils.core.merging import MergeRun
    from ansible_collections.strata.hier.plugins.module_utils.core.strategy import MergeStrategy

MOST_SPECIFIC = 'MostSpecific'
SPECIFIC_FIRST = 'specific_first'
GENERAL_FIRST = 'general_first'
ORDERS = (SPECIFIC_FIRST, GENERAL_FIRST)
DEFAULT_TUPLE_KEYS = ('Name', 'Version')   # Datum's deep preset
# Where a nested value's strategy comes from when no rule names its path, in place of a rule's name (compared by
# identity: a lookup_options key spelled the same is still a rule of its own).
INHERITED = '(inherited)'     # a nested map under deep: its parent's strategy
WHOLE = '(taken whole)'       # a nested value under hash or MostSpecific: the most specific one, whole

_MOST_SPECIFIC_ONLY = slice(0, 1)
ALL = slice(None)
"""Merger.takes of a merger that merges every layer."""


def canonical_name(name: Any, valid: Sequence[str], what: str, where: str = '') -> str:
    """Names match case-insensitively (Datum uses PowerShell's -match); return the canonical spelling.

    An unknown name is a StrategyError naming ``what`` it should be and listing the valid names.
    """
    if isinstance(name, str):
        for candidate in valid:
            if candidate.lower() == name.strip().lower():
                return candidate
    raise StrategyError('unknown %s %s%s; valid names: %s' % (what, shown(name), for_where(where), ', '.join(valid)))


def for_where(where: str) -> str:
    return ' for %s' % where if where else ''


def general_first(items: List[Any], starts: List[int]) -> List[Any]:
    """Reorder results built layer by layer, most specific first, so the least specific layer's come first.

    ``starts[i]`` is where layer i's contribution begins; each layer keeps its own order.
    """
    bounds = starts + [len(items)]
    result: List[Any] = []
    for layer in range(len(starts) - 1, -1, -1):
        result.extend(items[bounds[layer]:bounds[layer + 1]])
    return result


class Merger(Record):
    """A merger with a mode; subclasses add their settings as fields and their work as ``merge``."""

    SETTING: ClassVar[str] = ''
    """The strategy key naming the mode (``merge_hash``...), in messages and ``strategy_keys()``."""
    MODES: ClassVar[Tuple[str, ...]] = (MOST_SPECIFIC,)
    OPTIONS: ClassVar[Dict[str, str]] = {}
    """Fields shown by strategy_keys() as merge options when they differ from their default: field -> option."""
    VALUES: ClassVar[str] = ''
    """The kind of value it merges, as explain names it (docs/merge-strategies.md's types)."""

    mode: str = MOST_SPECIFIC
    knockout_prefix: Optional[str] = None
    takes: slice = derived()
    """The layers merged: the most specific only, or all."""

    def __post_init__(self) -> None:
        self.settle('mode', canonical_name(self.mode, self.MODES, self.SETTING))
        self.settle('takes', _MOST_SPECIFIC_ONLY if self.mode == MOST_SPECIFIC else ALL)
        self._settle()

    def _settle(self) -> None:
        """Validate the settings and settle what merging reads (subclasses)."""

    @property
    def takes_one(self) -> bool:
        return self.takes is not ALL

    def sources(self, indexes: List[int]) -> List[int]:
        """The layers (of ``indexes``, most specific first) whose values are in the result."""
        return list(indexes[self.takes])

    def with_settings(self, **settings: Any) -> 'Merger':
        """The merger with the settings it has among ``settings`` changed (others are ignored)."""
        changes = {name: value for name, value in settings.items()
                   if name in self.DEFAULTS and getattr(self, name) != value}
        return self.replace(**changes) if changes else self

    def whole(self) -> 'Merger':
        """The merger that takes the most specific value whole (still dropping markers of its prefix)."""
        return self.with_settings(mode=MOST_SPECIFIC)

    def strategy_keys(self) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        """The strategy keys and merge options this merger stands for (options only when not the default): its part
        of ``MergeStrategy.describe()``."""
        options = {option: getattr(self, name) for name, option in self.OPTIONS.items()
                   if getattr(self, name) != self.DEFAULTS[name]}
        return {self.SETTING: self.mode}, options

    def explained(self) -> Dict[str, Any]:
        """What explain reports of the merger that merged a key path: its setting and the options it uses."""
        settings, options = self.strategy_keys()
        settings.update(options)
        settings['knockout_prefix'] = self.knockout_prefix
        return settings

    def merge(self, run: MergeRun, path: Tuple[Any, ...], values: List[Any], strategy: MergeStrategy,
              depth: int) -> Any:
        raise NotImplementedError
