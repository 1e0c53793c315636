# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Puppet's module layer: the modules of an environment's modulepath and their hiera.yaml (docs/hiera.md).

The modulepath is ``environment.conf``'s ``modulepath`` beside the environment's hiera.yaml (entries separated by
``:``, relative ones relative to the environment's folder), else Puppet's default ``modules``.  ``$basemodulepath``
(and any ``$setting``) and folders outside the environment are not read, with a warning naming the line.  A module
is a folder of a modulepath entry named as Puppet names modules (``[a-z][a-z0-9_]*``); the first of a name along the
path wins.  Puppet 7 gives a module a data layer only when it has a ``hiera.yaml``: one with a ``data`` folder and
no hiera.yaml is read by neither (with a warning here).  A key ``<module>::rest`` is answered from its module's layer
after the environment's levels (module_utils.hiera).
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable, Dict, List, Optional, Tuple

from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.config import HieraConfig, inside

ENVIRONMENT_CONF = 'environment.conf'
DEFAULT_MODULEPATH = ('modules',)
"""Puppet's default: the environment's ``modules`` (then ``$basemodulepath``, outside the repository)."""
CONVENTIONAL = ('modules', 'site-modules', 'site')
"""Folders of an environment that usually hold modules: warned about when the modulepath does not reach them."""
MODULE_NAME = re.compile(r'[a-z][a-z0-9_]*\Z')
MISSING = 'missing'
"""``Modules.config``: no module of that name along the modulepath (``Module "x" not found``)."""
NO_PROVIDER = 'no hiera.yaml'
"""``Modules.config``: the module has no hiera.yaml (``Module data provider for module "x" not found``)."""

ReadConfig = Callable[[str, str], HieraConfig]
"""``read_config(path, module)``: a module's hiera.yaml parsed (``parse_hiera_config(..., module=module)``), or a
HieraError naming the file and line of each problem."""


def module_of(root: Any) -> Optional[str]:
    """The module a root key belongs to (Puppet's ``LookupKey#module_name``): its text before the first ``::``."""
    if not isinstance(root, str):
        return None
    index = root.find('::')
    return root[:index] if index > 0 else None


def modulepath(environment: str) -> Tuple[List[str], List[str]]:
    """(the modulepath's folders inside the environment, in order; warnings about entries not read)."""
    conf = os.path.join(environment, ENVIRONMENT_CONF)
    entries, line = _configured(conf)
    if entries is None:
        return [os.path.join(environment, entry) for entry in DEFAULT_MODULEPATH], []
    folders: List[str] = []
    skipped: List[str] = []
    for entry in entries:
        folder = os.path.normpath(os.path.join(environment, entry))
        if '$' in entry or not inside(environment, folder):
            skipped.append(entry)
        elif folder not in folders:
            folders.append(folder)
    warnings = ['%s:%d: modulepath entries %s are not read (settings such as $basemodulepath and folders outside '
                'the environment are outside the repository): modules there give no data'
                % (conf, line, ', '.join(repr(entry) for entry in skipped))] if skipped else []
    return folders, warnings


def _configured(conf: str) -> Tuple[Optional[List[str]], int]:
    """environment.conf's ``modulepath`` as Puppet's ini reader reads it (the value stripped, quotes around it
    dropped, entries split at ``:`` and kept as written), with its line; None without one."""
    try:
        with open(conf, encoding='utf-8', errors='surrogateescape') as stream:
            lines = stream.read().splitlines()
    except OSError:
        return None, 0
    for number, text in enumerate(lines, 1):
        match = re.match(r'\s*modulepath\s*=(.*)$', text)
        if match:
            value = match.group(1).strip()
            if len(value) > 1 and value[0] == value[-1] and value[0] in '"\'':
                value = value[1:-1]
            return [entry for entry in value.split(':') if entry], number
    return None, 0


class Modules:
    """The modules of one environment, by name, and their hiera.yaml (each parsed once, when first needed)."""

    def __init__(self, environment: str, read_config: ReadConfig) -> None:
        self.environment = os.path.abspath(environment)
        self._read_config = read_config
        self._listing: Optional[Dict[str, str]] = None
        self._configs: Dict[str, Any] = {}
        self._stamps: Dict[str, Any] = {}
        """What the listing was read from (environment.conf, the modulepath folders) -> its stat then."""
        self._config_stamps: Dict[str, Tuple[str, Any]] = {}
        """Module name -> (its hiera.yaml, its stat when read)."""
        self._checked: set = set()
        self._pending: List[str] = []
        self.folders: List[str] = []

    def begin_pass(self) -> None:
        """A new pass (a lookup call, an inventory parse): what was read is checked for a change at its first use in
        the pass (the listing at the first module asked for, a module's hiera.yaml when its module is), so that a
        pass costs the modules it reads, not every module read before."""
        self._checked = set()

    def modules(self) -> Dict[str, str]:
        """Module name -> folder, the first of a name along the modulepath."""
        if self._listing is not None and '' not in self._checked:
            self._checked.add('')
            if any(_stamp(path) != stamp for path, stamp in self._stamps.items()):
                self._listing, self._configs, self._stamps, self._config_stamps = None, {}, {}, {}
        if self._listing is None:
            self._checked.add('')
            self.folders, warnings = modulepath(self.environment)
            self._stamps[os.path.join(self.environment, ENVIRONMENT_CONF)] = _stamp(
                os.path.join(self.environment, ENVIRONMENT_CONF))
            listing: Dict[str, str] = {}
            for folder in self.folders:
                self._stamps[folder] = _stamp(folder)
                for name in _entries(folder):
                    if MODULE_NAME.match(name) and os.path.isdir(os.path.join(folder, name)):
                        listing.setdefault(name, os.path.join(folder, name))
            self._listing = listing
            self._pending.extend(warnings + self._unreached() + self._without_config())
        return self._listing

    def config(self, name: str) -> Any:
        """The module's hiera.yaml as a HieraConfig; MISSING (no such module) or NO_PROVIDER (no hiera.yaml)."""
        folder = self.modules().get(name)
        kept = self._config_stamps.get(name)
        if kept is not None and name not in self._checked:
            self._checked.add(name)
            if _stamp(kept[0]) != kept[1]:
                del self._configs[name], self._config_stamps[name]
        if name not in self._configs:
            self._checked.add(name)
            if folder is None:
                self._configs[name] = MISSING
            else:
                path = os.path.join(folder, 'hiera.yaml')
                self._config_stamps[name] = (path, _stamp(path))
                self._configs[name] = self._read_config(path, name) if os.path.isfile(path) else NO_PROVIDER
        return self._configs[name]

    def configs(self) -> List[HieraConfig]:
        """Every module's HieraConfig (modules without a hiera.yaml left out), in modulepath order."""
        return [found for found in (self.config(name) for name in self.modules()) if isinstance(found, HieraConfig)]

    def take_warnings(self) -> List[str]:
        """The warnings not given yet (each once per environment and process)."""
        taken, self._pending = self._pending, []
        return taken

    def files(self) -> List[str]:
        """What the module layer depends on, for a fingerprint: environment.conf, each module's hiera.yaml (there or
        not) and its ``data`` folder."""
        found = [os.path.join(self.environment, ENVIRONMENT_CONF)]
        for folder in self.modules().values():
            found.extend([os.path.join(folder, 'hiera.yaml'), os.path.join(folder, 'data')])
        return found

    def _unreached(self) -> List[str]:
        """A warning naming the hiera.yaml files of conventional module folders the modulepath does not reach."""
        missed = []
        for conventional in CONVENTIONAL:
            folder = os.path.join(self.environment, conventional)
            if folder not in self.folders:
                missed.extend(os.path.join(conventional, name, 'hiera.yaml') for name in _entries(folder)
                              if os.path.isfile(os.path.join(folder, name, 'hiera.yaml')))
        if not missed:
            return []
        where = os.path.join(self.environment, ENVIRONMENT_CONF)
        reason = "%s's modulepath" % where if os.path.isfile(where) else "the default modulepath ('modules')"
        return ['%s does not reach %s: their data is not read (as Puppet)' % (reason, ', '.join(missed))]

    def _without_config(self) -> List[str]:
        """Puppet 7 reads no data of a module without a hiera.yaml, even with a ``data`` folder: said once."""
        if self._listing is None:
            raise AssertionError('the modules are listed first')
        lone = [os.path.relpath(os.path.join(folder, 'data'), self.environment)
                for folder in self._listing.values()
                if os.path.isdir(os.path.join(folder, 'data'))
                and not os.path.isfile(os.path.join(folder, 'hiera.yaml'))]
        return ['%s: a module data folder without the module\'s hiera.yaml is not read (Puppet 7 reads none of it '
                'either; add a hiera.yaml to the module)' % ', '.join(lone)] if lone else []


def _entries(folder: str) -> List[str]:
    try:
        return sorted(os.listdir(folder))
    except OSError:
        return []


def _stamp(path: str) -> Tuple[int, int]:
    try:
        stat = os.stat(path)
    except (OSError, ValueError):
        return (-1, -1)
    return (stat.st_mtime_ns, stat.st_size)
