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


FOUR_PROBLEMS = '''---
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
  merge: deep
hierarchy:
  - name: nodes
    path: "nodes/%{trusted.certname}.yaml"
  - name: os
    datadir: ""
    path: "os/%{facts.os.family}.yaml"
  - name: roles
  - name: common
    data_hash: hocon_data
    path: common.conf
'''


def test_every_problem_of_a_hiera_yaml_is_reported_at_once_each_with_its_line(tmp_path):
    """An unknown key, a wrong type, a level without a path, an unsupported backend: one error names all four."""
    write(tmp_path / 'hiera.yaml', FOUR_PROBLEMS)
    with pytest.raises(ConfigError) as caught:
        answer(tmp_path, 'k')
    path = str(tmp_path / 'hiera.yaml')
    lines = str(caught.value).splitlines()
    assert lines[0] == '%s has 4 problems:' % path
    assert lines[1].startswith("%s:6: key 'defaults.merge' is not a Hiera 5 key here" % path)
    assert lines[2] == "%s:11: key 'hierarchy[1] (level 'os').datadir' must be a non-empty string" % path
    assert lines[3].startswith("%s:13: key 'hierarchy[2] (level 'roles')' defines none of path, paths" % path)
    assert lines[4].startswith("%s:15: key 'hierarchy[3] (level 'common').data_hash' uses the backend 'hocon_data'"
                               % path)
    assert len(lines) == 5


def test_one_problem_is_reported_as_before(tmp_path):
    write(tmp_path / 'hiera.yaml', FOUR_PROBLEMS.replace('  merge: deep\n', '').replace('    datadir: ""\n', '')
          .replace('  - name: roles\n', ''))
    with pytest.raises(ConfigError, match=r"^%s:12: key 'hierarchy\[2\] \(level 'common'\)\.data_hash' uses the "
                                          r"backend 'hocon_data'" % str(tmp_path / 'hiera.yaml')):
        answer(tmp_path, 'k')


def test_problems_of_the_same_level_and_of_the_file_are_all_reported(tmp_path):
    write(tmp_path / 'hiera.yaml', 'version: 5\nlookup_options: {}\nhierarchy:\n'
                                   '  - {name: a, path: a.yaml, glob: "*.yaml", merge: deep}\n'
                                   '  - {name: a, path: b.yaml}\n  - just a string\n')
    with pytest.raises(ConfigError) as caught:
        answer(tmp_path, 'k')
    message = str(caught.value)
    for expected in ("hiera.yaml:2: key 'lookup_options' is not a Hiera 5 key", "hiera.yaml:4: key 'hierarchy[0].merge'",
                     "hiera.yaml:4: key 'hierarchy[0] (level 'a')' may define only one of path",
                     "hiera.yaml:6: key 'hierarchy[2]' must be a map", "names the level 'a' more than once"):
        assert expected in message
    assert ' has 5 problems:' in message
