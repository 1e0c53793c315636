# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Datum handler expressions: the grammar strata.hier reads instead of running PowerShell."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, strategies as st

from ansible_collections.strata.hier.plugins.module_utils.dialects.datum.expressions import (
    ExpressionError, Reference, SourceFile, Template, evaluate, parse, source_file,
)
from ansible_collections.strata.hier.plugins.module_utils.dialects.datum.syntax import handler_content, is_protected

# Datum.InvokeCommand's regex (Prefix.ps1: '{0}(?<Content>((.|\s)+)?){1}', IgnoreCase), for comparison.
INVOKE_COMMAND = re.compile(r'\[x=(?P<Content>((.|\s)+)?)=\]', re.IGNORECASE)
VALUES = {('node', ('Role',)): 'FileServer', ('node', ('Environment',)): 'Dev', ('node', ('Count',)): 3,
          ('node', ('Enabled',)): True, ('node', ('Missing',)): None,
          ('datum', ('Global', 'Domain', 'DomainFqdn')): 'contoso.com',
          ('file', ('BaseName',)): 'Dev', ('node', ('Map',)): {'a': 1}}


def value_of(reference):
    if isinstance(reference, SourceFile):
        return 'Environment\\Dev'
    return VALUES[(reference.root, reference.parts)]


@pytest.mark.parametrize('text, expected', [
    ('[x={ $Node.Role }=]', 'FileServer'),
    ('[X={$node.Role}=]', 'FileServer'),
    ('[x=   {   $NODE . Role   }   =]', 'FileServer'),
    ('[x= { $Datum.Global.Domain.DomainFqdn } =]', 'contoso.com'),
    ('[x={ Get-DatumSourceFile -Path $File } =]', 'Environment\\Dev'),
    ('[x={ get-datumsourcefile -path:$file }=]', 'Environment\\Dev'),
    ('[x= "$($Node.Role) in $($Node.Environment)" =]', 'FileServer in Dev'),
    ('[x= "C:\\Test\\$($File.BaseName)-Environment" =]', 'C:\\Test\\Dev-Environment'),
    ('[x= "CN=Computers,$( $Datum.Global.Domain.DomainFqdn )" =]', 'CN=Computers,contoso.com'),
    ('[x={ "$($Node.Role)-$($Node.Count)-$($Node.Enabled)-$($Node.Missing)." }=]', 'FileServer-3-True-.'),
    ('[x= "costs 5$ and $ 6, say ""hi""" =]', 'costs 5$ and $ 6, say "hi"'),
    ("[x= 'it''s $($Node.Role)' =]", "it's $($Node.Role)"),
    ('[x={ $Node.Count }=]', 3),
    ('[x={ $Node.Map }=]', {'a': 1}),
    ('[x={ $Node.Missing }=]', None),
])
def test_supported_forms_evaluate_as_datum_does(text, expected):
    assert evaluate(parse(text), value_of) == expected


@pytest.mark.parametrize('text, why', [
    ('[x={ Get-Date }=]', 'is not a reference'),
    ('[x= { if ($Node.Name -like "*file*") { "a" } } =]', 'is not a reference'),
    ('[x={ $Node.Role; Remove-Item C:\\ }=]', 'is not a reference'),
    ('[x= "$Node.Role" =]', 'only inside \\$\\( \\)'),
    ('[x= "$5" =]', 'only inside \\$\\( \\)'),
    ('[x= "$(Get-Date)" =]', 'is not a reference'),
    ('[x= "a`nb" =]', 'escapes'),
    ('[x= "a" + "b" =]', 'escapes'),
    ('[x= $Node.Role =]', 'neither'),
    ('[x={ $File.FullName }=]', 'not a property of \\$File'),
    ('[x={ $Node }=]', 'name a property'),
    ('[x={ $Env.Path }=]', 'is not a reference'),
])
def test_anything_else_is_refused_with_the_supported_forms(text, why):
    with pytest.raises(ExpressionError, match=why) as caught:
        parse(text)
    assert 'supported forms: [x={ $Node.<Prop> }=]' in str(caught.value)
    assert 'runs no PowerShell' in str(caught.value)


def test_the_parsed_form_is_what_was_written():
    handler = parse('pre [x= "$($Node.Role)/$(Get-DatumSourceFile -Path $File)" =] post')
    assert handler.expression == Template((Reference('node', ('Role',)), '/', SourceFile()))
    assert handler.outside == 'pre  post'


def test_maps_and_lists_are_not_written_into_strings():
    with pytest.raises(ExpressionError, match=r'\$Node.Map is a dict; only a scalar'):
        evaluate(parse('[x= "x $($Node.Map)" =]'), value_of)


@given(st.text(alphabet='[x=]{} X\n$"', max_size=14))
@example('[X==]')     # found by this test: an empty content is no handler
def test_handlers_are_found_where_datum_finds_them(text):
    match = INVOKE_COMMAND.search(text)
    found = handler_content(text)
    if match is None or not match.group('Content'):
        assert found is None
    else:
        assert found is not None and found[0] == match.group('Content')


@pytest.mark.parametrize('text, protected', [('[ENC=abc]', True), ('  [enc=abc]\n', True), ('x[ENC=abc]', False),
                                             ('[ENC=', False), ('[ENC=]', True)])
def test_protected_data_is_the_whole_value(text, protected):
    assert is_protected(text) is protected


@pytest.mark.parametrize('relative, expected', [('AllNodes/Dev/DSCFile01.yml', 'AllNodes\\Dev\\DSCFile01'),
                                                ('Roles/Web.Server.yaml', 'Roles\\Web.Server'),
                                                ('Baselines\\DscLcm.json', 'Baselines\\DscLcm')])
def test_source_file_is_written_as_datum_writes_it(relative, expected):
    assert source_file(relative) == expected


def test_a_long_value_parses_in_linear_time():
    text = '[x= "' + '$($Node.Role)' * 20000 + '" =]'
    assert evaluate(parse(text), value_of) == 'FileServer' * 20000


@pytest.mark.parametrize('text', [
    '[x= "' + '$(' * 20000 + '$Node.Role' + ')' * 20000 + '" =]',
    '[x=' + '{' * 20000 + ' $Node.Role ' + '}' * 20000 + '=]',
    '[x=' + '[x=' * 20000 + '{ $Node.Role }' + '=]' * 20000 + '=]',
    "[x= '" + "[x= ''" * 50 + "x" + "'' =]" * 50 + "' =]",
])
def test_deep_nesting_in_one_string_is_refused_without_recursion(text):
    """The grammar reads one level (no recursion): a string nesting parentheses, script blocks or handlers is refused,
    or (a handler written as a literal) gives its text, which the caller evaluates within its depth limit."""
    try:
        value = evaluate(parse(text), value_of)
    except ExpressionError as exc:
        assert 'supported forms' in str(exc)
    else:
        assert isinstance(value, str) and value.startswith('[x= ')
