# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Records: the immutable settings classes of the mergers and strategies, declared like frozen dataclasses."""

from __future__ import annotations

from typing import ClassVar, Tuple

import pytest

from ansible_collections.strata.hier.plugins.module_utils.core.mergers.hash_arrays import HashArrayMerger
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.maps import MapMerger
from ansible_collections.strata.hier.plugins.module_utils.core.records import Record, derived
from ansible_collections.strata.hier.plugins.module_utils.core.strategy import PRESETS, parse_strategy


class Point(Record):
    LABEL: ClassVar[str] = 'point'
    x: int
    y: int = 0
    norm: int = derived()

    def __post_init__(self) -> None:
        self.settle('norm', abs(self.x) + abs(self.y))


class Point3(Point):
    z: int = 0


def test_fields_come_from_annotations_in_order_class_variables_and_derived_fields_left_out():
    assert Point.FIELDS == ('x', 'y')
    assert Point3.FIELDS == ('x', 'y', 'z')
    assert Point3(1, 2, 3).values() == (1, 2, 3)


def test_arguments_by_position_or_keyword_with_defaults():
    assert Point(1).values() == (1, 0)
    assert Point(1, y=2) == Point(x=1, y=2) == Point(1, 2)
    assert Point(-3, 4).norm == 7


@pytest.mark.parametrize('build, message', [
    (Point, "needs the argument 'x'"),
    (lambda: Point(1, 2, 3), 'at most 2 arguments'),
    (lambda: Point(1, x=2), "unexpected or repeated argument 'x'"),
    (lambda: Point(1, norm=2), "unexpected or repeated argument 'norm'"),
])
def test_wrong_arguments_are_type_errors(build, message):
    with pytest.raises(TypeError, match=message):
        build()


def test_a_field_without_default_after_one_with_a_default_is_refused():
    with pytest.raises(TypeError, match='without a default follows'):
        type('Bad', (Point,), {'__annotations__': {'w': 'int'}})


def test_records_are_immutable():
    point = Point(1, 2)
    with pytest.raises(AttributeError, match='immutable'):
        point.x = 5
    with pytest.raises(AttributeError, match='immutable'):
        del point.y
    assert point.values() == (1, 2)


def test_equality_and_hash_by_class_and_fields_not_derived_ones():
    assert Point(1, 2) == Point(1, 2) and hash(Point(1, 2)) == hash(Point(1, 2))
    assert Point(1, 2) != Point(2, 1)
    assert Point3(1, 2) != Point(1, 2)          # another class, as dataclasses compare
    assert Point(1, 2) != (1, 2)
    assert len({Point(1, 2), Point(1, 2), Point(2, 1)}) == 2


def test_repr_names_the_fields():
    assert repr(Point3(1, 2, 3)) == 'Point3(x=1, y=2, z=3)'


def test_replace_builds_and_checks_anew_and_leaves_the_original():
    point = Point(1, 2)
    moved = point.replace(y=5)
    assert (moved.values(), moved.norm) == ((1, 5), 6)
    assert point.values() == (1, 2)
    with pytest.raises(TypeError):
        point.replace(w=1)


def test_mergers_and_strategies_keep_value_semantics():
    assert MapMerger('deep', '--') == MapMerger(mode='Deep', knockout_prefix='--')      # settled to 'deep'
    assert parse_strategy('deep') is PRESETS['deep']
    assert parse_strategy({'strategy': 'deep'}) == PRESETS['deep'].replace(name='custom')
    cached = {PRESETS['deep'].maps: 1}
    assert cached[MapMerger('deep', '--')] == 1
    with pytest.raises(AttributeError):
        PRESETS['deep'].name = 'other'      # the presets are shared by every lookup


def test_strategy_keys_report_options_that_differ_from_the_defaults():
    merger = HashArrayMerger('Sum', '--', order='general_first')
    assert merger.strategy_keys() == ({'merge_hash_array': 'Sum'}, {'array_order': 'general_first'})
    assert MapMerger('deep', '--').strategy_keys() == ({'merge_hash': 'deep'}, {})


def test_annotations_are_read_as_strings_too():
    assert all(isinstance(name, str) for name in Point.FIELDS)
    assert Point.LABEL == 'point' and 'LABEL' not in Point.FIELDS
    fields: Tuple[str, ...] = MapMerger.FIELDS
    assert fields[:2] == ('mode', 'knockout_prefix') and 'recurses' not in fields
