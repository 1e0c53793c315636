# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""A host's groups in Ansible's own group precedence, and the variables its levels read.

Ansible merges group variables ordered by depth, then ``ansible_group_priority``, then name
(``ansible.inventory.helpers.sort_groups``), the last winning. A hierarchy reads its most specific level first,
so ``group_names`` is given to levels in the reverse order: a ``mapped_paths`` level over ``group_names`` merges
groups the way group_vars would, key by key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Dict, Iterable, List, Optional

from ansible.inventory.helpers import get_group_vars, sort_groups
from ansible.utils.vars import combine_vars

from ansible_collections.strata.hier.plugins.module_utils.core.mapped_levels import with_variable


def most_specific_first(groups: Iterable[Any]) -> List[str]:
    """Names of Ansible groups (``all`` left out, as in ``group_names``), the one whose variables win first."""
    return [group.name for group in reversed(sort_groups(list(groups))) if group.name != 'all']


def inventory_variables(host: Any) -> Dict[str, Any]:
    """What the inventory knows of a host, as its levels read it: its groups' variables in group precedence,
    its own variables over them, ``inventory_hostname`` and ``group_names`` (most specific first)."""
    groups = host.get_groups()
    variables = combine_vars(get_group_vars(groups), host.get_vars())
    variables['group_names'] = most_specific_first(groups)
    return variables


def in_group_precedence(variables: Mapping) -> Mapping:
    """A lookup's variables with ``group_names`` most specific first (Ansible gives them sorted by name).

    The host's groups come from the inventory behind ``hostvars``; without one (a lookup outside a play), the
    variables are as given.
    """
    ordered = _ordered_group_names(variables)
    return variables if ordered is None else with_variable(variables, 'group_names', ordered)


def _ordered_group_names(variables: Mapping) -> Optional[List[str]]:
    inventory = getattr(variables.get('hostvars'), '_inventory', None)    # HostVars keeps the inventory
    name = variables.get('inventory_hostname')
    if inventory is None or not isinstance(name, str):
        return None
    host = inventory.get_host(name)
    return None if host is None else most_specific_first(host.get_groups())
