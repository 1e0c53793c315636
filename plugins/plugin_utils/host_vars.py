# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""A host's merged hierarchy data as host variables: what the inventory plugin and the vars plugin give a host."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence

from ansible.utils.vars import isidentifier

from ansible_collections.strata.hier.plugins.module_utils.levels import Expansion


def merged_host_vars(hierarchy: Any, variables: Mapping, expansions: Sequence[Expansion], warn: Callable[[str], None],
                     provenance: bool = False, wanted: Optional[Callable[[str], bool]] = None) -> Dict[str, Any]:
    """Every top-level key of the host's levels (those ``wanted`` accepts), merged as the lookup merges it.

    A key that is not a valid variable name is left out with a warning. ``hier_sources`` (with ``provenance``) maps
    each key to the levels and files of its value; ``hier_vaulted_keys`` lists the keys whose value comes in part
    from a whole-file vaulted file (plain once loaded: whoever writes them out must keep them secret).
    """
    host = variables.get('inventory_hostname')
    host_vars: Dict[str, Any] = {}
    sources: Dict[str, Any] = {}
    vaulted: List[str] = []
    for key, resolution in hierarchy.resolve_node(variables, expansions=expansions).items():
        if wanted is not None and not wanted(key):
            continue
        for warning in resolution.warnings:
            warn('strata.hier.hier %s: %s' % (host, warning))
        if not isidentifier(key):
            files = ', '.join(source['file'] or source['level'] for source in resolution.provenance())
            warn('strata.hier.hier: %r (in %s) is not a valid variable name; it is not a host variable of %s '
                 '(the lookup still reads it)' % (key, files, host))
            continue
        host_vars[key] = resolution.value
        if provenance:
            sources[key] = resolution.provenance()
        if resolution.vaulted:
            vaulted.append(key)
    if provenance:
        host_vars['hier_sources'] = sources
    if vaulted:
        host_vars['hier_vaulted_keys'] = vaulted
    return host_vars
