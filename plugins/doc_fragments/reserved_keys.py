# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations


class ModuleDocFragment(object):
    """What the inventory and the vars plugin share: which data keys may not become host variables."""

    DOCUMENTATION = r"""
options:
  allow_reserved_keys:
    description:
      - Top-level data keys that may become host variables although their names are reserved, by exact name (such as
        V(ansible_port) or V(ansible_user)).
      - >-
        Data files are untrusted, host variables are not (C(ansible_ssh_common_args) runs a command on the controller,
        C(ansible_connection=local) runs every task there). So, unless listed here, a top-level data key is left out,
        with a warning naming its file, line and key, when it is one of Ansible's own variables (C(ansible_*):
        connection, become, interpreter and shell settings, facts, magic variables), a magic variable (C(hostvars),
        C(groups), C(group_names), C(inventory_*), C(playbook_dir), C(omit), C(role_name), C(vars), C(environment),
        ... as ansible-core lists them), one of Ansible's template functions (C(lookup), C(query), C(q), C(now),
        C(undef)), C(hier_*) (the variables this collection sets, such as C(hier_sources), C(hier_vaulted_keys) and
        C(hier_encrypted_keys)) or C(rsop_*) (the settings of the P(strata.hier.rsop#role) role). Play keywords such as C(port) or C(name) set
        nothing as variables and are not refused.
      - >-
        Names starting with C(__) (internal to Ansible and this collection) cannot be allowed, and a value holding a
        map key starting with C(__ansible_) (C(__ansible_vault), C(__ansible_unsafe): markers of Ansible's JSON) is
        always left out, as C(ansible-inventory --list) could not be read back.
      - The P(strata.hier.hier#lookup) lookup is not affected - it returns a value to the play and sets no host
        variable. The O(strata.hier.hier#inventory:compose) option of the inventory plugin (configuration, trusted)
        may set any variable.
    type: list
    elements: str
    default: []
    version_added: 1.1.0
"""
