# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 30, item 1: the JSON Schema subset of constraints' ``type`` (module_utils/core/schema.py)."""

from __future__ import annotations

import datetime

import pytest

from ansible_collections.strata.hier.plugins.module_utils.core import identity
from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeDepthError, MergeError
from ansible_collections.strata.hier.plugins.module_utils.core.limits import MAX_DEPTH
from ansible_collections.strata.hier.plugins.module_utils.core.schema import Schema, SchemaError

WHERE = "constraints 'ntp': type"


def errors(spec, value, **options):
    return Schema(spec, WHERE).errors(value, **options)


def messages(spec, value, **options):
    return [message for path, message in errors(spec, value, **options)]


class Secret:
    """A vault value's stand-in: opaque to the core, and anything that would decrypt it fails the test."""

    __slots__ = ('ciphertext',)

    def __init__(self, ciphertext):
        object.__setattr__(self, 'ciphertext', ciphertext)

    def _decrypt(self, *args):
        raise AssertionError('the secret was decrypted')

    __eq__ = __ne__ = __hash__ = __str__ = __len__ = __iter__ = __contains__ = __getitem__ = _decrypt

    def __repr__(self):
        raise AssertionError('the secret was shown')


class KeySecret(Secret):
    """A Secret usable as a map key: hashed by its identity, as a real vault value is hashed without its secret."""

    __hash__ = object.__hash__


@pytest.fixture
def secret():
    """A Secret registered as opaque for one test, unregistered after it."""
    identity.register_opaque(Secret, lambda value: value.ciphertext)
    yield Secret('$ANSIBLE_VAULT;1.1;AES256;0123')
    del identity._OPAQUE[Secret]
    identity.FAST_PATHS.forget_identities()


# --- type --------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize('name, good, bad', [
    ('string', ['a', ''], [1, True, None, [], {}, 1.5]),
    ('integer', [0, -3, 2 ** 70, 3.0, -0.0], [True, False, 1.5, '1', None, float('inf'), float('nan')]),
    ('number', [0, 1.5, 3.0, -7], [True, '1.5', None, []]),
    ('boolean', [True, False], [0, 1, 'true', None]),
    ('array', [[], [1], ()], [{}, 'a', None]),
    ('object', [{}, {'a': 1}], [[], 'a', None]),
    ('null', [None], [0, '', False, []]),
])
def test_type(name, good, bad):
    for value in good:
        assert errors({'type': name}, value) == [], value
    for value in bad:
        assert len(errors({'type': name}, value)) == 1, value


def test_booleans_are_not_integers_nor_numbers():
    assert messages({'type': 'integer'}, True) == ['is a boolean, not an integer']
    assert messages({'type': 'number'}, False) == ['is a boolean, not a number']
    assert messages({'type': 'boolean'}, 1) == ['is an integer, not a boolean']
    assert messages({'enum': [1, 0]}, True) == ['True is not one of [1, 0]']
    assert messages({'const': 1}, True) == ['is True, not the constant 1']
    assert messages({'minimum': 5}, True) == []         # bounds apply to numbers only


def test_type_messages():
    assert messages({'type': 'integer'}, 'x') == ['is a string, not an integer']
    assert messages({'type': 'integer'}, 1.5) == ['is the number 1.5, not an integer']
    assert messages({'type': ['string', 'null']}, 3) == ['is an integer, not a string or null']
    assert messages({'type': 'array'}, {'a': 1}) == ['is a map, not a list']
    assert messages({'type': ['integer', 'boolean']}, True) == []


@pytest.mark.parametrize('value, kind', [
    (datetime.date(2026, 1, 2), 'a date'),
    (datetime.datetime(2026, 1, 2, 3, 4), 'a date and time'),
    (b'x', 'binary data'),
])
def test_yaml_dates_are_not_strings(value, kind):
    assert messages({'type': 'string'}, value) == ['is %s, not a string' % kind]
    assert messages({'type': ['integer', 'number', 'boolean', 'array', 'object', 'null']}, value) != []
    assert messages({'enum': ['2026-01-02']}, value) != []
    assert messages({'maxLength': 1, 'pattern': 'x'}, value) == []      # content keywords of strings only


# --- enum, const -------------------------------------------------------------------------------------------------
def test_enum():
    spec = {'enum': ['yes', 'no']}
    assert errors(spec, 'yes') == []
    assert messages(spec, 'maybe') == ["'maybe' is not one of ['yes', 'no']"]
    assert errors({'enum': [1, None, [1, {'a': 2}]]}, [1.0, {'a': 2.0}]) == []      # JSON's equality: 1 == 1.0
    assert errors({'enum': [1, None, [1, {'a': 2}]]}, None) == []
    assert messages({'enum': [[1, 2]]}, [2, 1]) == ['[2, 1] is not one of [[1, 2]]']
    assert messages({'enum': [{'a': 1}]}, {'a': 1, 'b': 2}) != []


def test_const():
    assert errors({'const': 'chrony'}, 'chrony') == []
    assert messages({'const': 'chrony'}, 'ntpd') == ["is 'ntpd', not the constant 'chrony'"]
    assert errors({'const': None}, None) == []
    assert messages({'const': None}, 0) == ['is 0, not the constant None']
    assert errors({'const': 3}, 3.0) == []


# --- numbers -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize('keyword, limit, good, bad, message', [
    ('minimum', 1, [1, 1.0, 2, 900.5], [0, 0.99, -1], 'is 0, below the minimum 1'),
    ('maximum', 900, [900, -1, 899.9], [901, 1800, 900.01], 'is 901, above the maximum 900'),
    ('exclusiveMinimum', 1, [2, 1.01], [1, 1.0, 0], 'is 1, not above the exclusive minimum 1'),
    ('exclusiveMaximum', 900, [899, 899.99], [900, 901], 'is 900, not below the exclusive maximum 900'),
])
def test_bounds(keyword, limit, good, bad, message):
    for value in good:
        assert errors({keyword: limit}, value) == [], value
    for value in bad:
        assert len(errors({keyword: limit}, value)) == 1, value
    assert messages({keyword: limit}, bad[0]) == [message]
    assert errors({keyword: limit}, 'not a number') == []      # applies to numbers only (type says the rest)


def test_the_example_of_the_issue():
    assert messages({'type': 'integer', 'maximum': 900}, 1800) == ['is 1800, above the maximum 900']


# --- strings -----------------------------------------------------------------------------------------------------
def test_lengths():
    assert errors({'minLength': 2, 'maxLength': 3}, 'ab') == errors({'minLength': 2, 'maxLength': 3}, 'abc') == []
    assert messages({'minLength': 2}, 'a') == ["is 'a' (1 characters), shorter than the minimum length 2"]
    assert messages({'maxLength': 3}, 'abcd') == ["is 'abcd' (4 characters), longer than the maximum length 3"]
    assert errors({'maxLength': 1}, 'é') == []       # characters, not bytes
    assert errors({'maxLength': 1}, [1, 2, 3]) == []


def test_pattern_searches():
    assert errors({'pattern': 'b'}, 'abc') == []            # search, not match at the start (JSON Schema)
    assert errors({'pattern': '^a.c$'}, 'abc') == []
    assert messages({'pattern': '^b'}, 'abc') == ["'abc' does not match the pattern '^b'"]
    assert errors({'pattern': '^b'}, 12) == []


def test_pattern_text_too_long_for_it_is_a_problem_of_the_value():
    spec = {'pattern': '[a-z]+_key$'}
    (problem,) = messages(spec, 'a' * 200000)
    assert 'too long to search with the pattern' in problem


def test_long_values_are_shown_cut_short():
    (problem,) = messages({'maxLength': 3}, 'x' * 1000)
    assert len(problem) < 200 and '...' in problem
    big = [{'k%d' % index: list(range(20))} for index in range(10 ** 4)]
    (problem,) = messages({'enum': [1]}, big)
    assert problem.startswith("[{'k0': [0, 1, 2,") and problem.endswith('... is not one of [1]') and len(problem) < 200


# --- arrays and maps, nested paths -------------------------------------------------------------------------------
NTP = {
    'type': 'object',
    'required': ['servers'],
    'properties': {
        'servers': {'type': 'array', 'items': {'type': 'string', 'minLength': 1}},
        'makestep': {'type': 'object', 'properties': {'limit': {'type': 'integer', 'maximum': 3}}},
    },
    'additionalProperties': False,
}


def test_nested_paths():
    value = {'servers': ['a', '', 3], 'makestep': {'limit': 5, 'other': 'x'}, 'extra': 1}
    assert errors(NTP, value) == [
        (('servers', 1), "is '' (0 characters), shorter than the minimum length 1"),
        (('servers', 2), 'is an integer, not a string'),
        (('makestep', 'limit'), 'is 5, above the maximum 3'),
        ((), "has the key 'extra', which properties does not allow"),
    ]
    assert errors(NTP, {'servers': ['a'], 'makestep': {'limit': 1}}) == []


def test_required_and_partial():
    assert messages(NTP, {'makestep': {}}) == ["lacks the required key 'servers'"]
    assert errors(NTP, {'makestep': {}}, partial=True) == []
    nested = {'properties': {'a': {'required': ['b']}}}
    assert errors(nested, {'a': {}}) == [(('a',), "lacks the required key 'b'")]
    assert errors(nested, {'a': {}}, partial=True) == []
    assert messages(NTP, {'makestep': 1}, partial=True) == ['is an integer, not a map']      # the rest still holds


def test_additional_properties_as_a_schema():
    spec = {'properties': {'a': {'type': 'string'}}, 'additionalProperties': {'type': 'integer'}}
    assert errors(spec, {'a': 'x', 'b': 1, 'c': 2}) == []
    assert errors(spec, {'a': 'x', 'b': 'y'}) == [(('b',), 'is a string, not an integer')]
    assert errors({'additionalProperties': True}, {'z': 1}) == []
    assert messages({'additionalProperties': False}, {'z': 1}) == ["has the key 'z', which properties does not allow"]
    assert messages({'additionalProperties': False}, {1: 1}) == ["has the key 1, which properties does not allow"]


def test_items():
    assert errors({'items': {'enum': [1, 2]}}, [1, 2, 3]) == [((2,), '3 is not one of [1, 2]')]
    assert errors({'items': {'items': {'type': 'null'}}}, [[None], [None, 0]]) == [((1, 1), 'is an integer, not null')]
    assert errors({'items': {'type': 'string'}}, 'abc') == []


def test_sizes():
    spec = {'minItems': 1, 'maxItems': 2, 'minProperties': 2, 'maxProperties': 2}
    assert errors(spec, [1]) == errors(spec, [1, 2]) == errors(spec, {'a': 1, 'b': 2}) == errors(spec, 'abc') == []
    assert messages(spec, []) == ['has 0 items, fewer than the minimum 1']
    assert messages(spec, [1, 2, 3]) == ['has 3 items, more than the maximum 2']
    assert messages(spec, {'a': 1}) == ['has 1 keys, fewer than the minimum 2']
    assert messages(spec, {'a': 1, 'b': 2, 'c': 3}) == ['has 3 keys, more than the maximum 2']


def test_property_names_check_keys_as_they_are():
    spec = {'propertyNames': {'type': 'string', 'maxLength': 2}, 'additionalProperties': {'type': 'integer'}}
    assert errors(spec, {'a': 1, 'bc': 2}) == []
    assert errors(spec, {1: 1, 'abc': 2, 'd': 'x'}) == [
        ((), 'the key 1: is an integer, not a string'),
        ((), "the key 'abc': is 'abc' (3 characters), longer than the maximum length 2"),
        (('d',), 'is a string, not an integer'),
    ]


def test_limit():
    spec = {'items': {'type': 'string'}}
    assert len(errors(spec, list(range(50)))) == 10
    assert [path for path, message in errors(spec, list(range(50)), limit=3)] == [(0,), (1,), (2,)]
    assert errors(spec, list(range(50)), limit=0) == []


def test_depth_limit():
    spec, value = {}, 'x'
    for index in range(MAX_DEPTH + 2):
        spec, value = {'items': spec}, [value]
    with pytest.raises(SchemaError, match='nests deeper'):
        Schema(spec, WHERE)
    looping = {'type': 'array'}
    looping['items'] = looping
    with pytest.raises(SchemaError, match='refers to itself'):
        Schema(looping, WHERE)
    deep = []
    deep.append(deep)
    with pytest.raises(MergeDepthError):
        errors({'enum': [1]}, deep)


def test_each_value_node_visited_once_per_schema_node(monkeypatch):
    from ansible_collections.strata.hier.plugins.module_utils.core import schema
    calls = []
    original = schema._Run.check

    def counted(self, node, value, path):
        calls.append(path)
        return original(self, node, value, path)

    monkeypatch.setattr(schema._Run, 'check', counted)
    errors({'items': {'properties': {'a': {'items': {'type': 'integer'}}}}}, [{'a': [1, 2, 3]}] * 100)
    assert len(calls) == len(set(calls)) == 1 + 100 + 100 + 300


# --- secrets -----------------------------------------------------------------------------------------------------
def test_a_vault_value_is_a_string_whose_content_is_not_checked(secret):
    content = {'type': 'string', 'enum': ['a'], 'const': 'a', 'pattern': '^a$', 'minLength': 5, 'maxLength': 0}
    assert errors(content, secret) == []
    assert errors({'type': ['string', 'null']}, secret) == []
    assert messages({'type': 'integer'}, secret) == ['is a vault value, not an integer']
    assert errors({'items': {'enum': ['x']}}, ['x', secret]) == []
    assert messages({'enum': [['x']]}, [secret]) != []         # a list holding a secret equals no written list


def test_a_vault_value_is_never_shown(secret):
    (problem,) = messages({'type': 'object'}, secret)
    assert 'VAULT' not in problem
    key = KeySecret('$ANSIBLE_VAULT;1.1;AES256;4567')
    (problem,) = messages({'additionalProperties': False}, {key: 1})
    assert problem == "has the key <KeySecret>, which properties does not allow"
    assert errors({'properties': {'a': {'type': 'string'}}, 'additionalProperties': {'type': 'string'}},
                  {key: secret}) == []
    (problem,) = messages({'enum': [['x']]}, ['y', {'k': [secret]}])
    assert problem == "['y', {'k': [<Secret>]}] is not one of [['x']]"


def test_a_schema_cannot_hold_a_vault_value(secret):
    for spec in ({'enum': ['a', secret]}, {'const': [secret]}):
        with pytest.raises(SchemaError, match='never compared'):
            Schema(spec, WHERE)


# --- bad schemas -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize('spec, message', [
    ({'type': 'int'}, "type: unknown type 'int'"),
    ({'properties': {'servers': {'items': {'type': 'int'}}}}, "properties/servers/items/type: unknown type 'int'"),
    ({'type': ['string', 'string']}, 'type: names a type twice'),
    ({'type': []}, 'type: is a list, not a type name'),
    ({'minimum': 'x'}, 'minimum: is a string, not a number'),
    ({'maximum': True}, 'maximum: is a boolean, not a number'),
    ({'exclusiveMinimum': True}, 'exclusiveMinimum: is a boolean, not a number: since JSON Schema draft 6'),
    ({'minLength': -1}, 'minLength: is -1, not an integer >= 0'),
    ({'maxLength': 1.5}, 'maxLength: is 1.5, not an integer >= 0'),
    ({'pattern': '('}, "pattern: '(' is not a regular expression"),
    ({'pattern': '(a+)+$'}, "pattern: the regular expression '(a+)+$' is refused"),
    ({'pattern': 3}, 'pattern: is an integer, not a regular expression'),
    ({'enum': []}, 'enum: is a list, not a non-empty list'),
    ({'enum': 'a'}, 'enum: is a string, not a non-empty list'),
    ({'items': [{}]}, 'items: is a list: one schema checks every item'),
    ({'items': 'string'}, 'items: a schema is a map of keywords, not a string'),
    ({'properties': ['a']}, 'properties: is a list, not a map'),
    ({'properties': {1: {}}}, 'properties: the key 1 is not a string'),
    ({'required': 'servers'}, "required: is 'servers', not a list of key names"),
    ({'required': ['a', 'a']}, 'required: names a key twice'),
    ({'additionalProperties': 'no'}, 'additionalProperties: a schema is a map of keywords, not a string'),
    ({'minItems': -1}, 'minItems: is -1, not an integer >= 0'),
    ({'maxProperties': 'x'}, "maxProperties: is 'x', not an integer >= 0"),
    ({'propertyNames': {'type': 'str'}}, "propertyNames/type: unknown type 'str'"),
    ({'uniqueItems': True}, "unknown keyword 'uniqueItems'"),
    ({'$ref': '#/x'}, "unknown keyword '$ref'"),
    ('string', 'a schema is a map of keywords, not a string'),
])
def test_bad_schemas(spec, message):
    with pytest.raises(SchemaError) as caught:
        Schema(spec, WHERE)
    assert str(caught.value).startswith(WHERE + ': ')
    assert message in str(caught.value)
    assert isinstance(caught.value, MergeError)


def test_a_bad_schema_names_its_path():
    with pytest.raises(SchemaError) as caught:
        Schema({'properties': {'servers': {'items': {'type': 'int'}}}}, WHERE)
    assert str(caught.value).startswith("constraints 'ntp': type: properties/servers/items/type: unknown type 'int'")


def test_the_schema_is_compiled_once(monkeypatch):
    from ansible_collections.strata.hier.plugins.module_utils.core import schema
    compiled = []
    original = schema.compile_untrusted
    monkeypatch.setattr(schema, 'compile_untrusted', lambda *args, **kwargs: compiled.append(args) or original(*args, **kwargs))
    checker = Schema({'items': {'pattern': '^a'}}, WHERE)
    for index in range(3):
        checker.errors(['a', 'b'])
    assert len(compiled) == 1
