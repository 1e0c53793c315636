# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""A host's variables as the inventory cache stores them (``for_cache``) and read back (``from_cache``): builtin
types, vault and eyaml values as marked maps of their ciphertext, never decrypted."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ansible_collections.strata.hier.plugins.module_utils.core.identity import is_opaque
from ansible_collections.strata.hier.plugins.plugin_utils.compat import (
    DATA_TAGGING, cached_vault_value, is_vault_value, plain_scalar, vault_ciphertext,
)
from ansible_collections.strata.hier.plugins.plugin_utils.eyaml import EyamlValue
from ansible_collections.strata.hier.plugins.plugin_utils.walk import rebuild

_CACHED_VAULT = '__strata_hier_vault__'
_CACHED_EYAML = '__strata_hier_eyaml__'
_CACHE_PREFIX = '__strata_hier_'
_CACHE_ESCAPE = '__strata_hier_text__'
"""A data string (a map key) that starts like the cache's own markers is stored behind this prefix, so that a data
map ``{'__strata_hier_vault__': '$ANSIBLE_VAULT;...'}`` is not read back as a vault value."""


def for_cache(value: Any, wrappers: int = 0) -> Any:
    """Host vars as an inventory cache should hold them: builtin types, vault values as marked ciphertext.

    From 2.19 every loaded value carries its file:line tags, which make the cache large and slow
    to read back, and vault values come back from a cache as bare ciphertext
    (ansible/ansible#86369). Before 2.19 a vault value in the cache compares by decrypting (the cache's
    update_cache_if_changed: without the password the whole source failed, and Ansible dropped it), and a
    pickling cache plugin would store the vault secrets it holds. So store builtin types, vault values as marked
    ciphertext, and data strings that start like the marker escaped (from_cache gives back exactly the data).
    Never decrypts.
    """
    return rebuild(value, _cached_scalar, wrappers=wrappers)


def _cached_scalar(value: Any) -> Any:
    if is_vault_value(value):
        return {_CACHED_VAULT: vault_ciphertext(value)}
    if is_opaque(value):    # an eyaml value
        return {_CACHED_EYAML: value.cache_form()}
    value = plain_scalar(value)
    return _CACHE_ESCAPE + value if isinstance(value, str) and value.startswith(_CACHE_PREFIX) else value


def from_cache(value: Any, wrappers: int = 0, loader: Any = None) -> Any:
    """Undo for_cache: marked ciphertext becomes a vault value again (before 2.19 with ``loader``'s vault secrets,
    as DataLoader gives its vault values), escaped strings the data's."""
    vault = None if DATA_TAGGING or loader is None else loader._vault   # pylint: disable=protected-access

    def restored(mapping):
        found = _cached_vault(mapping)
        if is_vault_value(found) and vault is not None:
            found.vault = vault
        return found

    return rebuild(value, _uncached_scalar, restored, wrappers)


def _uncached_scalar(value: Any) -> Any:
    value = plain_scalar(value)
    return value[len(_CACHE_ESCAPE):] if isinstance(value, str) and value.startswith(_CACHE_ESCAPE) else value


def _cached_vault(value: Mapping) -> Any:
    if len(value) == 1 and _CACHED_EYAML in value:
        return EyamlValue.from_cache_form(value[_CACHED_EYAML])
    if len(value) != 1 or _CACHED_VAULT not in value:
        return None
    ciphertext = value[_CACHED_VAULT]
    if not isinstance(ciphertext, str) or not ciphertext.startswith('$ANSIBLE_VAULT;'):
        raise ValueError('a cached vault value is not vault ciphertext')
    return cached_vault_value(ciphertext)
