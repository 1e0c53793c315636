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
