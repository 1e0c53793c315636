# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Base-type arrays (lists holding at least one item that is not a map): ``MostSpecific``, ``Unique``
(the union without duplicates), ``Sum`` (concatenated).

The most specific layer's items come first.  An item ``--item`` removes ``item`` from less specific
layers; a map item whose tuple-key value carries the prefix removes the map items with that tuple,
as in hash arrays.  Items compare case-sensitively (Datum's ``Select-Object -Unique``).

For ACM's sequences (sequence.py): the least specific layer's items first (``array_order: general_first``;
an item Unique matched stays where its most specific occurrence is).
"""

from __future__ import annotations

from itertools import chain
from operator import countOf
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.kinds import FAST_PATHS, MAP, SCALAR, family_of
from ansible_collections.strata.hier.plugins.module_utils.core.knockout import (
    ItemKnockouts, is_marker, knockout_text, knocks, unmark,
)
from ansible_collections.strata.hier.plugins.module_utils.core.limits import MAX_DEPTH, too_deep
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.maps import may_hold_markers
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.base import (
    DEFAULT_TUPLE_KEYS, GENERAL_FIRST, MOST_SPECIFIC, ORDERS, SPECIFIC_FIRST, WHOLE, Merger,
    canonical_name, general_first,
)

if TYPE_CHECKING:
    from ansible_collections.strata.hier.plugins.module_utils.core.merging import MergeRun
    from ansible_collections.strata.hier.plugins.module_utils.core.strategy import MergeStrategy

UNIQUE = 'Unique'
SUM = 'Sum'


class ScalarListMerger(Merger):
    """Lists of scalars (and of scalars mixed with other items)."""

    SETTING = 'merge_basetype_array'
    MODES = (MOST_SPECIFIC, UNIQUE, SUM)
    OPTIONS = {'order': 'array_order'}
    VALUES = 'base-type array'

    order: str = SPECIFIC_FIRST
    tuple_keys: Tuple[str, ...] = DEFAULT_TUPLE_KEYS
    """For the map items of a mixed list: which keys make a knockout."""
    case_insensitive: bool = False

    def _settle(self) -> None:
        self.settle('order', canonical_name(self.order, ORDERS, 'merge option array_order value'))

    def merge(self, run: MergeRun, path: Tuple[Any, ...], values: List[Any], strategy: MergeStrategy,
              depth: int) -> list:
        if depth > MAX_DEPTH:
            raise too_deep(path)
        merged = self._merge_plain(run, path, values[self.takes])
        if merged is not None:
            run.budget.spend(len(merged), path)
            return merged
        picker = _Picker(self, run)
        result: List[Any] = []
        starts: List[int] = []
        for items in values[self.takes]:
            starts.append(len(result))
            if run.fast and picker.takes_layer_fast(items, result):
                continue
            for position, item in enumerate(items):
                if picker.keeps(item, items, position):
                    if family_of(item) is not SCALAR:     # a list mixing scalars and containers
                        if run.trace is not None:       # explain
                            run.trace.chose(path, strategy.whole, WHOLE, path)
                        item = _merge_whole(run, path, item, strategy, depth, len(result))
                    result.append(item)
            picker.end_layer()
        run.budget.spend(len(result), path)
        if run.provenance is not None:
            picker.note(path, values[self.takes], starts if self.order == GENERAL_FIRST else None)
        if self.order == GENERAL_FIRST and len(starts) > 1:
            return general_first(result, starts)
        return result

    def _merge_plain(self, run: MergeRun, path: Tuple[Any, ...], lists: List[Any]) -> Optional[list]:
        """merge's fast path when every list holds only plain text and numbers, no knockout marker, and the most
        specific items come first: the items in C, Unique keeping the first of equal items as dict keys do (such items
        are their own identity, as ``freeze`` gives it; booleans, which differ from 1 and 0, are not plain); with
        provenance, each item noted as the general path notes it (Provenance.plain_items). None: the lists need the
        general path."""
        noted = run.provenance is not None and FAST_PATHS.on
        if not (run.fast or noted) or self.order != SPECIFIC_FIRST:
            return None
        only_text = plain_lists(lists)
        if only_text is None:
            return None
        if noted:       # every text looked at for markers first: their removals are noted on the general path
            if texts_may_hold_markers(list(chain.from_iterable(lists)), self.knockout_prefix, only_text):
                return None
            return run.provenance.plain_items(path, lists, self.mode == UNIQUE)
        if self.mode == UNIQUE:
            merged = list(dict.fromkeys(chain.from_iterable(lists)))
        else:
            merged = list(chain.from_iterable(lists))
        # the items kept hold every text of the lists (of equal items, Unique keeps one; text equals only text)
        return None if texts_may_hold_markers(merged, self.knockout_prefix, only_text) else merged


def plain_lists(lists: List[Any]) -> Optional[bool]:
    """Whether the lists hold only plain text and numbers (FAST_PATHS.plain_scalars, exact types: no boolean, tagged
    text or vault value, which must not be hashed before this answer): None if not, True if only text, False if a
    number too.  Text alone is told by counting its type (an identity test per item, cheaper than issuperset's set
    look-up); once a list held something else, the rest are checked by issuperset alone."""
    plain_scalars = FAST_PATHS.plain_scalars
    only_text = str in plain_scalars
    for items in lists:
        if only_text and countOf(map(type, items), str) == len(items):
            continue
        only_text = False
        if not plain_scalars.issuperset(map(type, items)):
            return None
    return only_text


def texts_may_hold_markers(items: List[Any], prefix: Optional[str], only_text: Optional[bool] = None) -> bool:
    """may_hold_markers of the plain text and numbers of a list: a number is no marker (knockout.is_marker).
    ``only_text``: whether the items are known to be text alone (True) or to hold a number (False, as plain_lists
    tells); not known, a number is found by the join it makes fail."""
    if prefix is None:
        return False
    if only_text is None:
        return may_hold_markers(items, prefix) and may_hold_markers(list(filter(_is_text, items)), prefix)
    return may_hold_markers(items if only_text else list(filter(_is_text, items)), prefix)


_is_text = str.__instancecheck__
"""isinstance(item, str), in C."""


def _merge_whole(run: MergeRun, path: Tuple[Any, ...], item: Any, strategy: MergeStrategy, depth: int,
                 index: int) -> Any:
    """A map or list item of a list mixing scalars and containers, taken whole; with provenance, what it holds
    is noted under its index (``index``: in the order the layers came, _Picker.note renumbers it)."""
    if run.provenance is None:
        return run.merge(path, [item], strategy.whole, depth + 1)
    run.provenance.enter_item(path, index)
    try:
        return run.merge(path, [item], strategy.whole, depth + 1)
    finally:
        run.provenance.leave_item()


class _Noted:
    """What a picker noted for provenance: the items kept (list, index, item), Unique's identities of them and the
    less specific copies it dropped, the markers by their text and the items they removed."""

    def __init__(self) -> None:
        self.kept: List[Tuple[Any, int, Any]] = []
        self.identities: List[Any] = []
        self.dropped: Dict[Any, List[Tuple[Any, int]]] = {}
        self.markers: Dict[Any, Tuple[Any, int]] = {}
        self.map_markers: List[Tuple[Any, int, Any]] = []      # tuple knockouts among the maps: (list, index, view)
        self.removed: List[Tuple[Any, int, Any, Optional[Tuple[Any, int]]]] = []


class _Picker:
    """Which items of the layers, most specific first, a merged list keeps: not markers, not knocked
    out by a more specific layer, and with Unique not seen before."""

    def __init__(self, merger: ScalarListMerger, run: MergeRun) -> None:
        self.merger = merger
        self.run = run
        self.prefix = merger.knockout_prefix
        self.seen: Optional[set] = set() if merger.mode == UNIQUE else None
        self.knocked: set = set()
        self.layer: List[Any] = []
        self.maps: Optional[ItemKnockouts] = None
        self.noted: Optional[_Noted] = None if run.provenance is None else _Noted()

    def takes_layer_fast(self, items: List[Any], result: List[Any]) -> bool:
        """The fast path: a layer of plain text and numbers, no knockout among them or pending, each kept
        unless Unique saw it (such items are their own identity and knockout text). False: not such a layer."""
        if self.knocked:
            return False
        only_text = plain_lists([items])
        if only_text is None or texts_may_hold_markers(items, self.prefix, only_text):
            return False
        seen = self.seen
        if seen is None:
            result.extend(items)
            return True
        for item in items:
            if item not in seen:
                seen.add(item)
                result.append(item)
        return True

    def keeps(self, item: Any, items: Optional[List[Any]] = None, position: int = 0) -> bool:
        """Whether the item (``items[position]``, for provenance) is kept."""
        noted = self.noted
        if is_marker(item, self.prefix):
            self.layer.append(unmark(item, self.prefix))
            if noted is not None:
                noted.markers.setdefault(knockout_text(unmark(item, self.prefix)), (items, position))
            return False
        family = family_of(item)
        if family is SCALAR:
            if self.knocked and knockout_text(item) in self.knocked:
                if noted is not None:
                    noted.removed.append((items, position, item, noted.markers.get(knockout_text(item))))
                return False
        elif family is MAP and self.prefix is not None and self._map_knocked(item, items, position):
            return False
        if self.seen is not None:
            identity = self.run.freeze(item)
            if identity in self.seen:
                if noted is not None:
                    noted.dropped.setdefault(identity, []).append((items, position))
                return False
            self.seen.add(identity)
            if noted is not None:
                noted.identities.append(identity)
        if noted is not None:
            noted.kept.append((items, position, item))
        return True

    def note(self, path: Tuple[Any, ...], lists: List[Any], starts: Optional[List[int]]) -> None:
        """Provenance: each item of the merged list with its place (in the merged order), what knockouts removed."""
        noted, provenance = self.noted, self.run.provenance
        kept = noted.kept
        if starts and len(starts) > 1:
            kept = general_first(kept, starts)
            provenance.renumber(path, general_first(list(range(len(kept))), starts))
        identities = noted.identities if self.seen is not None else None
        if identities is not None and starts and len(starts) > 1:
            identities = general_first(identities, starts)
        for index, (items, position, item) in enumerate(kept):
            dropped = [] if identities is None else noted.dropped.get(identities[index], [])
            provenance.item(path + (index,), provenance.place_of(items, position), item,
                            [provenance.place_of(other, where) for other, where in dropped])
        for items, position, item, marker in noted.removed:
            provenance.removed(path, provenance.place_of(items, position), item,
                               None if marker is None else provenance.place_of(*marker))

    def _map_knocked(self, item: Any, items: Optional[List[Any]], position: int) -> bool:
        """A map item is a tuple knockout (dropped) or knocked out by one (SPEC: no marker survives); with
        provenance, noted with the place of the marker that knocked it out."""
        if self.maps is None:
            self.maps = self.run.item_knockouts(self.merger)
        view = self.maps.view(item)
        if self.maps.is_marker(view):
            if self.noted is not None:
                self.noted.map_markers.append((items, position, view))
            return True
        if not self.maps.knocked_out(view):
            return False
        if self.noted is not None:
            freeze = self.run.tuple_freezer(self.merger.case_insensitive)
            marker = next(((marker_items, where) for marker_items, where, marker_view in self.noted.map_markers
                           if knocks(marker_view, view, self.maps.keys, self.prefix, freeze)), None)
            self.noted.removed.append((items, position, item, marker))
        return True

    def end_layer(self) -> None:
        self.knocked.update(self.layer)
        self.layer = []
        if self.maps is not None:
            self.maps.end_layer()
