# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Data shapes that the core's depth limit must refuse, shared by the unit tests."""

from __future__ import annotations


def nested(levels):
    """Maps nested ``levels`` deep below the top one: {'k': {'k': ...}}."""
    value = {}
    for _level in range(levels):
        value = {'k': value}
    return value


def looped():
    """A map that holds itself."""
    value = {}
    value['self'] = value
    return value
