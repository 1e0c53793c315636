# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The rsop diff's report: each change with its causes, hosts with the same changes grouped, the edits that change
nothing (shadowed or dead), as JSON (schema ``strata.hier/rsop-diff/v1``) and as markdown for a pull request.

A change's causes are the changed lines (``git diff base head``) among the provenance of the path at either ref: the
lines of the value and of what is below it, what it shadowed, the knockout markers above it; or a named cause that is
no line (the configuration changed, the host's level paths changed, its node file was added or removed).
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Iterator, List, Optional, Set, Tuple

from ansible_collections.strata.hier.plugins.plugin_utils.store import DATA_EXTENSIONS
from ansible_collections.strata.hier.plugins.plugin_utils.source_lines import file_line

SCHEMA = 'strata.hier/rsop-diff/v1'
MARKDOWN_LIMIT = 60000
Line = Tuple[str, int, str]
"""A changed line: (file relative to the repository's top, line, 'base' or 'head')."""


class HostDiff:
    """One host's diff: its data at each ref (None: not a host there) and the changes."""

    __slots__ = ('name', 'before', 'after', 'changes', '_indexes')

    def __init__(self, name: str, before: Any, after: Any) -> None:
        self.name, self.before, self.after = name, before, after
        self.changes: List[Any] = []
        self._indexes: Optional[Tuple[RecordIndex, RecordIndex]] = None

    @property
    def indexes(self) -> Tuple['RecordIndex', 'RecordIndex']:
        """The records of each side indexed (once, for all the host's changes)."""
        if self._indexes is None:
            self._indexes = (RecordIndex(self.before.records), RecordIndex(self.after.records))
        return self._indexes


class _Context:
    """What causes are looked up in: the changed lines of each side, the configuration, the refs' names."""

    def __init__(self, changes: Any, config: str, refs: List[str], sides: List[Any]) -> None:
        self.roots = {'base': sides[0].root, 'head': sides[1].root}
        self.datadirs = {'base': sides[0].datadir.replace(os.sep, '/'), 'head': sides[1].datadir.replace(os.sep, '/')}
        self._texts: Dict[Tuple[str, str], List[str]] = {}
        self.lines = {'base': changes.base_lines, 'head': changes.head_lines}
        self.removed_lines = changes.removed_lines
        self.added, self.deleted = changes.added, changes.deleted
        self.config, self.config_dir = config, os.path.dirname(config)
        self.config_changed = config in changes.files
        self.refs = {'base': refs[0], 'head': refs[1]}

    def changed(self, file: Optional[str], line: Optional[int], side: str) -> bool:
        return bool(file and line) and line in self.lines[side].get(self.in_repo(file), ())

    def in_repo(self, file: str) -> str:
        return os.path.normpath(os.path.join(self.config_dir, file)).replace(os.sep, '/')

    def text_of(self, line: Line) -> Optional[str]:
        """The text of a changed line at its ref."""
        file, number, side = line
        texts = self._texts.get((file, side))
        if texts is None:
            try:
                with open(os.path.join(self.roots[side], file), encoding='utf-8', errors='replace') as stream:
                    texts = stream.read().splitlines()
            except OSError:
                texts = []
            self._texts[(file, side)] = texts
        return texts[number - 1] if 0 < number <= len(texts) else None


class RecordIndex:
    """A host's records (path -> record, in the order of the value: a path's descendants follow it), so that the
    records at and below a path are found without reading all of them."""

    def __init__(self, records: Dict[str, Any]) -> None:
        self.records = records
        self._paths = list(records)
        self._position = {path: index for index, path in enumerate(self._paths)}

    def at_and_below(self, path: str) -> Iterator[Dict[str, Any]]:
        start = self._position.get(path)
        if not path:
            yield from self.records.values()
            return
        if start is None:       # a path no record names (a list a removed item was in): its descendants anywhere
            yield from (record for key, record in self.records.items() if key.startswith(path + '/'))
            return
        for key in self._paths[start:]:
            if key != path and not key.startswith(path + '/'):
                break
            yield self.records[key]

    def above(self, path: str) -> Iterator[Tuple[str, Dict[str, Any]]]:
        parts = path.split('/')
        for size in range(len(parts) - 1, 0, -1):
            key = '/'.join(parts[:size])
            if key in self.records:
                yield key, self.records[key]


def _record_lines(index: RecordIndex, path: str) -> Iterator[Tuple[str, Optional[int], str]]:
    """(file, line, how) of the records at and below ``path``, and of the knockouts and item identities of the paths
    above it."""
    for record in index.at_and_below(path):
        yield from _own_lines(record)
    for record_path, record in index.above(path):
        for removed in record.get('removed', ()):
            yield removed['marker'].get('file'), removed['marker'].get('line'), 'marker'
        if record_path.rpartition('/')[2].isdigit():   # a list item holding the path: what identifies it
            yield record.get('file'), record.get('line'), 'item'
            for merged in record.get('merged', ()):
                yield merged.get('file'), merged.get('line'), 'item'


def _own_lines(record: Dict[str, Any]) -> Iterator[Tuple[str, Optional[int], str]]:
    """A record's lines: its value's (all of them), what it shadowed, what was removed and by which marker."""
    if record.get('withheld'):
        yield record.get('file'), None, 'withheld'
    for line in range(record.get('line') or 0, (record.get('end_line') or record.get('line') or 0) + 1):
        yield record.get('file'), line, 'value'
    for shadowed in record.get('shadowed', ()):
        yield shadowed.get('file'), shadowed.get('line'), 'shadowed'
    for removed in record.get('removed', ()):
        yield removed.get('file'), removed.get('line'), 'removed'
        yield removed['marker'].get('file'), removed['marker'].get('line'), 'marker'


def causes_of(change: Any, diff: HostDiff, context: _Context) -> List[Dict[str, Any]]:
    """The changed lines behind a change (module docstring), else its named causes."""
    found: List[Dict[str, Any]] = []
    seen: Set[Line] = set()
    for side, index, path in (('head', diff.indexes[1], change.path), ('base', diff.indexes[0], change.base_path)):
        for file, line, how in _record_lines(index, path):
            if how == 'withheld' and file and context.in_repo(file) in context.lines[side]:
                cause = {'cause': 'whole-file vaulted file changed', 'file': context.in_repo(file)}
                if cause not in found:
                    found.append(cause)
            elif context.changed(file, line, side) and (context.in_repo(file), line, side) not in seen:
                seen.add((context.in_repo(file), line, side))
                found.append({'file': context.in_repo(file), 'line': line, 'ref': context.refs[side]})
    return found or _named_causes(diff, context)


def _named_causes(diff: HostDiff, context: _Context) -> List[Dict[str, Any]]:
    causes: List[Dict[str, Any]] = []
    if context.config_changed:
        causes.append({'cause': 'configuration changed', 'file': context.config})
    if diff.before.levels != diff.after.levels:
        causes.append({'cause': 'level paths changed', 'from': diff.before.levels, 'to': diff.after.levels})
        node_lines = sorted(context.lines['head'].get(diff.after.node_file, ()))
        causes.extend({'file': diff.after.node_file, 'line': line, 'ref': context.refs['head']} for line in node_lines)
    for side, host in (('head', diff.after), ('base', diff.before)):
        files = {context.in_repo(record['file']) for record in host.records.values() if record.get('file')}
        for file in sorted(files & (context.added if side == 'head' else context.deleted)):
            causes.append({'cause': 'level file added' if side == 'head' else 'level file removed', 'file': file})
    return causes or [{'cause': 'unexplained'}]


def build_report(refs: List[str], sides: List[Any], diffs: Dict[str, HostDiff], changes: Any, recomputed: int,
                 config: str) -> Dict[str, Any]:
    """The JSON report (schema v1)."""
    context = _Context(changes, config, refs, sides)
    entries: Dict[str, List[Dict[str, Any]]] = {}
    errors: List[Dict[str, Any]] = []
    caused: Dict[Line, Set[str]] = {}
    for name, diff in diffs.items():
        host_changes = _host_changes(diff, context, errors, caused)
        if host_changes:
            entries[name] = host_changes
    shadowed, dead = _edits(diffs, context, caused)
    groups = _groups(entries)
    return {
        'schema': SCHEMA, 'base': refs[0], 'head': refs[1], 'config': config,
        'summary': {'hosts_total': len(set(sides[0].hosts) | set(sides[1].hosts)), 'hosts_changed': len(entries),
                    'values_changed': sum(len(changes) for changes in entries.values()), 'errors': len(errors),
                    'shadowed_edits': len(shadowed), 'dead_edits': len(dead), 'hosts_recomputed': recomputed},
        'groups': groups, 'shadowed_edits': shadowed, 'dead_edits': dead, 'errors': errors,
        'refused_nodes': sorted(set(sides[0].refused) | set(sides[1].refused)),
        'warnings': _configuration_warnings(refs, sides),
    }


def _configuration_warnings(refs: List[str], sides: List[Any]) -> List[str]:
    """What reading each ref's configuration warned about (a Datum.yml's keys Datum ignores...), its files named
    relative to the repository, once when both refs warn alike."""
    found: Dict[str, List[str]] = {}
    for ref, side in zip(refs, sides):
        for warning in side.hierarchy.config.warnings:
            found.setdefault(warning.replace(side.root + os.sep, ''), []).append(ref)
    return ['%s (%s)' % (warning, ', '.join(found_in)) for warning, found_in in found.items()]


def _host_changes(diff: HostDiff, context: _Context, errors: List[Dict[str, Any]],
                  caused: Dict[Line, Set[str]]) -> List[Dict[str, Any]]:
    if diff.before is None or diff.after is None:
        side, host = ('head', diff.after) if diff.before is None else ('base', diff.before)
        op = 'host added' if diff.before is None else 'host removed'
        return [{'path': '', 'op': op, 'from': None, 'to': None,
                 'cause': [{'cause': 'node file %s' % op.split()[1], 'file': host.node_file,
                            'ref': context.refs[side]}]}]
    for side, host in (('base', diff.before), ('head', diff.after)):
        if host.error is not None:
            errors.append({'host': diff.name, 'ref': context.refs[side], 'error': host.error})
    result = []
    for change in diff.changes:
        causes = causes_of(change, diff, context)
        for cause in causes:
            if 'line' in cause:
                side = 'head' if cause['ref'] == context.refs['head'] else 'base'
                caused.setdefault((cause['file'], cause['line'], side), set()).add(diff.name)
        result.append({'path': change.path, 'op': change.op, 'from': change.before, 'to': change.after,
                       'cause': causes})
    return result


def _edits(diffs: Dict[str, HostDiff], context: _Context,
           caused: Dict[Line, Set[str]]) -> Tuple[List[Dict[str, Any]], List[Dict[str, Any]]]:
    """Changed data lines that have no effect on some hosts (shadowed there), and those with none at all."""
    shadows: Dict[Line, Dict[str, Tuple[str, str]]] = {}
    for name, diff in diffs.items():
        for side, host in (('head', diff.after), ('base', diff.before)):
            for path, record in (host.records.items() if host is not None else ()):
                for shadowed in record.get('shadowed', ()):
                    if context.changed(shadowed.get('file'), shadowed.get('line'), side):
                        line = (context.in_repo(shadowed['file']), shadowed['line'], side)
                        at = file_line(context.in_repo(record['file']), record.get('line'))
                        shadows.setdefault(line, {}).setdefault(name, (path, at))
    shadowed_edits, dead_edits = [], []
    for line in sorted(_data_lines(context)):
        hosts = {name: place for name, place in shadows.get(line, {}).items() if name not in caused.get(line, ())}
        entry = {'file': line[0], 'line': line[1], 'ref': context.refs[line[2]]}
        if hosts:
            shadowed_edits.append(dict(entry, path=sorted({path for path, _at in hosts.values()})[0],
                                       no_effect_on={name: at for name, (_path, at) in sorted(hosts.items())}))
        if not caused.get(line):
            dead_edits.append(dict(entry, why='shadowed on every host that reads it' if hosts
                                   else 'changes no host\'s merged data'))
    return shadowed_edits, dead_edits


def _data_lines(context: _Context) -> Set[Line]:
    """The changed lines of the data files (in the data folder) that hold data (not blank, not a comment): the
    head's lines, and the base's lines that are gone."""
    lines = set()
    for side, changed in (('base', context.removed_lines), ('head', context.lines['head'])):
        for file, numbers in changed.items():
            if file.endswith(DATA_EXTENSIONS) and file.startswith(context.datadirs[side] + '/'):
                lines.update((file, number, side) for number in numbers)
    return {line for line in lines if not _blank(context, line)}


def _blank(context: _Context, line: Line) -> bool:
    text = context.text_of(line)
    return text is not None and (not text.strip() or text.lstrip().startswith('#'))


def _groups(entries: Dict[str, List[Dict[str, Any]]]) -> List[Dict[str, Any]]:
    """Hosts with the same changes together, the largest group first."""
    grouped: Dict[str, Dict[str, Any]] = {}
    for name, changes in sorted(entries.items()):
        signature = json.dumps(changes, sort_keys=True, default=str)
        grouped.setdefault(signature, {'hosts': [], 'changes': changes})['hosts'].append(name)
    return sorted(grouped.values(), key=lambda group: (-len(group['hosts']), group['hosts'][0]))


def markdown(report: Dict[str, Any], limit: int = MARKDOWN_LIMIT) -> str:
    """The report as a pull-request comment: a summary line, a table per group, the edits that change nothing folded;
    kept under ``limit`` characters (what is left out is in the JSON)."""
    summary = report['summary']
    head = ['## strata.hier rsop diff: `%s` → `%s`' % (report['base'], report['head']), '',
            '**%d of %d hosts change** (%d values), %d errors, %d shadowed edits, %d dead edits.'
            % (summary['hosts_changed'], summary['hosts_total'], summary['values_changed'], summary['errors'],
               summary['shadowed_edits'], summary['dead_edits']), '']
    parts = ['\n'.join(head)]
    sections = [_group_text(group) for group in report['groups']] + _edit_texts(report) + _error_texts(report)
    size = len(parts[0])
    for index, section in enumerate(sections):
        if size + len(section) > limit - 200:
            parts.append('… %d more sections are in `rsop-diff.json`.' % (len(sections) - index))
            break
        parts.append(section)
        size += len(section)
    return '\n'.join(parts) + '\n'


def _group_text(group: Dict[str, Any]) -> str:
    hosts = group['hosts']
    shown = ', '.join('`%s`' % host for host in hosts[:10]) + (' and %d more' % (len(hosts) - 10) if len(hosts) > 10
                                                               else '')
    lines = ['### %d host%s: %s' % (len(hosts), '' if len(hosts) == 1 else 's', shown), '',
             '| path | change | from | to | cause |', '| --- | --- | --- | --- | --- |']
    for change in group['changes']:
        lines.append('| `%s` | %s | %s | %s | %s |' % (change['path'] or '(host)', change['op'], _cell(change['from']),
                                                       _cell(change['to']), _causes_text(change['cause'])))
    return '\n'.join(lines) + '\n'


def _cell(value: Any) -> str:
    if value is None:
        return ''
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str)
    text = text if len(text) <= 60 else text[:57] + '...'
    return '`%s`' % text.replace('|', '\\|').replace('`', "'").replace('\n', ' ')


def _causes_text(causes: List[Dict[str, Any]]) -> str:
    texts = []
    for cause in causes:
        if 'line' in cause:
            texts.append('`%s:%d` (%s)' % (cause['file'], cause['line'], cause['ref']))
        else:
            texts.append(cause['cause'] + (' `%s`' % cause['file'] if cause.get('file') else ''))
    return '<br>'.join(texts)


def _edit_texts(report: Dict[str, Any]) -> List[str]:
    texts = []
    if report['shadowed_edits']:
        lines = ['<details><summary>%d edits shadowed on some hosts</summary>' % len(report['shadowed_edits']), '']
        for edit in report['shadowed_edits']:
            hosts = edit['no_effect_on']
            lines.append('- `%s:%d` (`%s`): no effect on %s' % (edit['file'], edit['line'], edit['path'], ', '.join(
                '`%s` (shadowed at `%s`)' % (host, at) for host, at in list(hosts.items())[:10])
                + (' and %d more' % (len(hosts) - 10) if len(hosts) > 10 else '')))
        texts.append('\n'.join(lines + ['', '</details>', '']))
    if report['dead_edits']:
        lines = ['<details><summary>%d dead edits</summary>' % len(report['dead_edits']), '']
        lines.extend('- `%s:%d` (%s): %s' % (edit['file'], edit['line'], edit['ref'], edit['why'])
                     for edit in report['dead_edits'])
        texts.append('\n'.join(lines + ['', '</details>', '']))
    return texts


def _error_texts(report: Dict[str, Any]) -> List[str]:
    if not report['errors']:
        return []
    lines = ['### Errors', '']
    lines.extend('- `%s` at %s: %s' % (error['host'], error['ref'], error['error']) for error in report['errors'])
    return ['\n'.join(lines) + '\n']


FAIL_IF = ('hosts_changed', 'values_changed', 'errors', 'shadowed_edits', 'dead_edits')
"""The summary counts a gate (``fail_if``) may name: the job fails when any of them is above 0."""


def gate_failures(report: Dict[str, Any], fail_if: List[str]) -> List[str]:
    """The gates that fail, as ``name=count``; an unknown gate name is a ValueError naming the valid ones."""
    unknown = [name for name in fail_if if name not in FAIL_IF]
    if unknown:
        raise ValueError('unknown fail_if %s; valid: %s' % (', '.join(unknown), ', '.join(FAIL_IF)))
    return ['%s=%d' % (name, report['summary'][name]) for name in fail_if if report['summary'][name] > 0]


def write_report(report: Dict[str, Any], out: str) -> Tuple[str, str]:
    """``out/rsop-diff.json`` and ``out/rsop-diff.md``; their paths."""
    os.makedirs(out, exist_ok=True)
    paths = (os.path.join(out, 'rsop-diff.json'), os.path.join(out, 'rsop-diff.md'))
    with open(paths[0], 'w', encoding='utf-8') as stream:
        json.dump(report, stream, indent=1, sort_keys=True, default=str)
        stream.write('\n')
    with open(paths[1], 'w', encoding='utf-8') as stream:
        stream.write(markdown(report))
    return paths
