# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Hierarchy configuration: strata's ``hier.yml``, and what every dialect's configuration becomes (Datum's
``Datum.yml``: datum_config.py; which of the two a file is: sources/hier_yml.py ``load_config``)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Dict, Optional, Tuple

from ansible.errors import AnsibleError

from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeError
from ansible_collections.strata.hier.plugins.module_utils.core.mapped_levels import Level, parse_level
from ansible_collections.strata.hier.plugins.module_utils.core.records import Record
from ansible_collections.strata.hier.plugins.module_utils.core.rules import MergeRules
from ansible_collections.strata.hier.plugins.plugin_utils.compat import CompleteMessage, is_vault_value
from ansible_collections.strata.hier.plugins.plugin_utils.source_lines import key_position
from ansible_collections.strata.hier.plugins.plugin_utils.data_files import load_untrusted
from ansible_collections.strata.hier.plugins.plugin_utils.walk import expanded_size, find

HIER_KEYS = ('datadir', 'hierarchy', 'nodes', 'default_lookup_options', 'lookup_options', 'case_insensitive_keys',
             'strict_levels', 'constraints', 'secrets')
EYAML_KEYS = ('private_key', 'public_key')

if TYPE_CHECKING:     # loaded only by a configuration that has constraints
    from ansible_collections.strata.hier.plugins.module_utils.core.constraints import Constraints

RULES_LIMIT = 100000
"""Most values lookup_options may hold written out in full (YAML aliases repeated)."""


class ConfigError(CompleteMessage, AnsibleError):
    """The hierarchy configuration is missing or wrong."""


class HierarchyError(CompleteMessage, AnsibleError):
    """A lookup in the hierarchy cannot give a trustworthy answer (hierarchy.py raises it; undefined_levels.py too)."""


class HierarchyConfig(Record):
    """A hierarchy configuration as read from hier.yml or Datum.yml."""

    path: str
    datadir: str
    levels: Tuple[Level, ...]
    rules: MergeRules
    nodes: Optional[str] = None
    case_insensitive_keys: bool = False
    mounts: Optional[Dict[str, str]] = None
    dialect: str = 'hier'
    handlers_throw: bool = True
    """A Datum handler that cannot be evaluated is an error (False: Datum.yml's DatumHandlersThrowOnError: false)."""
    strict_levels: bool = False
    """A level variable undefined for a host is an error (hier.yml's strict_levels, Datum.yml's StrictLevels)."""
    levels_key: str = 'hierarchy'
    """The key holding the levels, as the file spells it: where a message about a level points."""
    written_levels: Tuple[str, ...] = ()
    """The levels as the file writes them, when they are read otherwise (Datum's ``$($Node.X)``); empty: ``levels``."""
    constraints: Optional['Constraints'] = None
    """hier.yml's ``constraints`` (Datum.yml's ``Constraints``): None when there are none, which costs nothing."""
    eyaml: Optional[Tuple[Optional[str], Optional[str]]] = None
    """hier.yml's ``secrets.eyaml``: the private and public key files as written (None: eyaml's default); None:
    no eyaml keys (a ciphertext-shaped string in the data is an error)."""
    warnings: Tuple[str, ...] = ()
    """What reading the file found to warn about (Datum.yml's keys, strategy names, levels): the plugins print them,
    once per Source (``Source.take_warnings``)."""


def level_position(config: HierarchyConfig, index: int) -> str:
    """``file:line`` of a level of the configuration (its entry in the list of levels), and the level as written."""
    written = config.written_levels[index] if config.written_levels else str(config.levels[index])
    return '%s: level %r' % (key_position(config.path, [config.levels_key, index]), written)


def is_datum_config(path: str) -> bool:
    return os.path.basename(path).lower() in ('datum.yml', 'datum.yaml')


def read_config_file(path: str, loader: Any) -> Mapping:
    """A hier.yml or Datum.yml file's map (sources/hier_yml.py ``load_config`` reads it as its kind)."""
    if not os.path.isfile(path):
        raise ConfigError('hierarchy configuration %s not found' % path)
    data = load_untrusted(loader, path, ConfigError)
    if not isinstance(data, Mapping):
        raise ConfigError('hierarchy configuration %s must be a map, not %s' % (path, type(data).__name__))
    return data


def hier_config(path: str, data: Mapping) -> HierarchyConfig:
    """A hier.yml's map as a configuration."""
    for key in data:
        if key not in HIER_KEYS:
            raise ConfigError('%s: unknown key %r in the hierarchy configuration; valid keys: %s'
                              % (key_position(path, [key]), key, ', '.join(HIER_KEYS)))
    levels = data.get('hierarchy')
    if not isinstance(levels, list) or not levels:
        raise ConfigError('%s: hierarchy must be a non-empty list of level paths' % key_position(path, ['hierarchy']))
    case_insensitive = flag(path, data, 'case_insensitive_keys', False)
    nodes = data.get('nodes')
    if nodes is not None and not isinstance(nodes, str):
        raise ConfigError('%s: nodes must be a glob such as "AllNodes/*/*"' % key_position(path, ['nodes']))
    datadir = data.get('datadir', '.')
    if not isinstance(datadir, str):
        raise ConfigError('%s: datadir must be a path' % key_position(path, ['datadir']))
    return HierarchyConfig(path=path, datadir=_relative_to(path, datadir), levels=_hier_levels(path, levels),
                           rules=read_rules(path, data, case_insensitive), nodes=nodes,
                           case_insensitive_keys=case_insensitive,
                           strict_levels=flag(path, data, 'strict_levels', False),
                           constraints=read_constraints(path, data, 'constraints', case_insensitive),
                           eyaml=_eyaml_keys(path, data.get('secrets')))


def _eyaml_keys(path: str, secrets: Any) -> Optional[Tuple[Optional[str], Optional[str]]]:
    """``secrets: {eyaml: {private_key, public_key}}``: the key files, relative to the configuration's folder."""
    if secrets is None:
        return None
    if not isinstance(secrets, Mapping) or set(secrets) - {'eyaml'}:
        raise ConfigError('%s: secrets must be a map with the key eyaml (secrets: {eyaml: {private_key: ..., '
                          'public_key: ...}})' % key_position(path, ['secrets']))
    keys = secrets.get('eyaml') or {}
    if not isinstance(keys, Mapping) or set(keys) - set(EYAML_KEYS):
        raise ConfigError('%s: secrets.eyaml must be a map with the keys private_key and public_key (files, relative '
                          'to %s)' % (key_position(path, ['secrets', 'eyaml']), os.path.basename(path)))
    for name in EYAML_KEYS:
        if keys.get(name) is not None and (not isinstance(keys[name], str) or not keys[name]):
            raise ConfigError('%s: secrets.eyaml.%s must be a file name, not %s'
                              % (key_position(path, ['secrets', 'eyaml', name]), name, _kind(keys[name])))
    return (keys.get('private_key'), keys.get('public_key'))


def flag(path: str, data: Mapping, key: str, default: bool) -> bool:
    """A true-or-false setting of the configuration; anything else (``"yes"`` in quotes, 1, null) is an error (naming
    the value's type only: it may be a vault value)."""
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise ConfigError('%s: %s must be true or false, not %s' % (key_position(path, [key]), key, _kind(value)))
    return value


def shown_setting(value: Any) -> str:
    """A wrong setting as an error shows it: as written, or by its kind where it holds a vault value (its repr
    would decrypt it)."""
    return _kind(value) if find(value, is_vault_value, keys=True) is not None else repr(value)


def _kind(value: Any) -> str:
    """What a setting holds, for an error (never the value: it may be a vault value)."""
    if value is None or is_vault_value(value):
        return 'null' if value is None else 'a vault value'
    for kinds, name in ((str, 'a string'), ((int, float), 'a number'), (list, 'a list'), (Mapping, 'a map')):
        if isinstance(value, kinds):
            return name
    return 'a %s' % type(value).__name__


def missing_datadir(config: HierarchyConfig) -> str:
    """The error for a data folder that does not exist, naming the configuration line that sets it."""
    if config.dialect != 'hier':       # Datum.yml: its own folder
        return '%s: the data folder %s (the folder of this file) does not exist' % (config.path, config.datadir)
    return ('%s: datadir: the data folder %s does not exist (a relative datadir is relative to the folder of this '
            'file)' % (key_position(config.path, ['datadir']), config.datadir))


def _hier_levels(path: str, levels: list) -> Tuple[Level, ...]:
    """hier.yml's levels: paths, or maps holding mapped_paths (module_utils/core/mapped_levels.py)."""
    parsed = []
    for level in levels:
        try:
            parsed.append(parse_level(level))
        except MergeError as exc:
            raise ConfigError('%s: %s' % (key_position(path, ['hierarchy']), exc)) from exc
    return tuple(parsed)


def _relative_to(config_path: str, path: str) -> str:
    return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(config_path)), path))


def read_rules(path: str, data: Mapping, case_insensitive: bool) -> MergeRules:
    """default_lookup_options and lookup_options, checked (no alias bomb, no vault value) and parsed."""
    for key in ('default_lookup_options', 'lookup_options'):
        try:
            expanded_size(data.get(key), RULES_LIMIT)    # no alias loop or bomb reaches the rules
        except MergeError as exc:
            raise ConfigError('%s: %s: %s' % (key_position(path, [key]), key, exc)) from exc
        if find(data.get(key), is_vault_value) is not None:     # reading it as a strategy would decrypt it
            raise ConfigError('%s: %s holds a vault value; merge rules are not secret' % (key_position(path, [key]), key))
    try:
        return MergeRules(data.get('default_lookup_options') or 'MostSpecific', data.get('lookup_options'),
                          case_insensitive)
    except MergeError as exc:     # the core says which setting (MergeError.keys)
        raise ConfigError('%s: %s' % (key_position(path, exc.keys), exc)) from exc


def read_constraints(path: str, data: Mapping, key: str, case_insensitive: bool) -> Optional['Constraints']:
    """The configuration's constraints (docs/constraints.md), checked as its rules are; None without any."""
    spec = data.get(key)
    if spec is None:
        return None
    from ansible_collections.strata.hier.plugins.module_utils.core.constraints import Constraints
    try:
        expanded_size(spec, RULES_LIMIT)
    except MergeError as exc:
        raise ConfigError('%s: %s: %s' % (key_position(path, [key]), key, exc)) from exc
    if find(spec, is_vault_value) is not None:
        raise ConfigError('%s: %s holds a vault value; constraints are not secret' % (key_position(path, [key]), key))
    try:
        return Constraints(spec, lambda name: '%s: %s %r' % (key_position(path, [key, name]), key, name),
                           case_insensitive) or None
    except MergeError as exc:
        raise ConfigError(str(exc) if isinstance(spec, Mapping) else '%s: %s' % (key_position(path, [key]), exc)) \
            from exc
