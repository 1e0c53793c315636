# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""README.md's first project (hier.yml and the data files, as written there) and a writer of such files."""

from __future__ import annotations

import os

README_FILES = {
    'hier.yml': 'datadir: data\nhierarchy:                  # most specific first\n  - "nodes/%{NodeName}"\n'
                '  - "roles/%{Role}"\n  - "common"\nnodes: "nodes/*"            # every node file is a host\n'
                'lookup_options:\n  packages: Unique          # the union of every level\'s list\n'
                '  ntp: deep                 # maps merged key by key\n',
    'data/common.yml': 'packages: [openssh-server, chrony]\nntp:\n  servers: [0.pool.ntp.org, 1.pool.ntp.org]\n'
                       '  makestep: "1.0 3"\n',
    'data/roles/web.yml': 'packages: [nginx]\n',
    'data/roles/db.yml': 'packages: [postgresql]\nntp:\n  makestep: "0.1 -1"\n',
    'data/nodes/web01.yml': 'NodeName: web01\nRole: web\n',
    'data/nodes/db01.yml': 'NodeName: db01\nRole: db\npackages: [--chrony, ntpsec]   # --chrony knocks chrony out\n',
}
DB01 = {'inventory_hostname': 'db01', 'NodeName': 'db01', 'Role': 'db'}


def write(root, files):
    """Write ``files`` (path relative to ``root`` -> text) below ``root``."""
    for name, text in files.items():
        path = os.path.join(str(root), *name.split('/'))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as stream:
            stream.write(text)


GUARDED_FILES = dict(
    README_FILES,
    **{'hier.yml': README_FILES['hier.yml'] + (
        'constraints:\n'
        '  ntp/makestep: {final: true}              # the baseline\'s value, everywhere\n'
        '  packages: {protect_items: [chrony]}      # no level knocks chrony out\n'
        '  session_timeout:                         # a level may only shorten it\n'
        '    tighten: decrease\n'
        '    type: {type: integer, minimum: 60, maximum: 3600}\n'
        '  db_password: {vault: required}           # never in plain text\n'
        '  ntp/servers: {owners: [common]}          # only the common level picks time servers\n'),
       'data/common.yml': README_FILES['data/common.yml'] + 'session_timeout: 900\n',
       'data/roles/web.yml': README_FILES['data/roles/web.yml'] + (
           'session_timeout: 1800\nntp:\n  servers: [time.example.com]\n'),
       'data/roles/db.yml': README_FILES['data/roles/db.yml'] + 'db_password: hunter2\n'})
"""The first project with the README's constraints and the five violations its guardrails section seeds."""
WEB01 = {'inventory_hostname': 'web01', 'NodeName': 'web01', 'Role': 'web'}
