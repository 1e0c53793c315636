# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Which hierarchy configuration a plugin reads when none is given to it (docs/hierarchy.md).

The first of ``hier.yml``, ``hiera.yaml``, ``Datum.yml`` in the playbook's folder, then in the folder of each
inventory source (in the order given), then the ``[strata_hier] config`` / ``STRATA_HIER_CONFIG`` setting.
The lookup (without ``config=``) and the vars plugin search the same places, so they read the same hierarchy.
"""

from __future__ import annotations

import os
from typing import Iterable, List, Optional

from ansible_collections.strata.hier.plugins.plugin_utils.config import ConfigError

CONFIG_NAMES = ('hier.yml', 'hiera.yaml', 'Datum.yml')


def discover_config(playbook_dir: Optional[str], inventory_sources: Iterable[str], setting: Optional[str]) -> str:
    """The configuration to read; ConfigError listing every place searched when there is none."""
    searched = []
    for folder in search_folders(playbook_dir, inventory_sources):
        for name in CONFIG_NAMES:
            candidate = os.path.join(folder, name)
            searched.append(candidate)
            if os.path.isfile(candidate):
                return candidate
    if setting:
        return setting
    raise ConfigError('no hierarchy configuration found; searched %s, then the setting STRATA_HIER_CONFIG / '
                      '[strata_hier] config (not set)' % ', '.join(searched or ['nowhere (no playbook folder or '
                                                                                'inventory source)']))


def search_folders(playbook_dir: Optional[str], inventory_sources: Iterable[str]) -> List[str]:
    """The playbook's folder, then each inventory source's folder (a source that is a folder: itself), each once.

    A host list (``-i host1,host2``) is no path and is left out.
    """
    folders: List[str] = []
    for source in inventory_sources or ():
        if not source or (',' in source and not os.path.exists(source)):
            continue
        source = os.path.abspath(os.path.expanduser(str(source)))
        folders.append(source if os.path.isdir(source) else os.path.dirname(source))
    if playbook_dir:
        folders.insert(0, os.path.abspath(str(playbook_dir)))
    unique: List[str] = []
    for folder in folders:
        if folder not in unique:
            unique.append(folder)
    return unique
