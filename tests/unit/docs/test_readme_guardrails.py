# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The README's guardrails section (issue 30) adds exactly the lines the tests' GUARDED_FILES add to its first
project, so that what the tests and readme_first_project check is what a reader copies."""

from __future__ import annotations

import os
import re

from ansible_collections.strata.hier.tests.unit.plugins.readme_project import GUARDED_FILES, README_FILES

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
ADDED = re.compile(r'^```yaml\n# (\S+) \(added\)\n(.*?)^```\n', re.MULTILINE | re.DOTALL)


def readme_additions():
    with open(os.path.join(ROOT, 'README.md'), encoding='utf-8') as stream:
        text = stream.read()
    section = text[text.index('### Guardrails'):text.index('### Where to go next')]
    return dict(ADDED.findall(section))


def without_comments(text):
    """The lines as YAML reads them: trailing comments and spacing before them dropped."""
    return [re.sub(r'\s+#.*$', '', line) for line in text.splitlines() if line.strip()]


def test_the_readme_adds_what_the_guarded_project_adds():
    added = readme_additions()
    assert sorted(added) == sorted(name for name in GUARDED_FILES if GUARDED_FILES[name] != README_FILES[name])
    for name, body in added.items():
        assert without_comments(body) == without_comments(GUARDED_FILES[name][len(README_FILES[name]):]), name
