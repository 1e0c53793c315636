# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The bundled DscWorkshop-shaped Datum store (examples/hierarchy/dscworkshop): the folders, Datum.yml settings and
kinds of handler expressions of Datum's DscWorkshop test assets (tests/Integration/assets/DscWorkshopConfigData),
with data of our own."""

from __future__ import annotations

import os
import shutil

EXAMPLE = os.path.join(os.path.dirname(__file__), '..', '..', '..', 'examples', 'hierarchy', 'dscworkshop')


def write_store(root):
    """Copy the store under ``root``; return the path of its Datum.yml."""
    target = os.path.join(str(root), 'dscworkshop')
    shutil.copytree(EXAMPLE, target)
    return os.path.join(target, 'Datum.yml')
