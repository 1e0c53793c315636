# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Provenance as written text: to_vaulted_yaml's provenance comments (the rsop role's inline), to_provenance_json
(its sidecar) and blame, over the records the lookup gives for the README's first project."""

from __future__ import annotations

import json

import pytest
import yaml

from ansible.errors import AnsibleFilterError
from ansible.parsing.vault import VaultLib

from ansible_collections.strata.hier.plugins.filter.blame import FilterModule as BlameFilters, blame
from ansible_collections.strata.hier.plugins.filter.to_provenance_json import FilterModule as JsonFilters
from ansible_collections.strata.hier.plugins.filter.to_provenance_json import to_provenance_json
from ansible_collections.strata.hier.plugins.filter.to_vaulted_yaml import WITHHELD, to_vaulted_yaml
from ansible_collections.strata.hier.tests.unit.plugins.lookup.test_lookup_explain import (
    README_FILES, SECRET, lookup, write,
)

DB01 = {'inventory_hostname': 'db01', 'NodeName': 'db01', 'Role': 'db'}
WEB01 = {'inventory_hostname': 'web01', 'NodeName': 'web01', 'Role': 'web'}

DB01_INLINE = """\
NodeName: db01  # data/nodes/db01.yml:1
Role: db  # data/nodes/db01.yml:2
ntp:  # data/roles/db.yml:2
  makestep: 0.1 -1  # data/roles/db.yml:3
  # shadows "1.0 3" at data/common.yml:4
  servers:  # data/common.yml:3
  - 0.pool.ntp.org  # data/common.yml:3
  - 1.pool.ntp.org  # data/common.yml:3
packages:  # data/nodes/db01.yml:3
# removed chrony (data/common.yml:1) by the marker at data/nodes/db01.yml:3
- ntpsec  # data/nodes/db01.yml:3
- postgresql  # data/roles/db.yml:1
- openssh-server  # data/common.yml:1
"""


class VaultLoader(yaml.SafeLoader):
    pass


VaultLoader.add_constructor('!vault', lambda loader, node: ('vault', loader.construct_scalar(node).strip()))


def node(root, variables):
    """The lookup's whole_node=true, provenance=true for a host."""
    answer, = lookup(root / 'hier.yml', whole_node=True, provenance=True, variables=variables)
    return answer


@pytest.fixture
def readme(tmp_path):
    write(tmp_path, README_FILES)
    return tmp_path


def test_registered():
    assert BlameFilters().filters()['blame'] is blame
    assert JsonFilters().filters()['to_provenance_json'] is to_provenance_json


def test_inline_readme_db01(readme):
    db01 = node(readme, DB01)
    text = to_vaulted_yaml(db01['value'], provenance=db01['provenance'])
    assert text == DB01_INLINE
    assert yaml.safe_load(text) == db01['value']
    assert text.replace(DB01_INLINE, '') == ''
    assert to_vaulted_yaml(db01['value'], provenance=None) == to_vaulted_yaml(db01['value'])


def test_inline_marks_values_set_outside_the_hierarchy_and_values_without_records(readme):
    db01 = node(readme, DB01)
    data = dict(db01['value'], ntp={'makestep': '9 9', 'servers': ['0.pool.ntp.org', '1.pool.ntp.org']}, extra=1)
    text = to_vaulted_yaml(data, provenance=db01['provenance'])
    assert '  makestep: 9 9  # data/roles/db.yml:3 (set outside the hierarchy, which has "0.1 -1" there)\n' in text
    assert 'extra: 1  # (no provenance)\n' in text
    assert yaml.safe_load(text) == data


def test_inline_block_scalars_vault_values_and_maps_in_lists(tmp_path):
    ciphertext = VaultLib(SECRET).encrypt('Pl41n-S3cret').decode()
    vault = '!vault |\n' + ''.join('    %s\n' % line for line in ciphertext.splitlines())
    write(tmp_path, {
        'hier.yml': 'datadir: data\nhierarchy: [node, common]\nlookup_options: {users: {merge_hash_array: DeepTuple, '
                    'merge_options: {tuple_keys: [name]}}}\n',
        'data/common.yml': 'motd: |\n  one\n  two\npassword: %susers:\n- name: a\n  shell: sh\n' % vault,
        'data/node.yml': 'password: %susers:\n- name: a\n  shell: bash\n' % vault.replace('    ', '  '),
    })
    found = node(tmp_path, {'inventory_hostname': 'n1'})
    text = to_vaulted_yaml(found['value'], provenance=found['provenance'])
    assert 'motd: |  # data/common.yml:1\n  one\n  two\n' in text
    assert 'password: !vault |  # data/node.yml:1\n' in text
    assert '# shadows !vault at data/common.yml:4\n' in text
    assert '- name: a  # data/node.yml:' in text and '  shell: bash  # data/node.yml:' in text
    assert '# shadows sh at data/common.yml:' in text
    assert 'Pl41n' not in text
    loaded = yaml.load(text, Loader=VaultLoader)
    assert loaded['motd'] == 'one\ntwo\n' and loaded['password'][0] == 'vault'
    sidecar = to_provenance_json(found['provenance'])
    assert 'Pl41n' not in sidecar
    assert json.loads(sidecar)['password']['value'] == {'__ansible_vault': ciphertext}


def test_withheld_records_withhold_the_key(readme):
    db01 = node(readme, DB01)
    records = dict(db01['provenance'])
    records['packages/1'] = dict(records['packages/1'], withheld=True)
    del records['packages/1']['value']
    text = to_vaulted_yaml(db01['value'], provenance=records)
    assert "packages: 'WITHHELD: data of a whole-file vaulted file'  # data/nodes/db01.yml:3\n" in text
    assert '# removed a value (data/common.yml:1) by the marker at data/nodes/db01.yml:3\n' in text
    assert 'chrony' not in text and 'ntpsec' not in text
    sidecar = json.loads(to_provenance_json(records))
    assert 'value' not in sidecar['packages/0'] and 'value' not in sidecar['packages']['removed'][0]
    assert sidecar['ntp/makestep']['value'] == '0.1 -1'
    assert yaml.safe_load(text)['packages'] == WITHHELD


def test_sidecar_is_sorted_and_selects_keys(readme):
    db01 = node(readme, DB01)
    text = to_provenance_json(db01['provenance'], keys=['ntp'], withhold=[])
    records = json.loads(text)
    assert sorted(records) == ['ntp', 'ntp/makestep', 'ntp/servers', 'ntp/servers/0', 'ntp/servers/1']
    assert text == json.dumps(records, indent=1, sort_keys=True) + '\n'
    assert records['ntp/makestep']['shadowed'] == [{'file': 'data/common.yml', 'line': 4, 'value': '1.0 3'}]
    withheld = json.loads(to_provenance_json(db01['provenance'], withhold=['ntp']))
    assert 'value' not in withheld['ntp/makestep'] and 'value' not in withheld['ntp/makestep']['shadowed'][0]


def readme_records(root):
    return {'db01': node(root, DB01)['provenance'], 'web01': node(root, WEB01)['provenance']}


def pairs(report):
    return sorted((host, match['path'], match['how']) for match in report['matches'] for host in match['hosts'])


def test_blame_common_line_4(readme):
    report = blame(readme_records(readme), 'data/common.yml:4')
    assert pairs(report) == [('db01', 'ntp/makestep', 'shadowed'), ('web01', 'ntp/makestep', 'fed')]
    assert report['hosts'] == ['db01', 'web01'] and report['file_named']
    text = blame(readme_records(readme), 'data/common.yml:4', format='text')
    assert text == ('data/common.yml:4: 2 host x key path pairs on 2 of the 2 hosts examined.\n\nntp/makestep\n'
                    '  data/common.yml:4 feeds "1.0 3" on 1 host: web01\n'
                    '  data/common.yml:4 ("1.0 3") is shadowed by "0.1 -1" at data/roles/db.yml:3 on 1 host: db01\n')


def test_blame_db01_line_3_and_a_whole_file(readme):
    records = readme_records(readme)
    report = blame(records, 'data/nodes/db01.yml:3')
    assert pairs(report) == [('db01', 'packages', 'fed'), ('db01', 'packages', 'knocks out'),
                             ('db01', 'packages/0', 'fed')]
    knock = [match for match in report['matches'] if match['how'] == 'knocks out'][0]
    assert knock['value'] == 'chrony' and knock['other'] == {'file': 'data/common.yml', 'line': 1}
    whole = blame(records, './data/common.yml')
    assert ('db01', 'packages', 'knocked out') in pairs(whole)
    assert ('web01', 'packages/2', 'fed') in pairs(whole) and ('db01', 'packages/2', 'fed') in pairs(whole)
    assert {match['line'] for match in whole['matches']} == {1, 2, 3, 4}


def test_blame_combines_the_reports_of_each_host(readme):
    records = readme_records(readme)
    parts = [blame({host: host_records}, 'data/common.yml:3') for host, host_records in records.items()]
    combined = blame(parts, 'data/common.yml:3')
    assert combined == blame(records, 'data/common.yml:3')
    assert [match['hosts'] for match in combined['matches']] == [['db01', 'web01']] * 3
    assert json.loads(blame(parts, 'data/common.yml:3', format='json'))['matches'][0]['path'] == 'ntp/servers'
    with pytest.raises(AnsibleFilterError, match='cannot combine a report of data/common.yml:3 with one of x.yml:1'):
        blame(parts, 'x.yml:1')


def test_blame_names_a_file_no_record_names(readme):
    text = blame(readme_records(readme), 'common.yml:4', format='text')
    assert 'common.yml:4 feeds, shadows or knocks out nothing on the 2 hosts examined.' in text
    assert 'No record names the file common.yml: give its path relative' in text


@pytest.mark.parametrize('data, where, kwargs, message', [
    ({}, '', {}, 'where must be a file'),
    ({}, 'a.yml:0', {}, 'the line must be 1 or more'),
    ({}, 'a.yml:1', {'format': 'yaml'}, 'format must be one of data, text, json'),
    ({'h': ['x']}, 'a.yml:1', {}, 'the records of h must be a map'),
    ('text', 'a.yml:1', {}, 'the input must be a map of host -> provenance records'),
])
def test_blame_errors(data, where, kwargs, message):
    with pytest.raises(AnsibleFilterError, match=message):
        blame(data, where, **kwargs)


@pytest.mark.parametrize('kwargs, message', [
    ({'provenance': ['x']}, 'provenance must be a map'),
    ({'defaults': {'a': 1}}, 'defaults needs keys'),
])
def test_to_vaulted_yaml_option_errors(kwargs, message):
    with pytest.raises(AnsibleFilterError, match=message):
        to_vaulted_yaml({'a': 1}, **kwargs)


def test_defaults_fill_keys_the_input_lacks():
    assert to_vaulted_yaml({'a': 1}, keys=['a', 'b', 'c'], defaults={'a': 2, 'b': 3}) == 'a: 1\nb: 3\n'


def test_a_decrypted_value_tagged_with_its_ciphertext_stays_encrypted():
    """From 2.19 a templated host variable may hold a vault value as its plain text tagged with the ciphertext."""
    tags = pytest.importorskip('ansible._internal._datatag._tags')  # ansible-core 2.19+
    ciphertext = VaultLib(SECRET).encrypt('Pl41n-S3cret').decode()
    secret = tags.VaultedValue(ciphertext=ciphertext).tag('Pl41n-S3cret')
    place = {'file': 'data/a.yml', 'line': 1, 'column': 1}
    records = {'pw': dict(place, value=secret, shadowed=[dict(place, line=5, value=secret)])}
    outputs = [to_vaulted_yaml({'pw': secret}, provenance=records), to_provenance_json(records),
               blame({'h': records}, 'data/a.yml', format='text'), blame({'h': records}, 'data/a.yml', format='json')]
    for output in outputs:
        assert 'Pl41n' not in output
    assert 'pw: !vault |  # data/a.yml:1\n' in outputs[0] and '# shadows !vault at data/a.yml:5\n' in outputs[0]
    assert json.loads(outputs[1])['pw']['value'] == {'__ansible_vault': ciphertext}
