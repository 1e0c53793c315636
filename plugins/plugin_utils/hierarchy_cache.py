# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""One Hierarchy per configuration file and process: how the lookup and inventory plugins get theirs."""

from __future__ import annotations

import os
from typing import Any, Dict, Tuple

from ansible_collections.strata.hier.plugins.plugin_utils.config import load_config
from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy import Hierarchy

_HIERARCHIES: Dict[str, Tuple[int, Hierarchy]] = {}


def get_hierarchy(config_path: str, loader: Any) -> Hierarchy:
    """The Hierarchy of a configuration file, re-read when the file changes."""
    real = os.path.realpath(config_path)
    mtime = os.stat(real).st_mtime_ns if os.path.exists(real) else -1
    cached = _HIERARCHIES.get(real)
    if cached and cached[0] == mtime:
        return cached[1]
    hierarchy = Hierarchy(load_config(config_path, loader), loader)
    _HIERARCHIES[real] = (mtime, hierarchy)
    return hierarchy


def open_hierarchy(config_path: str, loader: Any) -> Hierarchy:
    """The Hierarchy of a configuration file, a new pass begun: one lookup call or one inventory parse."""
    hierarchy = get_hierarchy(config_path, loader)
    hierarchy.begin_pass()
    return hierarchy
