# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""A node's data checked against its configuration's ``constraints`` (module_utils/constraints.py): the chain of
each constrained path read from the node's levels, and each broken rule as a finding (docs/constraints.md).

A finding: ``{host, path, rule, severity, file, line, value, protected: {file, line} | None, declared: {file, line},
message}``; ``file`` is relative to the configuration's folder, ``value`` a vault value's marker, never its text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from ansible.errors import AnsibleError

from ansible_collections.strata.hier.plugins.module_utils.constraints import (
    ABSENT, Constraint, Contribution, Violation, displayable, violations,
)
from ansible_collections.strata.hier.plugins.module_utils.errors import MergeError
from ansible_collections.strata.hier.plugins.module_utils.merging import merge_layers
from ansible_collections.strata.hier.plugins.module_utils.paths import join_path

WALK_LIMIT = 100000
"""Most map keys a node's levels may hold under the keys a ``^regex`` constraint is matched against."""


def check_node(hierarchy: Any, expansions: Sequence[Any], host: Any,
               keys: Optional[Iterable[str]] = None) -> List[Dict[str, Any]]:
    """Every finding of a node (``keys``: only the paths under these top-level keys, as a lookup of them reads)."""
    constraints = hierarchy.config.constraints
    if not constraints:
        return []
    findings = []
    for segments, applying in _constrained_paths(hierarchy, expansions, keys):
        chain = _Chain(hierarchy, expansions, segments)
        for constraint in applying:
            for violation in violations(constraint, chain.contributions, chain.where):
                findings.append(_finding(hierarchy, host, segments, constraint, violation, chain))
    return findings


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


class _Chain:
    """The levels of a node that set one path (or knock it out), least specific first, and their lines."""

    def __init__(self, hierarchy: Any, expansions: Sequence[Any], segments: Tuple[Any, ...]) -> None:
        self._hierarchy, self._segments = hierarchy, segments
        self._lines: Dict[int, str] = {}
        self.contributions = self._contributions(hierarchy.path_levels(expansions, segments))

    def _contributions(self, levels: List[Any]) -> List[Contribution]:
        """``levels``: Hierarchy.path_levels, most specific first; merged values take each knockout into account."""
        values = [level.value for level in levels]
        contributions = []
        for index, level in enumerate(levels):
            if level.value is None and not level.knocked_out:
                continue
            contributions.append(Contribution(
                level=level.level, file=level.shown_file, value=level.written, markers=level.markers,
                merged=ABSENT if level.knocked_out else self._merged(values, levels, index),
                knocked_out=level.knocked_out, secret=level.vaulted, place=level))
        contributions.reverse()
        return contributions

    def _merged(self, values: List[Any], levels: List[Any], index: int) -> Any:
        """The path merged from level ``index`` down to (not through) the next knockout below it."""
        end = next((below for below in range(index + 1, len(levels)) if levels[below].knocked_out), len(levels))
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
            shown = self._lines[id(level)] = '%s:%d' % (level.shown_file, line) if line else level.shown_file
        return shown


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
    return '%s:%d' % (position['file'], position['line']) if position.get('line') else position['file']


def _reported(violation: Violation) -> Any:
    """The value a finding reports: none for a vault rule or a vaulted file, vault values as markers."""
    if violation.rule == 'vault' or violation.value is ABSENT or (violation.at is not None and violation.at.secret):
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
