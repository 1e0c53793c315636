# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Deckhand's substitution: a value copied from a source document's rendered data (``src.path``, narrowed by
``src.pattern``) into a document's data at each ``dest.path``, whole or in place of ``dest.pattern`` in the text
there (``recurse``: in every string below).  Values that are not text (an Ansible vault value, say) are moved
whole and never turned into text.  deckhand.py decides the order: a source is rendered before it is read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable, List

from ansible_collections.strata.hier.plugins.module_utils.dialects.deckhand.documents import (
    Destination, Document, InvalidDocumentFormat, MissingDocumentPattern, Path, PathConflict, Substitution,
    SubstitutionSourceDataNotFound, UnknownSubstitutionError, check_container, holds, lookup, store,
)
from ansible_collections.strata.hier.plugins.module_utils.core.kinds import MAP, SCALAR, family_of
from ansible_collections.strata.hier.plugins.module_utils.core.limits import ExpansionBudget, copy_value
from ansible_collections.strata.hier.plugins.module_utils.core.safe_regex import SafePattern


def source_value(doc: Document, substitution: Substitution, source: Document, data: Any,
                 warnings: List[str], secret: Callable[[Any], bool]) -> Any:
    """The value at src.path of the source's rendered data, narrowed by src.pattern."""
    found, value = lookup(data, substitution.path)
    if not found or value is None:
        raise SubstitutionSourceDataNotFound('%s: substitution %d: the source document %s has nothing at src.path %r'
                                             % (doc.describe(), substitution.number, source.describe(),
                                                substitution.path_text))
    if substitution.pattern is None:
        return value
    if not isinstance(value, str) or secret(value):
        raise UnknownSubstitutionError('%s: substitution %d: src.pattern needs text, but src.path %r of %s holds %s'
                                       % (doc.describe(), substitution.number, substitution.path_text,
                                          source.describe(), _what(value, secret)))
    match = substitution.pattern.search(value, 'src.path %r of %s' % (substitution.path_text, source.describe()))
    if match is None:
        warnings.append('%s: substitution %d: src.pattern %r does not match the value at src.path %r of %s; the '
                        'whole value is used, as in Deckhand'
                        % (doc.describe(), substitution.number, substitution.pattern.pattern, substitution.path_text,
                           source.describe()))
        return value
    try:
        return match.group(substitution.match_group)
    except IndexError as exc:
        raise InvalidDocumentFormat('%s: substitution %d: src.pattern %r has no group %d (src.match_group)'
                                    % (doc.describe(), substitution.number, substitution.pattern.pattern,
                                       substitution.match_group)) from exc


def _what(value: Any, secret: Callable[[Any], bool]) -> str:
    """What a value that cannot be put into text is, for messages (never the value itself)."""
    if secret(value):
        return ('an encrypted value (an Ansible vault value), never decrypted by substitution: substitute it whole, '
                'without a pattern')
    if isinstance(value, (Mapping, list, tuple, int, float)):
        return 'a %s, which is not text' % type(value).__name__
    return ('a %s, not text; an encrypted value (an Ansible vault value) is never decrypted by substitution: '
            'substitute it whole, without a pattern' % type(value).__name__)


def inject(doc: Document, substitution: Substitution, destination: Destination, data: Any, source: SourceText,
           warnings: List[str], budget: ExpansionBudget) -> Any:
    """The data with the value written at dest.path, or put in place of dest.pattern in the text there; what is
    written is charged to the rendering's budget (a chain of substitutions could double a text at each step)."""
    where = '%s: substitution %d: dest.path %r' % (doc.describe(), substitution.number, destination.text)
    if destination.pattern is None:
        value = copy_value(source.value)
        budget.charge(produced_size(value), where)
        return _store_substitution(where, data, destination.path, value, budget)
    found, current = lookup(data, destination.path)
    if not found:
        _check_writable(where, data, destination.path)     # a value in the way is that error, not a missing pattern
    if destination.depth is not None and isinstance(current, (dict, list)):
        replace_recursively(current, destination.pattern, lambda: source.text(where), destination.depth,
                            _Charged(budget, where))
        return data
    if not (found and isinstance(current, str)):
        raise MissingDocumentPattern('%s: dest.pattern %r replaces text, but the destination has %s there'
                                     % (where, destination.pattern.pattern,
                                        'a %s' % type(current).__name__ if found else 'nothing'))
    if not destination.pattern.search(current, where):
        warnings.append('%s: dest.pattern %r is not in the text there; nothing is replaced, as in Deckhand'
                        % (where, destination.pattern.pattern))
        return data
    replaced = _Charged(budget, where).replace(destination.pattern, current, source.text(where))
    return _store_substitution(where, data, destination.path, replaced, budget)


def produced_size(value: Any) -> int:
    """What a copied value costs the budget: characters of its text, one per other value, map key or list item."""
    size, pending = 0, [value]
    while pending:
        item = pending.pop()
        family = family_of(item)
        if family is SCALAR:
            size += len(item) if isinstance(item, str) else 1
            continue
        entries = list(item.items()) if family is MAP else [(None, entry) for entry in item]
        for key, entry in entries:
            size += len(key) if isinstance(key, str) else 1
            pending.append(entry)
    return size


class _Charged:
    """Replacements of a pattern, their size charged to the budget before the new text is built."""

    def __init__(self, budget: ExpansionBudget, where: str) -> None:
        self.budget = budget
        self.where = where

    def replace(self, pattern: SafePattern, current: str, text: str) -> str:
        matches = list(pattern.finditer(current, self.where))
        self.budget.charge(len(current) + sum(len(text) - len(match.group(0)) for match in matches), self.where)
        return pattern.sub(lambda _match: text, current, self.where)


def _check_writable(where: str, data: Any, path: Path) -> None:
    """Raise the error store() would raise for the path, without writing anything."""
    for part in path:
        try:
            check_container(data, part)
        except PathConflict as exc:
            raise UnknownSubstitutionError('%s: %s' % (where, exc)) from exc
        if not holds(data, part) or data[part] is None:
            return      # store() creates the rest
        data = data[part]


def _store_substitution(where: str, data: Any, path: Path, value: Any, budget: ExpansionBudget) -> Any:
    # a list shorter than an index of dest.path is padded up to it (as Deckhand does): at most the index's items
    budget.charge(sum(part for part in path if isinstance(part, int)), where)
    try:
        return store(data, path, value)
    except PathConflict as exc:
        raise UnknownSubstitutionError('%s: %s' % (where, exc)) from exc


class SourceText:
    """A substitution's source value, as text only when a pattern needs it (and never an encrypted one)."""

    def __init__(self, value: Any, secret: Callable[[Any], bool]) -> None:
        self.value = value
        self.secret = secret

    def text(self, where: str) -> str:
        if isinstance(self.value, str) and not self.secret(self.value):
            return self.value
        if isinstance(self.value, (bool, int, float)):
            return str(self.value)      # Deckhand's str(): True, 1.5
        raise UnknownSubstitutionError('%s: dest.pattern needs the source as text, but it is %s'
                                       % (where, _what(self.value, self.secret)))


def replace_recursively(container: Any, pattern: SafePattern, text: Callable[[], str], depth: int,
                        charged: _Charged, level: int = 0) -> None:
    """Replace the pattern in every string of the maps and lists under ``container``, down to ``depth`` levels
    (-1: all); strings without the pattern are left alone, as Deckhand's recurse does."""
    if level == depth:
        return
    items = container.items() if isinstance(container, dict) else enumerate(container)
    for key, item in list(items):
        if isinstance(item, str):
            if pattern.search(item, charged.where):
                container[key] = charged.replace(pattern, item, text())
        elif isinstance(item, (dict, list)):
            replace_recursively(item, pattern, text, depth, charged, level + 1)
