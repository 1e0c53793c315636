# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""A plugin's option definitions, registered from its own DOCUMENTATION.

Ansible registers a plugin's option definitions when it loads the plugin, under the plugin's module name, from the
DOCUMENTATION of the file it loaded, parsed with its own YAML loader: 1.5 ms of CPU in every worker ansible-playbook
forks, for the lookup (issue 13). ``register_own_definitions``, called as the plugin's module is imported, registers
them first, parsed with libyaml's safe loader by the run's first worker and read by the others from the run's folder
(parse.py); Ansible then finds them registered and parses nothing.

A one-line re-export beside a playbook (``lookup_plugins/hier.py`` holding ``from ansible_collections.strata.hier
.plugins.lookup.hier import LookupModule``) is loaded as ``hier`` from a file without DOCUMENTATION, so every
option would be unknown ("No config definition exists for 'config' for 'hier' lookup plugin"):
``adopt_own_definitions`` registers the same definitions under that name.

Only for DOCUMENTATION that Ansible's loader would read the same: doc fragments of this collection only (merged as
Ansible merges them, ``with_fragments``), no templated defaults (tests/unit/plugins/plugin_utils/
test_option_definitions.py compares both on every supported ansible-core).

Ansible checks less than a user expects of options (issue 33): it ignores options a plugin does not define when they
are given directly (a lookup's keyword arguments), reads any text other than true/yes/on/1 as false for a boolean,
and a vars plugin whose ``stage`` is not one of its choices runs as if none were set. ``option_problems`` and
``choice_problem`` say what is wrong instead, for the plugins to raise.
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Mapping
from typing import Any, Collection, Dict, List, Optional, Tuple

import yaml

from ansible import constants as C
from ansible.errors import AnsibleError
from ansible.module_utils.parsing.convert_bool import BOOLEANS_FALSE, BOOLEANS_TRUE

from ansible_collections.strata.hier.plugins.plugin_utils.config import shown_setting
from ansible_collections.strata.hier.plugins.plugin_utils.parse import kept_for_text

_SafeLoader = getattr(yaml, 'CSafeLoader', yaml.SafeLoader)
_PARSED: Dict[str, Dict[str, Any]] = {}
_COLLECTION = 'strata.hier.'
_FRAGMENTS = 'ansible_collections.strata.hier.plugins.doc_fragments.'


def own_definitions(module_name: str, documentation: str) -> Dict[str, Any]:
    """The options of a plugin's DOCUMENTATION, parsed once per run (the other workers read them from the run's
    folder) and kept once per process."""
    if module_name not in _PARSED:
        _PARSED[module_name] = kept_for_text('options', documentation, _options_of)
    return _PARSED[module_name]


def _options_of(documentation: str) -> Dict[str, Any]:
    # the fragments are parsed with DOCUMENTATION and kept with its options: a run's code does not change
    doc = yaml.load(documentation, Loader=_SafeLoader)
    return with_fragments(doc.get('options') or {}, doc.get('extends_documentation_fragment') or ())


def with_fragments(options: Mapping[str, Any], fragments: Any) -> Dict[str, Any]:
    """The options with those of the doc fragments merged in, in order, as Ansible's ``add_fragments`` does: an
    option defined before keeps its keys and takes the fragment's others. (Ansible also names the collection beside a
    fragment option's ``version_added``; test_option_definitions.py would tell if a fragment the lookup uses had one.)"""
    merged = dict(options)
    for name in fragments.split(',') if isinstance(fragments, str) else fragments:     # Ansible takes both forms
        for option, definition in fragment_options(name.strip()).items():
            merged[option] = dict(definition, **merged[option]) if option in merged else definition
    return merged


def fragment_options(name: str) -> Dict[str, Any]:
    """The options of one of this collection's doc fragments (``strata.hier.hierarchy_config``, or a variant such as
    ``strata.hier.hierarchy_config.lookup``: the fragment's ``LOOKUP``)."""
    if not name.startswith(_COLLECTION):
        raise AnsibleError('a plugin registering its own option definitions can extend only strata.hier doc fragments, '
                           'not %s' % name)
    module, _dot, variant = name[len(_COLLECTION):].partition('.')
    fragment = importlib.import_module(_FRAGMENTS + module).ModuleDocFragment
    return yaml.load(getattr(fragment, (variant or 'documentation').upper()), Loader=_SafeLoader).get('options') or {}


def register_own_definitions(plugin_type: str, module_name: str, documentation: str) -> None:
    """Register a plugin's option definitions under its module's name, unless Ansible has them already."""
    if not C.config.has_configuration_definition(plugin_type, module_name):
        C.config.initialize_plugin_configuration_definitions(plugin_type, module_name,
                                                             own_definitions(module_name, documentation))


def adopt_own_definitions(plugin: Any, module_name: str, documentation: str) -> None:
    """Register the plugin's own option definitions under its load name when Ansible has none there."""
    name = getattr(plugin, '_load_name', None) or module_name
    if C.config.has_configuration_definition(plugin.plugin_type, name):
        return
    C.config.initialize_plugin_configuration_definitions(plugin.plugin_type, name,
                                                         own_definitions(module_name, documentation))
    plugin._defs = None         # AnsiblePlugin.option_definitions reads them again


LOOKUP_CALL_ARGUMENTS = frozenset(('wantlist', 'errors', 'allow_unsafe'))
"""What ansible-core accepts in every lookup call and handles itself (ansible-core 2.16 takes all three out;
2.19 passes ``allow_unsafe`` on to the plugin, which it no longer means anything to)."""


def valid_names(definitions: Mapping[str, Any]) -> List[str]:
    """The options a user can name (``_terms`` is the lookup's positional arguments)."""
    return sorted(name for name in definitions if not name.startswith('_'))


def unknown_options_text(unknown: Collection[str], definitions: Mapping[str, Any]) -> str:
    """``unknown option(s) explian (did you mean explain?); valid options: ...``."""
    valid = valid_names(definitions)
    named = []
    for name in sorted(unknown):
        close = difflib.get_close_matches(name, valid, n=1)
        named.append('%s (did you mean %s?)' % (name, close[0]) if close else name)
    plural = 's' if len(named) > 1 else ''
    return 'unknown option%s %s; valid options: %s' % (plural, ', '.join(named), ', '.join(valid))


def option_problems(given: Mapping[str, Any], definitions: Mapping[str, Any],
                    accepted: Collection[str] = ()) -> Tuple[List[str], List[Tuple[str, str]]]:
    """Options given to a plugin, checked as Ansible does not: the names it does not define (``accepted``: names
    Ansible handles itself) and, for each defined one, what is wrong with its value (``value_problem``)."""
    valid = valid_names(definitions)
    unknown = sorted(str(name) for name in given if name not in valid and name not in accepted)
    wrong = []
    for name in valid:
        problem = value_problem(name, given[name], definitions[name]) if name in given else None
        if problem:
            wrong.append((name, problem))
    return unknown, wrong


def value_problem(name: str, value: Any, definition: Mapping[str, Any]) -> Optional[str]:
    """Why a value is wrong for its option, where Ansible would take it anyway: a boolean Ansible reads as false
    because it is none of its words for true or false (such as ``maybe``); a value outside the option's choices."""
    if value is None:
        return None     # unset: the option's default
    if str(definition.get('type')) in ('bool', 'boolean') and not _is_boolean(value):
        return '%s must be true or false (yes/no, on/off, 1/0), not %s' % (name, shown_setting(value))
    choices = definition.get('choices')
    if choices and definition.get('type') != 'list' and value not in choices:
        return '%s must be one of %s, not %s' % (name, ', '.join(str(choice) for choice in choices), shown_setting(value))
    return None


def _is_boolean(value: Any) -> bool:
    if isinstance(value, bool):
        return True
    if isinstance(value, (str, bytes)):
        value = (value.decode('utf-8', 'replace') if isinstance(value, bytes) else value).lower().strip()
    try:
        return value in BOOLEANS_TRUE or value in BOOLEANS_FALSE
    except TypeError:       # unhashable: a list or a map
        return False


def choice_problem(plugin: Any, option: str) -> Optional[str]:
    """Why the setting of ``option`` (ansible.cfg, environment) is not one of its choices, naming where it is set,
    or None. For an option Ansible reads through ``get_option`` and then ignores when invalid (a vars plugin's
    ``stage``: ansible-core falls back to RUN_VARS_PLUGINS)."""
    definitions = C.config.get_configuration_definitions(plugin.plugin_type, plugin._load_name)
    definition = definitions.get(option)
    if not definition or not definition.get('choices'):
        return None
    unchecked = '%s#%s' % (plugin._load_name, option)    # the option without its choices: its value as set
    if not C.config.has_configuration_definition(plugin.plugin_type, unchecked):
        as_set = {key: value for key, value in definition.items() if key != 'choices'}
        C.config.initialize_plugin_configuration_definitions(plugin.plugin_type, unchecked, {option: as_set})
    try:
        value, origin = C.config.get_config_value_and_origin(option, plugin_type=plugin.plugin_type,
                                                             plugin_name=unchecked)
    except AnsibleError:
        return None     # not a problem of choices: Ansible's own error says it
    problem = value_problem(option, value, definition)
    return '%s (set by %s)' % (problem, _where(origin, definition)) if problem else None


def _where(origin: Any, definition: Mapping[str, Any]) -> str:
    """Where a setting comes from, as the user writes it: ``STRATA_HIER_VARS_STAGE``, ``[strata_hier] vars_stage
    in /path/ansible.cfg``."""
    origin = str(origin)
    if origin.startswith('env: '):
        return 'the environment variable %s' % origin[len('env: '):]
    entries = ['[%s] %s' % (entry.get('section', 'defaults'), entry['key']) for entry in definition.get('ini') or ()]
    return '%s in %s' % (' or '.join(entries), origin) if entries else origin
