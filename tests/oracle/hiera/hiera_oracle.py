# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Hiera 5 oracle: asks `puppet lookup` the corpus's questions and records its answers.

The questions are the hand-written cases of hiera_cases.py and the generated ones of hiera_generator.py
(deterministic by --seed). Each repository is written to a temporary directory as a Puppet environment
(`<codedir>/environments/production`, an empty confdir), each question is one `puppet lookup` call, and
the answer (value, not found, or error with its message; warnings; explain text) goes into the corpus
file. See README.md beside this file for the corpus format. Without `puppet` on PATH the script says so
and exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any, Dict, List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import hiera_cases  # noqa: E402  pylint: disable=wrong-import-position
import hiera_generator  # noqa: E402  pylint: disable=wrong-import-position

DEFAULT_CORPUS = os.path.join(HERE, 'corpus.json')
SERVER = os.path.join(HERE, 'puppet_lookup_server.rb')
ANSI = re.compile(r'\x1b\[[0-9;]*m')
ANSWER_FIELDS = ('answer', 'warnings', 'explain_text')
ENVIRONMENT_PLACEHOLDER = '{environment}'
CONFDIR_PLACEHOLDER = '{confdir}'


# --- questions -> puppet lookup command lines -----------------------------------------------------------
def lookup_argv(paths: Dict[str, str], node: str, case: dict, explain: bool) -> List[str]:
    """The `puppet lookup` arguments (without the program name) for one case."""
    argv = ['lookup', '--confdir', paths['confdir'], '--codedir', paths['codedir'], '--vardir', paths['vardir'],
            '--environment', 'production', '--node', node, '--facts', paths['facts']]
    merge = case.get('merge')
    if merge:
        argv += ['--merge', merge]
    if case.get('knockout_prefix') is not None:
        argv.append('--knock-out-prefix=' + case['knockout_prefix'])
    if case.get('sort_merged_arrays'):
        argv.append('--sort-merged-arrays')
    if case.get('merge_hash_arrays'):
        argv.append('--merge-hash-arrays')
    argv += ['--explain', '--render-as', 's'] if explain else ['--render-as', 'json']
    argv += ['--', case['key']] if case['key'].startswith('-') else [case['key']]
    return argv


def write_repository(root: str, repository: dict) -> Dict[str, str]:
    """Write one repository (files relative to the environment directory) and its facts; their paths."""
    paths = {'confdir': os.path.join(root, 'conf'), 'codedir': os.path.join(root, 'code'),
             'facts': os.path.join(root, 'facts.json')}
    paths['environment'] = os.path.join(paths['codedir'], 'environments', 'production')
    for folder in (paths['confdir'], paths['environment']):
        os.makedirs(folder, exist_ok=True)
    for relative, text in repository['files'].items():
        target = os.path.join(paths['environment'], relative)
        if relative.endswith('/'):
            os.makedirs(target, exist_ok=True)
            continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, 'w', encoding='utf-8') as stream:
            stream.write(text)
    with open(paths['facts'], 'w', encoding='utf-8') as stream:
        json.dump(repository['facts'], stream)
    return paths


# --- running puppet ------------------------------------------------------------------------------------
class CliWorker:
    """Runs each request as its own `puppet` process (the reference mode; about 1.5 s per call)."""

    def __init__(self, puppet: str) -> None:
        self.puppet = puppet
        self.vardir = ''

    def run(self, argv: List[str], timeout: float) -> Dict[str, Any]:
        try:
            done = subprocess.run([self.puppet] + argv, capture_output=True, text=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            return {'rc': None, 'stdout': '', 'stderr': '', 'timeout': True}
        return {'rc': done.returncode, 'stdout': done.stdout, 'stderr': done.stderr}

    def close(self) -> None:
        pass


class ForkWorker:
    """Runs requests through puppet_lookup_server.rb: one warm Ruby process forking a child per request."""

    def __init__(self, scratch: str) -> None:
        self.scratch = scratch
        self.vardir = ''
        self.process = subprocess.Popen(['ruby', SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, bufsize=1)
        hello = json.loads(self.process.stdout.readline())
        self.version = hello['puppet']

    def run(self, argv: List[str], timeout: float) -> Dict[str, Any]:
        out, err = os.path.join(self.scratch, 'out'), os.path.join(self.scratch, 'err')
        self.process.stdin.write(json.dumps({'argv': argv, 'out': out, 'err': err, 'timeout': timeout}) + '\n')
        reply = json.loads(self.process.stdout.readline())
        with open(out, encoding='utf-8', errors='replace') as stream:
            reply['stdout'] = stream.read()
        with open(err, encoding='utf-8', errors='replace') as stream:
            reply['stderr'] = stream.read()
        return reply

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


def puppet_version(puppet: str) -> str:
    return subprocess.run([puppet, '--version'], capture_output=True, text=True, check=True).stdout.strip()


# --- interpreting puppet's output ----------------------------------------------------------------------
def normalise(text: str, paths: Dict[str, str]) -> str:
    """Puppet's text with colour codes removed and the temporary directories replaced by placeholders."""
    text = ANSI.sub('', text)
    text = text.replace(paths['environment'], ENVIRONMENT_PLACEHOLDER)
    return text.replace(paths['confdir'], CONFDIR_PLACEHOLDER)


def split_stderr(stderr: str) -> Dict[str, List[str]]:
    """Puppet's stderr lines grouped into errors and warnings (a message may span several lines)."""
    groups: Dict[str, List[str]] = {'Error': [], 'Warning': [], 'other': []}
    current: Optional[List[str]] = None
    for line in stderr.splitlines():
        match = re.match(r'^(Error|Warning): (.*)$', line)
        if match:
            current = groups[match.group(1)]
            current.append(match.group(2))
        elif current is not None and current:
            current[-1] += '\n' + line
        elif line.strip():
            groups['other'].append(line)
    return groups


EXPLAIN_HEADINGS = ('Searching for ', 'Using merge options from ', 'Invalid key ')
NOT_FOUND = 'Function lookup() did not find a value'


def silent_error(explain_text: str) -> Optional[str]:
    """The message of a LookupError that `puppet lookup` swallows (exit 1, nothing printed) but writes, unindented,
    at the end of its explanation; None when the explanation ends in the plain 'not found' message."""
    message: List[str] = []
    for line in reversed(explain_text.rstrip('\n').splitlines()):
        if not line.strip():
            continue
        if line[0].isspace() or line.startswith(EXPLAIN_HEADINGS):
            break
        message.insert(0, line)
    if not message or message[0].startswith(NOT_FOUND):
        return None
    return '\n'.join(message)


def interpret(case: dict, paths: Dict[str, str], plain: Dict[str, Any], explained: Optional[Dict[str, Any]]) -> dict:
    """The recorded answer for one case."""
    record: Dict[str, Any] = {}
    stderr = split_stderr(normalise(plain['stderr'], paths))
    if stderr['Warning']:
        record['warnings'] = stderr['Warning']
    if plain.get('timeout'):
        record['answer'] = {'status': 'timeout'}
    elif plain['rc'] == 0:
        record['answer'] = {'status': 'found', 'value': json.loads(plain['stdout'])}
    elif stderr['Error']:
        record['answer'] = {'status': 'error', 'message': '\n'.join(stderr['Error']), 'printed': True}
    else:
        message = silent_error(explained['text']) if explained else None
        record['answer'] = {'status': 'error', 'message': message, 'printed': False} if message \
            else {'status': 'not_found'}
        if plain['stdout'].strip() or stderr['other']:
            record['answer']['output'] = normalise(plain['stdout'], paths) + '\n'.join(stderr['other'])
    if explained is not None and case.get('explain'):
        record['explain_text'] = explained['text']
    return record


# --- the run -------------------------------------------------------------------------------------------
class Runner:
    def __init__(self, mode: str, jobs: int, puppet: str, timeout: float) -> None:
        self.mode, self.jobs, self.puppet, self.timeout = mode, jobs, puppet, timeout
        self.scratch = tempfile.mkdtemp(prefix='hiera-oracle-')

    def make_worker(self, number: int) -> Any:
        folder = os.path.join(self.scratch, 'worker-%d' % number)
        os.makedirs(folder)
        worker = CliWorker(self.puppet) if self.mode == 'cli' else ForkWorker(folder)
        worker.vardir = os.path.join(folder, 'var')   # puppet creates folders there: one per worker
        return worker

    def answer(self, worker: Any, case: dict, repository: dict, paths: Dict[str, str]) -> dict:
        paths = dict(paths, vardir=worker.vardir)
        plain = worker.run(lookup_argv(paths, repository['node'], case, False), self.timeout)
        explained = None
        if case.get('explain') or (plain['rc'] == 1 and 'Error:' not in plain['stderr']):
            # LookupErrors (bad hiera.yaml, unparsable data, ...) exit 1 silently; --explain shows them.
            run = worker.run(lookup_argv(paths, repository['node'], case, True), self.timeout)
            explained = {'text': normalise(run['stdout'], paths), 'rc': run['rc']}
        return interpret(case, paths, plain, explained)

    def run(self, repositories: Dict[str, dict], cases: List[dict], progress: bool) -> Dict[str, dict]:
        paths = {name: write_repository(os.path.join(self.scratch, 'repos', name), repository)
                 for name, repository in repositories.items()}
        todo: 'queue.Queue[dict]' = queue.Queue()
        for case in cases:
            todo.put(case)
        results: Dict[str, dict] = {}
        failures: List[BaseException] = []

        def work(number: int) -> None:
            try:
                worker = self.make_worker(number)
                while True:
                    try:
                        case = todo.get_nowait()
                    except queue.Empty:
                        break
                    repository = repositories[case['repository']]
                    results[case['id']] = self.answer(worker, case, repository, paths[case['repository']])
                    if progress and len(results) % 50 == 0:
                        print('  %d/%d' % (len(results), len(cases)), file=sys.stderr, flush=True)
                worker.close()
            except BaseException as exc:  # pylint: disable=broad-except  # reported by the main thread
                failures.append(exc)

        threads = [threading.Thread(target=work, args=(number,)) for number in range(self.jobs)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if failures:
            raise failures[0]
        return results

    def close(self) -> None:
        shutil.rmtree(self.scratch, ignore_errors=True)


# --- corpus --------------------------------------------------------------------------------------------
def build_questions(seed: int, generated: int, only: Optional[str]) -> Dict[str, Any]:
    repositories, cases = hiera_cases.hand_written()
    generated_repositories, generated_cases = hiera_generator.generate(seed, generated)
    repositories.update(generated_repositories)
    cases += generated_cases
    if only:
        cases = [case for case in cases if re.search(only, case['id'])]
        repositories = {name: repositories[name] for name in {case['repository'] for case in cases}}
    return {'repositories': repositories, 'cases': cases}


def write_corpus(path: str, meta: dict, questions: Dict[str, Any], results: Dict[str, dict]) -> None:
    cases = [dict(case, **results[case['id']]) for case in questions['cases']]
    corpus = {'meta': meta, 'repositories': questions['repositories'], 'cases': cases}
    with open(path, 'w', encoding='utf-8') as stream:
        json.dump(corpus, stream, indent=None, separators=(',', ':'), ensure_ascii=False, sort_keys=False)
        stream.write('\n')


def summary(questions: Dict[str, Any], results: Dict[str, dict]) -> str:
    counts: Dict[str, int] = {}
    for case in questions['cases']:
        status = results[case['id']]['answer']['status']
        counts[status] = counts.get(status, 0) + 1
    return ', '.join('%d %s' % (count, status) for status, count in sorted(counts.items()))


def feature_counts(questions: Dict[str, Any]) -> Dict[str, int]:
    """Cases per feature (a case has its own features and its repository's)."""
    counts: Dict[str, int] = {}
    for case in questions['cases']:
        repository = questions['repositories'][case['repository']]
        for feature in set(case['features']) | set(repository.get('features', [])):
            counts[feature] = counts.get(feature, 0) + 1
    return dict(sorted(counts.items()))


def check_corpus(corpus_path: str) -> int:
    """Compare the corpus file's questions with those this checkout generates from the recorded seed (no
    Puppet needed); the number of differences."""
    with open(corpus_path, encoding='utf-8') as stream:
        corpus = json.load(stream)
    meta = corpus['meta']
    questions = build_questions(meta['seed'], meta['generated_repositories'], None)
    recorded = [{field: value for field, value in case.items() if field not in ANSWER_FIELDS} for case in corpus['cases']]
    differences = [case['id'] for case, again in zip(recorded, questions['cases']) if case != again]
    if len(recorded) != len(questions['cases']):
        differences.append('case count %d != %d' % (len(recorded), len(questions['cases'])))
    if corpus['repositories'] != questions['repositories']:
        differences += [name for name in sorted(set(corpus['repositories']) | set(questions['repositories']))
                        if corpus['repositories'].get(name) != questions['repositories'].get(name)]
    print('%s: %d cases, %d repositories; %d differ from the questions this checkout generates %s'
          % (corpus_path, len(recorded), len(corpus['repositories']), len(differences), ' '.join(differences[:20])))
    return len(differences)


def verify_cli(corpus_path: str, count: int, only: Optional[str], puppet: str, timeout: float, jobs: int) -> int:
    """Re-ask `count` recorded cases (spread over the corpus, or over those whose id matches `only`) with
    real `puppet lookup` processes and compare; the number of differences."""
    with open(corpus_path, encoding='utf-8') as stream:
        corpus = json.load(stream)
    cases = [case for case in corpus['cases'] if not only or re.search(only, case['id'])]
    step = max(1, len(cases) // max(1, count))
    cases = cases[::step][:count]
    runner = Runner('cli', jobs, puppet, timeout)
    try:
        results = runner.run(corpus['repositories'], cases, progress=True)
    finally:
        runner.close()
    differences = [case['id'] for case in cases
                   if any(case.get(field) != results[case['id']].get(field) for field in ANSWER_FIELDS)]
    print('%d cases re-asked with `puppet lookup` processes: %d differ %s'
          % (len(cases), len(differences), ' '.join(differences)))
    return len(differences)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--seed', type=int, default=hiera_generator.DEFAULT_SEED)
    parser.add_argument('--generated', type=int, default=hiera_generator.DEFAULT_COUNT,
                        help='generated repositories (each asked several questions)')
    parser.add_argument('--jobs', type=int, default=2, help='puppet processes in parallel')
    parser.add_argument('--mode', choices=('fork', 'cli'), default='fork',
                        help='fork: one warm Ruby process per job (fast); cli: a `puppet` process per call')
    parser.add_argument('--only', help='only the cases whose id matches this regular expression')
    parser.add_argument('--out', default=DEFAULT_CORPUS, help='corpus file to write (default: %(default)s)')
    parser.add_argument('--timeout', type=float, default=120.0, help='seconds per puppet call')
    parser.add_argument('--show', action='store_true', help='print each answer instead of writing the corpus')
    parser.add_argument('--verify-cli', type=int, metavar='N',
                        help='re-ask N cases of the corpus file with real `puppet lookup` processes and compare')
    parser.add_argument('--check', action='store_true',
                        help='check that the corpus file holds the questions this checkout generates (no Puppet needed)')
    args = parser.parse_args()
    if args.check:
        return 1 if check_corpus(args.out) else 0
    puppet = shutil.which('puppet')
    if puppet is None:
        print('puppet is not installed (no `puppet` on PATH): the Hiera oracle is skipped. See README.md.')
        return 0
    if args.verify_cli:
        return 1 if verify_cli(args.out, args.verify_cli, args.only, puppet, args.timeout, args.jobs) else 0
    questions = build_questions(args.seed, args.generated, args.only)
    started = time.time()
    runner = Runner(args.mode, args.jobs, puppet, args.timeout)
    try:
        results = runner.run(questions['repositories'], questions['cases'], progress=not args.show)
    finally:
        runner.close()
    elapsed = time.time() - started
    if args.show:
        for case in questions['cases']:
            print(json.dumps(dict({'id': case['id'], 'key': case['key']}, **results[case['id']]), ensure_ascii=False))
    else:
        meta = {'puppet_version': puppet_version(puppet), 'seed': args.seed, 'generated_repositories': args.generated,
                'mode': args.mode, 'jobs': args.jobs, 'seconds': round(elapsed),
                'generated_at': time.strftime('%Y-%m-%d', time.gmtime()),
                'cases': len(questions['cases']),
                'hand_written_cases': sum(1 for case in questions['cases'] if case['id'].startswith('hand.')),
                'feature_counts': feature_counts(questions)}
        write_corpus(args.out, meta, questions, results)
    print('%d cases in %.0f s: %s' % (len(questions['cases']), elapsed, summary(questions, results)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
