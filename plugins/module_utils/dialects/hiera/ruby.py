# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Ruby semantics Hiera's answers depend on, for Python values.

Hiera 5 is Ruby: ``unique`` and ``deep`` deduplicate with ``eql?`` (``1``, ``1.0``, ``True`` and ``"1"`` all
differ, where Python's ``==`` and ``set`` would fold them), ``sort_merged_arrays`` sorts with ``<=>``
(strings by bytes, numbers together, anything else an error), and interpolating a list or a map writes
Ruby's ``inspect`` text (``["a", "b"]``, ``{"k"=>"v"}``).  Puppet's type names appear in merge errors.
"""

from __future__ import annotations

import functools
import math
from typing import Any, Callable, Hashable, List, Optional

from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeInputError
from ansible_collections.strata.hier.plugins.module_utils.core.identity import is_opaque, opaque_identity
from ansible_collections.strata.hier.plugins.module_utils.core.limits import MAX_DEPTH


SENSITIVE_TEXT = 'Sensitive [value redacted]'
"""How Puppet shows a Sensitive value (``convert_to: Sensitive``), and how explain and interpolation show one here."""


class Sensitive:
    """A value of a ``Sensitive`` convert_to while the Hiera engine works (the lookup answers the value inside):
    interpolated into text or explained, it is Puppet's ``Sensitive [value redacted]``."""

    __slots__ = ('value',)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __repr__(self) -> str:
        return SENSITIVE_TEXT


def ruby_regex_text(text: str) -> str:
    """A Ruby regular expression as Python's re reads it (``\\z``, ``\\h``); Ruby's ``^`` and ``$`` match at every
    line, so callers compile it with re.MULTILINE."""
    return text.replace('\\z', '\\Z').replace('\\h', '[0-9a-fA-F]')


def is_secret(value: Any) -> bool:
    """An encrypted value (an Ansible vault value, an eyaml value: the opaque types): text to Hiera's merges,
    never turned into text here (that would decrypt it)."""
    return is_opaque(value)


def eql_key(value: Any) -> Hashable:
    """A hashable stand-in that is equal for two values exactly when Ruby's ``eql?`` says they are."""
    if value.__class__ is str:      # the most common item, first: its text (no other stand-in is text)
        return value
    if value is None:
        return ('nil',)
    if isinstance(value, bool):
        return ('bool', value)
    if isinstance(value, int):
        return ('int', value)
    if isinstance(value, float):
        return ('float', value)
    if isinstance(value, str):
        return value        # a tagged string: equal to the same text, as Ruby's eql? has it
    if isinstance(value, list):
        return ('list', tuple(eql_key(item) for item in value))
    if isinstance(value, dict):
        return ('hash', frozenset((eql_key(key), eql_key(item)) for key, item in value.items()))
    return opaque_identity(value) or ('object', id(value))    # an encrypted value: by its ciphertext


def union(first: List[Any], second: List[Any]) -> List[Any]:
    """Ruby's ``first | second``: first occurrences in order, duplicates (``eql?``) dropped from both."""
    seen = set()
    result = []
    for item in first + second:
        key = eql_key(item)
        if key not in seen:
            seen.add(key)
            result.append(item)
    return result


def flatten(items: List[Any]) -> List[Any]:
    """Ruby's ``Array#flatten``: nested lists at any depth, in order."""
    result: List[Any] = []
    for item in items:
        if isinstance(item, list):
            result.extend(flatten(item))
        else:
            result.append(item)
    return result


def _ruby_class(value: Any) -> str:
    if value is None:
        return 'NilClass'
    if value is True:
        return 'TrueClass'
    if value is False:
        return 'FalseClass'
    return {int: 'Integer', float: 'Float', str: 'String', list: 'Array', dict: 'Hash'}.get(type(value), 'Object')


def _shown_in_comparison(value: Any) -> str:
    """Ruby names immediates by their text (``nil``, ``1``) and other objects by class in a comparison error."""
    if value is None or isinstance(value, (bool, int, float)):
        return inspect(value)
    return _ruby_class(value)


def _compare(left: Any, right: Any) -> int:
    """Ruby's ``<=>`` as ``sort!`` uses it; values it cannot compare raise Ruby's error text."""
    numbers = (int, float)
    if isinstance(left, numbers) and isinstance(right, numbers) and not isinstance(left, bool) \
            and not isinstance(right, bool):
        return (left > right) - (left < right)
    if isinstance(left, str) and isinstance(right, str):
        left_bytes, right_bytes = left.encode('utf-8'), right.encode('utf-8')
        return (left_bytes > right_bytes) - (left_bytes < right_bytes)
    if isinstance(left, list) and isinstance(right, list):
        for left_item, right_item in zip(left, right):
            try:
                order = _compare(left_item, right_item)
            except MergeInputError:
                break
            if order:
                return order
        else:
            return (len(left) > len(right)) - (len(left) < len(right))
    raise MergeInputError('comparison of %s with %s failed' % (_ruby_class(left), _shown_in_comparison(right)))


def ruby_sort(items: List[Any], key: Optional[Callable[[Any], Any]] = None) -> List[Any]:
    """``sort!``: a sorted copy, or a MergeInputError naming the two values that do not compare; ``key``: what of an
    item is compared (provenance sorts values with their marks)."""
    if len(items) < 2:
        return list(items)
    if key is None:
        return sorted(items, key=functools.cmp_to_key(_compare))
    return sorted(items, key=functools.cmp_to_key(lambda left, right: _compare(key(left), key(right))))


def _float_text(value: float) -> str:
    if math.isnan(value):
        return 'NaN'
    if math.isinf(value):
        return 'Infinity' if value > 0 else '-Infinity'
    if value == int(value) and abs(value) < 1e16:
        return '%.1f' % value
    text = repr(value)
    if 'e' in text:
        mantissa, exponent = text.split('e')
        if '.' not in mantissa:
            mantissa += '.0'
        sign = '-' if exponent.startswith('-') else '+'
        return '%se%s%02d' % (mantissa, sign, int(exponent.lstrip('+-')))
    return text


_ESCAPES = {'"': '\\"', '\\': '\\\\', '\n': '\\n', '\t': '\\t', '\r': '\\r'}


def inspect(value: Any) -> str:
    """Ruby's ``inspect`` (Ruby 3.1's ``{"k"=>"v"}`` for maps)."""
    if value is None:
        return 'nil'
    if isinstance(value, bool):
        return 'true' if value else 'false'
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _float_text(value)
    if isinstance(value, str):
        return '"%s"' % ''.join(_ESCAPES.get(char, char) for char in value)
    if isinstance(value, list):
        return '[%s]' % ', '.join(inspect(item) for item in value)
    if isinstance(value, dict):
        return '{%s}' % ', '.join('%s=>%s' % (inspect(key), inspect(item)) for key, item in value.items())
    if is_secret(value):
        return '<vault value>'
    if isinstance(value, Sensitive):
        return SENSITIVE_TEXT
    return '<%s>' % type(value).__name__


def to_s(value: Any) -> str:
    """Ruby's ``to_s`` as interpolation uses it: text as is, null as ``""``, anything else inspected."""
    if value is None:
        return ''
    if isinstance(value, str):
        return value
    if isinstance(value, Sensitive):
        return SENSITIVE_TEXT
    if is_secret(value) or (isinstance(value, (list, dict)) and not is_data(value)):
        raise MergeInputError('a vault value cannot be interpolated into a string (it would be decrypted); '
                              "use %{alias('key')} for the whole value")
    return inspect(value)


def truthy(value: Any) -> bool:
    """Ruby truth: only nil and false are false (``0``, ``""`` and ``[]`` are true)."""
    return value is not None and value is not False


def puppet_type(value: Any) -> str:
    """The Puppet type name a type mismatch reports for a value (``String``, ``Tuple``, ``Struct``...)."""
    if value is None:
        return 'Undef'
    if isinstance(value, bool):
        return 'Boolean'
    if isinstance(value, list):
        return 'Tuple' if value else 'Array'
    if isinstance(value, dict):
        if value and all(isinstance(key, str) for key in value):
            return 'Struct'
        return 'Hash'
    if is_secret(value):
        return 'String'
    return {int: 'Integer', float: 'Float', str: 'String'}.get(type(value), 'Runtime')


_DATA_SCALARS = frozenset((str, int, float, bool, type(None)))
"""The exact types that are Data without a look inside (is_data's common items)."""


def is_data(value: Any, depth: int = 0) -> bool:
    """Puppet's ``Data``: scalars, null, lists of Data and maps with text keys of Data."""
    if depth > MAX_DEPTH:
        return False
    if isinstance(value, list):
        return all(item.__class__ in _DATA_SCALARS or is_data(item, depth + 1) for item in value)
    if isinstance(value, dict):
        return all(isinstance(key, str) and is_data(item, depth + 1) for key, item in value.items())
    return value is None or isinstance(value, (str, int, float, bool)) or is_secret(value)
