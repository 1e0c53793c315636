# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Hierarchy of a hier.yml or Datum.yml, from the one cache of Sources (source.py): for the jobs that work on a
Hierarchy itself (check, rsop diff, blame)."""

from __future__ import annotations

from typing import Any

from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy import Hierarchy
from ansible_collections.strata.hier.plugins.plugin_utils.source import get_source, open_source


def get_hierarchy(config_path: str, loader: Any) -> Hierarchy:
    """The Hierarchy of a configuration file, re-read when the file changes."""
    return get_source(config_path, loader).hierarchy


def open_hierarchy(config_path: str, loader: Any) -> Hierarchy:
    """The Hierarchy of a configuration file, a new pass begun: one lookup call or one inventory parse."""
    return open_source(config_path, loader).hierarchy
