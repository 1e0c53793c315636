# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

DOCUMENTATION = r"""
name: to_vaulted_yaml
short_description: Data as YAML, with vault values kept encrypted as C(!vault) blocks
version_added: 1.0.0
author: Strata maintainers (@strata-hier)
description:
  - Renders data as block-style YAML, like P(ansible.builtin.to_nice_yaml#filter), for files that are reviewed and
    diffed, such as the files of the C(strata.hier.rsop) role.
  - A vault-encrypted value (an inline C(!vault) value of a YAML file, or the result of
    P(ansible.builtin.vault#filter)) is written as a C(!vault |) block holding its original ciphertext. It is never
    decrypted, so the filter needs no vault password and its output is the same on every run. This holds on every
    supported ansible-core, whereas P(ansible.builtin.to_nice_yaml#filter) decrypts vault values from ansible-core
    2.21 on unless given C(vault_behavior=keep_encrypted), an option earlier releases do not accept.
  - Maps are sorted by key (keys of mixed types by type name, then text), strings holding a line break are written
    as literal blocks (C(|)) where YAML allows it, and no anchors or aliases are used, so that a change to one value
    changes only its own lines.
  - The output is the same whether or not the C(libyaml) C bindings are installed.
positional: _input
options:
  _input:
    description: The data, built of maps, lists, strings, numbers, booleans, nulls, dates and vault values.
    type: raw
    required: true
  keys:
    description:
      - With a map as input, write only these keys; keys the map does not have are left out.
      - Only the listed values are read, so V(hostvars[inventory_hostname] | strata.hier.to_vaulted_yaml(keys=[...]\))
        writes a few variables of a host without templating its others.
    type: list
    elements: str
  withhold:
    description:
      - >-
        With a map as input, write the values of these keys as the text
        V(WITHHELD: data of a whole-file vaulted file) instead of their data.
      - For values that were secret in their file but are plain data once loaded, such as the keys of the host
        variable C(hier_vaulted_keys) that the P(strata.hier.hier#inventory) inventory plugin sets.
    type: list
    elements: str
  defaults:
    description:
      - With O(keys), values for the listed keys that the input map does not have (such as the P(strata.hier.hier#lookup)
        lookup's values for a host whose inventory does not carry them).
    type: dict
    version_added: 1.1.0
  provenance:
    description:
      - >-
        Provenance records, path -> record, as the host variable C(hier_provenance) or the
        P(strata.hier.hier#lookup) lookup's O(strata.hier.hier#lookup:provenance) give them. Each written value
        that has a record gets a trailing comment C(# file:line) (a map key and a list item on their line, a
        block scalar on its C(|) line), and below it one comment line per value it shadowed
        (C(# shadows "1.0 3" at data/common.yml:4)) and per value a knockout removed
        (C(# removed chrony ... by the marker at data/nodes/db01.yml:3)).
      - A value without a record is marked C(# no provenance) in parentheses; a scalar that differs from its record's
        value (set outside the hierarchy, such as by a C(host_vars) file) says so and shows the hierarchy's value.
      - Keys some of whose records come from a whole-file vaulted file (C(withheld)) are withheld as O(withhold)
        does, and their comments name files and lines, never values. Vault values show as C(!vault).
      - Without it, no comment is written and the output is as before.
    type: dict
    version_added: 1.1.0
  indent:
    description: Spaces per nesting level of maps. List items are not indented under their key, as in
      P(ansible.builtin.to_nice_yaml#filter).
    type: int
    default: 2
  sort_keys:
    description: Sort the keys of maps. With V(false), maps keep their order.
    type: bool
    default: true
notes:
  - A value stays encrypted only while it is a vault value. The data of a whole-file vaulted file is decrypted when
    Ansible loads the file and is plain data afterwards; list its keys in O(withhold). Anything computed from a
    vault value, such as V(password | upper), is plain data too.
  - A value of another type (an object, an undefined variable) is an error naming its key path.
  - Data nesting deeper than 64 levels or holding itself (YAML anchors can build both), or holding more than a
    200,000 values once its aliases are written out in full (the output has no aliases), is an error naming the key
    path, as in every filter of the collection.
seealso:
  - plugin: ansible.builtin.to_nice_yaml
    plugin_type: filter
"""

EXAMPLES = r"""
- name: Write two variables of a host for review, the password still encrypted
  ansible.builtin.copy:
    content: "{{ hostvars[inventory_hostname] | strata.hier.to_vaulted_yaml(keys=['AdminPassword', 'Timezone']) }}"
    dest: "/tmp/{{ inventory_hostname }}.yml"
    mode: "0644"
  delegate_to: localhost
# AdminPassword: !vault |
#   $ANSIBLE_VAULT;1.1;AES256
#   6461653330396430...
# Timezone: GMT Standard Time

- name: Each value with the file and line it comes from (the inventory source has provenance=true)
  ansible.builtin.copy:
    content: "{{ hostvars[inventory_hostname] | strata.hier.to_vaulted_yaml(keys=['ntp'], provenance=hier_provenance) }}"
    dest: "/tmp/{{ inventory_hostname }}.yml"
    mode: "0644"
  delegate_to: localhost
# ntp:  # data/roles/db.yml:2
#   makestep: 0.1 -1  # data/roles/db.yml:3
#   # shadows "1.0 3" at data/common.yml:4
#   servers:  # data/common.yml:3
#   - 0.pool.ntp.org  # data/common.yml:3
#   - 1.pool.ntp.org  # data/common.yml:3

- name: Four spaces per level, keys in their order
  ansible.builtin.debug:
    msg: "{{ {'b': 1, 'a': {'y': secret, 'x': 2}} | strata.hier.to_vaulted_yaml(indent=4, sort_keys=false) }}"
"""

RETURN = r"""
_value:
  description: The YAML document, ending with a line break.
  type: string
"""

import datetime
from collections.abc import Mapping, Set

import yaml
from jinja2 import Undefined

from ansible.errors import AnsibleFilterError
from ansible.module_utils.common.text.converters import to_text

# Before the helpers: they load with Python's bytecode cache (plugin_utils/bytecode.py).
from ansible_collections.strata.hier.plugins.plugin_utils import bytecode  # noqa: F401  # pylint: disable=unused-import
from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeError
from ansible_collections.strata.hier.plugins.plugin_utils.compat import (
    accept_args_markers, accept_lazy_markers, vault_ciphertext,
)
from ansible_collections.strata.hier.plugins.plugin_utils.provenance_text import Annotation, plain_records, withheld_keys
from ansible_collections.strata.hier.plugins.plugin_utils.walk import expanded_size


WITHHELD = 'WITHHELD: data of a whole-file vaulted file'


class _Vaulted(object):
    """A vault value's ciphertext, to be written as a !vault scalar."""

    __slots__ = ('ciphertext',)

    def __init__(self, ciphertext):
        self.ciphertext = ciphertext


class _Dumper(yaml.SafeDumper):
    """PyYAML's pure-Python safe dumper (the same output with or without libyaml), without aliases."""

    def ignore_aliases(self, data):
        return True


def _represent_vaulted(dumper, value):
    return dumper.represent_scalar('!vault', value.ciphertext, style='|')


def _represent_str(dumper, value):
    if '\n' in value:  # the emitter falls back to a quoted style where a literal block cannot hold the text
        return dumper.represent_scalar('tag:yaml.org,2002:str', value, style='|')
    return dumper.represent_str(value)


_Dumper.add_representer(_Vaulted, _represent_vaulted)
_Dumper.add_representer(str, _represent_str)


def _sorted_keys(keys):
    try:
        return sorted(keys)
    except TypeError:  # keys of mixed types
        return sorted(keys, key=lambda key: (type(key).__name__, str(key)))


def _exact(kind, value):
    """The value as the builtin type itself (str() of 2.16's unsafe text returns the unsafe text)."""
    return {str: str.__str__, int: int.__int__, float: float.__float__}[kind](value)


def _describe(path):
    return '/'.join(str(part) for part in path) or 'the input'


def _native(value, path, sort_keys):
    """Builtin types only (tags and wrappers dropped), vault values as _Vaulted, never decrypted."""
    ciphertext = vault_ciphertext(value)
    if ciphertext is not None:  # first: str() would decrypt
        # an eyaml value (a host variable encrypted for the run) is written as its data file has it
        return str(ciphertext) if ciphertext.startswith('ENC[') else _Vaulted(to_text(ciphertext))
    if value is None or isinstance(value, bool):
        return value
    for kind in (str, int, float):
        if isinstance(value, kind):
            return _exact(kind, value)
    if isinstance(value, (Mapping, list, tuple, Set)):
        return _native_container(value, path, sort_keys)
    return _native_other(value, path)


def _native_container(value, path, sort_keys):
    if isinstance(value, Mapping):
        keys = [_native_key(key, path) for key in value]
        items = dict(zip(keys, value.values()))
        order = _sorted_keys(items) if sort_keys else items
        return {key: _native(items[key], path + [key], sort_keys) for key in order}
    items = value if isinstance(value, (list, tuple)) else _sorted_keys(value)
    return [_native(item, path + [index], sort_keys) for index, item in enumerate(items)]


def _native_other(value, path):
    """An undefined value's own error, dates as dates, anything else refused."""
    if isinstance(value, Undefined):  # an undefined variable (from 2.19, any template error): its own message
        value._fail_with_undefined_error()
    if isinstance(value, datetime.datetime):
        return datetime.datetime.fromisoformat(value.isoformat())
    if isinstance(value, datetime.date):
        return datetime.date(value.year, value.month, value.day)
    raise AnsibleFilterError('to_vaulted_yaml: %s: cannot write a value of type %s as YAML'
                             % (_describe(path), type(value).__name__))


def _native_key(key, path):
    if vault_ciphertext(key) is not None:
        raise AnsibleFilterError('to_vaulted_yaml: %s: a vault value cannot be a key' % _describe(path))
    if key is None or isinstance(key, bool):
        return key
    for kind in (str, int, float):
        if isinstance(key, kind):
            return _exact(kind, key)
    raise AnsibleFilterError('to_vaulted_yaml: %s: cannot write a key of type %s as YAML'
                             % (_describe(path), type(key).__name__))


@accept_args_markers
@accept_lazy_markers
def to_vaulted_yaml(data, keys=None, indent=2, sort_keys=True, withhold=None, provenance=None, defaults=None):
    """Block-style YAML of data, vault values as !vault blocks with their ciphertext."""
    if isinstance(indent, bool) or not isinstance(indent, int) or not 2 <= indent <= 9:
        raise AnsibleFilterError('to_vaulted_yaml: indent must be an integer from 2 to 9, not %r' % (indent,))
    if keys is not None:
        data = _picked(data, _key_list(data, keys, 'keys'), _map_option(defaults, 'defaults'))
    elif defaults is not None:
        raise AnsibleFilterError('to_vaulted_yaml: defaults needs keys')
    records = plain_records(_map_option(provenance, 'provenance'), vault_ciphertext) if provenance is not None else None
    withheld = set(_key_list(data, withhold, 'withhold')) if withhold else set()
    if records is not None:
        _key_list(data, [], 'provenance')    # a map as input
        withheld.update(withheld_keys(records, list(data)))
    if withheld:
        data = dict((key, WITHHELD if key in withheld else value) for key, value in data.items())
    try:
        expanded_size(data)     # what is written out in full: bounded, and nothing refers to itself
    except MergeError as exc:
        raise AnsibleFilterError('to_vaulted_yaml: %s' % exc) from exc
    native = _native(data, [], sort_keys)
    text = yaml.dump(native, Dumper=_Dumper, default_flow_style=False, allow_unicode=True, sort_keys=False,
                     indent=indent)
    if records is None:
        return text
    return Annotation(records, vault_ciphertext, _same, withheld).annotate(text, native)


def _picked(data, keys, defaults):
    """The listed keys of the input, those it lacks from defaults."""
    picked = {}
    for key in keys:
        if key in data:
            picked[key] = data[key]
        elif defaults and key in defaults:
            picked[key] = defaults[key]
    return picked


def _map_option(value, option):
    if value is not None and not isinstance(value, Mapping):
        raise AnsibleFilterError('to_vaulted_yaml: %s must be a map, not %s' % (option, type(value).__name__))
    return value


def _same(recorded, written):
    """Whether a written scalar (as _native gives it) is the value its record names; vault values by ciphertext."""
    recorded = _native(recorded, [], False)
    if isinstance(recorded, _Vaulted) or isinstance(written, _Vaulted):
        return isinstance(recorded, _Vaulted) and isinstance(written, _Vaulted) \
            and recorded.ciphertext.strip() == written.ciphertext.strip()
    return type(recorded) is type(written) and recorded == written


def _key_list(data, keys, option):
    if not isinstance(data, Mapping):
        raise AnsibleFilterError('to_vaulted_yaml: %s needs a map as input, not %s' % (option, type(data).__name__))
    if isinstance(keys, (str, Mapping)) or not all(isinstance(key, str) for key in keys):
        raise AnsibleFilterError('to_vaulted_yaml: %s must be a list of strings, not %r' % (option, keys))
    return keys


class FilterModule(object):
    """YAML with vault values kept encrypted."""

    def filters(self):
        return {'to_vaulted_yaml': to_vaulted_yaml}
