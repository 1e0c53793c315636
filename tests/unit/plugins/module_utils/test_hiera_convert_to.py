# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 30, item 4 (and issue 26, cause 5): Hiera's engine applies convert_to as Puppet 7.23 does (each answer
below was asked of ``puppet lookup``): after the merge and the dig, also for the lookups of interpolation; a value
that does not convert, or a type that is not supported, is an error naming the key, the type and the files."""

from __future__ import annotations

import pytest

from ansible_collections.strata.hier.plugins.module_utils.core.errors import HieraError
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.engine import Explainer
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.test_hiera_core import engine

COMMON = '''lookup_options:
  port: {convert_to: Integer}
  nested: {convert_to: Integer}
  flags: {merge: unique, convert_to: "Array[String, 1, 3]"}
  radix: {convert_to: [Integer, 8]}
  "^enabled_": {convert_to: Boolean}
  ratio: {convert_to: "Float[0, 1]"}
  label: {convert_to: String}
  mode: {convert_to: "Optional[Enum[fast, safe]]"}
  password: {convert_to: "Sensitive[String]"}
port: "8080"
nested: {a: "5"}
flags: [a]
radix: "17"
enabled_x: "yes"
ratio: "0.25"
label: 12
mode: ~
password: hunter2
aliased: "%{alias('port')}"
text: "port %{lookup('port')}"
aliased_secret: "%{alias('password')}"
text_secret: "pw=%{lookup('password')}"
'''


@pytest.fixture
def hiera(tmp_path):
    return engine(tmp_path, {'data/common.yaml': COMMON, 'data/roles/web.yaml': 'flags: [b]\n'})


@pytest.mark.parametrize('key, value', [
    ('port', 8080),                 # puppet lookup: 8080
    ('nested.a', 5),                # the dug value converted by the root key's convert_to
    ('flags', ['b', 'a']),          # merged, then checked
    ('radix', 15),                  # [Integer, 8]: new(Integer, "17", 8)
    ('enabled_x', True),            # a pattern key's convert_to
    ('ratio', 0.25),
    ('label', '12'),
    ('mode', None),
    ('aliased', 8080),              # alias() looks the key up, converted
    ('text', 'port 8080'),
])
def test_convert_to_converts(hiera, key, value):
    found = hiera.lookup(key)
    assert found == value and type(found) is type(value)
    assert not hiera.sensitive


@pytest.mark.parametrize('data, message', [
    ('port: "80a"', "convert_to Integer at {common}: the string '80a' cannot be converted to Integer "
                    "(value at {common})"),
    ('flags: [a]', "does not fit Array[String, 1, 3]: has 4 items, more than the maximum 3 (value at {role})"),
    ('mode: slow', "convert_to Optional[Enum[fast, safe]] at {common}: 'slow' does not fit Optional[Enum[fast, safe]]: "
                   "'slow' is not one of ['fast', 'safe', None]"),
    ('ratio: "1.5"', "'1.5' (converted to 1.5) does not fit Float[0, 1]: is 1.5, above the maximum 1"),
])
def test_a_value_that_does_not_convert_is_an_error(tmp_path, data, message):
    common = '\n'.join(line for line in COMMON.splitlines() if not line.startswith(data.split(':')[0] + ':'))
    key = data.split(':')[0]
    hiera = engine(tmp_path, {'data/common.yaml': common + '\n' + data + '\n',
                              'data/roles/web.yaml': 'flags: [b, c, d]\n' if key == 'flags' else 'x: 1\n'})
    with pytest.raises(HieraError) as caught:
        hiera.lookup(key)
    text = str(caught.value)
    assert text.startswith("Hiera key '%s': convert_to" % key)
    assert message.format(common=str(tmp_path / 'data' / 'common.yaml'),
                          role=str(tmp_path / 'data' / 'roles' / 'web.yaml')) in text


def test_errors_name_the_lookup_options_entry_and_the_value_by_their_key_paths(tmp_path):
    positions = []

    def position(path, keys):
        positions.append((path.rsplit('/', 2)[-2:], keys))
        return '%s%r' % (path.rsplit('/', 1)[-1], keys)

    hiera = engine(tmp_path, {'data/common.yaml': 'lookup_options:\n  "^p": {convert_to: Integer}\nport: x\n',
                              'data/roles/web.yaml': 'port: y\n'})
    hiera._position = position
    with pytest.raises(HieraError) as caught:
        hiera.lookup('port')
    assert str(caught.value) == ("Hiera key 'port': convert_to Integer at common.yaml('lookup_options', '^p', "
                                 "'convert_to'): the string 'y' cannot be converted to Integer (value at "
                                 "web.yaml('port',))")


@pytest.mark.parametrize('convert_to, message', [
    ('Foo', 'the Puppet type Foo is not supported (supported: Integer, Float, Numeric, Boolean, String, Enum'),
    ('"Variant[Integer, String]"', 'the Puppet type Variant is not supported'),
    ('"Integer[1"', "'Integer[1' is not a Puppet type: it ends too early"),
    ('[String, "%x"]', "the arguments '%x' to String.new are not supported"),
])
def test_a_type_that_does_not_map_is_an_error_naming_it(tmp_path, convert_to, message):
    hiera = engine(tmp_path, {'data/common.yaml': 'lookup_options:\n  k: {convert_to: %s}\nk: 1\n' % convert_to})
    with pytest.raises(HieraError) as caught:
        hiera.lookup('k')
    assert str(caught.value).startswith("Hiera key 'k': convert_to at %s: " % (tmp_path / 'data' / 'common.yaml'))
    assert message in str(caught.value)


def test_sensitive_is_answered_and_marked(hiera):
    assert hiera.lookup('password') == 'hunter2' and hiera.sensitive
    assert hiera.lookup('port') == 8080 and not hiera.sensitive
    assert hiera.lookup('aliased_secret') == 'hunter2' and hiera.sensitive      # alias() keeps it Sensitive
    assert hiera.lookup('text_secret') == 'pw=Sensitive [value redacted]'       # as puppet lookup answers


def test_sensitive_is_never_explained(tmp_path):
    explainer = Explainer()
    hiera = engine(tmp_path, {'data/common.yaml': COMMON, 'data/roles/web.yaml': 'password: hunter3\n'},
                   explainer=explainer)
    assert hiera.lookup('password') == 'hunter3'
    hiera.lookup('aliased_secret')
    hiera.lookup('text_secret')
    text = explainer.text()
    assert 'hunter' not in text
    assert 'Found key: "password" value: Sensitive [value redacted]' in text
    assert 'Applying convert_to lookup_option with arguments [Sensitive[String]]' in text


def test_a_sensitive_value_that_does_not_fit_is_not_shown(tmp_path):
    hiera = engine(tmp_path, {'data/common.yaml': 'lookup_options:\n  pw: {convert_to: "Sensitive[Integer]"}\n'
                                                  'pw: hunter2\n'})
    with pytest.raises(HieraError) as caught:
        hiera.lookup('pw')
    assert 'hunter2' not in str(caught.value) and 'the value is sensitive' in str(caught.value)


def test_without_convert_to_nothing_changes(tmp_path):
    hiera = engine(tmp_path, {'data/common.yaml': 'port: "8080"\n'})
    assert hiera.lookup('port') == '8080' and not hiera.sensitive
