# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""One Hierarchy per configuration file and process: how the lookup and inventory plugins get theirs."""

from __future__ import annotations

import os
from typing import Any, Callable, Dict, Tuple

from ansible_collections.strata.hier.plugins.plugin_utils.config import load_config
from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy import Hierarchy

_HIERARCHIES: Dict[str, Tuple[int, Hierarchy]] = {}


def get_hierarchy(config_path: str, loader: Any) -> Hierarchy:
    """The Hierarchy of a configuration file, re-read when the file changes."""
    return per_config_file(_HIERARCHIES, config_path, lambda: Hierarchy(load_config(config_path, loader), loader))


def per_config_file(cache: Dict[str, Tuple[int, Any]], config_path: str, build: Callable[[], Any]) -> Any:
    """What ``build`` makes of a configuration file, once per process and version of the file (its mtime)."""
    real = os.path.realpath(config_path)
    mtime = os.stat(real).st_mtime_ns if os.path.exists(real) else -1
    cached = cache.get(real)
    if cached and cached[0] == mtime:
        return cached[1]
    built = build()
    cache[real] = (mtime, built)
    return built


def open_hierarchy(config_path: str, loader: Any) -> Hierarchy:
    """The Hierarchy of a configuration file, a new pass begun: one lookup call or one inventory parse."""
    hierarchy = get_hierarchy(config_path, loader)
    hierarchy.begin_pass()
    return hierarchy
