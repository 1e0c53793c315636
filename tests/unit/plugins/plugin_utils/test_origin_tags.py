# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 28, item 6: from ansible-core 2.19, a merged value carries the Origin tag (file, line, column) of the data
it comes from (compat.origin_tagged); before 2.19 it comes back as it is."""

from __future__ import annotations

import os

import pytest

from ansible.parsing.dataloader import DataLoader
from ansible.parsing.vault import VaultLib, VaultSecret

from ansible_collections.strata.hier.plugins.plugin_utils.compat import DATA_TAGGING, is_vault_value, origin_tagged
from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy_cache import get_hierarchy
from ansible_collections.strata.hier.tests.unit.plugins.readme_project import DB01, README_FILES, write

tagging = pytest.mark.skipif(not DATA_TAGGING, reason='Origin tags exist from ansible-core 2.19')


@pytest.fixture
def readme(tmp_path):
    write(tmp_path, README_FILES)
    hierarchy = get_hierarchy(str(tmp_path / 'hier.yml'), DataLoader())
    hierarchy.begin_pass()
    return tmp_path, hierarchy


def tagged_lookup(readme, key):
    root, hierarchy = readme
    resolution = hierarchy.lookup(key, DB01, provenance=True)
    return resolution.value, origin_tagged(resolution.value, resolution.records, str(root), resolution.key)


def origin(value):
    from ansible._internal._datatag._tags import Origin
    tag = Origin.get_tag(value)
    return None if tag is None else (tag.path, tag.line_num, tag.col_num)


@tagging
def test_each_list_item_names_its_file_and_line(readme):
    root = str(readme[0])
    value, tagged = tagged_lookup(readme, 'packages')
    assert tagged == value == ['ntpsec', 'postgresql', 'openssh-server']
    assert [origin(item) for item in tagged] == [
        (os.path.join(root, 'data', 'nodes', 'db01.yml'), 3, 22),
        (os.path.join(root, 'data', 'roles', 'db.yml'), 1, 12),
        (os.path.join(root, 'data', 'common.yml'), 1, 12)]
    assert origin(tagged) == (os.path.join(root, 'data', 'nodes', 'db01.yml'), 3, 1)


@tagging
def test_a_map_and_its_keys_name_their_files_and_lines(readme):
    root = str(readme[0])
    value, tagged = tagged_lookup(readme, 'ntp')
    assert tagged == value
    assert origin(tagged['makestep']) == (os.path.join(root, 'data', 'roles', 'db.yml'), 3, 3)
    assert origin(tagged['servers']) == (os.path.join(root, 'data', 'common.yml'), 3, 3)
    assert origin(tagged['servers'][1]) == (os.path.join(root, 'data', 'common.yml'), 3, 29)
    assert origin(tagged) == (os.path.join(root, 'data', 'roles', 'db.yml'), 2, 1)


@tagging
def test_an_assert_on_a_merged_value_names_the_data_line(readme):
    from ansible.template import Templar, trust_as_template
    root = str(readme[0])
    value, tagged = tagged_lookup(readme, 'ntp')
    for ntp, named in ((tagged, True), (value, False)):
        templar = Templar(loader=DataLoader(), variables={'ntp': ntp})
        with pytest.raises(Exception) as caught:     # what assert's that: and when: evaluate: a text is no boolean
            templar.evaluate_conditional(trust_as_template('ntp.makestep'))
        assert ('%s:3:3' % os.path.join(root, 'data', 'roles', 'db.yml') in str(caught.value)) is named


@tagging
def test_a_vault_value_is_left_as_it_is_never_decrypted():
    ciphertext = VaultLib([('default', VaultSecret(b'x'))]).encrypt('s3cret').decode()
    from ansible.parsing.vault import EncryptedString
    secret = EncryptedString(ciphertext=ciphertext)     # no vault secrets context: decrypting it would raise
    records = {'k': {'file': 'data/a.yml', 'line': 1, 'column': 1},
               'k/0': {'file': 'data/a.yml', 'line': 1, 'column': 5}}
    tagged = origin_tagged([secret], records, '/base', 'k')
    assert tagged[0] is secret and is_vault_value(tagged[0])
    assert origin(tagged) == ('/base/data/a.yml', 1, 1)


@pytest.mark.skipif(DATA_TAGGING, reason='before ansible-core 2.19 there is no Origin tag')
def test_before_2_19_the_value_comes_back_as_it_is(readme):
    value, tagged = tagged_lookup(readme, 'packages')
    assert tagged is value
