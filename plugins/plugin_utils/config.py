# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Hierarchy configuration: strata's ``hier.yml`` and Datum's ``Datum.yml``."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, Dict, Optional, Tuple

from ansible.errors import AnsibleError
from ansible.utils.display import Display

from ansible_collections.strata.hier.plugins.module_utils.datum_syntax import is_handler
from ansible_collections.strata.hier.plugins.module_utils.errors import MergeError
from ansible_collections.strata.hier.plugins.module_utils.levels import check_level
from ansible_collections.strata.hier.plugins.module_utils.mapped_levels import Level, parse_level
from ansible_collections.strata.hier.plugins.module_utils.records import Record
from ansible_collections.strata.hier.plugins.module_utils.rules import MergeRules
from ansible_collections.strata.hier.plugins.plugin_utils.compat import CompleteMessage, is_vault_value
from ansible_collections.strata.hier.plugins.plugin_utils.source_lines import key_position
from ansible_collections.strata.hier.plugins.plugin_utils.data_files import load_untrusted
from ansible_collections.strata.hier.plugins.plugin_utils.walk import expanded_size, find

HIER_KEYS = ('datadir', 'hierarchy', 'nodes', 'default_lookup_options', 'lookup_options', 'case_insensitive_keys')
# Datum.yml keys that only matter to Datum's PowerShell side (handlers, DSC): read and ignored.
DATUM_KEYS = ('ResolutionPrecedence', 'DatumStructure', 'default_lookup_options', 'lookup_options',
              'DatumHandlers', 'DatumHandlersThrowOnError', 'DscLocalConfigurationManagerKeyName',
              'default_json_depth')

RULES_LIMIT = 100000
"""Most values lookup_options may hold written out in full (YAML aliases repeated)."""


class ConfigError(CompleteMessage, AnsibleError):
    """The hierarchy configuration is missing or wrong."""


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


def is_datum_config(path: str) -> bool:
    return os.path.basename(path).lower() in ('datum.yml', 'datum.yaml')


def load_config(path: str, loader: Any) -> HierarchyConfig:
    """Read a hier.yml or Datum.yml file (Datum's, by its name)."""
    if not os.path.isfile(path):
        raise ConfigError('hierarchy configuration %s not found' % path)
    data = load_untrusted(loader, path, ConfigError)
    if not isinstance(data, Mapping):
        raise ConfigError('hierarchy configuration %s must be a map, not %s' % (path, type(data).__name__))
    return _from_datum(path, data) if is_datum_config(path) else _from_hier(path, data)


def _from_hier(path: str, data: Mapping) -> HierarchyConfig:
    for key in data:
        if key not in HIER_KEYS:
            raise ConfigError('%s: unknown key %r in the hierarchy configuration; valid keys: %s'
                              % (key_position(path, [key]), key, ', '.join(HIER_KEYS)))
    levels = data.get('hierarchy')
    if not isinstance(levels, list) or not levels:
        raise ConfigError('%s: hierarchy must be a non-empty list of level paths' % key_position(path, ['hierarchy']))
    case_insensitive = data.get('case_insensitive_keys', False)
    if not isinstance(case_insensitive, bool):
        raise ConfigError('%s: case_insensitive_keys must be true or false' % key_position(path, ['case_insensitive_keys']))
    nodes = data.get('nodes')
    if nodes is not None and not isinstance(nodes, str):
        raise ConfigError('%s: nodes must be a glob such as "AllNodes/*/*"' % key_position(path, ['nodes']))
    datadir = data.get('datadir', '.')
    if not isinstance(datadir, str):
        raise ConfigError('%s: datadir must be a path' % key_position(path, ['datadir']))
    return HierarchyConfig(path=path, datadir=_relative_to(path, datadir), levels=_hier_levels(path, levels),
                           rules=_rules(path, data, case_insensitive), nodes=nodes,
                           case_insensitive_keys=case_insensitive)


def _from_datum(path: str, data: Mapping) -> HierarchyConfig:
    data = _datum_keys(path, data)
    levels = data.get('ResolutionPrecedence')
    if not isinstance(levels, list) or not levels or not all(isinstance(level, str) for level in levels):
        raise ConfigError('%s: ResolutionPrecedence must be a non-empty list of paths'
                          % key_position(path, ['ResolutionPrecedence']))
    throw = _handlers_throw(path, data)
    from ansible_collections.strata.hier.plugins.plugin_utils.datum_handlers import datum_levels  # Datum stores only
    return HierarchyConfig(path=path, datadir=os.path.dirname(os.path.abspath(path)),
                           levels=_levels(path, 'ResolutionPrecedence', datum_levels(path, levels, throw)),
                           rules=_rules(path, _as_datum_reads(path, data), True), nodes='AllNodes/*/*',
                           case_insensitive_keys=True,
                           mounts=_datum_stores(path, data.get('DatumStructure')), dialect='datum',
                           handlers_throw=throw)


def _as_datum_reads(path: str, data: Dict[str, Any]) -> Dict[str, Any]:
    """Strategy names read as Datum reads them (datum_strategies.py), with a warning for each name read otherwise
    than written; a hier.yml keeps strict names."""
    data = dict(data)
    default = data.get('default_lookup_options')
    if default is not None and not is_vault_value(default):
        data['default_lookup_options'] = _datum_rule(path, ['default_lookup_options'], default)
    options = data.get('lookup_options')
    if isinstance(options, Mapping) and find(options, is_vault_value) is None:
        data['lookup_options'] = {key: _datum_rule(path, ['lookup_options', key], spec) for key, spec in options.items()}
    return data


def _datum_rule(path: str, keys: list, spec: Any) -> Any:
    from ansible_collections.strata.hier.plugins.module_utils.datum_strategies import datum_reading  # Datum.yml only
    read, notes = datum_reading(spec)
    for note in notes:
        Display().warning('strata.hier: %s: %s; strata.hier does the same (a hier.yml would refuse it)'
                          % (key_position(path, keys), note))
    return read


def _handlers_throw(path: str, data: Mapping) -> bool:
    """DatumHandlersThrowOnError; left out, strata.hier refuses (Datum would warn): see docs/hierarchy.md."""
    throw = data.get('DatumHandlersThrowOnError', True)
    if not isinstance(throw, bool):
        raise ConfigError('%s: DatumHandlersThrowOnError must be true or false'
                          % key_position(path, ['DatumHandlersThrowOnError']))
    return throw


def _datum_keys(path: str, data: Mapping) -> Dict[str, Any]:
    """Datum.yml's keys, named as Datum names them: Datum reads them whatever their case, and ignores others."""
    known = {key.lower(): key for key in DATUM_KEYS}
    named = {}
    for key, value in data.items():
        name = known.get(str(key).lower())
        if name is None:
            Display().warning('strata.hier: %s: key %r is not one Datum reads; it is ignored (known keys: %s)'
                              % (key_position(path, [key]), key, ', '.join(DATUM_KEYS)))
            continue
        named[name] = value
    return named


def _levels(path: str, key: str, levels: list) -> Tuple[str, ...]:
    for level in levels:
        if is_handler(level):
            continue
        try:
            check_level(level)
        except MergeError as exc:
            raise ConfigError('%s: %s' % (key_position(path, [key]), exc)) from exc
    return tuple(str(level) for level in levels)


def _hier_levels(path: str, levels: list) -> Tuple[Level, ...]:
    """hier.yml's levels: paths, or maps holding mapped_paths (module_utils/mapped_levels.py)."""
    parsed = []
    for level in levels:
        try:
            parsed.append(parse_level(level))
        except MergeError as exc:
            raise ConfigError('%s: %s' % (key_position(path, ['hierarchy']), exc)) from exc
    return tuple(parsed)


def _datum_stores(path: str, structure: Any) -> Optional[Dict[str, str]]:
    """DatumStructure's file stores: store name -> folder, relative to Datum.yml."""
    if structure is None:
        return None
    if not isinstance(structure, list):
        raise ConfigError('%s: DatumStructure must be a list of stores' % key_position(path, ['DatumStructure']))
    mounts = {}
    for store in structure:
        if not isinstance(store, Mapping) or 'StoreName' not in store:
            raise ConfigError('%s: each DatumStructure entry needs a StoreName' % key_position(path, ['DatumStructure']))
        provider = store.get('StoreProvider', 'Datum::File')
        if str(provider).lower() != 'datum::file':
            raise ConfigError('%s: store %r uses the provider %r; only Datum::File stores are supported'
                              % (key_position(path, ['DatumStructure']), store['StoreName'], provider))
        options = store.get('StoreOptions') or {}
        if not isinstance(options, Mapping) or not isinstance(options.get('Path', ''), str):
            raise ConfigError('%s: StoreOptions of store %r must be a map with a Path such as "./AllNodes"'
                              % (key_position(path, ['DatumStructure']), store['StoreName']))
        mounts[str(store['StoreName'])] = str(options.get('Path', store['StoreName'])).replace('\\', '/')
    return mounts


def _relative_to(config_path: str, path: str) -> str:
    return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(config_path)), path))


def _rules(path: str, data: Mapping, case_insensitive: bool) -> MergeRules:
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
    except MergeError as exc:
        rule_key = next((key for key in (data.get('lookup_options') or {}) if repr(str(key)) in str(exc)), None)
        keys = ['lookup_options', rule_key] if rule_key else ['default_lookup_options']
        raise ConfigError('%s: %s' % (key_position(path, keys), exc)) from exc
