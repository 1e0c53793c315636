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


def alias_bomb(levels=9, items=9, leaf='x', maps=False):
    """YAML text of a few hundred bytes whose ``Bomb`` holds items**levels leaves through nested aliases
    (lists of aliases, or maps of them with ``maps``)."""
    lines = ['l0: &l0 [%s]' % ', '.join([leaf] * items)]
    for level in range(1, levels + 1):
        if maps:
            inner = ', '.join('k%d: *l%d' % (index, level - 1) for index in range(items))
            lines.append('l%d: &l%d {%s}' % (level, level, inner))
        else:
            lines.append('l%d: &l%d [%s]' % (level, level, ', '.join(['*l%d' % (level - 1)] * items)))
    return '\n'.join(lines) + '\nBomb: *l%d\n' % levels
