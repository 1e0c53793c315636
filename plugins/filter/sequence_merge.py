# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

DOCUMENTATION = r"""
name: sequence_merge
short_description: Aggregate a sequence over scopes as ACM's sequence aggregation does
version_added: 1.0.0
author: strata.hier contributors
description:
  - Merges the values one sequence has in several scopes (ACM's inheritance scopes, for example the defaults,
    the server group and the server), with the sequence modes and kinds of ACM's Configuration Markup Language.
  - The input and later arguments are the scopes, least specific first, following the convention of
    P(ansible.builtin.combine#filter) for filters.
  - 'V([group, server] | strata.hier.sequence_merge) equals V(group | strata.hier.sequence_merge(server\)).'
  - A scope is the sequence itself (a list), a map holding sequences (a namespace; maps merge key by key and
    the most specific scalar wins) or null (the scope holds no value).
  - Sequences nested in the elements merge in the same mode and kind.
  - The filter translates its options into a strategy of the collection's merge core. See the collection's
    C(docs/sequence-aggregation.md) for the mapping and every place where the filter departs from ACM.
  - The inputs are never modified; the result shares no map or list with them.
positional: _input, _scopes
options:
  _input:
    description:
      - The least specific scope.
      - When no positional argument follows, a list of scopes, least specific first.
    type: raw
    required: true
  _scopes:
    description: More specific scopes, least specific first.
    type: raw
  mode:
    description:
      - V(replace) (CML's C(sequence-replace)) takes the sequence of the most specific scope that has one, whole.
      - V(append) (C(sequence-append), ACM's default) lists the elements of more specific scopes first;
        those of more general scopes are appended after them.
      - V(prepend) (C(sequence-prepend)) lists the elements of more general scopes first.
      - CML's tag names (V(sequence-append)) are accepted too.
    type: str
    default: append
    choices: [replace, append, prepend]
  kind:
    description:
      - V(list) keeps every element, duplicates too.
      - V(set) merges duplicates, each at the place of its occurrence in the most specific scope holding it.
        Scalars are duplicates when they are equal; maps when their O(primary_key) values are equal or,
        without a primary key, when their scalar values are equal (for a map without scalar values, the values
        of its first sequence), as ACM's note on sets without primary keys describes. Duplicate maps merge
        key by key, the most specific scalar winning.
    type: str
    default: list
    choices: [list, set]
  primary_key:
    description:
      - The element (or list of elements) of a map in the sequence that identifies it, CML's C(primary-key)
        option (V(ip) or V(.ip)). Maps with the same primary key merge, in both kinds; maps without it are
        kept as they are.
    type: raw
notes:
  - Null means the scope holds no value, as everywhere in strata.hier. Nothing is a knockout marker.
  - When scopes hold different types at the same place, the most specific value wins and a warning is shown.
seealso:
  - plugin: strata.hier.deep_merge
    plugin_type: filter
"""

EXAMPLES = r"""
- name: The hosts of a server, its group's hosts appended, entries with the same ip merged
  ansible.builtin.debug:
    msg: "{{ [group_hosts, server_hosts] | strata.hier.sequence_merge(mode='append', kind='set', primary_key='ip') }}"
  vars:
    group_hosts:
      - {ip: 127.0.0.1, hostnames: [localhost, mymachine]}
      - {ip: 10.10.10.10, hostnames: [loghost]}
    server_hosts:
      - {ip: 127.0.0.1, hostnames: [localhost, mymachine.mydomain.net]}
      - {ip: 10.10.10.100, hostnames: [mailserver]}
  # => [{ip: 127.0.0.1, hostnames: [localhost, mymachine.mydomain.net, mymachine]},
  #     {ip: 10.10.10.100, hostnames: [mailserver]},
  #     {ip: 10.10.10.10, hostnames: [loghost]}]

- name: General scopes first, duplicates removed
  ansible.builtin.debug:
    msg: "{{ ['c', 'd', 'a'] | strata.hier.sequence_merge(['a', 'b'], mode='prepend', kind='set') }}"
  # => [c, d, a, b]
"""

RETURN = r"""
_value:
  description:
    - The aggregated sequence (or namespace, when the scopes are maps).
  type: raw
"""

# Before the helpers: they load with Python's bytecode cache (plugin_utils/bytecode.py).
from ansible_collections.strata.hier.plugins.plugin_utils import bytecode  # noqa: F401  # pylint: disable=unused-import
from ansible_collections.strata.hier.plugins.module_utils.dialects.sequence import merge_scopes
from ansible_collections.strata.hier.plugins.plugin_utils.filters import call_core, layers_from


def sequence_merge(value, *others, mode='append', kind='list', primary_key=None):
    """ACM sequence aggregation over scopes, least specific first."""
    scopes = layers_from('sequence_merge', value, others, 'scopes')
    return call_core('sequence_merge', merge_scopes, scopes, mode, kind, primary_key).value


class FilterModule(object):
    """ACM sequence aggregation."""

    def filters(self):
        return {'sequence_merge': sequence_merge}
