# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The check job (plugin_utils/jobs/check_report.py, the strata.hier.check module and playbook): every node checked, its
findings as JSON, SARIF and text."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from ansible.parsing.dataloader import DataLoader
from ansible.parsing.vault import VaultLib, VaultSecret

from ansible_collections.strata.hier.plugins.module_utils.core.constraints import RULES
from ansible_collections.strata.hier.plugins.plugin_utils.jobs.check_report import (
    FINGERPRINT, check, failure, main, sarif, write_report,
)
from ansible_collections.strata.hier.plugins.plugin_utils.constraint_check import NodeChecks
from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy import HierarchyError
from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy_cache import get_hierarchy
from ansible_collections.strata.hier.tests.unit.plugins.fresh_process import COLLECTIONS_ROOT
from ansible_collections.strata.hier.tests.unit.plugins.readme_project import GUARDED_FILES, README_FILES, write
from ansible_collections.strata.hier.tests.unit.plugins.vault_context import secrets_context

# (host, path, rule, file, line, protected, declared line): the README guarded project's five seeded violations
EXPECTED = [
    ('db01', 'db_password', 'vault', 'data/roles/db.yml', 4, None, 16),
    ('db01', 'ntp/makestep', 'final', 'data/roles/db.yml', 3, {'file': 'data/common.yml', 'line': 4}, 11),
    ('db01', 'packages', 'protect_items', 'data/nodes/db01.yml', 3, {'file': 'data/common.yml', 'line': 1}, 12),
    ('web01', 'ntp/servers', 'owners', 'data/roles/web.yml', 4, None, 17),
    ('web01', 'session_timeout', 'tighten', 'data/roles/web.yml', 2, {'file': 'data/common.yml', 'line': 5}, 13),
]
WARN_ONLY = dict(README_FILES, **{
    'hier.yml': README_FILES['hier.yml'] + 'constraints:\n  ntp/makestep: {final: true, severity: warn}\n'})
PASSWORD = b'check-job-password'
SECRETS = ('Plain-Common-Secret', 'Plain-Role-Secret')


def written(path):
    with open(path, encoding='utf-8') as stream:
        return stream.read()


def reports(root, source=None, loader=None):
    report = check(str(root), source, loader)
    paths = write_report(report, str(root / 'out'))
    return report, json.loads(written(paths[0])), json.loads(written(paths[1])), written(paths[2])


def summary_of(findings):
    return [(finding['host'], finding['path'], finding['rule'], finding['file'], finding['line'], finding['protected'],
             finding['declared']['line']) for finding in findings]


def test_the_readme_guarded_project_gives_its_five_findings_as_json(tmp_path):
    write(tmp_path, GUARDED_FILES)
    report, document, _sarif, _text = reports(tmp_path)
    assert summary_of(document['findings']) == EXPECTED
    assert {finding['declared']['file'] for finding in document['findings']} == {'hier.yml'}
    given = NodeChecks(get_hierarchy(str(tmp_path / 'hier.yml'), DataLoader())).findings
    in_order = sorted(given, key=lambda item: (item['host'], item['path'], item['rule']))
    assert document['findings'] == json.loads(json.dumps(in_order))
    assert document['summary'] == {'hosts_checked': 2, 'findings': 5, 'errors': 5, 'warnings': 0, 'problems': 0}
    assert document['schema'] == 'strata.hier/check/v1' and document['config'] == 'hier.yml'
    assert failure(report) == '5 error findings'


def test_the_sarif_log_locates_each_finding_at_its_data_line(tmp_path):
    write(tmp_path, GUARDED_FILES)
    report, document, log, _text = reports(tmp_path)
    assert log['$schema'].endswith('sarif-schema-2.1.0.json') and log['version'] == '2.1.0'
    run, = log['runs']
    driver = run['tool']['driver']
    assert driver['name'] == 'strata.hier' and driver['informationUri'].startswith('https://')
    assert [rule['id'] for rule in driver['rules']] == list(RULES)
    assert all(rule['shortDescription']['text'] and rule['help']['text'] for rule in driver['rules'])
    assert run['invocations'] == [{'executionSuccessful': True, 'toolExecutionNotifications': []}]
    assert len(run['results']) == 5
    for result, finding in zip(run['results'], document['findings']):
        assert driver['rules'][result['ruleIndex']]['id'] == result['ruleId'] == finding['rule']
        assert result['level'] == 'error' and result['message']['text'] == finding['message']
        location, = result['locations']
        uri = location['physicalLocation']['artifactLocation']['uri']
        assert uri == finding['file'] and not os.path.isabs(uri) and '\\' not in uri and (tmp_path / uri).is_file()
        assert location['physicalLocation']['region'] == {'startLine': finding['line']}
        related = {item['message']['text']: (item['physicalLocation']['artifactLocation']['uri'],
                                             item['physicalLocation']['region']['startLine'])
                   for item in result['relatedLocations']}
        assert related.pop('the constraint') == ('hier.yml', finding['declared']['line'])
        assert related == ({'the protected value': (finding['protected']['file'], finding['protected']['line'])}
                           if finding['protected'] else {})
    fingerprints = [result['partialFingerprints'][FINGERPRINT] for result in run['results']]
    assert len(set(fingerprints)) == 5
    assert sarif(report) == log


def test_the_text_has_a_line_per_finding_then_the_totals(tmp_path):
    write(tmp_path, GUARDED_FILES)
    _report, document, _log, text = reports(tmp_path)
    lines = text.splitlines()
    assert lines[:-1] == ['%s:%d: error: %s' % (finding['file'], finding['line'], finding['message'])
                          for finding in document['findings']]
    assert lines[0].startswith("data/roles/db.yml:4: error: 'vault' violated for db_password on db01: ")
    assert lines[-1] == ('strata.hier check: 5 findings (5 errors, 0 warnings) on 2 hosts checked, 0 nodes not '
                         'checked: failed')


def test_fingerprints_stay_when_lines_move_and_paths_are_relative_to_the_job_folder(tmp_path):
    store = tmp_path / 'store'
    write(store, GUARDED_FILES)
    (tmp_path / 'nodes.hier.yml').write_text('plugin: strata.hier.hier\nconfig: store/hier.yml\n')
    _report, document, log, text = reports(tmp_path, 'nodes.hier.yml')
    assert document['config'] == 'store/hier.yml'
    assert [finding['file'] for finding in document['findings']][:2] == ['data/roles/db.yml'] * 2     # as given
    results = log['runs'][0]['results']
    assert [result['locations'][0]['physicalLocation']['artifactLocation']['uri'] for result in results] == [
        'store/' + expected[3] for expected in EXPECTED]
    assert results[0]['relatedLocations'][0]['physicalLocation']['artifactLocation']['uri'] == 'store/hier.yml'
    assert text.startswith('store/data/roles/db.yml:4: error: ')
    db = store / 'data' / 'roles' / 'db.yml'
    db.write_text('# a comment moves every line\n' + db.read_text())
    _report, _document, moved, _text = reports(tmp_path, 'nodes.hier.yml')
    lines = [result['locations'][0]['physicalLocation']['region']['startLine'] for result in moved['runs'][0]['results']]
    assert lines[:2] == [5, 4]
    assert [result['partialFingerprints'] for result in moved['runs'][0]['results']] == [
        result['partialFingerprints'] for result in results]


def test_a_required_path_no_level_sets_is_located_at_the_constraint(tmp_path):
    files = dict(README_FILES, **{'hier.yml': README_FILES['hier.yml'] + 'constraints:\n  owner: {required: true}\n'})
    write(tmp_path, files)
    _report, document, log, text = reports(tmp_path)
    assert [(finding['host'], finding['file'], finding['line']) for finding in document['findings']] == [
        ('db01', None, None), ('web01', None, None)]
    location = log['runs'][0]['results'][0]['locations'][0]['physicalLocation']
    assert location == {'artifactLocation': {'uri': 'hier.yml'}, 'region': {'startLine': 11}}
    assert text.startswith("hier.yml:11: error: 'required' violated for owner on db01: ")


def test_warnings_alone_pass_and_say_so(tmp_path, monkeypatch, capsys):
    write(tmp_path, WARN_ONLY)
    report, document, log, text = reports(tmp_path)
    assert document['summary'] == {'hosts_checked': 2, 'findings': 1, 'errors': 0, 'warnings': 1, 'problems': 0}
    assert failure(report) is None
    assert log['runs'][0]['results'][0]['level'] == 'warning'
    assert text.startswith("data/roles/db.yml:3: warn: 'final' violated for ntp/makestep on db01: ")
    assert text.splitlines()[-1].endswith('1 finding (0 errors, 1 warning) on 2 hosts checked, 0 nodes not checked: '
                                          'passed with warnings')
    monkeypatch.chdir(str(tmp_path))
    assert main(['--out', 'cli']) == 0
    assert 'passed with warnings' in capsys.readouterr().out
    write(tmp_path, GUARDED_FILES)
    assert main(['--out', 'cli']) == 1
    assert len(json.loads((tmp_path / 'cli' / 'check.json').read_text())['findings']) == 5


def test_a_node_that_cannot_be_checked_fails_the_job(tmp_path):
    write(tmp_path, dict(WARN_ONLY, **{'data/nodes/x01.yml': 'NodeName: x01\nRole: {a: 1}\n'}))
    report, document, log, text = reports(tmp_path)
    assert document['summary']['problems'] == 1 and document['summary']['hosts_checked'] == 2
    problem, = document['problems']
    assert problem.startswith('data/nodes/x01.yml: ') and "variable 'Role' is a map, not a name" in problem
    assert failure(report) == '1 node not checked'
    invocation, = log['runs'][0]['invocations']
    assert invocation['executionSuccessful'] is False
    assert invocation['toolExecutionNotifications'] == [{'level': 'error', 'message': {'text': problem}}]
    assert 'error: not checked: %s\n' % problem in text and text.rstrip().endswith(': failed')


def test_sources_it_cannot_check(tmp_path):
    with pytest.raises(HierarchyError, match='strata.hier check: no hier.yml or Datum.yml in .*: give source='):
        check(str(tmp_path))
    (tmp_path / 'hiera.yaml').write_text('version: 5\nhierarchy: [{name: common, path: common.yaml}]\n')
    with pytest.raises(HierarchyError, match="hiera.yaml: constraints are read from hier.yml and Datum.yml; Hiera's "
                                             "convert_to is checked by the lookup"):
        check(str(tmp_path), 'hiera.yaml')
    (tmp_path / 'nodes.hier.yml').write_text('plugin: strata.hier.hier\n')
    with pytest.raises(HierarchyError, match='strata.hier check: the inventory source .*nodes.hier.yml names no config'):
        check(str(tmp_path), 'nodes.hier.yml')


def _vault(plain, indent=''):
    """``!vault |`` and the ciphertext's lines, indented below it."""
    ciphertext = VaultLib([('default', VaultSecret(PASSWORD))]).encrypt(plain).decode()
    return '!vault |\n%s' % ''.join('%s  %s\n' % (indent, line) for line in ciphertext.splitlines())


def test_no_report_holds_a_vault_value_s_text(tmp_path):
    files = dict(README_FILES, **{
        'hier.yml': README_FILES['hier.yml'] + 'constraints:\n  token: {final: true}\n  ntp/servers: {owners: [common]}\n',
        'data/common.yml': README_FILES['data/common.yml'] + 'token: ' + _vault(SECRETS[0]),
        'data/roles/db.yml': 'token: %sntp:\n  servers:\n    - %s' % (_vault(SECRETS[1]), _vault(SECRETS[1], '    '))})
    write(tmp_path, files)
    loader = DataLoader()
    loader.set_vault_secrets([('default', VaultSecret(PASSWORD))])
    with secrets_context([('default', VaultSecret(PASSWORD))]):
        _report, document, log, text = reports(tmp_path, loader=loader)
    assert [(finding['host'], finding['rule'], finding['value']) for finding in document['findings']] == [
        ('db01', 'owners', ['<vault value>']), ('db01', 'final', '<vault value>')]
    for shown in (json.dumps(document), json.dumps(log), text):
        assert not any(secret in shown for secret in SECRETS)


def test_the_playbook_fails_on_errors_after_writing_the_reports_and_passes_on_warnings(tmp_path):
    # ansible-playbook of the ansible-core under test (the venv of ansible-test units may have no script of it)
    environment = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=COLLECTIONS_ROOT, ANSIBLE_NOCOLOR='true',
                       ANSIBLE_INVENTORY_ENABLED='host_list', PYTHONPATH=os.pathsep.join(path for path in sys.path if path))
    command = [sys.executable, '-m', 'ansible.cli.playbook', '-i', 'localhost,', 'strata.hier.check', '-e', 'out=report']
    write(tmp_path, GUARDED_FILES)
    run = subprocess.run(command, cwd=str(tmp_path), env=environment, capture_output=True, text=True, check=False)
    assert run.returncode == 2, run.stdout + run.stderr
    assert 'strata.hier.check: 5 error findings (see report/check.txt)' in run.stdout + run.stderr
    assert "data/roles/web.yml:2: error: 'tighten' violated for session_timeout on web01" in run.stdout
    document = json.loads((tmp_path / 'report' / 'check.json').read_text())
    assert summary_of(document['findings']) == EXPECTED
    assert len(json.loads((tmp_path / 'report' / 'check.sarif').read_text())['runs'][0]['results']) == 5
    write(tmp_path, WARN_ONLY)
    run = subprocess.run(command, cwd=str(tmp_path), env=environment, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert 'passed with warnings' in run.stdout and 'failed=0' in run.stdout
