# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

"""Where a relative path option is relative to: the place that set it (docs/hierarchy.md); and which kind of
configuration a file is.

- from ansible.cfg: the folder of that ansible.cfg, as Ansible's own path settings;
- from an environment variable: the working directory;
- given directly (``config=`` of a lookup, an option of an inventory source): ``base_dir``,
  which the plugin chooses (the playbook's folder, the inventory source's folder).
"""

from __future__ import annotations

import os
import re
from typing import Mapping, Optional

from ansible_collections.strata.hier.plugins.plugin_utils.config import ConfigError

DIRECT = 'Direct'
_VERSION_KEY = re.compile(rb'^["\']?version["\']?[ \t]*:', re.MULTILINE)


def option_origin(plugin, option: str, direct: Optional[Mapping] = None) -> str:
    """Where the plugin's option came from: ``Direct``, ``env: NAME`` or the path of an ansible.cfg.

    ansible-core 2.16's get_option_and_origin asks the configuration again and does not know
    values given directly, hence ``direct`` (the keyword arguments of a lookup call) first.
    """
    if direct and direct.get(option) is not None:
        return DIRECT
    try:
        origin = plugin.get_option_and_origin(option)[1]
    except KeyError:    # 2.16, an option set only directly (an inventory source's)
        return DIRECT
    return origin if isinstance(origin, str) else DIRECT


def resolve_option_path(plugin, option: str, base_dir: str, direct: Optional[Mapping] = None) -> Optional[str]:
    """The plugin's path option, absolute and with ``~`` expanded; None when it is not set."""
    value = plugin.get_option(option)
    if not value:
        return None
    path = os.path.expanduser(str(value))
    if not os.path.isabs(path):
        path = os.path.join(_relative_to(option_origin(plugin, option, direct), base_dir), path)
    return os.path.normpath(path)


def hierarchy_config_path(plugin, base_dir: str, direct: Optional[Mapping] = None) -> str:
    """The plugin's ``config`` option (a hierarchy configuration) as an absolute path; the lookup and the inventory
    plugins read it through this one helper."""
    config = resolve_option_path(plugin, 'config', base_dir, direct)
    if not config:
        raise ConfigError('strata.hier.hier: no hierarchy configuration: give config=..., set '
                          'STRATA_HIER_CONFIG or [strata_hier] config in ansible.cfg')
    return config


def _relative_to(origin: str, base_dir: str) -> str:
    if origin.startswith('env:'):
        return os.getcwd()
    if os.path.isabs(origin) and os.path.isfile(origin):
        return os.path.dirname(origin)      # the ansible.cfg that set it
    return base_dir


def is_hiera_config_file(path: str) -> bool:
    """A hiera.yaml (by name) or any configuration file with a top-level ``version:`` key (hier.yml and Datum.yml
    have none); the text is only scanned, so a hier.yml is not parsed twice."""
    if os.path.basename(path).lower() in ('hiera.yaml', 'hiera.yml'):
        return True
    try:
        with open(path, 'rb') as stream:
            return _VERSION_KEY.search(stream.read()) is not None
    except OSError:
        return False
