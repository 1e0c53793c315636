# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Levels whose variables a host does not have: skipped (hier.yml, Datum.yml) or read with the variable empty
(hiera.yaml, as Puppet does).

A level left without data for some hosts is normal (``Sites/%{site}`` for hosts without a site); left without data
for every host of a run, it is almost surely a misspelt variable (``roles/%{Rol}``), so the plugins that see every
host (the inventory plugin, the vars plugin) warn once per level with ``UndefinedLevels``. With ``strict_levels``
an undefined level variable is an error for any host (``undefined_error``).
"""

from __future__ import annotations

import os
from typing import Callable, Dict, List, Mapping, Optional, Sequence

from ansible_collections.strata.hier.plugins.plugin_utils.config import HierarchyConfig, HierarchyError

Position = Callable[[int], str]
"""A level's index in its configuration -> ``file:line: level 'as written'``."""


class UndefinedLevelError(HierarchyError):
    """With strict_levels, a level variable a host does not have (it fails an inventory source: it is no problem of
    one node)."""


def _undefined(names: Sequence[str]) -> str:
    """``variable 'x' is undefined`` / ``variables 'x', 'y' are undefined``."""
    return '%s %s %s undefined' % ('variable' if len(names) == 1 else 'variables',
                                   ', '.join(repr(name) for name in names), 'is' if len(names) == 1 else 'are')


def undefined_error(host: Optional[str], undefined: Mapping[int, Sequence[str]], position: Position) -> HierarchyError:
    """The strict_levels error for a host: each level and its undefined variables, with the configuration line."""
    levels = '; '.join('%s: %s' % (position(index), _undefined(names)) for index, names in sorted(undefined.items()))
    return UndefinedLevelError('host %s: %s (strict_levels: an undefined level variable is an error)'
                               % (host or '(no host)', levels))


class UndefinedLevels:
    """The levels an undefined variable left without data for every host seen so far, and their variables."""

    def __init__(self) -> None:
        self.hosts = 0
        self._always: Dict[int, Dict[str, None]] = {}

    def add(self, unfilled: Mapping[int, Sequence[str]]) -> None:
        """One more host, with the levels its undefined variables left without data."""
        if not self.hosts:
            self._always = {index: dict.fromkeys(names) for index, names in unfilled.items()}
        for index in list(self._always):
            if index in unfilled:
                self._always[index].update(dict.fromkeys(unfilled[index]))
            else:
                del self._always[index]
        self.hosts += 1

    def warnings(self, position: Position, effect: str, hint: str) -> List[str]:
        """One message per level left without data for every host: its place, its variables, what that does
        (``effect``), and how to make it an error (``hint``)."""
        shown = {1: 'its only host', 2: 'both hosts'}.get(self.hosts, 'every host (%d)' % self.hosts)
        return ['%s: %s for %s, so %s; a misspelt variable? (%s)'
                % (position(index), _undefined(list(names)), shown, effect, hint)
                for index, names in sorted(self._always.items())]


def skipped_for_host(host: Optional[str], undefined: Mapping[int, Sequence[str]], position: Position,
                     effect: str) -> List[str]:
    """For a lookup's -v: each level naming a variable this host does not have (a misspelt variable shows here
    first), and what that does (``effect``)."""
    return ['%s: %s: %s for this host, so %s' % (host or '(no host)', position(index), _undefined(names), effect)
            for index, names in sorted(undefined.items())]


def strict_hint(config: HierarchyConfig, inventory: bool = False) -> str:
    """How to make an undefined level variable an error: the configuration's key (and the inventory source's option)."""
    key = 'StrictLevels: true in %s' if config.dialect == 'datum' else 'strict_levels: true in %s'
    return '%s%s makes an undefined level variable an error' % (
        key % os.path.basename(config.path), ' or in the inventory source' if inventory else '')
