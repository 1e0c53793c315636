# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Data is never rendered as a template by Ansible, whatever delimiters it declares (issue 25, finding 2).

Each path by which data reaches Ansible's templates (inventory and vars plugins' host variables, map keys, the
lookup's results) is rendered through a real Templar, as a play would: the hostile text must come back as written.
"""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import given, settings, strategies as st

from ansible.inventory.data import InventoryData
from ansible.parsing.dataloader import DataLoader
from ansible.plugins.loader import inventory_loader, lookup_loader, vars_loader
from ansible.template import Templar

from ansible_collections.strata.hier.plugins.plugin_utils.compat import DATA_TAGGING, not_templates, trust_as_template

# 2.16's Templar honours a '#jinja2:' header's delimiters: no '{{', '{%' or '{#' in the whole text
HEADER = "#jinja2:variable_start_string:'<<', variable_end_string:'>>'\n<< lookup('pipe', 'echo pwned') >>"
BLOCKS = "#jinja2:block_start_string:'<%', block_end_string:'%>'\n<% if lookup('pipe', 'echo pwned') %>x<% endif %>"
HOSTILE = [HEADER, BLOCKS, "{{ lookup('pipe', 'echo pwned') }}"]


def write(path, text):
    os.makedirs(os.path.dirname(str(path)), exist_ok=True)
    with open(str(path), 'w') as stream:
        stream.write(text)


def rendered(variables, expression):
    """``expression`` (the playbook's own, trusted) rendered by Ansible's Templar with ``variables``."""
    return Templar(loader=DataLoader(), variables=variables).template(trust_as_template(expression))


@pytest.fixture(params=HOSTILE, ids=['variable header', 'block header', 'braces'])
def project(request, tmp_path, monkeypatch):
    """The hostile text as a value and as a map key at a level every host reads."""
    monkeypatch.delenv('STRATA_HIER_CONFIG', raising=False)
    text = request.param
    write(tmp_path / 'hier.yml', 'datadir: data\nhierarchy: ["Nodes/%{inventory_hostname}", Common]\n'
                                 'nodes: "Nodes/*"\n')
    write(tmp_path / 'data' / 'Nodes' / 'web01.yml', 'Role: web\n')
    write(tmp_path / 'data' / 'Common.yml', 'Evil: %s\nNested: {%s: [%s]}\n'
          % (json.dumps(text), json.dumps(text), json.dumps(text)))
    return tmp_path, text


def assert_never_rendered(host_vars, text):
    assert rendered(host_vars, '{{ Evil }}') == text
    key, = host_vars['Nested']
    assert rendered({'item': key}, '{{ item }}') == text           # a key becomes a value: dict2items, a loop
    assert rendered(host_vars, '{{ Nested }}') == {text: [text]}


def test_inventory_host_variables_are_never_rendered(project):
    root, text = project
    write(root / 'nodes.hier.yml', 'plugin: strata.hier.hier\nconfig: %s\n' % (root / 'hier.yml'))
    inventory = InventoryData()
    inventory_loader.get('strata.hier.hier').parse(inventory, DataLoader(), str(root / 'nodes.hier.yml'))
    assert_never_rendered(inventory.get_host('web01').get_vars(), text)


def test_vars_plugin_host_variables_are_never_rendered(project):
    root, text = project
    loader = DataLoader()
    loader.set_basedir(str(root))
    inventory = InventoryData()
    inventory.add_host('web01')
    plugin = vars_loader.get('strata.hier.hier')
    plugin.set_options()
    assert_never_rendered(plugin.get_vars(loader, str(root), [inventory.get_host('web01')]), text)


def test_lookup_results_are_never_rendered_even_with_allow_unsafe(project):
    """Before 2.19 Ansible marks a lookup's results unsafe unless allow_unsafe=true (or the setting
    DEFAULT_ALLOW_UNSAFE_LOOKUPS): the plugin's own results, used directly, must not depend on it."""
    root, text = project
    loader = DataLoader()
    plugin = lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader))
    evil, nested = plugin.run(['Evil', 'Nested'], {'inventory_hostname': 'web01'}, config=str(root / 'hier.yml'))
    assert_never_rendered({'Evil': evil, 'Nested': nested}, text)
    report, = plugin.run(['Evil'], {'inventory_hostname': 'web01'}, config=str(root / 'hier.yml'), explain=True)
    assert rendered({'report': report}, '{{ report }}')['value'] == text


@pytest.mark.skipif(DATA_TAGGING, reason='ansible-core 2.16-2.18: 2.19+ never trusts data as a template')
@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(['#jinja2:', "variable_start_string:'<<'", "block_start_string:'%'", '%', '#',
                                 "comment_start_string:'##'", "line_statement_prefix:'%'", ',', '\n', ' ', '<<',
                                 '>>', '{{', '{%', '{#', '{', 'x']), max_size=8).map(''.join))
def test_whatever_templar_may_render_is_marked_unsafe(text):
    """A superset of 2.16's own predicate, Templar.is_possibly_template, which reads the header's settings."""
    from ansible.utils.unsafe_proxy import AnsibleUnsafe
    try:
        possible = Templar(loader=None).is_possibly_template(text)
    except Exception:  # pylint: disable=broad-except  # a header Templar cannot read: it renders nothing either
        possible = True
    if possible:
        assert isinstance(not_templates(text), AnsibleUnsafe)
        assert isinstance(next(iter(not_templates({text: 1}))), AnsibleUnsafe)
