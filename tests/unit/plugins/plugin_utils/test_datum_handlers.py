# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Datum handlers found as Datum finds them (the lookups that refuse them outside a Datum store: test_hierarchy.py),
and resolved in a Datum store: references, cycles, errors and warnings, safety."""

from __future__ import annotations

import copy
import os
import re
import time

import pytest

from hypothesis import given, settings, strategies as st

from ansible.errors import AnsibleError
from ansible.parsing.dataloader import DataLoader

from ansible_collections.strata.hier.plugins.plugin_utils import datum_handlers
from ansible_collections.strata.hier.plugins.module_utils.datum_syntax import is_handler
from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy import HierarchyError
from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy_cache import get_hierarchy

DATUM = ('ResolutionPrecedence:\n  - AllNodes\\$($Node.Environment)\\$($Node.NodeName)\n'
         '  - Roles\\$($Node.Role)\n  - Common\n%s')


def write(root, name, text):
    path = os.path.join(str(root), *name.split('/'))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as stream:
        stream.write(text)
    return path


def store(tmp_path, common='', node='', datum_extra='', role=''):
    write(tmp_path, 'AllNodes/Dev/n1.yml', 'NodeName: n1\nEnvironment: Dev\nRole: web\n' + node)
    write(tmp_path, 'Roles/web.yml', role or 'Port: 80\n')
    write(tmp_path, 'Common.yml', common or 'Plain: text\n')
    return get_hierarchy(write(tmp_path, 'Datum.yml', DATUM % datum_extra), DataLoader())


NODE = {'inventory_hostname': 'n1', 'NodeName': 'n1', 'Environment': 'Dev', 'Role': 'web'}


@pytest.fixture
def warnings(monkeypatch):
    seen = []
    monkeypatch.setattr(datum_handlers.Display, 'warning', lambda self, message, *args, **kwargs: seen.append(message))
    return seen


def test_node_properties_resolve_through_other_handlers(tmp_path):
    hierarchy = store(tmp_path, node="A: '[x={ $Node.B }=]'\nB: '[x= \"<$($Node.C)>\" =]'\nC: '[x={ $Node.Name }=]'\n")
    assert hierarchy.lookup('A', NODE).value == '<n1>'


def test_a_cycle_through_node_properties_is_reported_with_file_line_and_key(tmp_path):
    hierarchy = store(tmp_path, node="A: '[x={ $Node.B }=]'\nB: '[x={ $Node.A }=]'\n")
    with pytest.raises(HierarchyError) as caught:
        hierarchy.lookup('A', NODE)
    message = str(caught.value)
    assert 'n1.yml:4' in message and "key 'A'" in message and 'cycle: $Node.B -> $Node.A -> $Node.B' in message


def test_a_cycle_through_the_store_is_reported(tmp_path):
    hierarchy = store(tmp_path, common="X: '[x={ $Datum.Common.Y }=]'\nY: '[x= \"y$($Datum.Common.X)\" =]'\n")
    with pytest.raises(HierarchyError, match=r"Common.yml:1: key 'X'.*cycle: \$Datum.Common.Y -> \$Datum.Common.X -> \$Datum.Common.Y"):
        hierarchy.lookup('X', NODE)


def test_a_store_reference_resolves_handlers_in_its_own_file(tmp_path):
    write(tmp_path, 'Global/Domain.yml', "Fqdn: '[x= \"$($File.BaseName).example.com\" =]'\n")
    hierarchy = store(tmp_path, common="Url: '[x= \"https://$($Datum.Global.Domain.Fqdn)/$($File.BaseName)\" =]'\n"
                                       "Whole: '[x={ $Datum.Global.Domain }=]'\nMissing: '[x={ $Datum.No.Such }=]'\n")
    assert hierarchy.lookup('Url', NODE).value == 'https://Domain.example.com/Common'
    assert hierarchy.lookup('Whole', NODE).value == {'Fqdn': 'Domain.example.com'}
    assert hierarchy.lookup('Missing', NODE).found is False      # null: not found, as a null value


def test_unsupported_expressions_are_errors_with_file_line_key_and_forms(tmp_path):
    hierarchy = store(tmp_path, role="Port: 80\nTools:\n  Date: '[x={ Get-Date }=]'\n")
    with pytest.raises(HierarchyError) as caught:
        hierarchy.lookup('Tools', NODE)
    message = str(caught.value)
    assert os.path.join('Roles', 'web.yml') + ':3' in message and "key 'Tools/Date'" in message
    assert 'supported forms' in message and 'runs no PowerShell' in message


def test_protected_data_points_to_ansible_vault(tmp_path):
    hierarchy = store(tmp_path, common="Password: '[ENC=AAAA]'\n")
    with pytest.raises(HierarchyError, match=r"Common.yml:1: key 'Password'.*\[ENC=\.\.\.\].*Ansible vault"):
        hierarchy.lookup('Password', NODE)


def test_throw_on_error_false_warns_and_keeps_the_text(tmp_path, warnings):
    hierarchy = store(tmp_path, common="Password: '[ENC=AAAA]'\nDate: '[x={ Get-Date }=]'\n",
                      datum_extra='DatumHandlersThrowOnError: false\n')
    assert hierarchy.lookup('Password', NODE).value == '[ENC=AAAA]'
    assert hierarchy.lookup('Date', NODE).value == '[x={ Get-Date }=]'
    assert any('Common.yml:1' in warning and 'kept as written' in warning for warning in warnings)
    assert any('Common.yml:2' in warning and 'Get-Date' in warning for warning in warnings)


def test_a_resolution_precedence_handler_is_a_level(tmp_path):
    write(tmp_path, 'Sites/web-Dev.yml', 'Site: yes\n')
    hierarchy = store(tmp_path, datum_extra="""  - '[x= "Sites\\$($Node.Role)-$($Node.Environment)" =]'\n""")
    assert hierarchy.lookup('Site', NODE).value is True


def test_an_unsupported_resolution_precedence_handler_is_a_config_error(tmp_path):
    with pytest.raises(AnsibleError, match=r"Datum.yml:1: the Datum handler.*Get-Date"):
        store(tmp_path, datum_extra="  - '[x={ Get-Date }=]'\n")


def test_data_is_never_changed_and_results_share_nothing_with_it(tmp_path):
    hierarchy = store(tmp_path, common="Map:\n  Name: '[x={ $Node.Name }=]'\n  List: [a]\n")
    data_store = hierarchy._store      # pylint: disable=protected-access  # the parsed data the hierarchy shares
    data = data_store.load(os.path.join(data_store.root, 'Common.yml'))
    before = copy.deepcopy(data)
    value = hierarchy.lookup('Map', NODE).value
    assert value == {'Name': 'n1', 'List': ['a']} and data == before
    value['List'].append('b')
    assert hierarchy.lookup('Map', NODE).value['List'] == ['a']


def test_results_are_data_never_templates(tmp_path):
    """A handler's result is text like any other data: the inventory and lookup never render it."""
    hierarchy = store(tmp_path, node="Evil: '{{ lookup(\"pipe\", \"id\") }}'\n",
                      common="Shown: '[x= \"$($Node.Evil)\" =]'\n")
    assert hierarchy.lookup('Shown', NODE).value == '{{ lookup("pipe", "id") }}'


def test_a_vault_value_stays_a_vault_value(tmp_path):
    from ansible.parsing.yaml.objects import AnsibleVaultEncryptedUnicode   # noqa: F401 (both versions have it)
    hierarchy = store(tmp_path, common="Ref: '[x={ $Node.Secret }=]'\nText: '[x= \"s=$($Node.Secret)\" =]'\n",
                      node='Secret: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  6162\n')
    from ansible_collections.strata.hier.plugins.plugin_utils.compat import is_vault_value
    assert is_vault_value(hierarchy.lookup('Ref', NODE).value)
    with pytest.raises(HierarchyError, match=r'\$Node.Secret is a .*only a scalar'):
        hierarchy.lookup('Text', NODE)


def test_a_hier_yml_store_still_refuses_handlers(tmp_path):
    write(tmp_path, 'data/Common.yml', "Name: '[x={ $Node.Name }=]'\n")
    hierarchy = get_hierarchy(write(tmp_path, 'hier.yml', 'datadir: data\nhierarchy: [Common]\n'), DataLoader())
    with pytest.raises(HierarchyError, match='which strata.hier does not run'):
        hierarchy.lookup('Name', {})


def test_text_around_a_handler_is_dropped_as_datum_drops_it(tmp_path, warnings):
    hierarchy = store(tmp_path, common="Url: 'http://[x={ $Node.Name }=]:8080'\n")
    assert hierarchy.lookup('Url', NODE).value == 'n1'
    assert any('dropped, as Datum drops it' in warning for warning in warnings)


def test_handlers_nesting_without_end_are_stopped(tmp_path):
    chain = ''.join("A%d: '[x={ $Node.A%d }=]'\n" % (index, index + 1) for index in range(100))
    hierarchy = store(tmp_path, node=chain, common="Deep: '[x={ $Node.A0 }=]'\n")
    with pytest.raises(HierarchyError, match='nest more than 64 deep'):
        hierarchy.lookup('Deep', NODE)


def test_results_are_bounded_by_the_size_limit(tmp_path):
    items = ', '.join('"[x={ $Datum.Big }=]"' for _index in range(30))
    write(tmp_path, 'Big.yml', 'Items: [%s]\n' % ', '.join(str(index) for index in range(10000)))
    hierarchy = store(tmp_path, common='Many: [%s]\n' % items)
    with pytest.raises(HierarchyError, match='expand to more than'):
        hierarchy.lookup('Many', NODE)


def test_datum_yml_strategy_names_are_read_as_datum_reads_them_with_a_warning(tmp_path, warnings):
    hierarchy = store(tmp_path, common='Features: [b, c]\n', role='Features: [a, b]\n',
                      datum_extra='lookup_options:\n  Features:\n    merge_basetype_array: Add\n')
    assert hierarchy.lookup('Features', NODE).value == ['a', 'b', 'b', 'c']
    warning, = warnings
    assert 'Datum.yml:6' in warning and "merge_basetype_array 'Add' as Sum" in warning


def test_a_hier_yml_keeps_strict_strategy_names(tmp_path):
    write(tmp_path, 'data/Common.yml', 'Features: [a]\n')
    with pytest.raises(AnsibleError, match="unknown merge_basetype_array 'Add'"):
        get_hierarchy(write(tmp_path, 'hier.yml', 'datadir: data\nhierarchy: [Common]\n'
                            'lookup_options: {Features: {merge_basetype_array: Add}}\n'), DataLoader())


def test_a_key_path_through_a_list_collects_from_its_items(tmp_path):
    """PowerShell's member enumeration, which Datum's Resolve-DatumPath relies on."""
    hierarchy = store(tmp_path, datum_extra='lookup_options:\n  NetworkIpConfiguration\\Interfaces\\Destination: Unique\n',
                      role='NetworkIpConfiguration:\n  Interfaces:\n    - {InterfaceAlias: e1, Destination: [10.0.1.0/24]}\n'
                           '    - {InterfaceAlias: e2, Destination: [10.0.2.0/24, 10.0.3.0/24]}\n    - {InterfaceAlias: e3}\n',
                      common='NetworkIpConfiguration:\n  Interfaces:\n    - {InterfaceAlias: e1, Destination: [10.0.9.0/24]}\n'
                             '    - {InterfaceAlias: e2, Destination: 10.0.1.0/24}\n')
    assert hierarchy.lookup('NetworkIpConfiguration/Interfaces/Destination', NODE).value == [
        '10.0.1.0/24', '10.0.2.0/24', '10.0.3.0/24', '10.0.9.0/24']
    # one value is itself, as in PowerShell (and a scalar does not merge with a list: the most specific wins)
    assert hierarchy.lookup('NetworkIpConfiguration/Interfaces/Destination', dict(NODE, Role='none')).value == [
        '10.0.9.0/24', '10.0.1.0/24']
    assert hierarchy.lookup('NetworkIpConfiguration/Interfaces/InterfaceAlias', NODE).value == ['e1', 'e2', 'e3']
    assert hierarchy.lookup('NetworkIpConfiguration/Interfaces/Gateway', NODE).found is False


def test_a_hier_yml_does_not_walk_through_lists(tmp_path):
    write(tmp_path, 'data/Common.yml', 'Items: [{Name: a}]\n')
    hierarchy = get_hierarchy(write(tmp_path, 'hier.yml', 'datadir: data\nhierarchy: [Common]\n'), DataLoader())
    assert hierarchy.lookup('Items/Name', {}).found is False


DATUM_REGEX = re.compile(r'\[x=[\s\S]*=\]|^\[ENC=[\s\S]*\]$', re.IGNORECASE)   # Datum's two handler regexes


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('[]=xXeEnNcC \n-a')), max_size=30))
def test_handlers_are_found_as_datum_regexes_find_them(text):
    assert is_handler(text) == (DATUM_REGEX.search(text.strip()) is not None)


@pytest.mark.parametrize('text, handler', [('[x==]', True), ('[x=]', False), (' [ENC=x] ', True), ('[enc=]', True)])
def test_edge_cases_match_datum_regexes(text, handler):
    assert is_handler(text) is handler
    assert (DATUM_REGEX.search(text.strip()) is not None) is handler


def test_a_long_string_is_checked_in_linear_time():
    start = time.process_time()
    assert not is_handler('[x=' * 200000)
    assert is_handler('[x=' * 200000 + '=]')
    assert time.process_time() - start < 1
