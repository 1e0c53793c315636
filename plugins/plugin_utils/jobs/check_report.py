# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The check job (``strata.hier.check``): every node of a hierarchy checked against its constraints
(``constraint_check.NodeChecks``), written as ``check.json``, ``check.sarif`` (SARIF 2.1.0, each result at the data
line, for code scanning) and ``check.txt`` (docs/constraints.md, "The check job").

Findings keep their files relative to the configuration's folder in the JSON, as every finding does; the SARIF and
the text locate them relative to the folder the job runs in (the repository's top), where code scanning and
editors look for them. Values are never shown but as the findings carry them (vault values as markers).
"""

from __future__ import annotations

import hashlib
import json
import os
import posixpath
from typing import Any, Dict, List, Optional, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.constraints import RULES
from ansible_collections.strata.hier.plugins.module_utils.core.identity import opaque_identity
from ansible_collections.strata.hier.plugins.plugin_utils.config_path import is_hiera_config_file
from ansible_collections.strata.hier.plugins.plugin_utils.constraint_check import NodeChecks
from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy import HierarchyError
from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy_cache import get_hierarchy
from ansible_collections.strata.hier.plugins.plugin_utils.jobs.repository import command_line_loader, config_in
from ansible_collections.strata.hier.plugins.plugin_utils.source_lines import file_line

SCHEMA = 'strata.hier/check/v1'
JOB = 'strata.hier check'
SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/os/schemas/sarif-schema-2.1.0.json'
INFORMATION_URI = 'https://github.com/strata-hier/strata.hier'
FINGERPRINT = 'strataHierFinding/v1'
"""The key of a result's partial fingerprint: host, path, rule and file, the same from run to run whatever the line."""
RULE_TEXTS = {
    'type': ('The value has the constraint\'s type',
             'The merged value, and what each level writes, match the constraint\'s type (a JSON Schema subset).'),
    'final': ('A final value is not changed by a more specific level',
              'The least specific level that sets the path fixes it; a more specific level may not change it or knock '
              'it out.'),
    'tighten': ('The value only moves the way the constraint allows',
                'Along a node\'s levels, least specific first, each level that sets the path may only decrease, '
                'increase, shrink (subset) or grow (superset) the value.'),
    'owners': ('Only the owners set the path',
               'Only the levels (as written in the hierarchy) or the files (globs) the constraint names may set the '
               'path.'),
    'protect_items': ('Protected items stay',
                      'No level knocks out or drops an item the constraint protects.'),
    'required': ('The path has a value', 'Every node has a value at the path, not knocked out.'),
    'vault': ('The value is a vault value', 'The value must be a vault value: never written in plain text.'),
}
HIERA = 'constraints are read from hier.yml and Datum.yml; Hiera\'s convert_to is checked by the lookup'
NAMES = ('check.json', 'check.sarif', 'check.txt')


def check(folder: str, source: Optional[str] = None, loader: Any = None) -> Dict[str, Any]:
    """The report of every node of the configuration ``source`` (relative to ``folder``; an inventory source naming
    it, or by default the hier.yml or Datum.yml of ``folder``), its files located relative to ``folder``."""
    loader = command_line_loader(None) if loader is None else loader
    config = config_in(folder, folder, source, JOB)
    path = os.path.join(folder, config)
    if is_hiera_config_file(path):
        raise HierarchyError('%s: %s: %s' % (JOB, config, HIERA))
    return build_report(NodeChecks(get_hierarchy(path, loader)), config)


def build_report(checks: Any, config: str) -> Dict[str, Any]:
    """``{schema, config, summary, findings, problems}``: the findings as NodeChecks gives them, sorted by host, key
    path and rule; ``config`` relative to the folder the job runs in."""
    findings = sorted(checks.findings, key=lambda finding: (finding['host'], finding['path'], finding['rule']))
    errors = sum(1 for finding in findings if finding['severity'] == 'error')
    summary = {'hosts_checked': len(checks.hosts), 'findings': len(findings), 'errors': errors,
               'warnings': len(findings) - errors, 'problems': len(checks.problems)}
    return {'schema': SCHEMA, 'config': config.replace(os.sep, '/'), 'summary': summary, 'findings': findings,
            'problems': list(checks.problems)}


def failure(report: Dict[str, Any]) -> Optional[str]:
    """Why the job fails (error findings, nodes not checked), or None: warnings alone pass."""
    summary = report['summary']
    reasons = ['%d error finding%s' % (summary['errors'], _plural(summary['errors']))] if summary['errors'] else []
    if summary['problems']:
        reasons.append('%d node%s not checked' % (summary['problems'], _plural(summary['problems'])))
    return ', '.join(reasons) or None


def _plural(count: int) -> str:
    return '' if count == 1 else 's'


def in_repo(report: Dict[str, Any], file: str) -> str:
    """A file of a finding (relative to the configuration's folder) relative to the job's folder, with slashes."""
    return posixpath.normpath(posixpath.join(posixpath.dirname(report['config']), file.replace(os.sep, '/')))


def location(report: Dict[str, Any], finding: Dict[str, Any]) -> Tuple[str, Optional[int]]:
    """Where a finding is shown: the data line, else (no level sets a required path) the constraint's line."""
    place = finding if finding.get('file') else finding['declared']
    return in_repo(report, place['file']), place.get('line')


def sarif(report: Dict[str, Any]) -> Dict[str, Any]:
    """The report as a SARIF 2.1.0 log: one run, a rule per kind of constraint, a result per finding."""
    driver = {'name': 'strata.hier', 'informationUri': INFORMATION_URI, 'rules': [_rule(name) for name in RULES]}
    invocation = {'executionSuccessful': not report['problems'],
                  'toolExecutionNotifications': [{'level': 'error', 'message': {'text': problem}}
                                                 for problem in report['problems']]}
    run = {'tool': {'driver': driver}, 'invocations': [invocation],
           'results': [_result(report, finding) for finding in report['findings']]}
    return {'$schema': SARIF_SCHEMA, 'version': '2.1.0', 'runs': [run]}


def _rule(name: str) -> Dict[str, Any]:
    short, full = RULE_TEXTS[name]
    return {'id': name, 'name': name, 'shortDescription': {'text': short}, 'fullDescription': {'text': full},
            'help': {'text': '%s See docs/constraints.md of the strata.hier collection.' % full},
            'defaultConfiguration': {'level': 'error'}}


def _result(report: Dict[str, Any], finding: Dict[str, Any]) -> Dict[str, Any]:
    uri, line = location(report, finding)
    fingerprint = '\0'.join((finding['host'], finding['path'], finding['rule'], uri))
    result = {'ruleId': finding['rule'], 'ruleIndex': RULES.index(finding['rule']),
              'level': 'error' if finding['severity'] == 'error' else 'warning',
              'message': {'text': finding['message']},
              'locations': [{'physicalLocation': _physical(uri, line)}],
              'partialFingerprints': {FINGERPRINT: hashlib.sha256(fingerprint.encode('utf-8')).hexdigest()},
              'properties': {'host': finding['host'], 'path': finding['path'], 'severity': finding['severity']}}
    related = [(place, text) for place, text in ((finding.get('protected'), 'the protected value'),
                                                 (finding.get('declared'), 'the constraint'))
               if place and place.get('file')]
    if related:
        result['relatedLocations'] = [
            {'id': index, 'physicalLocation': _physical(in_repo(report, place['file']), place.get('line')),
             'message': {'text': text}} for index, (place, text) in enumerate(related, 1)]
    return result


def _physical(uri: str, line: Optional[int]) -> Dict[str, Any]:
    physical: Dict[str, Any] = {'artifactLocation': {'uri': uri}}
    if line:
        physical['region'] = {'startLine': line}
    return physical


def text(report: Dict[str, Any]) -> str:
    """``file:line: severity: message`` per finding, each node not checked, then the totals."""
    lines = []
    for finding in report['findings']:
        uri, line = location(report, finding)
        lines.append('%s: %s: %s' % (file_line(uri, line), finding['severity'], finding['message']))
    lines.extend('error: not checked: %s' % problem for problem in report['problems'])
    summary, failed = report['summary'], failure(report)
    lines.append('%s: %d finding%s (%d error%s, %d warning%s) on %d host%s checked, %d node%s not checked: %s' % (
        JOB, summary['findings'], _plural(summary['findings']), summary['errors'], _plural(summary['errors']),
        summary['warnings'], _plural(summary['warnings']), summary['hosts_checked'],
        _plural(summary['hosts_checked']), summary['problems'], _plural(summary['problems']),
        'failed' if failed else 'passed with warnings' if summary['warnings'] else 'passed'))
    return '\n'.join(lines) + '\n'


def write_report(report: Dict[str, Any], out: str) -> Tuple[str, str, str]:
    """``out/check.json``, ``out/check.sarif`` and ``out/check.txt``; their paths."""
    os.makedirs(out, exist_ok=True)
    paths = tuple(os.path.join(out, name) for name in NAMES)
    for path, document in zip(paths[:2], (report, sarif(report))):
        with open(path, 'w', encoding='utf-8') as stream:
            json.dump(document, stream, indent=1, sort_keys=True, default=_shown)
            stream.write('\n')
    with open(paths[2], 'w', encoding='utf-8') as stream:
        stream.write(text(report))
    return paths[0], paths[1], paths[2]


def _shown(value: Any) -> str:
    """What json cannot write: never a vault value's text (a finding's values hold markers already)."""
    return '<vault value>' if opaque_identity(value) is not None else str(value)


def main(argv: Optional[List[str]] = None) -> int:
    """CI without a play: ``python -m ansible_collections.strata.hier.plugins.plugin_utils.jobs.check_report`` (the
    collection's parent folder on PYTHONPATH) writes the reports, prints the text, and exits 1 when the check fails, 2
    on an error. No inventory is read, so it runs where the inventory plugin refuses the same data."""
    import argparse
    import sys
    from ansible.errors import AnsibleError
    from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeError
    parser = argparse.ArgumentParser(prog='check', description='Every node checked against the constraints.')
    parser.add_argument('--source', default=None, help='hier.yml, Datum.yml or a *.hier.yml inventory source')
    parser.add_argument('--out', default='check', help='folder for check.json, check.sarif and check.txt')
    parser.add_argument('--vault-password-file', default=None)
    options = parser.parse_args(argv)
    try:
        report = check(os.getcwd(), options.source, command_line_loader(options.vault_password_file))
    except (AnsibleError, MergeError) as exc:
        sys.stderr.write('%s\n' % exc)
        return 2
    write_report(report, options.out)
    sys.stdout.write(text(report))
    return 1 if failure(report) else 0


if __name__ == '__main__':
    raise SystemExit(main())
