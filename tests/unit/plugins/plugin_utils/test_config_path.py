# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

import os

import pytest

from ansible_collections.strata.hier.plugins.plugin_utils.config import ConfigError
from ansible_collections.strata.hier.plugins.plugin_utils.config_path import (
    hierarchy_config_path, option_origin, resolve_option_path,
)


class Plugin:
    """The two plugin methods the helper uses; ``origin`` as ansible-core's configuration reports it."""

    def __init__(self, value, origin):
        self.value, self.origin = value, origin

    def get_option(self, option):
        assert option == 'config'
        return self.value

    def get_option_and_origin(self, option):
        if isinstance(self.origin, Exception):
            raise self.origin
        return self.value, self.origin


@pytest.fixture
def ansible_cfg(tmp_path):
    folder = tmp_path / 'project'
    folder.mkdir()
    path = folder / 'ansible.cfg'
    path.write_text('[strata_hier]\nconfig = hier.yml\n')
    return str(path)


def test_from_ansible_cfg_relative_to_its_folder(ansible_cfg, tmp_path):
    plugin = Plugin('data/hier.yml', ansible_cfg)
    resolved = resolve_option_path(plugin, 'config', str(tmp_path / 'playbooks'))
    assert resolved == os.path.join(os.path.dirname(ansible_cfg), 'data', 'hier.yml')


def test_from_environment_relative_to_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    plugin = Plugin('store/hier.yml', 'env: STRATA_HIER_CONFIG')
    assert resolve_option_path(plugin, 'config', '/elsewhere') == str(tmp_path / 'store' / 'hier.yml')


def test_given_directly_relative_to_base_dir(ansible_cfg):
    # ansible-core 2.16 reports the ansible.cfg origin even when the lookup was given config=
    plugin = Plugin('../hier.yml', ansible_cfg)
    assert option_origin(plugin, 'config', {'config': '../hier.yml'}) == 'Direct'
    assert resolve_option_path(plugin, 'config', '/site/playbooks', {'config': '../hier.yml'}) == '/site/hier.yml'


@pytest.mark.parametrize('origin', ['Direct', KeyError('config'), 'default'])
def test_other_origins_relative_to_base_dir(origin):
    assert resolve_option_path(Plugin('hier.yml', origin), 'config', '/site/inventory') == '/site/inventory/hier.yml'


def test_absolute_home_and_unset(ansible_cfg, monkeypatch):
    monkeypatch.setenv('HOME', '/home/someone')
    assert resolve_option_path(Plugin('/etc/hier/./hier.yml', ansible_cfg), 'config', '/x') == '/etc/hier/hier.yml'
    assert resolve_option_path(Plugin('~/hier.yml', ansible_cfg), 'config', '/x') == '/home/someone/hier.yml'
    assert resolve_option_path(Plugin(None, 'default'), 'config', '/x') is None


def test_an_origin_that_is_no_file_is_not_taken_for_ansible_cfg(tmp_path):
    missing = str(tmp_path / 'gone' / 'ansible.cfg')
    assert resolve_option_path(Plugin('hier.yml', missing), 'config', '/base') == '/base/hier.yml'


def test_the_hierarchy_config_is_the_resolved_option_or_an_error_saying_how_to_set_it(tmp_path):
    direct = Plugin('hier.yml', None)
    assert hierarchy_config_path(direct, str(tmp_path), {'config': 'hier.yml'}) == str(tmp_path / 'hier.yml')
    with pytest.raises(ConfigError, match=r'no hierarchy configuration: give config=\.\.\., set STRATA_HIER_CONFIG'):
        hierarchy_config_path(Plugin(None, None), str(tmp_path))
