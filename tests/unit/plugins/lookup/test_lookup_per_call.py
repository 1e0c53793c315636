# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""What a warm lookup call costs in a play (issue 32, item 3): options kept for the strings a play passes (tagged or
unsafe, not the exact type str), level variables that cannot be templates not sent through the templar, no walk for
eyaml values where the store reads none; and an answer a caller changes never changes the next one."""

from __future__ import annotations

import os

from ansible.parsing.dataloader import DataLoader
from ansible.plugins.loader import lookup_loader
from ansible.template import Templar

from ansible_collections.strata.hier.plugins.lookup import hier as hier_lookup
from ansible_collections.strata.hier.plugins.plugin_utils.compat import DATA_TAGGING, trust_as_template


def Text(text):      # pylint: disable=invalid-name
    """A string as a play passes one: a str subclass (2.19's tagged strings, 2.16's YAML strings)."""
    if DATA_TAGGING:
        from ansible._internal._datatag._tags import Origin
        return Origin(description='a play').tag(str(text))
    from ansible.parsing.yaml.objects import AnsibleUnicode
    return AnsibleUnicode(str(text))


def write(path, text):
    os.makedirs(os.path.dirname(str(path)), exist_ok=True)
    with open(str(path), 'w') as stream:
        stream.write(text)


def store(folder):
    write(folder / 'hier.yml', 'datadir: data\nhierarchy: ["roles/%{Role}", common]\n'
          'lookup_options:\n  Packages: {merge_hash_array: DeepTuple, merge_options: {tuple_keys: [Name]}}\n'
          '  Settings: deep\n')
    write(folder / 'data' / 'roles' / 'web.yml', 'Packages: [{Name: nginx, Opts: {a: 1}}]\nSettings: {x: {y: 1}}\n'
          'Greeting: "{{ not_rendered }}"\n')
    write(folder / 'data' / 'common.yml', 'Packages: [{Name: base, Opts: {b: 2}}, {Name: nginx, Opts: {c: 3}}]\n'
          'Settings: {x: {z: 2}, w: [1, 2]}\n')
    return folder


def plugin(variables=None):
    loader = DataLoader()
    return lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader, variables=variables))


def test_options_given_as_string_subclasses_are_read_once(tmp_path, monkeypatch):
    folder = store(tmp_path)
    plugin_class = type(lookup_loader.get('strata.hier.hier'))
    calls = []
    real = plugin_class.set_options
    monkeypatch.setattr(plugin_class, 'set_options', lambda self, *args, **kwargs: calls.append(1) or
                        real(self, *args, **kwargs))
    monkeypatch.setattr(hier_lookup, '_OPTIONS_KEPT', {})
    config = Text(folder / 'hier.yml')
    for _round in range(3):
        assert plugin().run(['Settings'], {'Role': 'web'}, config=config) == [{'x': {'y': 1, 'z': 2}, 'w': [1, 2]}]
    assert len(calls) == 1      # was 3: the key held only the exact type str
    first, again = Text('none here'), Text('none here')
    assert plugin().run(['Missing'], {'Role': 'web'}, config=config, default=first)[0] is first
    assert plugin().run(['Missing'], {'Role': 'web'}, config=config, default=again)[0] is again    # its own object
    assert len(calls) == 2
    assert plugin().run(['Settings'], {'Role': 'web'}, config=config, merge=Text('first')) == \
        [{'x': {'y': 1}}]    # another option set: read


def test_level_variables_that_cannot_be_templates_skip_the_templar(tmp_path, monkeypatch):
    folder = store(tmp_path)
    templated = []
    real = Templar.template
    monkeypatch.setattr(Templar, 'template', lambda self, value, *args, **kwargs: templated.append(value) or
                        real(self, value, *args, **kwargs))
    lookup = plugin({'kind': 'web'})
    config = str(folder / 'hier.yml')
    assert lookup.run(['Settings'], {'Role': Text('web'), 'Unused': '{{ 1 + 1 }}'}, config=config) == \
        [{'x': {'y': 1, 'z': 2}, 'w': [1, 2]}]
    assert templated == []      # was ['web']; 'Unused' is named by no level
    assert lookup.run(['Settings'], {'Role': trust_as_template('{{ kind }}'), 'kind': 'web'}, config=config) == \
        [{'x': {'y': 1, 'z': 2}, 'w': [1, 2]}]      # a template is still rendered


def test_no_walk_for_eyaml_values_where_the_store_reads_none(tmp_path, monkeypatch):
    folder = store(tmp_path)
    walked = []
    real = hier_lookup.eyaml_decrypted
    monkeypatch.setattr(hier_lookup, 'eyaml_decrypted', lambda value: walked.append(value) or real(value))
    assert plugin().run(['Packages', 'Greeting'], {'Role': 'web'}, config=str(folder / 'hier.yml')) == \
        [[{'Name': 'nginx', 'Opts': {'a': 1, 'c': 3}}, {'Name': 'base', 'Opts': {'b': 2}}], '{{ not_rendered }}']
    assert walked == []     # was both answers


def test_an_answer_changed_by_its_caller_never_changes_the_next_one(tmp_path):
    folder = store(tmp_path)
    lookup = plugin()
    config = str(folder / 'hier.yml')
    for _round in range(2):
        packages, settings = lookup.run(['Packages', 'Settings'], {'Role': 'web'}, config=config)
        assert packages == [{'Name': 'nginx', 'Opts': {'a': 1, 'c': 3}}, {'Name': 'base', 'Opts': {'b': 2}}]
        assert settings == {'x': {'y': 1, 'z': 2}, 'w': [1, 2]}
        packages[0]['Opts']['a'] = 'changed'
        packages[1]['Opts'].clear()
        packages.append({'Name': 'extra'})
        settings['x'].clear()
        settings['w'].append(3)
