# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the oracle scripts share: a checkout of the collection imported as ansible_collections.strata.hier."""

from __future__ import annotations

import importlib
import os
import sys
import tempfile

COLLECTION = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))


def module_utils(root, *names):
    """The modules ``names`` of plugins/module_utils of the collection at ``root`` (this checkout or another)."""
    base = tempfile.mkdtemp(prefix='strata_oracle_')
    target = os.path.join(base, 'ansible_collections', 'strata')
    os.makedirs(target)
    os.symlink(os.path.abspath(root), os.path.join(target, 'hier'))
    sys.path.insert(0, base)
    return [importlib.import_module('ansible_collections.strata.hier.plugins.module_utils.' + name) for name in names]
