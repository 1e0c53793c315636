# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

DOCUMENTATION = r"""
name: deep_merge
short_description: Merge maps and lists layer by layer with Datum's strategies
version_added: 1.0.0
author: Strata maintainers (@strata-hier)
description:
  - Merges its input with its positional arguments, following the convention of P(ansible.builtin.combine#filter)
    for filters, that is the input is the least specific layer and each later argument is more specific.
  - "V([a, b, c] | strata.hier.deep_merge) equals V(a | strata.hier.deep_merge(b, c))."
  - Merging follows Datum's strategies, implemented once in the collection's merge core.
    See the collection's C(docs/merge-strategies.md) for every strategy and where the collection departs from Datum.
  - When the layers are maps, each of their top-level keys merges on its own, as a hierarchy lookup of
    that key would, by its own rule in O(lookup_options) or else by O(strategy); a top-level C(--key) removes
    that key from less specific layers (unless O(strategy) has no knockout prefix).
    When the layers are lists, O(strategy) applies to the lists themselves.
  - The inputs are never modified; the result shares no map or list with them.
positional: _input, _layers
options:
  _input:
    description:
      - The least specific layer, a map or a list.
      - When no positional argument follows, a list of layers, least specific first.
    type: raw
    required: true
  _layers:
    description: More specific layers, each a map or a list, least specific first.
    type: raw
  strategy:
    description:
      - The strategy used wherever O(lookup_options) has no rule.
      - A preset (V(MostSpecific) or V(First), V(hash) or V(MergeTopKeys), V(deep) or V(MergeRecursively)),
        a single sub-strategy (V(Unique), V(Sum), V(UniqueKeyValTuples), V(DeepTuple)) meaning that
        sub-strategy with the others at V(MostSpecific) and knockout on,
        or a Datum strategy map with C(merge_hash), C(merge_basetype_array), C(merge_hash_array) and
        C(merge_options) (C(knockout_prefix), C(tuple_keys)).
      - Names compare case-insensitively. An unknown name is an error listing the valid ones.
      - V(DeepTuple) and V(UniqueKeyValTuples) match the items of lists of maps on O(tuple_keys), by default
        Datum's V([Name, Version]), so two items with the same C(Name) and different C(Version) values are two
        items and both are kept. Give O(tuple_keys=[Name]) to match on the name alone.
    type: raw
    default: deep
  tuple_keys:
    description:
      - Keys that identify an item of a list of maps, for V(UniqueKeyValTuples) and V(DeepTuple).
      - Overrides the tuple keys of O(strategy). Without it, V(DeepTuple) and V(UniqueKeyValTuples) use Datum's
        default V([Name, Version]), also in a strategy map without C(tuple_keys) in its C(merge_options).
      - An item that lacks one of the keys matches only items that lack it too.
    type: list
    elements: str
  knockout_prefix:
    description:
      - Prefix that marks a key, a list item or a tuple value as a knockout, removing what less specific
        layers hold under that name. The marker itself never appears in the result.
      - Overrides the prefix of O(strategy) (V(--) for every preset but V(MostSpecific)).
        V(false), V(null) (V(none) in Jinja) or an empty string turns knockout off;
        left out, the prefix of O(strategy) applies.
    type: raw
  lookup_options:
    description:
      - Rules by key path, as Datum's C(lookup_options). Keys are paths from the root of the layers
        (V(Packages), V(SoftwareBaseline/Packages)); a key starting with C(^) is a regular expression.
      - An exact path wins over regular expressions, which are tried in the order written; O(strategy) applies
        where nothing matches.
      - Below a key merged with C(deep), a nested map without a rule inherits its parent's strategy and a nested
        list uses its own rule or O(strategy).
    type: dict
notes:
  - Datum treats null as not found, so a null value never overrides a less specific one.
  - When layers hold different types at the same path, the most specific value wins and a warning is shown.
  - Data nesting deeper than 64 levels, or referring to itself, is an error.
seealso:
  - plugin: ansible.builtin.combine
    plugin_type: filter
"""

EXAMPLES = r"""
- name: Merge package lists, matching items by Name (Datum's DeepTuple)
  ansible.builtin.debug:
    msg: "{{ role_packages | strata.hier.deep_merge(node_packages, strategy='DeepTuple', tuple_keys=['Name']) }}"
  vars:
    role_packages:
      - {Name: NotepadPlusplus, Version: '7.0', Ensure: Present}
      - {Name: Putty, Ensure: Present}
    node_packages:
      - {Name: NotepadPlusplus, Version: '8.0'}
  # => [{Name: NotepadPlusplus, Version: '8.0', Ensure: Present}, {Name: Putty, Ensure: Present}]

- name: DeepTuple without tuple_keys matches on Datum's default [Name, Version]
  ansible.builtin.debug:
    msg: "{{ role_packages | strata.hier.deep_merge(node_packages, strategy='DeepTuple') }}"
  vars:
    role_packages:
      - {Name: NotepadPlusplus, Version: '7.0', Ensure: Present}
    node_packages:
      - {Name: NotepadPlusplus, Version: '8.0'}
  # Two versions, two items; tuple_keys=['Name'] gives one item, Version '8.0':
  # => [{Name: NotepadPlusplus, Version: '8.0'}, {Name: NotepadPlusplus, Version: '7.0', Ensure: Present}]

- name: Union of features, knocking one out
  ansible.builtin.debug:
    msg: "{{ [role_features, node_features] | strata.hier.deep_merge(strategy='Unique') }}"
  vars:
    role_features: [Telnet-Client, File-Services, Web-Server]
    node_features: [--Telnet-Client]
  # => [File-Services, Web-Server]

- name: Whole documents with a rule per key
  ansible.builtin.set_fact:
    merged: >-
      {{ role_data | strata.hier.deep_merge(node_data, strategy='MostSpecific',
           lookup_options={'NetworkConfig': 'hash', '^Security/.*': 'deep'}) }}
"""

RETURN = r"""
_value:
  description:
    - The merged value, a map or a list. Most specific items come first in merged lists.
  type: raw
"""

from collections.abc import Mapping

from ansible.errors import AnsibleFilterError

# Before the helpers: they load with Python's bytecode cache (plugin_utils/bytecode.py).
from ansible_collections.strata.hier.plugins.plugin_utils import bytecode  # noqa: F401  # pylint: disable=unused-import
from ansible_collections.strata.hier.plugins.module_utils.core.merging import merge_documents, merge_layers
from ansible_collections.strata.hier.plugins.module_utils.core.rules import MergeRules
from ansible_collections.strata.hier.plugins.module_utils.core.strategy import parse_strategy, with_options
from ansible_collections.strata.hier.plugins.plugin_utils.filters import call_core, layers_from

_NOT_GIVEN = object()     # knockout_prefix=False/None/'' turns knockout off, so "not given" needs its own value


def deep_merge(value, *others, strategy='deep', tuple_keys=None, knockout_prefix=_NOT_GIVEN,
               lookup_options=None):
    """Merge layers, least specific first, with Datum's strategies."""
    layers = layers_from('deep_merge', value, others)
    _check_layers(layers)
    options = {'tuple_keys': tuple_keys}
    if knockout_prefix is not _NOT_GIVEN:
        options['knockout_prefix'] = knockout_prefix
    return call_core('deep_merge', _merge, layers, strategy, options, lookup_options).value


def _check_layers(layers):
    """Each layer a map or a list; positions counted as the user gave them, least specific first."""
    if not layers:
        raise AnsibleFilterError('deep_merge: there is nothing to merge: the list of layers is empty')
    for position, layer in enumerate(reversed(layers)):
        if not isinstance(layer, (Mapping, list, tuple)):
            raise AnsibleFilterError('deep_merge: layer %d (counting from 0, least specific first) must be a map or '
                                     'a list, not %s' % (position, type(layer).__name__))


def _merge(layers, strategy, options, lookup_options):
    """The core's merge of the layers (most specific first)."""
    default = with_options(parse_strategy(strategy, 'strategy'), where='strategy', **options)
    rules = MergeRules(default, lookup_options)
    if all(isinstance(layer, Mapping) for layer in layers):
        return merge_documents(layers, rules)
    return merge_layers(layers, rules)


class FilterModule(object):
    """Datum-style layered merging."""

    def filters(self):
        return {'deep_merge': deep_merge}
