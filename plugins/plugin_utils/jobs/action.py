# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the action plugins of the jobs (``strata.hier.check``, ``rsop_diff``, ``eyaml_to_vault``) share: run on the
controller only, options checked against their own spec (before ansible-core 2.19 Ansible checks none of an action
plugin's), the collection's errors turned into the task's failure."""

from __future__ import annotations

from typing import Any, Dict

from ansible.errors import AnsibleActionFail, AnsibleError
from ansible.module_utils.common.text.converters import to_native
from ansible.plugins.action import ActionBase


class JobAction(ActionBase):
    """An action plugin whose ``job(args, task_vars)`` gives the task's result."""

    TRANSFERS_FILES = False
    _requires_connection = False
    ARGUMENT_SPEC: Dict[str, Any] = {}

    def run(self, tmp=None, task_vars=None):
        result = super(JobAction, self).run(tmp, task_vars)
        _validation, args = self.validate_argument_spec(argument_spec=self.ARGUMENT_SPEC)
        from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeError
        try:
            result.update(self.job(args, task_vars or {}))
        except (AnsibleError, MergeError) as exc:
            raise AnsibleActionFail(to_native(exc)) from exc
        finally:    # what reading the configuration found to warn about, failed or not
            from ansible_collections.strata.hier.plugins.plugin_utils.source import take_all_warnings
            for warning in take_all_warnings():
                self._display.warning('strata.hier: %s' % warning)
        return result

    def job(self, args: Dict[str, Any], task_vars: Dict[str, Any]) -> Dict[str, Any]:
        raise NotImplementedError
