# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Data shapes that the core's limits must refuse (depth, loops, alias bombs), shared by the unit tests."""

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


def alias_bomb(levels=9, width=9, maps=False):
    """A few hundred bytes of YAML whose aliases stand for width ** levels values."""
    lines = ['l0: &l0 [%s]' % ', '.join(['x'] * width)]
    for level in range(1, levels):
        if maps:
            items = ', '.join('k%d: *l%d' % (index, level - 1) for index in range(width))
            lines.append('l%d: &l%d {%s}' % (level, level, items))
        else:
            lines.append('l%d: &l%d [%s]' % (level, level, ', '.join(['*l%d' % (level - 1)] * width)))
    return '\n'.join(lines) + '\n'
