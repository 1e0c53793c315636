# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The lookup registers its option definitions itself, as Ansible would, so a worker parses no DOCUMENTATION."""

from __future__ import annotations

import pytest

from ansible_collections.strata.hier.tests.unit.plugins.fresh_process import run_fresh

MODULE = 'ansible_collections.strata.hier.plugins.lookup.hier'

# A fresh process: what Ansible's own loading registers (the lookup's registration undone), what the lookup's
# import registers, and whether loading it through the plugin loader then parses DOCUMENTATION again.
CHECK = '''
import json, sys
from ansible import constants as C
from ansible.plugins.loader import PluginLoader, init_plugin_loader, lookup_loader
init_plugin_loader([sys.argv[1]])
from ansible_collections.strata.hier.plugins.plugin_utils import option_definitions
name = sys.argv[2]
registering = option_definitions.register_own_definitions
option_definitions.register_own_definitions = lambda *args: None      # Ansible's own parse, for comparison
lookup_loader.get('strata.hier.hier')
ansible = C.config.get_configuration_definitions('lookup', name)
option_definitions.register_own_definitions = registering
del C.config._plugins['lookup'][name]
sys.modules.pop(name)
lookup_loader._module_cache.clear()
parsed = []
original = PluginLoader._load_config_defs
PluginLoader._load_config_defs = lambda self, *args: parsed.append(
    C.config.has_configuration_definition('lookup', name)) or original(self, *args)
lookup_loader.get('strata.hier.hier')
own = C.config.get_configuration_definitions('lookup', name)
print(json.dumps({'same': own == ansible, 'options': sorted(own), 'registered_before_ansible_looks': parsed}))
'''


def test_the_lookup_registers_what_ansible_would_before_ansible_parses_its_documentation():
    report = run_fresh(CHECK, MODULE)
    assert report['options'] == ['_terms', 'config', 'default', 'explain', 'merge', 'origin_tags', 'provenance',
                                 'query', 'render', 'whole_node']
    assert report['same'] is True
    assert report['registered_before_ansible_looks'] == [True]


# Two workers of one run: the first parses the lookup's DOCUMENTATION, the second reads the options it kept.
WORKER = '''
import json, sys
from ansible import constants as C
C.DEFAULT_LOCAL_TMP = sys.argv[2]
from ansible.plugins.loader import init_plugin_loader, lookup_loader
init_plugin_loader([sys.argv[1]])
from ansible_collections.strata.hier.plugins.plugin_utils import option_definitions
parsed = []
parse_options = option_definitions._options_of
option_definitions._options_of = lambda text: parsed.append(1) or parse_options(text)
lookup_loader.get('strata.hier.hier')
own = C.config.get_configuration_definitions('lookup', sys.argv[3])
print(json.dumps({'parsed': len(parsed), 'definitions': own}))
'''


def test_the_run_parses_the_lookups_documentation_once(tmp_path):
    run_folder = tmp_path / 'run'
    run_folder.mkdir(mode=0o700)
    first = run_fresh(WORKER, run_folder, MODULE)
    second = run_fresh(WORKER, run_folder, MODULE)
    assert (first['parsed'], second['parsed']) == (1, 0)
    assert second['definitions'] == first['definitions'] and 'config' in first['definitions']


DEFINITIONS = {'_terms': {'type': 'list'}, 'explain': {'type': 'bool'},
               'stage': {'type': 'str', 'choices': ['all', 'task']}, 'keys': {'type': 'list', 'choices': ['a']}, 'query': {'type': 'str'}}


def test_option_problems_name_unknown_options_and_wrong_values():
    from ansible_collections.strata.hier.plugins.plugin_utils.option_definitions import option_problems
    given = {'explian': 1, '_terms': [], 'wantlist': True, 'explain': 'maybe', 'stage': 'bogus', 'keys': ['b'],
             'query': 'x', 'Stage': 'all'}
    assert option_problems(given, DEFINITIONS, ('wantlist',)) == (
        ['Stage', '_terms', 'explian'],
        [('explain', "explain must be true or false (yes/no, on/off, 1/0), not 'maybe'"),
         ('stage', "stage must be one of all, task, not 'bogus'")])     # a list's choices: Ansible checks them


def test_unknown_options_text_suggests_the_closest_valid_name():
    from ansible_collections.strata.hier.plugins.plugin_utils.option_definitions import unknown_options_text
    assert unknown_options_text(['explian'], DEFINITIONS) == ('unknown option explian (did you mean explain?); '
                                                              'valid options: explain, keys, query, stage')
    assert unknown_options_text(['zzz', 'qurey'], DEFINITIONS) == ('unknown options qurey (did you mean query?), zzz; '
                                                                   'valid options: explain, keys, query, stage')


def test_the_collections_doc_fragments_merge_as_ansible_merges_them():
    """The lookup's own definitions take its doc fragments (the config option, shared with the vars plugin)."""
    from ansible.errors import AnsibleError
    from ansible_collections.strata.hier.plugins.plugin_utils.option_definitions import with_fragments
    own = {'config': {'description': 'mine', 'type': 'path'}, 'other': {'type': 'str'}}
    merged = with_fragments(own, ['strata.hier.hierarchy_config', 'strata.hier.reserved_keys'])
    assert merged['config'] == {'description': 'mine', 'type': 'path', 'env': [{'name': 'STRATA_HIER_CONFIG'}],
                                'ini': [{'section': 'strata_hier', 'key': 'config'}]}   # the plugin's keys win
    assert merged['other'] == {'type': 'str'} and merged['allow_reserved_keys']['type'] == 'list'
    assert own == {'config': {'description': 'mine', 'type': 'path'}, 'other': {'type': 'str'}}
    assert with_fragments({}, 'strata.hier.hierarchy_config, strata.hier.reserved_keys') == \
        with_fragments({}, ['strata.hier.hierarchy_config', 'strata.hier.reserved_keys'])
    with pytest.raises(AnsibleError, match='ansible.builtin.vars_plugin_staging'):
        with_fragments({}, ['ansible.builtin.vars_plugin_staging'])


def test_a_wrong_value_that_is_a_vault_value_is_named_by_its_kind(tmp_path):
    """A lookup's keyword argument may come from host variables: an error about it never decrypts a vault value."""
    from ansible.parsing.dataloader import DataLoader
    from ansible.parsing.vault import VaultLib, VaultSecret
    from ansible_collections.strata.hier.plugins.plugin_utils.option_definitions import option_problems
    secret = [('default', VaultSecret(b'unit-test'))]
    ciphertext = VaultLib(secret).encrypt('s3cret').decode()
    (tmp_path / 'vars.yml').write_text('Flag: !vault |\n' + ''.join('  %s\n' % line for line in ciphertext.splitlines()))
    loader = DataLoader()
    loader.set_vault_secrets(secret)
    flag = loader.load_from_file(str(tmp_path / 'vars.yml'))['Flag']
    from ansible_collections.strata.hier.plugins.plugin_utils.compat import DATA_TAGGING
    if DATA_TAGGING:    # 2.19+ decrypts only within a vault secrets context, as a play has
        from ansible.parsing.vault import VaultSecretsContext
        VaultSecretsContext.initialize(VaultSecretsContext(secret))
    try:
        _unknown, wrong = option_problems({'explain': flag, 'stage': flag}, DEFINITIONS)
    finally:
        if DATA_TAGGING:
            VaultSecretsContext._current = None     # pylint: disable=protected-access
    assert [name for name, _problem in wrong] == ['explain', 'stage']
    assert all(problem.endswith('not a vault value') and 's3cret' not in problem for _name, problem in wrong)
