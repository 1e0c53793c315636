# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

DOCUMENTATION = r"""
name: hier
short_description: Look a key up across a hierarchy of YAML data, merged by per-key rules
version_added: 1.0.0
author: Strata maintainers (@strata-hier)
description:
  - Reads the levels of a hierarchy (node, environment, role, location, baseline, ...) from a data folder and
    merges the values a key has there with Datum's strategies, chosen per key in the configuration.
  - The configuration is strata's C(hier.yml) or Datum's own C(Datum.yml) (recognised by its name); see the
    collection's C(docs/hierarchy.md).
  - A Puppet C(hiera.yaml) (version 5, recognised by its name or its C(version) key) is answered as
    C(puppet lookup) answers it, C(lookup_options) in the data and Hiera's merges included; host variables map
    onto Hiera's facts as C(docs/hiera.md) tables. O(merge) then takes Hiera's forms (V(first), V(unique),
    V(hash), V(deep) or a map with C(strategy) and deep options), and O(explain) returns C(explain) text in the
    words of C(puppet lookup --explain).
  - Level paths such as C(AllNodes/%{Environment}/%{NodeName}) take the host's variables; a level whose variable
    is undefined is skipped (an error when the configuration sets C(strict_levels) to V(true)). Folders are maps
    and C(*.yml), C(*.yaml), C(*.json) files are keys named by their stem; a path may continue into the keys of a
    file.
  - Files load through Ansible's DataLoader, so vault-encrypted files and C(!vault) values work. Each file is
    parsed once per process.
  - Strings holding C({{ }}) are returned as written unless O(render=true), and never trusted as templates (before
    ansible-core 2.19 they are marked unsafe even with C(allow_unsafe=true), as is a string starting C(#jinja2:)).
  - With C(-vvv), the levels read, found and skipped are printed.
  - The configuration's C(constraints) (C(Constraints) in a C(Datum.yml)) under each looked-up key's top-level key
    (all of them with O(whole_node=true)) are checked for the host first - a violation of severity C(error) fails
    the lookup naming every violation, its data lines and the constraint's line; one of severity C(warn) is a
    warning (see the collection's C(docs/constraints.md)).
  - Options are checked (ansible-core alone ignores an option a lookup does not define, and reads any text but
    V(true), V(yes), V(on) or V(1) as false) - an unknown option such as C(explian=true) is an error naming the valid
    ones, and O(explain) and O(render) take V(true) or V(false) (or V(yes)/V(no), V(on)/V(off), V(1)/V(0)) only.
    C(wantlist), C(errors) and C(allow_unsafe), which ansible-core takes for every lookup, are accepted.
extends_documentation_fragment:
  - strata.hier.hierarchy_config
options:
  _terms:
    description: Key paths to look up, such as V(Packages) or V(SoftwareBaseline/Packages) (Datum's V(\\) works too).
    required: true
    type: list
    elements: str
  default:
    description:
      - Returned for a key found on no level, whatever its value (V([]), V(0), V(false), V("")).
      - Without it, a key found nowhere is an error.
    type: raw
  merge:
    description:
      - A strategy that replaces the configured rule of the looked-up key path for this call
        (a preset, a sub-strategy name or a Datum strategy map, as in C(lookup_options)).
    type: raw
  query:
    description:
      - A JMESPath expression applied to the merged value, such as V([?Ensure=='Present'].Name).
      - Needs the C(jmespath) Python library on the controller.
    type: str
  explain:
    description:
      - Return, instead of the value, how it was obtained C({key, value, found, strategy, rule, levels, paths}); each
        level reports C(level), C(path), C(file), C(found), C(skipped) and C(reason), and C(vaulted=true) when the
        value found there comes from a whole-file vaulted file.
      - C(strategy) and C(rule) are the looked-up key's. C(paths) lists what each map and list of the value actually
        merged by, which below the key may be another strategy (under V(deep), a nested list without a rule of its
        own merges by C(default_lookup_options)); see RV(_raw) and the collection's C(docs/hierarchy.md).
      - With a C(hiera.yaml), C({key, found, value, explain}) with C(puppet lookup --explain)'s text.
    type: bool
    default: false
  render:
    description:
      - Render C({{ }}) templates found in the data with the host's variables. Off by default on every
        ansible-core version, so data is returned as written.
    type: bool
    default: false
  provenance:
    description:
      - "Return, instead of the value, C({key, value, rule, provenance}) (C(value) as O(explain) gives it: vault values
        stay encrypted; O(query) and O(render) do not apply); C(provenance) maps each path of the value
        (the key itself, every map key and list item below it, C(/) separated with list indexes as numbers, such as
        V(packages/0)) to where it comes from - see RV(_raw)."
      - Costs the merge its shortcuts (up to about 3 times a plain lookup); off, it costs nothing.
      - At C(-vvv) the lookup prints one line per value with its file and line, whatever this option says.
    type: bool
    default: false
    version_added: 1.1.0
  origin_tags:
    description:
      - From ansible-core 2.19, each map, list and value the lookup returns carries ansible-core's C(Origin) tag (the
        data file, line and column it comes from), so that a failed C(assert) or C(when) on a merged value names the
        data line. Before 2.19 it changes nothing.
      - It needs the lookup's provenance, so it costs what O(provenance) costs; off by default.
    type: bool
    default: false
    version_added: 1.1.0
    ini:
      - section: strata_hier
        key: origin_tags
    env:
      - name: STRATA_HIER_ORIGIN_TAGS
  whole_node:
    description:
      - Look up the host's whole resultant set of data (every top-level key of its levels, each merged as its own
        lookup would) instead of O(_terms), which must then be empty; returns one map, key -> value, or with
        O(provenance) C({value, provenance}) where C(provenance) covers every key.
      - What the P(strata.hier.rsop#role) role and the C(strata.hier.blame) playbook ask when the inventory carries no
        provenance. For a C(hiera.yaml), every root key of the host's data files (C(lookup_options) aside), each
        looked up as C(puppet lookup) would, named as in the data (C(profile::ntp::servers)), as the inventory
        plugin gives them.
    type: bool
    default: false
    version_added: 1.1.0
notes:
  - Keys compare case-sensitively unless the configuration sets C(case_insensitive_keys) (a C(Datum.yml) does).
  - In a C(Datum.yml) store, the C([x= ... =]) expressions DscWorkshop repositories use (C($Node.X), C($Datum.A.B),
    C($File.BaseName), C(Get-DatumSourceFile -Path $File), strings with C($( )) parts) are evaluated without PowerShell;
    any other PowerShell and C([ENC=...]) are an error naming the file, line and key (a warning, the text kept, when
    C(DatumHandlersThrowOnError) is false). With a C(hier.yml), a value holding a Datum handler is an error.
  - "For the short name C(lookup('hier', 'Packages')), put a one-line re-export beside the playbook,
    C(lookup_plugins/hier.py) holding C(from ansible_collections.strata.hier.plugins.lookup.hier import LookupModule);
    every option works under that name."
  - C(group_names) is given to levels most specific group first (Ansible's group precedence), for C(mapped_paths)
    levels over it.
seealso:
  - plugin: strata.hier.deep_merge
    plugin_type: filter
"""

EXAMPLES = r"""
- name: Packages of this host, merged across its levels
  ansible.builtin.debug:
    msg: "{{ lookup('strata.hier.hier', 'Packages', config='hier.yml') }}"

- name: Several keys, a nested key and a default
  ansible.builtin.debug:
    msg: "{{ query('strata.hier.hier', 'Timezone', 'SoftwareBaseline/Packages', 'Missing', default=[]) }}"

- name: Names of the packages to install (JMESPath)
  ansible.builtin.debug:
    msg: "{{ lookup('strata.hier.hier', 'Packages', query=present) }}"
  vars:
    present: "[?Ensure=='Present'].Name"

- name: Why does this host get this value?
  ansible.builtin.debug:
    msg: "{{ lookup('strata.hier.hier', 'NetworkConfig', explain=true) }}"

- name: Where does each package of this host come from? (file and line per item, what was knocked out)
  ansible.builtin.debug:
    msg: "{{ lookup('strata.hier.hier', 'packages', provenance=true) }}"

- name: Merge differently for this call
  ansible.builtin.debug:
    msg: "{{ lookup('strata.hier.hier', 'WindowsFeatures', merge='Unique') }}"
"""

RETURN = r"""
_raw:
  description:
    - One merged value per term (with O(explain), one report per term).
    - "In a report, C(paths) has one entry per key path merged, the looked-up key first, then every map and list below
      it in the order the merge met them (scalars take the most specific value): C(path) (the key path, C(/)
      separated, keys spelled as the most specific level writes them), C(type) (V(map), V(base-type array),
      V(hash array), V(empty list) when every list was empty, or V(scalar) for the looked-up key), C(strategy) (the
      name of the strategy that merged it), C(rule) (the C(lookup_options) key, V(default_lookup_options) or V(merge)
      it comes from), C(how) (V(rule): the path's own rule; V(default): no rule of its own, the default;
      V(inherited): a map under V(deep) without a rule of its own, its parent's strategy; V(whole): without a rule of
      its own under V(hash) or V(MostSpecific), the most specific value taken whole), and the setting that merged it
      with its options: C(merge_hash), C(merge_basetype_array) or C(merge_hash_array), C(knockout_prefix), and
      C(tuple_keys) for a hash array merged by tuple."
    - Hash-array items are maps at their array's path; an entry is listed once however many items repeat it.
    - "With O(provenance), each record of C(provenance) has C(file) (relative to the configuration's folder),
      C(line), C(column), C(level) (as configured), C(level_path) (as expanded for the host), C(value) (scalars
      only), C(rule) and C(rule_at) (the C(lookup_options) key that merged it and the C(file:line) declaring it,
      null for a default that is not written), C(end_line) (the last line of a value written on several lines),
      C(shadowed) (each less specific definition the value overrode: C(file), C(line), C(value)), C(merged) (each
      less specific definition merged into a map, list or hash-array item: C(file), C(line)) and C(removed) (each
      value a knockout took out of a map or list: C(value), C(file), C(line), and C(marker) with the marker's
      C(file) and C(line)). Data of a whole-file vaulted file
      is C(withheld=true), without values or lines; vault values stay encrypted."
  type: list
  elements: raw
"""

import os
from collections.abc import Mapping

from ansible.errors import AnsibleLookupError, AnsibleUndefinedVariable
from ansible.module_utils.common.text.converters import to_native
from ansible.plugins.lookup import LookupBase
from ansible.utils.display import Display

# Before the helpers: they load with Python's bytecode cache (plugin_utils/bytecode.py).
from ansible_collections.strata.hier.plugins.plugin_utils import bytecode
from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeError
from ansible_collections.strata.hier.plugins.module_utils.core.identity import is_opaque
from ansible_collections.strata.hier.plugins.module_utils.core.paths import split_path
from ansible_collections.strata.hier.plugins.plugin_utils.compat import (
    DATA_TAGGING, CompleteMessage, decrypted, is_vault_value, not_templates, origin_tagged, plain, plain_scalar,
    trust_as_template,
)
from ansible_collections.strata.hier.plugins.plugin_utils.config import ConfigError
from ansible_collections.strata.hier.plugins.plugin_utils.config_path import (
    hierarchy_config_path, resolve_option_path,
)
from ansible_collections.strata.hier.plugins.plugin_utils.discovery import discover_config
from ansible_collections.strata.hier.plugins.plugin_utils.eyaml import EyamlError, decrypted as eyaml_decrypted
from ansible_collections.strata.hier.plugins.plugin_utils.group_precedence import in_group_precedence
from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy import HierarchyError
from ansible_collections.strata.hier.plugins.plugin_utils.option_definitions import (
    LOOKUP_CALL_ARGUMENTS, adopt_own_definitions, option_problems, own_definitions, register_own_definitions,
    unknown_options_text,
)
from ansible_collections.strata.hier.plugins.plugin_utils.source import open_source
from ansible_collections.strata.hier.plugins.plugin_utils.store import StoreError
from ansible_collections.strata.hier.plugins.plugin_utils.undefined_levels import skipped_for_host
from ansible_collections.strata.hier.plugins.plugin_utils.walk import rebuild

display = Display()
register_own_definitions('lookup', __name__, DOCUMENTATION)    # before Ansible parses DOCUMENTATION: in each worker


class LookupModule(LookupBase):

    def run(self, terms, variables=None, **kwargs):
        bytecode.warn_uncached(display.warning)     # once per run: the helpers compiled in every worker
        adopt_own_definitions(self, __name__, DOCUMENTATION)    # the short name through a one-line re-export
        key = _options_key(self, kwargs)
        if key is None or key not in _OPTIONS_KEPT:     # options kept were checked when they were read
            _check_options(kwargs)
        _set_options_once(self, variables, kwargs, key)
        try:
            return self._run(terms, variables or {}, kwargs)
        except (ConfigError, HierarchyError, StoreError, MergeError, EyamlError) as exc:
            # a lookup error, so that ansible-core 2.16 shows the message rather than an "unhandled exception";
            # no orig_exc: 2.16 would append the same message again ("X. X")
            raise _LookupError(to_native(exc)) from exc

    def _run(self, terms, variables, kwargs):
        config_path = self._config_path(kwargs, variables)
        if self.get_option('whole_node') and terms:
            raise _LookupError('strata.hier.hier: whole_node=true looks up every key of the host: give no key (%s)'
                               % ', '.join(repr(term) for term in terms))
        source = open_source(config_path, self._loader)
        for warning in source.take_warnings():     # the configuration's, once per process
            display.warning('strata.hier.hier: %s' % warning)
        view = source.for_host(in_group_precedence(variables), self._fetch)
        if display.verbosity >= 1:
            _say_undefined(view.host, view.undefined, source.level_position, source.undefined_effect)
        # the constraints under the keys the lookup reads (constraint_check.py)
        findings = view.check(None if self.get_option('whole_node') else
                              [split_path(term)[0] for term in terms if split_path(term)])
        if findings:
            from ansible_collections.strata.hier.plugins.plugin_utils.constraint_check import enforce
            enforce(findings, display.warning, HierarchyError)
        if self.get_option('whole_node'):
            return [self._whole_node(view)]
        return [self._term(view, term, kwargs, config_path) for term in terms]

    def _term(self, view, term, kwargs, config_path):
        """One term: its value, or its explain or provenance report."""
        provenance = self.get_option('provenance') or display.verbosity >= 3 or self._origin_tags()
        answer = view.lookup(term, merge=self.get_option('merge'), explain=self.get_option('explain'),
                             provenance=provenance)
        if display.verbosity >= 3:
            for line in answer.trace():
                display.vvv(line)
        for warning in answer.warnings:
            display.warning('strata.hier.hier %s: %s' % (answer.key, warning))
        if self.get_option('explain'):
            return not_templates(plain(answer.explain(), wrappers=1), 1)    # the value sits in it
        if self.get_option('provenance'):
            return self._with_provenance(answer, kwargs, config_path)
        value = self._answer(answer, kwargs, config_path)
        if answer.found and self._origin_tags() and not self.get_option('query'):
            value = origin_tagged(value, answer.records, os.path.dirname(config_path), answer.key)
        return value

    def _origin_tags(self):
        """Origin tags on the answer (2.19+ only: before, Ansible has no tags to carry them)."""
        return DATA_TAGGING and self.get_option('origin_tags')

    def _with_provenance(self, answer, kwargs, config_path):
        """{key, value, rule, provenance}; the value as reports show it (vault values kept encrypted, a Sensitive
        value redacted, no query or render), the default for a key found nowhere."""
        value = answer.shown if answer.found else self._answer(answer, kwargs, config_path)
        report = {'key': answer.key, 'value': value, 'rule': answer.rule, 'provenance': answer.records or {}}
        return not_templates(plain(report, wrappers=1), 1)

    def _whole_node(self, view):
        """Every top-level key of the host merged: key -> value, or with provenance {value, provenance}."""
        provenance = self.get_option('provenance')
        answers = view.whole(provenance)
        for answer in answers.values():
            for warning in answer.warnings:
                display.warning('strata.hier.hier %s %s: %s' % (view.host or '(no host)', answer.key, warning))
        value = {key: answer.value for key, answer in answers.items()}
        if not provenance:      # the value returned: eyaml values decrypted (with provenance, a report: encrypted)
            return not_templates(plain(eyaml_decrypted(value), wrappers=0))
        records = {}
        for answer in answers.values():
            records.update(answer.records or {})
        return not_templates(plain({'value': value, 'provenance': records}, wrappers=1), 1)

    def _config_path(self, direct, variables):
        """config=, else the first hier.yml, hiera.yaml or Datum.yml beside the playbook or an inventory source,
        else the setting (plugin_utils/discovery.py)."""
        basedir = self._loader.get_basedir()
        if direct.get('config') is not None:
            return hierarchy_config_path(self, basedir, direct)
        return discover_config(basedir, variables.get('ansible_inventory_sources') or (),
                               resolve_option_path(self, 'config', basedir, direct))

    def _fetch(self, variables, name):
        """A host variable, templated; undefined ones raise KeyError so the level is skipped."""
        return self._templated(variables[name], name)

    def _templated(self, value, name):
        """A variable templated, a map key by key as a level reads it; a vault value as it is (templating would
        decrypt it; Hierarchy.expand_levels refuses it)."""
        if is_vault_value(value) or (isinstance(value, str) and not _may_be_template(value)):
            return value        # what the templar would give back, without its cost (half of a level expansion)
        if isinstance(value, Mapping):
            return _TemplatedMap(value, self)
        try:
            value = self._templar.template(value)
        except AnsibleUndefinedVariable as exc:
            raise KeyError(name) from exc
        return _TemplatedMap(value, self) if isinstance(value, Mapping) else value

    def _answer(self, answer, kwargs, config_path):
        if not answer.found:
            if 'default' not in kwargs:
                raise AnsibleLookupError('strata.hier.hier: %r was found on no level of %s (use explain=true to see '
                                         'the levels read, or give a default)' % (answer.key, config_path))
            return self.get_option('default')
        return self._answer_value(answer.value, answer.eyaml)

    def _answer_value(self, value, eyaml=True):
        if self.get_option('query'):
            value = self._query(value)
        if self.get_option('render'):
            value = self._render(value)
        # data, not templates, even where Ansible would not mark the result unsafe (allow_unsafe=true, before 2.19);
        # eyaml values decrypted only here, in what the lookup returns
        # (the walk for eyaml values skipped where the Source reads none: a whole walk of the answer per call)
        if is_vault_value(value):
            return not_templates(decrypted(value))
        return not_templates(eyaml_decrypted(value) if eyaml else value)

    def _query(self, value):
        try:
            import jmespath
        except ImportError as exc:
            raise _LookupError('strata.hier.hier: query= needs the jmespath Python library '
                               '(pip install jmespath on the controller)') from exc
        try:
            found = jmespath.search(self.get_option('query'), rebuild(value, _seal))
        except jmespath.exceptions.JMESPathError as exc:
            raise _LookupError('strata.hier.hier: query %r: %s' % (self.get_option('query'), to_native(exc))) from exc
        return rebuild(found, _unseal)

    def _render(self, value):
        return rebuild(value, self._render_text)

    def _render_text(self, value):
        if isinstance(value, str) and ('{{' in value or '{%' in value):
            return self._templar.template(trust_as_template(value))
        return value


def _check_options(direct):
    """Ansible ignores a keyword argument the lookup does not define (explian=true) and reads explain='maybe' as
    false: both are errors here."""
    definitions = own_definitions(__name__, DOCUMENTATION)
    unknown, wrong = option_problems(direct, definitions, LOOKUP_CALL_ARGUMENTS)
    if unknown:
        raise _LookupError('strata.hier.hier: %s' % unknown_options_text(unknown, definitions))
    if wrong:
        raise _LookupError('strata.hier.hier: %s' % wrong[0][1])


_OPTIONS_KEPT = {}
"""Options (and their origins) by the direct options and the environment settings they were read with."""
_OPTIONS_KEPT_MOST = 256


def _set_options_once(plugin, variables, direct, key):
    """``set_options``, read from Ansible's configuration manager once per process and distinct set of direct
    options (``key``: _options_key's): it costs more than a warm lookup, and no option of this lookup reads host
    variables (only the call, ansible.cfg and the environment, whose variables are in the key)."""
    kept = _OPTIONS_KEPT.get(key) if key is not None else None
    if kept is not None:
        options, origins, passed = kept
        plugin._options = dict(options)      # pylint: disable=protected-access
        plugin._options.update((name, direct[name]) for name in passed)    # pylint: disable=protected-access
        if origins is not None:
            plugin._origins = dict(origins)     # pylint: disable=protected-access
        return
    plugin.set_options(var_options=variables, direct=direct)
    if key is not None:
        if len(_OPTIONS_KEPT) >= _OPTIONS_KEPT_MOST:
            _OPTIONS_KEPT.clear()
        options, origins = dict(plugin._options), getattr(plugin, '_origins', None)    # pylint: disable=protected-access
        # an option Ansible took as given (a raw default=) is this call's object, not an equal one of the first call
        passed = tuple(name for name, value in direct.items() if options.get(name) is value)
        _OPTIONS_KEPT[key] = (options, None if origins is None else dict(origins), passed)


def _options_key(plugin, direct):
    """The direct options as a key (builtin scalars, lists and maps of them: hashing anything else, such as a vault
    value, could decrypt it), with the environment variables of the options; None: not kept."""
    try:
        given = tuple(sorted((name, _plain_key(value)) for name, value in direct.items()))
    except TypeError:
        return None
    return given, tuple(os.environ.get(name) for name in _environment_names(plugin))


def _plain_key(value):
    """A value as a key: its text for every string (a play's options are tagged strings from 2.19, YAML or unsafe
    strings before, as Ansible gives them: the exact type str only would miss every call of a play)."""
    kind = type(value)
    if kind is str:
        return ('str', value)
    if kind in (int, float, bool) or value is None:
        return (kind.__name__, value)
    if is_opaque(value):        # never hashed: that could decrypt it
        raise TypeError(kind)
    if isinstance(value, str):
        return ('str', str.__str__(value))
    if isinstance(value, (list, tuple)):
        return ('list', tuple(_plain_key(item) for item in value))
    if isinstance(value, dict):
        return ('map', tuple(sorted((_plain_key(name), _plain_key(item)) for name, item in value.items())))
    raise TypeError(kind)


_TEMPLATE_MARKS = ('{{', '{%', '{#')
"""Jinja's default start strings, which Ansible never changes for variables (compat.not_templates)."""


def _may_be_template(text):
    """Whether the templar could render a string: a start string in it, or a ``#jinja2:`` header (2.16's
    ``is_possibly_template``); any other string it gives back as it is."""
    return text.startswith('#jinja2:') or any(mark in text for mark in _TEMPLATE_MARKS)


_ENVIRONMENT_NAMES = []


def _environment_names(plugin):
    if not _ENVIRONMENT_NAMES:
        definitions = plugin.option_definitions or {}
        _ENVIRONMENT_NAMES.append(tuple(sorted({entry['name'] for option in definitions.values()
                                                for entry in option.get('env') or () if 'name' in entry})))
    return _ENVIRONMENT_NAMES[0]


def _say_undefined(host, undefined, position, effect):
    """-v: each level naming a variable this host does not have."""
    for line in skipped_for_host(host, undefined, position, effect):
        display.v('strata.hier.hier %s' % line)


class _TemplatedMap(Mapping):
    """A map of host variables whose items are templated when read (only those a level names)."""

    def __init__(self, mapping, lookup):
        self._mapping = mapping
        self._lookup = lookup

    def __getitem__(self, key):
        return self._lookup._templated(self._mapping[key], key)

    def __iter__(self):
        return iter(self._mapping)

    def __len__(self):
        return len(self._mapping)


class _LookupError(CompleteMessage, AnsibleLookupError):
    """The lookup's error: its message says everything."""


class _Sealed(object):
    """A vault value as JMESPath sees it: selectable, equal to nothing else, never decrypted (not even in an error
    message, which shows the repr of a value)."""

    __slots__ = ('value',)

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return '<vault value>'


def _seal(value):
    """Builtin types for JMESPath (it checks exact types), vault values sealed."""
    return _Sealed(value) if is_opaque(value) else plain_scalar(value)


def _unseal(value):
    return value.value if isinstance(value, _Sealed) else value
