# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Puppet's answers for Hiera's ``convert_to`` (issue 30, item 4): asks Puppet's ``new`` (puppet_new.rb, through
Puppet's PAL, as lookup_adapter.rb's convert_result calls it) the questions of
``tests/unit/plugins/module_utils/puppet_convert_cases.json`` and writes its answers there; the unit test
``test_puppet_types.py`` replays them without Puppet.  Without ``puppet`` installed it says so and exits 0.

    apt-get install -y --no-install-recommends puppet ruby-deep-merge
    python3 tests/oracle/hiera/convert_to_oracle.py [--check]

``--check``: compare Puppet's answers with the recorded ones, write nothing (exit 1 on a difference).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, '..', '..', 'unit', 'plugins', 'module_utils', 'puppet_convert_cases.json')


def ask(questions):
    with tempfile.TemporaryDirectory() as work:
        for folder in ('conf', 'var', 'code'):
            os.mkdir(os.path.join(work, folder))
        path = os.path.join(work, 'cases.json')
        with open(path, 'w', encoding='utf-8') as stream:
            json.dump(questions, stream)
        done = subprocess.run(['ruby', os.path.join(HERE, 'puppet_new.rb'), path, work], capture_output=True,
                              text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    if shutil.which('puppet') is None:
        print('puppet is not installed (no `puppet` on PATH): the convert_to oracle is skipped.')
        return 0
    with open(CASES, encoding='utf-8') as stream:
        recorded = json.load(stream)
    answers = ask([[case['type'], case['value']] for case in recorded['cases']])
    for case, answer in zip(recorded['cases'], answers):
        case['puppet'] = {key: answer[key] for key in ('result', 'sensitive', 'error') if key in answer}
    if '--check' in sys.argv:
        with open(CASES, encoding='utf-8') as stream:
            before = json.load(stream)
        differ = [case for case, old in zip(recorded['cases'], before['cases']) if case['puppet'] != old['puppet']]
        for case in differ:
            print('differs: %s' % json.dumps(case))
        print('%d cases, %d differ' % (len(answers), len(differ)))
        return 1 if differ else 0
    recorded['meta']['puppet_version'] = subprocess.run(['puppet', '--version'], capture_output=True, text=True,
                                                        check=True).stdout.strip()
    with open(CASES, 'w', encoding='utf-8') as stream:
        json.dump(recorded, stream, indent=1)
        stream.write('\n')
    print('%d cases written to %s' % (len(answers), CASES))
    return 0


if __name__ == '__main__':
    sys.exit(main())
