# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""OpenStack Heat's merging of environment files (heat/common/environment_util.py,
``merge_environments``).

Files merge one after the other into the stack's environment, as in Heat:

- The environment starts from the stack's own parameters (the CLI's ``-P``; ``parameters``).
- ``parameter_merge_strategies`` (popped from each file) gives a ``default`` and per-parameter
  strategies: ``overwrite``, ``merge`` or ``deep_merge``.  The first file holding a parameter
  fixes its strategy (that file's entry for it, else that file's default); a later file naming
  another strategy for it is an error.  A later file that does not name the parameter uses the
  fixed strategy, whatever its own default.
- ``parameters`` and ``parameter_defaults``: a file's non-empty section goes into an empty one as it
  is; otherwise each non-null parameter the template declares (all of them when no types are
  given) is overwritten or merged in: json maps by their top-level keys (merge) or recursively
  (deep_merge: nested lists extend, nested strings concatenate), comma-delimited lists extend (or
  join with ','), strings concatenate; numbers and booleans cannot merge.
- ``resource_registry`` (and any other map section): later files replace its top-level keys.
- An unknown section, and a section that is empty (null), are errors.

Like Heat, the merge keeps one environment and changes it in place; here that environment is owned by
the merge (folding.py: values copied once as they enter it), so each file costs what it adds.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.errors import (
    MergeConflictError, MergeInputError, StrategyError,
)
from ansible_collections.strata.hier.plugins.module_utils.core.folding import Items, Text, appended, finish, is_text, own
from ansible_collections.strata.hier.plugins.module_utils.core.identity import shown
from ansible_collections.strata.hier.plugins.module_utils.core.kinds import LIST, MAP, family_of
from ansible_collections.strata.hier.plugins.module_utils.core.limits import MAX_DEPTH, WorkBudget, too_deep
from ansible_collections.strata.hier.plugins.module_utils.core.merging import MergeResult
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.base import canonical_name
from ansible_collections.strata.hier.plugins.module_utils.core.paths import join_path

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


def _where(position: int) -> str:
    return 'environment file %d (counting from 0)' % position


def _empty(value: Any) -> bool:
    """Heat's ``not value``, asked only of what cannot be a vault value (its truth would decrypt it)."""
    if value is None:
        return True
    if isinstance(value, (Mapping, list, tuple, str, Items)) or type(value) in (int, float, bool):
        return not value
    if isinstance(value, Text):
        return not any(value.parts)
    return False


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


def merge_environments(environments: Sequence[Any], parameter_types: Any = None,
                       parameters: Any = None) -> MergeResult:
    """Merge Heat environment files, most specific (the last Heat is given) first, into the stack's own
    ``parameters`` (the CLI's -P); return the merged environment (without ``parameter_merge_strategies``)
    and warnings.  With ``parameter_types`` (the template's parameters), a parameter the template does not
    declare is merged only by a file that starts its section, as in Heat.  Messages count files from 0 in
    the order Heat is given them."""
    if not isinstance(environments, (list, tuple)):
        raise MergeInputError('the environment files must be a list, not %s' % type(environments).__name__)
    if parameters is not None and not isinstance(parameters, Mapping):
        raise MergeInputError('parameters must be a map of parameter names to values, not %s'
                              % type(parameters).__name__)
    fold = _Fold(parse_parameter_types(parameter_types), parameter_types is not None,
                 WorkBudget([environments, parameters]))
    merged: Dict[str, Any] = {PARAMETERS: fold.own(parameters or {}), RESOURCE_REGISTRY: {}, PARAMETER_DEFAULTS: {}}
    for position, environment in enumerate(reversed(environments)):     # in the order Heat merges them
        if environment is None:          # an empty file
            continue
        strategies = _file_strategies(_checked(environment, position).get(PARAMETER_MERGE_STRATEGIES), position)
        for section, value in environment.items():
            if section == PARAMETER_MERGE_STRATEGIES or _empty(value):
                continue
            fold.position = position
            if section in PARAMETER_SECTIONS:
                merged[section] = fold.parameters(merged[section], value, section, strategies)
            else:
                merged[section] = fold.section(merged.get(section), value, section)
    return MergeResult(finish(merged), warnings=fold.warnings)


def _checked(environment: Any, position: int) -> Mapping:
    """A file as Heat's environment_format.validate checks it: a map of known, non-empty sections."""
    if not isinstance(environment, Mapping):
        raise MergeInputError('%s must be a map, not %s' % (_where(position), type(environment).__name__))
    for section, value in environment.items():
        if section not in SECTIONS:
            raise MergeInputError('%s has the wrong section %r; valid sections: %s'
                                  % (_where(position), section, ', '.join(SECTIONS)))
        if value is None:
            raise MergeInputError('%s has the empty section %r (null): Heat refuses it ("environment has empty '
                                  'section"); remove the section or give it an empty map' % (_where(position), section))
    return environment


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


class _Fold:
    """The environment being merged: owned values changed in place, the strategies files fixed, warnings."""

    def __init__(self, types: Dict[str, str], declared_only: bool, budget: WorkBudget) -> None:
        self.types = types
        self.declared: Optional[Set[str]] = set(types) if declared_only else None
        self.budget = budget
        self.fixed: Dict[str, str] = {}
        self.warnings: List[str] = []
        self.position = 0

    def own(self, value: Any, path: Tuple[Any, ...] = (), depth: int = 0) -> Any:
        return own(value, self.budget, path, depth)

    def _merged_names(self, new: Mapping) -> List[Any]:
        """The parameters of a file Heat merges: not null, and declared by the template (when types are given)."""
        return [name for name, value in new.items()
                if value is not None and (self.declared is None or name in self.declared)]

    def parameters(self, old: Dict[str, Any], new: Any, section: str, strategies: Dict[str, str]) -> Dict[str, Any]:
        """Heat's merge_parameters: fix (or check) each parameter's strategy, then merge it."""
        if not isinstance(new, Mapping):
            raise MergeInputError('%s of %s must be a map, not %s'
                                  % (section, _where(self.position), type(new).__name__))
        names = self._merged_names(new)
        default = strategies.get(DEFAULT_KEY, OVERWRITE)
        for name in names:
            strategy = strategies.get(name, self.fixed.get(name, default))
            if name not in self.fixed:
                self.fixed[name] = strategy
            elif strategy != self.fixed[name]:
                raise MergeConflictError('conflicting merge strategy %r for parameter %r in %s: an earlier file '
                                         'fixed %r' % (strategy, name, _where(self.position), self.fixed[name]))
        if not old:
            return self.own(new)       # Heat takes a section into an empty one as it is
        for name in names:
            if self.fixed[name] == OVERWRITE:
                old[name] = self.own(new[name], (name,))
            else:
                old[name] = self._parameter(name, old.get(name), new[name])
        return old

    def _parameter(self, name: str, old: Any, new: Any) -> Any:
        """Merge one parameter's value into the earlier one by its type, as Heat's param_merge."""
        ptype = self.types.get(name) or _infer(old, new)
        where = 'parameter %r in %s' % (name, _where(self.position))
        if ptype in (BOOLEAN, NUMBER):
            raise StrategyError('invalid merge strategy %r for %s: Heat cannot merge %s parameters%s; use overwrite'
                                % (self.fixed[name], where, ptype, '' if ptype == BOOLEAN else
                                   ' (it rejects the value as an invalid parameter)'))
        if ptype == JSON:
            return self._json_parameter(name, old, _json(new, where), where)
        if ptype == COMMA_DELIMITED_LIST:
            return self._list_parameter(name, old, new, where)
        for value in (old, new):
            if value is not None and not is_text(value):
                raise MergeInputError('%s is a string parameter; Heat cannot merge the %s %s into it'
                                      % (where, type(value).__name__, shown(value)))
        return new if old is None else appended(old, new)

    def _json_parameter(self, name: str, old: Any, new: Any, where: str) -> Any:
        """Heat's merge_map of a json parameter (its value parsed)."""
        if _empty(old):
            return self.own(new, (name,))      # Heat's merge_map: "if not old: return new", whatever new is
        if isinstance(new, Mapping) and all(value is None for value in new.values()):
            return old      # Heat's merge_map merges nothing: the earlier value stays as it is
        if is_text(old):        # a JSON text the first file gave (Heat fails on it): parsed too
            old = self.own(_json(finish(old), where), (name,))
        for value, which in ((old, 'earlier'), (new, 'later')):
            if not isinstance(value, Mapping):
                raise MergeInputError('%s is a json parameter; Heat cannot merge it when the %s value is a %s, '
                                      'not a map' % (where, which, _type_name(value)))
        return self._map(old, new, self.fixed[name] == DEEP_MERGE, where, (name,), 1)

    def _list_parameter(self, name: str, old: Any, new: Any, where: str) -> Any:
        """Heat's merge_list of a comma_delimited_list parameter."""
        if not isinstance(new, (list, str)):
            raise MergeInputError('%s must be a list or a comma-delimited string, not %s' % (where, type(new).__name__))
        if _empty(old):
            return self.own(new, (name,))      # Heat's merge_list: "if not old: return new" (no leading ',')
        if isinstance(old, Items) != isinstance(new, list):     # a comma-delimited string and a list: as lists
            old = old if isinstance(old, Items) else Items(_split(old, where))
            new = new if isinstance(new, list) else _split(new, where)
        if isinstance(old, Items):
            return self._extend(old, new, (name,), 1)
        if not is_text(old):
            raise MergeInputError('%s is a comma_delimited_list; Heat cannot merge into the earlier %s'
                                  % (where, _type_name(old)))
        return appended(appended(old, ','), new)

    def _extend(self, old: Items, new: Any, path: Tuple[Any, ...], depth: int) -> Items:
        old.append_all([self.own(item, path, depth + 1) for item in new])
        return old

    def _map(self, old: Any, new: Mapping, deep: bool, where: str, path: Tuple[Any, ...], depth: int) -> Any:
        """Heat's merge_map: a later map into an earlier one (top-level keys, or recursively)."""
        if depth > MAX_DEPTH:
            raise too_deep(path)
        if _empty(old):
            return self.own(new, path, depth)       # "if not old: return new": nulls and all
        for key, value in new.items():
            if value is None:
                continue
            if deep:
                old[key] = self._deep_value(old.get(key), value, where, path + (key,), depth + 1)
            else:
                old[key] = self.own(value, path + (key,), depth + 1)
        return old

    def _deep_value(self, old: Any, new: Any, where: str, path: Tuple[Any, ...], depth: int) -> Any:
        """One key of merge_map(deep_merge=True): maps merge, lists extend, strings concatenate, others replace."""
        family = family_of(new)
        if family is MAP:
            if _empty(old) or isinstance(old, dict):
                return self._map(old, new, True, where, path, depth)
            if not new:
                return old      # Heat merges nothing into the earlier value
        elif family is LIST:
            if _empty(old):
                return self.own(new, path, depth)
            if isinstance(old, Items):
                return self._extend(old, new, path, depth)
        elif isinstance(new, str):
            if old is None or is_text(old):        # a null as no value (Heat fails on it)
                return new if old is None else appended(old, new)
        else:
            return new
        self.warnings.append('%s: type mismatch at %r: Heat fails merging the %s into the earlier %s (a TypeError); '
                             'the later value was taken' % (where, join_path(path), type(new).__name__, _type_name(old)))
        return self.own(new, path, depth)

    def section(self, old: Any, new: Any, section: str) -> Any:
        """resource_registry (and other sections): Heat's merge_map, top-level keys replaced; list sections extend."""
        where = '%s of %s' % (section, _where(self.position))
        if isinstance(new, Mapping):
            if not _empty(old) and not isinstance(old, dict):
                raise MergeInputError('%s is a map; an earlier file gave a %s' % (where, _type_name(old)))
            return self._map(old, new, False, where, (section,), 1)
        if isinstance(new, (list, tuple)):
            if old is not None and not isinstance(old, Items):
                raise MergeInputError('%s is a list; an earlier file gave a %s' % (where, _type_name(old)))
            return self.own(new, (section,)) if old is None else self._extend(old, new, (section,), 1)
        raise MergeInputError('%s must be a map or a list, not %s' % (where, type(new).__name__))


def _type_name(value: Any) -> str:
    return 'list' if isinstance(value, Items) else 'str' if isinstance(value, Text) else type(value).__name__


def _infer(old: Any, new: Any) -> str:
    """A parameter's type from its values: a map is json, a list a comma_delimited_list, and so on."""
    values = [value for value in (new, old) if value is not None]
    if any(isinstance(value, Mapping) for value in values):
        return JSON
    if any(isinstance(value, (list, tuple, Items)) for value in values):
        return COMMA_DELIMITED_LIST
    if any(isinstance(value, bool) for value in values):
        return BOOLEAN
    if any(isinstance(value, (int, float)) for value in values):
        return NUMBER
    return STRING


def _json(value: Any, where: str) -> Any:
    """A json parameter's value as Heat's parse_param reads it: a non-empty JSON text parsed."""
    if not isinstance(value, str) or not value:
        return value
    try:
        return json.loads(value)
    except ValueError as exc:
        raise MergeInputError('%s is a json parameter and its value is not valid JSON: %s' % (where, exc)) from exc


def _split(value: Any, where: str) -> List[str]:
    """A comma-delimited string as a list (as Heat parses it: split on ',', items stripped)."""
    if not is_text(value):
        raise MergeInputError('%s must be a list or a comma-delimited string, not %s' % (where, _type_name(value)))
    text = finish(value)
    return [item.strip() for item in text.split(',')] if text else []
