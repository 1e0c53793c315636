# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Warnings a plugin's Display gives while a block runs."""

from __future__ import annotations

from contextlib import contextmanager


@contextmanager
def warnings_seen(display, seen):
    """Append the message of each warning ``display`` gives inside the block to ``seen``.

    Display is one shared instance: the patch is removed after the block, or it would swallow the warnings of every
    later test in the process (pytest without ansible-test's forked runs).
    """
    display.warning = lambda message, *args, **kwargs: seen.append(message)
    try:
        yield seen
    finally:
        del display.warning
