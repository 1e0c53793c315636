# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every ``ansible.cfg`` snippet the docs show reads as meant with Ansible's own configuration reader (issue 33).

Ansible reads ``ansible.cfg`` with ``configparser.ConfigParser(inline_comment_prefixes=(';',))``: a ``#`` after a
value is part of the value (``vars_keys = packages,ntp  # optional`` sets the key ``ntp  # optional``). Snippets
are the fenced ``ini`` blocks (or blocks opening with ``# ansible.cfg``) of README.md and docs/*.md, and the
commented-out ``ansible.cfg`` of plugin EXAMPLES and role metadata. A setting commented out in a snippet is read
too, as a user who uncomments it gets it.
"""

from __future__ import annotations

import ast
import configparser
import glob
import os
import re

import pytest

from ansible.config.manager import ConfigManager

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
FENCE = re.compile(r'^```([\w+-]*)\n(.*?)^```\n', re.MULTILINE | re.DOTALL)
SECTION = re.compile(r'^\s*\[[^\]]+\]\s*$')
COMMENTED_SETTING = re.compile(r'^[#;]\s*([A-Za-z_][\w.]*\s*=.*)$')
INLINE_HASH = re.compile(r'(^|\s)#')


def markdown_snippets(path):
    with open(path, encoding='utf-8') as stream:
        text = stream.read()
    for match in FENCE.finditer(text):
        language, body = match.groups()
        if language in ('ini', 'cfg') or body.startswith('# ansible.cfg'):
            yield text.count('\n', 0, match.start()) + 2, body


def commented_snippets(text, first_line=1):
    """The ini files written as comment blocks (``# [defaults]`` ...) in YAML, from their first section on."""
    block, start = [], None
    for number, line in enumerate(text.splitlines() + [''], first_line):
        if line.startswith('#'):
            uncommented = re.sub(r'^# ?', '', line)
            if start is None and SECTION.match(uncommented):
                start = number
            if start is not None:
                block.append(uncommented)
            continue
        if block:
            yield start, '\n'.join(block) + '\n'
        block, start = [], None


def examples_snippets(path):
    with open(path, encoding='utf-8') as stream:
        tree = ast.parse(stream.read(), path)
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(target, 'id', None) == 'EXAMPLES' for target in node.targets):
            yield from commented_snippets(node.value.value, node.value.lineno)


def role_meta_snippets(path):
    with open(path, encoding='utf-8') as stream:
        yield from commented_snippets(stream.read())


def snippets():
    """(place, text) of every ansible.cfg snippet; place is ``path:line`` relative to the collection."""
    found = []
    sources = ([(path, markdown_snippets) for path in ['README.md'] + sorted(glob.glob('docs/*.md', root_dir=ROOT))]
               + [(path, examples_snippets) for path in sorted(glob.glob('plugins/*/*.py', root_dir=ROOT))]
               + [(path, role_meta_snippets) for path in sorted(glob.glob('roles/*/meta/*.yml', root_dir=ROOT))])
    for path, reader in sources:
        found.extend(('%s:%d' % (path, line), text) for line, text in reader(os.path.join(ROOT, path)))
    return found


def uncommented_settings(text):
    """Each setting a snippet shows commented out (``# vars_stage = task``), alone in its section."""
    section = None
    for line in text.splitlines():
        if SECTION.match(line):
            section = line.strip()
        setting = COMMENTED_SETTING.match(line)
        if setting and section:
            yield '%s\n%s\n' % (section, setting.group(1))


def read_with_ansible(text, folder):
    """{(section, key): value} as Ansible's ConfigManager reads the file, through a definition of each setting."""
    path = os.path.join(str(folder), 'ansible.cfg')
    with open(path, 'w', encoding='utf-8') as stream:
        stream.write(text)
    manager = ConfigManager(conf_file=path)         # parses the file as ansible does, or raises AnsibleOptionsError
    names = configparser.RawConfigParser(strict=False)  # only the section and key names, whatever the values
    names.read_string(text)
    settings = [(section, key) for section in names.sections() for key in names.options(section)]
    definitions = {'%s.%s' % setting: {'ini': [{'section': setting[0], 'key': setting[1]}], 'type': 'str'}
                   for setting in settings}
    manager.initialize_plugin_configuration_definitions('lookup', 'snippet', definitions)
    return {setting: manager.get_config_value('%s.%s' % setting, cfile=path, plugin_type='lookup', plugin_name='snippet')
            for setting in settings}


SNIPPETS = snippets()


def test_the_snippets_are_found_where_the_docs_show_them():
    places = {place.partition(':')[0] for place, text in SNIPPETS}
    assert {'README.md', 'docs/hierarchy.md', 'docs/rsop.md', 'plugins/vars/hier.py',
            'plugins/callback/preload.py'} <= places, places


@pytest.mark.parametrize('place, text', SNIPPETS, ids=[place for place, text in SNIPPETS])
def test_a_snippet_sets_no_value_with_a_hash_comment(tmp_path, place, text):
    for variant in [text] + list(uncommented_settings(text)):
        values = read_with_ansible(variant, tmp_path)
        assert values, '%s: no setting in %r' % (place, variant)
        carrying = {'[%s] %s' % setting: str(value) for setting, value in values.items() if INLINE_HASH.search(str(value))}
        assert not carrying, '%s: Ansible reads a "#" comment as part of these values: %s' % (place, carrying)


def test_a_hash_comment_after_a_value_is_part_of_the_value_for_ansible(tmp_path):
    """What the test above relies on: Ansible's reader keeps ``#`` after a value and strips ``;``."""
    values = read_with_ansible('[strata_hier]\nvars_keys = packages,ntp  # optional\nconfig = hier.yml ; x\n', tmp_path)
    assert values == {('strata_hier', 'vars_keys'): 'packages,ntp  # optional', ('strata_hier', 'config'): 'hier.yml'}
