# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The lookup's provenance=true and whole_node=true, and its -vvv lines (issue 28, item 2)."""

from __future__ import annotations

import pytest

from ansible.errors import AnsibleLookupError
from ansible.utils.display import Display

from ansible_collections.strata.hier.plugins.plugin_utils.compat import DATA_TAGGING

from ansible_collections.strata.hier.tests.unit.plugins.readme_project import write

from .test_lookup_explain import lookup, readme    # noqa: F401  pylint: disable=unused-import


def test_provenance_returns_key_value_rule_and_a_record_per_path(readme):
    answer, = lookup(readme / 'hier.yml', 'packages', provenance=True)
    assert (answer['key'], answer['value'], answer['rule']) == (
        'packages', ['ntpsec', 'postgresql', 'openssh-server'], 'packages')
    assert [(record.get('value'), record['file'], record['line']) for record in answer['provenance'].values()] == [
        (None, 'data/nodes/db01.yml', 3), ('ntpsec', 'data/nodes/db01.yml', 3),
        ('postgresql', 'data/roles/db.yml', 1), ('openssh-server', 'data/common.yml', 1)]


def test_provenance_of_a_key_found_nowhere_gives_the_default_or_the_error(readme):
    answer, = lookup(readme / 'hier.yml', 'missing', provenance=True, default=[])
    assert answer == {'key': 'missing', 'value': [], 'rule': 'default_lookup_options', 'provenance': {}}
    with pytest.raises(AnsibleLookupError, match="'missing' was found on no level"):
        lookup(readme / 'hier.yml', 'missing', provenance=True)


def test_whole_node_gives_every_key_and_with_provenance_every_path(readme):
    node, = lookup(readme / 'hier.yml', whole_node=True)
    assert node == {'NodeName': 'db01', 'Role': 'db', 'packages': ['ntpsec', 'postgresql', 'openssh-server'],
                    'ntp': {'makestep': '0.1 -1', 'servers': ['0.pool.ntp.org', '1.pool.ntp.org']}}
    traced, = lookup(readme / 'hier.yml', whole_node=True, provenance=True)
    assert traced['value'] == node
    assert traced['provenance']['ntp/makestep']['shadowed'] == [{'file': 'data/common.yml', 'line': 4, 'value': '1.0 3'}]
    assert traced['provenance']['Role']['line'] == 2


def test_whole_node_takes_no_key(readme):
    with pytest.raises(AnsibleLookupError, match=r"whole_node=true looks up every key of the host: give no key \('ntp'\)"):
        lookup(readme / 'hier.yml', 'ntp', whole_node=True)


def test_whole_node_of_a_hiera_yaml_is_every_root_key_of_the_host_s_data(readme):
    (readme / 'hiera.yaml').write_text('version: 5\nhierarchy:\n  - name: node\n    path: "nodes/%{trusted.certname}.yaml"\n'
                                       '  - name: common\n    path: common.yaml\n')
    (readme / 'data' / 'common.yaml').write_text('lookup_options:\n  profile::ntp::servers: {merge: unique}\n'
                                                 'profile::ntp::servers: [a]\nmotd: hello\n')
    (readme / 'data' / 'nodes' / 'db01.yaml').write_text('profile::ntp::servers: [b]\n')
    whole, = lookup(readme / 'hiera.yaml', whole_node=True)
    assert whole == {'profile::ntp::servers': ['b', 'a'], 'motd': 'hello'}
    traced, = lookup(readme / 'hiera.yaml', whole_node=True, provenance=True)
    assert traced['value'] == whole
    assert traced['provenance']['profile::ntp::servers/1'] == dict(
        traced['provenance']['profile::ntp::servers/1'], file='data/common.yaml', line=3, value='a')


def test_vvv_prints_a_line_per_value_with_its_origin(readme, monkeypatch):
    lines = []
    display = Display()
    monkeypatch.setattr(display, 'verbosity', 3)
    monkeypatch.setattr(Display, 'vvv', lambda self, message, host=None: lines.append(message))
    assert lookup(readme / 'hier.yml', 'ntp') == [{'makestep': '0.1 -1', 'servers': ['0.pool.ntp.org', '1.pool.ntp.org']}]
    assert "  ntp/makestep = '0.1 -1'  from data/roles/db.yml:3 (level roles/%{Role})" in lines
    assert "  ntp/makestep   shadows '1.0 3' at data/common.yml:4" in lines


@pytest.mark.skipif(not DATA_TAGGING, reason='Origin tags exist from ansible-core 2.19')
def test_origin_tags_put_the_data_line_on_the_answer(readme, monkeypatch):
    from ansible._internal._datatag._tags import Origin
    plain, = lookup(readme / 'hier.yml', 'ntp')
    assert Origin.get_tag(plain['makestep']) is None or not Origin.get_tag(plain['makestep']).path.endswith('db.yml')
    monkeypatch.setenv('STRATA_HIER_ORIGIN_TAGS', 'true')
    tagged, = lookup(readme / 'hier.yml', 'ntp')
    assert tagged == plain
    origin = Origin.get_tag(tagged['makestep'])
    assert (origin.path, origin.line_num, origin.col_num) == (str(readme / 'data' / 'roles' / 'db.yml'), 3, 3)


def test_origin_tags_change_nothing_before_2_19_and_with_a_query(readme, monkeypatch):
    monkeypatch.setenv('STRATA_HIER_ORIGIN_TAGS', 'true')
    assert lookup(readme / 'hier.yml', 'packages', query='[0]') == ['ntpsec']
    assert lookup(readme / 'hier.yml', 'packages') == [['ntpsec', 'postgresql', 'openssh-server']]


def test_a_hiera_yaml_answers_provenance_through_the_lookup(tmp_path, monkeypatch):
    from ansible_collections.strata.hier.tests.unit.plugins.plugin_utils.test_hiera_provenance import GOLDEN, HOST
    write(tmp_path, GOLDEN)
    answer, = lookup(tmp_path / 'hiera.yaml', 'ntp', provenance=True, variables=HOST)
    assert (answer['key'], answer['value'], answer['rule']) == (
        'ntp', {'makestep': '0.1 -1', 'servers': ['0.pool.ntp.org', '1.pool.ntp.org']}, 'ntp')
    makestep = answer['provenance']['ntp/makestep']
    assert (makestep['value'], makestep['file'], makestep['line']) == ('0.1 -1', 'data/nodes/db01.yaml', 10)
    assert makestep['shadowed'] == [{'file': 'data/common.yaml', 'line': 7, 'value': '1.0 3'}]
    missing, = lookup(tmp_path / 'hiera.yaml', 'missing', provenance=True, default=0, variables=HOST)
    assert missing == {'key': 'missing', 'value': 0, 'rule': None, 'provenance': {}}
    lines = []
    monkeypatch.setattr(Display(), 'verbosity', 3)
    monkeypatch.setattr(Display, 'vvv', lambda self, message, host=None: lines.append(message))
    assert lookup(tmp_path / 'hiera.yaml', 'motd', variables=HOST) == ['welcome to db01']
    assert "  motd = 'welcome to db01'  from data/nodes/db01.yaml:11 (level node)" in lines
