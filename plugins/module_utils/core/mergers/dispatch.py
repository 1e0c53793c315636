# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Which merger gets a key path's values: the engine's dispatch.

The most specific value's type decides (Datum): maps go to the map merger, scalars to the scalar
merger, lists to the hash-array merger when the most specific non-empty list holds only maps, else
to the base-type array merger.  Values of another type are dropped with a warning (a null is no value
and never reaches the dispatch).

For ACM's sequences (sequence.py): lists of maps and of scalars may merge together as one list
(``list_kinds: together``): by the hash-array merger when every item is a map, else by the base-type
array merger.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.identity import shown_path
from ansible_collections.strata.hier.plugins.module_utils.core.kinds import (
    EMPTY_LIST, LIST, MAP, MAP_LIST, SCALAR_LIST, family_of, kind_of,
)
from ansible_collections.strata.hier.plugins.module_utils.core.limits import MAX_DEPTH, too_deep
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.base import canonical_name
from ansible_collections.strata.hier.plugins.module_utils.core.records import Record

if TYPE_CHECKING:
    from ansible_collections.strata.hier.plugins.module_utils.core.merging import MergeRun
    from ansible_collections.strata.hier.plugins.module_utils.core.strategy import MergeStrategy

SEPARATE = 'separate'
TOGETHER = 'together'
LIST_KINDS = (SEPARATE, TOGETHER)
EMPTY_LISTS = 'empty list'
"""What explain names a key path whose lists were all empty (no merger ran)."""


class ByType(Record):
    """Dispatch by the type of the winning value, the most specific one's."""

    lists: str = SEPARATE

    def __post_init__(self) -> None:
        self.settle('lists', canonical_name(self.lists, LIST_KINDS, 'merge option list_kinds value'))

    def strategy_keys(self) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        """The merge options this dispatch stands for (none for the default)."""
        options = {}
        if self.lists != SEPARATE:
            options['list_kinds'] = self.lists
        return {}, options

    def merge(self, run: MergeRun, path: Tuple[Any, ...], values: List[Any], strategy: MergeStrategy, depth: int,
              family: Optional[str] = None) -> Any:
        if family is None:
            family = family_of(values[0])
        if len(values) > 1:
            values = self.same_family(run, path, values, family)
        if family is MAP:
            if run.trace is not None:       # explain
                run.trace.merged(path, strategy.maps)
            return strategy.maps.merge(run, path, values, strategy, depth)
        if family is LIST:
            return self.merge_lists(run, path, values, strategy, depth)
        return strategy.scalars.merge(values)

    def winning_family(self, run: MergeRun, path: Tuple[Any, ...], values: List[Any]) -> Tuple[str, List[Any]]:
        family = family_of(values[0])
        return family, self.same_family(run, path, values, family)

    def same_family(self, run: MergeRun, path: Tuple[Any, ...], values: List[Any], family: str) -> List[Any]:
        """The values of the winning value's family; warn when others were dropped."""
        for value in values:
            if family_of(value) is not family:
                run.warn_mismatch(path, family)
                return [value for value in values if family_of(value) is family]
        return values

    def merge_lists(self, run: MergeRun, path: Tuple[Any, ...], lists: List[Any], strategy: MergeStrategy,
                    depth: int) -> list:
        if depth > MAX_DEPTH:
            raise too_deep(path)
        if self.lists == TOGETHER:
            kinds = {kind_of(items) for items in lists}
            kinds.discard(EMPTY_LIST)
            kind = EMPTY_LIST if not kinds else MAP_LIST if kinds == {MAP_LIST} else SCALAR_LIST
        else:
            kind, lists = self._same_kind(run, path, lists)
        merger = None if kind == EMPTY_LIST else strategy.hash_arrays if kind == MAP_LIST else strategy.scalar_lists
        if run.trace is not None:       # explain
            run.trace.merged(path, merger, EMPTY_LISTS)
        return [] if merger is None else merger.merge(run, path, lists, strategy, depth)

    def _same_kind(self, run: MergeRun, path: Tuple[Any, ...], lists: List[Any]) -> Tuple[str, List[Any]]:
        """The kind of the most specific non-empty list and the lists of that kind (or empty); warn when others
        were dropped."""
        kinds = [kind_of(items) for items in lists]
        kind = next((kind for kind in kinds if kind != EMPTY_LIST), EMPTY_LIST)
        if kind == EMPTY_LIST:
            return kind, lists
        kept = [items for items, items_kind in zip(lists, kinds) if items_kind in (kind, EMPTY_LIST)]
        if len(kept) != len(kinds):
            run.warnings.append('type mismatch at %r: lists of maps and lists of scalars do not merge; the most '
                                'specific kind was kept' % (shown_path(path),))
        return kind, kept
