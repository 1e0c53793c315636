#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

DOCUMENTATION = r"""
module: check
short_description: Every node of a hierarchy checked against its constraints, as JSON, SARIF and text
version_added: 1.1.0
author: Strata maintainers (@strata-hier)
extends_documentation_fragment:
  - strata.hier.job
description:
  - Reads a hierarchy (C(hier.yml) or C(Datum.yml)), makes its hosts as the P(strata.hier.hier#inventory) inventory
    plugin does (the configuration's C(nodes)), checks every one against the configuration's C(constraints)
    (C(Constraints) in C(Datum.yml)), and writes C(check.json), C(check.sarif) and C(check.txt) to O(out).
  - Each finding names the host, the key path, the rule, the offending C(file:line) and value, the protected
    C(file:line) where there is one, and the constraint's own line in the configuration.
  - C(check.sarif) is a SARIF 2.1.0 log for code scanning (GitHub's C(upload-sarif), GitLab); each result is located
    at the data line that breaks the rule (a required path no level sets, at the constraint's line), relative to the
    current folder, so a pull request is annotated there.
  - The task fails when a finding of severity C(error) exists or a node could not be checked (its levels cannot be
    expanded, its name is refused), after the reports are written. Findings of severity C(warn) alone pass; the
    summary and the task's message say so.
  - Vault values are never shown (a finding's value holds a marker in their place).
  - Runs on the controller only (an action plugin); the collection playbook C(strata.hier.check) wraps it.
options:
  source:
    description:
      - The configuration (C(hier.yml), C(Datum.yml)) or an inventory source (C(*.hier.yml)) naming it, relative to
        the current folder. Without it, the C(hier.yml) or C(Datum.yml) in the current folder.
      - A C(hiera.yaml) is refused for now; constraints are read from C(hier.yml) and C(Datum.yml), and Hiera's
        C(convert_to) is checked by the P(strata.hier.hier#lookup) lookup.
    type: str
  out:
    description: The folder for C(check.json), C(check.sarif) and C(check.txt), relative to the current folder.
    type: path
    default: check
notes:
  - Run it in the data repository's top folder, so that the SARIF's paths are relative to the repository.
seealso:
  - module: strata.hier.rsop_diff
  - plugin: strata.hier.hier
    plugin_type: inventory
"""

EXAMPLES = r"""
- name: Check every node against the constraints
  strata.hier.check:
    source: inventory/nodes.hier.yml
    out: check
  register: checked

- name: Fail on warnings too (findings of severity error already fail the task)
  ansible.builtin.fail:
    msg: "{{ checked.summary.warnings }} warnings on {{ checked.summary.hosts_checked }} hosts"
  when: checked.summary.warnings > 0
"""

RETURN = r"""
summary:
  description: The report's counts.
  returned: always
  type: dict
  contains:
    hosts_checked: {description: Hosts checked., type: int}
    findings: {description: Findings over all hosts., type: int}
    errors: {description: Findings of severity C(error)., type: int}
    warnings: {description: Findings of severity C(warn)., type: int}
    problems: {description: Nodes that could not be checked., type: int}
json:
  description: >-
    The path of C(check.json) (schema C(strata.hier/check/v1): C(config), C(summary), C(findings) and C(problems);
    see the collection's C(docs/constraints.md)).
  returned: always
  type: str
sarif:
  description: The path of C(check.sarif).
  returned: always
  type: str
text:
  description: >-
    The path of C(check.txt): one line per finding (C(file:line: severity: message)), each node not checked, then the
    totals.
  returned: always
  type: str
"""
