# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""A Puppet control repository's hiera.yaml (version 5) as a strata.hier source, for the plugins.

Reads the hiera.yaml and the data files through Ansible's DataLoader (vault works; each file once per
process and configuration) and builds one Hiera engine (module_utils.hiera) per host, with the host's
variables mapped onto Hiera's scope (docs/hiera.md, "Facts and variables"):

=========================  =====================================================================
Hiera                      Ansible
=========================  =====================================================================
``trusted.certname``       ``inventory_hostname`` (``trusted.hostname``/``domain``: its parts)
``facts.X``                host variable ``X``, else ``ansible_facts.X``
``facts.os``               Facter 4's ``os`` fact from ``ansible_facts`` (``os_family``, ``distribution``,
                           ``distribution_version``...), as Facter reports it per family (docs/hiera.md)
``facts.hostname``/``fqdn``/``domain``  ``ansible_facts`` ones, else from ``inventory_hostname``
``%{::X}`` / ``%{X}``      the same as ``facts.X`` (top scope holds the facts)
``environment``            ``production``
=========================  =====================================================================

Host variables are used as written (never templated) and vault values are left out, so nothing secret
reaches a path or an interpolated string.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Mapping
from functools import partial
from typing import Any, Callable, Dict, FrozenSet, List, Optional, Sequence, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.errors import (
    HieraConfigError, HieraError, HieraNotFound, MergeError,
)
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.engine import Explainer, HieraLookup, hiera_scope
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.config import (
    HieraConfig, HieraLevel, inside, parse_hiera_config, ruby_glob,
)
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.module_layer import Modules
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.ruby import SENSITIVE_TEXT
from ansible_collections.strata.hier.plugins.module_utils.core.identity import freeze
from ansible_collections.strata.hier.plugins.plugin_utils.source import (
    Answer, HostView, NodeOptions, Source, get_source, open_source, origin_lines,
)
from ansible_collections.strata.hier.plugins.plugin_utils.compat import is_vault_value
from ansible_collections.strata.hier.plugins.plugin_utils.config import ConfigError
from ansible_collections.strata.hier.plugins.plugin_utils.data_files import load_untrusted, whole_file_vaulted
from ansible_collections.strata.hier.plugins.plugin_utils.parse import path_identity
from ansible_collections.strata.hier.plugins.plugin_utils.eyaml import EyamlError, EyamlKeys, read_values
from ansible_collections.strata.hier.plugins.plugin_utils.host_vars import refused_variable
from ansible_collections.strata.hier.plugins.plugin_utils.nodes import name_problem
from ansible_collections.strata.hier.plugins.plugin_utils.source_lines import Positions, file_line, key_position
from ansible_collections.strata.hier.plugins.plugin_utils.walk import find

MAGIC_VARIABLES = ('hostvars', 'groups', 'group_names', 'omit', 'playbook_dir', 'play_hosts', 'role_names',
                   'environment', 'vars')


class _PassFiles(dict):
    """The parsed data files by path (another reading of one, an eyaml level's or a module's, under the path, NUL and
    what reads it), shared by the engines of every host: a file is checked for a change at its first use in a pass,
    so that a pass costs the files it reads, not every file read before (a lookup call stat'ed all of them)."""

    def __init__(self, forget_if_changed: Callable[[str], None]) -> None:
        super().__init__()
        self._forget_if_changed = forget_if_changed
        self._checked: set = set()

    def begin_pass(self) -> None:
        self._checked = set()

    def __contains__(self, key: object) -> bool:
        if key not in self._checked:
            self._checked.add(key)
            text = str(key)
            self._forget_if_changed(text if '\0' not in text else text.split('\0', 1)[0])
        return dict.__contains__(self, key)

    def forget(self, path: str) -> None:
        """The file as every kind of level reads it (a yaml_data level, an eyaml level, a module's)."""
        for view in [key for key in self if key == path or key.startswith(path + '\0')]:
            del self[view]


class HieraSource(Source):
    """One hiera.yaml and the data files it reaches."""

    undefined_effect = 'Hiera reads its paths with it empty'

    def __init__(self, path: str, loader: Any) -> None:
        if not os.path.isfile(path):
            raise ConfigError('Hiera configuration %s not found' % path)
        self.loader = loader
        try:
            self.config: HieraConfig = parse_hiera_config(load_untrusted(loader, path, ConfigError), path)
        except HieraConfigError as exc:
            raise ConfigError(config_problems(exc, path)) from exc
        self._unsaid = list(self.config.warnings)
        self.files = _PassFiles(self._forget_if_changed)
        self._stats: Dict[str, Tuple[int, ...]] = {}
        """The stats of the data files read, as they were when read."""
        self._pass_stats: Dict[str, Tuple[int, ...]] = {}
        """The stats taken in this pass, by path: a file is stat'ed once per pass (checked for a change, compared
        with an engine's stamps, stamped), as the pass reads a snapshot."""
        self._pass_real_paths: Dict[Any, Optional[str]] = {}
        """The links the engines resolved in this pass (HieraLookup's real_paths): emptied, not replaced, as kept
        engines hold it."""
        self._vaulted: set = set()
        """The data files read that are vaulted as a whole (their data is plain once loaded): a set, as a key of every
        host asks whether there is any."""
        self._positions: Any = None
        """Provenance: lines of keys in the data files (provenance_report.Positions), made on first use."""
        self._eyaml: Dict[str, EyamlKeys] = {
            level.name: EyamlKeys(self.config.root, level.eyaml[0], level.eyaml[1],
                                  "%s level '%s'" % (os.path.basename(path), level.name))
            for level in self.config.levels if level.eyaml is not None}
        """The key pair of each eyaml level, by name (the files are read at the first decryption)."""
        self._engines: Dict[Any, List[Any]] = {}
        """Node name -> [its plain engine, the stats of the paths it depends on, its facts]: a later lookup call
        reuses the engine (levels resolved, lookup_options read) while neither changed."""

        self.modules = Modules(self.config.root, self.module_config)
        """The environment's modules: the module layer of ``<module>::`` keys (docs/hiera.md)."""

    def begin_pass(self) -> None:
        """A new pass (a lookup call, an inventory parse): each parsed file is checked for a change at its first use
        in the pass."""
        self.files.begin_pass()
        self._pass_stats = {}
        self._pass_real_paths.clear()
        self.modules.begin_pass()
        if self._positions is not None:
            self._positions.begin_pass()

    def stat(self, path: str) -> Tuple[int, ...]:
        """parse.path_identity of ``path``, once per pass."""
        stat = self._pass_stats.get(path)
        if stat is None:
            stat = self._pass_stats[path] = path_identity(path)
        return stat

    def _forget_if_changed(self, path: str) -> None:
        stat = self._stats.get(path)
        if stat is not None and self.stat(path) != stat:
            self.files.forget(path)
            del self._stats[path]
            self._vaulted.discard(path)

    def module_config(self, path: str, module: str) -> HieraConfig:
        """A module's hiera.yaml (for module_layer.Modules): a HieraError naming its file and each problem's line."""
        try:
            return parse_hiera_config(load_untrusted(self.loader, path, HieraError), path, module)
        except HieraConfigError as exc:
            error = HieraError(config_problems(exc, path))
        except HieraError as exc:
            error = HieraError('Unable to parse (%s): %s' % (path, exc))
        error.located = True
        raise error

    def read(self, path: str, level: HieraLevel) -> Any:
        """A data file as ``level`` reads it: an eyaml level's eyaml values as EyamlValue, any other level refusing
        ciphertext-shaped strings."""
        self._stats[path] = self.stat(path)
        if whole_file_vaulted(path):
            self._vaulted.add(path)
        else:
            self._vaulted.discard(path)
        try:
            data = load_untrusted(self.loader, path, HieraError)
        except HieraError as exc:
            raise HieraError('Unable to parse (%s): %s' % (path, exc)) from exc
        try:
            return read_values(data, path, self._eyaml.get(level.name), "level '%s'" % level.name)
        except EyamlError as exc:
            raise HieraError(str(exc)) from None

    def may_hold_decrypted(self, key: str, holders: List[Dict[str, str]]) -> bool:
        """Whether a key's value may hold data of a whole-file vaulted file: a file holding the key is one, or
        the key's value interpolates, in a value or in a map key (``%{lookup(...)}`` may read one), while such a file
        has been read."""
        if not self._vaulted:
            return False
        files = [holder['file'] for holder in holders]
        return any(path in self._vaulted for path in files) or any(
            isinstance(self.files.get(path), Mapping)
            and find(self.files[path].get(key), _interpolates, keys=True) is not None for path in files)

    def engine(self, variables: Mapping, explain: bool = False, provenance: bool = False) -> HieraLookup:
        """A host's Hiera engine; ``provenance``: each lookup also notes where each part of its answer is written
        (``provenance_records``), at the cost of a traced merge."""
        return self._engine(*host_facts(variables), explain=explain, provenance=provenance)

    def _engine(self, node: str, facts: Dict[str, Any], explain: bool = False, provenance: bool = False) -> HieraLookup:
        return HieraLookup(self.config, self.read, hiera_scope(node, facts), Explainer() if explain else None,
                           files=self.files, position=key_position, provenance=provenance, modules=self.modules,
                           real_paths=self._pass_real_paths)

    def host_engine(self, variables: Mapping) -> HieraLookup:
        """The plain engine of a host: the one of an earlier lookup call when the host's Hiera scope is the same and
        its level paths are as they were (compared, not frozen: gathered facts make a scope large)."""
        node, facts = host_facts(variables)
        kept = self._engines.get(node)
        if kept is not None and _same_scope(kept[2], facts) and self._unchanged(kept[1], kept[0].depends_on()):
            kept[0].renew()
            return kept[0]
        engine = self._engine(node, facts)
        if len(self._engines) >= _ENGINES_KEPT:
            self._engines.clear()
        self._engines[node] = [engine, {}, facts]
        return engine

    def stamp(self, engine: HieraLookup) -> None:
        """After each answer of a kept engine: the stats of the paths it came to depend on (levels resolved, a
        module's layer read), as they were when it read them."""
        kept = self._engines.get(engine.scope['trusted']['certname'])
        if kept is not None and kept[0] is engine:
            for path in engine.depends_on():
                if path not in kept[1]:
                    kept[1][path] = self.stat(path)

    def _unchanged(self, stamps: Dict[str, Any], paths: Sequence[str]) -> bool:
        """Whether every path an engine depends on is stamped and as stamped (an engine that never answered: not)."""
        return bool(stamps) and all(stamps.get(path, _MISSING) == self.stat(path) for path in paths)

    def positions(self) -> Positions:
        """The lines of keys in the data files, for provenance (each file composed once per change)."""
        if self._positions is None:
            self._positions = Positions()
        return self._positions

    def locate(self, trace: Any, place: Any) -> Dict[str, Any]:
        """A place of a lookup's trace as provenance_report's ``{file, line, column, level, level_path}``, relative to
        the hiera.yaml's folder; data of a whole-file vaulted file is withheld (no line, no value)."""
        level, path = trace.variants[place.layer]
        shown = os.path.relpath(path, self.config.root)
        located: Dict[str, Any] = {'file': shown}
        if path in self._vaulted:
            located['withheld'] = True
        else:
            located['line'], located['column'], end = self.positions().span(path, place.path)
            if end and end > located['line']:
                located['end_line'] = end       # a value written on several lines
        located.update(level=level, level_path=shown)
        return located

    def rule_of(self, trace: Any) -> Dict[str, Any]:
        """``{rule, rule_at}``: the lookup_options key and its line in the data file that declares it, ``merge``
        for the call's merge, None for Hiera's default ``first``."""
        if trace.rule is None or trace.rule == 'merge':
            return {'rule': trace.rule, 'rule_at': 'the lookup call (merge=)' if trace.rule else None}
        line = self.positions().position(trace.rule_file, ('lookup_options', trace.rule))[0] \
            if trace.rule_file else None
        at = file_line(os.path.relpath(trace.rule_file, self.config.root), line) if line else None
        return {'rule': trace.rule, 'rule_at': at}

    def for_host(self, variables: Mapping, fetch: Optional[Callable] = None,
                 strict: Optional[bool] = None) -> 'HieraHostView':
        """A host of the hiera.yaml: its variables as Hiera's facts, used as written (``fetch`` is not needed)."""
        return HieraHostView(self, variables, bool(strict))

    def nodes(self, options: NodeOptions,
              refuse: Callable[[str], None]) -> Dict[str, Tuple[Dict[str, Any], str]]:
        """A host per file of the inventory source's ``nodes`` glob, its facts from ``facts`` and ``facts_dir``."""
        if not options.nodes:
            raise ConfigError('%s: a hiera.yaml source needs nodes, a glob of node files relative to the hiera.yaml '
                              '(such as data/nodes/*.yaml)' % options.source)
        hosts = {}
        for name in node_names(self, options.nodes):
            problem = name_problem(name)
            if problem:
                refuse('%s: node %r: %s' % (options.source, name, problem))
                continue
            hosts[name] = (node_facts(name, options.facts_dir, options.facts, self.loader), name)
        return hosts

    def fingerprint(self, paths: Sequence[str]) -> str:
        """Changes whenever the hiera.yaml, a file of ``paths`` (a folder: every file in it) or a file of a level's
        data folder changes (the whole repository's folder, for a data folder that interpolates), a module's levels'
        included (and environment.conf, each module's hiera.yaml)."""
        try:
            configs = [self.config] + self.modules.configs()
        except HieraError:      # a broken module hiera.yaml: its whole folder (the lookups name the error)
            configs = [self.config] + [_whole_folder(folder) for folder in self.modules.modules().values()]
        folders = {os.path.join(config.root, level.datadir) if '%{' not in level.datadir else config.root
                   for config in configs for level in config.levels}
        files: List[str] = [self.config.path] + self.modules.files()
        for path in list(paths) + sorted(folders):
            files.extend(_files_in(path) if os.path.isdir(path) else [path])
        digest = hashlib.sha256()
        for path in files:
            digest.update(('%s\0%r\n' % (path, path_identity(path))).encode('utf-8', 'surrogateescape'))
        return digest.hexdigest()

    def level_position(self, index: int) -> str:
        return level_position(self, index)

    def strict_hint(self, inventory: bool = False) -> str:
        return 'strict_levels: true in the inventory source makes an undefined level variable an error'

    def nodes_note(self, options: NodeOptions, found: bool) -> Optional[str]:
        if found:
            return None
        return 'nodes %r matches no file under %s (it is relative to the hiera.yaml): the source has no hosts' \
            % (options.nodes, self.config.root)


class HieraHostView(HostView):
    """A host of a hiera.yaml: a Hiera engine per lookup, over the host's facts."""

    def __init__(self, hiera: HieraSource, variables: Mapping, strict: bool) -> None:
        self._source, self._variables = hiera, variables
        self.host = variables.get('inventory_hostname')
        self._engine: Optional[HieraLookup] = None
        self._identity: Any = _UNKNOWN
        if strict and self.undefined:
            from ansible_collections.strata.hier.plugins.plugin_utils.undefined_levels import undefined_error
            raise undefined_error(self.host, self.undefined, partial(level_position, hiera))

    @property
    def identity(self) -> Any:      # type: ignore[override]
        """The host's Hiera scope (its facts): data interpolates them, so only the same facts answer alike."""
        if self._identity is _UNKNOWN:
            try:
                self._identity = freeze(host_facts(self._variables))
            except MergeError:      # nested past the depth limit: never cached
                self._identity = None
        return self._identity

    @property
    def undefined(self) -> Dict[int, Tuple[str, ...]]:      # type: ignore[override]
        """Hiera reads a path naming a variable the host does not have with the variable empty."""
        return self.engine().undefined_levels()

    unfilled = undefined

    def engine(self, explain: bool = False, provenance: bool = False) -> HieraLookup:
        """The host's engine, shared by its plain lookups (the levels resolved once); explain and provenance get
        one of their own, as they report on one lookup."""
        if explain or provenance:
            return self._source.engine(self._variables, explain=explain, provenance=provenance)
        if self._engine is None:
            self._engine = self._source.host_engine(self._variables)
        return self._engine

    def lookup(self, key: str, merge: Any = None, explain: bool = False, provenance: bool = False) -> Answer:
        return self._answer(self.engine(explain, provenance), key, merge)

    def whole(self, provenance: bool = False) -> Dict[str, Answer]:
        """Every root key of the host's data files, looked up with its own lookup_options."""
        engine = self.engine(provenance=provenance)
        answers = {}
        for key in engine.data_keys():
            if isinstance(key, str):
                answer = self._answer(engine, key, lookup_key=_quoted(key))
                if answer.found:
                    answers[key] = answer
        return answers

    def host_vars(self, warn: Callable[[str], None], provenance: bool = False,
                  wanted: Optional[Callable[[str], bool]] = None, allowed: Any = frozenset(),
                  findings: Optional[List[Dict[str, Any]]] = None, separator: str = '__') -> Dict[str, Any]:
        return whole_node(self._source, self._variables, separator, provenance, allowed, warn=warn, wanted=wanted)

    def check(self, keys: Optional[Sequence[str]] = None) -> List[Dict[str, Any]]:
        return []       # a hiera.yaml has no constraints: its convert_to types are applied by each lookup

    def _answer(self, engine: HieraLookup, key: str, merge: Any = None, lookup_key: Optional[str] = None) -> Answer:
        warned = len(engine.warnings)
        try:
            value, found = engine.lookup(lookup_key or key, merge), True
        except HieraNotFound:
            value, found = None, False
        if engine is self._engine:
            self._source.stamp(engine)
        records = provenance_records(self._source, engine) if found and engine.trace else {}
        shown = SENSITIVE_TEXT if found and engine.sensitive else value
        explained = engine.explain.text() if isinstance(engine.explain, Explainer) and engine.explain.lines else ''

        def explain() -> Dict[str, Any]:
            return {'key': key, 'found': found, 'value': shown, 'explain': explained}
        return Answer(key, value, found, engine.trace.rule if engine.trace else None, records,
                      engine.warnings[warned:], engine.sensitive, explain, lambda: origin_lines(records), shown=shown)


def config_problems(error: HieraConfigError, path: str) -> str:
    """A hiera.yaml's error with the line of each problem's key (``file:line: key ...``)."""
    if not error.problems:
        return _located(error, path)
    lines = [_located(problem, path) for problem in error.problems]
    return '%s has %d problems:\n%s' % (path, len(lines), '\n'.join(lines))


def _located(error: HieraConfigError, path: str) -> str:
    """``file:line: detail`` from the position the error carries (its message, when it names no key)."""
    return '%s: %s' % (key_position(path, error.keys), error.detail) if error.detail else str(error)


def _whole_folder(folder: str) -> HieraConfig:
    """A stand-in configuration whose one level's data folder is ``folder`` itself."""
    level = HieraLevel(name='module', kind='path', templates=('',), datadir='.', data_hash='yaml_data')
    return HieraConfig(path=os.path.join(folder, 'hiera.yaml'), root=folder, levels=(level,))


def _files_in(folder: str) -> List[str]:
    found = []
    for top, folders, files in os.walk(folder):
        folders.sort()
        found.extend(os.path.join(top, name) for name in sorted(files))
    return found


def provenance_records(source: HieraSource, engine: HieraLookup, root: Optional[Tuple[Any, ...]] = None
                       ) -> Dict[str, Any]:
    """The provenance records (plugin_utils/provenance_report.py) of the engine's last lookup, made with
    ``source.engine(..., provenance=True)``: path -> record, the looked-up key path first (``root``: the path the
    records are named under, such as a host variable's name); empty when the lookup found nothing.
    A value of a ``Sensitive`` convert_to (``engine.sensitive``) has only its own record, ``withheld`` and
    ``sensitive``: no value, nothing below it (its keys are part of the secret), nothing it shadowed."""
    from ansible_collections.strata.hier.plugins.plugin_utils.provenance_report import provenance_report
    trace = engine.trace
    if trace is None:
        return {}
    root = trace.segments if root is None else root
    rule = source.rule_of(trace)
    records = provenance_report(trace.value, trace.provenance(root), partial(source.locate, trace),
                                lambda path: dict(rule), root)
    return _sensitive_records(records) if engine.sensitive else records


def _sensitive_records(records: Dict[str, Any]) -> Dict[str, Any]:
    """The first (the looked-up path's) record only, without its values."""
    for name, record in records.items():
        own = {field: shown for field, shown in record.items() if field not in ('value', 'shadowed', 'removed')}
        return {name: dict(own, withheld=True, sensitive=True)}
    return {}


def host_facts(variables: Mapping) -> Tuple[str, Dict[str, Any]]:
    """(node name, facts) for a host's variables, by the mapping table above."""
    node = str(variables.get('inventory_hostname') or 'localhost')
    ansible_facts = variables.get('ansible_facts') or {}
    facts: Dict[str, Any] = {key: value for key, value in ansible_facts.items() if not is_vault_value(value)} \
        if isinstance(ansible_facts, Mapping) else {}
    hostname, _dot, domain = node.partition('.')
    facts.setdefault('hostname', hostname)
    facts.setdefault('domain', domain)
    facts.setdefault('fqdn', node)
    facts['clientcert'] = node
    os_fact = _os_fact(facts)
    if os_fact:
        facts.setdefault('os', os_fact)
    for name, value in variables.items():
        if _host_variable(name) and not is_vault_value(value):
            facts[name] = value
    return node, facts


def _host_variable(name: Any) -> bool:
    return isinstance(name, str) and not name.startswith(('ansible_', 'inventory_')) and name not in MAGIC_VARIABLES


def _os_fact(facts: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    """Facter 4's ``os`` fact as Facter reports it on the host, from Ansible's facts (docs/hiera.md, "Facts and
    variables": the table of each family); None without ``os_family`` or ``distribution``."""
    if 'os_family' not in facts and 'distribution' not in facts:
        return None
    given = tuple(map(facts.get, _OS_INPUTS))
    types = tuple(map(type, given))
    if _PLAIN_FACTS.issuperset(types):      # as given, with their types (1 == True): as good as their texts, cheaper
        inputs: Any = (given, types)
    else:       # a list, a map, a tagged or an encrypted value among them: by their texts
        inputs = tuple(_fact_text(facts, name) for name in _OS_INPUTS)
    made = _OS_FACTS.get(inputs)
    if made is None:
        if len(_OS_FACTS) >= _OS_FACTS_KEPT:
            _OS_FACTS.clear()
        made = _OS_FACTS[inputs] = _made_os_fact(facts)
    return made


_OS_INPUTS = ('os_family', 'distribution', 'distribution_version', 'distribution_release', 'distribution_major_version',
              'os_product_type', 'kernel', 'machine', 'architecture')
"""Every fact _made_os_fact reads (each through _fact_text): the same texts make the same ``os`` fact."""
_OS_FACTS: Dict[Any, Dict[str, Any]] = {}
"""The ``os`` facts made, by their inputs (as given with their types, else as texts): a lookup call maps its host's
facts again (shared, never changed)."""
_OS_FACTS_KEPT = 256
_PLAIN_FACTS = frozenset((str, int, float, bool, type(None)))


def _made_os_fact(facts: Dict[str, Any]) -> Dict[str, Any]:
    family, name = _fact_text(facts, 'os_family'), _fact_text(facts, 'distribution')
    shape = _OS_SHAPES.get(family or '', _other_os)
    os_fact = shape(facts, name or '', _fact_text(facts, 'distribution_version') or '')
    os_fact.update(_windows_machine(facts) if family == 'Windows' else _machine(facts))
    return _without_empty(os_fact)


def _fact_text(facts: Dict[str, Any], name: str) -> Optional[str]:
    value = facts.get(name)
    return str(value) if isinstance(value, (str, int, float)) and not isinstance(value, bool) else None


def _without_empty(value: Dict[str, Any]) -> Dict[str, Any]:
    """The fact without the parts Ansible's facts did not give (Facter leaves them out too)."""
    kept = {key: _without_empty(item) if isinstance(item, dict) else item for key, item in value.items()}
    return {key: item for key, item in kept.items() if item not in (None, '', {})}


def _release(version: str) -> Dict[str, Any]:
    """Facter's ``release_hash_from_string``: ``9.3`` -> full 9.3, major 9, minor 3."""
    parts = version.split('.')
    return {'full': version, 'major': parts[0], 'minor': parts[1] if len(parts) > 1 else None}


def _debian_os(facts: Dict[str, Any], name: str, version: str) -> Dict[str, Any]:
    """Ubuntu: its VERSION_ID whole (``22.04`` is the major release too); Debian and the rest of the family:
    /etc/debian_version split, the minor without a leading zero."""
    if name == 'Ubuntu':
        release: Dict[str, Any] = {'full': version, 'major': version}
    else:
        release = _release(version)
        release['minor'] = re.sub(r'^0([1-9])', r'\1', release['minor'] or '')
    distro = {'id': name.replace(' ', '').capitalize(), 'codename': _fact_text(facts, 'distribution_release'),
              'release': release}
    return {'name': name, 'family': 'Debian', 'release': release, 'distro': distro}


def _redhat_os(facts: Dict[str, Any], name: str, version: str) -> Dict[str, Any]:
    """RHEL, CentOS, Rocky, AlmaLinux, Fedora...: /etc/redhat-release's version split; distro.id its product name
    without ``Linux`` (``RedHatEnterprise``, ``CentOSStream``), codename the part in parentheses."""
    release = _release(version)
    codename = _fact_text(facts, 'distribution_release')
    stream = name == 'CentOS' and codename == 'Stream'     # "CentOS Stream release 9": no codename
    distro = {'id': {'RedHat': 'RedHatEnterprise'}.get(name, name.replace(' ', '')) + ('Stream' if stream else ''),
              'codename': None if stream else codename, 'release': release}
    return {'name': name, 'family': 'RedHat', 'release': release, 'distro': distro}


def _suse_os(facts: Dict[str, Any], name: str, version: str) -> Dict[str, Any]:
    """SLES, openSUSE: VERSION_ID (``.0`` added to a version without a dot, as Facter does), no codename."""
    version = version if '.' in version or not version else version + '.0'
    parts = version.split('.')
    release = {'full': version, 'major': parts[0], 'minor': parts[-1] if version else None}
    distro = {'id': 'SUSE LINUX' if version.startswith('12') else 'SUSE', 'codename': 'n/a', 'release': release}
    shown = 'SLES' if name.upper().startswith('SLES') else name.split(' ')[0]
    return {'name': shown, 'family': 'Suse', 'release': release, 'distro': distro}


def _windows_os(facts: Dict[str, Any], name: str, version: str) -> Dict[str, Any]:
    """The release's marketing name (``2022``, ``2012 R2``, ``11``), from the kernel version and build and whether
    it is a server, as Facter's WindowsReleaseFinder tells them."""
    product = _fact_text(facts, 'os_product_type')
    consumer = product == 'workstation' if product else 'Server' not in name
    parts = version.split('.')
    kernel = '.'.join(parts[:2])
    if kernel == '10.0':
        build = int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else 0
        servers = ((26100, '2025'), (20348, '2022'), (17623, '2019'), (0, '2016'))
        release = ('11' if build >= 22000 else '10') if consumer else next(shown for least, shown in servers
                                                                           if build >= least)
    else:
        older = {'6.3': ('8.1', '2012 R2'), '6.2': ('8', '2012'), '6.1': ('7', '2008 R2'), '6.0': ('Vista', '2008'),
                 '5.2': ('XP', '2003')}
        release = older[kernel][0 if consumer else 1] if kernel in older else kernel
    return {'name': 'windows', 'family': 'windows', 'release': {'full': release, 'major': release}}


def _darwin_os(facts: Dict[str, Any], name: str, version: str) -> Dict[str, Any]:
    """macOS: Darwin's kernel release (``22.6.0``); the product version under ``macosx``."""
    kernel = _fact_text(facts, 'kernel') or ''
    parts = kernel.split('.')
    release = {'full': kernel, 'major': parts[0], 'minor': parts[1] if len(parts) > 1 else None}
    numbers = version.split('.')
    if numbers[0] == '10':
        product = {'full': version, 'major': '.'.join(numbers[:2]), 'minor': numbers[-1]}
    else:
        product = {'full': version, 'major': numbers[0], 'minor': (numbers + ['0'])[1],
                   'patch': (numbers + ['0', '0'])[2]}
    return {'name': 'Darwin', 'family': 'Darwin', 'release': release, 'macosx': {'version': product}}


def _other_os(facts: Dict[str, Any], name: str, version: str) -> Dict[str, Any]:
    """Another family: Ansible's names and versions as they are."""
    release = {'full': version, 'major': _fact_text(facts, 'distribution_major_version')}
    return {'name': name, 'family': _fact_text(facts, 'os_family'), 'release': release}


_OS_SHAPES: Dict[str, Callable[[Dict[str, Any], str, str], Dict[str, Any]]] = {
    'Debian': _debian_os, 'RedHat': _redhat_os, 'Suse': _suse_os, 'Windows': _windows_os, 'Darwin': _darwin_os}


def _machine(facts: Dict[str, Any]) -> Dict[str, Any]:
    """``uname -m`` as ``hardware``; ``architecture`` the same, ``i386`` for any 32-bit x86."""
    machine = _fact_text(facts, 'machine') or _fact_text(facts, 'architecture')
    if not machine:
        return {}
    return {'hardware': machine, 'architecture': 'i386' if re.match(r'i[3456]86|pentium', machine) else machine}


def _windows_machine(facts: Dict[str, Any]) -> Dict[str, Any]:
    """Windows' ``64-bit``/``32-bit`` as Facter's ``x64``/``x86`` (hardware ``x86_64``/``i686``)."""
    shown = {'64-bit': ('x64', 'x86_64'), '32-bit': ('x86', 'i686')}.get(_fact_text(facts, 'architecture') or '')
    return {'architecture': shown[0], 'hardware': shown[1]} if shown else {}


_ENGINES_KEPT = 4096
_UNKNOWN = object()


def _same_scope(kept: Dict[str, Any], facts: Dict[str, Any]) -> bool:
    """Equal facts, each top-level value of the same type too (``1 == True`` for Python, not for interpolation)."""
    return kept == facts and all(type(value) is type(facts[name]) for name, value in kept.items())


_MISSING = object()


def node_names(source: HieraSource, pattern: str) -> List[str]:
    """Host names from the stems of the files ``pattern`` (relative to the hiera.yaml's folder) matches, in
    Ruby glob order (``data/nodes/*.yaml``: Puppet's per-node files are named by certname)."""
    names = []
    for path in ruby_glob(os.path.join(source.config.root, pattern)):
        if not inside(source.config.root, path):
            raise ConfigError('nodes %r reaches %s, outside the folder of %s' % (pattern, path, source.config.path))
        names.append(os.path.splitext(os.path.basename(path))[0])
    return names


def node_facts(node: str, facts_dir: Optional[str], common: Optional[Mapping], loader: Any) -> Dict[str, Any]:
    """A node's variables for its Hiera scope: ``common`` facts, then its own facts file
    ``<facts_dir>/<node>.yaml|.yml|.json`` (Puppet's fact cache or ``puppet facts show`` output)."""
    variables: Dict[str, Any] = dict(common or {})
    for extension in ('.yaml', '.yml', '.json'):
        path = os.path.join(facts_dir, node + extension) if facts_dir else None
        if path and os.path.isfile(path):
            data = load_untrusted(loader, path, ConfigError)
            facts = data.get('values', data) if isinstance(data, Mapping) else None   # the fact cache nests them
            if not isinstance(facts, Mapping):
                raise ConfigError('%s: a facts file must hold a map of facts' % path)
            variables.update(facts)
            break
    variables['inventory_hostname'] = node
    return variables


def whole_node(hiera: HieraSource, variables: Mapping, separator: str, provenance: bool = False,
               allowed: FrozenSet[str] = frozenset(), *, warn: Callable[[str], None],
               wanted: Optional[Callable[[str], bool]] = None) -> Dict[str, Any]:
    """Every key of the node's data looked up (its own lookup_options), as host variables: ``a::b`` keys are
    named ``a<separator>b``; with ``provenance``, ``hier_sources`` maps each to the levels and files holding it, and
    ``hier_provenance`` each path (``name/...``) to where it is written (``provenance_records``).
    A name data cannot set (host_vars.variable_problem, ``allowed`` as allow_reserved_keys) is left out with a
    warning; ``wanted``: the names to give (None: all). ``warn`` is the printer of the plugin asking (host_vars)."""
    host = variables.get('inventory_hostname')
    engine = hiera.engine(variables, provenance=provenance)
    host_vars: Dict[str, Any] = {}
    sources: Dict[str, Any] = {}
    records: Dict[str, Any] = {}
    vaulted: List[str] = []
    for key in engine.data_keys():
        if not isinstance(key, str) or (wanted is not None and not wanted(key.replace('::', separator))):
            continue
        try:
            value = engine.lookup(_quoted(key))
        except HieraNotFound:
            continue
        name = key.replace('::', separator)
        holders = engine.holders(key)
        if refused_variable(name, value, partial(_places, holders, key), host, allowed, warn):
            continue
        host_vars[name] = value
        secret = engine.sensitive or hiera.may_hold_decrypted(key, holders)     # the rsop role withholds it
        if provenance:
            _add_provenance(hiera, engine, name, holders, secret, sources, records)
        if secret:
            vaulted.append(name)
    for warning in engine.warnings:
        warn('strata.hier.hier %s: %s' % (host, warning))
    if provenance:
        host_vars.update(hier_sources=sources, hier_provenance=records)
    if vaulted:
        host_vars['hier_vaulted_keys'] = vaulted
    return host_vars


def _add_provenance(source: HieraSource, engine: HieraLookup, name: str, holders: List[Dict[str, str]], secret: bool,
                    sources: Dict[str, Any], records: Dict[str, Any]) -> None:
    """A host variable's hier_sources and hier_provenance; for one that may hold data of a whole-file vaulted file
    (hier_vaulted_keys), only its own record, withheld: its paths (map keys) and values may be that data in clear."""
    sources[name] = holders
    found = provenance_records(source, engine, (name,))
    if secret:
        own = {field: shown for field, shown in found.get(name, {}).items()
               if field not in ('value', 'shadowed', 'removed')}
        found = {name: dict(own, withheld=True)}
    records.update(found)


def level_position(source: HieraSource, index: int) -> str:
    """``hiera.yaml:line: level 'name'`` of the level ``index`` of the hierarchy, for messages."""
    return "%s: level '%s'" % (key_position(source.config.path, ['hierarchy', index]), source.config.levels[index].name)


def _places(holders: List[Dict[str, str]], key: str) -> List[str]:
    return [key_position(holder['file'], [key]) for holder in holders]


def _interpolates(value: Any) -> bool:
    return isinstance(value, str) and '%{' in value


def _quoted(key: str) -> str:
    """A data key as a lookup key: one holding dots or quotes is quoted, so it is not dug into."""
    if '.' not in key and '"' not in key and "'" not in key:
        return key
    return '"%s"' % key if '"' not in key else "'%s'" % key


def get_hiera_source(path: str, loader: Any) -> HieraSource:
    """The HieraSource of a hiera.yaml, from the one cache of Sources (source.py)."""
    return get_source(path, loader)


def fresh_hiera_source(path: str, loader: Any) -> HieraSource:
    """get_hiera_source, its changed data files forgotten."""
    return open_source(path, loader)
