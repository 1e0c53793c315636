# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 26, item 2: the hiera.yaml of real control repositories read as Puppet reads them (cause 2: a key given no
value), and every problem of one reported at once, each with its line (cause 8)."""

from __future__ import annotations

import os

import pytest

from ansible.parsing.dataloader import DataLoader

from ansible_collections.strata.hier.plugins.plugin_utils.config import ConfigError
from ansible_collections.strata.hier.plugins.plugin_utils.source import open_source


def write(path, text):
    os.makedirs(os.path.dirname(str(path)), exist_ok=True)
    with open(str(path), 'w') as stream:
        stream.write(text)


def answer(root, key):
    return open_source(str(root / 'hiera.yaml'), DataLoader()).for_host({'inventory_hostname': 'web01'}).lookup(key)


COMMENTED_DEFAULTS = '''---
version: 5
defaults:
  # datadir: data
  # data_hash: yaml_data
hierarchy:
  - name: common
    path: common.yaml
'''


def test_a_defaults_key_holding_only_comments_has_puppets_defaults(tmp_path):
    write(tmp_path / 'hiera.yaml', COMMENTED_DEFAULTS)
    write(tmp_path / 'data' / 'common.yaml', 'k: common\n')
    assert answer(tmp_path, 'k').value == 'common'


def test_a_hierarchy_key_holding_only_comments_is_puppets_default_hierarchy(tmp_path):
    write(tmp_path / 'hiera.yaml', 'version: 5\nhierarchy:\n  # - name: nodes\n')
    write(tmp_path / 'data' / 'common.yaml', 'k: common\n')
    assert answer(tmp_path, 'k').value == 'common'


def test_an_empty_map_of_defaults_still_gives_no_data_hash(tmp_path):
    """Puppet: only a missing or empty value has the defaults; ``defaults: {}`` has none."""
    write(tmp_path / 'hiera.yaml', 'version: 5\ndefaults: {}\nhierarchy:\n  - {name: common, path: common.yaml}\n')
    with pytest.raises(ConfigError, match=r"hiera\.yaml:4: key 'hierarchy\[0\] \(level 'common'\)' defines no "
                                          r"data_hash"):
        answer(tmp_path, 'k')
