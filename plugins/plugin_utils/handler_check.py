# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Datum handlers met by a lookup: outside a Datum store (a hier.yml) they are not evaluated, and ``HandlerCheck``
refuses a looked-up value holding one, naming the file, line and key where it is written.

Datum stores evaluate them (``datum_handlers.py``); this module is what every store needs, without the parser of
handler expressions.
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ansible.errors import AnsibleError

from ansible_collections.strata.hier.plugins.module_utils.dialects.datum.syntax import is_handler
from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeDepthError
from ansible_collections.strata.hier.plugins.module_utils.core.paths import join_path, split_path
from ansible_collections.strata.hier.plugins.plugin_utils.compat import CompleteMessage
from ansible_collections.strata.hier.plugins.plugin_utils.source_lines import key_position
from ansible_collections.strata.hier.plugins.plugin_utils.walk import find, holds


class DatumHandlerError(CompleteMessage, AnsibleError):
    """A Datum handler that cannot be evaluated, with DatumHandlersThrowOnError not false."""


class HandlerCheck:
    """Finds Datum handlers in looked-up values; remembers, per parse of a file, whether it holds any."""

    def __init__(self, store: Any, case_insensitive: bool) -> None:
        self._store = store
        self._case_insensitive = case_insensitive
        self._handler_free: Dict[str, Tuple[Any, bool]] = {}   # file -> (its parsed data, holds no handler)

    def may_hold(self, files: Sequence[Optional[str]]) -> bool:
        """Whether a value read from these files may hold a handler (False: none of the files holds one).

        A file is walked once per parse. A folder read as a map is not checked here (True).
        """
        for file in files:
            if file is None:
                continue
            data = self._store.parsed(file)
            if data is None:
                return True
            known = self._handler_free.get(file)
            if known is None or known[0] is not data:
                known = (data, not may_hold_handler(data))
                self._handler_free[file] = known
            if not known[1]:
                return True
        return False

    def problem(self, merged: Any, values: list, levels: List[Tuple[Optional[str], str]],
                segments: Tuple[str, ...]) -> Optional[str]:
        """Why the merged value cannot be returned (a level value holds a handler), or None.

        ``levels``: each level's (file, path as text), as ``values`` are read from them.
        """
        if handler_in(merged) is None:
            return None
        for value, (file, path) in zip(values, levels):
            located = handler_in(value)
            if located is not None:
                keys, text = located
                return ('%s: key %r holds the Datum handler %r, which strata.hier does not run; '
                        'replace it with plain data (or an Ansible vault value for [ENC=...])'
                        % (key_position(file, self.keys_in_file(file, path, segments) + list(keys)),
                           join_path(segments + keys), _shorten(text)))
        return None

    def keys_in_file(self, file: str, path: str, segments: Tuple[str, ...]) -> List[str]:
        """The keys of a level's path and of the looked-up key that lie inside the level's file."""
        file_stem = os.path.splitext(os.path.basename(file))[0]
        full = split_path(path) + segments
        for position, part in enumerate(full):
            if part == file_stem or (self._case_insensitive and part.casefold() == file_stem.casefold()):
                return list(full[position + 1:])
        return list(segments)


def handler_in(value: Any) -> Optional[Tuple[Tuple[str, ...], str]]:
    """The key path and text of a Datum handler held in the value (each shared container looked at once)."""
    return find(value, is_handler) if holds(value, is_handler) else None


def may_hold_handler(value: Any) -> bool:
    """Whether a file's data holds a Datum handler string; True also when it nests too deep to tell."""
    try:
        return handler_in(value) is not None
    except MergeDepthError:
        return True


def _shorten(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + '...'
