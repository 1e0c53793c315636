# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

DOCUMENTATION = r"""
name: hier
short_description: Every host of any inventory gets its merged hierarchy data as host variables
version_added: 1.0.0
author: Strata maintainers (@strata-hier)
description:
  - Gives each host of any inventory source (static, cloud, CMDB, AWX) its resultant set of hierarchy data,
    every top-level key found on any of its levels, merged by the configured C(lookup_options), exactly what the
    P(strata.hier.hier#lookup) lookup returns for that key and host.
  - Levels interpolate from what the inventory knows of the host, as written (never templated), that is
    C(inventory_hostname), its inventory host variables, the inventory variables of its groups (combined in
    Ansible's group precedence) and C(group_names), ordered most specific group first (C(ansible_group_priority),
    depth, name) for C(mapped_paths) levels. Variables from C(group_vars/) and C(host_vars/) files, play vars and
    facts are not seen (they are not known to the inventory).
  - A Puppet C(hiera.yaml) (version 5) works too - each host's variables are every root key of its data files,
    looked up as the P(strata.hier.hier#lookup) lookup looks it up, with C(::) in a key written C(__) in the
    variable's name (C(profile__ntp__servers)); the host's inventory variables are its Hiera facts (see the
    collection's C(docs/hiera.md)).
  - Each host is checked against the configuration's C(constraints) (C(Constraints) in a C(Datum.yml)), as the
    P(strata.hier.hier#inventory) inventory plugin checks its nodes - a violation of severity C(error) is an error,
    one of severity C(warn) a warning (see the collection's C(docs/constraints.md)).
  - A host none of whose levels holds data gets no variables and no error. A level whose variables are undefined is
    skipped; one that undefined variables leave without data for every host of the inventory (the group C(all))
    is a warning, once per configuration and run, naming the level, the variables and the configuration file and
    line (almost surely a misspelt variable). C(strict_levels) set to V(true) in the C(hier.yml) (C(StrictLevels)
    in a C(Datum.yml)) makes an undefined level variable an error for any host. A data file that cannot be read (such as
    a truncated one) is an error naming the file and line, which fails the task or the C(ansible-inventory) run.
  - Top-level keys that are not valid variable names, or that name a variable Ansible or this collection reserves
    (C(ansible_*) such as C(ansible_ssh_common_args) or C(ansible_connection), magic variables, C(inventory_*),
    C(hier_*), ...), are left out with a warning naming file, line and key, unless O(allow_reserved_keys) names them.
  - Vault values stay vault values. A host whose values take data from a whole-file vaulted file gets
    C(hier_vaulted_keys), the list of those keys, as with the P(strata.hier.hier#inventory) inventory plugin.
    hiera-eyaml values become vault values of the run and C(hier_encrypted_keys) lists their keys, as with the
    inventory plugin.
  - Data files are parsed once per run however many hosts read them, and each host's data is merged once per run
    (a change to the data during a run is not seen by this plugin).
  - Like every vars plugin in a collection it must be enabled, in C(ansible.cfg)
    C([defaults] vars_plugins_enabled = host_group_vars,strata.hier.hier) or E(ANSIBLE_VARS_ENABLED).
extends_documentation_fragment:
  - ansible.builtin.vars_plugin_staging
  - strata.hier.hierarchy_config
  - strata.hier.reserved_keys
options:
  allow_reserved_keys:
    ini:
      - section: strata_hier
        key: vars_allow_reserved_keys
    env:
      - name: STRATA_HIER_VARS_ALLOW_RESERVED_KEYS
  stage:
    ini:
      - section: strata_hier
        key: vars_stage
    env:
      - name: STRATA_HIER_VARS_STAGE
  keys:
    description:
      - The top-level keys to give hosts; all of them when neither this nor O(keys_pattern) is set.
    type: list
    elements: str
    ini:
      - section: strata_hier
        key: vars_keys
    env:
      - name: STRATA_HIER_VARS_KEYS
  provenance:
    description:
      - Also give each host C(hier_sources) (each top-level key -> the levels and files that supplied it) and
        C(hier_provenance) (each path of every value -> its file, line, level, rule, shadowed values and knockouts),
        as the P(strata.hier.hier#inventory) inventory plugin's O(strata.hier.hier#inventory:provenance) does.
      - Costs the merge its shortcuts (up to about 3 times the merge).
    type: bool
    default: false
    version_added: 1.1.0
    ini:
      - section: strata_hier
        key: vars_provenance
    env:
      - name: STRATA_HIER_VARS_PROVENANCE
  keys_pattern:
    description:
      - A regular expression; top-level keys it matches entirely are given too (with O(keys), a key matching either).
    type: str
    ini:
      - section: strata_hier
        key: vars_keys_pattern
    env:
      - name: STRATA_HIER_VARS_KEYS_PATTERN
notes:
  - O(stage) must be V(all), V(task) or V(inventory); any other value is an error naming where it is set (ansible-core
    alone would run the plugin as if it were not set).
  - A collection's vars plugin runs only when enabled in C(vars_plugins_enabled) (ansible-core 2.16 and later read
    it the same way); C(REQUIRES_ENABLED) is not declared, ansible-core warns about it in collection plugins.
  - Its variables sit where C(host_vars/) files do in Ansible's variable precedence; see the collection's
    C(docs/hierarchy.md).
  - >-
    With the P(strata.hier.hier#inventory) inventory plugin, a data file that cannot be read only costs a warning by
    default and the whole inventory source is left out (a play then runs on no host of it and succeeds); set
    C(any_unparsed_is_failed = true) in the C([inventory]) section of C(ansible.cfg) to make that fail the run
    (C(unparsed_is_failed = true): only when no source could be parsed).
seealso:
  - plugin: strata.hier.hier
    plugin_type: lookup
  - plugin: strata.hier.hier
    plugin_type: inventory
"""

EXAMPLES = r"""
# ansible.cfg (comments on lines of their own: Ansible keeps a "#" after a value as part of the value)
# [defaults]
# vars_plugins_enabled = host_group_vars,strata.hier.hier
#
# [strata_hier]
# ; used where no hier.yml is beside the playbook or the inventory
# config = hier.yml
# ; optional: only these keys
# vars_keys = Packages,NetworkConfig
# ; optional: inventory, task or all
# vars_stage = task
# ; optional: reserved names the data may set
# vars_allow_reserved_keys = ansible_port

- name: Every host has its merged data
  hosts: all
  tasks:
    - name: Packages of this host
      ansible.builtin.debug:
        var: Packages
"""

import re

from ansible import constants as C
from ansible import context
from ansible.errors import AnsibleError
from ansible.inventory.group import InventoryObjectType
from ansible.module_utils.common.text.converters import to_native
from ansible.plugins.vars import BaseVarsPlugin

# Before the helpers: they load with Python's bytecode cache (plugin_utils/bytecode.py).
from ansible_collections.strata.hier.plugins.plugin_utils import bytecode
from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeError
from ansible_collections.strata.hier.plugins.plugin_utils.compat import CompleteMessage, not_templates
from ansible_collections.strata.hier.plugins.plugin_utils.config import ConfigError
from ansible_collections.strata.hier.plugins.plugin_utils.config_path import resolve_option_path
from ansible_collections.strata.hier.plugins.plugin_utils.discovery import discover_config
from ansible_collections.strata.hier.plugins.plugin_utils.eyaml import for_host_vars
from ansible_collections.strata.hier.plugins.plugin_utils.group_precedence import inventory_variables
from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy import HierarchyError
from ansible_collections.strata.hier.plugins.plugin_utils.host_vars import allowed_names
from ansible_collections.strata.hier.plugins.plugin_utils.option_definitions import choice_problem
from ansible_collections.strata.hier.plugins.plugin_utils.source import get_source
from ansible_collections.strata.hier.plugins.plugin_utils.store import StoreError
from ansible_collections.strata.hier.plugins.plugin_utils.undefined_levels import (
    UndefinedLevelError, UndefinedLevels,
)

_CONFIGS = {}       # (playbook folder, inventory sources, setting) -> the configuration found
_MERGED = {}        # (host, its view's identity, keys wanted, keys allowed) -> its host variables, of _MERGED_FOR
_MERGED_FOR = []    # the source whose answers _MERGED holds (a changed configuration is a new one)
_LEVELS_CHECKED = []    # the sources whose levels were checked against every host of the inventory


class VarsModule(BaseVarsPlugin):

    # one instance per run: Ansible asks vars plugins for every host at every task, and a stateful plugin would be
    # made again each time, its options read again (what it keeps, it keeps at module level)
    is_stateless = True

    def get_option(self, option, hostvars=None):
        # ansible-core reads stage through get_option and, when it is not one of its choices, runs the plugin as if
        # it were not set: an error instead, naming the setting
        if option == 'stage' and option not in self._options:
            problem = choice_problem(self, option)
            if problem:
                raise _VarsError('strata.hier.hier vars plugin: %s' % problem)
        return super(VarsModule, self).get_option(option, hostvars)

    def get_vars(self, loader, path, entities, cache=True):
        super(VarsModule, self).get_vars(loader, path, entities)
        self.get_option('stage')    # checked when Ansible did not ask (a stage set and read by other means)
        hosts = [entity for entity in (entities if isinstance(entities, list) else [entities])
                 if getattr(entity, 'base_type', None) is InventoryObjectType.HOST]
        if not hosts:
            return {}
        bytecode.warn_uncached(self._display.warning)    # once per run: the helpers compiled in every worker
        try:
            source = get_source(self._config_path(loader), loader)
            for warning in source.take_warnings():     # the configuration's, once per process
                self._display.warning('strata.hier.hier vars plugin: %s' % warning)
            if source not in _LEVELS_CHECKED:
                _LEVELS_CHECKED.append(source)
                self._check_levels(source, hosts[0])
            data = {}
            for host in hosts:
                data.update(self._host_data(source, host))
            return data
        except (ConfigError, HierarchyError, StoreError, MergeError) as exc:
            raise _VarsError('strata.hier.hier vars plugin: %s' % to_native(exc)) from exc

    def _config_path(self, loader):
        setting = resolve_option_path(self, 'config', loader.get_basedir())
        sources = tuple(context.CLIARGS.get('inventory') or C.DEFAULT_HOST_LIST or ())
        key = (loader.get_basedir(), sources, setting)
        if key not in _CONFIGS:
            _CONFIGS[key] = discover_config(loader.get_basedir(), sources, setting)
        return _CONFIGS[key]

    def _host_data(self, source, host):
        """The host's merged data (a new top-level map each call: Ansible combines it with other variables)."""
        variables = inventory_variables(host)
        try:
            view = source.for_host(variables)
        except UndefinedLevelError:     # names the host already
            raise
        except HierarchyError as exc:
            raise HierarchyError('host %s: %s' % (host.name, exc)) from exc
        wanted = self._wanted()
        allowed = allowed_names(self.get_option('allow_reserved_keys'))
        if _MERGED_FOR != [source]:
            _MERGED.clear()
            _MERGED_FOR[:] = [source]
        provenance = self.get_option('provenance')
        identity = view.identity
        key = (host.name, identity, wanted, allowed, provenance)
        if identity is None or key not in _MERGED:
            merged = view.host_vars(self._display.warning, provenance=provenance, wanted=_key_filter(*wanted),
                                    allowed=allowed)
            merged = for_host_vars(merged, self._display.warning)
            _MERGED[key] = {name: not_templates(value) for name, value in merged.items()}
        return dict(_MERGED[key])

    def _check_levels(self, source, host):
        """Warn of each level that undefined variables leave without data for every host of the inventory.

        A vars plugin is asked about a host at a time, and about each host many times: the first time it reads a
        configuration, it expands the levels of every host of the group ``all`` (the host's inventory), without
        merging; a host whose levels are an error is left to its own call, which raises it. (The implicit
        ``localhost`` is in no group: alone, it is checked alone.)
        """
        levels = UndefinedLevels()
        group = next((group for group in host.get_groups() if group.name == 'all'), None)
        for each in (group.get_hosts() if group is not None else []) or [host]:
            try:
                levels.add(source.for_host(inventory_variables(each), strict=False).unfilled)
            except (HierarchyError, StoreError, MergeError):
                continue
        for warning in levels.warnings(source.level_position, source.undefined_effect, source.strict_hint()):
            self._display.warning('strata.hier.hier vars plugin: %s' % warning)

    def _wanted(self):
        keys = self.get_option('keys')
        return (tuple(keys) if keys else None, self.get_option('keys_pattern') or None)


def _key_filter(keys, pattern):
    """None (every key), or a test accepting the listed keys and those the pattern matches entirely."""
    if keys is None and pattern is None:
        return None
    try:
        compiled = re.compile(pattern) if pattern is not None else None
    except re.error as exc:
        raise ConfigError('keys_pattern %r is not a regular expression: %s' % (pattern, exc)) from exc
    listed = frozenset(keys or ())
    return lambda key: key in listed or (compiled is not None and compiled.fullmatch(key) is not None)


class _VarsError(CompleteMessage, AnsibleError):
    """The vars plugin's error: its message says everything."""
