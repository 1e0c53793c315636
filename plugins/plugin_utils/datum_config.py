# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Datum's ``Datum.yml`` read as a hierarchy configuration (config.py's ``HierarchyConfig``).

Datum reads its keys whatever their case and ignores others (with a warning in ``HierarchyConfig.warnings``, which the
plugins print), reads strategy names more
loosely than a hier.yml (module_utils/dialects/datum/strategies.py), takes handler expressions as levels (datum_handlers.py), and mounts
``DatumStructure``'s file stores. Loaded for Datum stores only.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, Dict, List, Optional, Tuple

from ansible_collections.strata.hier.plugins.module_utils.dialects.datum.strategies import datum_reading
from ansible_collections.strata.hier.plugins.module_utils.dialects.datum.syntax import is_handler
from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeError
from ansible_collections.strata.hier.plugins.module_utils.core.levels import check_level
from ansible_collections.strata.hier.plugins.plugin_utils.compat import is_vault_value
from ansible_collections.strata.hier.plugins.plugin_utils.config import (
    ConfigError, HierarchyConfig, flag, read_constraints, read_rules,
)
from ansible_collections.strata.hier.plugins.plugin_utils.datum_handlers import datum_levels
from ansible_collections.strata.hier.plugins.plugin_utils.source_lines import key_position
from ansible_collections.strata.hier.plugins.plugin_utils.walk import find

# The keys Datum reads (DatumHandlers, DscLocalConfigurationManagerKeyName, default_json_depth: read and ignored),
# and StrictLevels and Constraints, strata.hier's own (Datum ignores keys it does not know).
DATUM_KEYS = ('ResolutionPrecedence', 'DatumStructure', 'default_lookup_options', 'lookup_options',
              'DatumHandlers', 'DatumHandlersThrowOnError', 'DscLocalConfigurationManagerKeyName',
              'default_json_depth', 'StrictLevels', 'Constraints')


def datum_config(path: str, data: Mapping) -> HierarchyConfig:
    """A Datum.yml's parsed data as a hierarchy configuration."""
    written = {str(key).lower(): str(key) for key in data}     # a message about a level points at its key as spelt
    warnings: List[str] = []
    data = _datum_keys(path, data, warnings)
    levels = data.get('ResolutionPrecedence')
    if not isinstance(levels, list) or not levels or not all(isinstance(level, str) for level in levels):
        raise ConfigError('%s: ResolutionPrecedence must be a non-empty list of paths'
                          % key_position(path, ['ResolutionPrecedence']))
    throw = _flag(path, data, written, 'DatumHandlersThrowOnError', True)
    read_levels, level_warnings = datum_levels(path, levels, throw)
    warnings.extend(level_warnings)
    rules = read_rules(path, _as_datum_reads(path, data, warnings), True)
    return HierarchyConfig(path=path, datadir=os.path.dirname(os.path.abspath(path)),
                           levels=_levels(path, 'ResolutionPrecedence', read_levels), rules=rules, nodes='AllNodes/*/*',
                           case_insensitive_keys=True,
                           mounts=_datum_stores(path, data.get('DatumStructure')), dialect='datum',
                           handlers_throw=throw, strict_levels=_flag(path, data, written, 'StrictLevels', False),
                           levels_key=written['resolutionprecedence'],
                           written_levels=tuple(str(level) for level in levels),
                           constraints=read_constraints(path, data, 'Constraints', True),
                           warnings=tuple(warnings))


def _as_datum_reads(path: str, data: Dict[str, Any], warnings: List[str]) -> Dict[str, Any]:
    """Strategy names read as Datum reads them (module_utils/dialects/datum/strategies.py), with a warning for each name read otherwise
    than written; a hier.yml keeps strict names."""
    data = dict(data)
    default = data.get('default_lookup_options')
    if default is not None and not is_vault_value(default):
        data['default_lookup_options'] = _datum_rule(path, ['default_lookup_options'], default, warnings)
    options = data.get('lookup_options')
    if isinstance(options, Mapping) and find(options, is_vault_value) is None:
        data['lookup_options'] = {key: _datum_rule(path, ['lookup_options', key], spec, warnings)
                                  for key, spec in options.items()}
    return data


def _datum_rule(path: str, keys: list, spec: Any, warnings: List[str]) -> Any:
    read, notes = datum_reading(spec)
    warnings.extend('%s: %s; strata.hier does the same (a hier.yml would refuse it)' % (key_position(path, keys), note)
                    for note in notes)
    return read


def _flag(path: str, data: Mapping, written: Mapping[str, str], key: str, default: bool) -> bool:
    """DatumHandlersThrowOnError (left out, strata.hier refuses where Datum would warn: see docs/hierarchy.md) or
    StrictLevels, true or false; an error names the key as the file spells it (``written``: by its lower case)."""
    spelt = written.get(key.lower(), key)
    return flag(path, {spelt: data[key]} if key in data else {}, spelt, default)


def _datum_keys(path: str, data: Mapping, warnings: List[str]) -> Dict[str, Any]:
    """Datum.yml's keys, named as Datum names them: Datum reads them whatever their case, and ignores others."""
    known = {key.lower(): key for key in DATUM_KEYS}
    named = {}
    for key, value in data.items():
        name = known.get(str(key).lower())
        if name is None:
            warnings.append('%s: key %r is not one Datum reads; it is ignored (known keys: %s)'
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
