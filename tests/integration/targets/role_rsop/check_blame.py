# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""check_blame.py WHERE REPORT.json LOG

The strata.hier.blame playbook's report on the README's first project (issue 28's golden cases): the host x key
path pairs of its JSON report, and the lines of its text report in the play's log.
"""

from __future__ import annotations

import json
import sys

EXPECTED = {
    'data/common.yml:4': (
        [['db01', 'ntp/makestep', 'shadowed', '1.0 3'], ['web01', 'ntp/makestep', 'fed', '1.0 3']],
        ['data/common.yml:4 feeds \\"1.0 3\\" on 1 host: web01',
         'data/common.yml:4 (\\"1.0 3\\") is shadowed by \\"0.1 -1\\" at data/roles/db.yml:3 on 1 host: db01']),
    'data/nodes/db01.yml:3': (
        [['db01', 'packages', 'fed', None], ['db01', 'packages', 'knocks out', 'chrony'],
         ['db01', 'packages/0', 'fed', 'ntpsec']],
        ['data/nodes/db01.yml:3 knocks out chrony (data/common.yml:1) on 1 host: db01',
         'data/nodes/db01.yml:3 feeds ntpsec on 1 host: db01']),
}


def main(where, path, log):
    with open(path) as stream:
        report = json.load(stream)
    with open(log) as stream:
        text = stream.read()
    pairs, lines = EXPECTED[where]
    found = sorted([host, match['path'], match['how'], match.get('value')]
                   for match in report['matches'] for host in match['hosts'])
    assert report['where'] == where and report['hosts'] == ['db01', 'web01'], report
    assert found == pairs, found
    for line in lines:
        assert line in text, 'not in the log: %s' % line
    print('%s: %d pairs as expected' % (where, len(found)))


if __name__ == '__main__':
    main(*sys.argv[1:])
