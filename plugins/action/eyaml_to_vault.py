# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The strata.hier.eyaml_to_vault module: plugin_utils/jobs/eyaml_migration.py on the controller, with the vault secrets
of the run."""

from __future__ import annotations

from ansible_collections.strata.hier.plugins.plugin_utils.jobs.action import JobAction


class ActionModule(JobAction):

    ARGUMENT_SPEC = {
        'path': {'type': 'path', 'required': True},
        'vault_id': {'type': 'str'},
        'apply': {'type': 'bool', 'default': False},
        'verify': {'type': 'bool', 'default': False},
        'private_key': {'type': 'str'},
        'public_key': {'type': 'str'},
    }

    def job(self, args, task_vars):
        from ansible_collections.strata.hier.plugins.plugin_utils.jobs.eyaml_migration import migrate, run_secrets
        return migrate(args, run_secrets(self._loader), write=args['apply'] and not self._task.check_mode)
