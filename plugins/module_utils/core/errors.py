# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Exceptions raised by the merge core.

The core is plain Python; plugins translate these into Ansible's own errors
(AnsibleFilterError, AnsibleLookupError, ...), keeping the message.
"""

from __future__ import annotations


class MergeError(ValueError):
    """Base class of every error the merge core raises.

    ``path`` is the key path (``a/b/c``) where the problem was found, or ``''``.
    """

    keys: tuple = ()
    """Where in its configuration file the setting at fault is written (``('lookup_options', 'a')``), when the
    raiser knows: the plugins turn it into ``file:line`` (plugin_utils/source_lines.key_position). The core carries
    the position, never formats it."""

    def __init__(self, message: str, path: str = '') -> None:
        self.path = path
        if len(path) > 120:
            path = path[:120] + '...'
        if path:
            message = '%s (at key path %r)' % (message, path)
        super().__init__(message)


class StrategyError(MergeError):
    """A strategy, sub-strategy or merge option is unknown or malformed."""


class MergeInputError(MergeError):
    """The data to merge does not have the shape the caller promised."""


class MergeDepthError(MergeError):
    """Data nests deeper than MAX_DEPTH (or refers to itself)."""


class DocumentError(MergeError):
    """Documents cannot be layered together (Deckhand's layering); the message names the document."""


class MergeConflictError(MergeError):
    """Sources disagree on how a value merges (Heat: two environment files give a parameter different strategies)."""


class MergeSizeError(MergeError):
    """Data expands far beyond its written size (YAML aliases repeating parts of it); see limits.WorkBudget."""


class ExpansionError(MergeError):
    """Expanding data (handlers, interpolation, substitution, glob patterns) passed its work budget, or chained
    deeper than the expansion depth limit; see limits.ExpansionBudget."""


class HieraError(MergeError):
    """Hiera 5 support: a hiera.yaml, a data file, a key, an interpolation or a merge Hiera refuses."""

    located = False
    """Whether the message already names the key, level and file."""


class HieraConfigError(HieraError):
    """A hiera.yaml that is not a usable version 5 configuration; the message names the file and the key,
    ``keys`` is the key's path in the file (for its line) and ``detail`` the message after the file; ``problems``:
    for a file with several, each one (an error with its own ``keys``), all of them in the message, one a line."""

    detail: str = ''
    problems: tuple = ()


class HieraNotFound(LookupError):
    """No level has the key (Hiera's ``:no_such_key``); not an error, the caller decides what it means."""
