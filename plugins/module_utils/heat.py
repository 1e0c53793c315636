# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""OpenStack Heat's merging of environment files (heat/common/environment_util.py,
``merge_environments``), translated into the merge core's settings.

Files merge one after the other, as in Heat:

- ``parameter_merge_strategies`` (popped from each file) gives a ``default`` and per-parameter
  strategies: ``overwrite``, ``merge`` or ``deep_merge``.  The first file holding a parameter
  fixes its strategy (that file's entry for it, else that file's default); a later file naming
  another strategy for it is an error.  A later file that does not name the parameter uses the
  fixed strategy, whatever its own default.
- ``parameters`` and ``parameter_defaults``: the first file with a non-empty section gives it as
  it is; later files overwrite or merge each non-null parameter into it.
- ``resource_registry`` (and any other map section): later files replace its top-level keys.

How a parameter merges depends on its type (the template's, from ``parameter_types``, else
inferred from the values) and is done by the core with these settings:

====================  ===========================  ==================================================
type                  merge                        deep_merge
====================  ===========================  ==================================================
json                  merge_hash: hash             deep; nested lists Sum and strings Join (''), the
                                                   earlier file's first (``general_first``)
comma_delimited_list  lists: Sum, general_first;   as merge
                      strings: Join with ','
string                Join with '', general_first  as merge
number, boolean       an error, as in Heat         an error, as in Heat
====================  ===========================  ==================================================
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Dict, List, Optional, Sequence

from ansible_collections.strata.hier.plugins.module_utils.errors import (
    MergeConflictError, MergeInputError, StrategyError,
)
from ansible_collections.strata.hier.plugins.module_utils.identity import shown
from ansible_collections.strata.hier.plugins.module_utils.limits import copy_value
from ansible_collections.strata.hier.plugins.module_utils.merging import MergeResult, merge_layers
from ansible_collections.strata.hier.plugins.module_utils.mergers.base import GENERAL_FIRST, canonical_name
from ansible_collections.strata.hier.plugins.module_utils.mergers.dispatch import TOGETHER, ByType
from ansible_collections.strata.hier.plugins.module_utils.mergers.hash_arrays import HashArrayMerger
from ansible_collections.strata.hier.plugins.module_utils.mergers.maps import DEEP, HASH, MapMerger
from ansible_collections.strata.hier.plugins.module_utils.mergers.scalar_lists import SUM, ScalarListMerger
from ansible_collections.strata.hier.plugins.module_utils.mergers.scalars import JOIN, ScalarMerger
from ansible_collections.strata.hier.plugins.module_utils.rules import MergeRules
from ansible_collections.strata.hier.plugins.module_utils.strategy import MergeStrategy

PARAMETERS = 'parameters'
PARAMETER_DEFAULTS = 'parameter_defaults'
RESOURCE_REGISTRY = 'resource_registry'
ENCRYPTED_PARAM_NAMES = 'encrypted_param_names'
EVENT_SINKS = 'event_sinks'
PARAMETER_MERGE_STRATEGIES = 'parameter_merge_strategies'
SECTIONS = (PARAMETER_DEFAULTS, PARAMETERS, RESOURCE_REGISTRY, ENCRYPTED_PARAM_NAMES, EVENT_SINKS,
            PARAMETER_MERGE_STRATEGIES)
PARAMETER_SECTIONS = (PARAMETERS, PARAMETER_DEFAULTS)

OVERWRITE = 'overwrite'
MERGE = 'merge'
DEEP_MERGE = 'deep_merge'
STRATEGIES = (OVERWRITE, MERGE, DEEP_MERGE)
DEFAULT_KEY = 'default'

STRING = 'string'
NUMBER = 'number'
COMMA_DELIMITED_LIST = 'comma_delimited_list'
JSON = 'json'
BOOLEAN = 'boolean'
TYPES = (STRING, NUMBER, COMMA_DELIMITED_LIST, JSON, BOOLEAN)
# The CFN spellings Heat also accepts.
_TYPE_ALIASES = {'commadelimitedlist': COMMA_DELIMITED_LIST}

# The strategies below follow Heat, not Datum: no knockout marker, the earlier file's keys first.
_EARLIER_KEYS_FIRST = {'key_order': GENERAL_FIRST}
# Heat's merge_map (shallow): top-level keys of the later file replace the earlier ones; null is skipped.
_SHALLOW = MergeRules(MergeStrategy(name='heat merge', maps=MapMerger(HASH, **_EARLIER_KEYS_FIRST)))
# Heat's merge_map(deep_merge=True): maps recurse, lists extend, strings concatenate, the rest is replaced.
_DEEP = MergeRules(MergeStrategy(
    name='heat deep_merge', maps=MapMerger(DEEP, **_EARLIER_KEYS_FIRST),
    scalars=ScalarMerger(strings=JOIN, order=GENERAL_FIRST), scalar_lists=ScalarListMerger(SUM, order=GENERAL_FIRST),
    hash_arrays=HashArrayMerger(SUM, order=GENERAL_FIRST), dispatch=ByType(lists=TOGETHER)))
# Heat's merge_list: lists extend, comma-delimited strings join with ','.
_LIST = MergeRules(MergeStrategy(
    name='heat comma_delimited_list', maps=MapMerger(**_EARLIER_KEYS_FIRST),
    scalars=ScalarMerger(strings=JOIN, order=GENERAL_FIRST, separator=','),
    scalar_lists=ScalarListMerger(SUM, order=GENERAL_FIRST), hash_arrays=HashArrayMerger(SUM, order=GENERAL_FIRST),
    dispatch=ByType(lists=TOGETHER)))
# Heat's string merge: ''.join([old, new]).
_STRING = MergeRules(MergeStrategy(name='heat string', maps=MapMerger(**_EARLIER_KEYS_FIRST),
                                   scalars=ScalarMerger(strings=JOIN, order=GENERAL_FIRST),
                                   dispatch=ByType(lists=TOGETHER)))


def _where(position: int) -> str:
    return 'environment file %d (counting from 0)' % position


def _empty(value: Any) -> bool:
    """Heat's ``not value``, asked only of what has a length: a vault value's length would decrypt it."""
    return value is None or (isinstance(value, (Mapping, list, tuple, str)) and not value)


def parse_parameter_types(types: Any) -> Dict[str, str]:
    """A map of parameter names to HOT types (``string``, ``number``, ``comma_delimited_list``, ``json``,
    ``boolean``; Heat's CFN spellings ``String``, ``CommaDelimitedList``... and any case also do)."""
    if types is None:
        return {}
    if not isinstance(types, Mapping):
        raise StrategyError('parameter_types must be a map of parameter names to types, not %s'
                            % type(types).__name__)
    parsed = {}
    for name, ptype in types.items():
        if isinstance(ptype, str):
            ptype = _TYPE_ALIASES.get(ptype.strip().lower(), ptype)
        parsed[str(name)] = canonical_name(ptype, TYPES, 'type', 'parameter %r in parameter_types' % name)
    return parsed


def merge_environments(environments: Sequence[Any], parameter_types: Any = None) -> MergeResult:
    """Merge Heat environment files, most specific (the last Heat is given) first; return the merged
    environment (without ``parameter_merge_strategies``) and the core's warnings.  Messages count
    files from 0 in the order Heat is given them."""
    if not isinstance(environments, (list, tuple)):
        raise MergeInputError('the environment files must be a list, not %s' % type(environments).__name__)
    types = parse_parameter_types(parameter_types)
    merged: Dict[str, Any] = {PARAMETERS: {}, RESOURCE_REGISTRY: {}, PARAMETER_DEFAULTS: {}}
    fixed: Dict[str, str] = {}
    warnings: List[str] = []
    for position, environment in enumerate(reversed(environments)):     # in the order Heat merges them
        if environment is None:          # an empty file
            continue
        if not isinstance(environment, Mapping):
            raise MergeInputError('%s must be a map, not %s' % (_where(position), type(environment).__name__))
        for section in environment:
            if section not in SECTIONS:
                raise MergeInputError('%s has the wrong section %r; valid sections: %s'
                                      % (_where(position), section, ', '.join(SECTIONS)))
        strategies = _file_strategies(environment.get(PARAMETER_MERGE_STRATEGIES), position)
        for section, value in environment.items():
            if section == PARAMETER_MERGE_STRATEGIES or _empty(value):
                continue
            if section in PARAMETER_SECTIONS:
                merged[section] = _merge_parameters(merged[section], value, section, strategies, fixed, types,
                                                    position, warnings)
            else:
                merged[section] = _merge_section(merged.get(section), value, section, position, warnings)
    return MergeResult(merged, warnings=warnings)


def _file_strategies(strategies: Any, position: int) -> Dict[str, str]:
    if strategies is None:
        return {}
    if not isinstance(strategies, Mapping):
        raise MergeInputError('parameter_merge_strategies of %s must be a map, not %s'
                              % (_where(position), type(strategies).__name__))
    for name, strategy in strategies.items():
        if not isinstance(strategy, str) or strategy not in STRATEGIES:
            raise StrategyError('unknown merge strategy %s for %r in parameter_merge_strategies of %s; valid '
                                'strategies: %s' % (shown(strategy), name, _where(position), ', '.join(STRATEGIES)))
    return dict(strategies)


def _merge_parameters(old: Dict[str, Any], new: Any, section: str, strategies: Dict[str, str],
                      fixed: Dict[str, str], types: Dict[str, str], position: int,
                      warnings: List[str]) -> Dict[str, Any]:
    """Heat's merge_parameters: fix (or check) each parameter's strategy, then merge it."""
    if not isinstance(new, Mapping):
        raise MergeInputError('%s of %s must be a map, not %s' % (section, _where(position), type(new).__name__))
    default = strategies.get(DEFAULT_KEY, OVERWRITE)
    for name, value in new.items():
        if value is None:
            continue
        strategy = strategies.get(name, fixed.get(name, default))
        if name not in fixed:
            fixed[name] = strategy
        elif strategy != fixed[name]:
            raise MergeConflictError('conflicting merge strategy %r for parameter %r in %s: an earlier file '
                                     'fixed %r' % (strategy, name, _where(position), fixed[name]))
    if not old:
        return copy_value(new)       # Heat takes the first section as it is
    merged = dict(old)
    for name, value in new.items():
        if value is None:
            continue
        if fixed[name] == OVERWRITE:
            merged[name] = copy_value(value)
        else:
            merged[name] = _merge_parameter(name, merged.get(name), value, fixed[name], types.get(name),
                                            position, warnings)
    return merged


def _merge_parameter(name: str, old: Any, new: Any, strategy: str, ptype: Optional[str], position: int,
                     warnings: List[str]) -> Any:
    """Merge one parameter's value into the earlier one by its type, as Heat's param_merge."""
    if ptype is None:
        ptype = _infer(old, new)
    where = 'parameter %r in %s' % (name, _where(position))
    if ptype == BOOLEAN:
        raise StrategyError('invalid merge strategy %r for %s: Heat cannot merge boolean parameters; use overwrite'
                            % (strategy, where))
    if ptype == NUMBER:
        raise StrategyError('invalid merge strategy %r for %s: Heat cannot merge number parameters (it rejects '
                            'the value as an invalid parameter); use overwrite' % (strategy, where))
    if ptype == JSON:
        old, new = _json(old, where), _json(new, where)
        new = _without_nulls(old, new, strategy == DEEP_MERGE)
        rules = _DEEP if strategy == DEEP_MERGE else _SHALLOW
    elif ptype == COMMA_DELIMITED_LIST:
        if not isinstance(new, (list, str)):
            raise MergeInputError('%s must be a list or a comma-delimited string, not %s' % (where, type(new).__name__))
        if _empty(old):
            return copy_value(new)      # Heat's merge_list: "if not old: return new" (no leading ',')
        if isinstance(old, list) != isinstance(new, list):
            old, new = _as_list(old, where), _as_list(new, where)
        rules = _LIST
    else:
        for value in (old, new):
            if value is not None and not isinstance(value, str):
                raise MergeInputError('%s is a string parameter; Heat cannot merge the %s %s into it'
                                      % (where, type(value).__name__, shown(value)))
        rules = _STRING
    result = merge_layers([new, old], rules, name)
    warnings.extend('%s: %s' % (where, warning) for warning in result.warnings)
    return result.value


def _infer(old: Any, new: Any) -> str:
    """A parameter's type from its values: a map is json, a list a comma_delimited_list, and so on."""
    values = [value for value in (new, old) if value is not None]
    if any(isinstance(value, Mapping) for value in values):
        return JSON
    if any(isinstance(value, (list, tuple)) for value in values):
        return COMMA_DELIMITED_LIST
    if any(isinstance(value, bool) for value in values):
        return BOOLEAN
    if any(isinstance(value, (int, float)) for value in values):
        return NUMBER
    return STRING


def _without_nulls(old: Any, new: Any, deep: bool) -> Any:
    """The later map without its null values where Heat's merge_map skips them: at the top level of a map merged
    into a non-empty one and, for deep_merge, in nested maps merged into non-empty maps (the core would keep a
    key that only the later map holds, as null)."""
    if not isinstance(old, Mapping) or not old or not isinstance(new, Mapping):
        return new
    kept = {}
    for key, value in new.items():
        if value is not None:
            kept[key] = _without_nulls(old.get(key), value, deep) if deep else value
    return kept


def _json(value: Any, where: str) -> Any:
    """A json parameter's value as a map: Heat parses a JSON text."""
    if isinstance(value, str):
        if not value.strip():
            return {}
        try:
            value = json.loads(value)
        except ValueError as exc:
            raise MergeInputError('%s is a json parameter and its value is not valid JSON: %s' % (where, exc)) from exc
    if value is not None and not isinstance(value, Mapping):
        raise MergeInputError('%s is a json parameter; its value must be a map, not %s' % (where, type(value).__name__))
    return value


def _as_list(value: Any, where: str) -> Any:
    """A comma-delimited list as a list (as Heat parses it: split on ',', items stripped)."""
    if value is None or isinstance(value, list):
        return value
    if isinstance(value, str):
        return [item.strip() for item in value.split(',')] if value else []
    raise MergeInputError('%s must be a list or a comma-delimited string, not %s' % (where, type(value).__name__))


def _merge_section(old: Any, new: Any, section: str, position: int, warnings: List[str]) -> Any:
    """resource_registry (and other sections): Heat's merge_map, top-level keys replaced; list sections extend."""
    if isinstance(new, Mapping):
        if _empty(old):
            return copy_value(new)
        if not isinstance(old, Mapping):
            raise MergeInputError('%s of %s is a map; an earlier file gave a %s'
                                  % (section, _where(position), type(old).__name__))
        result = merge_layers([_without_nulls(old, new, False), old], _SHALLOW, section)
    elif isinstance(new, (list, tuple)):
        if old is not None and not isinstance(old, (list, tuple)):
            raise MergeInputError('%s of %s is a list; an earlier file gave a %s'
                                  % (section, _where(position), type(old).__name__))
        result = merge_layers([new, old], _LIST, section)
    else:
        raise MergeInputError('%s of %s must be a map or a list, not %s' % (section, _where(position), type(new).__name__))
    warnings.extend('%s of %s: %s' % (section, _where(position), warning) for warning in result.warnings)
    return result.value
