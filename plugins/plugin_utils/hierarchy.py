# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""A hierarchy: its configuration, its data store and lookups across its levels.

Used by the lookup plugin (and by the inventory plugin, which looks up every key of a node).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ansible_collections.strata.hier.plugins.module_utils.dialects.datum.syntax import is_handler
from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeError
from ansible_collections.strata.hier.plugins.module_utils.core.identity import is_opaque
from ansible_collections.strata.hier.plugins.module_utils.core.levels import Expansion
from ansible_collections.strata.hier.plugins.module_utils.core.mapped_levels import expand_level
from ansible_collections.strata.hier.plugins.module_utils.core.merging import cycle_collection_paused, merge_layers
from ansible_collections.strata.hier.plugins.module_utils.core.rules import join_path, split_path
from ansible_collections.strata.hier.plugins.plugin_utils.config import HierarchyConfig, HierarchyError, level_position, missing_datadir
from ansible_collections.strata.hier.plugins.plugin_utils.eyaml import EyamlKeys
from ansible_collections.strata.hier.plugins.plugin_utils.handler_check import DatumHandlerError, HandlerCheck
from ansible_collections.strata.hier.plugins.plugin_utils.source_lines import Positions, file_line, line_of
from ansible_collections.strata.hier.plugins.plugin_utils.store import NOT_FOUND, DataStore, Found, StoreError, named_entry
from ansible_collections.strata.hier.plugins.plugin_utils.undefined_levels import undefined_error


class Resolution:
    """A key looked up for one node, with what explain reports.

    ``sources``: indexes of the levels whose values are in the result, most specific first.
    ``paths``: looked up with explain, the strategy each map and list of the value merged by (merging.PathTrace).
    """

    __slots__ = ('key', 'value', 'found', 'strategy', 'rule', 'levels', 'warnings', 'sources', 'paths', 'records')

    def __init__(self, key: str, value: Any, found: bool, strategy: Any, rule: str, levels: List[Dict[str, Any]],
                 warnings: List[str], sources: List[int], paths: Optional[List[Dict[str, Any]]] = None) -> None:
        self.key, self.value, self.found, self.strategy, self.rule = key, value, found, strategy, rule
        self.levels, self.warnings, self.sources, self.paths = levels, warnings, sources, paths
        self.records: Optional[Dict[str, Any]] = None
        """Looked up with provenance: path -> where it comes from (provenance_report.py)."""

    def provenance(self) -> List[Dict[str, Any]]:
        """The levels and files of the value, most specific first; ``vaulted: true`` marks a value taking data of a
        whole-file vaulted file (its own, or one its Datum handlers read)."""
        return [dict(level=self.levels[index]['level'], file=self.levels[index]['file'],
                     **({'vaulted': True} if self.levels[index].get('vaulted') else {}))
                for index in self.sources]

    @property
    def vaulted(self) -> bool:
        """Whether part of the value comes from a whole-file vaulted file (decrypted, so plain text now)."""
        return any(self.levels[index].get('vaulted') for index in self.sources)

    def explain(self) -> Dict[str, Any]:
        """``strategy`` and ``rule``: the looked-up key's; ``paths`` (looked up with explain): what each map and
        list in the value actually merged by, which for nested values may be another rule's strategy."""
        strategy = dict(self.strategy.describe(), name=self.strategy.name)
        report = {'key': self.key, 'value': self.value, 'found': self.found, 'strategy': strategy,
                  'rule': self.rule, 'levels': self.levels}
        if self.paths is not None:
            report['paths'] = self.paths
        return report


class Hierarchy:
    """Levels of one configuration over its data store: all the lookup and inventory plugins talk to."""

    def __init__(self, config: HierarchyConfig, loader: Any) -> None:
        self.config = config
        if not os.path.isdir(config.datadir):
            raise StoreError(missing_datadir(config))
        eyaml = None if config.eyaml is None else \
            EyamlKeys(os.path.dirname(config.path), config.eyaml[0], config.eyaml[1], os.path.basename(config.path))
        self._store = DataStore(config.datadir, loader, config.case_insensitive_keys, config.mounts,
                                list_members=config.dialect == 'datum', eyaml=eyaml)
        self._handlers = HandlerCheck(self._store, config.case_insensitive_keys)
        self._relatives: Dict[str, str] = {}       # file -> its path relative to datadir
        self._shown_paths: Dict[Tuple[str, ...], str] = {}   # a level's path -> as text
        self._positions: Optional[Positions] = None     # provenance: lines of keys in the files
        self._shown_files: Dict[str, str] = {}      # provenance: a file -> relative to the configuration's folder
        self._rule_positions: Dict[str, Dict[str, Any]] = {}     # provenance: a rule -> rule_fields()
        self._pass_layers: Dict[Tuple[Any, ...], Tuple[Tuple[Any, ...], Dict[Any, Any]]] = {}   # _Locator's, this pass

    def positions(self) -> Positions:
        """The lines of keys in this hierarchy's files, for provenance (each file composed once per change)."""
        if self._positions is None:
            self._positions = Positions(self.config.case_insensitive_keys)
        return self._positions

    def shown_file(self, path: str) -> str:
        """A file as provenance names it: relative to the configuration's folder."""
        shown = self._shown_files.get(path)
        if shown is None:
            shown = self._shown_files[path] = os.path.relpath(path, os.path.dirname(self.config.path))
        return shown

    def rule_fields(self, name: str) -> Dict[str, Any]:
        """A provenance record's ``{rule, rule_at}`` of a rule: ``rule_at`` the ``file:line`` declaring it (a
        ``lookup_options`` key, ``default_lookup_options``), ``merge=`` for the lookup's option, None for a default
        that is not written. One dict per rule, read only: records copy it."""
        fields = self._rule_positions.get(name)
        if fields is None:
            if name == 'merge':
                position: Optional[str] = 'the lookup call (merge=)'
            else:
                keys = ['default_lookup_options'] if name == 'default_lookup_options' else ['lookup_options', name]
                line = self.positions().position(self.config.path, keys)[0]
                position = file_line(self.shown_file(self.config.path), line) if line else None
            fields = self._rule_positions[name] = {'rule': name, 'rule_at': position}
        return fields

    def begin_pass(self) -> None:
        """Check files and folders for changes again (once each until the next pass).

        A pass is one lookup call or one inventory parse: within it, the data is a snapshot.
        """
        self._store.begin_pass()
        if self._positions is not None:
            self._positions.begin_pass()
        self._pass_layers = {}

    def preload(self) -> int:
        """Every data file loaded and walked for Datum handlers, in a pass of its own, as lookups would (the preload
        callback, before ansible-playbook forks its workers, which then find them done); how many files."""
        self.begin_pass()
        files = self._store.preload()
        if self.config.dialect != 'datum':      # only these lookups ask may_hold (Datum's resolve the handlers)
            for file in files:
                self._handlers.may_hold([file])
        return len(files)

    def nodes(self) -> List[Tuple[str, Any]]:
        """(node file, its data) for every file the configuration's ``nodes`` glob matches, sorted by file."""
        from ansible_collections.strata.hier.plugins.plugin_utils.nodes import node_files     # the inventory's
        return [(node_file, self._store.load(node_file))
                for node_file in node_files(self._store, self.config.nodes, self.config.path)]

    def fingerprint(self, paths: Sequence[str]) -> str:
        """Changes whenever a data file, or a file of ``paths`` (the configuration, an inventory source), changes."""
        digest = hashlib.sha256()
        for path in list(paths) + self._store.data_files():
            try:
                stat = os.stat(path)
            except OSError as exc:
                raise HierarchyError('strata.hier.hier: cannot read %s: %s' % (path, exc)) from exc
            line = '%s\0%s\0%d\0%d\n' % (path, os.path.realpath(path), stat.st_mtime_ns, stat.st_size)
            digest.update(line.encode('utf-8', 'surrogateescape'))
        return digest.hexdigest()

    def expand_levels(self, variables: Mapping, fetch: Optional[Callable] = None,
                      strict: Optional[bool] = None) -> 'Expansions':
        """Each level's path(s) for a node's variables, most specific first. A level variable the node does not have
        skips its level (``Expansions.undefined``), or with ``strict`` (None: the configuration's strict_levels) is
        an UndefinedLevelError naming the host, the level and the configuration line."""
        read = _without_vault_values(fetch)
        expansions = Expansions()
        datum = None
        if self.config.dialect == 'datum':      # Datum's handlers: datum_handlers.py, loaded for Datum stores only
            from ansible_collections.strata.hier.plugins.plugin_utils.datum_handlers import NodeContext
            expansions = datum = DatumExpansions(NodeContext(self.config, self._store, variables))
            read = _without_vault_values(datum.context.level_variable(_plain_read(fetch)))
        for index, level in enumerate(self.config.levels):
            try:
                own = [datum.context.expand_level(level)] if datum is not None and is_handler(level) \
                    else expand_level(level, variables, read, self.config.case_insensitive_keys)
            except MergeError as exc:
                raise HierarchyError('%s: %s' % (self.config.path, exc)) from exc
            except _VaultInLevel as exc:
                raise HierarchyError('%s: level %r: %s' % (self.config.path, level, exc)) from exc
            except DatumHandlerError as exc:
                raise HierarchyError('level %r: %s' % (level, exc)) from exc
            expansions.note(index, own)
        if expansions.undefined and (self.config.strict_levels if strict is None else strict):
            raise undefined_error(variables.get('inventory_hostname'), expansions.undefined, self.level_position)
        return expansions

    def level_position(self, index: int) -> str:
        """``file:line: level 'as written'`` of the configuration's level ``index``, for messages."""
        return level_position(self.config, index)

    def lookup(self, key: str, variables: Mapping, fetch: Optional[Callable] = None, merge: Any = None,
               expansions: Optional[List[Expansion]] = None, explain: bool = False,
               provenance: bool = False) -> Resolution:
        """Merge a key path across the levels expanded from a node's variables; ``explain``: also note the
        strategy each nested path merged by (``Resolution.paths``), ``provenance``: where each part of the value
        comes from (``Resolution.records``); both cost the merge its fast paths."""
        return self._lookup(key, expansions or self.expand_levels(variables, fetch), merge, explain, provenance)

    def resolve_node(self, variables: Mapping, fetch: Optional[Callable] = None,
                     expansions: Optional[List[Expansion]] = None,
                     provenance: bool = False) -> Dict[str, Resolution]:
        """A node's resultant set of data: every top-level key of its levels, each as its lookup gives it."""
        expansions = expansions or self.expand_levels(variables, fetch)
        resolutions = {}
        for key in self.keys_of(expansions):
            resolution = self._lookup(key, expansions, provenance=provenance)
            if resolution.found:
                resolutions[key] = resolution
        return resolutions

    def key_places(self, resolution: Resolution) -> List[str]:
        """Where a looked-up key is written: each level file of its value, relative to datadir, with the line when
        known (``file:line``), most specific first; for warnings about a top-level key."""
        segments = split_path(resolution.key)
        places = []
        for index in resolution.sources:
            report = resolution.levels[index]
            if report.get('file'):
                path = os.path.normpath(os.path.join(self._store.root, report['file']))
                line = line_of(path, self._handlers.keys_in_file(path, report['path'], segments))
                places.append(file_line(report['file'], line))
        return places

    def path_levels(self, expansions: Sequence[Expansion], segments: Tuple[str, ...]) -> List['PathLevel']:
        """What each level writes at a key path, most specific first, through knockouts (constraint_check.py)."""
        prefix = self.config.rules.resolve(segments).strategy.knockout_prefix
        read = self._read_levels(expansions, segments, prefix, through_knockouts=True)
        levels = []
        for expansion, report, value, file in zip(expansions, read.reports, read.values, read.files):
            knocks = report.get('knocks')       # (a map above the path knocked out: constraint_check reads it)
            file = file or knocks
            keys: List[Any] = []
            if file is not None:
                keys = list(self._handlers.keys_in_file(file, report['path'], segments))
                if knocks and keys:
                    keys[-1] = (prefix or '') + str(keys[-1])
            levels.append(PathLevel(expansion.level, file, self.shown_file(file) if file else None, keys,
                                    None if knocks else value, bool(knocks), bool(report.get('vaulted')), prefix))
        return levels

    def walks_values(self) -> bool:
        """Whether a key path's value in a level is its top-level key's value walked key by key (not in a Datum
        store, whose key paths collect members of lists and whose values hold handlers)."""
        return self.config.dialect != 'datum'

    def data_paths(self, expansions: Sequence[Expansion], keys: Optional[Any], limit: int) -> List[Tuple[Any, ...]]:
        """Every key path of the maps under the levels' top-level keys (those in ``keys``, folded; None: all)."""
        from ansible_collections.strata.hier.plugins.plugin_utils.walk import map_paths
        fold, paths, prefixes = self.config.rules.fold, {}, tuple(self._prefixes())
        for expansion in expansions:
            document = self._store.get(expansion.path).value if expansion.path is not None else None
            if isinstance(document, Mapping):
                for key, value in document.items():
                    if isinstance(key, str) and (keys is None or fold(key) in keys):
                        for path in map_paths(value, (key,), limit):
                            if not (prefixes and any(str(part).startswith(prefixes) for part in path)):  # markers
                                paths.setdefault(tuple(fold(part) for part in path), path)
        return list(paths.values())

    def constraint_position(self, name: str) -> Dict[str, Any]:
        """Where the configuration declares a constraint: ``{file, line}``, the file relative to its own folder."""
        key = 'Constraints' if self.config.dialect == 'datum' else 'constraints'
        return {'file': self.shown_file(self.config.path),
                'line': self.positions().position(self.config.path, [key, name])[0]}

    def keys_of(self, expansions: Sequence[Expansion]) -> List[str]:
        """Top-level keys of the levels, most specific first, knockout markers left out."""
        keys: Dict[Any, str] = {}
        prefixes = self._prefixes()
        for expansion in expansions:
            if expansion.path is None:
                continue
            document = self._store.get(expansion.path).value
            if isinstance(document, Mapping):
                for key in document:
                    if isinstance(key, str) and not self._is_marker(key, prefixes):
                        keys.setdefault(self.config.rules.fold(key), key)
        return list(keys.values())

    def _lookup(self, key: str, expansions: Sequence[Expansion], merge: Any = None,
                explain: bool = False, provenance: bool = False) -> Resolution:
        segments = split_path(key)
        if not segments:
            raise HierarchyError('an empty key path was looked up')
        rules = self._rules_for(key, segments, merge)
        read = self._read_levels(expansions, segments, rules.resolve(segments).strategy.knockout_prefix)
        try:
            result = merge_layers(read.values, rules, segments, explain, provenance)
        except MergeError as exc:
            raise HierarchyError('lookup of %r: %s' % (key, exc)) from exc
        if result.found and self.config.dialect != 'datum' and self._handlers.may_hold(read.files):
            problem = self._handlers.problem(result.value, read.values,
                                             [(file, report['path']) for file, report in zip(read.files, read.reports)],
                                             segments)
            if problem:
                raise HierarchyError(problem)
        warnings = result.warnings
        if isinstance(expansions, DatumExpansions):     # the handlers' warnings (datum_handlers.py), with the merge's
            warnings = expansions.context.take_warnings() + warnings
        resolution = Resolution(join_path(segments), result.value, result.found, result.strategy, result.rule,
                                read.reports, warnings, _levels_used(result.sources), result.paths)
        if provenance:
            resolution.records = self._records(result, read, segments, expansions, rules)
        return resolution

    @cycle_collection_paused
    def _records(self, result: Any, read: '_LevelReads', segments: Tuple[str, ...], expansions: Sequence[Expansion],
                 rules: Any) -> Dict[str, Any]:
        """Provenance records of a merged value (provenance_report.py); none for a value found nowhere. Built with
        the cycle collector paused, as a merge is: many small dicts and no cycle."""
        from ansible_collections.strata.hier.plugins.plugin_utils.provenance_report import provenance_report
        if result.provenance is None:
            return {}
        locator = _Locator(self, read, segments)
        records = provenance_report(result.value, result.provenance, locator.locate, locator.rule_of(result.trace),
                                    segments, locator.memo)
        if read.knocker is not None and records:
            removed = self._knocked_levels(read, segments, expansions, rules.resolve(segments).strategy.knockout_prefix)
            if removed:
                next(iter(records.values())).setdefault('removed', []).extend(removed)
        return records

    def _knocked_levels(self, read: '_LevelReads', segments: Tuple[str, ...], expansions: Sequence[Expansion],
                        prefix: str) -> List[Dict[str, Any]]:
        """Provenance: the values of the less specific levels a ``--key`` of a level file knocked out."""
        positions, base = self.positions(), os.path.dirname(self.config.path)
        index, marker_file = read.knocker
        keys = self._handlers.keys_in_file(marker_file, read.reports[index]['path'], segments)
        marker_keys = list(keys[:-1]) + [prefix + str(keys[-1])] if keys else []
        marker = {'file': os.path.relpath(marker_file, base), 'line': positions.position(marker_file, marker_keys)[0]}
        removed = []
        for expansion in expansions[index + 1:]:
            found = self._store.get(expansion.path, segments) if expansion.path is not None else NOT_FOUND
            if found.value is None or os.path.isdir(found.file):
                continue
            shown = {'file': os.path.relpath(found.file, base), 'marker': marker}
            if self._store.vaulted(found.file):
                shown['withheld'] = True
            else:
                shown['value'] = found.value
                shown['line'] = positions.position(found.file, self._handlers.keys_in_file(
                    found.file, join_path(expansion.path), segments))[0]
            removed.append(shown)
        return removed

    def _rules_for(self, key: str, segments: Tuple[str, ...], merge: Any) -> Any:
        """The configuration's rules; with ``merge``, a rule of this call for the key path."""
        if merge is None:
            return self.config.rules
        try:
            return self.config.rules.with_rule(segments, merge, 'merge')
        except MergeError as exc:
            raise HierarchyError('lookup of %r: %s' % (key, exc)) from exc

    def _is_marker(self, key: str, prefixes: List[str]) -> bool:
        """``--Key`` is a knockout when the rule of ``Key`` has that prefix."""
        for prefix in prefixes:
            if key.startswith(prefix) and self.config.rules.resolve((key[len(prefix):],)).strategy.knockout_prefix == prefix:
                return True
        return False

    def _prefixes(self) -> List[str]:
        rules = self.config.rules
        found = {rules.default.strategy.knockout_prefix}
        found.update(rule.strategy.knockout_prefix for rule in rules.all_rules())
        return [prefix for prefix in found if prefix]

    def _read_levels(self, expansions: Sequence[Expansion], segments: Tuple[str, ...],
                     prefix: Optional[str], through_knockouts: bool = False) -> '_LevelReads':
        """Each level's value of the key path, its explain report, and the file (or folder) it came from;
        ``through_knockouts``: the levels below a knockout too (constraints), each knockout's report ``knocks``."""
        read = _LevelReads()
        knocked_by = None
        for expansion in expansions:
            report = {'level': expansion.level, 'path': None, 'file': None, 'found': False, 'skipped': False,
                      'reason': ''}
            found, value = NOT_FOUND, None
            if expansion.path is None or knocked_by:
                report.update(skipped=True, reason=expansion.reason or 'knocked out at %s' % knocked_by)
            else:
                found = self._read_level(expansion.path, segments, prefix, report)
                if found.knocked_out:
                    report['knocks'] = found.file
                    knocked_by = None if through_knockouts else report['file']
                    read.knocker = read.knocker or (len(read.reports), found.file)
                value = self._level_value(expansions, found, report, segments) if report['found'] else None
            read.reports.append(report)
            read.values.append(value)
            read.files.append(found.file if report['found'] else None)
        return read

    def _level_value(self, expansions: Sequence[Expansion], found: Found, report: Dict[str, Any],
                     segments: Tuple[str, ...]) -> Any:
        """A found level value; in a Datum store, with its handlers evaluated in its file (datum_handlers.py), and
        marked vaulted when a handler took data of a whole-file vaulted file into it."""
        if not isinstance(expansions, DatumExpansions) or not self._handlers.may_hold([found.file]):
            return found.value
        try:
            value, vaulted = expansions.context.resolve_level(
                found.value, found.file, self._handlers.keys_in_file(found.file, report['path'], segments))
        except (DatumHandlerError, MergeError) as exc:
            raise HierarchyError('lookup of %r: %s' % (join_path(segments), exc)) from exc
        if vaulted:
            report['vaulted'] = True
        return value

    def _read_level(self, path: Tuple[str, ...], segments: Tuple[str, ...], prefix: Optional[str],
                    report: Dict[str, Any]) -> Found:
        """One level's value of the key path, its report filled in."""
        report['path'] = self._shown_paths.get(path) or self._shown_paths.setdefault(path, join_path(path))
        found = self._store.get(path, segments, prefix)
        report['file'] = self._relative(found.file)
        if found.knocked_out:
            report['reason'] = 'knocks the key out of less specific levels'
        elif found.value is None:
            report['reason'] = 'null (not found)' if found.file else 'not found'
        else:
            report['found'] = True
            if self._store.vaulted(found.file):
                report['vaulted'] = True
        return found

    def _relative(self, path: Optional[str]) -> Optional[str]:
        if not path:
            return None
        relative = self._relatives.get(path)
        if relative is None:
            root = self._store.root
            relative = path[len(root) + 1:] if path.startswith(root + os.sep) else os.path.relpath(path, root)
            self._relatives[path] = relative
        return relative


class _Locator:
    """Places of a lookup's layers as files and lines (provenance_report.Located), relative to the configuration's
    folder; rules with the line that declares them. What a layer gives every place of it is worked out once."""

    def __init__(self, hierarchy: Hierarchy, read: '_LevelReads', segments: Tuple[str, ...]) -> None:
        self._hierarchy, self._read, self._segments = hierarchy, read, segments
        self._positions = hierarchy.positions()
        self._layers: Dict[int, Tuple[Any, ...]] = {}
        self._located: Dict[int, Dict[Tuple[Any, ...], Dict[str, Any]]] = {}    # layer -> its places located

    def locate(self, place: Any) -> Dict[str, Any]:
        """Where a place is: the same dict for the same place, for every host reading the file (callers copy it)."""
        located = self._located.get(place[0])
        if located is None:
            located = self._layer_located(place[0])
        found = located.get(place[1])
        if found is None:
            found = located[place[1]] = self._locate(place)
        return found

    def memo(self, index: int) -> Dict[Any, Any]:
        """What is kept of a layer's places for every lookup reading its file at its level (provenance_report.py
        keeps the records of subtrees copied whole there)."""
        located = self._located.get(index)
        return self._layer_located(index) if located is None else located

    def _layer_located(self, index: int) -> Dict[Tuple[Any, ...], Dict[str, Any]]:
        """The places of a layer located so far: kept with the file's positions (a folder's: for this lookup)."""
        layer, located = self._pass_layer(index)
        if layer[0] is None or layer[5]:
            located = {}
        self._located[index] = located
        return located

    def _locate(self, place: Any) -> Dict[str, Any]:
        layer = self._layers.get(place.layer) or self._layer(place.layer)
        file, prefix, level, level_path, withheld = layer[:5]
        if file is None:
            return {'file': None, 'line': None, 'level': level, 'level_path': level_path}
        keys = prefix + place.path
        if layer[5]:        # a whole folder read as a map
            file, keys = _in_folder(file, list(keys))
        located = {'file': self._hierarchy.shown_file(file)}
        if withheld:
            located['withheld'] = True
        else:
            located['line'], located['column'], end = self._positions.span(file, keys)
            if end and end > located['line']:
                located['end_line'] = end       # a value written on several lines (a block, a vault value)
        located['level'], located['level_path'] = level, level_path
        return located

    def _layer(self, index: int) -> Tuple[Any, ...]:
        """(file or folder, the keys of the level and the key inside it, level, level path, withheld, a folder)."""
        layer = self._layers[index] = self._pass_layer(index)[0]
        return layer

    def _pass_layer(self, index: int) -> Tuple[Tuple[Any, ...], Dict[Any, Any]]:
        """(_layer's answer, the memo of its places) of a layer, worked out once per pass for every lookup reading
        the file at its level (a pass is a snapshot of the files)."""
        report, file = self._read.reports[index], self._read.files[index]
        key = (file, report['path'], self._segments, report['level'], bool(report.get('vaulted')))
        known = self._hierarchy._pass_layers.get(key)
        if known is None:
            prefix = () if file is None else tuple(self._hierarchy._handlers.keys_in_file(file, key[1], key[2]))
            layer = (file, prefix, report['level'], key[1], key[4], file is not None and os.path.isdir(file))
            located = {} if file is None or layer[5] else self._positions.memo(file, ('located',) + layer[1:5])
            known = self._hierarchy._pass_layers[key] = (layer, located)
        return known

    def rule_of(self, trace: Any) -> Callable[[Tuple[Any, ...]], Dict[str, Any]]:
        rules: Dict[Tuple[Any, ...], Dict[str, Any]] = {}

        def rule(path: Tuple[Any, ...]) -> Dict[str, Any]:
            found = rules.get(path)
            if found is None:
                found = rules[path] = self._hierarchy.rule_fields(trace.rule_of(path)[0])
            return found
        return rule


def _in_folder(file: str, keys: List[Any]) -> Tuple[str, List[Any]]:
    """A place in a whole folder read as a map: the file its first keys name, and the keys inside it."""
    while keys and os.path.isdir(file):
        entry = named_entry(file, str(keys[0]))
        if entry is None:
            break
        file, keys = entry[1], keys[1:]
    return file, keys


class PathLevel:
    """What one level writes at a key path (Hierarchy.path_levels): ``value`` as read (knockout markers in it),
    ``written`` without them and ``markers`` what they knock out; ``keys``: the value's (or the marker's) keys in
    ``file``, for its line."""

    __slots__ = ('level', 'file', 'shown_file', 'keys', 'value', 'written', 'markers', 'knocked_out', 'vaulted')

    def __init__(self, level: str, file: Optional[str], shown_file: Optional[str], keys: List[Any], value: Any,
                 knocked_out: bool, vaulted: bool, prefix: Optional[str]) -> None:
        self.level, self.file, self.shown_file, self.keys = level, file, shown_file, keys
        self.value, self.knocked_out, self.vaulted = value, knocked_out, vaulted
        self.written, self.markers = _without_markers(value, prefix)


def _without_markers(value: Any, prefix: Optional[str]) -> Tuple[Any, Tuple[Any, ...]]:
    """A level's value without its knockout markers (list items, map keys), and what they knock out."""
    if not prefix:
        return value, ()
    if isinstance(value, list):
        return _list_without_markers(value, prefix)
    if isinstance(value, Mapping):
        return _map_without_markers(value, prefix)
    return value, ()


def _list_without_markers(value: list, prefix: str) -> Tuple[Any, Tuple[Any, ...]]:
    markers = tuple(item[len(prefix):] for item in value if isinstance(item, str) and item.startswith(prefix))
    return ([item for item in value if not (isinstance(item, str) and item.startswith(prefix))]
            if markers else value), markers


def _map_without_markers(value: Mapping, prefix: str) -> Tuple[Any, Tuple[Any, ...]]:
    markers = tuple(key[len(prefix):] for key in value if isinstance(key, str) and key.startswith(prefix))
    return ({key: item for key, item in value.items() if not (isinstance(key, str) and key.startswith(prefix))}
            if markers else value), markers


class _LevelReads:
    """What a key path holds on each level, most specific first."""

    __slots__ = ('values', 'reports', 'files', 'knocker')

    def __init__(self) -> None:
        self.values: list = []
        self.reports: List[Dict[str, Any]] = []
        self.files: List[Optional[str]] = []      # the file (or folder) of each value found
        self.knocker: Optional[Tuple[int, str]] = None    # the level whose file knocks the key out, and that file


class Expansions(list):
    """A node's levels expanded, most specific first, and the levels a variable it does not have left without data.

    ``undefined``: level (its index in the configuration) -> the undefined variables of its paths;
    ``unfilled``: the same, for the levels they skipped whole (every path of a mapped level, not some items).
    """

    def __init__(self) -> None:
        super().__init__()
        self.undefined: Dict[int, Tuple[str, ...]] = {}
        self.unfilled: Dict[int, Tuple[str, ...]] = {}

    def note(self, index: int, own: List[Expansion]) -> None:
        """The expansions of the configuration's level ``index``, appended and their undefined variables noted."""
        self.extend(own)
        missing = tuple(dict.fromkeys(name for expansion in own for name in expansion.missing))
        if missing:
            self.undefined[index] = missing
            if all(expansion.missing for expansion in own):
                self.unfilled[index] = missing


class DatumExpansions(Expansions):
    """A Datum store's levels expanded for one node, with the node's handler context."""

    def __init__(self, context: Any) -> None:     # a datum_handlers.NodeContext
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
        raise _VaultInLevel('variable %r is (or holds) a vault value or an eyaml value; a level path is shown in '
                            'explain output, traces and errors, so it cannot be a secret' % self.name)


def _without_vault_values(fetch: Optional[Callable]) -> Callable:
    """``fetch`` for ``expand``, with a vault value (also inside a map) standing as _VaultText."""
    def read(variables: Mapping, name: str) -> Any:
        return _guarded(fetch(variables, name) if fetch else variables[name], name)
    return read


def _guarded(value: Any, name: str) -> Any:
    if is_opaque(value):        # a vault or an eyaml value: its ciphertext would make a path no file has
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
