# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Keys as Hiera 5 reads them: ``ntp.servers.0``, ``'quoted.segment'``, ``profile::ntp::servers``.

A key is split on dots outside quotes (Puppet's ``SubLookup#split_key``): whitespace around a segment is
dropped, a quoted segment is text that may hold dots, a segment of digits is an integer (a list index, or an
integer map key).  The first segment is the root key looked up in the data; the others dig into the merged
value.  ``::`` is no separator: ``profile::ntp::servers`` is one plain key.
"""

from __future__ import annotations

import re
from typing import Any, List, Union

from ansible_collections.strata.hier.plugins.module_utils.core.errors import HieraError, HieraNotFound

Segment = Union[str, int]
LOOKUP_OPTIONS = 'lookup_options'
_SPECIAL = re.compile(r'[\'".]')
_PARTS = re.compile(r'(\s*"[^"]+"\s*|\s*\'[^\']+\'\s*|[^\'".]+)')
_INTEGER = re.compile(r'^(:?[+-]?[0-9]+)$')


def split_key(key: str, context: str = 'key') -> List[Segment]:
    """The segments of ``key``; a HieraError ``Syntax error in <context>: '<key>'`` when it is malformed."""
    if not _SPECIAL.search(key):
        return [key]
    parts = _PARTS.split(key)
    while parts and parts[-1] == '':
        parts.pop()     # Ruby's split drops trailing empty strings
    if not parts or parts.pop(0) != '' or not parts:
        raise _syntax_error(key, context)
    count = len(parts)
    parts = [part for part in parts if part != '.']
    if len(parts) * 2 != count + 1:
        raise _syntax_error(key, context)
    return [_segment(part.strip()) for part in parts]


def _segment(text: str) -> Segment:
    if text.startswith(('"', "'")):
        return text[1:-1]
    if _INTEGER.match(text):
        return int(text.lstrip(':') or '0')
    return text


def _syntax_error(key: str, context: str) -> HieraError:
    return HieraError("Syntax error in %s: '%s'" % (context, key))


def is_lookup_options(key: str) -> bool:
    """``lookup_options`` is Hiera's own key: looking it up (or into it) finds nothing."""
    return key == LOOKUP_OPTIONS or key.startswith(LOOKUP_OPTIONS + '.')


def dig(value: Any, segments: List[Segment], key: str) -> Any:
    """Puppet's ``sub_lookup``: follow ``segments`` into ``value``; HieraNotFound when a step is missing."""
    for segment in segments:
        if value is None:
            raise HieraNotFound(segment)
        if isinstance(segment, int) and isinstance(value, list):
            if not 0 <= segment < len(value):
                raise HieraNotFound(segment)
        elif not isinstance(value, dict):
            raise HieraError("Data Provider type mismatch: Got %s when a hash-like object was expected to access "
                             "value using '%s' from key '%s'" % (_class_name(value), segment, key))
        elif not has_key(value, segment):
            raise HieraNotFound(segment)
        value = value[segment]
    return value


def has_key(mapping: dict, segment: Any) -> bool:
    """Ruby's ``Hash#include?``: Python folds True, 1 and 1.0 into one key, Ruby does not, so an integer
    segment finds only an integer key."""
    if isinstance(segment, int):
        return any(isinstance(key, int) and not isinstance(key, bool) and key == segment for key in mapping)
    return segment in mapping


def _class_name(value: Any) -> str:
    if isinstance(value, bool):
        return 'TrueClass' if value else 'FalseClass'
    return {str: 'String', list: 'Array', int: 'Integer', float: 'Float'}.get(type(value), type(value).__name__)
