# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Live differential test: new random Hiera repositories, asked of Puppet and of strata.hier, answers compared.

    python3 tests/oracle/hiera/differential.py [--seed N] [--generated N] [--jobs N] [--keep FILE]

Generates ``--generated`` repositories from ``--seed`` (hiera_generator.py, a seed other than the committed
corpus's), asks ``puppet lookup`` their questions (hiera_oracle.py), then replays the answers against
strata.hier's Hiera core exactly as the unit test does with the committed corpus (test_hiera_corpus.py) and
prints the number of cases, agreements and every disagreement.  Exit status 1 when a case disagrees outside the
documented departures.  Without Puppet it says so and exits 0 (not part of scripts/test: Puppet is not on CI).
Needs the ansible-core virtual environment's Python for the replay (``.venvs/core-2.19.14/bin/python``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n', maxsplit=1)[0])
    parser.add_argument('--seed', type=int, default=4242)
    parser.add_argument('--generated', type=int, default=120)
    parser.add_argument('--jobs', type=int, default=2)
    parser.add_argument('--keep', help='write the recorded corpus here (else a temporary file)')
    arguments = parser.parse_args()
    if shutil.which('puppet') is None:
        print('puppet is not installed (no `puppet` on PATH): the live Hiera differential test is skipped.')
        return 0
    with tempfile.TemporaryDirectory(prefix='strata-hiera-differential-') as work:
        corpus = arguments.keep or os.path.join(work, 'corpus.json')
        subprocess.run([sys.executable, os.path.join(HERE, 'hiera_oracle.py'), '--seed', str(arguments.seed),
                        '--generated', str(arguments.generated), '--only', r'^gen\.', '--jobs', str(arguments.jobs),
                        '--out', corpus], check=True)
        return replay(corpus, work)


def replay(corpus_path: str, work: str) -> int:
    sys.path.insert(0, os.path.dirname(HERE))
    from oracle_collection import COLLECTION, module_utils  # pylint: disable=import-outside-toplevel,import-error

    module_utils(COLLECTION, 'dialects.hiera.engine')       # this checkout, importable as ansible_collections.strata.hier
    hiera_corpus = importlib.import_module('ansible_collections.strata.hier.tests.unit.plugins.module_utils.hiera_corpus')

    with open(corpus_path, encoding='utf-8') as handle:
        corpus = json.load(handle)
    replayer = hiera_corpus.Replayer(corpus, os.path.join(work, 'repositories'))
    disagreements = []
    for case in corpus['cases']:
        ours = replayer.answer(case)
        if not hiera_corpus.agrees(case, ours) and not hiera_corpus.departure_of(case['id']):
            disagreements.append((case, ours))
    total = len(corpus['cases'])
    print('seed %s: %d repositories, %d cases; %d agree, %d disagree'
          % (corpus['meta']['seed'], corpus['meta']['generated_repositories'], total, total - len(disagreements),
             len(disagreements)))
    for case, ours in disagreements:
        print('  %s key %r merge %r: Puppet %s; strata.hier %s'
              % (case['id'], case['key'], case.get('merge'), case['answer'], ours))
    return 1 if disagreements else 0


if __name__ == '__main__':
    sys.exit(main())
