# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Hiera 5 interpolation: ``%{facts.x}``, ``%{::x}``, ``%{trusted.certname}``, ``%{lookup('k')}``,
``%{hiera('k')}``, ``%{alias('k')}``, ``%{literal('%')}``, ``%{scope('x')}``.

As Puppet's ``Lookup::Interpolation`` does it: every string of a value, map keys included, is
interpolated; a missing variable gives ``""``; a value that is not text is written as Ruby's ``to_s``
(``["a", "b"]``); the result of a variable or of ``lookup()`` is interpolated again (so a fact holding
``%{...}`` is expanded); ``alias()`` must be the whole string and keeps the value's type; functions are
refused where ``allow_methods`` is false (hiera.yaml paths).  Nothing is ever evaluated: the only
"functions" are these five names, each a data lookup.

The context (the engine) provides ``variable(name, subject)``, ``lookup_or(key, default)`` and ``guarded(name, action)``
(the cycle check: a name already being resolved is Hiera's ``Recursive lookup detected`` error), and ``budget``:
every substitution is charged its text (and one unit, so that even empty results are counted), so that data
repeating itself through interpolation (each key twice the one before) stops at the engine's ExpansionBudget.
Its ``texts()`` is where a text of variables alone is kept with its result (a fast path): the same scope gives the
same text, so a later use replays only the cycle checks and charges.
"""

from __future__ import annotations

import re
import sys
from inspect import currentframe
from typing import Any, Callable, Dict, List, Optional, Protocol, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.errors import ExpansionError, HieraError, MergeInputError
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.ruby import inspect, is_secret, to_s
from ansible_collections.strata.hier.plugins.module_utils.core.kinds import MAP, SCALAR, family_of
from ansible_collections.strata.hier.plugins.module_utils.core.limits import MAX_DEPTH, ExpansionBudget, too_deep

_EXPRESSION = re.compile(r'%\{([^}]*)\}')
_METHOD = re.compile(r'^(\w+)\((?:"([^"]+)"|\'([^\']+)\')\)$')
_EMPTY = ('', '::', '""', "''", '"::"', "'::'")
METHODS = ('lookup', 'hiera', 'alias', 'literal', 'scope')


class InterpolationContext(Protocol):
    budget: ExpansionBudget

    def variable(self, name: str, subject: str) -> Any:
        """The value of a variable (``facts.os.family``, ``::role``), None when unset."""

    def lookup_or(self, key: str, default: Any) -> Any:
        """The value of a full Hiera lookup of ``key`` with its own lookup_options, ``default`` when not found."""

    def guarded(self, name: str, action: Callable[[], Any]) -> Any:
        """Run ``action`` with ``name`` on the stack of names being resolved (cycle check)."""

    def texts(self) -> Optional[Dict[Tuple[str, bool], 'Kept']]:
        """Where texts of variables alone are kept with their results while the variables are the same; None:
        nothing is kept."""


Kept = Tuple[str, Tuple[Tuple[str, int], ...]]
"""A text's result and its substitutions as (name, units charged), replayed in order."""


def interpolate(value: Any, context: InterpolationContext, allow_methods: bool) -> Any:
    """``value`` with every ``%{...}`` resolved; containers are always new (the caller may change them)."""
    if isinstance(value, str):
        return value if '%{' not in value else _interpolate_text(value, context, allow_methods)
    if isinstance(value, list):
        return [interpolate(item, context, allow_methods) for item in value]
    if isinstance(value, dict):
        return {_map_key(interpolate(key, context, allow_methods)): interpolate(item, context, allow_methods)
                for key, item in value.items()}
    return value


def _map_key(key: Any) -> Any:
    # an alias() key that became a list or a map: Ruby keeps the object, its JSON shows the Ruby text
    if is_secret(key):      # hashing it as a key decrypts it, and every output would show the key in clear
        raise MergeInputError("a vault value cannot be a map key (%%{alias('...')} in a key); it would be decrypted")
    return inspect(key) if isinstance(key, (list, dict)) else key


class _Alias(Exception):
    """Carries an alias() value out of the substitution (the whole string becomes that value)."""

    def __init__(self, value: Any) -> None:
        super().__init__()
        self.value = value


def _interpolate_text(subject: str, context: InterpolationContext, allow_methods: bool) -> Any:
    texts = context.texts()
    if texts is not None:
        kept = texts.get((subject, allow_methods))
        if kept is not None:
            return _replayed(kept, context)
    charges: Optional[List[Tuple[str, int]]] = [] if texts is not None else None

    def substitute(match: 're.Match[str]') -> str:
        nonlocal charges
        expression = match.group(1).strip()
        if expression in _EMPTY:
            return ''
        method, argument = method_and_argument(expression, allow_methods)
        if method == 'alias':
            if match.group(0) != subject:
                raise HieraError("'alias' interpolation is only permitted if the expression is equal to the "
                                 "entire string (in %r)" % subject)
            raise _Alias(context.lookup_or(argument, ''))
        value = _call(method, argument, context, subject)
        name = 'scope:' + argument if method == 'scope' else argument
        text = to_s(context.guarded(name, lambda: interpolate(value, context, allow_methods)))
        if method != 'literal':     # literal text is written in the data, not produced
            context.budget.charge(1 + len(text), "Hiera interpolation of '%s'" % name)
        if charges is not None:
            charges = charges + [(name, 1 + len(text) if method != 'literal' else 0)] if _flat(method, value) else None
        return text

    try:
        result = _EXPRESSION.sub(substitute, subject)
    except _Alias as alias:
        return alias.value
    if texts is not None and charges is not None:
        texts[(subject, allow_methods)] = (result, tuple(charges))
    return result


def _flat(method: str, value: Any) -> bool:
    """Whether a substitution gives the same text in the same scope and is interpolated no further: a variable (or
    a literal) whose value holds no ``%{``; lookups read data files, which change."""
    return method in ('scope', 'literal') and (isinstance(value, (int, float, type(None))) or (
        isinstance(value, str) and '%{' not in value))


def _replayed(kept: Kept, context: InterpolationContext) -> str:
    """A kept text's result, its cycle checks, depth and charges made again (the same errors at the same point)."""
    for name, units in kept[1]:
        context.guarded(name, _nothing)
        if units:
            context.budget.charge(units, "Hiera interpolation of '%s'" % name)
    return kept[0]


def _nothing() -> None:
    return None


def method_and_argument(expression: str, allow_methods: bool):
    """``lookup('k')`` -> ('lookup', 'k'); a plain variable -> ('scope', expression)."""
    match = _METHOD.match(expression)
    if not match:
        return 'scope', expression
    if not allow_methods:
        raise HieraError('Interpolation using method syntax is not allowed in this context (%%{%s})' % expression)
    method = match.group(1)
    if method not in METHODS:
        raise HieraError("Unknown interpolation method '%s'" % method)
    return method, match.group(2) or match.group(3)


def _call(method: str, argument: str, context: InterpolationContext, subject: str) -> Any:
    if method == 'literal':
        return argument
    if method == 'scope':
        return context.variable(argument, subject)
    return context.lookup_or(argument, '')


STACK_RESERVE = 300
"""Python frames kept free below the recursion limit when an interpolation looks a key up: what one lookup may
still need (about 30 frames, plus its data's nesting walked by interpolation and merges)."""


def check_stack(where: str) -> None:
    """An ExpansionError naming ``where`` rather than a RecursionError later: a lookup within a lookup costs some
    30 Python frames, so a chain of them runs out of Python's stack before MAX_EXPANSION_DEPTH."""
    frame, depth = currentframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    if depth + STACK_RESERVE > sys.getrecursionlimit():
        raise ExpansionError('%s: interpolations nest deeper than Python can follow (%d frames of %d used; a chain '
                             'of lookups within lookups)' % (where, depth, sys.getrecursionlimit()))


def copied(value: Any, budget: ExpansionBudget, where: str, depth: int = 0) -> Any:
    """A remembered value for one more use, each map and list charged to ``budget`` as it is copied: a merge may
    change the value it is given (deep's knockouts), and two uses must not share a map or a list."""
    family = family_of(value)
    if family is SCALAR:
        return value
    if depth > MAX_DEPTH:
        raise too_deep()
    budget.charge(1 + len(value), where)
    if family is MAP:
        return {key: copied(item, budget, where, depth + 1) for key, item in value.items()}
    return [copied(item, budget, where, depth + 1) for item in value]
