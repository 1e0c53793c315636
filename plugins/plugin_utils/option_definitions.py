# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""A plugin's option definitions, registered from its own DOCUMENTATION.

Ansible registers a plugin's option definitions when it loads the plugin, under the plugin's module name, from the
DOCUMENTATION of the file it loaded, parsed with its own YAML loader: 1.5 ms of CPU in every worker ansible-playbook
forks, for the lookup (issue 13). ``register_own_definitions``, called as the plugin's module is imported, registers
them first, parsed with libyaml's safe loader by the run's first worker and read by the others from the run's folder
(parse.py); Ansible then finds them registered and parses nothing.

A one-line re-export beside a playbook (``lookup_plugins/hier.py`` holding ``from ansible_collections.strata.hier
.plugins.lookup.hier import LookupModule``) is loaded as ``hier`` from a file without DOCUMENTATION, so every
option would be unknown ("No config definition exists for 'config' for 'hier' lookup plugin"):
``adopt_own_definitions`` registers the same definitions under that name.

Only for DOCUMENTATION that Ansible's loader would read the same: no doc fragments, no templated defaults
(tests/unit/plugins/plugin_utils/test_option_definitions.py compares both on every supported ansible-core).
"""

from __future__ import annotations

from typing import Any, Dict

import yaml

from ansible import constants as C

from ansible_collections.strata.hier.plugins.plugin_utils.parse import kept_for_text

_SafeLoader = getattr(yaml, 'CSafeLoader', yaml.SafeLoader)
_PARSED: Dict[str, Dict[str, Any]] = {}


def own_definitions(module_name: str, documentation: str) -> Dict[str, Any]:
    """The options of a plugin's DOCUMENTATION, parsed once per run (the other workers read them from the run's
    folder) and kept once per process."""
    if module_name not in _PARSED:
        _PARSED[module_name] = kept_for_text('options', documentation, _options_of)
    return _PARSED[module_name]


def _options_of(documentation: str) -> Dict[str, Any]:
    return yaml.load(documentation, Loader=_SafeLoader).get('options') or {}


def register_own_definitions(plugin_type: str, module_name: str, documentation: str) -> None:
    """Register a plugin's option definitions under its module's name, unless Ansible has them already."""
    if not C.config.has_configuration_definition(plugin_type, module_name):
        C.config.initialize_plugin_configuration_definitions(plugin_type, module_name,
                                                             own_definitions(module_name, documentation))


def adopt_own_definitions(plugin: Any, module_name: str, documentation: str) -> None:
    """Register the plugin's own option definitions under its load name when Ansible has none there."""
    name = getattr(plugin, '_load_name', None) or module_name
    if C.config.has_configuration_definition(plugin.plugin_type, name):
        return
    C.config.initialize_plugin_configuration_definitions(plugin.plugin_type, name,
                                                         own_definitions(module_name, documentation))
    plugin._defs = None         # AnsiblePlugin.option_definitions reads them again
