# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Datum handlers found as Datum finds them (the lookups that refuse them: test_hierarchy.py)."""

from __future__ import annotations

import re
import time

from hypothesis import given, settings, strategies as st

from ansible_collections.strata.hier.plugins.plugin_utils.datum_handlers import is_datum_handler


DATUM_REGEX = re.compile(r'\[x=[\s\S]*=\]|^\[ENC=[\s\S]*\]$', re.IGNORECASE)   # Datum's two handler regexes


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('[]=xXeEnNcC \n-a')), max_size=30))
def test_handlers_are_found_as_datum_regexes_find_them(text):
    assert is_datum_handler(text) == (DATUM_REGEX.search(text.strip()) is not None)


def test_a_long_string_is_checked_in_linear_time():
    start = time.process_time()
    assert not is_datum_handler('[x=' * 200000)
    assert is_datum_handler('[x=' * 200000 + '=]')
    assert time.process_time() - start < 1
