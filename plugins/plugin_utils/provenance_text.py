# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Provenance records (provenance_report.py) as text: ``# file:line`` comments in written YAML (the rsop role's
``inline``), a JSON file of records (``sidecar``) and the short forms of values and places both use.

Vault values are shown as ``!vault`` in comments and as ``{"__ansible_vault": ciphertext}`` in JSON, never
decrypted: ``vault_of`` (the caller's, compat.vault_ciphertext) tells a vault value by its ciphertext.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple

import yaml

from ansible_collections.strata.hier.plugins.module_utils.core.identity import shown_path
from ansible_collections.strata.hier.plugins.plugin_utils.compat import plain_scalar
from ansible_collections.strata.hier.plugins.plugin_utils.walk import rebuild
from ansible_collections.strata.hier.plugins.plugin_utils.source_lines import file_line

VaultOf = Callable[[Any], Optional[str]]

BRIEF_LIMIT = 200
"""Characters of a value shown in a comment; the file and line it names hold the rest."""

_PLAIN = re.compile(r'^[A-Za-z0-9_./@+~][A-Za-z0-9_./@+~:=-]*$')


def plain_records(records: Any, vault_of: VaultOf, wrappers: int = 4) -> Any:
    """Records as builtin types, vault values kept: from 2.19 a templated vault value may be its plain text tagged
    with the ciphertext, which compat.plain would turn into the plain text."""
    return rebuild(records, lambda value: value if vault_of(value) is not None else plain_scalar(value), wrappers=wrappers)


def brief(value: Any, vault_of: VaultOf) -> str:
    """A value on one line, YAML flow style: strings bare where that reads back as the same string."""
    text = _brief(value, vault_of)
    return text if len(text) <= BRIEF_LIMIT else text[:BRIEF_LIMIT - 3] + '...'


def _brief(value: Any, vault_of: VaultOf) -> str:
    if vault_of(value) is not None or (isinstance(value, dict) and list(value) == ['__ansible_vault']):
        return '!vault'    # a vault value, or one as jsonable gives it
    if isinstance(value, dict):
        return '{%s}' % ', '.join('%s: %s' % (_brief(key, vault_of), _brief(item, vault_of))
                                  for key, item in value.items())
    if isinstance(value, (list, tuple)):
        return '[%s]' % ', '.join(_brief(item, vault_of) for item in value)
    if isinstance(value, str):
        return value if _reads_as_itself(value) else json.dumps(str(value), ensure_ascii=False)
    if value is None or isinstance(value, (bool, int, float)):
        return json.dumps(value)
    return json.dumps(str(value), ensure_ascii=False)


def _reads_as_itself(text: str) -> bool:
    if not _PLAIN.match(text) or text.endswith(':'):
        return False
    try:
        return yaml.safe_load(text) == text
    except yaml.YAMLError:
        return False


def position(where: Dict[str, Any]) -> str:
    """``file:line``, the file alone when the line is not known, ``(unknown)`` without a file."""
    text = where.get('file') or '(unknown)'
    if where.get('withheld'):
        return '%s (withheld)' % text
    return file_line(text, where.get('line'))


def below_lines(record: Dict[str, Any], vault_of: VaultOf, values: bool = True) -> List[str]:
    """The comment lines under a value: what it shadowed and what knockouts removed (values left out when not
    ``values``, for withheld data)."""
    lines = []
    for definition in record.get('shadowed', ()):
        shown = ('%s at ' % brief(definition['value'], vault_of)) if values and 'value' in definition else ''
        lines.append('shadows %s%s' % (shown, position(definition)))
    for removal in record.get('removed', ()):
        shown = brief(removal['value'], vault_of) if values and 'value' in removal else 'a value'
        lines.append('removed %s (%s) by the marker at %s' % (shown, position(removal), position(removal['marker'])))
    return lines


def key_records(records: Dict[str, Any], keys: Iterable[Any]) -> Dict[str, Dict[str, Any]]:
    """The records of the given top-level keys, by path (the key's own and those below it)."""
    prefixes = tuple(shown_path([key]) + '/' for key in keys)
    own = set(prefix[:-1] for prefix in prefixes)
    return {path: record for path, record in records.items() if path in own or path.startswith(prefixes)}


def withheld_keys(records: Dict[str, Any], keys: Iterable[Any]) -> List[Any]:
    """The keys some of whose records come from whole-file vaulted data (plain once loaded). What a value shadowed
    or a knockout removed is not in it, and its records give no value for such data."""
    return [key for key in keys if any(record.get('withheld') for record in key_records(records, [key]).values())]


class _Notes:
    """Comments to add to a YAML text: after a line (``# ...``) and as lines of their own below a line."""

    def __init__(self, lines: List[str]) -> None:
        self.lines = lines
        self.trailing: Dict[int, List[Tuple[str, str]]] = {}
        self.below: Dict[int, List[str]] = {}

    def trail(self, line: int, text: str, label: str) -> None:
        """A comment after the line; a second one on the same line (a map in a list) names its key, the same place
        twice is said once."""
        kept = self.trailing.setdefault(line, [])
        if all(text != earlier for earlier, _label in kept):
            kept.append((text, label))

    def add_below(self, line: int, column: int, texts: Sequence[str]) -> None:
        self.below.setdefault(line, []).extend('%s# %s' % (' ' * column, text) for text in texts)

    def text(self) -> str:
        out = []
        for number, line in enumerate(self.lines):
            trailing = self.trailing.get(number)
            texts = [text if index == 0 else '%s %s' % (label, text) for index, (text, label) in enumerate(trailing or ())]
            out.append('%s  # %s' % (line, ', '.join(texts)) if texts else line)
            out.extend(self.below.get(number, ()))
        return '\n'.join(out) + '\n'


class Annotation:
    """The records of written data as comments on the lines of its YAML (the rsop role's ``inline``).

    ``same(record_value, written)`` tells whether a written scalar is the value its record names (a value set
    outside the hierarchy, such as a host_vars file, is not); ``withheld``: top-level keys written as withheld,
    whose comments name places only.
    """

    def __init__(self, records: Dict[str, Any], vault_of: VaultOf, same: Callable[[Any, Any], bool],
                 withheld: Set[Any]) -> None:
        self.records = records
        self.vault_of = vault_of
        self.same = same
        self.withheld = withheld

    def annotate(self, text: str, data: Any) -> str:
        """``text``, the YAML of ``data`` (block style, as written), with a comment per value that has a record."""
        root = yaml.compose(text, Loader=getattr(yaml, 'CSafeLoader', yaml.SafeLoader))
        notes = _Notes(text.rstrip('\n').split('\n'))
        if isinstance(root, yaml.MappingNode) and isinstance(data, dict):
            self._map(notes, root, data, ())
        return notes.text()

    def _map(self, notes: _Notes, node: Any, data: Dict[Any, Any], path: Tuple[Any, ...]) -> None:
        for (key_node, value_node), (key, value) in zip(node.value, data.items()):
            line, column = key_node.start_mark.line, key_node.start_mark.column
            self._value(notes, path + (key,), value_node, value, line, column)

    def _sequence(self, notes: _Notes, node: Any, data: List[Any], path: Tuple[Any, ...]) -> None:
        for index, (item_node, item) in enumerate(zip(node.value, data)):
            line = item_node.start_mark.line
            dash = notes.lines[line].rfind('-', 0, item_node.start_mark.column)
            self._value(notes, path + (index,), item_node, item, line, max(dash, 0))

    def _value(self, notes: _Notes, path: Tuple[Any, ...], node: Any, value: Any, line: int, column: int) -> None:
        record = self.records.get(shown_path(path))
        values = path[0] not in self.withheld
        if isinstance(node, yaml.ScalarNode):
            last = _last_line(node)
            trail_line = node.start_mark.line if node.style in ('|', '>') else last
            after = last
        else:
            trail_line = node.end_mark.line if node.flow_style else line
            after = line
        if len(path) > 1 and not values:
            return
        notes.trail(trail_line, self._where(record, node, value, values), brief(path[-1], self.vault_of))
        if record is not None:
            notes.add_below(after, column, below_lines(record, self.vault_of, values))
        if values and isinstance(node, yaml.MappingNode) and isinstance(value, dict):
            self._map(notes, node, value, path)
        elif values and isinstance(node, yaml.SequenceNode) and isinstance(value, list):
            self._sequence(notes, node, value, path)

    def _where(self, record: Optional[Dict[str, Any]], node: Any, value: Any, values: bool) -> str:
        """The trailing comment of a value."""
        if record is None:
            return '(no provenance)'
        text = position(record)
        if values and isinstance(node, yaml.ScalarNode) and 'value' in record and not self.same(record['value'], value):
            text += ' (set outside the hierarchy, which has %s there)' % brief(record['value'], self.vault_of)
        return text


def _last_line(node: Any) -> int:
    """The last line a scalar takes (a block scalar's end mark is the start of the line after it)."""
    end = node.end_mark
    if end.column == 0 and end.line > node.start_mark.line:
        return end.line - 1
    return end.line


def records_json(records: Dict[str, Any], vault_of: VaultOf, withheld: Iterable[Any] = ()) -> str:
    """Records as JSON with sorted keys (stable for diffs), vault values as ``{"__ansible_vault": ciphertext}``;
    the records of ``withheld`` keys without any value."""
    hidden = key_records(records, withheld)
    shown = {path: _without_values(record) if path in hidden else record for path, record in records.items()}
    return json.dumps(jsonable(shown, vault_of), indent=1, sort_keys=True, ensure_ascii=False) + '\n'


def _without_values(record: Dict[str, Any]) -> Dict[str, Any]:
    kept = {name: item for name, item in record.items() if name != 'value'}
    for name in ('shadowed', 'removed'):
        if name in kept:
            kept[name] = [{field: item for field, item in entry.items() if field != 'value'} for entry in kept[name]]
    return kept


def jsonable(value: Any, vault_of: VaultOf) -> Any:
    """Builtin JSON types, vault values as ``{"__ansible_vault": ciphertext}`` (never decrypted)."""
    ciphertext = vault_of(value)
    if ciphertext is not None:
        return {'__ansible_vault': ciphertext}
    if isinstance(value, dict):
        return {str(key): jsonable(item, vault_of) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(item, vault_of) for item in value]
    if value is None or isinstance(value, bool):
        return value
    for kind in (str, int, float):
        if isinstance(value, kind):
            return kind(value)
    return str(value)
