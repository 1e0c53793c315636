# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""What merging may cost: a nesting depth and a work budget proportional to the data as written.

YAML aliases let a few hundred bytes stand for billions of values (an "alias bomb": nine anchors, each a
list of nine aliases of the previous one).  Parsed, such a file is a small graph of shared Python objects;
merged or copied, each occurrence would be expanded.  Every merge and copy therefore counts the
values it builds, and stops with a MergeSizeError when that count passes both ``FLOOR`` and ``FACTOR``
times the written size of its input (each distinct map or list counted once, with its entries).  Data
without aliases never comes near the limit: a merge builds at most a few values per value it reads.
"""

from __future__ import annotations

from typing import Any, Iterable, Optional, Sequence

from ansible_collections.strata.hier.plugins.module_utils.core.errors import ExpansionError, MergeDepthError, MergeSizeError
from ansible_collections.strata.hier.plugins.module_utils.core.kinds import FAST_PATHS, MAP, SCALAR, family_of
from ansible_collections.strata.hier.plugins.module_utils.core.paths import join_path

MAX_DEPTH = 64
"""Deepest nesting merged or copied; deeper data (or data that refers to itself) is an error. Hiera's data files
may nest as deep (Puppet's own limit is its parser's)."""
TYPE_NESTING = 32
"""Deepest nesting of a Puppet type expression in ``convert_to`` (``Array[Hash[String, Optional[...]]]``)."""
FLOOR = 20000
"""Values any merge may build, whatever its input's size."""
FACTOR = 32
"""Values a merge may build per value of its input as written."""
EXPANSION_FLOOR = 1000000
"""Units (characters of text, values of data, glob patterns) any lookup or node may expand its data to."""
EXPANSION_FACTOR = 64
"""Units an expansion may produce per byte of data as written (read files add their size)."""
MAX_EXPANSION_DEPTH = 48
"""Deepest chain of expansions within expansions (a reference to a reference...), well below Python's
recursion limit: deeper is an ExpansionError, never a RecursionError."""


def too_deep(path: Sequence[Any] = ()) -> MergeDepthError:
    return MergeDepthError('data nests deeper than %d levels, or refers to itself' % MAX_DEPTH, join_path(path))


def written_size(inputs: Iterable[Any]) -> int:
    """Maps and lists with their entries, each distinct one counted once (an alias is not written twice)."""
    counter = _WrittenCounter(inputs)
    counter.count_until(None)
    return counter.counted


class _WrittenCounter:
    """Counts the written size of data a part at a time: a walk over distinct maps and lists that can
    stop once it has counted enough and go on later.  A map or list is counted before what it holds is looked at
    (``_unread``): a merge past FLOOR whose input's top lists or maps are long enough reads no item of them."""

    def __init__(self, inputs: Iterable[Any]) -> None:
        self._pending = [value for value in inputs if family_of(value) is not SCALAR]
        self._unread: list = []
        """The items of maps and lists counted, whose maps and lists are not yet pending."""
        self._seen: set = set()
        self.counted = 0

    @property
    def done(self) -> bool:
        return not self._pending and not self._unread

    def count_until(self, enough: Optional[int]) -> None:
        pending, unread, seen, scalar_types = self._pending, self._unread, self._seen, FAST_PATHS.scalar_types
        while enough is None or self.counted < enough:
            if not pending:
                if not unread:
                    return
                items = unread.pop()
                if not scalar_types.issuperset(map(type, items)):    # the fast path: scalars only, in C
                    pending.extend(item for item in items if family_of(item) is not SCALAR)
                continue
            value = pending.pop()
            if id(value) in seen:
                continue
            seen.add(id(value))
            items = value.values() if family_of(value) is MAP else value
            self.counted += 1 + len(items)
            unread.append(items)


class WorkBudget:
    """Counts the values a merge or a copy builds; too many for the input's written size is a MergeSizeError.

    The input's written size is measured only as far as the work needs it: a merge that builds N values
    past FLOOR walks about N / FACTOR of its input, once.
    """

    def __init__(self, inputs: Any) -> None:
        self._inputs = inputs
        self._written: Optional[_WrittenCounter] = None
        self.limit = FLOOR
        """What ``spent`` may reach before the input's written size is measured (further)."""
        self.spent = 0

    def spend(self, values: int, path: Sequence[Any] = ()) -> None:
        self.spent += values
        if self.spent > self.limit:
            self._over(path)

    def _over(self, path: Sequence[Any]) -> None:
        if self._written is None:
            self._written = _WrittenCounter(self._inputs)
        written = self._written
        written.count_until(2 * (self.spent - FLOOR) // FACTOR + 1)     # twice what is needed: walk in strides
        self.limit = FLOOR + FACTOR * written.counted
        if self.spent > self.limit:
            raise MergeSizeError('the data expands to more than %d values although only %d are written: YAML '
                                 'aliases (*name) repeat parts of it over and over; merging stops at %d times the '
                                 'written size' % (self.limit, written.counted, FACTOR), join_path(path))


def copy_value(value: Any, budget: Optional[WorkBudget] = None) -> Any:
    """A copy of data sharing no map or list with it (maps become dicts, lists lists).

    copy.deepcopy would recurse until Python's RecursionError, copy self-referencing data and expand
    every alias; this raises MergeDepthError past MAX_DEPTH and MergeSizeError past the work budget.
    """
    if family_of(value) is SCALAR:
        return value
    return _copy(value, WorkBudget([value]) if budget is None else budget, 0)


def _copy(value: Any, budget: WorkBudget, depth: int) -> Any:
    family = family_of(value)
    if family is SCALAR:
        return value
    if depth > MAX_DEPTH:
        raise too_deep()
    budget.spend(len(value))
    if family is MAP:
        return {key: _copy(item, budget, depth + 1) for key, item in value.items()}
    return [_copy(item, budget, depth + 1) for item in value]


class ExpansionBudget:
    """One work budget per lookup and per node, charged by every dialect's expansion of its data: Datum handlers
    and references, Hiera interpolation, Deckhand substitution, glob and brace patterns.

    An expansion may produce ``EXPANSION_FLOOR`` units plus ``EXPANSION_FACTOR`` per byte of the data read so far
    (``add_written``); a unit is a character of text, a value of data or a path pattern. Past that, and for chains
    deeper than ``MAX_EXPANSION_DEPTH`` (``enter``/``leave``), an ExpansionError names what was expanded and where.
    Where the source system computes a value once (a reference, an interpolated key), the dialect memoises it
    rather than charging it again.
    """

    __slots__ = ('written', 'spent', 'depth')

    def __init__(self, written: int = 0) -> None:
        self.written = written
        self.spent = 0
        self.depth = 0

    @property
    def allowance(self) -> int:
        return EXPANSION_FLOOR + EXPANSION_FACTOR * self.written

    def add_written(self, size: int) -> None:
        """Data of ``size`` bytes was read: what it may expand to grows with it."""
        self.written += size

    def charge(self, units: int, where: str) -> None:
        """``units`` more were produced by the expansion at ``where`` (``file:line: what``)."""
        self.spent += units
        if self.spent > self.allowance:
            raise ExpansionError('%s: expanding the data passes its work budget (%d units: %d plus %d per byte of the '
                                 '%d bytes read); references, interpolations, substitutions or patterns repeat it '
                                 'over and over' % (where, self.allowance, EXPANSION_FLOOR, EXPANSION_FACTOR,
                                                    self.written))

    def enter(self, where: str) -> None:
        """One expansion deeper (leave() when done); past MAX_EXPANSION_DEPTH an ExpansionError naming ``where``."""
        self.depth += 1
        if self.depth > MAX_EXPANSION_DEPTH:
            self.depth -= 1
            raise ExpansionError('%s: expansions nest more than %d deep (a chain of references or interpolations)'
                                 % (where, MAX_EXPANSION_DEPTH))

    def leave(self) -> None:
        self.depth -= 1
