# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""What a data change does to every host: each host's resultant set of data at two git refs, compared, each change
with the lines that cause it (docs/rsop.md).

``rsop_diff(folder, base, head)`` is the entry of the ``strata.hier.rsop_diff`` module and collection playbook, and of
CI jobs without a play (``python -m ansible_collections.strata.hier.plugins.plugin_utils.jobs.rsop_diff``).  It reads
each ref's files from ``git archive`` (the work tree is never touched; the head may be the work tree itself), finds
the hosts as the inventory plugin does (the configuration's ``nodes``), and merges, with provenance, only the hosts
a changed file can reach: those whose level paths (at either ref) lead to or into a changed data file, every host
when the configuration changed or, in a Datum store, whose handlers may read any file, a data file changed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, Dict, List, Optional, Set, Tuple

from ansible_collections.strata.hier.plugins.plugin_utils.sources.hier_yml import load_config
from ansible_collections.strata.hier.plugins.plugin_utils.jobs.git_refs import WORK_TREE, Changes, Trees
from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy import Hierarchy, HierarchyError
from ansible_collections.strata.hier.plugins.plugin_utils.jobs.repository import command_line_loader, config_in
from ansible_collections.strata.hier.plugins.plugin_utils.nodes import named_nodes
from ansible_collections.strata.hier.plugins.plugin_utils.jobs.rsop_changes import Comparison, Secrets, tuple_keys_of
from ansible_collections.strata.hier.plugins.plugin_utils.jobs.rsop_diff_report import HostDiff, build_report
from ansible_collections.strata.hier.plugins.plugin_utils.store import DATA_EXTENSIONS, StoreError


class HostData:
    """One host at one ref: its variables' data (key -> value), provenance records, level paths and node file."""

    __slots__ = ('values', 'records', 'levels', 'node_file', 'vaulted', 'error', 'expansions')

    def __init__(self, node_file: str, expansions: Any = None) -> None:
        self.node_file, self.expansions = node_file, expansions
        self.levels = [_joined(expansion.path) for expansion in expansions or () if expansion.path is not None]
        self.values: Dict[str, Any] = {}
        self.records: Dict[str, Any] = {}
        self.vaulted: Set[str] = set()
        self.error: Optional[str] = None


class Side:
    """The store at one ref: its hierarchy, and its hosts with their variables and level paths."""

    def __init__(self, root: str, config: str, loader: Any) -> None:
        self.root, self.config = root, config
        self.hierarchy = Hierarchy(load_config(os.path.join(root, config), loader), loader)
        self.hierarchy.begin_pass()
        self.refused: List[str] = []
        self.hosts: Dict[str, Tuple[Dict[str, Any], HostData]] = {}
        for name, (node_file, data) in named_nodes(self.hierarchy.nodes(), self.refused.append).items():
            variables = dict(data) if isinstance(data, Mapping) else {}
            variables['inventory_hostname'] = name
            self.hosts[name] = (variables, self._host(variables, node_file))

    def _host(self, variables: Dict[str, Any], node_file: str) -> HostData:
        try:
            return HostData(self.relative(node_file), self.hierarchy.expand_levels(variables))
        except (HierarchyError, StoreError) as exc:
            host = HostData(self.relative(node_file))
            host.error = str(exc)
            return host

    def relative(self, path: str) -> str:
        return os.path.relpath(path, self.root)

    def merge(self, name: str) -> HostData:
        """The host's resultant set of data, with provenance."""
        variables, host = self.hosts[name]
        if host.error is not None or host.expansions is None:
            return host
        expansions, host.expansions = host.expansions, None      # merged once
        try:
            for key, resolution in self.hierarchy.resolve_node(variables, expansions=expansions,
                                                               provenance=True).items():
                host.values[key] = resolution.value
                host.records.update(resolution.records or {})
                if resolution.vaulted:
                    host.vaulted.add(key)
        except (HierarchyError, StoreError) as exc:
            host.error = str(exc)
        return host

    def level_paths(self, name: str) -> List[str]:
        return self.hosts[name][1].levels

    def folders(self) -> Set[str]:
        """The folders of the store (the data folder, a Datum store's mounted folders), relative to the top."""
        datadir = self.hierarchy.config.datadir
        mounted = {self.relative(os.path.join(datadir, folder)) for folder in (self.hierarchy.config.mounts or {}).values()}
        return {self.datadir} | {folder for folder in mounted if not folder.startswith('..')}

    @property
    def datadir(self) -> str:
        """The data folder, relative to the repository's top."""
        return self.relative(self.hierarchy.config.datadir)


def _joined(path: Any) -> str:
    return '/'.join(str(part) for part in path)


def rsop_diff(folder: str, base: str, head: Optional[str] = WORK_TREE, config: Optional[str] = None,
              loader: Any = None) -> Dict[str, Any]:
    """The report of what changes for every host from ``base`` to ``head`` (docs/rsop.md, schema v1)."""
    if loader is None:
        from ansible.parsing.dataloader import DataLoader
        loader = DataLoader()
    with Trees(folder, base, head) as trees:
        config = config_in(trees.repo, folder, config, 'strata.hier rsop diff')
        sides = [Side(root, config, loader) for root in trees.roots]
        changes = trees.changes(sorted({config}.union(*(side.folders() for side in sides))))
        diffs, recomputed = _host_diffs(sides, changes, config, loader)
        return build_report(trees.names(), sides, diffs, changes, recomputed, config)


def _host_diffs(sides: List[Side], changes: Changes, config: str, loader: Any) -> Tuple[Dict[str, HostDiff], int]:
    """Each host a change can reach, merged at both refs and compared."""
    base, head = sides
    reach = _Reach(changes, config, base, head)
    diffs: Dict[str, HostDiff] = {}
    recomputed = 0
    secrets = Secrets(loader)
    for name in sorted(set(base.hosts) | set(head.hosts)):
        if not reach.reaches(name):
            continue
        recomputed += 1
        before = base.merge(name) if name in base.hosts else None
        after = head.merge(name) if name in head.hosts else None
        diff = HostDiff(name, before, after)
        if before is not None and after is not None and before.error is None and after.error is None:
            withheld = _withheld_paths(before, after)
            comparison = Comparison(secrets, tuple_keys_of(head.hierarchy.config.rules), withheld)
            diff.changes = comparison.compare(before.values, after.values)
        diffs[name] = diff
    return diffs, recomputed


def _withheld_paths(before: HostData, after: HostData) -> Any:
    """Whether a change at a path (head's, base's) shows data of a whole-file vaulted file."""
    def withheld(head_path: str, base_path: str) -> bool:
        for host, path in ((after, head_path), (before, base_path)):
            if path.split('/')[0] in host.vaulted or (host.records.get(path) or {}).get('withheld'):
                return True
        return False
    return withheld


class _Reach:
    """Which hosts a change can reach (module docstring)."""

    def __init__(self, changes: Changes, config: str, base: Side, head: Side) -> None:
        self._base, self._head = base, head
        datadirs = {base.datadir, head.datadir}
        self._stems: Set[str] = set()
        self._everything = config in changes.files or len(datadirs) > 1
        self._fold = base.hierarchy.config.case_insensitive_keys or head.hierarchy.config.case_insensitive_keys
        for path in changes.files:
            inside = _inside(path, base.datadir)
            if inside is not None:
                self._stems.add(self._folded(_stem(inside)))
        if changes.files - {config} and 'datum' in (base.hierarchy.config.dialect, head.hierarchy.config.dialect):
            self._everything = True     # a Datum handler may read any file of the store, mounted folders too
        self._node_files = set(changes.files)

    def reaches(self, name: str) -> bool:
        if self._everything:
            return True
        for side in (self._base, self._head):
            if name not in side.hosts:
                return True         # a node added or removed
            if side.hosts[name][1].node_file in self._node_files:
                return True
            for level in side.level_paths(name):
                if any(_related(stem, self._folded(level)) for stem in self._stems):
                    return True
        return False

    def _folded(self, path: str) -> str:
        """A store with case-insensitive keys finds files whatever their case: so does the reach."""
        return path.casefold() if self._fold else path


def _inside(path: str, folder: str) -> Optional[str]:
    relative = os.path.relpath(path, folder)
    return None if relative.startswith('..') else relative.replace(os.sep, '/')


def _stem(path: str) -> str:
    for extension in DATA_EXTENSIONS:
        if path.endswith(extension):
            return path[:-len(extension)]
    return path


def _related(stem: str, level: str) -> bool:
    """A data file (its path without extension) is read by a level path: the same, inside the level's folder, or the
    level's keys inside the file."""
    return stem == level or stem.startswith(level + '/') or level.startswith(stem + '/')


def main(argv: Optional[List[str]] = None) -> int:
    """CI without a play: ``python -m ansible_collections.strata.hier.plugins.plugin_utils.jobs.rsop_diff --base main``
    (the collection's parent folder on PYTHONPATH) writes the report and exits 1 when a ``--fail-if`` gate fails, 2 on
    an error."""
    import argparse
    import sys
    from ansible.errors import AnsibleError
    from ansible_collections.strata.hier.plugins.plugin_utils.jobs.rsop_diff_report import gate_failures, write_report
    parser = argparse.ArgumentParser(prog='rsop_diff', description='What a data change does to every host.')
    parser.add_argument('--base', required=True, help='the git ref to compare with')
    parser.add_argument('--head', default=None, help='the git ref to compare (default: the work tree)')
    parser.add_argument('--source', default=None, help='hier.yml, Datum.yml or a *.hier.yml inventory source')
    parser.add_argument('--out', default='rsop-diff', help='folder for rsop-diff.json and rsop-diff.md')
    parser.add_argument('--vault-password-file', default=None)
    parser.add_argument('--fail-if', default='errors',
                        help='comma-separated summary counts that fail the job when above 0 (default: errors; "" for none)')
    options = parser.parse_args(argv)
    loader = command_line_loader(options.vault_password_file)
    try:
        report = rsop_diff(os.getcwd(), options.base, options.head, options.source, loader)
        failures = gate_failures(report, [name for name in options.fail_if.split(',') if name])
    except (AnsibleError, ValueError) as exc:
        sys.stderr.write('%s\n' % exc)
        return 2
    json_path, markdown_path = write_report(report, options.out)
    sys.stdout.write('%s\n%s\n' % (json_path, markdown_path))
    if failures:
        sys.stderr.write('strata.hier rsop diff: fail_if: %s\n' % ', '.join(failures))
        return 1
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
