# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Scalars (Datum's BaseType): the most specific value wins (Datum), whatever the strategy."""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.records import Record


class ScalarMerger(Record):
    """Scalars of several layers, most specific first: the first wins."""

    def merge(self, values: List[Any]) -> Any:
        return values[0]

    def sources(self, indexes: List[int]) -> List[int]:
        return indexes[:1]

    def strategy_keys(self) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        """None: scalars merge alike under every strategy."""
        return {}, {}
