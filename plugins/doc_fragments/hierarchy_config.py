# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations


class ModuleDocFragment(object):
    """What the lookup and the vars plugin share: the hierarchy configuration they read, and its setting."""

    DOCUMENTATION = r"""
options:
  config:
    description:
      - The hierarchy configuration, C(hier.yml) or C(Datum.yml).
      - The P(strata.hier.hier#lookup) lookup reads the one given to it (C(config=...)); otherwise it and the
        P(strata.hier.hier#vars) vars plugin read the first C(hier.yml), C(hiera.yaml) or C(Datum.yml) in the
        playbook's folder, then beside each inventory source, then the one this setting names (E(STRATA_HIER_CONFIG),
        C([strata_hier] config)). The error when there is none lists the places searched.
      - A relative path is relative to where it is set, as Ansible's own path settings are. Given to the lookup
        (C(config=...)), to the playbook's folder; from C(ansible.cfg), to the folder of that C(ansible.cfg);
        from E(STRATA_HIER_CONFIG), to the working directory. C(~) is expanded.
    type: str
    env:
      - name: STRATA_HIER_CONFIG
    ini:
      - section: strata_hier
        key: config
"""
