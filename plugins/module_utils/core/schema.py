# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""A subset of JSON Schema (2020-12 meaning) checked on merged data, standard library only.

Keywords: ``type`` (a name or a list of ``string``, ``integer``, ``number``, ``boolean``, ``array``, ``object``,
``null``), ``enum``, ``const``, ``minimum``, ``maximum``, ``exclusiveMinimum``, ``exclusiveMaximum``, ``minLength``,
``maxLength``, ``pattern``, ``items`` (one schema for every item), ``minItems``, ``maxItems``, ``properties``,
``required``, ``additionalProperties`` (a boolean or a schema), ``propertyNames`` (a schema every key is checked
against, as the key is: YAML's map keys need not be strings), ``minProperties`` and ``maxProperties``.  Any other
keyword is an error: a keyword the checker would ignore is a rule that silently never holds.

JSON's meaning of the data: ``true``/``false`` are booleans, never integers or numbers; an integer is a number; a
float of integral value (``3.0``) is an integer.  YAML's dates and times are neither strings nor numbers.

Secret values: an opaque value (a vault value, ``identity.opaque_identity``) counts as a string for ``type``, but
the keywords that look at a string's content (``enum``, ``const``, ``pattern``, ``minLength``, ``maxLength``) are
not checked on it, as that would need the secret; it is never compared, shown or decrypted.

``pattern`` is searched (not matched at the start, as JSON Schema says) with Python's ``re`` syntax, compiled once
with ``safe_regex.compile_untrusted``: the pattern must match in linear time, and a text too long for it is an error
of that value.  Cost: each value node is visited at most once per schema node that applies to it (``enum`` and
``const`` read the value they compare once); nesting deeper than ``limits.MAX_DEPTH`` is an error.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Mapping
from typing import Any, Callable, Dict, List, Optional, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeError
from ansible_collections.strata.hier.plugins.module_utils.core.identity import opaque_identity, shown
from ansible_collections.strata.hier.plugins.module_utils.core.limits import MAX_DEPTH, too_deep
from ansible_collections.strata.hier.plugins.module_utils.core.safe_regex import SafePattern, compile_untrusted


class SchemaError(MergeError):
    """A schema that is not one of the supported subset: the message names where it is written, the keyword and
    its path inside the schema."""


TYPES = ('string', 'integer', 'number', 'boolean', 'array', 'object', 'null')
_EXPECTED = {'string': 'a string', 'integer': 'an integer', 'number': 'a number', 'boolean': 'a boolean',
             'array': 'a list', 'object': 'a map', 'null': 'null'}
_SHOWN_LENGTH = 80
"""Longest text of a value in a message."""
Path = Tuple[Any, ...]
Problems = List[Tuple[Path, str]]


def describe(value: Any) -> str:
    """What kind of value this is, as a message says it ('a string', 'a date', 'a vault value')."""
    if opaque_identity(value) is not None:
        return 'a vault value'
    if value is None:
        return 'null'
    for kind, phrase in ((bool, 'a boolean'), (int, 'an integer'), (float, 'a number'), (str, 'a string'),
                         (Mapping, 'a map'), ((list, tuple), 'a list'), (datetime.datetime, 'a date and time'),
                         (datetime.date, 'a date'), (datetime.time, 'a time'), ((bytes, bytearray), 'binary data')):
        if isinstance(value, kind):
            return phrase
    return 'a value of type %s' % type(value).__name__


def brief(value: Any) -> str:
    """A value as a message shows it, cut short: scalars through identity.shown (a vault value as its type only),
    also inside lists and maps."""
    parts: List[str] = []
    _show(value, parts, 0)
    text = ''.join(parts)
    return text if len(text) <= _SHOWN_LENGTH else text[:_SHOWN_LENGTH - 3] + '...'


def _show(value: Any, parts: List[str], depth: int) -> bool:
    """Appends the text of a value to ``parts``; False once there is enough text to cut it short."""
    if len(parts) > _SHOWN_LENGTH or depth > MAX_DEPTH:      # each part is at least one character
        parts.append('...')
        return False
    container = isinstance(value, (Mapping, list, tuple)) and opaque_identity(value) is None
    if not container:
        parts.append(shown(value))
        return sum(map(len, parts)) <= _SHOWN_LENGTH
    mapping = isinstance(value, Mapping)
    parts.append('{' if mapping else '[')
    for index, (key, item) in enumerate(value.items() if mapping else ((None, item) for item in value)):
        if index:
            parts.append(', ')
        if mapping:
            if not _show(key, parts, depth + 1):
                return False
            parts.append(': ')
        if not _show(item, parts, depth + 1):
            return False
    parts.append('}' if mapping else ']')
    return True


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def types_of(value: Any) -> Tuple[str, ...]:
    """The JSON Schema type names a value has (an integer is also a number; a vault value is a string)."""
    if opaque_identity(value) is not None or isinstance(value, str):
        return ('string',)
    if isinstance(value, bool):
        return ('boolean',)
    if isinstance(value, int) or (isinstance(value, float) and math.isfinite(value) and value.is_integer()):
        return ('integer', 'number')
    if isinstance(value, float):
        return ('number',)
    if value is None:
        return ('null',)
    if isinstance(value, Mapping):
        return ('object',)
    if isinstance(value, (list, tuple)):
        return ('array',)
    return ()


def _canonical(value: Any, depth: int = 0) -> Any:
    """A hashable stand-in with JSON's equality: 1 == 1.0, true is not 1, a vault value equals nothing written."""
    if depth > MAX_DEPTH:
        raise too_deep()
    opaque = opaque_identity(value)
    if opaque is not None:
        return ('opaque', opaque)
    if isinstance(value, bool):
        return ('boolean', value)
    if _is_number(value):
        return ('number', value)
    if isinstance(value, str):
        return ('string', str(value))
    if isinstance(value, Mapping):
        return ('object', frozenset((_canonical(key, depth + 1), _canonical(item, depth + 1))
                                    for key, item in value.items()))
    if isinstance(value, (list, tuple)):
        return ('array', tuple(_canonical(item, depth + 1) for item in value))
    try:
        hash(value)
    except TypeError:
        return ('other', type(value).__name__, id(value))
    return ('other', type(value).__name__, value)


class _Node:
    """One schema (a map of keywords), checked and settled once."""

    __slots__ = ('types', 'enum', 'enum_text', 'const', 'const_text', 'bounds', 'min_length', 'max_length',
                 'pattern', 'items', 'properties', 'required', 'additional', 'names', 'sizes')

    def __init__(self) -> None:
        self.types: Optional[Tuple[str, ...]] = None
        self.enum: Optional[frozenset] = None
        self.enum_text = ''
        self.const: Any = None
        self.const_text = ''
        self.bounds: List[Tuple[str, Any]] = []
        self.min_length: Optional[int] = None
        self.max_length: Optional[int] = None
        self.pattern: Optional[SafePattern] = None
        self.items: Optional['_Node'] = None
        self.properties: Optional[Dict[str, '_Node']] = None
        self.required: Tuple[str, ...] = ()
        self.additional: Any = None
        """None (any key), False (no other key) or a _Node (every other key's value)."""
        self.names: Optional['_Node'] = None
        self.sizes: List[Tuple[str, int]] = []
        """minItems, maxItems, minProperties, maxProperties: (keyword, count)."""


class _Reader:
    """Reads a schema where it is written: every problem names ``where``, the keyword and its path."""

    def __init__(self, where: str) -> None:
        self.where = where

    def error(self, path: Path, message: str) -> SchemaError:
        inside = '/'.join(str(part) for part in path)
        return SchemaError('%s: %s: %s' % (self.where, inside, message) if inside else
                           '%s: %s' % (self.where, message))

    def node(self, spec: Any, path: Path, depth: int) -> _Node:
        if depth > MAX_DEPTH:
            raise self.error(path, 'the schema nests deeper than %d levels, or refers to itself' % MAX_DEPTH)
        if not isinstance(spec, Mapping):
            raise self.error(path, 'a schema is a map of keywords, not %s' % describe(spec))
        node = _Node()
        for keyword, value in spec.items():
            reader = _KEYWORDS.get(keyword) if isinstance(keyword, str) else None
            if reader is None:
                raise self.error(path, 'unknown keyword %s (known: %s)' % (brief(keyword), ', '.join(_KEYWORDS)))
            reader(self, node, value, path + (keyword,), depth)
        return node

    def constant(self, value: Any, path: Path) -> Any:
        """A value of enum or const, as compared (a vault value is never compared: refused)."""
        try:
            canonical = _canonical(value)
        except MergeError as exc:
            raise self.error(path, str(exc)) from None
        if 'opaque' in _flat_tags(canonical):
            raise self.error(path, 'holds a vault value, which is never compared')
        return canonical

    def number(self, value: Any, path: Path) -> Any:
        if not _is_number(value):
            raise self.error(path, 'is %s, not a number' % describe(value))
        return value

    def count(self, value: Any, path: Path) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise self.error(path, 'is %s, not an integer >= 0' % brief(value))
        return int(value)


def _flat_tags(canonical: Any) -> set:
    """The tags of a canonical value and everything inside it."""
    tags, pending = set(), [canonical]
    while pending:
        tag, *rest = pending.pop()
        tags.add(tag)
        if tag == 'object':
            pending.extend(part for pair in rest[0] for part in pair)
        elif tag == 'array':
            pending.extend(rest[0])
    return tags


def _read_type(reader: _Reader, node: _Node, value: Any, path: Path, depth: int) -> None:
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, (list, tuple)) or not names:
        raise reader.error(path, 'is %s, not a type name or a non-empty list of them' % describe(value))
    for name in names:
        if not isinstance(name, str) or name not in TYPES:
            raise reader.error(path, 'unknown type %s (known: %s)' % (brief(name), ', '.join(TYPES)))
    if len(set(names)) != len(names):
        raise reader.error(path, 'names a type twice')
    node.types = tuple(str(name) for name in names)


def _read_enum(reader: _Reader, node: _Node, value: Any, path: Path, depth: int) -> None:
    if not isinstance(value, (list, tuple)) or not value:
        raise reader.error(path, 'is %s, not a non-empty list' % describe(value))
    node.enum = frozenset(reader.constant(item, path + (index,)) for index, item in enumerate(value))
    node.enum_text = brief(list(value))


def _read_const(reader: _Reader, node: _Node, value: Any, path: Path, depth: int) -> None:
    node.const = reader.constant(value, path)
    node.const_text = brief(value)


def _read_bound(reader: _Reader, node: _Node, value: Any, path: Path, depth: int) -> None:
    if isinstance(value, bool) and path[-1].startswith('exclusive'):
        raise reader.error(path, 'is a boolean, not a number: since JSON Schema draft 6, %s is the bound itself'
                           % path[-1])
    node.bounds.append((path[-1], reader.number(value, path)))


def _read_length(reader: _Reader, node: _Node, value: Any, path: Path, depth: int) -> None:
    setattr(node, 'min_length' if path[-1] == 'minLength' else 'max_length', reader.count(value, path))


def _read_size(reader: _Reader, node: _Node, value: Any, path: Path, depth: int) -> None:
    node.sizes.append((path[-1], reader.count(value, path)))


def _read_names(reader: _Reader, node: _Node, value: Any, path: Path, depth: int) -> None:
    node.names = reader.node(value, path, depth + 1)


def _read_pattern(reader: _Reader, node: _Node, value: Any, path: Path, depth: int) -> None:
    if not isinstance(value, str):
        raise reader.error(path, 'is %s, not a regular expression' % describe(value))
    where = '%s: %s' % (reader.where, '/'.join(str(part) for part in path))
    node.pattern = compile_untrusted(str(value), where=where, error=SchemaError)


def _read_items(reader: _Reader, node: _Node, value: Any, path: Path, depth: int) -> None:
    if isinstance(value, (list, tuple)):
        raise reader.error(path, 'is a list: one schema checks every item (tuple forms are not supported)')
    node.items = reader.node(value, path, depth + 1)


def _read_properties(reader: _Reader, node: _Node, value: Any, path: Path, depth: int) -> None:
    if not isinstance(value, Mapping):
        raise reader.error(path, 'is %s, not a map of key names to schemas' % describe(value))
    properties = {}
    for key, spec in value.items():
        if not isinstance(key, str):
            raise reader.error(path, 'the key %s is not a string' % brief(key))
        properties[str(key)] = reader.node(spec, path + (key,), depth + 1)
    node.properties = properties


def _read_required(reader: _Reader, node: _Node, value: Any, path: Path, depth: int) -> None:
    if not isinstance(value, (list, tuple)) or not all(isinstance(name, str) for name in value):
        raise reader.error(path, 'is %s, not a list of key names' % brief(value))
    if len(set(value)) != len(value):
        raise reader.error(path, 'names a key twice')
    node.required = tuple(str(name) for name in value)


def _read_additional(reader: _Reader, node: _Node, value: Any, path: Path, depth: int) -> None:
    if isinstance(value, bool):
        node.additional = None if value else False
    else:
        node.additional = reader.node(value, path, depth + 1)


_KEYWORDS: Dict[str, Callable[[_Reader, _Node, Any, Path, int], None]] = {
    'type': _read_type, 'enum': _read_enum, 'const': _read_const,
    'minimum': _read_bound, 'maximum': _read_bound, 'exclusiveMinimum': _read_bound, 'exclusiveMaximum': _read_bound,
    'minLength': _read_length, 'maxLength': _read_length, 'pattern': _read_pattern,
    'items': _read_items, 'minItems': _read_size, 'maxItems': _read_size,
    'properties': _read_properties, 'required': _read_required, 'additionalProperties': _read_additional,
    'propertyNames': _read_names, 'minProperties': _read_size, 'maxProperties': _read_size,
}
_SIZES = {'minItems': (False, 'items', 'fewer than the minimum'), 'maxItems': (True, 'items', 'more than the maximum'),
          'minProperties': (False, 'keys', 'fewer than the minimum'),
          'maxProperties': (True, 'keys', 'more than the maximum')}

_BOUNDS: Dict[str, Tuple[Callable[[Any, Any], bool], str]] = {
    'minimum': (lambda value, limit: value >= limit, 'below the minimum'),
    'maximum': (lambda value, limit: value <= limit, 'above the maximum'),
    'exclusiveMinimum': (lambda value, limit: value > limit, 'not above the exclusive minimum'),
    'exclusiveMaximum': (lambda value, limit: value < limit, 'not below the exclusive maximum'),
}


class _Run:
    """One check of a value: its problems, up to ``limit``."""

    def __init__(self, partial: bool, limit: int) -> None:
        self.partial = partial
        self.limit = limit
        self.problems: Problems = []

    def add(self, path: Path, message: str) -> None:
        if len(self.problems) < self.limit:
            self.problems.append((path, message))

    def full(self) -> bool:
        return len(self.problems) >= self.limit

    def check(self, node: _Node, value: Any, path: Path) -> None:
        if self.full():
            return
        if len(path) > MAX_DEPTH:
            raise too_deep(path)
        if node.types is not None:
            self.type(node.types, value, path)
        if opaque_identity(value) is not None:
            return      # a secret: only its type is known without decrypting it
        if node.enum is not None or node.const is not None:
            self.constant(node, value, path)
        if node.bounds and _is_number(value):
            self.bounds(node.bounds, value, path)
        if isinstance(value, str):
            self.text(node, value, path)
        elif isinstance(value, Mapping):
            self.sizes(node.sizes, 'keys', len(value), path)
            self.map(node, value, path)
        elif isinstance(value, (list, tuple)):
            self.sizes(node.sizes, 'items', len(value), path)
            for index, item in enumerate(value if node.items is not None else ()):
                self.check(node.items, item, path + (index,))

    def type(self, expected: Tuple[str, ...], value: Any, path: Path) -> None:
        if any(name in expected for name in types_of(value)):
            return
        kind = describe(value)
        if kind == 'a number':
            kind = 'the number %s' % brief(value)
        self.add(path, 'is %s, not %s' % (kind, ' or '.join(_EXPECTED[name] for name in expected)))

    def constant(self, node: _Node, value: Any, path: Path) -> None:
        canonical = _canonical(value)
        if node.enum is not None and canonical not in node.enum:
            self.add(path, '%s is not one of %s' % (brief(value), node.enum_text))
        if node.const is not None and canonical != node.const:
            self.add(path, 'is %s, not the constant %s' % (brief(value), node.const_text))

    def bounds(self, bounds: List[Tuple[str, Any]], value: Any, path: Path) -> None:
        for keyword, limit in bounds:
            holds, phrase = _BOUNDS[keyword]
            if not holds(value, limit):
                self.add(path, 'is %s, %s %s' % (brief(value), phrase, brief(limit)))

    def sizes(self, sizes: List[Tuple[str, int]], unit: str, size: int, path: Path) -> None:
        for keyword, limit in sizes:
            most, counted, phrase = _SIZES[keyword]
            if counted == unit and (size > limit if most else size < limit):
                self.add(path, 'has %d %s, %s %d' % (size, unit, phrase, limit))

    def text(self, node: _Node, value: str, path: Path) -> None:
        length = len(value)
        if node.min_length is not None and length < node.min_length:
            self.add(path, 'is %s (%d characters), shorter than the minimum length %d'
                     % (brief(value), length, node.min_length))
        if node.max_length is not None and length > node.max_length:
            self.add(path, 'is %s (%d characters), longer than the maximum length %d'
                     % (brief(value), length, node.max_length))
        if node.pattern is None:
            return
        try:
            found = node.pattern.search(value)
        except SchemaError:
            self.add(path, 'is a text of %d characters, too long to search with the pattern %r in linear time'
                     % (length, node.pattern.pattern))
            return
        if found is None:
            self.add(path, '%s does not match the pattern %r' % (brief(value), node.pattern.pattern))

    def map(self, node: _Node, value: Mapping, path: Path) -> None:
        if not self.partial:
            for name in node.required:
                if name not in value:
                    self.add(path, 'lacks the required key %r' % name)
        if node.properties is None and node.additional is None and node.names is None:
            return
        properties = node.properties or {}
        for key, item in value.items():
            if node.names is not None:
                self.key(node.names, key, path)
            known = isinstance(key, str) and opaque_identity(key) is None and key in properties
            if known:
                self.check(properties[key], item, path + (key,))
            elif node.additional is False:
                self.add(path, 'has the key %s, which properties does not allow' % brief(key))
            elif node.additional is not None:
                self.check(node.additional, item, path + (key,))

    def key(self, names: _Node, key: Any, path: Path) -> None:
        """propertyNames: the key checked as it is; its problems are the map's, naming the key."""
        problems, self.problems = self.problems, []
        try:
            self.check(names, key, path)
        finally:
            found, self.problems = self.problems, problems
        for inside, message in found:
            self.add(inside, 'the key %s: %s' % (brief(key), message))


class Schema:
    """A schema of the supported subset, checked once when built (``SchemaError`` names ``where``, the keyword and
    its path inside the schema); ``errors`` checks a value against it."""

    __slots__ = ('where', '_root')

    def __init__(self, spec: Any, where: str) -> None:
        self.where = where
        self._root = _Reader(where).node(spec, (), 0)

    def errors(self, value: Any, partial: bool = False, limit: int = 10) -> List[Tuple[Tuple[Any, ...], str]]:
        """The value's problems as ``[(path inside the value, message)]``, at most ``limit``; ``[]`` when it is
        valid.  ``partial``: the value is one level's contribution to a map merged deep, so ``required`` is not
        checked."""
        run = _Run(partial, limit)
        if limit > 0:
            run.check(self._root, value, ())
        return run.problems
