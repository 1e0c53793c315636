# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""A chain of Hiera interpolations too long to follow (issue 25, finding 9) is a plain error of the lookup and
the inventory naming the key, file and line, not a RecursionError (ansible-core 2.16: "unhandled exception",
the inventory dropped)."""

from __future__ import annotations

import pytest

from ansible.errors import AnsibleError
from ansible.inventory.data import InventoryData
from ansible.parsing.dataloader import DataLoader
from ansible.plugins.loader import inventory_loader

from ansible_collections.strata.hier.tests.unit.plugins.inventory.test_inventory_hier import write
from ansible_collections.strata.hier.tests.unit.plugins.lookup.test_lookup_hiera import HIERA, lookup

CHAIN = ''.join("k%d: \"%%{lookup('k%d')}\"\n" % (index, index - 1) for index in range(60, 0, -1)) + 'k0: x\n'
"""k60 first: the inventory looks the keys up in their order (from k0 up, each lookup would find the one
before already looked up, and the chain would be followed a step at a time)."""
NAMED = r"Hiera interpolation of 'k\d+' in 'k\d+': interpolations nest deeper than Python can follow .*" \
        r"\(key 'k\d+', level 'common', file \S+/data/common\.yaml:\d+\)"


@pytest.fixture
def repo(tmp_path):
    write(tmp_path / 'hiera.yaml', HIERA)
    write(tmp_path / 'data' / 'common.yaml', CHAIN)
    write(tmp_path / 'data' / 'nodes' / 'web01.example.com.yaml', 'port: 80\n')
    return tmp_path


def test_the_lookup_names_the_key_and_its_line(repo):
    with pytest.raises(AnsibleError, match=NAMED) as raised:
        lookup(repo, 'k60')
    place = str(raised.value).rsplit('file ', 1)[1].rstrip(')')
    path, line = place.rsplit(':', 1)
    key = str(raised.value).rsplit("(key '", 1)[1].split("'")[0]
    assert open(path).read().splitlines()[int(line) - 1].startswith(key + ':')
    assert lookup(repo, 'k10') == ['x']


def test_the_inventory_fails_with_the_same_error(repo):
    source = repo / 'site.hier.yml'
    write(source, 'plugin: strata.hier.hier\nconfig: hiera.yaml\nnodes: data/nodes/*.yaml\nfacts: {role: web}\n')
    with pytest.raises(AnsibleError, match=r'site\.hier\.yml: ' + NAMED):
        inventory_loader.get('strata.hier.hier').parse(InventoryData(), DataLoader(), str(source), cache=False)
