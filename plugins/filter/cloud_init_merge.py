# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

DOCUMENTATION = r"""
name: cloud_init_merge
short_description: Merge cloud-config documents as cloud-init does, honouring their merge_how
version_added: 1.0.0
author: strata.hier contributors
description:
  - Merges cloud-config documents (the C(#cloud-config) parts of user-data) the way cloud-init merges them,
    with the mergers each document names in its C(merge_how) (or legacy C(merge_type)) key, and returns the
    merged cloud-config without those keys.
  - The input and later arguments are the documents in the order cloud-init receives them, each a map,
    following the convention of P(ansible.builtin.combine#filter) for filters.
  - 'V([one, two] | strata.hier.cloud_init_merge) equals V(one | strata.hier.cloud_init_merge(two\)).'
  - "As cloud-init really does (its documentation says otherwise), a document's own C(merge_how) decides how
    that document merges into what came before; a document naming no mergers uses O(merge_how)."
  - "Mergers: C(dict) (options C(replace), C(no_replace) (the default), C(allow_delete), C(recurse_list)
    or C(recurse_array), C(recurse_str)), C(list) (C(append), C(prepend), C(replace) (the default),
    C(no_replace), C(recurse_dict), C(recurse_list), C(recurse_array), C(recurse_str)) and C(str) (C(append))."
  - 'Strings such as V(list(append\)+dict(no_replace,recurse_list\)+str(\)) and lists such as
    V([{name: list, settings: [append]}, {name: dict, settings: [no_replace, recurse_list]}]) both work.'
  - 'As in cloud-init, mergers are chosen by the type of the existing value, and a type the spec names no merger
    for keeps its existing value: a spec without C(dict) leaves the document unmerged (with a warning).
    V(dict(no_replace\)) keeps existing values and hands maps on to the merger of the existing value''s type; lists
    and strings only with C(recurse_list) or C(recurse_str). V(list(replace\)) merges lists index by index and keeps
    the existing list''s length. V(dict(allow_delete\)) removes a key whose new value is null.'
  - 'Layers holding different types at one key give cloud-init''s result: a later map replaces an earlier string
    when the spec has a C(str) merger, V(list(append\)) with a string (handed on by C(recurse_str)) adds its characters, V(list(replace\)) takes a
    later value that is not a list, and a number, boolean or null keeps its value.'
  - See the collection's C(docs/cloud-init.md) for what is supported and every place where the filter departs from
    cloud-init.
  - The inputs are never modified; the result shares no map or list with them.
positional: _input, _documents
options:
  _input:
    description:
      - The first cloud-config document, a map.
      - When no positional argument follows, the list of documents, in the order cloud-init receives them.
        A null document (an empty part) is skipped.
    type: raw
    required: true
  _documents:
    description: Later cloud-config documents.
    type: raw
  merge_how:
    description:
      - 'The mergers of documents that name none, in the string or the list form, or in cloud-init''s dictionary
        form: a map holding C(merge_how) (or C(merge_type)), such as
        V({merge_how: [{name: list, settings: [append]}, {name: dict, settings: [no_replace, recurse_list]}]}).'
      - 'Default: cloud-init''s own for cloud-config parts, V(dict(replace\)+list(\)+str(\)): a later document''s
        top-level keys replace the earlier ones whole.'
      - A malformed spec, an unknown merger or an unknown option is an error naming it.
    type: raw
notes:
  - Where cloud-init's merge of a document raises (V(str(append\)) given a list or a map to append), cloud-init skips
    the document; the filter raises an error naming the document and the key path.
seealso:
  - plugin: strata.hier.deep_merge
    plugin_type: filter
"""

EXAMPLES = r"""
- name: Commands of two documents, appended
  ansible.builtin.debug:
    msg: "{{ [first, second] | strata.hier.cloud_init_merge }}"
  vars:
    first:
      merge_how: [{name: list, settings: [append]}, {name: dict, settings: [no_replace, recurse_list]}]
      runcmd: [bash1, bash2]
    second:
      merge_how: [{name: list, settings: [append]}, {name: dict, settings: [no_replace, recurse_list]}]
      runcmd: [bash3, bash4]
  # => {runcmd: [bash1, bash2, bash3, bash4]}

- name: The same for every document that names no mergers
  ansible.builtin.set_fact:
    user_data: "{{ documents | strata.hier.cloud_init_merge(merge_how='list(append)+dict(no_replace,recurse_list)+str()') }}"
"""

RETURN = r"""
_value:
  description:
    - The merged cloud-config, without C(merge_how) and C(merge_type).
  type: dict
"""

# Before the helpers: they load with Python's bytecode cache (plugin_utils/bytecode.py).
from ansible_collections.strata.hier.plugins.plugin_utils import bytecode  # noqa: F401  # pylint: disable=unused-import
from ansible_collections.strata.hier.plugins.module_utils.dialects.cloud_init import merge_cloud_configs
from ansible_collections.strata.hier.plugins.plugin_utils.filters import call_core, layers_from


def cloud_init_merge(value, *others, merge_how=None):
    """Merge cloud-config documents, in the order cloud-init receives them."""
    documents = layers_from('cloud_init_merge', value, others, 'documents')
    return call_core('cloud_init_merge', merge_cloud_configs, documents, merge_how).value


class FilterModule(object):
    """cloud-init's merging of cloud-config documents."""

    def filters(self):
        return {'cloud_init_merge': cloud_init_merge}
