# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
from __future__ import annotations

import pytest

from ansible_collections.strata.hier.plugins.module_utils.core.errors import ExpansionError, MergeError
from ansible_collections.strata.hier.plugins.module_utils.core.limits import (
    EXPANSION_FACTOR, EXPANSION_FLOOR, MAX_EXPANSION_DEPTH, ExpansionBudget,
)


def test_charges_up_to_the_floor_pass():
    budget = ExpansionBudget()
    budget.charge(EXPANSION_FLOOR, 'a.yaml:1: x')
    with pytest.raises(ExpansionError, match=r'a\.yaml:2: y: expanding the data passes its work budget'):
        budget.charge(1, 'a.yaml:2: y')


def test_written_data_raises_the_allowance():
    budget = ExpansionBudget(written=10)
    budget.add_written(5)
    budget.charge(EXPANSION_FLOOR + 15 * EXPANSION_FACTOR, 'here')
    with pytest.raises(MergeError, match='15 bytes read'):
        budget.charge(1, 'here')


def test_depth_is_limited_and_restored():
    budget = ExpansionBudget()
    for _level in range(MAX_EXPANSION_DEPTH):
        budget.enter('f:1')
    with pytest.raises(ExpansionError, match='nest more than %d deep' % MAX_EXPANSION_DEPTH):
        budget.enter('f:2')
    assert budget.depth == MAX_EXPANSION_DEPTH
    budget.leave()
    budget.enter('f:3')
