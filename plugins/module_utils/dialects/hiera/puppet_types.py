# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Hiera's ``convert_to``: a Puppet type expression as a schema of module_utils/core/schema.py, and Puppet's ``new``.

``lookup_options: {key: {convert_to: T}}`` (or ``[T, arguments...]``) makes Puppet answer ``new(T, value,
arguments...)``: a value that already is a ``T`` as it is, else the value converted by ``T``'s base type
(Integer, Float, Numeric, Boolean, String) and then checked against ``T``.  ``ConvertTo.apply`` does the same
(the conversions as Puppet 7.23 does them, tests/unit/plugins/module_utils/test_puppet_types.py), and refuses what
it does not reproduce rather than answer something else:

- the types with no schema counterpart here (``Variant``, ``Struct``, ``Tuple``, ``Timestamp``, ...), case-insensitive
  ``Enum[..., true]``, ``Sensitive`` below the top;
- converting a value that is not a list or a map to ``Array`` or ``Hash`` (Puppet iterates it: ``"abc"`` becomes
  ``["a", "b", "c"]``, ``3`` becomes ``[0, 1, 2]``), and a list or a map to ``String`` (Puppet's own text format);
- arguments of ``new`` other than Integer's radix and ``abs``, Float's and Numeric's ``abs``;
- converting a vault value to anything but a string (it would be decrypted).

``Sensitive``/``Sensitive[T]``: the value is checked against ``T`` (never converted, as in Puppet) and the lookup
answers it, marked secret (``ConvertTo.sensitive``): the engine never shows it.
"""

from __future__ import annotations

import functools
import math
import re
from typing import Any, Callable, Dict, List, Optional, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.errors import HieraError
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.ruby import SENSITIVE_TEXT, Sensitive, ruby_regex_text
from ansible_collections.strata.hier.plugins.module_utils.core.identity import opaque_identity, shown
from ansible_collections.strata.hier.plugins.module_utils.core.limits import TYPE_NESTING
from ansible_collections.strata.hier.plugins.module_utils.core.schema import Schema, SchemaError, describe

__all__ = ('SENSITIVE_TEXT', 'ConversionError', 'ConvertTo', 'PuppetTypeError', 'Sensitive', 'parse_convert_to')
SUPPORTED = ('Integer', 'Float', 'Numeric', 'Boolean', 'String', 'Enum', 'Pattern', 'Array', 'Hash', 'Optional',
             'Sensitive', 'Any', 'Data', 'Scalar', 'ScalarData', 'Undef', 'NotUndef')


class PuppetTypeError(HieraError):
    """A convert_to that is not a Puppet type expression, or one strata.hier does not map or convert."""


class ConversionError(HieraError):
    """Puppet's new() of the convert_to type fails on the value (or would, or would need a vault value's secret)."""


# --- the type expression -------------------------------------------------------------------------------------
_TOKEN = re.compile(r'''\s*(?:
    (?P<name>(?:::)?[A-Z]\w*(?:::[A-Z]\w*)*) |
    (?P<number>[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?) |
    (?P<word>[a-z_]\w*) |
    (?P<string>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*") |
    (?P<regex>/(?:[^/\\\n]|\\.)*/) |
    (?P<punct>[\[\],{}]|=>)
    )''', re.VERBOSE)


class _Parser:
    """Puppet's type expressions, as far as convert_to uses them: ``Name``, ``Name[parameter, ...]`` with types,
    numbers, ``default``, bare words, quoted strings and ``/regex/`` as parameters."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: List[Tuple[str, str]] = []
        position = 0
        while position < len(text.rstrip()):
            match = _TOKEN.match(text, position)
            if match is None or match.end() == position:
                raise PuppetTypeError('%r is not a Puppet type: unexpected %r' % (text, text[position:].strip()[:20]))
            kind = match.lastgroup or ''
            self.tokens.append((kind, match.group(kind)))
            position = match.end()
        self.index = 0

    def parse(self) -> Tuple[Any, ...]:
        node = self.expression(0)
        if self.index != len(self.tokens):
            raise PuppetTypeError('%r is not a Puppet type: unexpected %r' % (self.text, self.tokens[self.index][1]))
        return node

    def next(self) -> Tuple[str, str]:
        if self.index >= len(self.tokens):
            raise PuppetTypeError('%r is not a Puppet type: it ends too early' % self.text)
        self.index += 1
        return self.tokens[self.index - 1]

    def expression(self, depth: int) -> Tuple[Any, ...]:
        if depth > TYPE_NESTING:
            raise PuppetTypeError('%r nests deeper than %d types' % (self.text, TYPE_NESTING))
        kind, token = self.next()
        if kind == 'punct' and token == '{':
            raise PuppetTypeError('%r: a hash literal (as in Struct) is not supported in convert_to' % self.text)
        if kind != 'name':
            return (kind, _literal(kind, token))
        parameters: List[Any] = []
        if self.index < len(self.tokens) and self.tokens[self.index] == ('punct', '['):
            self.index += 1
            while True:
                parameters.append(self.expression(depth + 1))
                separator = self.next()[1]
                if separator == ']':
                    break
                if separator != ',':
                    raise PuppetTypeError('%r is not a Puppet type: unexpected %r' % (self.text, separator))
        return ('type', token.lstrip(':'), parameters)


def _literal(kind: str, token: str) -> Any:
    if kind == 'number':
        return float(token) if any(char in token for char in '.eE') else int(token)
    if kind == 'string':
        return re.sub(r'\\(.)', r'\1', token[1:-1])
    if kind == 'regex':
        return token[1:-1].replace('\\/', '/')
    return token


# --- the type as a schema ------------------------------------------------------------------------------------
class _Mapped:
    """A type: its schema spec, the base type new() converts with (None: new() only accepts an instance),
    whether it allows null (Optional) and whether it is Sensitive."""

    __slots__ = ('spec', 'base', 'optional', 'sensitive')

    def __init__(self, spec: Dict[str, Any], base: Optional[str] = None) -> None:
        self.spec = spec
        self.base = base
        self.optional = False
        self.sensitive = False


def _bounds(name: str, parameters: List[Any], low: str, high: str, number: Any) -> Dict[str, Any]:
    """Integer[a, b], Float[a, b], String[a, b], sizes of Array and Hash: ``default`` leaves a bound open."""
    if len(parameters) > 2:
        raise PuppetTypeError('%s takes at most 2 bounds, not %d' % (name, len(parameters)))
    spec: Dict[str, Any] = {}
    for keyword, (kind, value) in zip((low, high), parameters):
        if kind == 'word' and value == 'default':
            continue
        if kind != 'number' or not isinstance(value, number):
            raise PuppetTypeError('%s: the bound %s is not %s or default'
                                  % (name, shown(value), 'a number' if number is not int else 'an integer'))
        spec[keyword] = value
    if low in spec and high in spec and spec[low] > spec[high]:
        raise PuppetTypeError('%s: the lower bound %s is above the upper bound %s' % (name, spec[low], spec[high]))
    return spec


def _type_parameter(name: str, node: Any, depth: int) -> '_Mapped':
    if node[0] != 'type':
        raise PuppetTypeError('%s: %s is not a type' % (name, shown(node[1])))
    return _mapped(node, depth + 1)


def _enum(parameters: List[Any]) -> Dict[str, Any]:
    values = []
    for kind, value in parameters:
        if kind == 'word' and value == 'true' and values:
            raise PuppetTypeError('Enum[..., true] (case-insensitive) is not supported')
        if kind not in ('string', 'word'):
            raise PuppetTypeError('Enum: %s is not a string' % shown(value))
        values.append(value)
    return dict({'type': 'string'}, **({'enum': values} if values else {}))


def _pattern(parameters: List[Any]) -> Dict[str, Any]:
    patterns = []
    for kind, value in parameters:
        if kind not in ('string', 'regex'):
            raise PuppetTypeError('Pattern: %s is not a regular expression' % shown(value))
        patterns.append('(?m:%s)' % ruby_regex_text(value))     # Ruby's ^ and $ match at every line
    return dict({'type': 'string'}, **({'pattern': '|'.join(patterns)} if patterns else {}))


def _array(parameters: List[Any], depth: int) -> Dict[str, Any]:
    spec: Dict[str, Any] = {'type': 'array'}
    if parameters:
        items = _type_parameter('Array', parameters[0], depth)
        if items.spec:
            spec['items'] = items.spec
        spec.update(_bounds('Array', parameters[1:], 'minItems', 'maxItems', int))
    return spec


def _hash(parameters: List[Any], depth: int) -> Dict[str, Any]:
    spec: Dict[str, Any] = {'type': 'object'}
    if len(parameters) == 1:
        raise PuppetTypeError('Hash takes a key type and a value type (Hash[String, T]), not one type')
    if parameters:
        keys, values = (_type_parameter('Hash', node, depth) for node in parameters[:2])
        if keys.spec:
            spec['propertyNames'] = keys.spec
        if values.spec:
            spec['additionalProperties'] = values.spec
        spec.update(_bounds('Hash', parameters[2:], 'minProperties', 'maxProperties', int))
    return spec


def _optional(parameters: List[Any], depth: int) -> _Mapped:
    if len(parameters) > 1:
        raise PuppetTypeError('Optional takes one type')
    if not parameters:
        return _Mapped({})
    inner = _type_parameter('Optional', parameters[0], depth)
    spec = dict(inner.spec)
    if 'type' in spec:
        names = spec['type'] if isinstance(spec['type'], list) else [spec['type']]
        spec['type'] = names + ['null'] if 'null' not in names else names
    if 'enum' in spec:
        spec['enum'] = spec['enum'] + [None]
    mapped = _Mapped(spec, inner.base)
    mapped.optional = True
    return mapped


_SCALARS = ['string', 'integer', 'number', 'boolean']
_PLAIN: Dict[str, Callable[[], _Mapped]] = {
    'Boolean': lambda: _Mapped({'type': 'boolean'}, 'Boolean'),
    'Any': lambda: _Mapped({}),
    'Data': lambda: _Mapped({}),
    'Scalar': lambda: _Mapped({'type': list(_SCALARS)}),
    'ScalarData': lambda: _Mapped({'type': list(_SCALARS)}),
    'Undef': lambda: _Mapped({'type': 'null'}),
    'NotUndef': lambda: _Mapped({'type': ['string', 'integer', 'number', 'boolean', 'array', 'object']}),
}
_PARAMETERS: Dict[str, Callable[[List[Any], int], _Mapped]] = {
    'Integer': lambda parameters, depth: _Mapped(
        dict({'type': 'integer'}, **_bounds('Integer', parameters, 'minimum', 'maximum', int)), 'Integer'),
    'Float': lambda parameters, depth: _Mapped(
        dict({'type': 'number'}, **_bounds('Float', parameters, 'minimum', 'maximum', (int, float))), 'Float'),
    'Numeric': lambda parameters, depth: _Mapped(
        dict({'type': 'number'}, **_bounds('Numeric', parameters, 'minimum', 'maximum', (int, float))), 'Numeric'),
    'String': lambda parameters, depth: _Mapped(
        dict({'type': 'string'}, **_bounds('String', parameters, 'minLength', 'maxLength', int)), 'String'),
    'Enum': lambda parameters, depth: _Mapped(_enum(parameters)),
    'Pattern': lambda parameters, depth: _Mapped(_pattern(parameters)),
    'Array': lambda parameters, depth: _Mapped(_array(parameters, depth), 'Array'),
    'Hash': lambda parameters, depth: _Mapped(_hash(parameters, depth), 'Hash'),
    'Optional': _optional,
}


def _mapped(node: Tuple[Any, ...], depth: int) -> _Mapped:
    name, parameters = node[1], node[2]
    if name in _PARAMETERS:
        return _PARAMETERS[name](parameters, depth)
    if name in _PLAIN:
        if parameters:
            raise PuppetTypeError('%s takes no parameters here' % name)
        return _PLAIN[name]()
    if name == 'Sensitive':
        raise PuppetTypeError('Sensitive is supported only as the whole convert_to type (Sensitive or Sensitive[T])')
    raise PuppetTypeError('the Puppet type %s is not supported (supported: %s)' % (name, ', '.join(SUPPORTED)))


# --- Puppet's new() of the base types --------------------------------------------------------------------------
_SPACE = ' \t\r\n\f\v'
"""Ruby's \\s."""
_INTEGER_TEXT = re.compile(r'[+-]?[ \t\r\n\f\v]*(?:[0-9]+|0[xX][0-9A-Fa-f]+|0[bB][01]+)\Z')
_FLOAT_TEXT = re.compile(r'[+-]?[ \t\r\n\f\v]*(?:(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE]-?[0-9]+)?|0[xX][0-9A-Fa-f]+'
                         r'|0[0-7]+|0[bB][01]+)\Z')
_NUMERIC = re.compile(r'[ \t]*([-+]?)[ \t]*((0[xX][0-9A-Fa-f]+)|(0?[0-9]+)((?:\.[0-9]+)?(?:[eE]-?[0-9]+)?))[ \t]*\Z')
_SIGN_SPACE = re.compile(r'([+-])[ \t]+(.*)\Z')
_DECIMAL = re.compile(r'[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?\Z')
_DIGITS = {2: '01', 8: '01234567', 10: '0123456789', 16: '0123456789abcdefABCDEF'}
_PREFIXES = (('0x', 16), ('0b', 2), ('0o', 8), ('0d', 10))


class _Invalid(ConversionError):
    """Ruby's ArgumentError of Integer() or Float(): Puppet may try again without the space after a sign."""


def _ruby_integer(text: str, radix: Optional[int] = None) -> int:
    """Ruby's ``Integer(text)`` / ``Integer(text, radix)``: 0x, 0b, 0o, 0d and a leading 0 (octal) prefixes."""
    body = text.strip(_SPACE)
    sign = -1 if body[:1] == '-' else 1
    body = body[1:] if body[:1] in ('-', '+') else body
    lower = body.lower()
    base, digits = radix or 10, body
    for prefix, prefixed in _PREFIXES:
        if lower.startswith(prefix) and radix in (None, prefixed):
            base, digits = prefixed, body[2:]
            break
    else:
        if radix is None and len(body) > 1 and body[0] == '0':
            base, digits = 8, body[1:]
    if not digits or any(char not in _DIGITS[base] for char in digits):
        raise _Invalid('invalid value for Integer(): %s' % shown(text))
    return sign * int(digits, base)


def _ruby_float(text: str) -> float:
    """Ruby's ``Float(text)`` on what Puppet's pattern lets through (a binary text is Puppet's own case)."""
    if text[:1] == '0' and text[1:2] in ('b', 'B'):
        return float(_ruby_integer(text))
    body = text.strip(_SPACE)
    sign = -1.0 if body[:1] == '-' else 1.0
    body = body[1:] if body[:1] in ('-', '+') else body
    if body[:2].lower() == '0x' and len(body) > 2 and all(char in _DIGITS[16] for char in body[2:]):
        return sign * float(int(body[2:], 16))
    if not _DECIMAL.match(body):
        raise _Invalid('invalid value for Float(): %s' % shown(text))
    return sign * float(body)


def _retried(convert: Callable[[str], Any], text: str) -> Any:
    """Puppet's second try without the blanks between a sign and the number (``- 5``)."""
    try:
        return convert(text)
    except _Invalid:
        match = _SIGN_SPACE.match(text)
        if match:
            try:
                return convert(match.group(1) + match.group(2))
            except _Invalid:
                pass
        raise


def _not_convertible(value: Any, base: str) -> ConversionError:
    if isinstance(value, str):
        return ConversionError('the string %s cannot be converted to %s' % (shown(value), base))
    return ConversionError('%s cannot be converted to %s' % (describe(value), base))


def _to_integer(value: Any, radix: Optional[int] = None, absolute: bool = False) -> int:
    if isinstance(value, bool):
        result = int(value)
    elif isinstance(value, int):
        result = value
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ConversionError('%s cannot be converted to Integer' % shown(value))
        result = int(value)
    elif isinstance(value, str) and _INTEGER_TEXT.match(value):
        result = _retried(lambda text: _ruby_integer(text, radix), value)
    else:
        raise _not_convertible(value, 'Integer')
    return abs(result) if absolute else result


def _to_float(value: Any, absolute: bool = False) -> float:
    if isinstance(value, (bool, int, float)):
        try:
            result = float(value)
        except OverflowError:       # an integer beyond floats: Ruby's Float() gives Infinity
            result = math.copysign(math.inf, value)
    elif isinstance(value, str) and _FLOAT_TEXT.match(value):
        result = _retried(_ruby_float, value)
    else:
        raise _not_convertible(value, 'Float')
    return abs(result) if absolute else result


def _to_numeric(value: Any, absolute: bool = False) -> Any:
    if isinstance(value, bool):
        result: Any = int(value)
    elif isinstance(value, (int, float)):
        result = value
    elif isinstance(value, str) and _FLOAT_TEXT.match(value):
        result = _ruby_integer(value) if value[:1] == '0' and value[1:2].lower() in ('b', 'x') else _to_n(value)
    else:
        raise _not_convertible(value, 'Numeric')
    return abs(result) if absolute and result is not None else result


def _to_n(text: str) -> Any:
    """Puppet's Utils.to_n: a number, or None (null) where it finds none."""
    match = _NUMERIC.match(text)
    if match is None:
        return None
    sign = -1 if match.group(1) == '-' else 1
    try:
        if not match.group(5):
            return sign * _ruby_integer(match.group(2))
        if int(match.group(4)) == 0 and re.match(r'\.?0*[eE]', match.group(5)):
            return None
        number = _ruby_float(match.group(2))
    except _Invalid:
        return None
    return None if math.isinf(number) else sign * number


def _to_boolean(value: Any) -> bool:
    if isinstance(value, (bool, int, float)):
        return value != 0
    if isinstance(value, str) and value.lower() in ('true', 'yes', 'y', 'false', 'no', 'n'):
        return value.lower() in ('true', 'yes', 'y')
    raise _not_convertible(value, 'Boolean')


def _to_string(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return {True: 'true', False: 'false', None: ''}[value]
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return ('%f' % value) if math.isfinite(value) else {'inf': 'Inf', '-inf': '-Inf'}.get(str(value), 'NaN')
    if isinstance(value, (list, tuple, dict)):
        raise ConversionError('%s is not converted to String here (Puppet writes it in its own format)'
                              % describe(value))
    raise _not_convertible(value, 'String')


def _to_container(base: str) -> Callable[[Any], Any]:
    def refuse(value: Any) -> Any:
        raise ConversionError('%s is not converted to %s here (Puppet would build one from it by iterating it)'
                              % (describe(value), base))
    return refuse


_CONVERT: Dict[str, Callable[..., Any]] = {
    'Integer': _to_integer, 'Float': _to_float, 'Numeric': _to_numeric, 'Boolean': _to_boolean,
    'String': _to_string, 'Array': _to_container('Array'), 'Hash': _to_container('Hash'),
}
_IS_BASE: Dict[str, Callable[[Any], bool]] = {
    'Integer': lambda value: isinstance(value, int) and not isinstance(value, bool),
    'Float': lambda value: isinstance(value, float),
    'Numeric': lambda value: isinstance(value, (int, float)) and not isinstance(value, bool),
    'Boolean': lambda value: isinstance(value, bool),
    'String': lambda value: isinstance(value, str) or opaque_identity(value) is not None,
    'Array': lambda value: isinstance(value, (list, tuple)),
    'Hash': lambda value: isinstance(value, dict),
}


# --- convert_to ----------------------------------------------------------------------------------------------
def _arguments(name: str, arguments: Tuple[Any, ...]) -> Dict[str, Any]:
    """The arguments of ``[Type, arguments...]`` as keywords of the base type's conversion."""
    if not arguments:
        return {}
    if name == 'Integer' and len(arguments) <= 2:
        radix = arguments[0]
        if isinstance(radix, bool) or radix not in (2, 8, 10, 16):
            raise PuppetTypeError('Integer\'s radix is 2, 8, 10 or 16, not %s' % shown(radix))
        if len(arguments) == 2 and not isinstance(arguments[1], bool):
            raise PuppetTypeError('Integer\'s abs argument is true or false, not %s' % shown(arguments[1]))
        return {'radix': radix, 'absolute': bool(arguments[1:2] and arguments[1])}
    if name in ('Float', 'Numeric') and len(arguments) == 1:
        if not isinstance(arguments[0], bool):
            raise PuppetTypeError('%s\'s abs argument is true or false, not %s' % (name, shown(arguments[0])))
        return {'absolute': arguments[0]}
    raise PuppetTypeError('the arguments %s to %s.new are not supported (supported: Integer\'s radix and abs, Float\'s '
                          'and Numeric\'s abs)' % (', '.join(shown(argument) for argument in arguments), name))


class ConvertTo:
    """A parsed convert_to: ``apply(value)`` is Puppet's ``new(T, value, arguments...)`` followed by its check of the
    result against T (a ConversionError where Puppet fails, or where strata.hier does not convert)."""

    __slots__ = ('text', 'sensitive', 'spec', 'schema', 'base', 'optional', 'arguments', 'shown', '_keywords')

    def __init__(self, text: str, arguments: Tuple[Any, ...]) -> None:
        node = _Parser(text).parse()
        if node[0] != 'type':
            raise PuppetTypeError('%r is not a Puppet type' % text)
        self.text, self.arguments, self.sensitive = text, arguments, node[1] == 'Sensitive'
        if self.sensitive:
            if len(node[2]) > 1 or arguments:
                raise PuppetTypeError('Sensitive takes one type and no arguments to new')
            mapped = _type_parameter('Sensitive', node[2][0], 0) if node[2] else _Mapped({})
            mapped.base = None      # Sensitive[T] checks T, converts nothing
        else:
            mapped = _mapped(node, 0)
        self.spec, self.base, self.optional = mapped.spec, mapped.base, mapped.optional
        self.shown = '[%s]' % ', '.join([text] + [shown(argument) for argument in arguments])
        """As Puppet's explain names it: ``[Integer]``, ``[Integer, 8]``."""
        self._keywords = _arguments(node[1], arguments) if arguments else {}
        try:
            self.schema = Schema(self.spec, 'convert_to %r' % text)
        except SchemaError as exc:      # a Pattern whose regular expression is refused
            raise PuppetTypeError(str(exc)) from None

    def apply(self, value: Any) -> Any:
        """The value as Puppet's new() makes it (a Sensitive wrapper for Sensitive), or a ConversionError."""
        converted = value
        if self.base is not None and not (self.optional and value is None) and (
                self._keywords or not _IS_BASE[self.base](value)):
            if opaque_identity(value) is not None:
                raise ConversionError('a vault value is not converted to %s (that would decrypt it)' % self.base)
            converted = _CONVERT[self.base](value, **self._keywords)
        problems = self.schema.errors(converted, limit=3)
        if problems and self.sensitive:
            raise ConversionError('the value does not fit %s (the problem is not shown: the value is sensitive)'
                                  % self.text)
        if problems:
            was = '' if converted is value else ' (converted to %s)' % shown(converted)
            raise ConversionError('%s%s does not fit %s: %s' % (shown(value), was, self.text, '; '.join(
                ('%s %s' % ('/'.join(map(str, path)), message)) if path else message for path, message in problems)))
        return Sensitive(converted) if self.sensitive else converted


def parse_convert_to(entry: Any) -> ConvertTo:
    """A lookup_options entry's ``convert_to`` (a type, or a list of a type and the arguments of new), or a
    PuppetTypeError saying why it is not one strata.hier converts."""
    arguments: Tuple[Any, ...] = ()
    if isinstance(entry, list) and entry:
        entry, arguments = entry[0], tuple(entry[1:])
    if not isinstance(entry, str):
        raise PuppetTypeError('convert_to is a Puppet type (%s) or a list of a type and the arguments of its new, '
                              'not %s' % (', '.join(SUPPORTED), shown(entry)))
    if any(not isinstance(argument, (int, float, str)) for argument in arguments):
        raise PuppetTypeError('the arguments of new are numbers, text or booleans, not %s'
                              % ', '.join(describe(argument) for argument in arguments))
    return _parsed(str(entry), arguments)


@functools.lru_cache(maxsize=256)
def _parsed(text: str, arguments: Tuple[Any, ...]) -> ConvertTo:
    return ConvertTo(text, arguments)
