# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Scalars (Datum's BaseType): the most specific value wins (Datum).

For the dialects: ``LeastSpecific`` (cloud-init's no_replace: the existing value wins) for strings
and other scalars apart, and ``Join`` for strings (Heat's and cloud-init's string append), with
an order and a separator.  ``Join`` applies when every value is a string; otherwise the mode for
other scalars decides.
"""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

from ansible_collections.strata.hier.plugins.module_utils.errors import StrategyError
from ansible_collections.strata.hier.plugins.module_utils.mergers.base import (
    LEAST_SPECIFIC, MOST_SPECIFIC, ORDERS, SPECIFIC_FIRST, canonical_name,
)
from ansible_collections.strata.hier.plugins.module_utils.records import Record, derived

JOIN = 'Join'
STRING_MODES = (MOST_SPECIFIC, LEAST_SPECIFIC, JOIN)
SCALAR_MODES = (MOST_SPECIFIC, LEAST_SPECIFIC)


class ScalarMerger(Record):
    """Strings by ``strings``, other scalars (numbers, booleans, a null counted as a value, strings mixed
    with other scalars) by ``others``."""

    strings: str = MOST_SPECIFIC
    others: str = MOST_SPECIFIC
    order: str = SPECIFIC_FIRST
    """Join puts the most specific string first, or the least specific one."""
    separator: str = ''
    """What Join puts between the strings."""
    trivial: bool = derived()
    """The most specific value always wins (Datum; the merge's hot path)."""

    def __post_init__(self) -> None:
        self.settle('strings', canonical_name(self.strings, STRING_MODES, 'merge_string'))
        self.settle('others', canonical_name(self.others, SCALAR_MODES, 'merge_scalar'))
        self.settle('order', canonical_name(self.order, ORDERS, 'merge option string_order value'))
        if not isinstance(self.separator, str):
            raise StrategyError('string_separator must be a string, not %r' % (self.separator,))
        self.settle('trivial', self.takes_most_specific())

    def takes_most_specific(self) -> bool:
        """Whether the most specific value always wins (what ``trivial`` settles for the hot path)."""
        return self.strings == MOST_SPECIFIC == self.others

    def merge(self, values: List[Any]) -> Any:
        """Scalars of several layers, most specific first."""
        if len(values) == 1 or self.trivial:
            return values[0]
        if all(isinstance(value, str) for value in values):
            if self.strings == JOIN:
                return join(values if self.order == SPECIFIC_FIRST else values[::-1], self.separator)
            mode = self.strings
        else:
            mode = self.others
        return values[-1] if mode == LEAST_SPECIFIC else values[0]

    def sources(self, indexes: List[int], value: Any = None) -> List[int]:
        mode = self.strings if isinstance(value, str) else self.others
        if mode == MOST_SPECIFIC:
            return indexes[:1]
        if mode == LEAST_SPECIFIC:
            return indexes[-1:]
        return list(indexes)

    def describe(self) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        described, options = {}, {}
        for name, setting, default in (('strings', 'merge_string', MOST_SPECIFIC),
                                       ('others', 'merge_scalar', MOST_SPECIFIC)):
            if getattr(self, name) != default:
                described[setting] = getattr(self, name)
        for name, option, default in (('order', 'string_order', SPECIFIC_FIRST), ('separator', 'string_separator', '')):
            if getattr(self, name) != default:
                options[option] = getattr(self, name)
        return described, options


def join(parts: List[str], separator: str) -> str:
    """Join strings; the result keeps the class of a part whose class is a subclass of str
    (such as a marker of untrusted text), so joining never launders a part."""
    joined = separator.join(parts)
    for part in parts:
        cls = type(part)
        if cls is not str:
            try:
                return cls(joined)
            except Exception:   # pylint: disable=broad-except
                return joined
    return joined
