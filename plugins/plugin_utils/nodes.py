# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Node discovery: the node files a configuration's ``nodes`` glob matches, and the host name of each."""

from __future__ import annotations

import glob
import os
import re
from collections.abc import Mapping
from typing import Any, Callable, Dict, List, Optional, Tuple

from ansible.errors import AnsibleParserError

from ansible_collections.strata.hier.plugins.module_utils.dialects.datum.syntax import is_handler
from ansible_collections.strata.hier.plugins.module_utils.core.levels import split_level
from ansible_collections.strata.hier.plugins.plugin_utils.store import DATA_EXTENSIONS

# Letters, digits, '_', '.' and '-': nothing Ansible reads as a template ({{ {% {#), a host pattern
# (, : ! & * ? [ ~), a path or a shell word. Also a file name: the rsop role writes <name>.yml. Not '__...':
# '__ansible_vault' is a type marker in ansible-inventory --list JSON, which could not be read back.
HOST_NAME = re.compile(r'[A-Za-z0-9_][A-Za-z0-9_.-]{0,252}')
HOST_NAME_RULE = ("a host name is 1 to 253 ASCII letters, digits, '_', '.' or '-', starting with a letter, digit or "
                  "'_' (not '__'), and not all or ungrouped (so that Ansible never reads it as a template, a host "
                  "pattern, a path or a type marker of its JSON)")


def node_files(store: Any, pattern: Optional[str], config_path: str) -> List[str]:
    """Files matched by the configuration's ``nodes`` glob (any data extension), sorted."""
    if not pattern:
        raise AnsibleParserError('strata.hier.hier: the configuration %s has no "nodes" glob to find node files'
                                 % config_path)
    base, segments = store.locate(split_level(pattern))
    found = set()
    for extension in DATA_EXTENSIONS:
        for path in glob.glob(os.path.join(base, *segments) + extension):
            found.add(store.inside(path, os.path.relpath(path, store.root)))
    return sorted(found)


def named_nodes(nodes: List[Tuple[str, Any]], refuse: Callable[[str], None]) -> Dict[str, Tuple[str, Any]]:
    """Host name -> (node file, its data), from (node file, its data). A node whose name is unusable, or taken by
    another node, is left out and given to ``refuse`` (a warning or an error): a bad node does not take the others
    down."""
    named, files = {}, {}
    for node_file, data in nodes:
        name, problem = node_name(data, node_file)
        if problem is None:
            files.setdefault(name, []).append(node_file)
            named[name] = (node_file, data)
        else:
            refuse(problem)
    for name, node_files_of_name in files.items():
        if len(node_files_of_name) > 1:
            refuse('%d nodes are named %r: %s' % (len(node_files_of_name), name, ', '.join(node_files_of_name)))
            del named[name]
    return named


def node_name(data: Any, node_file: str) -> Tuple[Optional[str], Optional[str]]:
    """(host name, None), or (None, why the node has no usable name): NodeName, else Name, else the file's stem;
    a Datum expression falls through to the next."""
    for key in ('NodeName', 'Name'):
        value = data.get(key) if isinstance(data, Mapping) else None
        if value is None or (isinstance(value, str) and is_handler(value)):
            continue
        return _checked_name(value, '%s %r' % (key, value), node_file)
    stem = os.path.splitext(os.path.basename(node_file))[0]
    return _checked_name(stem, 'the file name %r' % stem, node_file)


def name_problem(name: Any) -> Optional[str]:
    """Why ``name`` cannot be a host name, or None."""
    if not isinstance(name, str) or not HOST_NAME.fullmatch(name) or name in ('all', 'ungrouped') or \
            name.startswith('__'):
        return HOST_NAME_RULE
    return None


def _checked_name(name: Any, what: str, node_file: str) -> Tuple[Optional[str], Optional[str]]:
    problem = name_problem(name)
    if problem:
        return None, '%s: %s is not a usable host name: %s' % (node_file, what, problem)
    return str(name), None
