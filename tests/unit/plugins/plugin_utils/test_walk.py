# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every plugin-side walk over loaded data costs what the data costs as written (issue 12, alias bombs).

The bomb: 9 levels of 9 aliases, 9**9 (387 million) items written out in full, from a file of 600 bytes.
Each walker must finish in well under a second; before, each of them walked every alias occurrence.
"""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings, strategies as st

from ansible.parsing.dataloader import DataLoader
from ansible.parsing.vault import VaultLib, VaultSecret

from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeDepthError
from ansible_collections.strata.hier.plugins.module_utils.core.kinds import FAST_PATHS
from ansible_collections.strata.hier.plugins.plugin_utils.handler_check import handler_in, may_hold_handler
from ansible_collections.strata.hier.plugins.plugin_utils.cache_form import for_cache, from_cache
from ansible_collections.strata.hier.plugins.plugin_utils.compat import (
    is_vault_value, not_templates, plain, vault_ciphertext,
)
from ansible_collections.strata.hier.plugins.plugin_utils.walk import (
    DataSizeError, expanded_size, find, holds, rebuild,
)
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.shapes import alias_bomb, nested

SECRET = [('default', VaultSecret(b'unit-test'))]


@pytest.fixture(scope='module')
def bomb():
    """The bomb as DataLoader loads it, with an inline vault value and a template among its leaves."""
    ciphertext = VaultLib(SECRET).encrypt('s3cret').decode()
    leaf = '{Secret: !vault "%s", Text: "{{ 1 }}"}' % ciphertext.replace('\n', '\\n')
    return DataLoader().load(alias_bomb(leaf=leaf))


def quickly(function, *args):
    start = time.process_time()
    result = function(*args)
    assert time.process_time() - start < 2, '%s walked the aliases one by one' % function.__name__
    return result


@pytest.mark.parametrize('walker', [plain, for_cache, not_templates], ids=lambda walker: walker.__name__)
def test_rebuilding_walkers_share_what_the_data_shares(bomb, walker):
    result = quickly(walker, bomb)
    assert result['Bomb'][0] is result['Bomb'][8]            # built once, shared as in the data
    assert result['Bomb'] is result['l9']
    leaf = result['l0'][0]
    if walker is for_cache:
        assert is_vault_value(leaf['Secret']) or set(leaf['Secret']) == {'__strata_hier_vault__'}   # 2.16 / 2.19+
    else:
        assert is_vault_value(leaf['Secret'])                  # never decrypted (no vault secret is loaded)


def test_from_cache_of_the_cached_bomb(bomb):
    back = quickly(from_cache, quickly(for_cache, bomb))
    assert vault_ciphertext(back['l0'][0]['Secret']) == vault_ciphertext(bomb['l0'][0]['Secret'])


def test_datum_handler_scans(bomb):
    assert quickly(handler_in, bomb) is None
    assert quickly(may_hold_handler, bomb) is False


def test_expanded_size_counts_the_bomb_without_walking_it(bomb):
    leaf = 1 + 2 * 2                                     # {Secret: ..., Text: ...}: the map, two keys, two values
    assert quickly(expanded_size, bomb['l3'], 10 ** 6) == 1 + 9 * (1 + 9 * (1 + 9 * (1 + 9 * leaf)))
    with pytest.raises(DataSizeError, match='more than 200000 values'):
        quickly(expanded_size, bomb)


def test_a_container_holding_itself_is_the_depth_error():
    loop = DataLoader().load('Loop: &a\n  self: [*a]\n')
    for walker in (plain, lambda data: rebuild(data, str), expanded_size):
        with pytest.raises(MergeDepthError, match=r"refers to itself .*at key path 'Loop/self/0'"):
            walker(loop)
    assert find(loop, lambda item: item == 'x') is None            # a search just does not look twice


def test_nesting_past_the_limit_is_the_depth_error():
    data = nested(100)
    with pytest.raises(MergeDepthError, match='nests deeper than 64 levels'):
        plain(data)
    assert may_hold_handler(data) is True       # too deep to tell: looked at when used


def test_a_handler_is_found_with_its_key_path():
    data = DataLoader().load('A: &a {B: ["[x= $Node.Name =]"]}\nC: *a\n')
    assert handler_in(data) == (('A', 'B', '0'), '[x= $Node.Name =]')


SCALAR_VALUES = st.one_of(st.sampled_from(['x', 'ENC[PKCS7,abc]', '[x=1=]', 'y']), st.integers(), st.none())
NESTED = st.recursive(SCALAR_VALUES, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.tuples(inner), st.dictionaries(st.sampled_from('abc'), inner, max_size=3)),
    max_leaves=12)


def _found_or_failed(value, predicate, depth):
    try:
        return find(value, predicate, depth=depth) is not None
    except MergeDepthError:
        return True


@settings(max_examples=300, deadline=None)
@given(NESTED, st.sampled_from(['ENC[', '[x=', 'z']), st.integers(1, 6))
def test_holds_is_false_only_where_find_finds_nothing(value, text, depth):
    def predicate(item):
        return isinstance(item, str) and text in item
    assert holds(value, predicate, depth) == _found_or_failed(value, predicate, depth)


def test_holds_says_true_for_a_shared_container_met_deeper_and_for_cycles():
    shared = {'a': {'b': 'x'}}
    value = {'p': [[shared]], 'q': shared}      # too deep through p only, which find walks first
    with pytest.raises(MergeDepthError):
        find(value, lambda item: False, depth=4)
    assert holds(value, lambda item: False, depth=4) is True
    looped = []
    looped.append(looped)
    assert holds(looped, lambda item: False) is True and find(looped, lambda item: False) is None


def test_holds_is_always_true_on_the_general_path():
    with FAST_PATHS.general():
        assert holds({'a': 'plain'}, lambda item: False) is True
    assert holds({'a': 'plain'}, lambda item: False) is False
