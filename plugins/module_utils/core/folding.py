# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Folds: merging documents one at a time into the result so far, as cloud-init and Heat do.

A fold that copied the result so far for each document would cost the square of the input's size (each
document re-merging every item accumulated before it).  A fold here owns its result instead: every value
taken from an input is copied once, when it enters the result (``own``), and the fold then changes the
result in place.  Lists are ``Items`` (appending and prepending cost what is added) and strings being
appended to are ``Text`` (their parts, joined once); ``finish`` turns the result back into plain maps,
lists and strings.  Inputs are never changed and the result shares no container with them.

Copies spend the fold's work budget (limits.py), so YAML aliases cannot make a fold cost more than the
written size of its input allows; the copies expand aliases, so no two places of the result share a
container that the fold would change in place.
"""

from __future__ import annotations

from typing import Any, Iterable, List, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.kinds import MAP, SCALAR, family_of
from ansible_collections.strata.hier.plugins.module_utils.core.limits import MAX_DEPTH, WorkBudget, too_deep


class Items:
    """A list the fold owns: prepended items (``head``, last prepended first) then the others (``tail``)."""

    __slots__ = ('head', 'tail')

    def __init__(self, tail: List[Any]) -> None:
        self.head: List[Any] = []
        self.tail = tail

    def __len__(self) -> int:
        return len(self.head) + len(self.tail)

    def _place(self, index: int) -> Tuple[List[Any], int]:
        if index < len(self.head):
            return self.head, len(self.head) - 1 - index
        return self.tail, index - len(self.head)

    def __getitem__(self, index: int) -> Any:
        items, at = self._place(index)
        return items[at]

    def __setitem__(self, index: int, value: Any) -> None:
        items, at = self._place(index)
        items[at] = value

    def append_all(self, values: Iterable[Any]) -> None:
        self.tail.extend(values)

    def prepend_all(self, values: List[Any]) -> None:
        self.head.extend(reversed(values))


class Text:
    """A string the fold owns and appends to: its parts, joined once by ``finish``."""

    __slots__ = ('parts',)

    def __init__(self, first: str) -> None:
        self.parts = [first]


def is_text(value: Any) -> bool:
    """A string of the input or of the result (Text)."""
    return isinstance(value, (str, Text))


def appended(old: Any, new: str) -> Text:
    """``old + new`` for an owned string (str or Text): Text, so that appending costs what is added."""
    text = old if isinstance(old, Text) else Text(old)
    text.parts.append(new)
    return text


def own(value: Any, budget: WorkBudget, path: Tuple[Any, ...] = (), depth: int = 0) -> Any:
    """A copy of an input value for the fold to keep: maps become dicts, lists Items, scalars stay."""
    family = family_of(value)
    if family is SCALAR:
        return value
    if depth > MAX_DEPTH:
        raise too_deep(path)
    budget.spend(len(value), path)
    if family is MAP:
        return {key: own(item, budget, path + (key,), depth + 1) for key, item in value.items()}
    return Items([own(item, budget, path, depth + 1) for item in value])


def finish(value: Any) -> Any:
    """The fold's result as plain data: Items as lists, Text as strings (a str subclass among the parts,
    such as an untrusted-text marker, is kept: see joined)."""
    if isinstance(value, dict):
        return {key: finish(item) for key, item in value.items()}
    if isinstance(value, Items):
        return [finish(item) for item in reversed(value.head)] + [finish(item) for item in value.tail]
    if isinstance(value, Text):
        return joined(value.parts)
    return value


def joined(parts: List[str]) -> str:
    """Strings concatenated; the result keeps the class of a part whose class is a subclass of str
    (such as a marker of untrusted text), so joining never launders a part."""
    text = ''.join(parts)
    for part in parts:
        cls = type(part)
        if cls is not str:
            try:
                return cls(text)
            except Exception:   # pylint: disable=broad-except
                return text
    return text
