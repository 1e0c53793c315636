# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Python's bytecode cache for the collection's own helpers (module_utils and plugin_utils).

ansible-core's collection loader compiles a module from its source every time it is imported and keeps no
bytecode, and ansible-playbook forks a fresh worker for every host and task. A lookup's first call in a worker
spent most of its time compiling these helpers again (issue 13). Ansible's plugin loader already imports plugin
files with Python's SourceFileLoader, which keeps bytecode in ``__pycache__``; importing this module makes the
helpers load the same way. Every other name, including other collections' module_utils, stays with Ansible.

Python's own rules apply: bytecode is written only where the collection is writable and Python may write it
(``PYTHONDONTWRITEBYTECODE``, ``PYTHONPYCACHEPREFIX``), and it is used only while it matches its source: the
timestamp-based bytecode Python writes, checked against the source's modification time and size. Hash-based
bytecode is never used (``_TimestampBytecodeLoader``): an unchecked one Python never compares with its source, and
a checked one only claims its source's hash, which anyone can write in front of other code. Such a file, planted in
``__pycache__`` (the collection may sit inside the data repository), was code Ansible's loader alone never runs.
Timestamp-based bytecode older than its source file is not used either: Python writes bytecode after its source, while
a checkout writes a committed ``__pycache__`` before the sources beside it (so a planted file whose header guessed
the source's modification time and size is not run from a fresh clone).
What the collection loader adds for module_utils, redirects from ``meta/runtime.yml``, this collection does not use
for its own helpers.

Where no bytecode can be kept (``PYTHONDONTWRITEBYTECODE``, a read-only installation without compiled bytecode), every
worker compiles the helpers again: several times the CPU of each host's first lookup. The loader notes the helpers
it compiled and could not keep (on the compiling path only), and ``warn_uncached`` names the case and its fix once
per run (issue 33).
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import SourceFileLoader
from importlib.util import MAGIC_NUMBER, spec_from_file_location
from typing import Callable, List

_HELPERS = tuple('ansible_collections.strata.hier.plugins.%s.' % folder for folder in ('module_utils', 'plugin_utils'))

COLLECTION = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
"""The collection's root (``.../ansible_collections/strata/hier``), what ``compileall`` is given."""

UNCACHED: List[str] = []
"""Why each helper this process compiled from source could not keep its bytecode (empty: every helper was read from
bytecode or kept its own)."""

_MARK = 'strata.hier-no-bytecode'
"""The file in the run's private temporary folder telling the run's processes that the case was named already."""

_TOLD: List[bool] = []
"""Not empty once this process has asked whether to tell."""


class _TimestampBytecodeLoader(SourceFileLoader):
    """Python's SourceFileLoader, reading timestamp-based bytecode written after its source only.

    SourceLoader.get_code validates timestamp-based bytecode against the source; hash-based bytecode it compares
    with the source only when its header asks to (``--check-hash-based-pycs default``), and then only the hash the
    header claims. Such bytecode, and bytecode older than its source, is read as missing instead: the source is
    compiled, and timestamp-based bytecode written in its place.
    """

    def get_data(self, path):
        data = super().get_data(path)
        if path != self.path and data[:4] == MAGIC_NUMBER:
            if int.from_bytes(data[4:8], 'little') & 0b1:
                raise OSError('hash-based bytecode is not used for %s' % self.path)    # get_code: no bytecode
            if os.stat(path).st_mtime_ns < os.stat(self.path).st_mtime_ns:
                raise OSError('bytecode older than its source is not used for %s' % self.path)
        return data

    def source_to_code(self, data, path, *, _optimize=-1):
        # called only where no bytecode was usable; with PYTHONDONTWRITEBYTECODE (or -B) Python keeps none
        if sys.dont_write_bytecode:
            UNCACHED.append('PYTHONDONTWRITEBYTECODE is set')
        return super().source_to_code(data, path, _optimize=_optimize)

    def set_data(self, path, data, *, _mode=0o666):
        super().set_data(path, data, _mode=_mode)
        if not os.path.isfile(path):    # SourceFileLoader gives up silently where it cannot write
            UNCACHED.append('%s cannot be written' % os.path.dirname(path))


class HelperFinder:
    """A meta path finder for the helpers' source files, ahead of Ansible's collection finder.

    Folders (namespace packages, with no code to compile) are left to Ansible.
    """

    @staticmethod
    def find_spec(fullname, path=None, target=None):
        if path is None or not fullname.startswith(_HELPERS):
            return None
        for folder in path:
            source = os.path.join(folder, fullname.rpartition('.')[2] + '.py')
            if os.path.isfile(source):
                # a SourceFileLoader, as Ansible's plugins, which leaves out hash-based bytecode
                return spec_from_file_location(fullname, source, loader=_TimestampBytecodeLoader(fullname, source))
        return None


def install() -> None:
    """Put the finder just ahead of Ansible's collection finder, once per process.

    Not first on ``sys.meta_path``: whatever Ansible put ahead of its finder (such as ansible-test's import
    restrictions) stays ahead. Without Ansible's finder, the helpers import as any Python module does.
    """
    if any(finder is HelperFinder for finder in sys.meta_path):
        return
    for index, finder in enumerate(sys.meta_path):
        if type(finder).__name__ == '_AnsibleCollectionFinder':
            sys.meta_path.insert(index, HelperFinder)
            return


def warn_uncached(warn: Callable[[str], None]) -> None:
    """Name the helpers' missing bytecode, and the fix, with ``warn``: once per run, in its first process to see it.

    Costs a list's truth test where the helpers were read from (or kept) bytecode.
    """
    if not UNCACHED or not _first_to_tell():
        return
    warn("strata.hier: the collection's code is compiled from source in every process that loads it, as no bytecode "
         "of it can be kept (%s): each host's first lookup costs several times its CPU (less with the preload "
         "callback). Compile it once: python -m compileall -q --invalidation-mode timestamp %s"
         % (UNCACHED[0], COLLECTION))


def _first_to_tell() -> bool:
    """Once per process, then whether this is the run's first process to tell (a file made in Ansible's private
    temporary folder of the run, which the process that forks the workers made); True where there is none."""
    if _TOLD:
        return False
    _TOLD.append(True)
    try:
        from ansible import constants
        os.close(os.open(os.path.join(constants.DEFAULT_LOCAL_TMP, _MARK), os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        return False
    except Exception:  # pylint: disable=broad-except  # no run folder: each process tells
        return True
    return True


install()
