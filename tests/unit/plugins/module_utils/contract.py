# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The merge core's contract as test oracles: no input changed, nothing of the input shared with the
result, no knockout marker left, opaque (vault) values never decrypted, work bounded by the input's size."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

from ansible_collections.strata.hier.plugins.module_utils.core import merging
from ansible_collections.strata.hier.plugins.module_utils.core.identity import register_opaque
from ansible_collections.strata.hier.plugins.module_utils.core.limits import FACTOR, FLOOR, written_size

__all__ = ('Sealed', 'containers', 'expanded_size', 'lines_run', 'work_bound', 'written_size')


class Decrypted(AssertionError):
    """A Sealed value was compared, hashed or read as text: a vault value would have been decrypted."""


def _decrypt(self, *args, **kwargs):
    Sealed.decryptions += 1
    raise Decrypted('the sealed value %r was decrypted' % (self.ciphertext,))


class Sealed:
    """A vault value's stand-in, registered with the core as opaque: its identity is its ciphertext, and
    anything that would decrypt a real vault value (==, hash, str, len, iteration...) raises Decrypted."""

    __slots__ = ('ciphertext',)
    decryptions = 0
    """How often any Sealed value was decrypted (an error the code under test might have caught)."""

    def __init__(self, ciphertext):
        object.__setattr__(self, 'ciphertext', ciphertext)

    def __repr__(self):     # as ansible-core 2.19's EncryptedString: the ciphertext, not the secret
        return 'Sealed(%r)' % (self.ciphertext,)

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __hash__ = _decrypt
    __str__ = __format__ = __len__ = __iter__ = __contains__ = __getitem__ = __add__ = __radd__ = _decrypt
    __int__ = __float__ = _decrypt


register_opaque(Sealed, lambda value: value.ciphertext)


def containers(value, seen=None):
    """Every map and list in a value (each object once)."""
    seen = {} if seen is None else seen
    pending = [value]
    while pending:
        node = pending.pop()
        if isinstance(node, (Mapping, list, tuple)) and id(node) not in seen:
            seen[id(node)] = node
            pending.extend(node.values() if isinstance(node, Mapping) else node)
    return seen


def expanded_size(value, memo=None):
    """The size of a value with every alias expanded (as written_size counts: a container and its entries)."""
    memo = {} if memo is None else memo
    if not isinstance(value, (Mapping, list, tuple)):
        return 0
    if id(value) in memo:
        return memo[id(value)]
    memo[id(value)] = sys.maxsize        # a value that holds itself expands without end
    items = list(value.values()) if isinstance(value, Mapping) else list(value)
    memo[id(value)] = min(sys.maxsize, 1 + len(items) + sum(expanded_size(item, memo) for item in items))
    return memo[id(value)]


LINES_PER_VALUE = 400
"""Lines of the core a merge may run per value of its input (calibrated on the fuzz inputs, with margin)."""
FIXED_LINES = 5000
"""Lines any call may run (parsing a strategy, setting up a merge...)."""


def work_bound(inputs):
    """The most lines of the core a merge of ``inputs`` may run: linear in their size as written, aliases
    expanded only within the work budget (limits.py)."""
    written = written_size(inputs)
    expanded = min(sum(expanded_size(value) for value in inputs), FLOOR + FACTOR * written)
    return FIXED_LINES + LINES_PER_VALUE * max(written, expanded)


def lines_run(function, *args, **kwargs):
    """Call ``function``; return (its result or the exception it raised, the lines of module_utils that ran)."""
    folder = os.path.dirname(merging.__file__)
    count = 0

    def in_core(frame, event, arg):
        return count_lines if frame.f_code.co_filename.startswith(folder) else None

    def count_lines(frame, event, arg):
        nonlocal count
        if event == 'line':
            count += 1
        return count_lines

    previous = sys.gettrace()
    sys.settrace(in_core)
    try:
        outcome = function(*args, **kwargs)
    except Exception as exc:  # pylint: disable=broad-except  # the caller judges the exception
        outcome = exc
    finally:
        sys.settrace(previous)
    return outcome, count
