# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Hierarchy levels: path templates such as ``AllNodes/%{Environment}/%{NodeName}``.

``%{Var}`` and ``%{Var.sub}`` take a node's variables; Datum's ``$($Node.Var)``
is read as ``%{Var}``.  No Jinja: a level is plain text with placeholders.
A level whose variable is undefined is skipped, with the reason.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any, Callable, Optional, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeError

_PLACEHOLDER = re.compile(r'%\{\s*([^{}\s]+)\s*\}')
_DATUM_PLACEHOLDER = r'\$\(\s*\$Node\.([A-Za-z_][\w.]*)\s*\)'    # compiled (by re.sub) in Datum stores only
_UNDEFINED = object()


class LevelError(MergeError):
    """A level template or the path it expands to is not acceptable."""


class Expansion:
    """A level expanded for one node: its key path, or (path None) the reason it was skipped; ``missing``: the
    undefined variables that skipped it (none when it was skipped for another reason, such as an empty list)."""

    __slots__ = ('level', 'path', 'reason', 'missing')

    def __init__(self, level: str, path: Optional[Tuple[str, ...]], reason: str = '',
                 missing: Tuple[str, ...] = ()) -> None:
        self.level, self.path, self.reason, self.missing = level, path, reason, missing


def from_datum(template: str) -> str:
    """Datum's ResolutionPrecedence entry -> a strata level (``$($Node.X)`` -> ``%{X}``, ``\\`` -> ``/``)."""
    return re.sub(_DATUM_PLACEHOLDER, lambda match: '%{' + match.group(1) + '}', template).replace('\\', '/')


def check_level(template: str) -> None:
    """Refuse what looks like a placeholder but is none (it would be read as literal text and never found)."""
    rest = _PLACEHOLDER.sub('', template)
    for marker in ('%{', '{{', '{%', '$(', '$Node'):
        if marker in rest:
            raise LevelError('level %r: %r does not start a placeholder strata.hier reads; write %%{Var} or '
                             '%%{Var.sub} (in a Datum.yml, $($Node.Var)); Jinja and PowerShell expressions are not '
                             'evaluated' % (template, marker))


def expand(template: str, variables: Mapping, fetch: Optional[Callable[[Mapping, str], Any]] = None,
           case_insensitive: bool = False) -> Expansion:
    """Fill a level's placeholders from a node's variables.

    ``fetch(variables, name)`` reads one top-level variable and raises KeyError when it is
    undefined (the lookup passes one that templates Ansible's host variables). With
    ``case_insensitive`` (Datum's ``$Node``), a name that is not found as written matches any case.
    """
    missing = []

    def substitute(match: 're.Match[str]') -> str:
        value = _resolve(variables, match.group(1), fetch, case_insensitive)
        if value is _UNDEFINED:
            missing.append(match.group(1))
            return ''
        if isinstance(value, (Mapping, list, tuple)) or value is None:
            raise LevelError('level %r: variable %r is a %s, not a name'
                             % (template, match.group(1), 'null' if value is None else type(value).__name__))
        return str(value)

    text = _PLACEHOLDER.sub(substitute, template)
    if missing:
        return Expansion(template, None, 'variable %s is undefined' % ', '.join(repr(name) for name in missing),
                         tuple(missing))
    return Expansion(template, split_level(text, template))


def _resolve(variables: Mapping, dotted: str, fetch: Optional[Callable[[Mapping, str], Any]],
             case_insensitive: bool = False) -> Any:
    name, _dot, rest = dotted.partition('.')
    name = _key(variables, name, case_insensitive)
    try:
        value = fetch(variables, name) if fetch else variables[name]
    except KeyError:
        return _UNDEFINED
    for part in rest.split('.') if rest else ():
        if not isinstance(value, Mapping):
            return _UNDEFINED
        part = _key(value, part, case_insensitive)
        if part not in value:
            return _UNDEFINED
        value = value[part]
    return value


def _key(mapping: Mapping, name: str, case_insensitive: bool) -> Any:
    """The key of ``mapping`` a name means: itself, or with ``case_insensitive`` a key that differs only in case."""
    if case_insensitive and name not in mapping:
        return next((key for key in mapping if isinstance(key, str) and key.lower() == name.lower()), name)
    return name


def split_level(text: str, template: str = '') -> Tuple[str, ...]:
    """A level's text -> its path segments, refusing anything that would leave the data folder."""
    shown = template or text
    if text.startswith(('/', '\\')) or re.match(r'^[A-Za-z]:[\\/]', text):
        raise LevelError('level %r expands to the absolute path %r; levels are relative to datadir' % (shown, text))
    segments = tuple(part for part in re.split(r'[\\/]', text))
    if len(segments) > 1:
        segments = tuple(part for part in segments if part != '.') or segments    # Datum's .\Common\Base
    for segment in segments:
        if segment in ('..', '.'):
            raise LevelError('level %r expands to %r, which would leave datadir' % (shown, text))
        if not segment:
            raise LevelError('level %r expands to %r, which has an empty path segment' % (shown, text))
    return segments


def real_path_inside(path: str, real_root: str) -> Optional[str]:
    """``path`` with every link resolved, or None when that leaves ``real_root`` (itself a real path): the one rule
    for every data file read (hier.yml stores and Hiera alike). A link may point anywhere inside the folder, as
    ``a/../b`` may; a link (or ``..``, or an absolute path) leading out of it would read any file of the controller."""
    real = os.path.realpath(path)
    return real if os.path.commonpath([real, real_root]) == real_root else None
