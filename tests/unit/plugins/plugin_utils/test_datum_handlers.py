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

from ansible_collections.strata.hier.plugins.module_utils.dialects.datum.syntax import is_handler
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


def test_throw_on_error_false_warns_and_keeps_the_text(tmp_path):
    """The warning is the answer's (issue 27: helpers print nothing; the plugin prints what the answer carries)."""
    hierarchy = store(tmp_path, common="Password: '[ENC=AAAA]'\nDate: '[x={ Get-Date }=]'\n",
                      datum_extra='DatumHandlersThrowOnError: false\n')
    password, date = hierarchy.lookup('Password', NODE), hierarchy.lookup('Date', NODE)
    assert password.value == '[ENC=AAAA]' and date.value == '[x={ Get-Date }=]'
    warning, = password.warnings
    assert 'Common.yml:1' in warning and 'kept as written' in warning
    warning, = date.warnings
    assert 'Common.yml:2' in warning and 'Get-Date' in warning


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


def test_text_around_a_handler_is_dropped_as_datum_drops_it(tmp_path):
    hierarchy = store(tmp_path, common="Url: 'http://[x={ $Node.Name }=]:8080'\n")
    resolution = hierarchy.lookup('Url', NODE)
    assert resolution.value == 'n1'
    assert any('dropped, as Datum drops it' in warning for warning in resolution.warnings)


def test_handlers_nesting_without_end_are_stopped(tmp_path):
    chain = ''.join("A%d: '[x={ $Node.A%d }=]'\n" % (index, index + 1) for index in range(100))
    hierarchy = store(tmp_path, node=chain, common="Deep: '[x={ $Node.A0 }=]'\n")
    with pytest.raises(HierarchyError, match=r"n1.yml:\d+: key 'A\d+': expansions nest more than 48 deep"):
        hierarchy.lookup('Deep', NODE)


def test_results_are_bounded_by_the_work_budget(tmp_path):
    """1,000 uses of 10,000 values: 10 million values, past 1 million plus 64 per byte of the 80 kB read."""
    items = ', '.join('"[x={ $Datum.Big }=]"' for _index in range(1000))
    write(tmp_path, 'Big.yml', 'Items: [%s]\n' % ', '.join(str(index) for index in range(10000)))
    hierarchy = store(tmp_path, common='Many: [%s]\n' % items)
    with pytest.raises(HierarchyError, match=r"Common.yml:1: key 'Many/\d+': expanding the data passes its work "
                                             r"budget \(\d+ units: 1000000 plus 64 per byte of the \d+ bytes read\)"):
        hierarchy.lookup('Many', NODE)


def test_datum_yml_strategy_names_are_read_as_datum_reads_them_with_a_warning(tmp_path):
    hierarchy = store(tmp_path, common='Features: [b, c]\n', role='Features: [a, b]\n',
                      datum_extra='lookup_options:\n  Features:\n    merge_basetype_array: Add\n')
    assert hierarchy.lookup('Features', NODE).value == ['a', 'b', 'b', 'c']
    warning, = hierarchy.config.warnings       # the configuration's: the plugins print them (Source.take_warnings)
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


# -- issue 25: hostile Datum stores (finding 3: vaulted data through references; 6: exponential work; 9: recursion)

def vaulted_store(tmp_path, common, node=''):
    """A store whose Global/Secrets.yml is vaulted as a whole; the DataLoader of the hierarchy has its password."""
    from ansible.parsing.vault import VaultLib, VaultSecret
    secrets = [('default', VaultSecret(b'unit-test'))]
    write(tmp_path, 'AllNodes/Dev/n1.yml', 'NodeName: n1\nEnvironment: Dev\nRole: web\n' + node)
    write(tmp_path, 'Roles/web.yml', 'Port: 80\n')
    write(tmp_path, 'Common.yml', common)
    os.makedirs(os.path.join(str(tmp_path), 'Global'))
    with open(os.path.join(str(tmp_path), 'Global', 'Secrets.yml'), 'wb') as stream:
        stream.write(VaultLib(secrets).encrypt('Password: s3cret\nAdmin: {Name: root, Password: s3cret}\n'))
    loader = DataLoader()
    loader.set_vault_secrets(secrets)
    return write(tmp_path, 'Datum.yml', DATUM % ''), loader


REFERENCES_TO_VAULTED = ("Password: '[x={ $Datum.Global.Secrets.Password }=]'\n"
                         "Url: '[x= \"https://root:$($Datum.Global.Secrets.Password)@db\" =]'\n"
                         "Admin: '[x={ $Datum.Global.Secrets.Admin }=]'\n"
                         "Again: '[x={ $Datum.Common.Url }=]'\n"
                         "Plain: '[x={ $Node.Role }=]'\n")


def test_a_value_referencing_whole_file_vaulted_data_is_marked_vaulted(tmp_path):
    datum_yml, loader = vaulted_store(tmp_path, REFERENCES_TO_VAULTED)
    resolutions = get_hierarchy(datum_yml, loader).resolve_node(NODE)
    assert resolutions['Url'].value == 'https://root:s3cret@db'
    assert {key for key, resolution in resolutions.items() if resolution.vaulted} == {
        'Password', 'Url', 'Admin', 'Again'}
    assert {'level': 'Common', 'file': 'Common.yml', 'vaulted': True} in resolutions['Url'].provenance()


def test_a_node_property_from_a_vaulted_node_file_marks_what_references_it(tmp_path):
    from ansible.parsing.vault import VaultLib, VaultSecret
    datum_yml, loader = vaulted_store(tmp_path, "Copy: '[x={ $Node.Token }=]'\nRole: '[x={ $Node.Role }=]'\n")
    secrets = [('default', VaultSecret(b'unit-test'))]
    with open(os.path.join(str(tmp_path), 'AllNodes', 'Dev', 'n1.yml'), 'wb') as stream:
        stream.write(VaultLib(secrets).encrypt('NodeName: n1\nEnvironment: Dev\nRole: web\nToken: t0ken\n'))
    resolutions = get_hierarchy(datum_yml, loader).resolve_node(NODE)
    assert resolutions['Copy'].value == 't0ken' and resolutions['Copy'].vaulted


def test_the_inventory_lists_referencing_keys_as_vaulted_and_caches_nothing(tmp_path):
    from ansible.inventory.data import InventoryData
    from ansible.plugins.loader import inventory_loader
    from ansible_collections.strata.hier.tests.unit.plugins.warnings_seen import warnings_seen
    datum_yml, loader = vaulted_store(tmp_path, REFERENCES_TO_VAULTED)
    source = write(tmp_path, 'nodes.hier.yml', 'plugin: strata.hier.hier\nconfig: %s\ncache: true\n'
                   'cache_plugin: ansible.builtin.jsonfile\ncache_connection: %s\n'
                   % (datum_yml, os.path.join(str(tmp_path), 'cache')))
    plugin = inventory_loader.get('strata.hier.hier')
    inventory = InventoryData()
    with warnings_seen(plugin.display, []) as seen:
        plugin.parse(inventory, loader, source, cache=True)
    try:
        plugin.update_cache_if_changed()
    except AttributeError:
        pass
    host_vars = inventory.get_host('n1').vars
    assert sorted(host_vars['hier_vaulted_keys']) == ['Admin', 'Again', 'Password', 'Url']
    assert any('not cached' in warning for warning in seen)
    cache = os.path.join(str(tmp_path), 'cache')
    assert not os.path.isdir(cache) or not os.listdir(cache)


def doubling(count, first="''"):
    """K<i> holds K<i-1> twice: written out, K<count> is 2**count copies of K0."""
    return 'K0: %s\n' % first + ''.join("K%d: '[x= \"$($Datum.Common.K%d)$($Datum.Common.K%d)\" =]'\n"
                                        % (index, index - 1, index - 1) for index in range(1, count + 1))


def test_a_reference_is_evaluated_once_per_node(tmp_path, monkeypatch):
    """Before memoising, K12 cost 2**12 evaluations (25 such keys: hours)."""
    hierarchy = store(tmp_path, common=doubling(12))
    reads = []
    get = hierarchy._store.get       # pylint: disable=protected-access  # counting the store's reads
    monkeypatch.setattr(hierarchy._store, 'get',
                        lambda path, *args, **kwargs: reads.append(path) or get(path, *args, **kwargs))
    assert hierarchy.lookup('K12', NODE).value == ''
    assert len([path for path in reads if len(path) == 2 and path[0] == 'Common']) == 12      # K11 ... K0
    assert len(hierarchy.resolve_node(NODE)) > 12 and len(reads) < 200


def test_a_value_resolved_once_is_never_changed_by_its_uses(tmp_path):
    hierarchy = store(tmp_path, common="Base: {Name: '[x={ $Node.Name }=]', List: [a]}\n"
                                       "Both: ['[x={ $Datum.Common.Base }=]', '[x={ $Datum.Common.Base }=]']\n")
    expansions = hierarchy.expand_levels(NODE)      # one node: one handler context, its references resolved once
    both = hierarchy.lookup('Both', NODE, expansions=expansions).value
    assert both == [{'Name': 'n1', 'List': ['a']}] * 2
    both[0]['List'].append('b')
    assert hierarchy.lookup('Both', NODE, expansions=expansions).value == [{'Name': 'n1', 'List': ['a']}] * 2
    assert hierarchy.lookup('Base', NODE, expansions=expansions).value == {'Name': 'n1', 'List': ['a']}


def test_text_doubling_through_references_passes_the_work_budget(tmp_path):
    """K8 is 256 times K0's 20,000 characters, past the budget of 1,000,000 plus 64 per byte read; before the budget
    it was built in full (30 keys of 2 characters: a gigabyte)."""
    hierarchy = store(tmp_path, common=doubling(8, 'x' * 20000))
    with pytest.raises(HierarchyError, match=r"Common.yml:\d+: key 'K\d': expanding the data passes its work budget"):
        hierarchy.lookup('K8', NODE)


def test_node_text_doubling_per_line_passes_the_work_budget(tmp_path):
    node = 'A0: ab\n' + ''.join("A%d: '[x= \"$($Node.A%d)$($Node.A%d)\" =]'\n" % (index, index - 1, index - 1)
                                for index in range(1, 23))
    hierarchy = store(tmp_path, node=node, common="Shown: '[x={ $Node.A22 }=]'\n")
    with pytest.raises(HierarchyError, match=r"n1.yml:\d+: key 'A\d+'.*passes its work budget"):
        hierarchy.lookup('Shown', NODE)


def test_data_doubling_through_references_passes_the_work_budget(tmp_path):
    common = 'K0: [a, b]\n' + ''.join("K%d: ['[x={ $Datum.Common.K%d }=]', '[x={ $Datum.Common.K%d }=]']\n"
                                      % (index, index - 1, index - 1) for index in range(1, 22))
    hierarchy = store(tmp_path, common=common)
    with pytest.raises(HierarchyError, match=r"Common.yml:\d+: key 'K\d+/\d'.*passes its work budget"):
        hierarchy.lookup('K21', NODE)


def test_a_long_chain_of_references_is_an_error_naming_file_line_and_key(tmp_path):
    """Each link nests the previous one 10 maps deep: before, a RecursionError at about 30 links."""
    common = 'K0: x\n' + ''.join("K%d: %s'[x={ $Datum.Common.K%d }=]'%s\n" % (index, '{a: ' * 10, index - 1, '}' * 10)
                                 for index in range(1, 41))
    hierarchy = store(tmp_path, common=common)
    with pytest.raises(HierarchyError, match=r"Common.yml:\d+: key 'K\d+(/a)+'.*nest"):
        hierarchy.lookup('K40', NODE)


def test_a_flat_chain_of_references_stops_at_the_expansion_depth(tmp_path):
    common = 'K0: x\n' + ''.join("K%d: '[x={ $Datum.Common.K%d }=]'\n" % (index, index - 1) for index in range(1, 200))
    hierarchy = store(tmp_path, common=common)
    assert hierarchy.lookup('K40', NODE).value == 'x'
    with pytest.raises(HierarchyError, match=r"Common.yml:\d+: key 'K\d+': expansions nest more than 48 deep"):
        hierarchy.lookup('K199', NODE)


def test_no_recursion_error_escapes_handler_evaluation(tmp_path):
    """Whatever the stack holds already when a lookup starts, a deep chain is an error of the lookup (here, a chain
    within the depth limit on a stack with room for about 150 more calls)."""
    import inspect
    import sys
    common = 'K0: x\n' + ''.join("K%d: '[x={ $Datum.Common.K%d }=]'\n" % (index, index - 1) for index in range(1, 40))
    hierarchy = store(tmp_path, common=common)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack(0)) + 150)
    try:
        with pytest.raises(HierarchyError, match=r"Common.yml:\d+: key 'K39': handlers nest deeper than the stack"):
            hierarchy.lookup('K39', NODE)
    finally:
        sys.setrecursionlimit(limit)


def test_messages_never_quote_a_handler_of_a_whole_file_vaulted_file(tmp_path):
    from ansible.parsing.vault import VaultLib, VaultSecret
    datum_yml, loader = vaulted_store(tmp_path, "Copy: '[x={ $Datum.Global.Other.Token }=]'\n"
                                                "Around: '[x={ $Datum.Global.Other.Around }=]'\n")
    with open(os.path.join(str(tmp_path), 'Global', 'Other.yml'), 'wb') as stream:
        stream.write(VaultLib([('default', VaultSecret(b'unit-test'))]).encrypt(
            "Token: '[x= \"t0ken$\" =]'\nAround: 'pw-t0ken [x={ $Node.Name }=]'\n"))
    hierarchy = get_hierarchy(datum_yml, loader)
    with pytest.raises(HierarchyError) as caught:
        hierarchy.lookup('Copy', NODE)
    assert "Other.yml: key 'Token'" in str(caught.value) and 'not shown' in str(caught.value)
    assert 't0ken' not in str(caught.value) and 't0ken' not in repr(caught.value.__cause__.__cause__)
    around = hierarchy.lookup('Around', NODE)
    assert around.value == 'n1'
    assert around.warnings and not any('t0ken' in warning for warning in around.warnings)


def test_the_lookup_fails_with_its_own_error_naming_file_line_and_key(tmp_path):
    from ansible.errors import AnsibleLookupError
    from ansible.plugins.loader import lookup_loader
    from ansible.template import Templar
    common = 'K0: x\n' + ''.join("K%d: '[x={ $Datum.Common.K%d }=]'\n" % (index, index - 1) for index in range(1, 60))
    datum_yml = store(tmp_path, common=common).config.path
    loader = DataLoader()
    plugin = lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader))
    assert plugin.run(['K40'], dict(NODE), config=datum_yml) == ['x']
    with pytest.raises(AnsibleLookupError, match=r"Common.yml:\d+: key 'K\d+': expansions nest more than 48 deep"):
        plugin.run(['K59'], dict(NODE), config=datum_yml)


# -- issue 27: one warning channel. Helpers print nothing: answers and the configuration carry warnings, the plugin
# that asked prints them (naming its host or key), each once per occurrence.

THROW_FALSE = 'DatumHandlersThrowOnError: false\nlookup_options:\n  Features:\n    merge_basetype_array: Add\n'


def test_the_inventory_prints_handler_warnings_of_each_host_and_the_configurations_once(tmp_path):
    from ansible.inventory.data import InventoryData
    from ansible.plugins.loader import inventory_loader
    from ansible_collections.strata.hier.tests.unit.plugins.warnings_seen import warnings_seen
    datum_yml = store(tmp_path, common="Password: '[ENC=AAAA]'\n", datum_extra=THROW_FALSE).config.path
    write(tmp_path, 'AllNodes/Dev/n2.yml', 'NodeName: n2\nEnvironment: Dev\nRole: web\n')
    source = write(tmp_path, 'nodes.hier.yml', 'plugin: strata.hier.hier\nconfig: %s\n' % datum_yml)
    plugin = inventory_loader.get('strata.hier.hier')
    with warnings_seen(plugin.display, []) as seen:
        plugin.parse(InventoryData(), DataLoader(), source, cache=False)
    kept = [warning for warning in seen if 'kept as written' in warning]
    assert sorted(warning.split(':')[0] for warning in kept) == ['strata.hier.hier n1', 'strata.hier.hier n2']
    assert all("Common.yml:1: key 'Password'" in warning for warning in kept)
    assert [warning for warning in seen if 'as Sum' in warning] == [
        "strata.hier.hier: %s:7: Datum reads merge_basetype_array 'Add' as Sum; strata.hier does the same (a hier.yml "
        "would refuse it)" % datum_yml]


def test_the_lookup_prints_handler_warnings_with_its_key_and_the_configurations_once_per_process(tmp_path):
    from ansible.plugins.loader import lookup_loader
    from ansible.template import Templar
    from ansible_collections.strata.hier.plugins.lookup import hier as lookup_module
    from ansible_collections.strata.hier.tests.unit.plugins.warnings_seen import warnings_seen
    datum_yml = store(tmp_path, common="Url: 'http://[x={ $Node.Name }=]:8080'\n", datum_extra=THROW_FALSE).config.path
    loader = DataLoader()
    plugin = lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader))
    with warnings_seen(lookup_module.display, []) as seen:
        assert plugin.run(['Url'], dict(NODE), config=datum_yml) == ['n1']
        assert plugin.run(['Url'], dict(NODE), config=datum_yml) == ['n1']
    dropped = [warning for warning in seen if 'dropped' in warning]
    assert dropped and all(warning.startswith('strata.hier.hier Url: in ') for warning in dropped)
    assert len([warning for warning in seen if 'as Sum' in warning and warning.startswith('strata.hier.hier: ')]) == 1


def test_an_unusable_resolution_precedence_handler_is_a_warning_of_the_configuration(tmp_path):
    hierarchy = store(tmp_path, datum_extra="  - '[x={ Get-Date }=]'\nDatumHandlersThrowOnError: false\n")
    warning, = hierarchy.config.warnings
    assert 'Datum.yml:1: ' in warning and 'the level finds nothing' in warning


def test_a_reference_resolved_once_warns_with_every_answer_using_it(tmp_path):
    hierarchy = store(tmp_path, common="Bad: '[x={ Get-Date }=]'\nA: '[x={ $Datum.Common.Bad }=]'\n"
                                       "B: '[x={ $Datum.Common.Bad }=]'\n",
                      datum_extra='DatumHandlersThrowOnError: false\n')
    expansions = hierarchy.expand_levels(NODE)      # one handler context: Bad is resolved once
    first, second = (hierarchy.lookup(key, NODE, expansions=expansions) for key in ('A', 'B'))
    for answer in (first, second):
        assert [warning for warning in answer.warnings if "Common.yml:1: key 'Bad'" in warning], answer.warnings
