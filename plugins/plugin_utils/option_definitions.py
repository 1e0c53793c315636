# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""A plugin's options under whatever name it was loaded by.

Ansible registers a plugin's option definitions under its load name, from the DOCUMENTATION of the file it loaded.
A one-line re-export beside a playbook (``lookup_plugins/hier.py`` holding ``from ansible_collections.strata.hier
.plugins.lookup.hier import LookupModule``) is loaded as ``hier`` from a file without DOCUMENTATION, so every
option would be unknown ("No config definition exists for 'config' for 'hier' lookup plugin"). The plugin brings
its own definitions instead, parsed from its DOCUMENTATION once per process.
"""

from __future__ import annotations

from typing import Any, Dict

import yaml

from ansible import constants as C

_PARSED: Dict[str, Dict[str, Any]] = {}


def adopt_own_definitions(plugin: Any, fqcn: str, documentation: str) -> None:
    """Register the plugin's own option definitions under its load name when Ansible has none there."""
    name = getattr(plugin, '_load_name', None) or fqcn
    if C.config.get_configuration_definitions(plugin.plugin_type, name):
        return
    definitions = C.config.get_configuration_definitions(plugin.plugin_type, fqcn)
    if not definitions:
        if fqcn not in _PARSED:
            _PARSED[fqcn] = yaml.safe_load(documentation).get('options') or {}
        definitions = _PARSED[fqcn]
    C.config.initialize_plugin_configuration_definitions(plugin.plugin_type, name, definitions)
    plugin._defs = None         # AnsiblePlugin.option_definitions reads them again
