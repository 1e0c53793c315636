# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Which strategy applies at a key path: lookup_options and default_lookup_options.

Resolution order (SPEC): an exact key path, then ``^`` regex keys in the order
they were declared, then the default.  Paths use ``/``; Datum's ``\\`` is
accepted in exact keys, and a regex is tried against both spellings of the
path so Datum's ``^Security\\\\.*`` keeps working.

A path is tried only against the regex rules whose literal start (``^app/`` of ``^app/.*``) it begins with,
and the rules without one, found by an index of those starts (``_PrefixIndex``): n paths against n/10 rules cost
about n, not n * n/10, and the first rule in declaration order that matches still wins.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeError, StrategyError
from ansible_collections.strata.hier.plugins.module_utils.core.kinds import FAST_PATHS
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.base import INHERITED, WHOLE
from ansible_collections.strata.hier.plugins.module_utils.core.paths import fold_text, join_path, split_path
from ansible_collections.strata.hier.plugins.module_utils.core.records import Record
from ansible_collections.strata.hier.plugins.module_utils.core.strategy import MOST_SPECIFIC, MergeStrategy, parse_strategy

__all__ = ('MergeRules', 'Rule', 'DEFAULT_RULE', 'INHERITED', 'WHOLE', 'join_path', 'split_path')

DEFAULT_RULE = 'default_lookup_options'


class Rule(Record):
    """A strategy and where it is written: its lookup_options key (as written), DEFAULT_RULE, or the name of the
    option that gave it (a lookup's ``merge``)."""

    strategy: MergeStrategy
    name: str


def _at(keys: Tuple[Any, ...], function: Callable[..., Any], *args: Any) -> Any:
    """``function(*args)``; a MergeError it raises carries ``keys``, where the rule is written (for its line)."""
    try:
        return function(*args)
    except MergeError as exc:
        exc.keys = exc.keys or keys
        raise


class MergeRules:
    """The strategies a merge uses, by key path."""

    def __init__(self, default: Any = MOST_SPECIFIC, lookup_options: Optional[Mapping] = None,
                 case_insensitive_keys: bool = False) -> None:
        self.case_insensitive_keys = case_insensitive_keys
        self.default = Rule(_at((DEFAULT_RULE,), self._parse, default, DEFAULT_RULE), DEFAULT_RULE)
        self._exact: Dict[str, Rule] = {}
        self._regexes: List[Tuple[Any, Rule]] = []
        self._index: Optional[_PrefixIndex] = None
        self._cache: Dict[str, Optional[Rule]] = {}
        self._every_path: Optional[MergeRules] = None
        if lookup_options is None:
            lookup_options = {}
        if not isinstance(lookup_options, Mapping):
            error = StrategyError('lookup_options must be a map of key paths to strategies, not %s'
                                  % type(lookup_options).__name__)
            error.keys = ('lookup_options',)
            raise error
        for key, spec in lookup_options.items():
            _at(('lookup_options', key), self._add, str(key), spec)
        self.has_rules = bool(self._exact or self._regexes)

    def _parse(self, spec: Any, where: str) -> MergeStrategy:
        """A rule's strategy, its mergers comparing keys as this configuration does."""
        return parse_strategy(spec, where).with_key_case(self.case_insensitive_keys)

    def fold(self, key: Any) -> Any:
        """The form under which a key is compared."""
        return fold_text(key) if self.case_insensitive_keys else key

    def _add(self, key: str, spec: Any) -> None:
        where = 'lookup_options %r' % key
        rule = Rule(self._parse(spec, where), key)
        if key.startswith('^'):
            flags = re.IGNORECASE if self.case_insensitive_keys else 0
            try:
                self._regexes.append((re.compile(key, flags), rule))
            except re.error as exc:
                raise StrategyError('invalid regular expression in %s: %s' % (where, exc)) from exc
        else:
            self._exact[self.fold(join_path(split_path(key)))] = rule

    def explicit(self, path: Sequence[Any]) -> Optional[Rule]:
        """The rule written for this path, or None when only the default applies."""
        if not self.has_rules:
            return None
        text = join_path(path)
        if text in self._cache:
            return self._cache[text]
        rule = self._exact.get(self.fold(text))
        if rule is None and self._regexes:
            rule = self._first_regex(text)
        self._cache[text] = rule
        return rule

    def _first_regex(self, text: str) -> Optional[Rule]:
        """The first regex rule, in declaration order, that matches the path (either spelling), or None: only the
        rules the index names are tried (all of them with the fast paths off)."""
        backslashed = text.replace('/', '\\')
        if FAST_PATHS.on:
            if self._index is None:
                self._index = _PrefixIndex([regex for regex, _rule in self._regexes])
            positions: Sequence[int] = self._index.candidates(text, backslashed)
        else:
            positions = range(len(self._regexes))
        for position in positions:
            regex, rule = self._regexes[position]
            if regex.search(text) or regex.search(backslashed):
                return rule
        return None

    def all_rules(self) -> List[Rule]:
        """Every rule written in lookup_options."""
        return list(self._exact.values()) + [rule for _regex, rule in self._regexes]

    def with_rule(self, path: Sequence[Any], spec: Any, name: str) -> 'MergeRules':
        """A copy whose rule for ``path`` is ``spec`` (a lookup's ``merge`` option)."""
        clone = copy.copy(self)
        clone._exact = dict(self._exact)
        clone._exact[self.fold(join_path(path))] = Rule(self._parse(spec, name), name)
        clone._cache = {}
        clone.has_rules = True
        clone._every_path = None
        return clone

    def every_path(self) -> 'MergeRules':
        """The same rules, asked at every nested map and list (explain): ``has_rules`` turns off the fast paths
        that merge nested maps without asking, so every strategy a merge uses is chosen where explain sees it."""
        if self._every_path is None:
            clone = copy.copy(self)
            clone.has_rules = True
            self._every_path = clone
        return self._every_path

    def resolve(self, path: Sequence[Any]) -> Rule:
        """The rule for a path: its own, else the default."""
        return self.explicit(path) or self.default


_SPECIAL = frozenset('.^$*+?{}[]()|\\')
"""Characters of a regular expression that are not a literal of their own."""
_OPTIONAL = frozenset('*?{')
"""Quantifiers that let the item before them be absent."""


def literal_start(regex: Any) -> Tuple[str, bool]:
    """The text every match of a compiled ``^...`` regex starts the searched text with, and whether it compares
    case-insensitively: what follows ``^`` up to the first character that is not a literal ('' when unknown).

    Sound rather than complete: a pattern with ``|`` anywhere, a multiline or verbose one, gives ''.  A literal an
    optional quantifier follows (``ab*``) is not part of it; with case-insensitive matching, neither is anything from
    the first character outside ASCII (whose case Python's ``re`` folds in more ways than ``str.lower``).
    """
    pattern, flags = regex.pattern, regex.flags
    if not pattern.startswith('^') or '|' in pattern or flags & (re.MULTILINE | re.VERBOSE):
        return '', False
    folds = bool(flags & re.IGNORECASE)
    literal: List[str] = []
    position = 1
    while position < len(pattern):
        char = pattern[position]
        if char == '\\':
            char = pattern[position + 1:position + 2]
            if not char or char.isascii() and char.isalnum():     # \d, \w, \A, \1, \x41...: not a literal of its own
                break
            position += 1
        elif char in _SPECIAL:
            break
        if folds and not char.isascii():
            break
        if pattern[position + 1:position + 2] in _OPTIONAL:
            break
        literal.append(char)
        position += 1
    text = ''.join(literal)
    return (text.lower() if folds else text), folds


class _PrefixIndex:
    """Which regex rules (by position) a path may match: those whose literal start it begins with, and those
    without one, in declaration order."""

    def __init__(self, regexes: List[Any]) -> None:
        self._always: List[int] = []
        self._by_start: Dict[Tuple[int, bool], Dict[str, List[int]]] = {}     # (length, folds) -> start -> positions
        for position, regex in enumerate(regexes):
            start, folds = literal_start(regex)
            if start:
                self._by_start.setdefault((len(start), folds), {}).setdefault(start, []).append(position)
            else:
                self._always.append(position)

    def candidates(self, text: str, backslashed: str) -> List[int]:
        found = set(self._always)
        spellings = (text,) if backslashed == text else (text, backslashed)
        for (length, folds), starts in self._by_start.items():
            for spelled in spellings:
                start = spelled[:length]
                if folds and not start.isascii():   # compared as re would: any of them may match
                    found.update(position for positions in starts.values() for position in positions)
                    continue
                found.update(starts.get(start.lower() if folds else start, ()))
        return sorted(found)
