# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 28 over the bundled stores (examples/hierarchy: hier.yml, data/Datum.yml, the DscWorkshop store), README.md's
first project and a store of what the fixed hooks missed: for
every node and key, a lookup with provenance gives the value and warnings of one without, re-merging the
contributions its records name reproduces the value (module_utils/remerge.py), and every path of the value has a
record naming a file and line."""

from __future__ import annotations

import os
import shutil

import pytest

from ansible.parsing.dataloader import DataLoader
from ansible.parsing.vault import VaultSecret

from ansible_collections.strata.hier.plugins.module_utils.core.identity import shown_path
from ansible_collections.strata.hier.plugins.module_utils.core.paths import split_path
from ansible_collections.strata.hier.plugins.plugin_utils import hierarchy as hierarchy_module
from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy_cache import get_hierarchy
from ansible_collections.strata.hier.tests.unit.plugins.readme_project import README_FILES, write
from ansible_collections.strata.hier.tests.unit.plugins.vault_context import secrets_context
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.remerge import check_remerge, paths_of, same

EXAMPLES = os.path.join(os.path.dirname(__file__), '..', '..', '..', '..', 'examples', 'hierarchy')
SECRET = [('default', VaultSecret(b'strata-demo-only'))]
# what the fixed provenance hooks missed: a null, the maps and lists of a list mixing scalars and containers, a
# tuple knockout among them
MIXED = {
    'hier.yml': 'datadir: data\nhierarchy: ["nodes/%{NodeName}", common]\nnodes: "nodes/*"\n'
                'lookup_options: {mixed: Unique, settings: deep}\n',
    'data/nodes/n1.yml': 'NodeName: n1\nmixed: [p, {Name: --q}, [x, {y: 1}]]\nsettings: {a: null, b: 1}\n',
    'data/common.yml': 'mixed: [{Name: q, v: 1}, [a, b], r]\nsettings: {a: null, c: [1]}\n',
}
CONFIGS = ['readme/hier.yml', 'mixed/hier.yml', 'hier.yml', os.path.join('data', 'Datum.yml'), os.path.join('dscworkshop', 'Datum.yml')]


@pytest.fixture(scope='module')
def store(tmp_path_factory):
    root = tmp_path_factory.mktemp('examples')
    for name in ('data', 'dscworkshop', 'hier.yml'):
        source = os.path.join(EXAMPLES, name)
        (shutil.copytree if os.path.isdir(source) else shutil.copy)(source, str(root / name))
    write(root / 'readme', README_FILES)
    write(root / 'mixed', MIXED)
    return root


def merges_of(monkeypatch):
    """The merges a Hierarchy runs: (values, rules, path), as it hands them to merge_layers."""
    seen = []
    merge = hierarchy_module.merge_layers

    def spy(values, rules, path=(), explain=False, provenance=False):
        seen.append((list(values), rules, path))
        return merge(values, rules, path, explain, provenance)
    monkeypatch.setattr(hierarchy_module, 'merge_layers', spy)
    return seen


def lookups(hierarchy):
    """(node file, key, variables, expansions) of every node and every key its levels hold, as the inventory plugin
    looks them up."""
    for node_file, data in hierarchy.nodes():
        variables = dict(data, inventory_hostname=os.path.splitext(os.path.basename(node_file))[0])
        expansions = hierarchy.expand_levels(variables)
        for key in hierarchy.keys_of(expansions):
            yield node_file, key, variables, expansions


@pytest.fixture
def vault_context():
    with secrets_context(SECRET):
        yield


@pytest.mark.parametrize('config', CONFIGS)
def test_every_node_and_key_re_merges_from_its_provenance(store, config, monkeypatch, vault_context):
    loader = DataLoader()
    loader.set_vault_secrets(SECRET)
    hierarchy = get_hierarchy(str(store / config), loader)
    hierarchy.begin_pass()
    merges = merges_of(monkeypatch)
    checked = 0
    for node_file, key, data, expansions in lookups(hierarchy):
        plain = hierarchy.lookup(key, data, expansions=expansions)
        noted = hierarchy.lookup(key, data, expansions=expansions, provenance=True)
        assert same(noted.value, plain.value) and noted.warnings == plain.warnings, (node_file, key)
        values, rules, path = merges[-1]
        check_remerge(values, rules, path)
        for at in paths_of(noted.value, split_path(path)):
            record = noted.records.get(shown_path(at))
            assert record is not None, '%s %s: no record for %s' % (node_file, key, shown_path(at))
            assert record['file'] and (record.get('withheld') or isinstance(record['line'], int)), (at, record)
        checked += 1
    assert checked >= 3, checked
