# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Datum's handler expressions, read by a small grammar of their own: nothing is ever run.

Datum.InvokeCommand evaluates ``[x= ... =]`` with PowerShell. Real Datum repositories (DscWorkshop) only use a
handful of forms, which this module parses and evaluates without PowerShell:

- ``[x={ $Node.Role }=]``, ``[x={ $Datum.Global.Domain.DomainFqdn }=]``, ``[x={ $File.BaseName }=]``
  (``$File.Name``, ``$File.Directory.BaseName``), ``[x={ Get-DatumSourceFile -Path $File }=]``;
- ``[x= "CN=Computers,$($Datum.Global.Domain.DomainDn)" =]``: a double-quoted string with any number of
  ``$( <reference> )`` parts (also inside ``{ }``), and ``[x= 'literal' =]``.

Anything else is an ``ExpressionError`` listing these forms. Names compare case-insensitively, as in PowerShell.
The caller gives the values of references (``Evaluator``): this module knows no store.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Tuple, Union

from ansible_collections.strata.hier.plugins.module_utils.dialects.datum.syntax import handler_content
from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeError
from ansible_collections.strata.hier.plugins.module_utils.core.records import Record

SUPPORTED_FORMS = ('[x={ $Node.<Prop> }=], [x={ $Datum.<A>.<B> }=], [x={ $File.BaseName }=] ($File.Name, '
                   '$File.Directory.BaseName), [x={ Get-DatumSourceFile -Path $File }=], and '
                   '[x= "text $($Node.<Prop>) $($Datum.<A>.<B>) $($File.BaseName)" =] (also inside { }), '
                   "[x= 'literal text' =]")
FILE_PROPERTIES = {('basename',): 'BaseName', ('name',): 'Name', ('directory', 'basename'): 'Directory.BaseName',
                   ('directory', 'name'): 'Directory.Name'}

_NAME = r'[A-Za-z_][A-Za-z0-9_]*'
_REFERENCE = re.compile(r'\$(node|datum|file)((?:\s*\.\s*%s)*)$' % _NAME, re.IGNORECASE)
_SOURCE_FILE = re.compile(r'get-datumsourcefile\s+(?:-path\s*:?\s*)?\$file$', re.IGNORECASE)


class ExpressionError(MergeError):
    """A handler expression that strata.hier does not evaluate (it would need PowerShell)."""


class Reference(Record):
    """``$Node.A.B``, ``$Datum.A.B`` or ``$File.BaseName``: ``root`` is node, datum or file."""

    root: str
    parts: Tuple[str, ...]

    def __str__(self) -> str:
        return '$%s%s' % (self.root.capitalize(), ''.join('.' + part for part in self.parts))


class SourceFile(Record):
    """``Get-DatumSourceFile -Path $File``."""


class Template(Record):
    """A double-quoted string: literal text and references, joined as text."""

    parts: Tuple[Union[str, Reference, SourceFile], ...]


class Handler(Record):
    """A parsed ``[x= ... =]`` value: its expression and the text around it (which Datum drops)."""

    expression: Union[Reference, SourceFile, Template]
    outside: str


Evaluator = Callable[[Union[Reference, SourceFile]], Any]
"""Gives the value of a reference (the caller's store, node and file)."""


def parse(text: str) -> Handler:
    """The handler in ``text`` (which must hold one: see ``handler_content``)."""
    found = handler_content(text)
    if found is None:
        raise ExpressionError('%r holds no [x= ... =] handler' % _shorten(text))
    content, outside = found
    return Handler(_parse_content(content.strip(), text), outside)


def _parse_content(content: str, text: str) -> Union[Reference, SourceFile, Template]:
    if len(content) >= 2 and content[0] == '{' and content[-1] == '}':
        return _parse_body(content[1:-1].strip(), text)
    if len(content) >= 2 and content[0] == content[-1] and content[0] in '"\'':
        return _parse_string(content, text)
    raise _unsupported(text, 'it is neither { script block }, "string" nor \'string\'')


def _parse_body(body: str, text: str) -> Union[Reference, SourceFile, Template]:
    """What a script block may hold: one reference, Get-DatumSourceFile, or one string."""
    if len(body) >= 2 and body[0] == body[-1] and body[0] in '"\'':
        return _parse_string(body, text)
    return _parse_reference(body, text)


def _parse_reference(body: str, text: str) -> Union[Reference, SourceFile]:
    if _SOURCE_FILE.match(body):
        return SourceFile()
    match = _REFERENCE.match(body)
    if match is None:
        raise _unsupported(text, '%r is not a reference strata.hier reads' % _shorten(body))
    parts = tuple(part.strip() for part in match.group(2).split('.')[1:])
    reference = Reference(match.group(1).lower(), parts)
    if reference.root == 'file' and tuple(part.lower() for part in parts) not in FILE_PROPERTIES:
        raise _unsupported(text, '%s is not a property of $File strata.hier knows (%s)'
                           % (reference, ', '.join('$File.' + name for name in FILE_PROPERTIES.values())))
    if reference.root != 'file' and not parts:
        raise _unsupported(text, '%s alone is the whole %s; name a property' % (reference, reference.root))
    return reference


def _parse_string(quoted: str, text: str) -> Template:
    quote, inner = quoted[0], quoted[1:-1]
    if quote == "'":
        if "'" in inner.replace("''", ''):
            raise _unsupported(text, 'a quote ends the string early')
        return Template((inner.replace("''", "'"),))
    if '"' in inner.replace('""', '') or '`' in inner:
        raise _unsupported(text, 'escapes (` and inner quotes) are not read')
    return Template(tuple(_template_parts(inner.replace('""', '"'), text)))


def _template_parts(inner: str, text: str) -> list:
    """Literal text and ``$( reference )`` parts; ``$`` followed by no name or ``(`` is literal, as in PowerShell."""
    parts: list = []
    literal, position = '', 0
    while position < len(inner):
        char = inner[position]
        following = inner[position + 1:position + 2]
        if char == '$' and following == '(':
            close = inner.find(')', position)
            if close < 0:
                raise _unsupported(text, '$( has no closing )')
            if literal:
                parts.append(literal)
                literal = ''
            parts.append(_parse_reference(inner[position + 2:close].strip(), text))
            position = close + 1
        elif char == '$' and (following.isalnum() or following in '_{:?^'):
            raise _unsupported(text, 'a variable in a string is expanded only inside $( ), such as $($Node.Role)')
        else:
            literal += char
            position += 1
    if literal or not parts:
        parts.append(literal)
    return parts


def evaluate(handler: Handler, value_of: Evaluator) -> Any:
    """The handler's value: a reference's value as it is (any type), or a string's text."""
    expression = handler.expression
    if isinstance(expression, Template):
        return ''.join(part if isinstance(part, str) else as_text(value_of(part), part) for part in expression.parts)
    return value_of(expression)


def as_text(value: Any, reference: Union[Reference, SourceFile]) -> str:
    """A value inside a string as PowerShell writes it (True, False, '' for null); maps and lists are refused."""
    if value is None:
        return ''
    if isinstance(value, bool):
        return 'True' if value else 'False'
    if isinstance(value, (str, int, float)):
        return str(value)
    raise ExpressionError('%s is a %s; only a scalar can be written into a string'
                          % (_reference_text(reference), type(value).__name__))


def source_file(relative: str) -> str:
    """Get-DatumSourceFile: a path relative to the store, without extension, ``\\``-separated."""
    parts = re.split(r'[\\/]', relative)
    parts[-1] = parts[-1].rsplit('.', 1)[0] if '.' in parts[-1] else parts[-1]
    return '\\'.join(parts)


def _reference_text(reference: Union[Reference, SourceFile]) -> str:
    return 'Get-DatumSourceFile -Path $File' if isinstance(reference, SourceFile) else str(reference)


def _unsupported(text: str, why: str) -> ExpressionError:
    return ExpressionError('the Datum handler %r is not evaluated (%s): strata.hier runs no PowerShell; '
                           'supported forms: %s' % (_shorten(text), why, SUPPORTED_FORMS))


def _shorten(text: str) -> str:
    text = ' '.join(text.split())
    return text if len(text) <= 80 else text[:77] + '...'
