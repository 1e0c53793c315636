# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

DOCUMENTATION = r"""
name: hier
short_description: Every node of a hierarchy as a host, its merged data as host variables
version_added: 1.0.0
author: Strata maintainers (@strata-hier)
description:
  - Reads a hierarchy configuration (strata's C(hier.yml) or Datum's C(Datum.yml)) and makes a host of every node
    file matched by its C(nodes) glob (C(AllNodes/*/*) for a C(Datum.yml)).
  - A Puppet C(hiera.yaml) (version 5) works too - a host per file of O(nodes), its facts from O(facts) and
    O(facts_dir), its variables every key of its data as the P(strata.hier.hier#lookup) lookup answers it
    (see the collection's C(docs/hiera.md)).
  - A host's variables are its resultant set of data, every top-level key found on any of its levels merged by the
    configured rules, exactly what the P(strata.hier.hier#lookup) lookup returns for that key and host.
  - Levels are interpolated with the node file's data and C(inventory_hostname).
  - Every node is checked against the configuration's C(constraints) (C(Constraints) in a C(Datum.yml)) - the
    violations of severity C(error) of all nodes fail the source in one error naming each one's data lines and
    constraint line; those of severity C(warn) are warnings (see the collection's C(docs/constraints.md)).
  - The host name is the node's C(NodeName), else its C(Name), else the file's stem. It must be 1 to 253 ASCII
    letters, digits, C(_), C(.) or C(-), start with a letter, digit or C(_) but not C(__), and not be C(all) or
    C(ungrouped), so that Ansible never reads it as a template, a host pattern, a path or a type marker of its JSON
    (C(__ansible_vault)), on any ansible-core version.
  - A node without such a name, whose name another node has too, or whose variables expand a level to a path the
    hierarchy refuses (leaving the data folder, a map, a vault value) is skipped with a warning naming its file and
    the rule, and the other nodes load; with O(strict=true) it is an error that fails the source. A data file that
    cannot be read fails the source, naming the file.
  - O(compose), O(groups) and O(keyed_groups) see the host's variables as in P(ansible.builtin.constructed#inventory),
    with C(inventory_hostname) and C(group_names); templates held in the data are never rendered.
  - Top-level keys that are not valid variable names (for example C(my-key)) do not become host variables;
    a warning names them and their file, and the lookup still reads them.
  - Nor do top-level keys naming a variable Ansible or this collection reserves (C(ansible_*) such as
    C(ansible_ssh_common_args) or C(ansible_connection), magic variables, C(inventory_*), C(hier_*), ...), unless
    O(allow_reserved_keys) names them; see there.
  - >-
    Source files must end in C(.hier.yml) or C(.hier.yaml). A C(.yml) or C(.yaml) file of another name that says
    C(plugin: strata.hier.hier) gets a warning naming it and this rule (ansible-core alone only says it "could not
    be verified").
  - An option this plugin does not define is an error naming the valid ones (with the closest name), and a boolean
    option (O(provenance), O(strict), O(cache), ...) that is none of V(true)/V(false), V(yes)/V(no), V(on)/V(off),
    V(1)/V(0) is an error naming the source's file and line (ansible-core alone would read it as false).
  - A host whose merged values take data from a whole-file vaulted file (C(ansible-vault encrypt) of a data file)
    gets the host variable C(hier_vaulted_keys), the list of those top-level keys. The values themselves are
    decrypted when the file loads, and whoever writes them out (such as the role C(strata.hier.rsop)) must
    keep them secret. For a C(hiera.yaml), the list holds the keys such a file holds and, once such a file has
    been read, every key whose value interpolates (C(%{lookup(...)}) may copy its data).
  - hiera-eyaml values (an eyaml level of a C(hiera.yaml), a C(hier.yml) with C(secrets.eyaml)) are decrypted once
    and held as Ansible vault values encrypted in memory for the run (vault id C(strata_hier_eyaml)); a task uses
    them as C(!vault) values, and the role C(strata.hier.rsop) and the cache write their C(ENC[...]) text. The host
    variable C(hier_encrypted_keys) lists the keys holding one. Without the private key, a warning names each
    value's file and line, and a task using the value fails (docs/hiera.md, eyaml).
extends_documentation_fragment:
  - constructed
  - inventory_cache
  - strata.hier.reserved_keys
options:
  plugin:
    description: The name of this plugin.
    required: true
    type: str
    choices: [strata.hier.hier]
  config:
    description:
      - The hierarchy configuration, C(hier.yml), C(Datum.yml) or a Puppet C(hiera.yaml); a relative path is relative to the folder of this
        source file, C(~) is expanded.
    required: true
    type: str
  nodes:
    description:
      - For a Puppet C(hiera.yaml) as O(config) only, required there - a glob of node files relative to the
        C(hiera.yaml)'s folder, such as V(data/nodes/*.yaml); each file's stem is a host name (Puppet names them by
        certname, C(trusted.certname) is the host name). A glob that matches no file gives a warning.
      - A C(hier.yml) or C(Datum.yml) has its own C(nodes) glob; this option is then not used, and a warning says so
        (as it does when that glob matches no file).
    type: str
  facts_dir:
    description:
      - For a C(hiera.yaml) - a folder of facts files C(<host>.yaml), C(.yml) or C(.json) (Puppet's fact cache, whose
        facts sit under C(values), or C(puppet facts show) output); a host's file gives its Hiera facts. Relative
        to this source's folder.
    type: str
  facts:
    description:
      - For a C(hiera.yaml) - facts every host has (a host's facts file wins).
    type: dict
    default: {}
  namespace_separator:
    description:
      - For a C(hiera.yaml) - what C(::) in a data key becomes in the host variable's name
        (C(profile::ntp::servers) is C(profile__ntp__servers)); the lookup reads the key as written.
    type: str
    default: __
  strict_levels:
    description:
      - A level variable a node does not have is an error that fails the source, naming the host, the level and its
        line in the configuration, where the level would be skipped (C(hier.yml), C(Datum.yml)) or its path read
        with the variable empty (a C(hiera.yaml), as Puppet reads it).
      - The same as the key C(strict_levels) set to V(true) in a C(hier.yml), or C(StrictLevels) in a C(Datum.yml); a
        Puppet C(hiera.yaml) has no such key, so for it this option is the only way.
      - Without it, a level that undefined variables leave without data for every node of the source is a warning
        naming the level, the variables and the configuration file and line (almost surely a misspelt variable,
        such as C(roles/%{Rol})); a level left without data for some nodes only is normal and not reported.
    type: bool
    default: false
  provenance:
    description:
      - Add the host variable C(hier_sources), mapping each top-level key to the levels and files that supplied it,
        most specific first; a whole-file vaulted file is marked C(vaulted=true).
      - And the host variable C(hier_provenance), mapping each path of every value (the key, each map key and list
        item below it, such as V(packages/0)) to its C(file), C(line), C(column), C(level), C(level_path), C(rule),
        C(rule_at), C(shadowed) and C(removed), as the P(strata.hier.hier#lookup) lookup's O(provenance) gives them.
    type: bool
    default: false
notes:
  - >-
    When this plugin cannot build a source (a data file that cannot be parsed, such as a truncated one, a wrong
    configuration, a node refused with O(strict=true)), ansible-core by default only warns and leaves the whole source
    out: a play then runs on no host of it and succeeds. Set C(any_unparsed_is_failed = true) in the C([inventory])
    section of C(ansible.cfg) (or E(ANSIBLE_INVENTORY_ANY_UNPARSED_IS_FAILED)) to make such a source fail the run;
    C(unparsed_is_failed = true) (E(ANSIBLE_INVENTORY_UNPARSED_IS_FAILED)) fails it only when no source at all could
    be parsed. The error ends with this hint.
  - With O(cache=true), the merged inventory is stored by Ansible's cache plugin (C(ansible.builtin.jsonfile), or a
    shared one such as C(community.general.redis)) together with a fingerprint of every file of the data folder,
    the configuration and this source; a change to any of them makes the next run merge again.
  - The data of whole-file vaulted files is plain once loaded, so an inventory holding some is not cached (a
    warning says so); keep secrets in inline C(!vault) values to use the cache.
  - Vault-encrypted values are cached as their ciphertext (never decrypted to be cached, so no vault password is
    needed to write or read the cache) and decrypt when used, on every supported ansible-core
    (ansible-core 2.19 and later would otherwise read them back as the text of their ciphertext,
    U(https://github.com/ansible/ansible/issues/86369)).
  - A cache entry that cannot be read or does not have the shape this plugin writes, and a cache that cannot be
    opened or written, cost a warning; the inventory is then built from the data, as without the cache.
  - Controllers share a cache entry when they name this source by the same absolute path, run the same ansible-core
    minor release, and see the data files with the same modification times and sizes.
  - >-
    Strings from data files are untrusted: Ansible never renders them as templates (C({{ }}) in the data stays text),
    on every ansible-core version. From ansible-core 2.19 on, C(ansible-inventory --list) therefore writes each
    string host variable of this plugin as C({"__ansible_unsafe": "text"}), the JSON form of untrusted text in
    C(_meta.profile) C(inventory_legacy), where a static YAML inventory (trusted) writes C("text"). Playbooks, C(--host),
    C(--yaml) and C(--graph --vars) show plain strings.
  - >-
    A consumer of C(ansible-inventory --list) JSON reads C({"__ansible_unsafe": "text"}) as the string C(text) and
    must not render it as a template; Ansible reads such output back (a script inventory) as untrusted text by
    itself. With C(jq): C(jq 'walk(if type == "object" and has("__ansible_unsafe") then .__ansible_unsafe else . end)').
    There is no option to trust the data: a template in a data file would then run on the controller with the
    playbook's rights. Vault values are written as C({"__ansible_vault": "ciphertext"}).
seealso:
  - plugin: strata.hier.hier
    plugin_type: lookup
"""

EXAMPLES = r"""
# nodes.hier.yml
plugin: strata.hier.hier
config: hier.yml
provenance: true
keyed_groups:
  - key: Role
    prefix: role
  - key: Environment
    prefix: env
groups:
  webservers: Role == 'WebServer'
compose:
  ansible_host: NetworkConfig.IpAddress

# The same, computed once and shared by several controllers through Redis:
# cache: true
# cache_plugin: community.general.redis
# cache_connection: localhost:6379:0
"""

import os
import re
from collections.abc import Mapping

from ansible import constants as C
from ansible.errors import AnsibleError, AnsibleParserError
from ansible.module_utils.common.text.converters import to_native
from ansible.plugins.inventory import BaseInventoryPlugin, Cacheable, Constructable

# Before the helpers: they load with Python's bytecode cache (plugin_utils/bytecode.py).
from ansible_collections.strata.hier.plugins.plugin_utils import bytecode
from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeError
from ansible_collections.strata.hier.plugins.plugin_utils.cache_form import for_cache, from_cache
from ansible_collections.strata.hier.plugins.plugin_utils.compat import (
    LOADER_NO_CACHE, CompleteMessage, not_templates,
)
from ansible_collections.strata.hier.plugins.plugin_utils.config import ConfigError
from ansible_collections.strata.hier.plugins.plugin_utils.config_path import (
    hierarchy_config_path, resolve_option_path,
)
from ansible_collections.strata.hier.plugins.plugin_utils.eyaml import for_host_vars
from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy import HierarchyError
from ansible_collections.strata.hier.plugins.plugin_utils.host_vars import (
    OWN_VARIABLES, allowed_names, variable_problem,
)
from ansible_collections.strata.hier.plugins.plugin_utils.nodes import name_problem
from ansible_collections.strata.hier.plugins.plugin_utils.option_definitions import (
    option_problems, unknown_options_text,
)
from ansible_collections.strata.hier.plugins.plugin_utils.source import NodeOptions, open_source
from ansible_collections.strata.hier.plugins.plugin_utils.source_lines import key_position
from ansible_collections.strata.hier.plugins.plugin_utils.undefined_levels import (
    UndefinedLevelError, UndefinedLevels,
)
from ansible_collections.strata.hier.plugins.plugin_utils.walk import expanded_size

# 3: builtin types, vault values as marked ciphertext, data like the markers escaped (compat); 4: and the warnings
# about levels no node fills (an entry of 3 would keep them silent); 6: eyaml values as marked ciphertext
CACHE_FORMAT = 6

SOURCE_SUFFIXES = ('.hier.yml', '.hier.yaml')
NAMING_READ_LIMIT = 65536
"""Most bytes verify_file reads of a YAML file not named as a source, looking for ``plugin: strata.hier.hier``
(Ansible asks every enabled inventory plugin about every source file)."""
_NAMES_THIS_PLUGIN = re.compile(br'^plugin:[ \t]*([\'"]?)strata\.hier\.hier\1[ \t]*(#.*)?\r?$', re.MULTILINE)

UNPARSED_HINT = ('the whole source is left out of the inventory; ansible.cfg [inventory] any_unparsed_is_failed = true '
                 'makes this fail the run')


class InventoryModule(BaseInventoryPlugin, Constructable, Cacheable):

    NAME = 'strata.hier.hier'

    def verify_file(self, path):
        if not super(InventoryModule, self).verify_file(path):
            return False
        if path.endswith(SOURCE_SUFFIXES):
            return True
        if _names_this_plugin(path):
            # ansible-core alone only says the source "could not be verified"
            renamed = re.sub(r'(\.hier)?\.ya?ml$', '', os.path.basename(path), flags=re.IGNORECASE) + '.hier.yml'
            self.display.warning('strata.hier.hier: %s says plugin: strata.hier.hier, but this plugin reads only sources '
                                 'whose file name ends in %s: rename it (such as %s)'
                                 % (path, ' or '.join(SOURCE_SUFFIXES), renamed))
        return False

    def parse(self, inventory, loader, path, cache=True):
        super(InventoryModule, self).parse(inventory, loader, path, cache)
        bytecode.warn_uncached(self.display.warning)     # once per run: the helpers compiled in every worker
        try:
            self._parse(loader, path, cache)
        except (AnsibleError, MergeError) as exc:
            if C.INVENTORY_ANY_UNPARSED_IS_FAILED:
                raise
            # ansible-core only warns by default and the play runs without this source's hosts: say how to fail
            raise _SourceError('%s (%s)' % (to_native(exc).rstrip('.'), UNPARSED_HINT)) from exc

    def _parse(self, loader, path, cache):
        self._read_source(path)
        try:
            self._allowed = allowed_names(self.get_option('allow_reserved_keys'))
        except ConfigError as exc:
            raise AnsibleParserError('strata.hier.hier: %s: %s' % (path, to_native(exc))) from exc
        config = hierarchy_config_path(self, os.path.dirname(os.path.abspath(path)))
        source = open_source(config, loader)
        for warning in source.take_warnings():     # the configuration's, once per process
            self.display.warning('strata.hier.hier: %s' % warning)
        options = self._node_options(path)
        use_cache = self.get_option('cache') and self._cache_usable
        fingerprint = source.fingerprint([config, path] + ([options.facts_dir] if options.facts_dir else [])) \
            if use_cache else None
        hosts = self._read_cache(path, fingerprint) if use_cache and cache else None
        if hosts is None:
            try:
                hosts, self._level_warnings = self._merge_nodes(source, options)
            except MergeError as exc:   # the core's own errors (Hiera's) name no source
                raise AnsibleParserError('strata.hier.hier: %s: %s' % (path, to_native(exc))) from exc
            if use_cache and not self._holds_decrypted_data(hosts, path):
                self._write_cache(path, {'format': CACHE_FORMAT, 'fingerprint': fingerprint, 'hosts': hosts,
                                         'levels': self._level_warnings})
        for warning in self._level_warnings:     # from the cache too: the data it was built from still says so
            self.display.warning('strata.hier.hier: %s' % warning)
        self._populate(hosts)

    def _node_options(self, path):
        folder = os.path.dirname(os.path.abspath(path))
        return NodeOptions(path, nodes=self.get_option('nodes'), facts=self.get_option('facts'),
                           facts_dir=resolve_option_path(self, 'facts_dir', folder),
                           separator=self.get_option('namespace_separator'),
                           strict_levels=self.get_option('strict_levels') or None)

    def _read_source(self, path):
        """The source's options; a cache plugin that cannot start (a folder it cannot create) leaves the cache off."""
        self._cache_usable = True
        self._source_path = path        # for set_options, which _read_config_data calls with the source's options
        before = getattr(self, '_cache', None)
        try:
            return self._read_config_data(path)
        except AnsibleError as exc:
            # the options were read and the cache plugin failed to start (it is the last step)
            if not self._options or not self.get_option('cache') or getattr(self, '_cache', None) is not before:
                raise
            self._cache_trouble(path, 'cannot be opened', exc)
            self._cache_usable = False
            return self.loader.load_from_file(path, cache=LOADER_NO_CACHE)

    def set_options(self, task_keys=None, var_options=None, direct=None):
        # the source's options, checked before Ansible reads them (it would fail on provenance: [true] on 2.16)
        if direct is not None and getattr(self, '_source_path', None):
            self._check_source_options(direct, self._source_path)
        super(InventoryModule, self).set_options(task_keys=task_keys, var_options=var_options, direct=direct)

    def _read_cache(self, path, fingerprint):
        """The hosts of this source's cache entry when it is current and well formed; else None (merge again)."""
        try:
            entry = self._cache.get(self.get_cache_key(path))
            if entry is None or (isinstance(entry, Mapping) and (entry.get('format'), entry.get('fingerprint'))
                                 != (CACHE_FORMAT, fingerprint)):
                return None        # no entry, or one of another release or of other data
            hosts = from_cache(_checked_entry(entry, self._allowed), wrappers=1, loader=self.loader)  # host -> its vars
            self._level_warnings = _level_warnings(entry)
            return hosts
        except Exception as exc:  # pylint: disable=broad-except  # whatever the cache holds, the data decides
            self._cache_trouble(path, 'cannot be read', exc)
            return None

    def _write_cache(self, path, entry):
        """Store the entry now, so that a cache that cannot be written only costs a warning."""
        key = self.get_cache_key(path)
        try:
            for name, host_vars in entry['hosts'].items():
                try:
                    expanded_size(host_vars)    # the cache holds the data written out in full
                except MergeError as exc:
                    raise ValueError('host %s: %s' % (name, exc)) from exc
            self._cache[key] = dict(entry, hosts=for_cache(entry['hosts'], wrappers=1))
            # written as it is new: comparing it with what was read compares the values (before 2.19 a vault
            # value by decrypting it)
            self.set_cache_plugin()
        except Exception as exc:  # pylint: disable=broad-except  # the inventory is built; only caching failed
            self._cache.pop(key, None)
            self._cache_trouble(path, 'cannot be written', exc)

    def _cache_trouble(self, path, what, exc):
        self.display.warning('strata.hier.hier: %s: the inventory cache %s (%s); the inventory is built from the data'
                             % (path, what, to_native(exc)))

    def _holds_decrypted_data(self, hosts, source):
        """Data of whole-file vaulted files is plain once loaded: it must not reach a cache in plain text."""
        vaulted = sorted(name for name, host_vars in hosts.items() if host_vars.get('hier_vaulted_keys'))
        if vaulted:
            shown = ', '.join(vaulted[:5]) + (', ...' if len(vaulted) > 5 else '')
            self.display.warning('strata.hier.hier: %s: the inventory is not cached: the data of %d host(s) (%s) '
                                 'comes in part from whole-file vaulted files and would be stored decrypted'
                                 % (source, len(vaulted), shown))
        return bool(vaulted)

    def _check_source_options(self, source, path):
        """Ansible ignores unknown options of inventory sources and reads any text but true/yes/on/1 as false for a
        boolean (provenance: ture); a typo should not pass silently."""
        definitions = C.config.get_configuration_definitions(self.plugin_type, self._load_name)
        unknown, wrong = option_problems(source if isinstance(source, Mapping) else {}, definitions)
        if unknown:
            raise AnsibleParserError('strata.hier.hier: %s: %s' % (path, unknown_options_text(unknown, definitions)))
        if wrong:
            name, problem = wrong[0]
            raise AnsibleParserError('strata.hier.hier: %s: %s' % (key_position(path, [name]), problem))

    def _merge_nodes(self, source, options):
        """Host name -> merged variables (and provenance), for every node with a usable, unique name; and the
        warnings about the nodes found (none, an unused option) and levels that undefined variables left without data
        for every node."""
        hosts, findings, refused = {}, [], []
        levels = UndefinedLevels()
        nodes = source.nodes(options, lambda problem: refused.append(problem) or self._refuse_node(problem))
        note = source.nodes_note(options, bool(nodes or refused))     # a glob matching nothing, an unused option
        for name, (variables, label) in nodes.items():
            try:
                view = source.for_host(variables, strict=options.strict_levels)
            except UndefinedLevelError:     # strict_levels: the configuration's problem, not one node's
                raise
            except HierarchyError as exc:   # the node's own variables: a level path out of datadir, a map, a secret
                self._refuse_node('%s: %s' % (label, exc))
                continue
            levels.add(view.unfilled)
            hosts[name] = view.host_vars(self.display.warning, self.get_option('provenance'), allowed=self._allowed,
                                         findings=findings, separator=options.separator)
        warnings = levels.warnings(source.level_position, source.undefined_effect, source.strict_hint(inventory=True))
        if note:        # with the warnings the cache keeps: a cached run says it again
            warnings.insert(0, '%s: %s' % (options.source, note))
        if findings:    # every host's violations in one error; warn findings join the source's warnings (and cache)
            from ansible_collections.strata.hier.plugins.plugin_utils.constraint_check import enforce
            enforce(findings, warnings.append, HierarchyError)
        return hosts, warnings

    def _refuse_node(self, problem):
        if self.get_option('strict'):
            raise AnsibleParserError('strata.hier.hier: %s' % problem)
        self.display.warning('strata.hier.hier: %s; the node is skipped (strict: true makes this an error)' % problem)

    def _populate(self, hosts):
        strict = self.get_option('strict')
        for name, host_vars in hosts.items():
            self.inventory.add_host(name)
            for key, value in for_host_vars(host_vars, self.display.warning).items():
                self.inventory.set_variable(name, key, not_templates(value))
            # as ansible.builtin.constructed: the host's variables with inventory_hostname and group_names,
            # and data never rendered as templates (2.16 would render a '{{ }}' held in the data)
            variables = self.inventory.get_host(name).get_vars()
            self._set_composite_vars(self.get_option('compose'), variables, name, strict=strict)
            self._add_host_to_composed_groups(self.get_option('groups'), variables, name, strict=strict)
            self._add_host_to_keyed_groups(self.get_option('keyed_groups'), variables, name, strict=strict)


def _names_this_plugin(path):
    """Whether a YAML file names this plugin, read cheaply: the first bytes of .yml and .yaml files only, and
    never an error (the file may be anything: Ansible asks about every source)."""
    if not path.lower().endswith(('.yml', '.yaml')):
        return False
    try:
        with open(path, 'rb') as stream:
            head = stream.read(NAMING_READ_LIMIT)
    except (OSError, ValueError):
        return False
    return _NAMES_THIS_PLUGIN.search(head) is not None


def _checked_entry(entry, allowed):
    """The hosts of a cache entry of the current format, refused unless they have the shape this plugin writes
    (a cache is outside the data: it must not bring in host names or variables the data could not)."""
    hosts = entry.get('hosts') if isinstance(entry, Mapping) else None
    if not isinstance(hosts, Mapping):
        raise ValueError('the entry is not a map of hosts')
    for name, host_vars in hosts.items():
        if name_problem(name) or not isinstance(host_vars, Mapping):
            raise ValueError('the entry holds a host %r that this plugin cannot have written' % (name,))
        refused = [key for key in host_vars if key not in OWN_VARIABLES and variable_problem(key, None, allowed)]
        if refused:
            raise ValueError('the entry gives host %s the variable %r, which the data cannot set' % (name, refused[0]))
    return hosts


def _level_warnings(entry):
    """The warnings about levels a cache entry keeps (a list of texts; none in an entry written before them)."""
    warnings = entry.get('levels', [])
    if not isinstance(warnings, list) or not all(isinstance(warning, str) for warning in warnings):
        raise ValueError('the entry holds level warnings that are not a list of texts')
    return [str(warning) for warning in warnings]


class _SourceError(CompleteMessage, AnsibleParserError):
    """The source cannot be built; the message says everything (and how to make it fail the run)."""
