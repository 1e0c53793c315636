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
(``PYTHONDONTWRITEBYTECODE``, ``PYTHONPYCACHEPREFIX``), and it is used only while it matches its source.
What the collection loader adds for module_utils, redirects from ``meta/runtime.yml``, this collection does not use
for its own helpers.
"""

from __future__ import annotations

import os
import sys
from importlib.util import spec_from_file_location

_HELPERS = tuple('ansible_collections.strata.hier.plugins.%s.' % folder for folder in ('module_utils', 'plugin_utils'))


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
                return spec_from_file_location(fullname, source)     # a SourceFileLoader, as Ansible's plugins
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
