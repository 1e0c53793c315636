# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The reverse of provenance: which hosts and key paths a line (or file) of the data takes part in.

A line **feeds** a path when the path's record is written there, is **shadowed** there when the record's
``shadowed`` names it, **knocks out** a value when a ``removed`` entry's marker is there and is **knocked out**
when the removed value itself is there (records: provenance_report.py). The ``strata.hier.blame`` filter and
playbook: each host's records matched where its worker runs (``blame``), the small reports combined once
(``combine``), then written as text or JSON.
"""

from __future__ import annotations

import json
import os
import re
import textwrap
from typing import Any, Dict, Iterable, List, Optional, Tuple

from ansible_collections.strata.hier.plugins.plugin_utils.provenance_text import VaultOf, brief, jsonable, position
from ansible_collections.strata.hier.plugins.plugin_utils.source_lines import file_line

HOW_ORDER = ('fed', 'shadowed', 'knocks out', 'knocked out')


class WhereError(ValueError):
    """A ``where`` that names no file (and line)."""


def parse_where(where: Any) -> Tuple[str, Optional[int]]:
    """``file:line`` or ``file`` -> (file as records give it, line or None)."""
    if not isinstance(where, str) or not where.strip():
        raise WhereError('where must be a file of the data, relative to the configuration\'s folder, with or without '
                         ':line (such as data/common.yml:4), not %r' % (where,))
    text = where.strip()
    match = re.match(r'^(.*):(\d+)$', text)
    path, line = (match.group(1), int(match.group(2))) if match else (text, None)
    if line is not None and line < 1:
        raise WhereError('where: the line must be 1 or more, not %d' % line)
    return os.path.normpath(path), line


def _at(entry: Dict[str, Any], path: str, line: Optional[int]) -> bool:
    return entry.get('file') == path and (line is None or entry.get('line') == line)


def _matches(key_path: str, record: Dict[str, Any], path: str, line: Optional[int]) -> List[Dict[str, Any]]:
    """What the line does at one key path of one host (values as jsonable gives them)."""
    found = []
    if _at(record, path, line):
        found.append(_match(key_path, 'fed', record, record, None))
    for definition in record.get('shadowed', ()):
        if _at(definition, path, line):
            found.append(_match(key_path, 'shadowed', definition, definition, record))
    for removal in record.get('removed', ()):
        if _at(removal['marker'], path, line):
            found.append(_match(key_path, 'knocks out', removal['marker'], removal, removal))
        if _at(removal, path, line):
            found.append(_match(key_path, 'knocked out', removal, removal, removal['marker']))
    return found


def _match(key_path: str, how: str, at: Dict[str, Any], valued: Dict[str, Any], other: Optional[Dict[str, Any]]
           ) -> Dict[str, Any]:
    """One match; the value of ``valued`` and, for a shadowed value, what shadowed it. Values are kept as
    ``jsonable`` gives them (vault values as ``{"__ansible_vault": ciphertext}``): the playbook's hosts hand their
    matches on as facts, which ansible-core 2.16 templates again, decrypting vault objects."""
    match = {'path': key_path, 'how': how, 'file': at.get('file'), 'line': at.get('line')}
    if 'value' in valued:
        match['value'] = valued['value']
    if other is not None:
        match['other'] = {'file': other.get('file'), 'line': other.get('line')}
        if how == 'shadowed' and 'value' in other:
            match['other']['value'] = other['value']
    return match


def blame(records_by_host: Dict[str, Dict[str, Any]], where: Any, vault_of: VaultOf) -> Dict[str, Any]:
    """The report of ``where`` over the hosts' records: ``{where, hosts, file_named, matches}``, each match a key
    path, what the line does there, the value and the other place involved, and the hosts, grouped."""
    path, line = parse_where(where)
    hosts = sorted(records_by_host)
    matches: List[Tuple[str, Dict[str, Any]]] = []
    named = False
    for host in hosts:
        for key_path, record in records_by_host[host].items():
            named = named or _names_file(record, path)
            matches.extend((host, jsonable(match, vault_of)) for match in _matches(key_path, record, path, line))
    return {'where': _where_text(path, line), 'hosts': hosts, 'file_named': named,
            'matches': _grouped(matches, vault_of)}


def _names_file(record: Dict[str, Any], path: str) -> bool:
    entries = [record] + list(record.get('shadowed', ())) + list(record.get('removed', ()))
    return any(entry.get('file') == path or entry.get('marker', {}).get('file') == path for entry in entries)


def _where_text(path: str, line: Optional[int]) -> str:
    return file_line(path, line)


def combine(reports: Iterable[Dict[str, Any]], where: Any, vault_of: VaultOf) -> Dict[str, Any]:
    """One report of several (each host's, as the playbook's workers make them) for the same ``where``."""
    path, line = parse_where(where)
    hosts: List[str] = []
    named = False
    matches = []
    for report in reports:
        if report.get('where') != _where_text(path, line):
            raise WhereError('cannot combine a report of %s with one of %s'
                             % (report.get('where'), _where_text(path, line)))
        hosts.extend(report['hosts'])
        named = named or report['file_named']
        for match in report['matches']:
            fields = {name: item for name, item in match.items() if name != 'hosts'}
            matches.extend((host, fields) for host in match['hosts'])
    return {'where': _where_text(path, line), 'hosts': sorted(hosts), 'file_named': named,
            'matches': _grouped(matches, vault_of)}


def _grouped(matches: List[Tuple[str, Dict[str, Any]]], vault_of: VaultOf) -> List[Dict[str, Any]]:
    """Matches that differ only by host as one, with its hosts sorted; by key path, then what, then line."""
    groups: Dict[str, Dict[str, Any]] = {}
    for host, match in matches:
        identity = json.dumps(jsonable(match, vault_of), sort_keys=True)
        groups.setdefault(identity, dict(match, hosts=[]))['hosts'].append(host)
    for group in groups.values():
        group['hosts'].sort()
    return sorted(groups.values(), key=_order)


def _order(match: Dict[str, Any]) -> Tuple[Any, ...]:
    parts = tuple((0, int(part), '') if part.isdigit() else (1, 0, part) for part in match['path'].split('/'))
    return (parts, HOW_ORDER.index(match['how']), match.get('file') or '', match.get('line') or 0,
            match['hosts'][0])


def report_json(report: Dict[str, Any], vault_of: VaultOf) -> str:
    return json.dumps(jsonable(report, vault_of), indent=1, sort_keys=True, ensure_ascii=False) + '\n'


def report_text(report: Dict[str, Any], vault_of: VaultOf, width: int = 100) -> str:
    """The report for people: per key path, one paragraph per thing the line does, with its hosts."""
    matches = report['matches']
    where = report['where']
    count = len(report['hosts'])
    if not matches:
        text = '%s feeds, shadows or knocks out nothing on the %d hosts examined.' % (where, count)
        if not report['file_named']:
            text += ('\nNo record names the file %s: give its path relative to the hierarchy configuration\'s folder, '
                     'as provenance records do (such as data/common.yml).' % re.sub(r':\d+$', '', where))
        return text + '\n'
    pairs = sum(len(match['hosts']) for match in matches)
    lines = ['%s: %d host x key path pairs on %d of the %d hosts examined.'
             % (where, pairs, len(set(host for match in matches for host in match['hosts'])), count)]
    last = None
    for match in matches:
        if match['path'] != last:
            lines.extend(['', match['path']])
            last = match['path']
        hosts = match['hosts']
        head = '  %s on %d host%s: ' % (_sentence(match, vault_of), len(hosts), '' if len(hosts) == 1 else 's')
        lines.extend(textwrap.wrap(head + ', '.join(hosts), width=width, subsequent_indent='      ',
                                   break_on_hyphens=False, break_long_words=False))
    return '\n'.join(lines) + '\n'


def _sentence(match: Dict[str, Any], vault_of: VaultOf) -> str:
    at = position(match)
    shown = (' %s' % brief(match['value'], vault_of)) if 'value' in match else ''
    other = match.get('other') or {}
    if match['how'] == 'fed':
        what = 'item' if match['path'].rsplit('/', 1)[-1].isdigit() else 'key'
        return '%s feeds%s' % (at, shown or ' the %s' % what)
    if match['how'] == 'shadowed':
        by = ('%s at ' % brief(other['value'], vault_of)) if 'value' in other else ''
        return '%s%s is shadowed by %s%s' % (at, shown and ' (%s)' % shown.strip(), by, position(other))
    if match['how'] == 'knocks out':
        return '%s knocks out%s (%s)' % (at, shown or ' a value', position(other))
    return '%s%s is knocked out by the marker at %s' % (at, shown and ' (%s)' % shown.strip(), position(other))
