# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""A node's data checked against its configuration's ``constraints`` (module_utils/core/constraints.py): the chain of
each constrained path read from the node's levels, and each broken rule as a finding (docs/constraints.md).

A finding: ``{host, path, rule, severity, file, line, value, protected: {file, line} | None, declared: {file, line},
message}``; ``file`` is relative to the configuration's folder, ``value`` a vault value's marker, never its text.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from ansible.errors import AnsibleError

from ansible_collections.strata.hier.plugins.module_utils.core.constraints import (
    ABSENT, UNMERGED, Constraint, Contribution, Violation, displayable, violations,
)
from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeError
from ansible_collections.strata.hier.plugins.module_utils.core.merging import merge_layers
from ansible_collections.strata.hier.plugins.module_utils.core.paths import join_path
from ansible_collections.strata.hier.plugins.module_utils.core.records import Record
from ansible_collections.strata.hier.plugins.plugin_utils.source_lines import file_line

WALK_LIMIT = 100000
"""Most map keys a node's levels may hold under the keys a ``^regex`` constraint is matched against."""


def check_node(hierarchy: Any, expansions: Sequence[Any], host: Any,
               keys: Optional[Iterable[str]] = None) -> List[Dict[str, Any]]:
    """Every finding of a node (``keys``: only the paths under these top-level keys, as a lookup of them reads)."""
    constraints = hierarchy.config.constraints
    if not constraints:
        return []
    findings = []
    written, tops = _written_levels(hierarchy.config), _TopLevels(hierarchy, expansions)
    for segments, applying in _constrained_paths(hierarchy, expansions, keys):
        chain = _Chain(hierarchy, expansions, segments, written, tops, any(map(_compares_levels, applying)))
        for constraint in applying:
            for violation in violations(constraint, chain.contributions, chain.where):
                findings.append(_finding(hierarchy, host, segments, constraint, violation, chain))
    return findings


def _compares_levels(constraint: Constraint) -> bool:
    """Whether a constraint reads the value merged up to each level (final, tighten, protect_items); the others
    read each level's own value and the merged value of the most specific one."""
    return bool(constraint.final or constraint.tighten or constraint.protect_items)


def _written_levels(config: Any) -> Dict[str, str]:
    """Each level as read -> as the configuration writes it (Datum's ``Roles\\$($Node.Role)``): what ``owners``
    names and a message shows."""
    return dict(zip((str(level) for level in config.levels), config.written_levels))


def _constrained_paths(hierarchy: Any, expansions: Sequence[Any],
                       keys: Optional[Iterable[str]]) -> List[Tuple[Tuple[Any, ...], List[Constraint]]]:
    """Each path a constraint names (all, or those under ``keys``), then the data's paths a regex matches."""
    constraints, fold = hierarchy.config.constraints, hierarchy.config.rules.fold
    wanted = None if keys is None else {fold(key) for key in keys}
    paths: Dict[Any, Tuple[Tuple[Any, ...], List[Constraint]]] = {}
    for segments in constraints.exact_paths():
        if wanted is None or fold(segments[0]) in wanted:
            paths[tuple(fold(part) for part in segments)] = (segments, constraints.for_path(segments))
    if constraints.patterns:
        for segments in hierarchy.data_paths(expansions, wanted, WALK_LIMIT):
            folded = tuple(fold(part) for part in segments)
            if folded not in paths:
                applying = constraints.for_path(segments)
                if applying:
                    paths[folded] = (segments, applying)
    return list(paths.values())


class _TopLevels:
    """A node's levels of each top-level key (Hierarchy.path_levels), read once for all the paths under it."""

    def __init__(self, hierarchy: Any, expansions: Sequence[Any]) -> None:
        self._hierarchy, self._expansions = hierarchy, expansions
        self._levels: Dict[Any, List[Any]] = {}
        self._walkable: Dict[Any, bool] = {}

    def walkable(self, key: Any) -> bool:
        """Whether the key's nested paths can be read from its levels' values (no level is a folder read as a map,
        whose keys are files with their own lines)."""
        folded = self._hierarchy.config.rules.fold(key)
        if folded not in self._walkable:
            self._walkable[folded] = not any(level.file is not None and os.path.isdir(level.file)
                                             for level in self.levels(key))
        return self._walkable[folded]

    def levels(self, key: Any) -> List[Any]:
        folded = self._hierarchy.config.rules.fold(key)
        found = self._levels.get(folded)
        if found is None:
            found = self._levels[folded] = self._hierarchy.path_levels(self._expansions, (key,))
        return found


class _Marker(Record):
    """Where a level knocks out a map holding the path, or the path inside its map: the marker's keys in the file."""

    file: Optional[str]
    shown_file: Optional[str]
    keys: List[Any]
    vaulted: bool

    @classmethod
    def at(cls, level: Any, keys: List[Any]) -> '_Marker':
        """The marker at ``keys`` of ``level``'s file."""
        return cls(level.file, level.shown_file, keys, level.vaulted)


class _Chain:
    """The levels of a node that set one path (or knock it out), least specific first, and their lines."""

    def __init__(self, hierarchy: Any, expansions: Sequence[Any], segments: Tuple[Any, ...],
                 written: Dict[str, str], tops: _TopLevels, every_merge: bool = True) -> None:
        """``every_merge``: merge up to each level; else only up to the most specific one (UNMERGED elsewhere)."""
        self._hierarchy, self._segments, self._written = hierarchy, segments, written
        self._every_merge = every_merge
        self._lines: Dict[int, str] = {}
        if len(segments) > 1 and hierarchy.walks_values() and tops.walkable(segments[0]):
            levels = _walked(hierarchy, tops.levels(segments[0]), segments)
        else:
            levels = hierarchy.path_levels(expansions, segments)
        self.contributions = self._contributions(levels, self._knockouts(levels, tops))

    def _contributions(self, levels: List[Any], knocks: List[Any]) -> List[Contribution]:
        """``levels``: Hierarchy.path_levels, most specific first; ``knocks``: each level's knockout marker of the
        path (None: it knocks nothing out); merged values take each knockout into account."""
        values = [level.value for level in levels]
        contributions: List[Contribution] = []
        for index, (level, knock) in enumerate(zip(levels, knocks)):
            if level.value is None and knock is None:
                continue
            place = knock or level
            merged = ABSENT if knock is not None else (
                self._merged(values, knocks, index) if self._every_merge or not contributions else UNMERGED)
            contributions.append(Contribution(
                level=self._written.get(level.level, level.level), file=place.shown_file,
                value=None if knock is not None else level.written, markers=level.markers, merged=merged,
                knocked_out=knock is not None, secret=place.vaulted, place=place,
                merged_secret=knock is None and _merges_vaulted(levels, knocks, index)))
        contributions.reverse()
        return contributions

    def _knockouts(self, levels: List[Any], tops: _TopLevels) -> List[Any]:
        """Per level, the place of its knockout of the path, or None. A marker of a nested key is read with the
        prefix of the map holding it, as the merge reads it (path_levels reads it with the path's own rule)."""
        if len(self._segments) < 2:
            return [level if level.knocked_out else None for level in levels]
        prefixes = _marker_prefixes(self._hierarchy.config.rules, self._segments)
        fold = self._hierarchy.config.rules.fold if self._hierarchy.config.case_insensitive_keys else None
        knocks = []
        for level, top in zip(levels, tops.levels(self._segments[0])):
            knock = top if top.knocked_out else _marker_in(top, self._segments, prefixes, fold)
            knocks.append(knock or (level if level.knocked_out else None))
        return knocks

    def _merged(self, values: List[Any], knocks: List[Any], index: int) -> Any:
        """The path merged from level ``index`` down to (not through) the next knockout below it."""
        end = next((below for below in range(index + 1, len(knocks)) if knocks[below] is not None), len(knocks))
        try:
            return merge_layers(values[index:end], self._hierarchy.config.rules, self._segments).value
        except MergeError:
            return ABSENT      # the lookup itself reports what cannot be merged

    def where(self, contribution: Contribution) -> str:
        """``file:line`` of what a level writes at the path (its knockout marker, for a knockout)."""
        level = contribution.place
        shown = self._lines.get(id(level))
        if shown is None:
            line = self._hierarchy.positions().position(level.file, level.keys)[0] if level.keys else None
            shown = self._lines[id(level)] = file_line(level.shown_file, line)
        return shown


def _merges_vaulted(levels: List[Any], knocks: List[Any], index: int) -> bool:
    """Whether the value merged up to level ``index`` takes data of a whole-file vaulted file (its own, or one of a
    less specific level merged into it): such a value is never shown."""
    for below in range(index, len(levels)):
        if below > index and knocks[below] is not None:
            return False
        if levels[below].vaulted and levels[below].value is not None:
            return True
    return False


def _walked(hierarchy: Any, tops: List[Any], segments: Tuple[Any, ...]) -> List[Any]:
    """Hierarchy.path_levels of a nested path, from its top-level key's levels: each value walked key by key (the
    files were read once for the top-level key), a marker of the path's own rule read as DataStore.get reads it."""
    from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy import PathLevel
    rules = hierarchy.config.rules
    prefix = rules.resolve(segments).strategy.knockout_prefix
    levels = []
    for top in tops:
        value, keys, knocked = top.value, list(top.keys), False
        for depth, key in enumerate(segments[1:], 1):
            if not isinstance(value, Mapping):
                value = None
                break
            marker = _spelt(value, prefix + key, rules) if prefix and depth == len(segments) - 1 else None
            if marker is not None:
                value, knocked = None, True
                keys.append(marker)
                break
            written = _spelt(value, key, rules)
            value = None if written is None else value[written]
            keys.append(written)
            if value is None:
                break
        levels.append(PathLevel(top.level, top.file, top.shown_file, keys, value, knocked, top.vaulted, prefix))
    return levels


def _spelt(mapping: Mapping, key: Any, rules: Any) -> Any:
    """The key of ``mapping`` that is ``key`` as the store compares keys (folded in a case-insensitive one)."""
    if key in mapping:
        return key
    if rules.case_insensitive_keys:
        folded = rules.fold(key)
        return next((name for name in mapping if rules.fold(name) == folded), None)
    return None


def _marker_prefixes(rules: Any, segments: Tuple[Any, ...]) -> List[Optional[str]]:
    """The knockout prefix of the map holding ``segments[depth]``, for each depth from 1, as the merge applies it
    (MapMerger._child_strategy): the map's own rule, else its parent's strategy under deep, else none (a map under hash
    or MostSpecific is taken whole, its markers unread)."""
    prefixes: List[Optional[str]] = []
    strategy = None
    for depth in range(1, len(segments)):
        explicit = rules.explicit(segments[:depth])
        if explicit is not None:
            strategy = explicit.strategy
        elif depth == 1:
            strategy = rules.default.strategy
        elif strategy is not None and not strategy.maps.recurses:
            strategy = None
        prefixes.append(strategy.maps.knockout_prefix if strategy is not None else None)
    return prefixes


def _marker_in(top: Any, segments: Tuple[Any, ...], prefixes: List[Optional[str]],
               fold: Optional[Callable[[Any], Any]]) -> Optional[_Marker]:
    """The marker in a level's value of ``segments[0]`` (``top``) that knocks out ``segments`` or a map holding it."""
    value, keys = top.value, list(top.keys)
    for depth in range(1, len(segments)):
        if not isinstance(value, Mapping):
            return None
        marker, written = _key_in(value, prefixes[depth - 1], segments[depth], fold)
        if marker is not None:
            return _Marker.at(top, keys + [marker])
        if written is None:
            return None
        value, keys = value[written], keys + [written]
    return None


def _key_in(value: Mapping, prefix: Optional[str], key: Any,
            fold: Optional[Callable[[Any], Any]]) -> Tuple[Optional[str], Any]:
    """In the map ``value``: the marker knocking out ``key`` (else None) and, without one, ``key`` as written there
    (None: absent); ``fold``: keys compared by it."""
    if fold is None:
        marker = prefix + key if prefix else None
        if marker is not None and marker in value:
            return marker, None
        return None, key if key in value else None
    marker = next((name for name in value if isinstance(name, str) and prefix and name.startswith(prefix)
                   and fold(name[len(prefix):]) == fold(key)), None)
    if marker is not None:
        return marker, None
    return None, next((name for name in value if isinstance(name, str) and fold(name) == fold(key)), None)


def _finding(hierarchy: Any, host: Any, segments: Tuple[Any, ...], constraint: Constraint, violation: Violation,
             chain: _Chain) -> Dict[str, Any]:
    path = join_path(segments)
    declared = hierarchy.constraint_position(constraint.name)
    at, protected = violation.at, violation.protected
    return {
        'host': host, 'path': path, 'rule': violation.rule, 'severity': constraint.severity,
        'file': at.file if at is not None else None, 'line': _line(chain, at),
        'value': _reported(violation), 'protected': _located(chain, protected),
        'declared': declared,
        'message': "'%s' violated for %s on %s: %s (%s)" % (violation.rule, path, host, violation.detail,
                                                            _shown_position(declared)),
    }


def _line(chain: _Chain, contribution: Optional[Contribution]) -> Optional[int]:
    if contribution is None:
        return None
    shown = chain.where(contribution)
    return int(shown.rsplit(':', 1)[1]) if ':' in shown else None


def _located(chain: _Chain, contribution: Optional[Contribution]) -> Optional[Dict[str, Any]]:
    if contribution is None:
        return None
    return {'file': contribution.file, 'line': _line(chain, contribution)}


def _shown_position(position: Dict[str, Any]) -> str:
    return file_line(position['file'], position.get('line'))


def _reported(violation: Violation) -> Any:
    """The value a finding reports: none for a vault rule or a vaulted file, vault values as markers."""
    at = violation.at
    if violation.rule == 'vault' or violation.value is ABSENT or (at is not None and (at.secret or at.merged_secret)):
        return None
    return displayable(violation.value)


def enforce(findings: Sequence[Dict[str, Any]], warn: Callable[[str], None], error: Callable[[str], Exception]) -> None:
    """Warn of each ``warn`` finding; raise every ``error`` finding at once (one round of fixes, not one each)."""
    errors = []
    for finding in findings:
        if finding['severity'] == 'error':
            errors.append(finding['message'])
        else:
            warn(finding['message'])
    if errors:
        raise error('%d constraint violation%s:\n  %s' % (len(errors), '' if len(errors) == 1 else 's',
                                                          '\n  '.join(errors)))


class NodeChecks:
    """Every node of a hierarchy checked (the check job): findings, the hosts checked, and what kept a node from
    being checked (``problems``: a node without a usable name, levels it cannot expand)."""

    def __init__(self, hierarchy: Any) -> None:
        from ansible_collections.strata.hier.plugins.plugin_utils.nodes import named_nodes
        self.findings: List[Dict[str, Any]] = []
        self.hosts: List[str] = []
        self.problems: List[str] = []
        hierarchy.begin_pass()
        for name, (node_file, data) in sorted(named_nodes(hierarchy.nodes(), self.problems.append).items()):
            variables = dict(data) if isinstance(data, Mapping) else {}
            variables['inventory_hostname'] = name
            try:
                self.findings.extend(check_node(hierarchy, hierarchy.expand_levels(variables), name))
            except (AnsibleError, MergeError) as exc:
                self.problems.append('%s: %s' % (hierarchy.shown_file(node_file), exc))
                continue
            self.hosts.append(name)
