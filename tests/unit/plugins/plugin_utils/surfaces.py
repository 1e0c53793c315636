# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the fuzz targets of the new surfaces (Hiera repositories, Datum handlers, Deckhand substitution, host
variable names: test_fuzz_hiera.py, test_fuzz_datum.py, test_fuzz_deckhand.py, test_fuzz_host_vars.py) share:
the settings, the secrets planted in the data and the oracle of docs/security.md.

- Each call ends in a result or one of the collection's clean errors (``CLEAN``), whose message names a file or a
  key and shows no secret; never another exception (RecursionError, KeyError, TypeError...).
- The work is bounded: the lines of the collection's plugins a call runs are counted (``metered``) and the call is
  stopped past a bound linear in the bytes of data written (exponential expansion is found in milliseconds, not
  after minutes), and process time per input is bounded as in test_fuzz_plugins.py.
- No secret in clear: an inline vault value's plain text (``INLINE_SECRET``) is never in a result, an error or a
  warning; a whole-file vaulted file's plain text (``WHOLE_SECRET``) only in host variables listed in
  ``hier_vaulted_keys`` (the rsop role withholds those).
- What a call returns is at most what the expansion budget allows (limits.ExpansionBudget).
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Mapping
from contextlib import contextmanager

from hypothesis import HealthCheck, Phase, settings

from ansible.parsing.dataloader import DataLoader
from ansible.parsing.vault import VaultLib, VaultSecret
from ansible.utils.display import Display

from ansible_collections.strata.hier.plugins.module_utils.core import merging
from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeError
from ansible_collections.strata.hier.plugins.module_utils.core.limits import EXPANSION_FACTOR, EXPANSION_FLOOR
from ansible_collections.strata.hier.plugins.plugin_utils.compat import is_vault_value
from ansible_collections.strata.hier.plugins.plugin_utils.config import ConfigError
from ansible_collections.strata.hier.plugins.plugin_utils.handler_check import DatumHandlerError
from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy import HierarchyError
from ansible_collections.strata.hier.plugins.plugin_utils.store import StoreError

EXAMPLES = int(os.environ.get('STRATA_FUZZ_EXAMPLES', '20'))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize='STRATA_FUZZ_EXAMPLES' not in os.environ,
                suppress_health_check=list(HealthCheck))
FINDINGS = settings(FUZZ, max_examples=EXAMPLES if 'STRATA_FUZZ_EXAMPLES' in os.environ else 10,
                    phases=list(Phase) if 'STRATA_FUZZ_EXAMPLES' in os.environ else
                    [Phase.explicit, Phase.reuse, Phase.generate])
"""For the targets of a finding fixed on another branch (xfail until merged): in the unit suite, fewer examples, and
the first failing one is reported as found, not shrunk (shrinking one costs a minute); scripts/fuzz shrinks."""
SECONDS_PER_INPUT = 20.0    # generous for a loaded machine; the line meter stops runaway work long before

CLEAN = (ConfigError, HierarchyError, StoreError, MergeError, DatumHandlerError)
"""The errors the lookup and the inventory plugins turn into Ansible errors naming what failed (DatumHandlerError:
an AnsibleError naming file, line and key)."""

PASSWORD = b'strata-fuzz'
INLINE_SECRET = 'i-s3cret'
WHOLE_SECRET = 'w-s3cret'
VAULT = VaultLib([('default', VaultSecret(PASSWORD))])
INLINE_VAULT = '!vault ' + json.dumps(VAULT.encrypt(INLINE_SECRET).decode())
"""An inline vault value, as YAML."""


WHOLE_VAULTED = VAULT.encrypt('w: %s\nwhole: %s\nwmap: {k: %s}\nW: %s\nPassword: %s\n'
                              % ((WHOLE_SECRET,) * 5))
"""A whole-file vaulted data file's bytes (encrypted once: encryption is slow by design)."""


def loader():
    """A DataLoader that can read the data's vault values, as a run with the vault password has."""
    data_loader = DataLoader()
    data_loader.set_vault_secrets([('default', VaultSecret(PASSWORD))])
    return data_loader


# ---------------------------------------------------------------- work

PLUGINS = os.path.dirname(os.path.dirname(merging.__file__))
FIXED_LINES = 100000
"""Lines any call may run whatever its input (configuration, a few files, explain): 10 times the most the main
targets ran in 600 inputs."""
LINES_PER_BYTE = 100
"""Lines per byte of data written: 3 times the most the main targets ran (34), far below any exponential expansion."""


class TooMuchWork(BaseException):
    """Raised into the code under test when it runs more lines than its input justifies (a BaseException, so that
    no ``except Exception`` of the code under test hides it)."""


def line_limit(written):
    return FIXED_LINES + LINES_PER_BYTE * written


def metered(function, limit):
    """``function()``, stopped with TooMuchWork once the collection's plugins have run ``limit`` lines."""
    count = 0

    def in_plugins(frame, event, arg):
        return count_lines if frame.f_code.co_filename.startswith(PLUGINS) else None

    def count_lines(frame, event, arg):
        nonlocal count
        if event == 'line':
            count += 1
            if count > limit:
                raise TooMuchWork('more than %d lines of the plugins run for %d bytes of data' % (limit, written))
        return count_lines

    written = (limit - FIXED_LINES) // LINES_PER_BYTE
    previous = sys.gettrace()
    sys.settrace(in_plugins)
    try:
        return function()
    except TooMuchWork as exc:      # out of the code under test: a failure hypothesis shrinks and shows
        raise AssertionError(str(exc)) from None
    finally:
        sys.settrace(previous)


def started():
    # no gc.collect() here (test_fuzz_plugins.py has one): hypothesis's memory grows with the examples run, and a full
    # collection per input made 5,000 examples quadratic; the line meter, not time, is these targets' work bound
    return time.process_time()


def bounded(start):
    assert time.process_time() - start < SECONDS_PER_INPUT, 'took more than %s s' % SECONDS_PER_INPUT


def allowance(written):
    """Units (characters, values) an expansion of ``written`` bytes of data may produce (limits.ExpansionBudget)."""
    return EXPANSION_FLOOR + EXPANSION_FACTOR * written


# ---------------------------------------------------------------- secrets

def texts(value, limit=10 ** 7):
    """Every text of a value (map keys too) that is not a vault value, each map and list visited once; no vault
    value is decrypted. Stops after ``limit`` characters (an oversized result fails on its size elsewhere)."""
    found, seen, pending, size = [], set(), [value], 0
    while pending and size < limit:
        item = pending.pop()
        if is_vault_value(item):
            continue
        if isinstance(item, (Mapping, list, tuple)):
            if id(item) in seen:
                continue
            seen.add(id(item))
            pending.extend(_entries(item))
        elif isinstance(item, str):
            found.append(item)
            size += len(item)
    return found


def size_of(value):
    """Characters of text plus values, each map and list once (what a result costs to write out)."""
    total, seen, pending = 0, set(), [value]
    while pending:
        item = pending.pop()
        if isinstance(item, (Mapping, list, tuple)):
            if id(item) in seen:
                continue
            seen.add(id(item))
            total += 1 + len(item)
            pending.extend(_entries(item))
        elif isinstance(item, str) and not is_vault_value(item):
            total += len(item)
    return total


def _entries(container):
    """A map's keys and values, a list's items (no pair is built: a pair's id would be reused once it is freed)."""
    if isinstance(container, Mapping):
        return list(container.keys()) + list(container.values())
    return container


def shows(value, secret):
    return any(secret in text for text in texts(value))


def check_error(exc, names):
    """A clean error: one of CLEAN, naming one of ``names`` (files, folders, keys), showing no secret."""
    if not isinstance(exc, CLEAN):
        raise exc
    message = str(exc)
    assert INLINE_SECRET not in message and WHOLE_SECRET not in message, message
    assert any(name in message for name in names), 'the error names none of %r: %s' % (names, message)


def check_vaulted_keys(host_vars):
    """Host variables: a whole-file vaulted file's plain text only in keys listed in hier_vaulted_keys."""
    listed = host_vars.get('hier_vaulted_keys') or []
    for key, value in host_vars.items():
        assert not shows(key, INLINE_SECRET) and not shows(value, INLINE_SECRET), key
        if key not in ('hier_sources', 'hier_vaulted_keys') and key not in listed:
            assert not shows(key, WHOLE_SECRET) and not shows(value, WHOLE_SECRET), \
                'host variable %r holds a whole-file vaulted value but is not in hier_vaulted_keys' % key


@contextmanager
def warnings_kept():
    """The warnings Display gives in the block (the warning channel of every plugin), not printed."""
    seen = []
    Display.warning, before = (lambda self, message, *args, **kwargs: seen.append(message)), Display.warning
    try:
        yield seen
    finally:
        Display.warning = before


def check_warnings(seen):
    for message in seen:
        assert INLINE_SECRET not in message and WHOLE_SECRET not in message, message


def write_files(root, files):
    """Relative path -> text, bytes, or ('link', target). A file where a folder is wanted (or the other way) is
    skipped; returns the bytes written."""
    written = 0
    for relative, content in files.items():
        path = os.path.join(root, relative)
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            if isinstance(content, tuple):
                os.symlink(content[1], path)
                continue
            data = content.encode('utf-8') if isinstance(content, str) else content
            with open(path, 'xb') as stream:
                stream.write(data)
            written += len(data)
        except OSError:
            continue
    return written
