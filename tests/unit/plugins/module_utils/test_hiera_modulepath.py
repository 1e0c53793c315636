# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 26, cause 4: the modulepath as Puppet 7.23 reads environment.conf (checked against `puppet lookup` by hand:
a ``[main]`` header, quotes around the value and ``modulepath=`` without spaces are accepted; spaces around a ``:``
stay part of the entry), and a module's hiera.yaml as a configuration."""

from __future__ import annotations

import os

import pytest

from ansible_collections.strata.hier.plugins.module_utils.core.errors import HieraConfigError
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.config import parse_hiera_config
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.module_layer import (
    MISSING, NO_PROVIDER, Modules, module_of, modulepath,
)


def conf(tmp_path, text):
    with open(str(tmp_path / 'environment.conf'), 'w') as stream:
        stream.write(text)


@pytest.mark.parametrize('text, entries', [
    ('modulepath = site-modules:modules:$basemodulepath\n', ['site-modules', 'modules']),
    ('[main]\nmodulepath=modules:site-modules\n', ['modules', 'site-modules']),
    ('modulepath = "site-modules:modules"\n', ['site-modules', 'modules']),
    ('modulepath = site-modules : modules\n', ['site-modules ', ' modules']),
    ('modulepath = ./site-modules\n', ['site-modules']),
    ('manifest = site.pp\n', ['modules']),
])
def test_the_modulepath_of_environment_conf(tmp_path, text, entries):
    conf(tmp_path, text)
    folders, _warnings = modulepath(str(tmp_path))
    assert folders == [os.path.normpath(os.path.join(str(tmp_path), entry)) for entry in entries]


def test_entries_outside_the_environment_are_not_read_with_one_warning_naming_the_line(tmp_path):
    conf(tmp_path, '# r10k\nmodulepath = modules:$basemodulepath:/etc/puppetlabs/code/modules:../shared\n')
    folders, warnings = modulepath(str(tmp_path))
    assert folders == [str(tmp_path / 'modules')]
    assert warnings == ["%s:2: modulepath entries '$basemodulepath', '/etc/puppetlabs/code/modules', '../shared' "
                        'are not read (settings such as $basemodulepath and folders outside the environment are '
                        'outside the repository): modules there give no data' % (tmp_path / 'environment.conf')]


def test_without_environment_conf_the_modulepath_is_modules(tmp_path):
    assert modulepath(str(tmp_path)) == ([str(tmp_path / 'modules')], [])


@pytest.mark.parametrize('root, module', [('app::k', 'app'), ('app::k::x', 'app'), ('plain', None),
                                          ('::top', None), (3, None)])
def test_the_module_of_a_key_is_its_text_before_the_first_double_colon(root, module):
    assert module_of(root) == module


def test_modules_first_of_a_name_wins_and_invalid_names_are_no_modules(tmp_path):
    for folder in ('site/app', 'modules/app', 'modules/Bad', 'modules/other', 'modules/9lives'):
        os.makedirs(str(tmp_path / folder))
    conf(tmp_path, 'modulepath = site:modules\n')
    modules = Modules(str(tmp_path), lambda path, module: None)
    assert modules.modules() == {'app': str(tmp_path / 'site/app'), 'other': str(tmp_path / 'modules/other')}
    assert modules.config('nosuch') == MISSING and modules.config('app') == NO_PROVIDER


def test_a_module_hiera_yaml_marks_its_levels_and_refuses_default_hierarchy(tmp_path):
    path = str(tmp_path / 'hiera.yaml')
    config = parse_hiera_config({'version': 5}, path, 'app')
    assert [(level.name, level.module) for level in config.levels] == [('Common', 'app')]
    assert parse_hiera_config({'version': 5}, path).levels[0].module is None
    with pytest.raises(HieraConfigError, match=r"key 'default_hierarchy' \(a module's levels for keys nothing else "
                                               r"holds\) is not supported"):
        parse_hiera_config({'version': 5, 'default_hierarchy': [{'name': 'd', 'path': 'd.yaml'}]}, path, 'app')
