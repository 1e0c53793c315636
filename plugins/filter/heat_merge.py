# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

DOCUMENTATION = r"""
name: heat_merge
short_description: Merge OpenStack Heat environment files as the Heat engine does
version_added: 1.0.0
author: strata.hier contributors
description:
  - Merges Heat environment files (C(heat stack-create -e one.yaml -e two.yaml)) the way the Heat engine merges
    them, with their C(parameter_merge_strategies), and returns the merged environment.
  - The input and later arguments are the environment files in the order Heat is given them, each a map,
    following the convention of P(ansible.builtin.combine#filter) for filters.
  - 'V([one, two] | strata.hier.heat_merge) equals V(one | strata.hier.heat_merge(two\)).'
  - "Sections: C(parameters), C(parameter_defaults), C(resource_registry), C(event_sinks),
    C(encrypted_param_names) and C(parameter_merge_strategies). Any other section is an error, as in Heat."
  - "C(parameter_merge_strategies) gives a C(default) and per-parameter strategies: C(overwrite) (Heat's default),
    C(merge) or C(deep_merge). The first file that holds a parameter fixes its strategy (its own entry for the
    parameter, else its C(default)); a later file naming another strategy for that parameter is an error naming
    the parameter and the file's position. A later file that does not name the parameter uses the fixed strategy."
  - "C(parameters) and C(parameter_defaults): a file's non-empty section goes into an empty one as it is; otherwise
    the file overwrites or merges its non-null parameters into it (only the parameters the template declares, when
    O(parameter_types) is given, as in Heat). How C(merge) and C(deep_merge) combine two values
    depends on the parameter's type: C(json) maps merge their top-level keys (C(merge)) or recursively (C(deep_merge),
    where nested lists are concatenated and nested strings joined, the earlier file's first);
    C(comma_delimited_list) lists are concatenated and comma-delimited strings joined with a comma; C(string)
    values are concatenated; C(number) and C(boolean) parameters cannot be merged (an error, as in Heat)."
  - C(resource_registry) merges its top-level keys, the later file's replacing the earlier's, as in Heat.
  - A section that is empty (null) is an error, as in Heat.
  - The result has C(parameters), C(parameter_defaults) and C(resource_registry), and any other section a file gave;
    C(parameter_merge_strategies) is not returned.
  - The filter reproduces Heat's own merge functions (C(merge_map), C(merge_list) and the string join of
    C(param_merge)). See the collection's C(docs/heat.md) for what each strategy does with each type and every
    place where the filter departs from Heat.
  - The inputs are never modified; the result shares no map or list with them.
positional: _input, _environments
options:
  _input:
    description:
      - The first environment file, a map.
      - When no positional argument follows, the list of environment files, in the order Heat is given them.
    type: raw
    required: true
  _environments:
    description: Later environment files.
    type: raw
  parameter_types:
    description:
      - Maps parameter names to the template's types, which decide how C(merge) and C(deep_merge) combine values.
      - "HOT types: V(string), V(number), V(comma_delimited_list), V(json), V(boolean); the CFN spellings
        (V(String), V(CommaDelimitedList), V(Json)...) are accepted too."
      - "A parameter not listed has the type of its values: a map is V(json), a list V(comma_delimited_list), a
        boolean V(boolean), a number V(number), anything else V(string). A JSON text or a comma-delimited string
        needs its type given here to merge as V(json) or V(comma_delimited_list)."
    type: dict
notes:
  - A null parameter value is skipped, as in Heat. An empty file (null) is skipped.
  - A comma-delimited string merged with a list, a JSON text merged into, and values of another type inside a
    C(deep_merge) fail in Heat; the filter merges them (see C(docs/heat.md), which lists every departure).
  - Data nesting deeper than 64 levels, or referring to itself, is an error.
seealso:
  - plugin: strata.hier.deep_merge
    plugin_type: filter
    description: Merges by a Datum strategy, for data that is not a Heat environment.
"""

EXAMPLES = r"""
- name: Services of the controller from two environment files, the second appending
  ansible.builtin.debug:
    msg: "{{ [one, two] | strata.hier.heat_merge }}"
  vars:
    one:
      parameter_merge_strategies: {ControllerServices: merge}
      parameters: {ControllerServices: [Keystone]}
    two:
      parameters: {ControllerServices: [Glance]}
  # => {parameters: {ControllerServices: [Keystone, Glance]}, parameter_defaults: {}, resource_registry: {}}

- name: A comma-delimited string joined, a JSON map merged recursively
  ansible.builtin.debug:
    msg: >-
      {{ base_env | strata.hier.heat_merge(site_env,
           parameter_types={'DnsServers': 'comma_delimited_list', 'ExtraConfig': 'json'}) }}
  vars:
    base_env:
      parameter_merge_strategies: {default: deep_merge}
      parameter_defaults: {DnsServers: '8.8.8.8', ExtraConfig: {ntp: {servers: [a]}}}
    site_env:
      parameter_defaults: {DnsServers: '1.1.1.1', ExtraConfig: '{"ntp": {"servers": ["b"]}}'}
  # => parameter_defaults: {DnsServers: '8.8.8.8,1.1.1.1', ExtraConfig: {ntp: {servers: [a, b]}}}

- name: Files merged into the stack's -P parameters, with the template's parameters
  ansible.builtin.debug:
    msg: >-
      {{ [one, two] | strata.hier.heat_merge(parameters={'ControllerServices': ['Nova']},
                                             parameter_types={'ControllerServices': 'comma_delimited_list'}) }}
  vars:
    one:
      parameter_merge_strategies: {ControllerServices: merge}
      parameters: {ControllerServices: [Keystone], NotInTheTemplate: dropped}
    two:
      parameters: {ControllerServices: [Glance]}
  # => parameters: {ControllerServices: [Nova, Keystone, Glance]}
"""

RETURN = r"""
_value:
  description:
    - The merged environment.
  type: dict
"""

# Before the helpers: they load with Python's bytecode cache (plugin_utils/bytecode.py).
from ansible_collections.strata.hier.plugins.plugin_utils import bytecode  # noqa: F401  # pylint: disable=unused-import
from ansible_collections.strata.hier.plugins.module_utils.dialects.heat import merge_environments
from ansible_collections.strata.hier.plugins.plugin_utils.filters import call_core, layers_from


def heat_merge(value, *others, parameter_types=None, parameters=None):
    """Merge Heat environment files, in the order Heat is given them, into the stack's own parameters."""
    environments = layers_from('heat_merge', value, others, 'environment files')
    return call_core('heat_merge', merge_environments, environments, parameter_types, parameters).value


class FilterModule(object):
    """OpenStack Heat environment merging."""

    def filters(self):
        return {'heat_merge': heat_merge}
