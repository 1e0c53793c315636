# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Where a key path is written in a YAML file, for error messages.

Done with PyYAML's composer rather than Ansible's origin tags, so every
supported ansible-core gives the same answer.
"""

from __future__ import annotations

from typing import Optional, Sequence

import yaml


def line_of(path: str, keys: Sequence[str]) -> Optional[int]:
    """1-based line of the deepest of ``keys`` found in the file, or None."""
    try:
        with open(path, encoding='utf-8') as stream:
            node = yaml.compose(stream, Loader=yaml.SafeLoader)
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None
    line = None
    for key in keys:
        if isinstance(key, int) and isinstance(node, yaml.SequenceNode) and 0 <= key < len(node.value):
            node = node.value[key]      # a list item (hiera.yaml's hierarchy[0]): its line is its first key's
            line = node.start_mark.line + 1
            continue
        if not isinstance(node, yaml.MappingNode):
            break
        match = next(((k, v) for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == str(key)), None)
        if match is None:
            break
        line = match[0].start_mark.line + 1
        node = match[1]
    return line


def key_position(path: str, keys: Sequence[str]) -> str:
    """``file:line`` when the line is known, else the file."""
    line = line_of(path, keys)
    return '%s:%d' % (path, line) if line else path
