# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""strata's ``hier.yml`` and Datum's ``Datum.yml`` as a Source (source.py): a ``Hierarchy`` (hierarchy.py)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ansible_collections.strata.hier.plugins.plugin_utils.source import Answer, HostView, NodeOptions, Source, origin_lines
from ansible_collections.strata.hier.plugins.plugin_utils.config import HierarchyConfig, hier_config, is_datum_config, read_config_file
from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy import Hierarchy, Resolution
from ansible_collections.strata.hier.plugins.plugin_utils.undefined_levels import strict_hint


def load_config(path: str, loader: Any) -> HierarchyConfig:
    """Read a hier.yml or Datum.yml file (Datum's, by its name)."""
    data = read_config_file(path, loader)
    if is_datum_config(path):
        from ansible_collections.strata.hier.plugins.plugin_utils.datum_config import datum_config  # Datum.yml only
        return datum_config(path, data)
    return hier_config(path, data)


class HierarchySource(Source):
    """A hier.yml or Datum.yml and its data store."""

    undefined_effect = 'the level is skipped'

    def __init__(self, path: str, loader: Any) -> None:
        self.path = path
        self.hierarchy = Hierarchy(load_config(path, loader), loader)
        self._unsaid = list(self.hierarchy.config.warnings)

    def begin_pass(self) -> None:
        self.hierarchy.begin_pass()

    def preload_data(self) -> int:
        """The data files loaded before the workers fork (the preload callback); how many."""
        return self.hierarchy.preload()

    def for_host(self, variables: Mapping, fetch: Optional[Callable] = None,
                 strict: Optional[bool] = None) -> 'HierarchyHostView':
        return HierarchyHostView(self.hierarchy, variables, self.hierarchy.expand_levels(variables, fetch, strict))

    def nodes(self, options: NodeOptions,
              refuse: Callable[[str], None]) -> Dict[str, Tuple[Dict[str, Any], str]]:
        """The configuration's ``nodes`` files (options.nodes is for configurations without them), each labelled
        by its file for messages."""
        from ansible_collections.strata.hier.plugins.plugin_utils.nodes import named_nodes     # the inventory's
        hosts = {}
        for name, (node_file, data) in named_nodes(self.hierarchy.nodes(), refuse).items():
            variables = dict(data) if isinstance(data, Mapping) else {}
            variables['inventory_hostname'] = name
            hosts[name] = (variables, node_file)
        return hosts

    def fingerprint(self, paths: Sequence[str]) -> str:
        return self.hierarchy.fingerprint(paths)

    def level_position(self, index: int) -> str:
        return self.hierarchy.level_position(index)

    def strict_hint(self, inventory: bool = False) -> str:
        return strict_hint(self.hierarchy.config, inventory)

    def nodes_note(self, options: NodeOptions, found: bool) -> Optional[str]:
        config = self.hierarchy.config
        if options.nodes:
            return 'nodes %r is read only with a hiera.yaml: %s has its own nodes glob %r, which is used' \
                % (options.nodes, os.path.basename(config.path), config.nodes)
        if not found:
            return 'the nodes glob %r of %s matches no file of the data folder %s: the source has no hosts' \
                % (config.nodes, config.path, config.datadir)
        return None


class HierarchyHostView(HostView):
    """A host's levels of a Hierarchy, expanded."""

    def __init__(self, hierarchy: Hierarchy, variables: Mapping, expansions: Any) -> None:
        self._hierarchy, self._variables, self._expansions = hierarchy, variables, expansions
        self.host = variables.get('inventory_hostname')
        self.undefined, self.unfilled = expansions.undefined, expansions.unfilled
        self.identity = tuple(expansion.path for expansion in expansions)
        # without eyaml keys the store refuses eyaml ciphertext (eyaml.read_values); Datum's handlers may make values
        self._eyaml = hierarchy.config.eyaml is not None or hierarchy.config.dialect == 'datum'

    def lookup(self, key: str, merge: Any = None, explain: bool = False, provenance: bool = False) -> Answer:
        return self._answer(self._hierarchy.lookup(key, self._variables, merge=merge, expansions=self._expansions,
                                                   explain=explain, provenance=provenance))

    def whole(self, provenance: bool = False) -> Dict[str, Answer]:
        return {key: self._answer(resolution) for key, resolution in self._hierarchy.resolve_node(
            self._variables, expansions=self._expansions, provenance=provenance).items()}

    def host_vars(self, warn: Callable[[str], None], provenance: bool = False,
                  wanted: Optional[Callable[[str], bool]] = None, allowed: Any = frozenset(),
                  findings: Optional[List[Dict[str, Any]]] = None, separator: str = '__') -> Dict[str, Any]:
        # loaded by the inventory and vars plugins, not by a lookup in a forked worker
        from ansible_collections.strata.hier.plugins.plugin_utils.host_vars import merged_host_vars
        return merged_host_vars(self._hierarchy, self._variables, self._expansions, warn, provenance, wanted, allowed,
                                findings)

    def check(self, keys: Optional[Sequence[str]] = None) -> List[Dict[str, Any]]:
        if not self._hierarchy.config.constraints:
            return []
        from ansible_collections.strata.hier.plugins.plugin_utils.constraint_check import check_node
        return check_node(self._hierarchy, self._expansions, self.host, keys)

    def _answer(self, resolution: Resolution) -> Answer:
        return Answer(resolution.key, resolution.value, resolution.found, resolution.rule, resolution.records,
                      resolution.warnings, resolution.vaulted, resolution.explain, lambda: _trace(resolution, self.host),
                      eyaml=self._eyaml)


def _trace(resolution: Resolution, host: Optional[str]) -> List[str]:
    """-vvv: the rule, one line per level (LEVEL STATE WHERE [WHY], each word said once), then the origins."""
    lines = ['strata.hier.hier %s %s: rule %r, strategy %s'
             % (host or '(no host)', resolution.key, resolution.rule, resolution.strategy.name)]
    for level in resolution.levels:
        reason = level['reason']
        if level['skipped']:
            state, place = 'skipped', ''
        elif level['found']:
            state, place = 'found', level['file'] or level['path']
            reason = 'whole-file vaulted' if level.get('vaulted') else ''
        else:
            state, place = 'not found', level['file'] or level['path']
            reason = {'not found': '', 'null (not found)': 'null'}.get(reason, reason)
        line = '  %-40s %-9s %s' % (level['level'], state, place or '')
        lines.append(line.rstrip() + ('  (%s)' % reason if reason else ''))
    return lines + origin_lines(resolution.records)
