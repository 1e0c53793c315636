# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
# The short name: with this file beside a playbook, lookup('hier', 'Packages') is strata.hier.hier.
from __future__ import annotations

from ansible_collections.strata.hier.plugins.lookup.hier import LookupModule  # noqa: F401 pylint: disable=unused-import
