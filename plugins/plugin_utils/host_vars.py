# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""A host's merged hierarchy data as host variables: what the inventory plugin and the vars plugin give a host.

Data files are untrusted (a pull request to the data repository), host variables are not: ``ansible_ssh_common_args``
runs on the controller, ``ansible_connection: local`` moves tasks there. Every path that turns data keys into host
variables (``merged_host_vars``; ``sources/hiera_yaml.whole_node``) asks ``variable_problem`` (docs/security.md).
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable, Collection, Dict, FrozenSet, List, Mapping, Optional, Sequence

from ansible import constants as C
from ansible.utils.vars import isidentifier

from ansible_collections.strata.hier.plugins.module_utils.core.levels import Expansion
from ansible_collections.strata.hier.plugins.plugin_utils.config import ConfigError
from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy import HierarchyError
from ansible_collections.strata.hier.plugins.plugin_utils.walk import find_key, shown_path

ALLOW_OPTION = 'allow_reserved_keys'

RESERVED_PREFIXES = (
    ('__', "is internal to Ansible or strata.hier (a name starting with '__')"),
    ('ansible_', "is one of Ansible's own variables (ansible_*: connection, become, interpreter and shell settings, "
                 "facts, magic variables)"),
    ('inventory_', "is one of Ansible's magic variables (inventory_*)"),
    ('hier_', "is a variable strata.hier sets itself (hier_*: hier_sources, hier_vaulted_keys)"),
    ('rsop_', "is a setting of the strata.hier.rsop role (rsop_*: where it writes and deletes files)"),
)

MAGIC_VARIABLES = frozenset(getattr(C, 'INTERNAL_STATIC_VARS', ())) | frozenset(
    ('hostvars', 'groups', 'group_names', 'omit', 'playbook_dir', 'play_hosts', 'role_names', 'vars', 'environment'))
"""Ansible's magic variables: its own list (ansible-inventory leaves them out), and those it lacks on some releases
(``omit``; ``vars`` and ``environment``, set per task)."""

TEMPLATE_FUNCTIONS = frozenset(('lookup', 'query', 'q', 'now', 'undef'))
"""Ansible's template functions: a host variable of that name hides the function from every template of the host.
(Play keywords such as ``port`` or ``name`` are not refused: as variables they set nothing, and data uses them.)"""

OWN_VARIABLES = ('hier_sources', 'hier_provenance', 'hier_vaulted_keys', 'hier_encrypted_keys')
"""The host variables the plugins set themselves (data cannot: ``hier_*`` is reserved)."""

JSON_MARKER_PREFIX = '__ansible_'
"""Map keys Ansible's JSON reads as a type (``__ansible_vault``, ``__ansible_unsafe``, ``__ansible_type``): data
holding one cannot be written by ``ansible-inventory --list`` and read back."""


def allowed_names(names: Optional[Collection[Any]]) -> FrozenSet[str]:
    """The ``allow_reserved_keys`` setting, checked: exact names; names starting with ``__`` cannot be allowed."""
    allowed = frozenset(names or ())
    refused = sorted(repr(name) for name in allowed if not isinstance(name, str) or name.startswith('__'))
    if refused:
        raise ConfigError('%s: %s cannot be allowed: names starting with "__" are internal to Ansible and '
                          'strata.hier' % (ALLOW_OPTION, ', '.join(refused)))
    return allowed


def variable_problem(name: Any, value: Any, allowed: FrozenSet[str] = frozenset()) -> Optional[str]:
    """Why data cannot give a host the variable ``name`` with ``value``, or None: the one check of every path.

    Not a valid variable name; a name Ansible or strata.hier reserves (unless ``allowed`` names it); a value holding
    a map key Ansible's JSON reads as a type marker.
    """
    if not isinstance(name, str) or not isidentifier(name):
        return 'is not a valid variable name'
    if name not in allowed or name.startswith('__'):
        reason = _reserved(name)
        if reason:
            allowable = not name.startswith('__')
            return '%s (the configuration may allow it: %s)' % (reason, ALLOW_OPTION) if allowable else reason
    marker = find_key(value, lambda key: isinstance(key, str) and key.startswith(JSON_MARKER_PREFIX))
    if marker:
        return "holds the map key %r (at %s), which Ansible's JSON reads as a type marker" \
            % (marker[-1], shown_path((name,) + marker))
    return None


def _reserved(name: str) -> Optional[str]:
    for prefix, reason in RESERVED_PREFIXES:
        if name.startswith(prefix):
            return reason
    if name in MAGIC_VARIABLES:
        return "is one of Ansible's magic variables"
    if name in TEMPLATE_FUNCTIONS:
        return "is one of Ansible's template functions"
    return None


def refused_variable(name: Any, value: Any, places: Callable[[], Sequence[str]], host: Any, allowed: FrozenSet[str],
                     warn: Callable[[str], None]) -> bool:
    """Whether the variable is refused; if so, a warning names its files (``places()``: ``file:line``), the key and
    why."""
    problem = variable_problem(name, value, allowed)
    if problem is None:
        return False
    warn('strata.hier.hier: %r (in %s) %s; it is not a host variable of %s (the lookup still reads it)'
         % (name, ', '.join(places()) or 'the data', problem, host))
    return True


def merged_host_vars(hierarchy: Any, variables: Mapping, expansions: Sequence[Expansion], warn: Callable[[str], None],
                     provenance: bool = False, wanted: Optional[Callable[[str], bool]] = None,
                     allowed: FrozenSet[str] = frozenset(), findings: Optional[List[Dict[str, Any]]] = None) -> Dict[str, Any]:
    """Every top-level key of the host's levels (those ``wanted`` accepts), merged as the lookup merges it.

    The host is checked against the configuration's constraints: each finding is added to ``findings``, or without
    it, enforced here (constraint_check.enforce). A key data cannot set (``variable_problem``) is left out with a
    warning. ``hier_sources`` (with ``provenance``)
    maps each key to the levels and files of its value, ``hier_provenance`` each path of every value to its file and
    line (provenance_report.py); ``hier_vaulted_keys`` lists the keys whose value comes in part
    from a whole-file vaulted file (plain once loaded: whoever writes them out must keep them secret).
    """
    host = variables.get('inventory_hostname')
    host_vars: Dict[str, Any] = {}
    sources: Dict[str, Any] = {}
    records: Dict[str, Any] = {}
    vaulted: List[str] = []
    resolutions = hierarchy.resolve_node(variables, expansions=expansions, provenance=provenance)
    if hierarchy.config.constraints:
        _check_constraints(hierarchy, expansions, host, warn, findings)
    for key, resolution in resolutions.items():
        if wanted is not None and not wanted(key):
            continue
        for warning in resolution.warnings:
            warn('strata.hier.hier %s: %s' % (host, warning))
        if refused_variable(key, resolution.value, partial(hierarchy.key_places, resolution), host, allowed, warn):
            continue
        host_vars[key] = resolution.value
        if provenance:
            sources[key] = resolution.provenance()
            records.update(resolution.records or {})
        if resolution.vaulted:
            vaulted.append(key)
    if provenance:
        host_vars['hier_sources'] = sources
        host_vars['hier_provenance'] = records
    if vaulted:
        host_vars['hier_vaulted_keys'] = vaulted
    return host_vars


def _check_constraints(hierarchy: Any, expansions: Sequence[Expansion], host: Any, warn: Callable[[str], None],
                       findings: Optional[List[Dict[str, Any]]]) -> None:
    """The host's findings added to ``findings``, or without it enforced (loaded only for a configuration with
    constraints)."""
    from ansible_collections.strata.hier.plugins.plugin_utils.constraint_check import check_node, enforce
    found = check_node(hierarchy, expansions, host)
    if findings is None:
        enforce(found, warn, HierarchyError)
    else:
        findings.extend(found)
