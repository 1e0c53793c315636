# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The strata.hier.rsop_diff module: plugin_utils/jobs/rsop_diff.py on the controller."""

from __future__ import annotations

import os

from ansible_collections.strata.hier.plugins.plugin_utils.jobs.action import JobAction


class ActionModule(JobAction):

    ARGUMENT_SPEC = {
        'base': {'type': 'str', 'required': True},
        'head': {'type': 'str'},
        'source': {'type': 'str'},
        'repo': {'type': 'path'},
        'out': {'type': 'path', 'default': 'rsop-diff'},
        'fail_if': {'type': 'list', 'elements': 'str', 'default': ['errors'],
                    'choices': ['hosts_changed', 'values_changed', 'errors', 'shadowed_edits', 'dead_edits']},
    }

    def job(self, args, task_vars):
        from ansible_collections.strata.hier.plugins.plugin_utils.jobs.rsop_diff import rsop_diff
        from ansible_collections.strata.hier.plugins.plugin_utils.jobs.rsop_diff_report import gate_failures, write_report
        report = rsop_diff(args['repo'] or os.getcwd(), args['base'], args['head'], args['source'], self._loader)
        json_path, markdown_path = write_report(report, args['out'])
        result = dict(changed=False, summary=report['summary'], json=json_path, markdown=markdown_path)
        if report['warnings']:
            result['warnings'] = ['strata.hier.rsop_diff: %s' % warning for warning in report['warnings']]
        failures = gate_failures(report, args['fail_if'])
        if failures:
            result.update(failed=True, msg='strata.hier.rsop_diff: fail_if: %s (see %s)'
                          % (', '.join(failures), markdown_path))
        return result
