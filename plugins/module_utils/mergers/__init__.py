# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""One merger per kind of value: maps, scalars, base-type arrays, hash arrays, positional arrays,
and the dispatch that hands a key path's values to one of them (see base.py)."""
