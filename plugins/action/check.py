# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The strata.hier.check module: plugin_utils/jobs/check_report.py on the controller."""

from __future__ import annotations

import os

from ansible_collections.strata.hier.plugins.plugin_utils.jobs.action import JobAction


class ActionModule(JobAction):

    ARGUMENT_SPEC = {
        'source': {'type': 'str'},
        'out': {'type': 'path', 'default': 'check'},
    }

    def job(self, args, task_vars):
        from ansible_collections.strata.hier.plugins.plugin_utils.jobs.check_report import check, failure, write_report
        report = check(os.getcwd(), args['source'], self._loader)
        json_path, sarif_path, text_path = write_report(report, args['out'])
        result = dict(changed=False, summary=report['summary'], json=json_path, sarif=sarif_path, text=text_path)
        failed = failure(report)
        if failed:
            result.update(failed=True, msg='strata.hier.check: %s (see %s)' % (failed, text_path))
        else:
            warnings = report['summary']['warnings']
            result['msg'] = 'strata.hier.check: passed%s' % (
                ' with %d warning%s' % (warnings, '' if warnings == 1 else 's') if warnings else '')
        return result
