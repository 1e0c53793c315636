# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""group_names in Ansible's group precedence, most specific first (issue 11)."""

from __future__ import annotations

from types import SimpleNamespace

from ansible.inventory.data import InventoryData
from ansible.vars.hostvars import HostVars

from ansible_collections.strata.hier.plugins.plugin_utils.group_precedence import (
    in_group_precedence, inventory_variables, most_specific_first,
)


def inventory():
    data = InventoryData()
    for group in ('a_shallow', 'z_shallow', 'parent', 'deep', 'urgent'):
        data.add_group(group)
    data.add_child('parent', 'deep')
    data.add_host('h1', 'a_shallow')
    data.add_host('h1', 'z_shallow')
    data.add_host('h1', 'deep')
    data.add_host('h1', 'urgent')
    data.groups['urgent'].set_priority(5)
    data.set_variable('parent', 'Site', 'from parent')
    data.set_variable('deep', 'Site', 'from deep')
    data.set_variable('h1', 'Role', 'web')
    return data


def test_depth_then_priority_then_name_most_specific_first():
    groups = inventory().get_host('h1').get_groups()
    assert most_specific_first(groups) == ['deep', 'urgent', 'z_shallow', 'parent', 'a_shallow']


def test_inventory_variables_combine_groups_in_precedence_under_the_host():
    variables = inventory_variables(inventory().get_host('h1'))
    assert variables['Site'] == 'from deep' and variables['Role'] == 'web'
    assert variables['inventory_hostname'] == 'h1'
    assert variables['group_names'] == ['deep', 'urgent', 'z_shallow', 'parent', 'a_shallow']


def test_a_lookup_reads_the_order_from_the_inventory_behind_hostvars():
    data = inventory()
    variables = {'inventory_hostname': 'h1', 'group_names': sorted(['a_shallow', 'z_shallow', 'parent', 'deep', 'urgent']),
                 'hostvars': HostVars(data, SimpleNamespace(), None)}
    ordered = in_group_precedence(variables)
    assert ordered['group_names'] == ['deep', 'urgent', 'z_shallow', 'parent', 'a_shallow']
    assert variables['group_names'][0] == 'a_shallow'       # the task's variables are untouched
    assert in_group_precedence({'group_names': ['b', 'a']}) == {'group_names': ['b', 'a']}     # no inventory
