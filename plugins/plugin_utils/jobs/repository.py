# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The configuration a job run in a data repository reads (``strata.hier.rsop_diff``, ``strata.hier.check``): its
``source=`` (a hier.yml, a Datum.yml, or an inventory source ``*.hier.yml`` naming one), else the one in the folder.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, Optional

from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy import HierarchyError

CONFIG_NAMES = ('hier.yml', 'Datum.yml', 'datum.yml')


def config_in(repo: str, folder: str, config: Optional[str], job: str) -> str:
    """The configuration, relative to the repository's top: given (a path relative to ``folder``, or an inventory
    source whose ``config`` names it), else the first hier.yml or Datum.yml in ``folder``; ``job`` names the job in
    errors."""
    if config is None:
        found = [name for name in CONFIG_NAMES if os.path.isfile(os.path.join(folder, name))]
        if not found:
            raise HierarchyError('%s: no hier.yml or Datum.yml in %s: give source=' % (job, folder))
        config = found[0]
    path = os.path.realpath(os.path.join(folder, config))
    if path.endswith(('.hier.yml', '.hier.yaml')):
        path = source_config(path, job)
    relative = os.path.relpath(path, os.path.realpath(repo))
    if relative.startswith('..'):
        raise HierarchyError('%s: %s is outside the repository %s' % (job, path, repo))
    return relative


def source_config(path: str, job: str) -> str:
    """The configuration an inventory source names (its ``config``, relative to the source)."""
    import yaml
    with open(path, encoding='utf-8') as stream:
        source = yaml.safe_load(stream)
    named = source.get('config') if isinstance(source, Mapping) else None
    if not isinstance(named, str):
        raise HierarchyError('%s: the inventory source %s names no config' % (job, path))
    return os.path.realpath(os.path.join(os.path.dirname(path), named))


def command_line_loader(vault_password_file: Optional[str]) -> Any:
    """A job's DataLoader on the command line (no play): with the vault password of ``--vault-password-file``."""
    from ansible.parsing.dataloader import DataLoader
    loader = DataLoader()
    if vault_password_file:
        from ansible.parsing.vault import VaultSecret
        with open(vault_password_file, 'rb') as stream:
            loader.set_vault_secrets([('default', VaultSecret(stream.read().strip()))])
    return loader
