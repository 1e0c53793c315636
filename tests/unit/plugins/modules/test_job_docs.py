# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The job modules' documentation: what they share comes from the ``strata.hier.job`` doc fragment, written once,
and each documents the options its action plugin checks."""

from __future__ import annotations

import importlib
import itertools
import os

import pytest
import yaml
from ansible.plugins.loader import fragment_loader
from ansible.utils.plugin_docs import get_docstring

JOBS = ('check', 'rsop_diff', 'eyaml_to_vault')
MODULES = os.path.join(os.path.dirname(__file__), '..', '..', '..', '..', 'plugins', 'modules')
FRAGMENT = importlib.import_module('ansible_collections.strata.hier.plugins.doc_fragments.job').ModuleDocFragment


def _written(job):
    """The module's DOCUMENTATION as written, without its fragments."""
    module = importlib.import_module('ansible_collections.strata.hier.plugins.modules.%s' % job)
    return yaml.safe_load(module.DOCUMENTATION)


def _rendered(job):
    """The module's documentation as ansible-doc shows it, its fragments added."""
    return get_docstring(os.path.join(MODULES, job + '.py'), fragment_loader, collection_name='strata.hier',
                         is_module=True)[0]


def test_no_note_is_written_in_two_job_modules():
    notes = {job: set(_written(job).get('notes', ())) for job in JOBS}
    shared = [(one, two, note) for one, two in itertools.combinations(JOBS, 2) for note in notes[one] & notes[two]]
    assert shared == []


@pytest.mark.parametrize('job', JOBS)
def test_each_job_module_shows_the_fragments_notes_and_documents_its_actions_options(job):
    doc = _rendered(job)
    for note in yaml.safe_load(FRAGMENT.DOCUMENTATION)['notes']:
        assert doc['notes'].count(note) == 1
    action = importlib.import_module('ansible_collections.strata.hier.plugins.action.%s' % job).ActionModule
    assert {name: spec['type'] for name, spec in doc['options'].items()} == \
        {name: spec['type'] for name, spec in action.ARGUMENT_SPEC.items()}
