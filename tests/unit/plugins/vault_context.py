# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""A vault secrets context, as a play has one: ansible-core 2.19 decrypts a vault value only within it."""

from __future__ import annotations

from contextlib import contextmanager

from ansible_collections.strata.hier.plugins.plugin_utils.compat import DATA_TAGGING


@contextmanager
def secrets_context(secrets):
    """Within the block, vault values decrypt with ``secrets`` (2.19+; before, a vault value carries its own)."""
    if DATA_TAGGING:
        from ansible.parsing.vault import VaultSecretsContext
        VaultSecretsContext.initialize(VaultSecretsContext(secrets))
    try:
        yield
    finally:
        if DATA_TAGGING:
            VaultSecretsContext._current = None     # pylint: disable=protected-access
