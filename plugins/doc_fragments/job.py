# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations


class ModuleDocFragment(object):
    """What the job modules (check, rsop_diff, eyaml_to_vault) share: action plugins that check their own options."""

    DOCUMENTATION = r"""
options: {}
notes:
  - Before ansible-core 2.19 no action plugin option is checked against its documentation by Ansible; this one
    checks its own.
"""
