# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 30, item 4: Hiera's convert_to as Puppet's new() (module_utils/dialects/hiera/puppet_types.py).

``puppet_convert_cases.json`` holds Puppet 7.23's answers (tests/oracle/hiera/convert_to_oracle.py asks Puppet and
writes them): every case agrees, but for the departures below, where strata.hier refuses what it does not reproduce
(docs/hiera.md)."""

from __future__ import annotations

import json
import os

import pytest

from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.ruby import to_s
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.puppet_types import (
    SENSITIVE_TEXT, ConversionError, PuppetTypeError, Sensitive, parse_convert_to,
)
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.contract import Sealed

with open(os.path.join(os.path.dirname(__file__), 'puppet_convert_cases.json'), encoding='utf-8') as _stream:
    CASES = json.load(_stream)['cases']

UNSUPPORTED_TYPES = ('Variant', 'Timestamp', 'Struct', 'Tuple', 'Enum[a, b, true]')
"""Types refused with a PuppetTypeError naming them."""
DEPARTURES = {
    # Puppet builds a list, a map or a text from a value by iterating it or by its own format: refused here
    ('String', '[1, 2]'), ('String', '{"a": 1}'), ('Array', '"x"'), ('Array', '{"a": 1}'), ('Array', '1'),
    ('Array', '3'), ('Array[Integer]', '1'), ('Array[Any]', '"abc"'), ('Hash', '[["a", 1]]'), ('Hash', '["a", 1]'),
    ('Hash', '[]'), ('["String", "%x"]', '255'), ('["String", "%d"]', '5'),
    # Puppet checks only the kind of a Sensitive's type parameter; the whole type here
    ('Sensitive[Integer[1,3]]', '5'),
    # Puppet fails on Optional without a parameter (an internal error); Optional alone is Optional[Any] here
    ('Optional', '1'),
}


def _key(case):
    kind = case['type'] if isinstance(case['type'], str) else json.dumps(case['type'])
    return kind, json.dumps(case['value'])


def _ours(case):
    try:
        result = parse_convert_to(case['type']).apply(case['value'])
    except (ConversionError, PuppetTypeError) as exc:
        return {'error': str(exc)}
    if isinstance(result, Sensitive):
        return {'result': result.value, 'sensitive': True}
    return {'result': result, 'sensitive': False}


def _same(one, two):
    """Equal as JSON values, with Ruby's Integer and Float told apart (12 is not 12.0) and NaN equal to itself."""
    return json.dumps(one, allow_nan=True) == json.dumps(two, allow_nan=True)


@pytest.mark.parametrize('case', CASES, ids=['%s %s' % _key(case) for case in CASES])
def test_puppet_new(case):
    ours, puppet = _ours(case), case['puppet']
    if _key(case) in DEPARTURES:
        assert ('error' in ours) != ('error' in puppet), (ours, puppet)
    elif any(case['type'] == name or str(case['type']).startswith(name + '[') for name in UNSUPPORTED_TYPES):
        assert 'is not supported' in ours['error']
    elif 'error' in puppet:
        assert 'error' in ours, (ours, puppet)
    else:
        assert 'error' not in ours, (ours, puppet)
        assert _same(ours['result'], puppet['result']) and ours['sensitive'] == puppet['sensitive'], (ours, puppet)


def test_infinite_floats():
    """Puppet 7.23's answers, kept out of the JSON file (standard JSON has no infinity)."""
    assert parse_convert_to('Float').apply('1e400') == float('inf')
    assert parse_convert_to('String').apply(float('inf')) == 'Inf'
    assert parse_convert_to('String').apply(float('-inf')) == '-Inf'
    with pytest.raises(ConversionError):
        parse_convert_to('Integer').apply(float('inf'))


def test_the_departures_are_still_departures():
    keys = {_key(case) for case in CASES}
    assert DEPARTURES <= keys


# --- the schema a type becomes ---------------------------------------------------------------------------------
@pytest.mark.parametrize('text, spec', [
    ('Integer', {'type': 'integer'}),
    ('Integer[1, 10]', {'type': 'integer', 'minimum': 1, 'maximum': 10}),
    ('Integer[default, 5]', {'type': 'integer', 'maximum': 5}),
    ('Float[0.5]', {'type': 'number', 'minimum': 0.5}),
    ('Numeric', {'type': 'number'}),
    ('Boolean', {'type': 'boolean'}),
    ('String[1, 64]', {'type': 'string', 'minLength': 1, 'maxLength': 64}),
    ("Enum['yes', no]", {'type': 'string', 'enum': ['yes', 'no']}),
    (r'Pattern[/^a\z/, "b"]', {'type': 'string', 'pattern': r'(?m:^a\Z)|(?m:b)'}),
    ('Array', {'type': 'array'}),
    ('Array[String, 1, 3]', {'type': 'array', 'items': {'type': 'string'}, 'minItems': 1, 'maxItems': 3}),
    ('Hash[String, Integer]', {'type': 'object', 'propertyNames': {'type': 'string'},
                               'additionalProperties': {'type': 'integer'}}),
    ('Optional[Enum[a]]', {'type': ['string', 'null'], 'enum': ['a', None]}),
    ('Optional[Integer[1]]', {'type': ['integer', 'null'], 'minimum': 1}),
    ('Sensitive[String[8]]', {'type': 'string', 'minLength': 8}),
    ('Sensitive', {}),
    ('Any', {}),
    ('Data', {}),
    ('Scalar', {'type': ['string', 'integer', 'number', 'boolean']}),
    ('Undef', {'type': 'null'}),
])
def test_types_as_schemas(text, spec):
    converter = parse_convert_to(text)
    assert converter.spec == spec
    assert converter.sensitive == text.startswith('Sensitive')


@pytest.mark.parametrize('entry, message', [
    ('Integer[1', 'it ends too early'),
    ('integer', "'integer' is not a Puppet type"),
    ('Foo', 'the Puppet type Foo is not supported (supported: Integer, Float'),
    ('Variant[Integer, String]', 'the Puppet type Variant is not supported'),
    ('Struct[{a => Integer}]', 'a hash literal (as in Struct) is not supported'),
    ('Integer[10, 1]', 'the lower bound 10 is above the upper bound 1'),
    ('Integer[1.5]', 'the bound 1.5 is not an integer or default'),
    ('Hash[String]', 'Hash takes a key type and a value type'),
    ('Array[1, 2]', 'Array: 1 is not a type'),
    ('Optional[Sensitive]', 'Sensitive is supported only as the whole convert_to type'),
    ('Enum[a, true]', 'case-insensitive'),
    ('Pattern[/(a+)+$/]', 'is refused'),
    (['Integer', 3], "Integer's radix is 2, 8, 10 or 16, not 3"),
    (['Integer', 8, 'yes'], "Integer's abs argument is true or false, not 'yes'"),
    (['Boolean', True], 'the arguments True to Boolean.new are not supported'),
    (['Sensitive', 1], 'Sensitive takes one type and no arguments'),
    (12, 'convert_to is a Puppet type'),
    ([], 'convert_to is a Puppet type'),
    (['Integer', [1]], 'the arguments of new are numbers, text or booleans, not a list'),
])
def test_convert_to_that_is_refused(entry, message):
    with pytest.raises(PuppetTypeError) as caught:
        parse_convert_to(entry)
    assert message in str(caught.value)


# --- conversions and their errors -----------------------------------------------------------------------------
def test_conversion_errors_name_the_value_and_the_type():
    with pytest.raises(ConversionError, match="the string 'abc' cannot be converted to Integer"):
        parse_convert_to('Integer').apply('abc')
    with pytest.raises(ConversionError, match=r"'11' \(converted to 11\) does not fit Integer\[1,10\]: is 11, above the "
                                              r"maximum 10"):
        parse_convert_to('Integer[1,10]').apply('11')
    with pytest.raises(ConversionError, match="'c' does not fit Enum"):
        parse_convert_to('Enum[a, b]').apply('c')
    with pytest.raises(ConversionError, match='a list cannot be converted to Boolean'):
        parse_convert_to('Boolean').apply([True])


def test_a_vault_value_is_a_string_never_converted():
    secret = Sealed('$ANSIBLE_VAULT;1.1;AES256;0001')
    assert parse_convert_to('String').apply(secret) is secret
    assert parse_convert_to('Optional[String[1, 2]]').apply(secret) is secret     # its length is not known
    for text in ('Integer', 'Boolean', 'Float', 'Numeric'):
        with pytest.raises(ConversionError, match='a vault value is not converted to %s' % text):
            parse_convert_to(text).apply(secret)
    with pytest.raises(ConversionError, match='a vault value is not converted to Array'):
        parse_convert_to('Array').apply(secret)
    assert Sealed.decryptions == 0


def test_sensitive_wraps_and_never_shows_the_value():
    value = parse_convert_to('Sensitive[String]').apply('hunter2')
    assert isinstance(value, Sensitive) and value.value == 'hunter2'
    assert repr(value) == to_s(value) == SENSITIVE_TEXT == 'Sensitive [value redacted]'
    assert parse_convert_to('Sensitive[Integer]').apply(5).value == 5     # never converted
    for text, secret in (('Sensitive[Integer]', 'hunter2'), ("Sensitive[Enum['a']]", 'hunter2'),
                         ('Sensitive[Pattern[/^x/]]', 'hunter2'), ('Sensitive[Hash[String, Integer]]', {'hunter2': 'x'})):
        with pytest.raises(ConversionError) as caught:
            parse_convert_to(text).apply(secret)
        assert 'hunter2' not in str(caught.value) and 'the value is sensitive' in str(caught.value)


def test_convert_to_is_parsed_once():
    assert parse_convert_to('Integer[1, 5]') is parse_convert_to('Integer[1, 5]')
    assert parse_convert_to(['Integer', 8]).shown == '[Integer, 8]'
    assert parse_convert_to('Sensitive').shown == '[Sensitive]'
