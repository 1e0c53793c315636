# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""A script run in a fresh Python process, as an ansible-playbook worker starts (what is imported or registered
there is what every forked worker pays for), and a small store for it to read."""

from __future__ import annotations

import json
import os
import subprocess
import sys

COLLECTIONS_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), *['..'] * 6))
"""The folder holding ansible_collections/strata/hier: the script's first argument."""


def run_fresh(script, *arguments, environment=None):
    """Run ``script`` with ``COLLECTIONS_ROOT`` and ``arguments`` as its arguments; return the JSON it prints last."""
    environment = dict(os.environ if environment is None else environment,
                       PYTHONPATH=os.pathsep.join(path for path in sys.path if path))
    output = subprocess.run([sys.executable, '-c', script, COLLECTIONS_ROOT] + [str(item) for item in arguments],
                            env=environment, capture_output=True, text=True, check=True).stdout
    return json.loads(output.splitlines()[-1])


def write_role_store(root, packages_rule, common='[base]', web='[nginx]'):
    """A hier.yml over roles/%{role} and common, with a rule for Packages; return the hier.yml's path."""
    (root / 'data' / 'roles').mkdir(parents=True)
    (root / 'hier.yml').write_text('datadir: data\nhierarchy: ["roles/%%{role}", common]\n'
                                   'lookup_options:\n  Packages: %s\n' % packages_rule)
    (root / 'data' / 'common.yml').write_text('Packages: %s\n' % common)
    (root / 'data' / 'roles' / 'web.yml').write_text('Packages: %s\n' % web)
    return str(root / 'hier.yml')
