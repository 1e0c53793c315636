# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""One Source per configuration file, chosen once: what the lookup, inventory and vars plugins talk to.

``open_source(path, loader)`` reads a configuration by its kind (``KINDS``: strata's ``hier.yml`` and Datum's
``Datum.yml`` through ``Hierarchy``, Puppet's ``hiera.yaml`` through the Hiera engine) and keeps one Source per file
and process. Every Source answers the same questions:

- ``for_host(variables)``: a ``HostView`` of one host, its levels expanded: ``lookup(key, ...)`` gives an ``Answer``;
  ``whole(...)`` every key of the host; ``host_vars(...)`` the host's variables (inventory, vars plugin);
  ``check(keys)`` the host's constraint findings;
- ``nodes(options, refuse)``: the hosts of an inventory source, with their variables;
- ``fingerprint(paths)``: what changes when any file the answers depend on changes (the inventory cache);
- ``take_warnings()``: what reading the configuration found to warn about, not given yet;
- ``preload_data()``: the data files loaded before ansible-playbook forks (the preload callback), where a kind can.

Warnings are results: an ``Answer``'s are about its key, ``take_warnings`` gives the configuration's; the plugin
that asked prints them (helpers never print).

A plugin never asks which kind it has: a new kind of configuration is a new Source module and a line in ``KINDS``.
"""

from __future__ import annotations

import importlib
import os
import stat as stat_module
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.records import Record
from ansible_collections.strata.hier.plugins.plugin_utils.config_path import is_hiera_config_file
from ansible_collections.strata.hier.plugins.plugin_utils.parse import MISSING_FILE, file_identity

KINDS: Tuple[Tuple[Callable[[str], bool], str, str], ...] = (
    (is_hiera_config_file, 'sources.hiera_yaml', 'HieraSource'),      # a hiera.yaml, by its name or its version key
    (lambda path: True, 'sources.hier_yml', 'HierarchySource'),     # a hier.yml or Datum.yml (config.py: by name)
)
"""(does this kind read the file, the plugin_utils module and class of its Source): the first that claims a file
reads it. A module loads only when a configuration of its kind is opened (a play over hier.yml never loads Hiera's)."""

PRELOADED = ('sources.hier_yml',)
"""The kinds the preload callback loads before ansible-playbook forks its workers (Hiera's stay on demand)."""

_SOURCES: Dict[Tuple[str, str], Tuple[Any, Any]] = {}


def preload() -> None:
    """Import the Source modules of PRELOADED (the preload callback, in ansible-playbook's main process)."""
    for module in PRELOADED:
        _module(module)


def get_source(path: str, loader: Any) -> 'Source':
    """The Source of a configuration file: the same one, with the files it has read, until the file changes."""
    return per_config_file(_SOURCES, path, lambda: _kind_of(path)(path, loader))


def take_all_warnings() -> List[str]:
    """The warnings of every Source of the process not given yet (a job's action plugin, which opens none itself)."""
    return [warning for _mtime, source in list(_SOURCES.values()) for warning in source.take_warnings()]


def open_source(path: str, loader: Any) -> 'Source':
    """get_source, a new pass begun: within one lookup call or inventory parse, the data is a snapshot."""
    source = get_source(path, loader)
    source.begin_pass()
    return source


def per_config_file(cache: Dict[Tuple[str, str], Tuple[Any, Any]], config_path: str, build: Callable[[], Any]) -> Any:
    """What ``build`` makes of a configuration file, once per process and version of the file (parse.file_identity: a
    file replaced by one of the same mtime is another version too), by the file and the name it was given
    by: a Source reads its data relative to that name, which a re-pointed link makes another file's (another name of
    the same file has a Source of its own). A Source need not watch its own configuration file: a changed one is
    another Source."""
    given = os.path.abspath(config_path)     # the current folder may change
    real, version = _real_path(given)
    cached = cache.get((real, given))
    if cached and cached[0] == version:
        return cached[1]
    built = build()
    cache[(real, given)] = (version, built)
    return built


def _real_path(path: str) -> Tuple[str, Tuple[int, ...]]:
    """(the absolute ``path`` with its links resolved, the file's version: parse.file_identity, MISSING_FILE when it
    is missing): a lookup call opens its configuration again, and resolving its links costs a stat per folder of the path. A file
    that is not a link is its folder's real path and its name, and a folder is the same one while its identity is
    (folders have no hard links): a link re-pointed above the file is seen by the folder's stat; a file that is a
    link is resolved each time."""
    try:
        own = os.lstat(path)
        if stat_module.S_ISLNK(own.st_mode):
            return os.path.realpath(path), file_identity(os.stat(path))
        folder = os.stat(os.path.dirname(path))
    except OSError:
        return os.path.realpath(path), MISSING_FILE
    seen = (folder.st_dev, folder.st_ino)
    known = _REAL_PATHS.get(path)
    if known is None or known[0] != seen:
        if len(_REAL_PATHS) >= _REAL_PATHS_KEPT:
            _REAL_PATHS.clear()
        known = _REAL_PATHS[path] = (seen, os.path.realpath(path))
    return known[1], file_identity(own)


_REAL_PATHS: Dict[str, Tuple[Tuple[int, int], str]] = {}
"""Configuration path -> (its folder's identity, the path with links resolved)."""
_REAL_PATHS_KEPT = 1024


def _kind_of(path: str) -> Any:
    module, name = next((module, name) for claims, module, name in KINDS if claims(path))
    return getattr(_module(module), name)


def _module(name: str) -> Any:
    return importlib.import_module('ansible_collections.strata.hier.plugins.plugin_utils.%s' % name)


class NodeOptions(Record):
    """What an inventory source says about its nodes: ``nodes`` (a glob, for a configuration without its own),
    ``facts`` and ``facts_dir`` (facts every node has, and a folder of facts files), ``separator`` (what ``::`` in a
    data key becomes in a variable's name) and ``strict_levels``."""

    source: str
    nodes: Optional[str] = None
    facts: Optional[Mapping] = None
    facts_dir: Optional[str] = None
    separator: str = '__'
    strict_levels: Optional[bool] = None


class Answer:
    """One looked-up key: ``value`` and ``found``, the ``rule`` that merged it, ``records`` (provenance, when asked),
    ``warnings``, and whether it is ``secret`` (data of a whole-file vaulted file, a Sensitive value: written out, it
    must stay secret); ``shown``: the value as a report shows it (a Sensitive value redacted); ``eyaml``: whether the
    value may hold eyaml values (False where the Source reads none: the lookup need not walk it for them)."""

    __slots__ = ('key', 'value', 'found', 'rule', 'records', 'warnings', 'secret', 'shown', 'eyaml', '_explain',
                 '_trace')

    def __init__(self, key: str, value: Any, found: bool, rule: Optional[str], records: Optional[Dict[str, Any]],
                 warnings: Sequence[str], secret: bool, explain: Callable[[], Dict[str, Any]],
                 trace: Callable[[], List[str]], shown: Any = None, eyaml: bool = True) -> None:
        self.key, self.value, self.found, self.rule = key, value, found, rule
        self.records, self.warnings, self.secret = records, list(warnings), secret
        self.shown = value if shown is None else shown
        self.eyaml = eyaml
        self._explain, self._trace = explain, trace

    def explain(self) -> Dict[str, Any]:
        """The explain report of the lookup, in its kind's words (docs/hierarchy.md, docs/hiera.md)."""
        return self._explain()

    def trace(self) -> List[str]:
        """``-vvv``: the levels read and where each value comes from, a line each."""
        return self._trace()


def origin_lines(records: Optional[Dict[str, Any]]) -> List[str]:
    """-vvv: each value's origin, indented under the lookup's other lines (provenance_report.origin_lines)."""
    if not records:
        return []
    from ansible_collections.strata.hier.plugins.plugin_utils.provenance_report import origin_lines as lines
    return ['  ' + line for line in lines(records)]


class HostView:
    """One host of a Source: its levels expanded for its variables."""

    host: Optional[str]
    undefined: Mapping[int, Sequence[str]]
    """The levels naming variables the host does not have (index in the configuration -> the variables)."""
    unfilled: Mapping[int, Sequence[str]]
    """Those of them that are left without any data for the host (the inventory's warning about misspelt variables)."""
    identity: Any
    """Equal for two views that give every key the same answer (the vars plugin's cache); None: never equal."""

    def lookup(self, key: str, merge: Any = None, explain: bool = False, provenance: bool = False) -> Answer:
        raise NotImplementedError

    def whole(self, provenance: bool = False) -> Dict[str, Answer]:
        """Every key of the host's data, looked up."""
        raise NotImplementedError

    def host_vars(self, warn: Callable[[str], None], provenance: bool = False,
                  wanted: Optional[Callable[[str], bool]] = None, allowed: Any = frozenset(),
                  findings: Optional[List[Dict[str, Any]]] = None) -> Dict[str, Any]:
        """The host's variables (host_vars.py): every key ``wanted`` accepts, those data may set."""
        raise NotImplementedError

    def check(self, keys: Optional[Sequence[str]] = None) -> List[Dict[str, Any]]:
        """The host's constraint findings (constraint_check.py) under the top-level ``keys`` (None: all)."""
        raise NotImplementedError


class Source:
    """A configuration file and the data it reaches (see the module's docstring)."""

    path: str
    undefined_effect: str
    """What a level variable the host does not have does to the level (for messages)."""
    _unsaid: List[str]
    """The configuration's warnings not given yet (each Source sets them from its configuration)."""

    def take_warnings(self) -> List[str]:
        """What reading the configuration found to warn about, not given yet: each once per Source, so once per
        process and version of the file; the plugin that opened the Source prints them."""
        taken, self._unsaid = self._unsaid, []
        return taken

    def begin_pass(self) -> None:
        raise NotImplementedError

    def preload_data(self) -> Optional[int]:
        """Load the data files before ansible-playbook forks its workers (the preload callback), so each inherits
        them; how many, or None where a kind does not (a hiera.yaml's data is read by its engine as it goes)."""
        return None

    def for_host(self, variables: Mapping, fetch: Optional[Callable] = None, strict: Optional[bool] = None) -> HostView:
        """The host whose variables are ``variables`` (``fetch(variables, name)``: a variable as a level reads it);
        ``strict``: an undefined level variable is an error (None: as the configuration says)."""
        raise NotImplementedError

    def nodes(self, options: NodeOptions, refuse: Callable[[str], None]) -> Dict[str, Dict[str, Any]]:
        """Host name -> its variables, for every node of an inventory source; a node that cannot be a host is given
        to ``refuse``."""
        raise NotImplementedError

    def fingerprint(self, paths: Sequence[str]) -> str:
        raise NotImplementedError

    def level_position(self, index: int) -> str:
        """``file:line: level 'as written'`` of a level of the configuration."""
        raise NotImplementedError

    def strict_hint(self, inventory: bool = False) -> str:
        """How to make an undefined level variable an error."""
        raise NotImplementedError

    def nodes_note(self, options: NodeOptions, found: bool) -> Optional[str]:
        """What an inventory source should be told about its nodes (``found``: whether any node file was found): a
        glob matching no file, an option the configuration does not use; None when nothing."""
        raise NotImplementedError
