# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Hiera 5 lookups: a hiera.yaml's levels, a node's facts and a key, answered as ``puppet lookup`` answers.

One ``HieraLookup`` per node (its scope: facts, top-scope variables, trusted data) and configuration.
A lookup of key ``K`` (Puppet's ``LookupAdapter#lookup``):

1. ``K`` is split into segments (``keys.py``); ``lookup_options`` itself is never found.
2. ``lookup_options`` is gathered from every level with a ``hash`` merge (always, so a broken file
   anywhere breaks every lookup, as in Hiera); the entry for the root key (exact keys first, then the
   ``^`` patterns in merged order) gives the merge unless the caller gives one.
3. The root key is reduced over the levels and, inside a level, over its locations (``mergers.hiera``),
   each found value interpolated first; the result then goes through the layer reduction Puppet wraps
   around the environment (``convert``: ``unique`` flattens a single value).
4. The merged value is dug into with the remaining segments.

Files are read through ``read(path, level)`` (the caller's loader: YAML or JSON as the level's ``data_hash`` says,
vault- and eyaml-aware in the plugins) once per engine.  Nothing here runs or templates data: interpolation only reads variables and
other keys.  ``explain`` collects a ``puppet lookup --explain``-like account.
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable, Dict, List, Optional, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.errors import (
    ExpansionError, HieraError, HieraNotFound, MergeError,
)
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.config import (
    HieraConfig, HieraLevel, charger, inside, level_locations,
)
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.interpolation import Kept, check_stack, copied, interpolate
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.module_layer import MISSING, Modules, module_of
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.keys import (
    LOOKUP_OPTIONS, dig, has_key, is_lookup_options, split_key,
)
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.ruby import (
    SENSITIVE_TEXT, Sensitive, inspect, is_secret, ruby_regex_text,
)
from ansible_collections.strata.hier.plugins.module_utils.core.kinds import BUILTIN_SCALARS, FAST_PATHS
from ansible_collections.strata.hier.plugins.module_utils.core.levels import real_path_inside
from ansible_collections.strata.hier.plugins.module_utils.core.limits import MAX_DEPTH, ExpansionBudget
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.merges import HASH, HieraMerger, merger_for
from ansible_collections.strata.hier.plugins.module_utils.core.records import Record
from ansible_collections.strata.hier.plugins.module_utils.core.safe_regex import compile_untrusted

Reader = Callable[[str, HieraLevel], Any]
"""``read(path, level)``: the parsed file (any type; a non-map counts as empty), or a HieraError."""
EYAML_VIEW = '\0eyaml'
MODULE_VIEW = '\0module '
"""Suffix of a file's path in the files read, with the module's name: as that module's level reads it (its own keys)."""
"""Suffix of a file's path in the files read: as an eyaml level reads it (its eyaml values), which is not what a
yaml_data level reads (their text)."""
Position = Callable[[str, Tuple[Any, ...]], str]
"""``position(path, keys)``: how an error names the place of a key path in a data file (the plugins add its line)."""


def hiera_scope(node: str, facts: Dict[str, Any], variables: Optional[Dict[str, Any]] = None,
                environment: str = 'production') -> Dict[str, Any]:
    """The variables interpolation sees, as ``puppet lookup --node N --facts F`` sets them.

    Top-scope variables are the facts plus ``variables`` (host vars win); ``facts`` is the facts map;
    ``trusted`` comes from the node name (certname, hostname, domain).
    """
    hostname, _dot, domain = node.partition('.')
    scope: Dict[str, Any] = dict(facts)
    scope.update(variables or {})
    scope['facts'] = facts
    scope['trusted'] = {'authenticated': 'local', 'certname': node, 'extensions': {}, 'hostname': hostname,
                        'domain': domain, 'external': {}}
    scope['environment'] = environment
    scope.setdefault('server_facts', {})
    return scope


class Location(Record):
    template: str
    path: str
    exists: bool
    size: int = 0
    """The file's size when the level was resolved (what it adds to the work budget)."""


class Explainer:
    """Lines of an explanation in ``puppet lookup --explain``'s vocabulary, indented by nesting; while a key whose
    convert_to is Sensitive is looked up (``redacting``), every value is Puppet's ``Sensitive [value redacted]``."""

    def __init__(self) -> None:
        self.lines: List[str] = []
        self.depth = 0
        self.redacting = 0

    def say(self, text: str) -> None:
        pad = '  ' * self.depth
        self.lines.extend(pad + line for line in text.split('\n'))

    def value(self, prefix: str, value: Any) -> None:
        self.say('%s%s' % (prefix, SENSITIVE_TEXT if self.redacting else pretty(value)))

    def text(self) -> str:
        return '\n'.join(self.lines) + '\n'


class _Quiet(Explainer):
    """No explanation asked: nothing formatted."""

    def say(self, text: str) -> None:
        pass

    def value(self, prefix: str, value: Any) -> None:
        pass


class HieraLookup:
    """Lookups for one node against one hiera.yaml."""

    def __init__(self, config: HieraConfig, read: Reader, scope: Dict[str, Any],
                 explainer: Optional[Explainer] = None, files: Optional[Dict[str, Any]] = None,
                 position: Optional[Position] = None, provenance: bool = False,
                 modules: Optional[Modules] = None, real_paths: Optional[Dict[Any, Optional[str]]] = None) -> None:
        self.config = config
        self._real_paths: Dict[Any, Optional[str]] = {} if real_paths is None else real_paths     # _real_path, _inside
        self.modules = modules
        """The environment's modules (module_layer.py): the module layer of ``<module>::`` keys; None: no module
        layer."""
        self.scope = scope
        self.warnings: List[str] = []
        """What the lookups found to warn about (the configuration's own are ``config.warnings``)."""
        self._read = read
        self._files: Dict[str, Any] = {} if files is None else files
        """Parsed data files by path; share one between the engines of several nodes (never changed)."""
        self._stack: List[str] = []
        self._local: Dict[str, Any] = {}
        self._interpolated: Dict[str, Any] = {}
        """What ``%{lookup('k')}`` (``hiera``, ``alias``) found, by key."""
        self._texts: Dict[Tuple[str, bool], Kept] = {}     # texts(): texts of variables alone, interpolated
        self._levels: Dict[str, List[Tuple[HieraLevel, List[Location]]]] = {}
        """Each configuration's (the environment's, a module's) levels resolved for this node, by its path."""
        self._depends: Optional[List[str]] = None      # depends_on() while no more levels are resolved
        self._written = 0       # the size of the existing files of the levels resolved (what renew charges)
        self._options: Dict[Optional[str], Any] = {}
        """lookup_options compiled, by module (None: the environment's alone)."""
        self._env_options: Any = _NOT_FOUND
        self._env_compiled: Tuple[Dict[Any, Any], List[Tuple[Any, Any, str]]] = ({}, [])
        self.explain = explainer or _Quiet()
        self._position: Position = position or (lambda path, keys: path)
        self.budget = ExpansionBudget()
        self._unset: Optional[List[str]] = None
        """While a level's paths are interpolated: the variables they name that are unset (read as empty)."""
        self._undefined: Dict[int, Tuple[str, ...]] = {}
        self._provenance = provenance
        self.trace: Any = None
        """With provenance, the last lookup's LookupTrace (provenance.py), None when it found nothing."""
        self.sensitive = False
        """Whether the last lookup's answer is (or holds) a value of a ``Sensitive`` convert_to: never to be shown."""
        self._sensitive_made = 0

    # ------------------------------------------------------------------ lookups

    def lookup(self, key: str, merge: Any = None) -> Any:
        """The value of ``key`` (HieraNotFound when no level has it); ``merge`` wins over lookup_options.
        ``sensitive`` tells whether it is (or holds) a value of a ``Sensitive`` convert_to, answered as it is."""
        self.trace, self.sensitive = None, False
        value = self._outermost("Hiera key '%s'" % key, lambda: self._lookup(key, merge, self._provenance))
        if self._sensitive_made:        # only a configuration with a Sensitive convert_to pays for the walk
            value, self.sensitive = self._outermost("Hiera key '%s'" % key, lambda: _unwrapped(value))
        return value

    def _lookup(self, key: str, merge: Any = None, traced: bool = False) -> Any:
        if not isinstance(key, str):
            raise HieraError('a Hiera key must be a string, got %r' % (key,))
        segments = split_key(key)
        if is_lookup_options(key):
            self.explain.say('Invalid key "%s"' % LOOKUP_OPTIONS)
            raise HieraNotFound(key)
        options = self._options_for(segments[0])
        rule = 'merge' if merge is not None else None
        if merge is None and isinstance(options, dict):
            merge = options.get('merge')
            if merge is not None:
                self.explain.say('Using merge options from "lookup_options" hash')
                rule = self._options_key(segments[0])
        merger = merger_for(merge)
        if traced:      # loaded only for a lookup with provenance
            from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.provenance import TracedMerger
            merger = TracedMerger(merger)
        convert = self._convert_to(options, segments[0])
        redacting = int(convert is not None and convert.sensitive)
        self.explain.redacting += redacting
        try:
            value = self._found_value(merger, key, segments, convert)
        finally:
            self.explain.redacting -= redacting
        if traced:
            self.trace = self._traced(merger, value.value if redacting else value, segments, rule)
        return value

    def _found_value(self, merger: HieraMerger, key: str, segments: List[Any], convert: Any) -> Any:
        """The key's value merged, dug into and converted by its convert_to (Puppet's order)."""
        self.explain.say('Searching for "%s"' % key)
        value = self._nested(lambda: self._all_layers(merger, key, segments[0]))
        if len(segments) > 1:
            value = self._dig(value, segments, key)
        if convert is None:
            return value
        from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.puppet_types import ConversionError
        try:
            value = convert.apply(value)
        except ConversionError as exc:
            raise self._convert_error(segments, str(exc), convert.text) from None
        self.explain.say('Applying convert_to lookup_option with arguments %s' % convert.shown)
        self._sensitive_made += convert.sensitive
        return value

    def _convert_to(self, options: Any, root: Any) -> Any:
        """The root key's convert_to (puppet_types.ConvertTo, loaded only for a configuration that uses one)."""
        if not isinstance(options, dict) or options.get('convert_to') is None:
            return None
        from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.puppet_types import PuppetTypeError, parse_convert_to
        try:
            return parse_convert_to(options['convert_to'])
        except PuppetTypeError as exc:
            raise self._convert_error([root], str(exc), None) from None

    def _convert_error(self, segments: List[Any], problem: str, text: Optional[str]) -> HieraError:
        """An error of a convert_to naming the key, the lookup_options entry's file and line and, for a value that
        does not convert (``text``: the type), the most specific file and line holding it."""
        options_key = self._options_key(segments[0])
        declared = self._declaring(options_key, self._module_of(segments[0]))
        where = self._position(declared, (LOOKUP_OPTIONS, options_key, 'convert_to')) if declared else LOOKUP_OPTIONS
        holders = self.holders(segments[0]) if text is not None else []
        value_at = ' (value at %s)' % self._position(holders[0]['file'], tuple(segments)) if holders else ''
        error = HieraError("Hiera key '%s': convert_to%s at %s: %s%s" % (
            '.'.join(map(str, segments)), ' ' + text if text else '', where, problem, value_at))
        error.located = True
        return error

    def _traced(self, merger: Any, value: Any, segments: List[Any], rule: Optional[str]) -> Any:
        """The LookupTrace of a lookup with provenance: the answer's mark, with first, the less specific files
        holding the key as what it shadowed (Puppet reads none of them), and where the rule is declared."""
        from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.provenance import dig_mark
        trace = merger.trace
        trace.segments, trace.value, trace.mark = tuple(segments), value, dig_mark(merger.pending.pop(), segments[1:])
        if merger.first_found:
            trace.mark.definitions += self._shadowed_by_first(trace, segments)
        trace.rule = rule
        if rule is not None and rule != 'merge':
            trace.rule_file = self._declaring(rule, self._module_of(segments[0]))
        return trace

    def _shadowed_by_first(self, trace: Any, segments: List[Any]) -> List[Tuple[Any, Any]]:
        """The key as written in the files after the one first found (not interpolated: Hiera reads none)."""
        definitions, after = [], False
        for level, locations in self._every_level(segments[0]):
            for location in locations:
                if (level.name, location.path) == trace.variants[0]:
                    after = True
                    continue
                try:
                    written = dig(self._file(location.path, level), segments, '') if after and location.exists \
                        else _NOT_FOUND
                except (HieraNotFound, HieraError):     # a file Hiera does not read may not parse
                    written = _NOT_FOUND
                if written is not _NOT_FOUND:
                    definitions.append((trace.place(level.name, location.path, tuple(segments)), written))
        return definitions

    def _declaring(self, rule: Any, module: Optional[str] = None) -> Optional[str]:
        """The most specific data file whose lookup_options hold ``rule`` (the hash merge of lookup_options keeps
        its entry), the environment's before ``module``'s."""
        for level, locations in self._every_level(module + '::' if module else None):
            for location in locations:
                options = self._file(location.path, level).get(LOOKUP_OPTIONS) if location.exists else None
                if isinstance(options, dict) and has_key(options, rule):
                    return location.path
        return None

    def undefined_levels(self) -> Dict[int, Tuple[str, ...]]:
        """The levels (by index in the hierarchy) whose paths name variables this node does not have, with those
        variables: Puppet reads such a path with the variable empty (``roles/.yaml``), almost never what was meant."""
        self._outermost('the hierarchy', self._resolved_levels)
        return dict(self._undefined)

    def holders(self, root: Any) -> List[Dict[str, str]]:
        """The levels and files holding ``root``, most specific first (with ``first``, only the first counts)."""
        return self._outermost("Hiera key '%s'" % root, lambda: [
            {'level': level.name, 'file': location.path}
            for level, locations in self._every_level(root) for location in locations
            if location.exists and has_key(self._file(location.path, level), root)])

    def depends_on(self) -> List[str]:
        """The modules' configurations whose levels were resolved and the paths of the levels resolved: their files,
        and whether each exists, decide every answer given so far. The engine's own configuration is not among them:
        the caller parsed it (a changed one is another engine)."""
        if self._depends is None:
            self._depends = [path for path in self._levels if path != self.config.path] + [
                location.path for levels in self._levels.values() for _level, locations in levels
                for location in locations]
        return self._depends

    def renew(self) -> None:
        """Start another pass over the same, unchanged files (their sizes too: the caller compared their stats): a
        fresh work budget, charged as at the start."""
        self.budget = ExpansionBudget()
        self.budget.add_written(self._written)

    def data_keys(self) -> List[Any]:
        """Every root key this node's existing data files hold (``lookup_options`` aside), first seen first:
        what a node's whole data (the inventory's host variables) is made of."""
        keys: Dict[Any, None] = {}
        for level, locations in self._outermost('the hierarchy', self._node_levels):
            for location in locations:
                if location.exists:
                    keys.update((key, None) for key in self._file(location.path, level) if key != LOOKUP_OPTIONS)
        return list(keys)

    def _node_levels(self) -> List[Tuple[HieraLevel, List[Location]]]:
        """The environment's levels, then those of every module with data, in modulepath order."""
        levels = self._resolved_levels()
        if self.modules is not None:
            configs = self.modules.configs()
            self.warnings.extend(self.modules.take_warnings())
            levels = levels + [entry for config in configs for entry in self._resolved_levels(config)]
        return levels

    def lookup_or(self, key: str, default: Any) -> Any:
        """An interpolation's lookup (``%{lookup('k')}``, ``hiera``, ``alias``), made once per key: Puppet makes it
        again at each use, with the same answer in one scope (``_local`` changes only for paths, where no
        lookup is allowed), so doing so costs time exponential in the data.  Each use gets its own copy."""
        if key not in self._interpolated:
            where = "Hiera interpolation of '%s'%s" % (key, " in '%s'" % self._stack[-1] if self._stack else '')
            self.budget.enter(where)
            try:
                check_stack(where)
                self._interpolated[key] = self._lookup(key)
            except HieraNotFound:
                self._interpolated[key] = _NOT_FOUND
            finally:
                self.budget.leave()
        value = self._interpolated[key]
        return default if value is _NOT_FOUND else copied(value, self.budget, "Hiera interpolation of '%s'" % key)

    def _outermost(self, subject: str, action: Callable[[], Any]) -> Any:
        """``action`` with the engine's state restored and an ExpansionError for a RecursionError: data nesting
        deeper than Python's stack (a deep fact, nested data at each step of a chain of interpolations)."""
        stack, depth, explained = len(self._stack), self.budget.depth, self.explain.depth
        try:
            return action()
        except RecursionError:
            del self._stack[stack:]
            self._local = {}
            self.budget.depth, self.explain.depth = depth, explained
            raise ExpansionError('%s: data and interpolations nest deeper than Python can follow' % subject) from None

    def _all_layers(self, merger: HieraMerger, key: str, root: Any) -> Any:
        # Puppet reduces three layers (global, environment, modules); the global one holds nothing here, but the
        # reduction still converts its value (unique: a single value is flattened) and is explained.
        if self.explain.__class__ is _Quiet and not merger.traced and FAST_PATHS.on:     # nothing to explain or trace
            return self._plain_layers(merger, key, root)
        layers = ('global', 'environment', 'modules')
        return self._reduce(merger, layers, lambda layer: self._layer(layer, merger, key, root))

    def _plain_layers(self, merger: HieraMerger, key: str, root: Any) -> Any:
        """_all_layers without an explanation (the fast path): the global layer is left out, as it holds nothing;
        with two layers still, a value found in one is converted as before (merges.HieraMerger.reduce)."""
        module = self._module_of(root)

        def layer(name: str) -> Any:
            if name == 'environment':
                return self._guarded(key, lambda: self._plain_levels(merger, root, self._resolved_levels()))
            if module is None:
                raise HieraNotFound(name)
            return self._guarded(key, lambda: self._module(merger, root, module))
        # each layer's value is its own: merged anew or interpolated anew
        return merger.reduce(('environment', 'modules'), layer, fresh=True)

    def _layer(self, layer: str, merger: HieraMerger, key: str, root: Any) -> Any:
        if layer == 'environment':
            return self._guarded(key, lambda: self._environment(merger, root))
        module = self._module_of(root) if layer == 'modules' else None
        if module is None:
            raise HieraNotFound(layer)
        return self._guarded(key, lambda: self._module(merger, root, module))

    def _module_of(self, root: Any) -> Optional[str]:
        return module_of(root) if self.modules is not None else None

    def _module(self, merger: HieraMerger, root: Any, module: str) -> Any:
        """The module layer: the module's levels, explained as Puppet's ``Module "x" Data Provider``."""
        modules = self.modules
        if modules is None:     # _module_of names no module without a module layer
            raise AssertionError('a module key without a module layer')
        config = modules.config(module)
        self.warnings.extend(modules.take_warnings())
        if not isinstance(config, HieraConfig):
            self.explain.say('Module "%s" not found' % module if config == MISSING
                             else 'Module data provider for module "%s" not found' % module)
            raise HieraNotFound(module)
        self.explain.say('Module "%s" Data Provider (hiera configuration version 5)' % module)
        return self._nested(lambda: self._over_levels(merger, root, self._resolved_levels(config), config))

    def _dig(self, value: Any, segments: List[Any], key: str) -> Any:
        self.explain.say('Sub key: "%s"' % '.'.join(str(segment) for segment in segments[1:]))
        self.explain.depth += 1
        try:
            for segment in segments[1:]:
                try:
                    value = dig(value, [segment], key)
                except HieraNotFound:
                    self.explain.say('No such key: "%s"' % segment)
                    raise
                self.explain.value('Found key: "%s" value: ' % segment, value)
            return value
        finally:
            self.explain.depth -= 1

    def _environment(self, merger: HieraMerger, root: Any) -> Any:
        self.explain.say('Environment Data Provider (hiera configuration version 5)')
        return self._nested(lambda: self._over_levels(merger, root, self._resolved_levels(), self.config))

    def _over_levels(self, merger: HieraMerger, root: Any, levels: List[Tuple[HieraLevel, List[Location]]],
                     config: HieraConfig) -> Any:
        if self.explain.__class__ is _Quiet and not merger.traced and FAST_PATHS.on:     # nothing to explain or trace
            return self._plain_levels(merger, root, levels)
        self.explain.say('Using configuration "%s"' % config.path)

        last: List[Any] = [None]

        def in_level(entry: Tuple[HieraLevel, List[Location]]) -> Any:
            level, locations = entry
            self.explain.say('Hierarchy entry "%s"' % level.name)

            def found(location: Location) -> Any:
                last[0] = (level.name, location.path)
                value = self._found(location, level, root)
                if merger.traced:
                    self._note_found(merger, value, level, location, root)
                return value

            return self._nested(lambda: self._reduce(merger, locations, found))

        try:
            return self._reduce(merger, levels, in_level)
        except MergeError as exc:
            raise _located(exc, root, last[0], self._position) from exc

    def _plain_levels(self, merger: HieraMerger, root: Any, levels: List[Tuple[HieraLevel, List[Location]]]) -> Any:
        """_over_levels without an explanation or a trace (the fast path): the same reduction, without the explain's
        wrappers around each level and location, and a location without the key passed over without an exception."""
        last: List[Any] = [None]

        def found(level: HieraLevel, location: Location) -> Any:
            data = self._file(location.path, level) if location.exists else None
            if data is None or not has_key(data, root):
                raise HieraNotFound(root)
            last[0] = (level.name, location.path)
            return self._value_at(data[root], root, location.path)

        try:
            if merger.first_found:
                return self._first_found(root, levels, last)
            # every value found is interpolated anew (interpolate's containers are always new): merged in place
            return merger.reduce(levels, lambda entry: merger.reduce(
                entry[1], lambda location: found(entry[0], location), fresh=True), fresh=True)
        except MergeError as exc:
            raise _located(exc, root, last[0], self._position) from exc

    def _first_found(self, root: Any, levels: List[Tuple[HieraLevel, List[Location]]], last: List[Any]) -> Any:
        """The first location's value of ``root``, as merges.HieraMerger.reduce over levels and locations finds it."""
        for level, locations in levels:
            for location in locations:
                if not location.exists:
                    continue
                data = self._file(location.path, level)
                if has_key(data, root):
                    last[0] = (level.name, location.path)
                    try:
                        return self._value_at(data[root], root, location.path)
                    except HieraNotFound:
                        continue
        raise HieraNotFound(root)

    def _value_at(self, value: Any, root: Any, path: str) -> Any:
        """A found value interpolated, charged to the work budget what interpolating it builds."""
        self.budget.charge(_scanned(value, root, path), path)      # the error is located by _over_levels
        return interpolate(value, self, True)

    def _reduce(self, merger: HieraMerger, variants: List[Any], fetch: Callable[[Any], Any]) -> Any:
        """merger.reduce, explained as Puppet explains it: a merge of several variants names its strategy
        (and options) and ends with the merged result."""
        if merger.first_found or len(variants) < 2:
            return merger.reduce(variants, fetch)
        self._say_merge(merger)
        value = self._nested(lambda: merger.reduce(variants, fetch))
        self.explain.value('Merged result: ', value)
        return value

    def _found(self, location: Location, level: HieraLevel, root: Any) -> Any:
        self.explain.say('Path "%s"' % location.path)
        self.explain.depth += 1
        try:
            self.explain.say('Original path: "%s"' % location.template)
            if not location.exists:
                self.explain.say('Path not found')
                raise HieraNotFound(location.path)
            data = self._file(location.path, level)
            if not has_key(data, root):
                self.explain.say('No such key: "%s"' % root)
                raise HieraNotFound(root)
            value = self._value_at(data[root], root, location.path)
            self.explain.value('Found key: "%s" value: ' % root, value)
            return value
        finally:
            self.explain.depth -= 1

    def _note_found(self, merger: Any, value: Any, level: HieraLevel, location: Location, root: Any) -> None:
        """Provenance: the found value's mark, from the data as written (before interpolation)."""
        from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.provenance import mark_of
        place = merger.trace.place(level.name, location.path, (root,))
        merger.found(mark_of(value, self._file(location.path, level)[root], place))

    def _say_merge(self, merger: HieraMerger) -> None:
        shown = merger.describe()
        self.explain.say('Merge strategy %s' % (shown if isinstance(shown, str) else shown['strategy']))
        if not isinstance(shown, str):
            options = {key: value for key, value in shown.items() if key != 'strategy'}
            self.explain.value('  Options: ', options)

    def _nested(self, action: Callable[[], Any]) -> Any:
        self.explain.depth += 1
        try:
            return action()
        finally:
            self.explain.depth -= 1

    # ------------------------------------------------------------------ lookup_options

    def _options_for(self, root: Any) -> Any:
        exact, patterns = self._lookup_options(self._module_of(root))
        if root in exact and exact[root] is not None:
            return exact[root]
        for pattern, entry, _text in patterns:
            if pattern.search(str(root)):
                return entry
        return None

    def _options_key(self, root: Any) -> Any:
        """The lookup_options key _options_for took the root's entry from."""
        exact, patterns = self._lookup_options(self._module_of(root))
        if root in exact and exact[root] is not None:
            return root
        return next((text for pattern, _entry, text in patterns if pattern.search(str(root))), None)

    def _lookup_options(self, module: Optional[str] = None) -> Tuple[Dict[Any, Any], List[Tuple[Any, Any, str]]]:
        """The lookup_options of a key of ``module`` (None: of no module): the environment's, merged (hash, the
        environment's entries winning) with the module's, as Puppet's LookupAdapter does."""
        options = self._options.get(module)
        if options is None:
            self.explain.say('Searching for "%s"' % LOOKUP_OPTIONS)
            options = self._options[module] = self._nested(lambda: self._merged_options(module))
        return options

    def _merged_options(self, module: Optional[str]) -> Tuple[Dict[Any, Any], List[Tuple[Any, Any, str]]]:
        merger = merger_for(HASH)
        if self._env_options is _NOT_FOUND:     # read (and explained) once, as Puppet's @env_lookup_options
            try:
                self._env_options = self._guarded(LOOKUP_OPTIONS, lambda: self._environment(merger, LOOKUP_OPTIONS))
            except HieraNotFound:
                self._env_options = None
            self._env_compiled = _compiled(self._env_options)
        environment = self._env_options
        if module is None:
            return self._env_compiled
        try:
            own = self._guarded(LOOKUP_OPTIONS, lambda: self._module(merger, LOOKUP_OPTIONS, module))
        except HieraNotFound:       # no module, or none with lookup_options: the environment's, compiled once
            return self._env_compiled
        self._check_module_options(own, module)
        if environment is None:
            return _compiled(own)
        scopes = [('Global and Environment', environment), ('Module %s' % module, own)]

        def found(scope: Tuple[str, Any]) -> Any:
            self.explain.say(scope[0])
            self._nested(lambda: self.explain.value('Found key: "%s" value: ' % LOOKUP_OPTIONS, scope[1]))
            return scope[1]

        return _compiled(self._reduce(merger, scopes, found))

    def _check_module_options(self, options: Any, module: str) -> None:
        """Puppet's ``validate_lookup_options``: a module's entries are for its own keys (``^`` patterns too)."""
        if not isinstance(options, dict):
            raise HieraError('value of lookup_options must be a hash')
        prefix = module + '::'
        for key in options:
            pattern = isinstance(key, str) and key.startswith('^')
            if isinstance(key, str) and (key[1:1 + len(prefix)] if pattern else key[:len(prefix)]) == prefix:
                continue
            declared = self._declaring(key, module)
            error = HieraError("%s: all lookup_options %s must %s module name '%s' (got %s)" % (
                self._position(declared, (LOOKUP_OPTIONS, key)) if declared else 'module %s' % module,
                'patterns' if pattern else 'keys', 'match a key starting with' if pattern else 'start with',
                module, inspect(key)))
            error.located = True
            raise error

    # ------------------------------------------------------------------ levels and files

    def _resolved_levels(self, config: Optional[HieraConfig] = None) -> List[Tuple[HieraLevel, List[Location]]]:
        config = config or self.config
        levels = self._levels.get(config.path)
        if levels is None:
            levels = self._levels[config.path] = [(level, self._locations(level, config)) for level in config.levels]
            self._depends = None
            self._written += sum(location.size for _level, locations in levels for location in locations)
        return levels

    def _module_levels(self, root: Any) -> List[Tuple[HieraLevel, List[Location]]]:
        """The levels of the module layer of ``root`` (none for a key of no module, or of one without data)."""
        module = self._module_of(root)
        config = self.modules.config(module) if module is not None and self.modules is not None else None
        return self._resolved_levels(config) if isinstance(config, HieraConfig) else []

    def _every_level(self, root: Any) -> List[Tuple[HieraLevel, List[Location]]]:
        """The environment's levels, then those of the module layer of ``root``: most specific first."""
        return self._resolved_levels() + self._module_levels(root)

    def _locations(self, level: HieraLevel, config: HieraConfig) -> List[Location]:
        def expand(text: str) -> str:
            try:
                return _no_nul(interpolate(text, self, False), where)
            except HieraError as exc:       # method syntax, a bad expression: say which level of which file
                if exc.located:
                    raise
                raise HieraError('%s: %s' % (where(), exc)) from exc

        def where() -> str:
            keys = ('hierarchy', config.levels.index(level), level.kind)
            return "%s: level '%s'" % (self._position(config.path, keys), level.name)

        self._unset = []
        try:
            pairs = level_locations(level, expand, self._mapped_texts, config.root, charger(self.budget, where))
        finally:
            unset, self._unset = self._unset, None
        if unset and config is self.config:
            self._undefined[config.levels.index(level)] = tuple(dict.fromkeys(unset))
        real_root = self._real_path(config.root)
        for _template, path in pairs:
            if self._inside(_no_nul(path, where), real_root) is None:     # mapped_paths' too
                raise self._outside(level, path, config)
        locations = [Location(template, path, *_existing(path)) for template, path in pairs]
        self.budget.add_written(sum(location.size for location in locations))
        return locations

    def _real_path(self, folder: str) -> str:
        """A configuration's folder, links resolved. ``real_paths`` (folder -> real path, (path, real folder) ->
        real_path_inside): share one between the engines of one pass, emptied when the next begins (links may
        change between passes)."""
        real = self._real_paths.get(folder)
        if real is None:
            real = self._real_paths[folder] = os.path.realpath(folder)
        return real

    def _inside(self, path: str, real_root: str) -> Optional[str]:
        """real_path_inside, once per path and pass (the level files of a pass's hosts are mostly the same)."""
        key = (path, real_root)
        if key not in self._real_paths:
            self._real_paths[key] = real_path_inside(path, real_root)
        return self._real_paths[key]

    @staticmethod
    def _outside(level: HieraLevel, path: str, config: HieraConfig) -> HieraError:
        """The error for a location leaving the configuration's folder: by its path (``..``, absolute, a fact), or
        through a link (the rule of a hier.yml's data folder: links may not lead out of it)."""
        if not inside(config.root, path):
            return HieraError("%s: level '%s' resolves to %s, outside the configuration's folder %s"
                              % (config.path, level.name, path, config.root))
        return HieraError("%s: level '%s' reads %s, which a link leads to %s, outside the configuration's folder %s "
                          "(links may not lead out of it, as in a hier.yml's data folder)"
                          % (config.path, level.name, path, os.path.realpath(path), config.root))

    def _mapped_texts(self, variable: str, name: str, template: str) -> List[str]:
        values = self.variable(variable, 'mapped_paths')
        if values is None or values == '' or values == [] or values == {}:
            return []
        if isinstance(values, str):
            values = [values]
        elif isinstance(values, dict):
            values = [[key, item] for key, item in values.items()]
        elif not isinstance(values, list):
            raise HieraError("%s: mapped_paths variable '%s' is %s, not a list, a map or a string"
                             % (self.config.path, variable, inspect(values)))
        texts = []
        for item in values:
            self._local = {name: item}
            try:
                texts.append(interpolate(template, self, False))
            finally:
                self._local = {}
        return texts

    def _file(self, path: str, level: HieraLevel) -> Dict[Any, Any]:
        key = path if level.eyaml is None else path + EYAML_VIEW
        if level.module is not None:
            key += MODULE_VIEW + level.module
        if key not in self._files:
            if os.path.isdir(path):
                raise HieraError("Unable to read %s (level '%s'): it is a directory" % (path, level.name))
            try:
                data = self._read(path, level)
                if not isinstance(data, dict):
                    self.warnings.append('%s: file does not contain a valid %s hash'
                                         % (path, 'yaml' if level.data_hash == 'yaml_data' else 'json'))
                    data = {}
                data = _plain(data, path)
                self._files[key] = data if level.module is None else self._own_keys(data, path, level.module)
            except HieraError as exc:
                exc.located = True      # names the file (and line): not the key whose lookup first read it
                raise
        return self._files[key]

    def _own_keys(self, data: Dict[Any, Any], path: str, module: str) -> Dict[Any, Any]:
        """A module's data file without the keys of other namespaces, which Puppet ignores with a warning."""
        prefix = module + '::'
        foreign = [key for key in data
                   if key != LOOKUP_OPTIONS and not (isinstance(key, str) and key.startswith(prefix))]
        if not foreign:
            return data
        self.warnings.append("Module '%s': %s holds keys not qualified with the module's name, which are ignored (as "
                             "Puppet): %s" % (module, self._position(path, (foreign[0],)),
                                              ', '.join(inspect(key) for key in foreign)))
        return {key: value for key, value in data.items() if key == LOOKUP_OPTIONS or (
            isinstance(key, str) and key.startswith(prefix))}

    # ------------------------------------------------------------------ interpolation context

    def variable(self, name: str, subject: str) -> Any:
        segments = split_key(name, 'string: %s' % subject) if subject else split_key(name)
        root = segments[0]
        if isinstance(root, str) and root.startswith('::'):
            root = root[2:]
        if root in self._local:
            value = self._local[root]
        else:
            value = self.scope.get(root)
        if value is not None and len(segments) > 1:
            try:
                value = dig(value, segments[1:], name)
            except HieraNotFound:
                value = None
        if value is None and self._unset is not None:
            self._unset.append(name)
        return value

    def texts(self) -> Optional[Dict[Tuple[str, bool], Kept]]:
        """The texts kept, outside a level's paths (which note unset variables) and a mapped_paths entry (whose
        variable is not the scope's); the fast path's."""
        if self._unset is not None or self._local or not FAST_PATHS.on:
            return None
        if len(self._texts) >= _TEXTS_KEPT:
            self._texts.clear()
        return self._texts

    def guarded(self, name: str, action: Callable[[], Any]) -> Any:
        """An interpolation's value interpolated again: one expansion deeper (a variable holding ``%{...}``)."""
        self.budget.enter("Hiera interpolation of '%s'" % name)
        try:
            return self._guarded(name, action)
        finally:
            self.budget.leave()

    def _guarded(self, name: str, action: Callable[[], Any]) -> Any:
        if name in self._stack:
            raise HieraError("Lookup of key '%s' failed: Recursive lookup detected in [%s]"
                             % (self._stack[0], ', '.join(self._stack)))
        self._stack.append(name)
        try:
            return action()
        finally:
            self._stack.pop()


def _existing(path: str) -> Tuple[bool, int]:
    """Whether the path exists, and its size (0 when it does not)."""
    try:
        return True, os.stat(path).st_size
    except (OSError, ValueError):
        return False, 0


def _unwrapped(value: Any) -> Tuple[Any, bool]:
    """The value with the Sensitive wrappers of convert_to taken off (containers rebuilt only where one was), and
    whether it had any."""
    if isinstance(value, Sensitive):
        return _unwrapped(value.value)[0], True
    if isinstance(value, (list, dict)):
        pairs = [(key, _unwrapped(item)) for key, item in (value.items() if isinstance(value, dict) else enumerate(value))]
        if any(found for _key, (_item, found) in pairs):
            rebuilt = [item for _key, (item, _found) in pairs]
            return (dict(zip(value.keys(), rebuilt)) if isinstance(value, dict) else rebuilt), True
    return value, False


def _no_nul(path: str, where: Callable[[], str]) -> str:
    """A level's path or glob as interpolated, refused when a fact put a NUL character in it: no file name holds one
    (Ruby: "string contains null byte"), and Python's file functions raise ValueError."""
    if '\0' in path:
        error = HieraError('%s: the path %r holds a NUL character' % (where(), path))
        error.located = True
        raise error
    return path


def _located(error: MergeError, root: Any, where: Optional[Tuple[str, str]], position: Position) -> MergeError:
    """The error with the key, level and file it was met at (once: nested lookups keep the innermost)."""
    if getattr(error, 'located', False) or where is None or 'Recursive lookup' in str(error):
        return error
    located = HieraError("%s (key '%s', level '%s', file %s)" % (error, root, where[0], position(where[1], (root,))))
    located.located = True
    return located


def _compiled(options: Any) -> Tuple[Dict[Any, Any], List[Tuple[Any, Any, str]]]:
    """lookup_options split into exact keys and ``^`` patterns (with their text), patterns in their merged order."""
    if options is None:
        return {}, []
    if not isinstance(options, dict):
        raise HieraError('value of lookup_options must be a hash')
    exact: Dict[Any, Any] = {}
    patterns: List[Tuple[Any, Any, str]] = []
    for key, entry in options.items():
        if isinstance(key, str) and key.startswith('^'):
            patterns.append((_ruby_regex(key), entry, key))
        else:
            exact[key] = entry
    return exact, patterns


def _ruby_regex(text: str) -> Any:
    """A ``^`` key of lookup_options as Python's re reads Ruby's, refused unless it matches in linear time
    (``safe_regex``: lookup_options are data)."""
    return compile_untrusted(ruby_regex_text(text), re.MULTILINE, 'lookup_options key %r' % text, HieraError)


_NOT_FOUND = object()
"""An interpolation's lookup that found nothing (remembered too)."""
_TEXTS_KEPT = 4096
"""Texts kept per engine at most (then forgotten: a host whose data interpolates many distinct texts)."""
_PLAIN = tuple(BUILTIN_SCALARS)     # for isinstance: Ansible's tagged strings are text too


def _plain(data: Any, path: str) -> Any:
    """A data file as Hiera reads it: ``!!binary`` is its text (Psych decodes it), and dates, sets or other
    objects (which Psych refuses) make the whole file an error.  Built anew only where bytes were found."""
    built, height = _PlainWalk(path).walk(data)
    if height > MAX_DEPTH:
        raise _too_deep(path)
    return built


class _PlainWalk:
    """_plain's walk: a map or list shared through YAML aliases is looked at once (its result shared alike), so
    the cost is that of the file as written, not of the billions of values an alias bomb stands for; its height
    (nesting below it) is kept, so data nests as deep as it did written out in full."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.done: Dict[int, Tuple[Any, int]] = {}
        self.active: set = set()

    def walk(self, value: Any) -> Tuple[Any, int]:
        """(the value as Hiera reads it, its height)."""
        if not isinstance(value, (dict, list)):
            return _plain_scalar(value, self.path), 0
        known = self.done.get(id(value))
        if known is None:
            known = self.done[id(value)] = self._container(value)
        return known

    def _container(self, value: Any) -> Tuple[Any, int]:
        if id(value) in self.active or len(self.active) > MAX_DEPTH:     # holding itself, or nesting too deep
            raise _too_deep(self.path)
        self.active.add(id(value))
        if isinstance(value, dict):
            pairs = [(self.walk(key)[0], self.walk(item)) for key, item in value.items()]
            changed = any(new_key is not key or new is not item
                          for (new_key, (new, _height)), (key, item) in zip(pairs, value.items()))
            built = {key: item for key, (item, _height) in pairs} if changed else value
            heights = [height for _key, (_item, height) in pairs]
        else:
            items = [self.walk(item) for item in value]
            changed = any(new is not old for (new, _height), old in zip(items, value))
            built = [item for item, _height in items] if changed else value
            heights = [height for _item, height in items]
        self.active.discard(id(value))
        return built, 1 + max(heights, default=-1)


def _too_deep(path: str) -> HieraError:
    return HieraError('Unable to parse (%s): data nests deeper than %d levels' % (path, MAX_DEPTH))


def _plain_scalar(data: Any, path: str) -> Any:
    if isinstance(data, bytes):
        try:
            return data.decode('utf-8')
        except UnicodeDecodeError as exc:
            raise HieraError('Unable to parse (%s): binary data that is not UTF-8 text' % path) from exc
    if isinstance(data, _PLAIN) or is_secret(data):
        return data
    raise HieraError('Unable to parse (%s): a value of type %s is not Hiera data' % (path, type(data).__name__))


def _scanned(value: Any, root: Any, path: str) -> int:
    """_check_keys of a value of a data file, once per value (the files are parsed once and never changed; every
    lookup of a key reads the same value again): the value is kept with its size, so its id stays its own."""
    if not isinstance(value, (dict, list)):
        return 1
    known = _SCANNED.get(id(value)) if FAST_PATHS.on else None
    if known is not None and known[0] is value:
        return known[1]
    size = _check_keys(value, root, path)
    if len(_SCANNED) >= _SCANNED_KEPT:
        _SCANNED.clear()
    _SCANNED[id(value)] = (value, size)
    return size


_SCANNED: Dict[int, Tuple[Any, int]] = {}
"""id of a data file's value -> (the value, its _check_keys size)."""
_SCANNED_KEPT = 4096


def _check_keys(value: Any, root: Any, path: str) -> int:
    """Puppet refuses (for this key only) a map whose keys are booleans or null.  Returns how many values ``value``
    holds written out in full (what interpolating it builds), each part shared through aliases looked at once."""
    sizes: Dict[int, int] = {}

    def walk(item: Any) -> int:
        if not isinstance(item, (dict, list)):
            return 1
        known = sizes.get(id(item))
        if known is not None:
            return known
        if isinstance(item, dict):
            for key in item:
                if isinstance(key, bool) or key is None:
                    raise HieraError("Value for key '%s', when using location '%s', has wrong type: map key %r is "
                                     "not text or a number" % (root, path, key))
        total = 1 + sum(walk(child) for child in (item.values() if isinstance(item, dict) else item))
        sizes[id(item)] = total
        return total

    return walk(value)


def pretty(value: Any, indent: str = '') -> str:
    """A value as explain prints it (Ruby pretty-print: one item per line)."""
    inner = indent + '  '
    if isinstance(value, list) and value:
        return '[\n%s\n%s]' % (',\n'.join(inner + pretty(item, inner) for item in value), indent)
    if isinstance(value, dict) and value:
        items = ',\n'.join('%s%s => %s' % (inner, inspect(key), pretty(item, inner)) for key, item in value.items())
        return '{\n%s\n%s}' % (items, indent)
    return inspect(value)
