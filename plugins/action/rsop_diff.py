# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The strata.hier.rsop_diff module: plugin_utils/rsop_diff.py on the controller."""

from __future__ import annotations

import os

from ansible.errors import AnsibleActionFail, AnsibleError
from ansible.module_utils.common.text.converters import to_native
from ansible.plugins.action import ActionBase

ARGUMENT_SPEC = {
    'base': {'type': 'str', 'required': True},
    'head': {'type': 'str'},
    'source': {'type': 'str'},
    'repo': {'type': 'path'},
    'out': {'type': 'path', 'default': 'rsop-diff'},
    'fail_if': {'type': 'list', 'elements': 'str', 'default': ['errors'],
                'choices': ['hosts_changed', 'values_changed', 'errors', 'shadowed_edits', 'dead_edits']},
}


class ActionModule(ActionBase):

    TRANSFERS_FILES = False
    _requires_connection = False

    def run(self, tmp=None, task_vars=None):
        result = super(ActionModule, self).run(tmp, task_vars)
        _validation, args = self.validate_argument_spec(argument_spec=ARGUMENT_SPEC)
        from ansible_collections.strata.hier.plugins.plugin_utils.rsop_diff import rsop_diff
        from ansible_collections.strata.hier.plugins.plugin_utils.rsop_diff_report import gate_failures, write_report
        try:
            report = rsop_diff(args['repo'] or os.getcwd(), args['base'], args['head'], args['source'], self._loader)
        except AnsibleError as exc:
            raise AnsibleActionFail(to_native(exc)) from exc
        json_path, markdown_path = write_report(report, args['out'])
        result.update(changed=False, summary=report['summary'], json=json_path, markdown=markdown_path)
        failures = gate_failures(report, args['fail_if'])
        if failures:
            result.update(failed=True, msg='strata.hier.rsop_diff: fail_if: %s (see %s)'
                          % (', '.join(failures), markdown_path))
        return result
