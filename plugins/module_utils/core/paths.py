# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Key paths: ``a/b/c`` as written in rules and messages, a tuple of keys inside the core."""

from __future__ import annotations

from typing import Any, Sequence, Tuple


def fold_text(value: Any) -> Any:
    """How a key (or any text) compares where keys are case-insensitive: the one fold of the collection."""
    return value.casefold() if isinstance(value, str) else value


def join_path(path: Sequence[Any]) -> str:
    return '/'.join(str(part) for part in path)


def split_path(path: Any) -> Tuple[str, ...]:
    """``a/b``, ``a\\b`` or a list of keys -> a tuple of keys."""
    if isinstance(path, (list, tuple)):
        return tuple(str(part) for part in path)
    text = str(path).replace('\\', '/').strip('/')
    return tuple(text.split('/')) if text else ()
