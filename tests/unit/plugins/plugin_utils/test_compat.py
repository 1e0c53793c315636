# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

import pytest

from ansible.parsing.dataloader import DataLoader
from ansible.parsing.vault import VaultLib, VaultSecret
from ansible.plugins.loader import cache_loader

from ansible_collections.strata.hier.plugins.plugin_utils.cache_form import for_cache, from_cache
from ansible_collections.strata.hier.plugins.plugin_utils.compat import (
    DATA_TAGGING, decrypted, is_vault_value, plain, vault_ciphertext,
)

SECRET = [('default', VaultSecret(b'unit-test'))]


@pytest.fixture
def host_vars(tmp_path):
    """Host vars as the store loads them: tagged strings on 2.19+, an inline vault value."""
    ciphertext = VaultLib(SECRET).encrypt('s3cret').decode()
    text = 'Name: web01\nPorts: [80, 443]\nNested: {Deep: [{Key: value}]}\nPassword: !vault |\n'
    text += ''.join('  %s\n' % line for line in ciphertext.splitlines())
    path = tmp_path / 'node.yml'
    path.write_text(text)
    loader = DataLoader()
    loader.set_vault_secrets(SECRET)
    return loader.load_from_file(str(path))


def ciphertext_of(value):
    return vault_ciphertext(value)


def test_round_trip_through_the_jsonfile_cache_keeps_vault_values(host_vars, tmp_path):
    cache = cache_loader.get('ansible.builtin.jsonfile', _uri=str(tmp_path / 'cache'))
    cache.set('inventory', {'web01': for_cache(host_vars)})
    back = from_cache(cache.get('inventory'))['web01']

    assert is_vault_value(back['Password'])
    assert ciphertext_of(back['Password']) == ciphertext_of(host_vars['Password'])
    assert plain({key: value for key, value in back.items() if key != 'Password'}) == {
        'Name': 'web01', 'Ports': [80, 443], 'Nested': {'Deep': [{'Key': 'value'}]}}


def test_cached_form_holds_builtin_types_only(host_vars):
    """On every ansible-core: before 2.19 a cached vault value compared by decrypting (issue 25, finding 10)."""
    cached = for_cache(host_vars)

    def types(value):
        if isinstance(value, dict):
            return {type(value)} | set().union(*(types(k) | types(v) for k, v in value.items()))
        if isinstance(value, list):
            return {type(value)} | set().union(*(types(item) for item in value))
        return {type(value)}

    assert types(cached) <= {dict, list, str, int}
    assert set(cached['Password']) == {'__strata_hier_vault__'}
    assert cached['Password']['__strata_hier_vault__'].startswith('$ANSIBLE_VAULT;')


def test_for_cache_does_not_change_its_input(host_vars):
    before = repr(host_vars)
    for_cache(host_vars)
    assert repr(host_vars) == before


def test_decrypted_gives_builtin_text_for_a_vault_value(host_vars):
    """jmespath checks exact types: a decrypted vault value must be a str, not 2.19's tagged text."""
    if DATA_TAGGING:
        from ansible.parsing.vault import VaultSecretsContext
        VaultSecretsContext.initialize(VaultSecretsContext(SECRET))
    try:
        value = decrypted(host_vars['Password'])
    finally:
        if DATA_TAGGING:
            VaultSecretsContext._current = None
    assert value.__class__ is str and value == 's3cret'   # exactly str: jmespath checks exact types
