# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The provenance report of a merged value: one record per path, with files and lines.

The merge notes places in layers (module_utils/core/provenance.py); a ``Locator`` of the dialect turns a place into
``{file, line, column, level, level_path}`` and this module builds the records the lookup returns
(``provenance=true``), the inventory and vars plugins give as ``hier_provenance``, and the rsop role writes:

``{path: {value, file, line, column, end_line, level, level_path, rule, rule_at, shadowed, removed}}`` (``end_line``:
the last line of a value written on several lines, such as a map, a block list or a vault value) where ``path`` is
the key path of the merged value, ``/`` separated with list indexes as numbers (``packages/0``); ``value`` is
given for scalars only; ``shadowed`` lists the less specific definitions the value overrode
(``{file, line, value}``, value for scalars), ``merged`` (maps, lists and hash-array items) the less specific
definitions merged into it (``{file, line}``), ``removed`` what knockouts took out of a map or list
(``{value, file, line, marker: {file, line}}``); a record of data from a whole-file vaulted file is
``withheld: true`` and gives no value and no line.  Vault values stay vault values: the caller's output
functions keep them encrypted.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.identity import shown, shown_path
from ansible_collections.strata.hier.plugins.module_utils.core.kinds import LIST, MAP, SCALAR, family_of
from ansible_collections.strata.hier.plugins.module_utils.core.provenance import Below, Entry, Place, Provenance
from ansible_collections.strata.hier.plugins.plugin_utils.source_lines import file_line

Located = Dict[str, Any]
"""``{file, line, column, level, level_path}`` of a place, ``withheld: true`` for a whole-file vaulted file."""


def provenance_report(value: Any, provenance: Provenance, locate: Callable[[Place], Located],
                      rule_of: Callable[[Tuple[Any, ...]], Dict[str, Any]], root: Tuple[Any, ...],
                      memo: Optional[Callable[[int], Dict[Any, Any]]] = None) -> Dict[str, Any]:
    """The records of a merged value, in the order of the value (the looked-up path first).  ``memo``: a layer's
    index -> a dict kept for every merge reading the same file at the same level, where the records of a subtree
    copied whole from it (``Provenance.below``) are kept."""
    report: Dict[str, Any] = {}
    entries, below = provenance.noted, provenance.below
    for path, text in _paths(value, root, below):
        entry = entries.get(path)
        if entry is not None:
            report[text] = _record(path, entry, provenance, locate, rule_of)
        if below and path in below:
            _add_below(report, text, below[path], provenance, locate, rule_of, memo)
    return report


def _add_below(report: Dict[str, Any], text: str, below: Below, provenance: Provenance,
               locate: Callable[[Place], Located], rule_of: Callable[[Tuple[Any, ...]], Dict[str, Any]],
               memo: Optional[Callable[[int], Dict[Any, Any]]]) -> None:
    """The records below a whole (``Below``): built once per place and rule, copied for each merge."""
    kept = None if memo is None else memo(below.place[0])
    key = (_BELOW, below.place[1], rule_of(below.rule_path).get('rule'))
    found = None if kept is None else kept.get(key)
    if found is None or found[0] is not below.source:
        by_path = dict(below.entries(()))
        found = (below.source, [(suffix, _record(sub, by_path[sub], provenance, locate, rule_of))
                                for sub, suffix in _paths(below.value, (), {})[1:]])
        if kept is not None:
            kept[key] = found
    for suffix, record in found[1]:
        report[text + '/' + suffix] = dict(record)


_BELOW = object()
"""The key of the records below a whole in a layer's memo (whose other keys are paths)."""


def _paths(value: Any, root: Tuple[Any, ...], below: Dict[Tuple[Any, ...], Any]) -> List[Tuple[Tuple[Any, ...], str]]:
    """Every path of the value (with its text, identity.shown_path's) in the order the value reads, top to bottom
    (a map's key before what it holds); not below the paths of ``below``."""
    paths = []
    pending = [(value, root, shown_path(root))]
    while pending:
        current, at, text = pending.pop()
        paths.append((at, text))
        family = _FAMILIES.get(type(current)) or family_of(current)
        if family is SCALAR or (below and at in below):
            continue
        prefix = text + '/' if at else ''
        parts = current.items() if family is MAP else enumerate(current)
        pending.extend(reversed([(item, at + (key,), prefix + (key if key.__class__ is str else _part(key)))
                                 for key, item in parts]))
    return paths


_FAMILIES = {str: SCALAR, int: SCALAR, float: SCALAR, bool: SCALAR, type(None): SCALAR, dict: MAP, list: LIST}
"""family_of's answers for the usual types, without the call."""


def _part(key: Any) -> str:
    return str(key) if key.__class__ is int else shown_path((key,))


def _record(path: Tuple[Any, ...], entry: Entry, provenance: Provenance, locate: Callable[[Place], Located],
            rule_of: Callable[[Tuple[Any, ...]], Dict[str, Any]]) -> Dict[str, Any]:
    value = entry.value
    family = _FAMILIES.get(value.__class__) or family_of(value)
    place = entry.place
    where = _UNKNOWN if place is None else locate(place)
    if family is SCALAR and 'withheld' not in where:
        record = {'value': value, **where, **rule_of(entry.rule_path)}
    else:
        record = {**where, **rule_of(entry.rule_path)}
    definitions = entry.definitions
    if len(definitions) > 1:
        if family is SCALAR:
            shadowed = [_definition(other, defined, locate, True) for other, defined in definitions[1:]
                        if other is not None]
            if shadowed:
                record['shadowed'] = shadowed
        else:
            _add_others(record, path, definitions, provenance, locate)
    if entry.removed:
        record['removed'] = [_removal(removal, locate) for removal in entry.removed]
    return record


def _add_others(record: Dict[str, Any], path: Tuple[Any, ...], definitions: List[Tuple[Optional[Place], Any]],
                provenance: Provenance, locate: Callable[[Place], Located]) -> None:
    """``merged`` and ``shadowed`` of a map or list: the less specific definitions some of whose values are in it,
    and those none of whose are (of a leaf, every less specific definition is shadowed: _record)."""
    used = None
    for place, value in definitions[1:]:
        if place is not None:
            if used is None:
                used = provenance.used_layers(path)
            record.setdefault('merged' if place[0] in used else 'shadowed', []).append(
                _definition(place, value, locate, False))


_UNKNOWN: Located = {'file': None, 'line': None}


def _definition(place: Place, value: Any, locate: Callable[[Place], Located], scalar: bool) -> Dict[str, Any]:
    where = locate(place)
    if 'withheld' in where:
        return {'file': where['file'], 'line': where.get('line'), 'withheld': True}
    if scalar:
        return {'file': where['file'], 'line': where.get('line'), 'value': value}
    return {'file': where['file'], 'line': where.get('line')}


def _removal(removal: Any, locate: Callable[[Place], Located]) -> Dict[str, Any]:
    if removal.place is None:
        shown = dict(_UNKNOWN, value=removal.value)
    else:
        shown = _definition(removal.place, removal.value, locate, True)
    marker = locate(removal.marker) if removal.marker is not None else _UNKNOWN
    shown['marker'] = {'file': marker['file'], 'line': marker.get('line')}
    return shown


def origin_lines(records: Dict[str, Any]) -> List[str]:
    """One line per value (a leaf or list item) with where it is written, then what it shadowed and what knockouts
    removed: the lookup's ``-vvv``. Values as messages show them (a vault value as its type)."""
    lines = []
    for path, record in records.items():
        if 'value' in record or record.get('withheld'):
            shown_value = '(withheld)' if record.get('withheld') else shown(record['value'])
            lines.append('%s = %s  from %s' % (path, shown_value, _position(record)))
        for definition in record.get('shadowed', ()):
            lines.append('%s   shadows %s' % (path, _definition_text(definition)))
        for removal in record.get('removed', ()):
            lines.append('%s   removed %s by the marker at %s'
                         % (path, _definition_text(removal), _position(removal['marker'])))
    return lines


def _position(where: Dict[str, Any]) -> str:
    """``file:line`` (or the file, or ``(unknown)``), with the level when the record names it."""
    text = file_line(where.get('file') or '(unknown)', where.get('line'))
    return '%s (level %s)' % (text, where['level']) if where.get('level') else text


def _definition_text(definition: Dict[str, Any]) -> str:
    if 'value' in definition:
        return '%s at %s' % (shown(definition['value']), _position(definition))
    return _position(definition)
