#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

DOCUMENTATION = r"""
module: rsop_diff
short_description: What a data change does to every host, between two git refs, with the lines that cause it
version_added: 1.1.0
author: Strata maintainers (@strata-hier)
extends_documentation_fragment:
  - strata.hier.job
description:
  - Reads a hierarchy (C(hier.yml) or C(Datum.yml)) at two git refs of its repository, computes every host's
    resultant set of data at both (hosts as the P(strata.hier.hier#inventory) inventory plugin makes them from the
    configuration's C(nodes)), and writes C(rsop-diff.json) and C(rsop-diff.md) (a pull-request comment) to O(out).
  - Each change (a key path added, removed, changed, or a list reordered) names the changed lines of the data behind
    it, through provenance, or a named cause (the configuration changed, the host's level paths changed, a node or
    level file was added or removed). List items are matched by identity (tuple keys for hash arrays), so an item
    moved between files without changing the merged value is no change. Hosts with the same changes are grouped.
  - Edits with no effect on some hosts (shadowed there by a more specific value) are listed with those hosts and
    what shadows them; edits with no effect at all are dead edits.
  - Vault values are compared by ciphertext, or when the run has their vault password by a keyed hash of their plain
    text, and are shown as C((secret)); data of a whole-file vaulted file is shown as C((withheld)). Nothing in the
    report is a secret.
  - The work tree is never touched (each ref is read from C(git archive)). Only hosts whose levels can read a changed
    file are merged again (every host when the configuration changed, or for a C(Datum.yml) store).
  - Runs on the controller only (an action plugin); the collection playbook C(strata.hier.rsop_diff) wraps it.
options:
  base:
    description: The git ref to compare with, such as V(origin/main) or a commit.
    type: str
    required: true
  head:
    description: The git ref to compare. Without it, the work tree as it is (untracked files included).
    type: str
  source:
    description:
      - The configuration (C(hier.yml), C(Datum.yml)) or an inventory source (C(*.hier.yml)) naming it, relative to
        O(repo). Without it, the C(hier.yml) or C(Datum.yml) in O(repo).
    type: str
  repo:
    description: A folder of the repository's work tree. Without it, the current folder.
    type: path
  out:
    description: The folder for C(rsop-diff.json) and C(rsop-diff.md), relative to the current folder.
    type: path
    default: rsop-diff
  fail_if:
    description:
      - Summary counts that fail the task when above 0 (the report is written first).
      - By default a host whose data could not be merged at a ref fails the task (its changes would be missing from
        the report); V([]) reports such errors without failing.
    type: list
    elements: str
    choices: [hosts_changed, values_changed, errors, shadowed_edits, dead_edits]
    default: [errors]
notes:
  - Needs C(git) on the controller.
seealso:
  - plugin: strata.hier.hier
    plugin_type: lookup
"""

EXAMPLES = r"""
- name: What the pull request changes, for every host
  strata.hier.rsop_diff:
    base: origin/main
    out: rsop-diff
    fail_if: [errors]
  register: diff

- name: Say it
  ansible.builtin.debug:
    msg: "{{ diff.summary.hosts_changed }} of {{ diff.summary.hosts_total }} hosts change"
"""

RETURN = r"""
summary:
  description: The report's summary.
  returned: always
  type: dict
  contains:
    hosts_total: {description: Hosts at either ref., type: int}
    hosts_changed: {description: Hosts whose data changes (added and removed hosts included)., type: int}
    values_changed: {description: Changes over all hosts., type: int}
    errors: {description: Hosts whose data could not be merged at a ref., type: int}
    shadowed_edits: {description: Changed lines with no effect on some hosts., type: int}
    dead_edits: {description: Changed lines with no effect on any host., type: int}
    hosts_recomputed: {description: Hosts merged again (those a changed file can reach)., type: int}
json:
  description: The path of C(rsop-diff.json) (schema C(strata.hier/rsop-diff/v1), see the collection's C(docs/rsop.md)).
  returned: always
  type: str
markdown:
  description: The path of C(rsop-diff.md).
  returned: always
  type: str
"""
