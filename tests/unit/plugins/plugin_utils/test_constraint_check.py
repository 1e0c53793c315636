# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 30: constraints checked on real stores (plugin_utils/constraint_check.py): each node's chain read from its
levels, findings naming both lines, bad constraints naming hier.yml's line, and the lookup, inventory and vars
plugins enforcing them by severity."""

from __future__ import annotations

import os

import pytest

from ansible.errors import AnsibleError, AnsibleLookupError, AnsibleParserError
from ansible.inventory.data import InventoryData
from ansible.parsing.dataloader import DataLoader
from ansible.parsing.vault import VaultLib, VaultSecret
from ansible.plugins.loader import inventory_loader, lookup_loader, vars_loader
from ansible.template import Templar

from ansible_collections.strata.hier.plugins.lookup import hier as lookup_module
from ansible_collections.strata.hier.plugins.plugin_utils.config import ConfigError
from ansible_collections.strata.hier.plugins.plugin_utils.sources.hier_yml import load_config
from ansible_collections.strata.hier.plugins.plugin_utils.constraint_check import NodeChecks, check_node, enforce
from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy_cache import get_hierarchy
from ansible_collections.strata.hier.tests.unit.plugins.readme_project import (
    DB01, GUARDED_FILES, README_FILES, WEB01, write,
)
from ansible_collections.strata.hier.tests.unit.plugins.vault_context import secrets_context
from ansible_collections.strata.hier.tests.unit.plugins.warnings_seen import warnings_seen

SECRET = [('default', VaultSecret(b'unit-test'))]
README_FINDINGS = [
    "'final' violated for ntp/makestep on db01: data/roles/db.yml:3 sets \"0.1 -1\" over \"1.0 3\" fixed at "
    "data/common.yml:4 (hier.yml:11)",
    "'protect_items' violated for packages on db01: data/nodes/db01.yml:3 knocks out \"chrony\", set at "
    "data/common.yml:1 (hier.yml:12)",
    "'vault' violated for db_password on db01: data/roles/db.yml:4 sets it in plain text; it must be a vault value "
    "(hier.yml:16)",
    "'tighten' violated for session_timeout on web01: data/roles/web.yml:2 sets 1800, above 900 at data/common.yml:5; "
    "it may only decrease (hier.yml:13)",
    "'owners' violated for ntp/servers on web01: data/roles/web.yml:4 (level 'roles/%{Role}') sets "
    "[\"time.example.com\"]; only common may set it (hier.yml:17)",
]


def project(root, files=None, extra=None):
    """Write ``files`` (default: the README's first project with its constraints, GUARDED_FILES), each text of
    ``extra`` appended to its file, under ``root``; the path of its hier.yml."""
    files = dict(GUARDED_FILES if files is None else files)
    for name, text in (extra or {}).items():
        files[name] = files.get(name, '') + text
    write(root, files)
    return str(root / 'hier.yml')


def guarded(severity_of_makestep):
    """The README's project with ntp/makestep's constraint at another severity."""
    return dict(GUARDED_FILES, **{'hier.yml': GUARDED_FILES['hier.yml'].replace(
        'ntp/makestep: {final: true}', 'ntp/makestep: {final: true, severity: %s}' % severity_of_makestep)})


def findings(config, loader=None):
    checks = NodeChecks(get_hierarchy(config, loader or DataLoader()))
    assert checks.problems == []
    return checks.findings


def messages(config, loader=None):
    return [finding['message'] for finding in findings(config, loader)]


def vaulted(key, text):
    ciphertext = VaultLib(SECRET).encrypt(text).decode()
    return '%s: !vault |\n%s' % (key, ''.join('  %s\n' % line for line in ciphertext.splitlines()))


def test_the_readme_project_reports_its_seeded_violations_with_both_lines(tmp_path):
    found = findings(project(tmp_path))
    assert sorted(finding['message'] for finding in found) == sorted(README_FINDINGS)
    final = next(finding for finding in found if finding['rule'] == 'final')
    assert final == {
        'host': 'db01', 'path': 'ntp/makestep', 'rule': 'final', 'severity': 'error', 'file': 'data/roles/db.yml',
        'line': 3, 'value': '0.1 -1', 'protected': {'file': 'data/common.yml', 'line': 4},
        'declared': {'file': 'hier.yml', 'line': 11}, 'message': README_FINDINGS[0]}


def test_without_its_violations_the_readme_project_has_no_finding(tmp_path):
    files = dict(GUARDED_FILES, **{'data/roles/db.yml': 'packages: [postgresql]\n',
                                   'data/roles/web.yml': 'packages: [nginx]\nsession_timeout: 600\n',
                                   'data/nodes/db01.yml': 'NodeName: db01\nRole: db\n'})
    assert messages(project(tmp_path, files)) == []


@pytest.mark.parametrize('extra, line', [('ntp:\n  --makestep: null\n', 5), ('--ntp: null\n', 4)])
def test_final_catches_a_knockout_of_the_key_or_of_a_map_above_it(tmp_path, extra, line):
    found = messages(project(tmp_path, extra={'data/nodes/db01.yml': extra}))
    assert "'final' violated for ntp/makestep on db01: data/nodes/db01.yml:%d knocks it out; it is fixed at " \
           "data/common.yml:4 (\"1.0 3\") (hier.yml:11)" % line in found


def test_a_knockout_read_with_the_prefix_of_the_map_holding_it(tmp_path):
    """``--TimeZone`` inside a map merged deep knocks the key out, whatever the key's own rule (none here)."""
    config = project(tmp_path, {
        'hier.yml': 'datadir: data\nhierarchy: ["nodes/%{NodeName}", common]\nnodes: "nodes/*"\n'
                    'lookup_options:\n  settings: deep\nconstraints:\n  settings/zone/name: {required: true}\n',
        'data/common.yml': 'settings:\n  zone:\n    name: UTC\n',
        'data/nodes/n1.yml': 'NodeName: n1\nsettings:\n  zone:\n    --name: null\n',
        'data/nodes/n2.yml': 'NodeName: n2\nsettings:\n  --zone: null\n',
        'data/nodes/n3.yml': 'NodeName: n3\nsettings: {other: 1}\n'})
    assert sorted(messages(config)) == [
        "'required' violated for settings/zone/name on n1: data/nodes/n1.yml:4 knocks it out (hier.yml:7)",
        "'required' violated for settings/zone/name on n2: data/nodes/n2.yml:3 knocks it out (hier.yml:7)"]


def test_tighten_skips_levels_that_do_not_set_the_key(tmp_path):
    config = project(tmp_path, {
        'hier.yml': 'datadir: data\nhierarchy: ["nodes/%{NodeName}", "roles/%{Role}", "sites/%{Site}", common]\n'
                    'nodes: "nodes/*"\nconstraints:\n  timeout: {tighten: decrease}\n',
        'data/common.yml': 'timeout: 900\n',
        'data/roles/web.yml': 'other: 1\n',                 # the role does not set it: the node compares with common
        'data/nodes/n1.yml': 'NodeName: n1\nRole: web\nSite: nowhere\ntimeout: 1200\n',
        'data/nodes/n2.yml': 'NodeName: n2\nRole: web\nSite: nowhere\ntimeout: 600\n'})
    assert messages(config) == [
        "'tighten' violated for timeout on n1: data/nodes/n1.yml:4 sets 1200, above 900 at data/common.yml:1; it may "
        "only decrease (hier.yml:5)"]


def test_regex_keys_and_every_constraint_of_a_path(tmp_path):
    config = project(tmp_path, extra={
        'hier.yml': '  ^ntp/: {type: {type: string}}\n  ^ntp/s.*s$: {owners: [common], severity: warn}\n'})
    found = {(finding['host'], finding['path'], finding['rule'], finding['severity'], finding['declared']['line'])
             for finding in findings(config) if finding['path'].startswith('ntp/')}
    assert found == {('db01', 'ntp/makestep', 'final', 'error', 11),
                     ('web01', 'ntp/servers', 'owners', 'error', 17),
                     ('web01', 'ntp/servers', 'owners', 'warn', 19),
                     ('web01', 'ntp/servers', 'type', 'error', 18), ('db01', 'ntp/servers', 'type', 'error', 18)}


DATUM = {
    'Datum.yml': 'ResolutionPrecedence:\n  - AllNodes\\$($Node.Environment)\\$($Node.NodeName)\n'
                 '  - Roles\\$($Node.Role)\n  - Baselines\\Security\n'
                 'lookup_options:\n  Security: {merge_hash: deep}\n'
                 'Constraints:\n  security\\MinPasswordLength: {tighten: increase}\n'
                 '  ^SECURITY\\\\: {owners: [Baselines\\Security]}\n',
    'Baselines/Security.yml': 'Security:\n  MinPasswordLength: 14\n',
    'Roles/Web.yml': 'Security:\n  minpasswordlength: 16\n',
    'AllNodes/Dev/web1.yml': 'NodeName: web1\nEnvironment: Dev\nRole: Web\nsecurity:\n  MINPASSWORDLENGTH: 8\n',
}


def test_a_case_insensitive_store_matches_constraints_in_any_case(tmp_path):
    write(tmp_path, DATUM)
    found = {(finding['path'], finding['rule'], finding['file'], finding['line'], finding['declared']['line'])
             for finding in findings(str(tmp_path / 'Datum.yml'))}
    assert found == {('security/MinPasswordLength', 'tighten', 'AllNodes/Dev/web1.yml', 5, 8),     # as the
                     ('security/MinPasswordLength', 'owners', 'Roles/Web.yml', 2, 9),               # constraint
                     ('security/MinPasswordLength', 'owners', 'AllNodes/Dev/web1.yml', 5, 9)}       # writes it


@pytest.mark.parametrize('constraints, message', [
    ("  ntp/makestep: {final: yes, fianl: true}\n", "hier.yml:11: constraints 'ntp/makestep': unknown rule 'fianl'"),
    ("  packages: {protect_items: chrony}\n", "hier.yml:11: constraints 'packages': protect_items must be a list"),
    ("  ntp/makestep: {final: true}\n  ntp: {tighten: down}\n",
     "hier.yml:12: constraints 'ntp': tighten must be one of decrease, increase, subset, superset, not 'down'"),
    ("  ntp: {owners: common}\n", "hier.yml:11: constraints 'ntp': owners must be a list of levels"),
    ("  '^ntp/(': {final: true}\n", "hier.yml:11: constraints '^ntp/(': invalid regular expression"),
    ("  ntp: {type: {type: map}}\n", "hier.yml:11: constraints 'ntp': type: type: unknown type 'map'"),
    ("  ntp: {type: {minimum: one}}\n", "hier.yml:11: constraints 'ntp': type: minimum"),
    ("  ntp: final\n", "hier.yml:11: constraints 'ntp': a constraint is a map of rules"),
    ("  - ntp\n", "hier.yml:10: constraints must be a map of key paths to rules, not a list"),
])
def test_a_bad_constraint_is_an_error_naming_the_line_and_the_key(tmp_path, constraints, message):
    write(tmp_path, dict(README_FILES, **{'hier.yml': README_FILES['hier.yml'] + 'constraints:\n' + constraints}))
    with pytest.raises(ConfigError) as caught:
        load_config(str(tmp_path / 'hier.yml'), DataLoader())
    assert message in str(caught.value)


def test_a_vault_value_in_constraints_is_an_error_that_does_not_show_it(tmp_path):
    write(tmp_path, dict(README_FILES, **{'hier.yml': README_FILES['hier.yml'] + 'constraints:\n  db_password:\n'
                                          '    type:\n      ' + vaulted('const', 'hunter2').replace('\n', '\n      ')}))
    loader = DataLoader()
    loader.set_vault_secrets(SECRET)
    with pytest.raises(ConfigError) as caught:
        load_config(str(tmp_path / 'hier.yml'), loader)
    assert 'hier.yml:10: constraints holds a vault value' in str(caught.value)
    assert 'hunter2' not in str(caught.value) and 'ANSIBLE_VAULT' not in str(caught.value)


def test_a_constraints_key_in_a_data_file_is_a_plain_key(tmp_path):
    """Data cannot add or relax a constraint: its ``constraints`` is merged as any key is."""
    config = project(tmp_path, extra={'data/common.yml': 'constraints:\n  ntp/makestep: {final: false}\n',
                                      'data/roles/web.yml': 'constraints:\n  packages: {protect_items: [nginx]}\n'})
    assert sorted(messages(config)) == sorted(README_FINDINGS)
    hierarchy = get_hierarchy(config, DataLoader())
    assert hierarchy.lookup('constraints', WEB01).value == {'packages': {'protect_items': ['nginx']}}
    plain = project(tmp_path / 'plain', README_FILES, {'data/nodes/db01.yml': 'constraints: {db_password: '
                                                                              '{vault: required}}\ndb_password: x\n'})
    assert get_hierarchy(plain, DataLoader()).config.constraints is None and messages(plain) == []


def test_vault_required_passes_vault_values_and_vaulted_files_and_never_shows_a_secret(tmp_path):
    loader = DataLoader()
    loader.set_vault_secrets(SECRET)
    config = project(tmp_path, extra={'data/roles/web.yml': vaulted('db_password', 's3cret')})
    with secrets_context(SECRET):
        found = [finding for finding in findings(config, loader) if finding['rule'] == 'vault']
        assert [(finding['host'], finding['file'], finding['line'], finding['value']) for finding in found] == [
            ('db01', 'data/roles/db.yml', 4, None)]
        assert 'hunter2' not in repr(found)
        whole = VaultLib(SECRET).encrypt('packages: [postgresql]\nntp:\n  makestep: "0.1 -1"\ndb_password: hunter2\n')
        found = findings(project(tmp_path / 'whole', dict(GUARDED_FILES, **{'data/roles/db.yml': whole.decode()})),
                         loader)
    assert [finding['rule'] for finding in found if finding['host'] == 'db01'] == ['final', 'protect_items']
    final = next(finding for finding in found if finding['rule'] == 'final')
    assert final['value'] is None and '<withheld: vaulted file>' in final['message'] and '0.1 -1' not in repr(found)


def test_a_value_merged_over_a_vaulted_file_is_never_shown(tmp_path):
    """common.yml is a whole-file vaulted file: its limits merge into what web.yml writes, and a message or finding
    that showed the merged value (tighten's before and after, a type error of the merged value) would print them."""
    loader = DataLoader()
    loader.set_vault_secrets(SECRET)
    common = VaultLib(SECRET).encrypt('limits: {sessions: 4711, tags: [alpha, beta]}\n').decode()
    constraints = ('  limits: deep\nconstraints:\n  limits:\n    tighten: subset\n'
                   '    type: {type: object, additionalProperties: {type: integer}}\n  limits/sessions: {tighten: increase}\n')
    config = project(tmp_path, dict(README_FILES, **{
        'hier.yml': README_FILES['hier.yml'] + constraints,
        'data/common.yml': common, 'data/roles/web.yml': 'limits: {sessions: 10, extra: 1}\n'}))
    with secrets_context(SECRET):
        found = [finding for finding in findings(config, loader) if finding['host'] == 'web01']
    assert sorted((finding['path'], finding['rule']) for finding in found) == [
        ('limits', 'tighten'), ('limits/sessions', 'tighten')]
    assert all(finding['value'] is None and '<withheld: vaulted file>' in finding['message'] for finding in found)
    assert not any(secret in repr(found) for secret in ('4711', 'alpha', 'beta'))


def test_enforce_warns_of_warn_findings_and_raises_every_error_at_once(tmp_path):
    config = project(tmp_path, extra={'hier.yml': '  session_timeout/x: {required: true, severity: warn}\n'})
    hierarchy = get_hierarchy(config, DataLoader())
    found = check_node(hierarchy, hierarchy.expand_levels(WEB01), 'web01')
    warned = []
    with pytest.raises(ValueError) as caught:
        enforce(found, warned.append, ValueError)
    assert warned == ["'required' violated for session_timeout/x on web01: no level of the host sets it (hier.yml:18)"]
    assert str(caught.value) == '2 constraint violations:\n  %s\n  %s' % tuple(README_FINDINGS[3:])
    assert check_node(hierarchy, hierarchy.expand_levels(WEB01), 'web01', keys=['packages']) == []


# ---- the plugins

def lookup(config, *terms, variables=None):
    loader = DataLoader()
    plugin = lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader))
    return plugin.run(list(terms), dict(DB01 if variables is None else variables), config=config)


def test_the_lookup_raises_an_error_finding_of_the_keys_it_reads_naming_both_lines(tmp_path):
    config = project(tmp_path)
    with pytest.raises(AnsibleLookupError) as caught:
        lookup(config, 'ntp')
    assert README_FINDINGS[0] in str(caught.value) and 'packages' not in str(caught.value)
    assert lookup(config, 'session_timeout') == [900]       # db01's violations are in other keys


def test_the_lookup_warns_of_a_warn_finding_and_returns_the_value(tmp_path):
    config = project(tmp_path, guarded('warn'))
    seen = []
    with warnings_seen(lookup_module.display, seen):
        assert lookup(config, 'ntp/makestep') == ['0.1 -1']
    assert seen == [README_FINDINGS[0]]


def inventory_source(root, config):
    path = root / 'nodes.hier.yml'
    path.write_text('plugin: strata.hier.hier\nconfig: %s\n' % config)
    return str(path)


def test_the_inventory_plugin_raises_every_hosts_violations_in_one_error(tmp_path):
    source = inventory_source(tmp_path, project(tmp_path))
    plugin = inventory_loader.get('strata.hier.hier')
    with pytest.raises(AnsibleParserError) as caught:
        plugin.parse(InventoryData(), DataLoader(), source, cache=False)
    assert '5 constraint violations' in str(caught.value)
    assert all(message in str(caught.value) for message in README_FINDINGS)


def test_the_inventory_plugin_warns_of_warn_findings_and_builds_the_inventory(tmp_path):
    config = project(tmp_path, README_FILES, {'hier.yml': 'constraints:\n  ntp/makestep: {final: true, severity: warn}\n'})
    plugin = inventory_loader.get('strata.hier.hier')
    inventory, seen = InventoryData(), []
    with warnings_seen(plugin.display, seen):
        plugin.parse(inventory, DataLoader(), inventory_source(tmp_path, config), cache=False)
    assert sorted(inventory.hosts) == ['db01', 'web01']
    assert inventory.get_host('db01').vars['ntp']['makestep'] == '0.1 -1'
    assert [message for message in seen if 'violated' in message] == ['strata.hier.hier: ' + README_FINDINGS[0]]


def test_the_inventory_plugin_warns_of_warn_findings_again_from_its_cache(tmp_path):
    config = project(tmp_path, README_FILES, {'hier.yml': 'constraints:\n  ntp/makestep: {final: true, severity: warn}\n'})
    source = inventory_source(tmp_path, config)
    with open(source, 'a') as stream:
        stream.write('cache: true\ncache_plugin: ansible.builtin.jsonfile\ncache_connection: %s\n' % (tmp_path / 'cache'))
    for run in ('merged', 'cached'):
        plugin, seen = inventory_loader.get('strata.hier.hier'), []
        with warnings_seen(plugin.display, seen):
            plugin.parse(InventoryData(), DataLoader(), source, cache=True)
        try:
            plugin.update_cache_if_changed()
        except AttributeError:      # 2.19+: no such step
            pass
        assert [message for message in seen if 'violated' in message] == ['strata.hier.hier: ' + README_FINDINGS[0]], run
    assert os.listdir(str(tmp_path / 'cache'))


def vars_of(root, host, variables):
    data = InventoryData()
    data.add_host(host)
    for name, value in variables.items():
        if name != 'inventory_hostname':
            data.set_variable(host, name, value)
    loader = DataLoader()
    loader.set_basedir(str(root))
    plugin = vars_loader.get('strata.hier.hier')
    plugin.set_options()
    return plugin.get_vars(loader, str(root), [data.get_host(host)])


def test_the_vars_plugin_enforces_constraints_by_severity(tmp_path, monkeypatch):
    monkeypatch.delenv('STRATA_HIER_CONFIG', raising=False)
    project(tmp_path)
    with pytest.raises(AnsibleError) as caught:
        vars_of(tmp_path, 'db01', DB01)
    assert '3 constraint violations' in str(caught.value) and README_FINDINGS[1] in str(caught.value)
    warned = tmp_path / 'warned'
    project(warned, README_FILES, {'hier.yml': 'constraints:\n  packages: {protect_items: [chrony], severity: warn}\n'})
    seen = []
    with warnings_seen(vars_loader.get('strata.hier.hier')._display, seen):      # pylint: disable=protected-access
        assert vars_of(warned, 'db01', DB01)['packages'] == ['ntpsec', 'postgresql', 'openssh-server']
    assert [message for message in seen if 'violated' in message] == [README_FINDINGS[1].replace('(hier.yml:12)',
                                                                                                 '(hier.yml:11)')]
