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
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import SourceFileLoader
from importlib.util import MAGIC_NUMBER, spec_from_file_location

_HELPERS = tuple('ansible_collections.strata.hier.plugins.%s.' % folder for folder in ('module_utils', 'plugin_utils'))


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


install()
