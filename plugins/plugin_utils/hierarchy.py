# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""A hierarchy: its configuration, its data store and lookups across its levels.

Used by the lookup plugin (and by the inventory plugin, which looks up every key of a node).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ansible.errors import AnsibleError

from ansible_collections.strata.hier.plugins.module_utils.errors import MergeDepthError, MergeError
from ansible_collections.strata.hier.plugins.module_utils.levels import Expansion, expand
from ansible_collections.strata.hier.plugins.module_utils.merging import merge_layers
from ansible_collections.strata.hier.plugins.module_utils.rules import join_path, split_path
from ansible_collections.strata.hier.plugins.plugin_utils.compat import CompleteMessage, is_vault_value
from ansible_collections.strata.hier.plugins.plugin_utils.config import HierarchyConfig, load_config
from ansible_collections.strata.hier.plugins.plugin_utils.datum_handlers import (
    DatumHandlerError, NodeContext, is_handler,
)
from ansible_collections.strata.hier.plugins.plugin_utils.source_lines import where
from ansible_collections.strata.hier.plugins.plugin_utils.store import DataStore
from ansible_collections.strata.hier.plugins.plugin_utils.walk import find


def is_datum_handler(text: str) -> bool:
    """Whether a string holds a Datum handler, as Datum matches them (PowerShell's -match ignores case):
    InvokeCommand's ``[x= ... =]`` anywhere in it, ProtectedData's ``[ENC=...]`` as the whole (stripped) value.

    Datum's regexes, ``\\[x=[\\s\\S]*=\\]`` and ``^\\[ENC=[\\s\\S]*\\]$``, answered by plain string search: Python's
    backtracking takes quadratic time on them (a string of 50,000 ``[x=`` took seconds).
    """
    lowered = text.strip().lower()
    start = lowered.find('[x=')
    if start >= 0 and lowered.find('=]', start + 3) >= 0:
        return True
    return lowered.startswith('[enc=') and lowered.endswith(']') and len(lowered) >= 6


class HierarchyError(CompleteMessage, AnsibleError):
    """A lookup in the hierarchy cannot give a trustworthy answer."""


@dataclass
class Resolution:
    """A key looked up for one node, with what explain reports."""

    key: str
    value: Any
    found: bool
    strategy: Any
    rule: str
    levels: List[Dict[str, Any]] = field(default_factory=list)
    warnings: List[str] = field(default_factory=list)
    sources: List[int] = field(default_factory=list)
    """Indexes of the levels whose values are in the result, most specific first."""

    def provenance(self) -> List[Dict[str, Any]]:
        """The levels and files of the value, most specific first; ``vaulted: true`` marks a whole-file vaulted file."""
        return [dict(level=self.levels[index]['level'], file=self.levels[index]['file'],
                     **({'vaulted': True} if self.levels[index].get('vaulted') else {}))
                for index in self.sources]

    @property
    def vaulted(self) -> bool:
        """Whether part of the value comes from a whole-file vaulted file (decrypted, so plain text now)."""
        return any(self.levels[index].get('vaulted') for index in self.sources)

    def explain(self) -> Dict[str, Any]:
        strategy = dict(self.strategy.describe(), name=self.strategy.name)
        return {'key': self.key, 'value': self.value, 'found': self.found, 'strategy': strategy,
                'rule': self.rule, 'levels': self.levels}


class Hierarchy:
    """Levels of one configuration over its data store."""

    def __init__(self, config: HierarchyConfig, loader: Any) -> None:
        self.config = config
        self.store = DataStore(config.datadir, loader, config.case_insensitive_keys, config.mounts,
                               list_members=config.dialect == 'datum')
        self._handler_free: Dict[str, Tuple[Any, bool]] = {}   # file -> (its parsed data, holds no handler)
        self._relatives: Dict[str, str] = {}                    # file -> its path relative to datadir

    def expand_levels(self, variables: Mapping, fetch: Optional[Callable] = None) -> List[Expansion]:
        read = _without_vault_values(fetch)
        expansions: List[Expansion] = []
        datum = None
        if self.config.dialect == 'datum':      # Datum's handlers: datum_handlers.py
            expansions = datum = DatumExpansions(NodeContext(self, variables))
            read = _without_vault_values(datum.context.level_variable(_plain_read(fetch)))
        for level in self.config.levels:
            try:
                if datum is not None and is_handler(level):
                    expansions.append(datum.context.expand_level(level))
                    continue
                expansions.append(expand(level, variables, read, self.config.case_insensitive_keys))
            except MergeError as exc:
                raise HierarchyError('%s: %s' % (self.config.path, exc)) from exc
            except _VaultInLevel as exc:
                raise HierarchyError('%s: level %r: %s' % (self.config.path, level, exc)) from exc
            except DatumHandlerError as exc:
                raise HierarchyError('level %r: %s' % (level, exc)) from exc
        return expansions

    def lookup(self, key: str, variables: Mapping, fetch: Optional[Callable] = None, merge: Any = None,
               expansions: Optional[List[Expansion]] = None) -> Resolution:
        """Merge a key path across the levels expanded from a node's variables."""
        return self._lookup(key, expansions or self.expand_levels(variables, fetch), merge)

    def _lookup(self, key: str, expansions: Sequence[Expansion], merge: Any = None,
                starts: Optional[list] = None) -> Resolution:
        """``lookup``; ``starts`` holds each level's store ``start`` and path text in this pass (from ``keys_of``)."""
        segments = split_path(key)
        if not segments:
            raise HierarchyError('an empty key path was looked up')
        try:
            rules = self.config.rules if merge is None else self.config.rules.with_rule(segments, merge, 'merge')
        except MergeError as exc:
            raise HierarchyError('lookup of %r: %s' % (key, exc)) from exc
        prefix = rules.resolve(segments)[0].knockout_prefix
        values, reports, files = self._read_levels(expansions, segments, prefix, starts)
        try:
            result = merge_layers(values, rules, segments)
        except MergeError as exc:
            raise HierarchyError('lookup of %r: %s' % (key, exc)) from exc
        if result.found and self.config.dialect != 'datum' and self._may_hold_handlers(files):
            self._refuse_datum_handlers(result.value, values, reports, segments)
        return Resolution(join_path(segments), result.value, result.found, result.strategy, result.rule,
                          reports, result.warnings, _levels_used(result.sources))

    def resolve_node(self, variables: Mapping, fetch: Optional[Callable] = None,
                     expansions: Optional[List[Expansion]] = None) -> Dict[str, Resolution]:
        """A node's resultant set of data: every top-level key of its levels, each as its lookup gives it."""
        expansions = expansions or self.expand_levels(variables, fetch)
        starts: list = []
        resolutions = {}
        for key in self.keys_of(expansions, starts):
            resolution = self._lookup(key, expansions, starts=starts)
            if resolution.found:
                resolutions[key] = resolution
        return resolutions

    def keys_of(self, expansions: Sequence[Expansion], starts: Optional[list] = None) -> List[str]:
        """Top-level keys of the levels, most specific first, knockout markers left out.

        ``starts``, an empty list, receives for each level the store's ``start`` and the level's path as text
        (None for a skipped level).
        """
        keys: Dict[Any, str] = {}
        prefixes = self._prefixes()
        for expansion in expansions:
            if expansion.path is None:
                if starts is not None:
                    starts.append(None)
                continue
            start = self.store.start(expansion.path)
            if starts is not None:
                starts.append((start, join_path(expansion.path)))
            document = self.store.get_from(start, expansion.path, ()).value
            if isinstance(document, Mapping):
                for key in document:
                    if isinstance(key, str) and not self._is_marker(key, prefixes):
                        keys.setdefault(self.config.rules.fold(key), key)
        return list(keys.values())

    def _is_marker(self, key: str, prefixes: Optional[List[str]] = None) -> bool:
        """``--Key`` is a knockout when the rule of ``Key`` has that prefix."""
        for prefix in self._prefixes() if prefixes is None else prefixes:
            if key.startswith(prefix) and self.config.rules.resolve((key[len(prefix):],))[0].knockout_prefix == prefix:
                return True
        return False

    def _prefixes(self) -> List[str]:
        rules = self.config.rules
        found = {rules.default[0].knockout_prefix}
        found.update(rule[0].knockout_prefix for rule in rules.all_rules())
        return [prefix for prefix in found if prefix]

    def _read_levels(self, expansions: Sequence[Expansion], segments: Tuple[str, ...],
                     prefix: Optional[str], starts: Optional[list] = None) -> Tuple[list, list, list]:
        """Each level's value of the key path, its explain report, and the file (or folder) it came from."""
        values, reports, files, knocked_by = [], [], [], None
        for index, expansion in enumerate(expansions):
            report = {'level': expansion.level, 'path': None, 'file': None, 'found': False, 'skipped': False,
                      'reason': ''}
            reports.append(report)
            values.append(None)
            files.append(None)
            if expansion.path is None or knocked_by:
                report.update(skipped=True, reason=expansion.reason or 'knocked out at %s' % knocked_by)
                continue
            if starts is None:
                report['path'] = join_path(expansion.path)
                found = self.store.get(expansion.path + segments, prefix)
            else:
                start, report['path'] = starts[index]
                found = self.store.get_from(start, expansion.path, segments, prefix)
            report['file'] = self._relative(found.file)
            if found.knocked_out:
                knocked_by = report['file']
                report['reason'] = 'knocks the key out of less specific levels'
            elif found.value is None:
                report['reason'] = 'null (not found)' if found.file else 'not found'
            else:
                report['found'] = True
                values[-1] = found.value
                files[-1] = found.file
                if isinstance(expansions, DatumExpansions) and self._may_hold_handlers([found.file]):
                    values[-1] = self._resolve_handlers(expansions.context, found, report, segments)
                if self.store.vaulted(found.file):
                    report['vaulted'] = True
        return values, reports, files

    def _may_hold_handlers(self, files: Sequence[Optional[str]]) -> bool:
        """Whether a value read from these files may hold a Datum handler (False: none of the files holds one).

        Only a level value holding a handler makes ``_refuse_datum_handlers`` raise; a file is walked once
        per parse. A folder read as a map is not checked here (True).
        """
        for file in files:
            if file is None:
                continue
            data = self.store.parsed(file)
            if data is None:
                return True
            known = self._handler_free.get(file)
            if known is None or known[0] is not data:
                known = (data, not _may_hold_handler(data))
                self._handler_free[file] = known
            if not known[1]:
                return True
        return False

    def _resolve_handlers(self, context: NodeContext, found: Any, report: dict, segments: Tuple[str, ...]) -> Any:
        """A Datum store: the level's value with its handlers evaluated in its file (datum_handlers.py)."""
        try:
            return context.resolve(found.value, found.file, self._keys_in_file(report, segments))
        except (DatumHandlerError, MergeError) as exc:
            raise HierarchyError('lookup of %r: %s' % (join_path(segments), exc)) from exc

    def _relative(self, path: Optional[str]) -> Optional[str]:
        if not path:
            return None
        relative = self._relatives.get(path)
        if relative is None:
            if path.startswith(self.store.root + os.sep):
                relative = path[len(self.store.root) + 1:]
            else:
                relative = os.path.relpath(path, self.store.root)
            self._relatives[path] = relative
        return relative

    def _refuse_datum_handlers(self, merged: Any, values: list, reports: list, segments: Tuple[str, ...]) -> None:
        """Datum handlers cannot run here: say where one is rather than return its text."""
        if _handler_in(merged) is None:
            return
        for value, report in zip(values, reports):
            located = _handler_in(value)
            if located is not None:
                keys, text = located
                file = os.path.join(self.store.root, report['file'])
                raise HierarchyError(
                    '%s: key %r holds the Datum handler %r, which strata.hier does not run; '
                    'replace it with plain data (or an Ansible vault value for [ENC=...])'
                    % (where(file, self._keys_in_file(report, segments) + list(keys)),
                       join_path(segments + keys), _shorten(text)))

    def _keys_in_file(self, report: dict, segments: Tuple[str, ...]) -> List[str]:
        """The keys of a level's path and of the looked-up key that lie inside the level's file."""
        file_stem = os.path.splitext(os.path.basename(report['file']))[0]
        full = split_path(report['path']) + segments
        for position, part in enumerate(full):
            if part == file_stem or (self.config.case_insensitive_keys and part.casefold() == file_stem.casefold()):
                return list(full[position + 1:])
        return list(segments)


class DatumExpansions(list):
    """A Datum store's levels expanded for one node, with the node's handler context."""

    def __init__(self, context: NodeContext) -> None:
        super().__init__()
        self.context = context


def _plain_read(fetch: Optional[Callable]) -> Callable:
    return fetch or (lambda variables, name: variables[name])


class _VaultInLevel(HierarchyError):
    """A level's variable is a vault value: its text would be shown in explain output, traces and errors."""


class _VaultText(object):
    """Stands for a vault value in a level's variables; writing it into a path is refused, never decrypted."""

    __slots__ = ('name',)

    def __init__(self, name: str) -> None:
        self.name = name

    def __str__(self) -> str:
        raise _VaultInLevel('variable %r is (or holds) a vault value; a level path is shown in explain output, '
                            'traces and errors, so it cannot be a secret' % self.name)


def _without_vault_values(fetch: Optional[Callable]) -> Callable:
    """``fetch`` for ``expand``, with a vault value (also inside a map) standing as _VaultText."""
    def read(variables: Mapping, name: str) -> Any:
        return _guarded(fetch(variables, name) if fetch else variables[name], name)
    return read


def _guarded(value: Any, name: str) -> Any:
    if is_vault_value(value):
        return _VaultText(name)
    return _GuardedMap(value, name) if isinstance(value, Mapping) else value


class _GuardedMap(Mapping):
    """A map of a level's variable, read key by key (only the keys a placeholder names), vault values guarded."""

    def __init__(self, mapping: Mapping, name: str) -> None:
        self._mapping = mapping
        self._name = name

    def __getitem__(self, key: Any) -> Any:
        return _guarded(self._mapping[key], '%s.%s' % (self._name, key))

    def __iter__(self) -> Any:
        return iter(self._mapping)

    def __len__(self) -> int:
        return len(self._mapping)

    def __contains__(self, key: Any) -> bool:
        return key in self._mapping


_GuardedMap.__name__ = 'map'     # a level error says "variable 'X' is a map, not a name"


def _levels_used(sources: Any) -> List[int]:
    """merge_layers' sources (a list, or a list per key of a map) -> the levels used."""
    if isinstance(sources, Mapping):
        return sorted({index for indexes in sources.values() for index in indexes})
    return list(sources or [])


def _handler_in(value: Any) -> Optional[Tuple[Tuple[str, ...], str]]:
    """The key path and text of a Datum handler held in the value (each shared container looked at once)."""
    return find(value, lambda item: isinstance(item, str) and is_datum_handler(item))


def _may_hold_handler(value: Any) -> bool:
    """Whether a file's data holds a Datum handler string; True also when it nests too deep to tell."""
    try:
        return _handler_in(value) is not None
    except MergeDepthError:
        return True


def _shorten(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + '...'


_HIERARCHIES: Dict[str, Tuple[int, Hierarchy]] = {}


def get_hierarchy(config_path: str, loader: Any) -> Hierarchy:
    """One Hierarchy per configuration file and process, re-read when the file changes."""
    real = os.path.realpath(config_path)
    mtime = os.stat(real).st_mtime_ns if os.path.exists(real) else -1
    cached = _HIERARCHIES.get(real)
    if cached and cached[0] == mtime:
        return cached[1]
    hierarchy = Hierarchy(load_config(config_path, loader), loader)
    _HIERARCHIES[real] = (mtime, hierarchy)
    return hierarchy
