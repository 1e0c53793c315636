# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

DOCUMENTATION = r"""
name: to_provenance_json
short_description: Provenance records as JSON for a file that is reviewed and diffed, vault values kept encrypted
version_added: 1.1.0
author: Strata maintainers (@strata-hier)
description:
  - Writes provenance records (key path -> record, as the host variable C(hier_provenance) or the
    P(strata.hier.hier#lookup) lookup's O(strata.hier.hier#lookup:provenance) give them) as JSON with sorted keys at
    every level and one value per line, so that a changed file or line changes only its own lines, as in the
    C(<host>.provenance.json) files of the C(strata.hier.rsop) role's C(rsop_provenance=sidecar).
  - 'Vault values are written as C({"__ansible_vault": "<ciphertext>"}), as Ansible''s own JSON encoder does, never
    decrypted.'
positional: _input
options:
  _input:
    description: The records, path -> record.
    type: dict
    required: true
  keys:
    description: Write only the records of these top-level keys (the key's own record and those of the paths below it).
    type: list
    elements: str
  withhold:
    description:
      - Top-level keys whose records are written without any value (C(value) of the records, of what they shadowed and
        what knockouts removed), files and lines only. For the keys of data from whole-file vaulted files
        (C(hier_vaulted_keys)).
      - Keys some of whose records are marked C(withheld) are withheld too.
    type: list
    elements: str
seealso:
  - plugin: strata.hier.to_vaulted_yaml
    plugin_type: filter
"""

EXAMPLES = r"""
- name: Where every value of the host comes from, beside its data
  ansible.builtin.copy:
    content: "{{ hier_provenance | strata.hier.to_provenance_json(withhold=hier_vaulted_keys | default([])) }}"
    dest: "/tmp/{{ inventory_hostname }}.provenance.json"
    mode: "0644"
  delegate_to: localhost
# {
#  "ntp/makestep": {
#   "column": 3,
#   "file": "data/roles/db.yml",
#   "level": "roles/%{Role}",
#   ...
"""

RETURN = r"""
_value:
  description: The JSON document, ending with a line break.
  type: string
"""

from collections.abc import Mapping

from ansible.errors import AnsibleFilterError

# Before the helpers: they load with Python's bytecode cache (plugin_utils/bytecode.py).
from ansible_collections.strata.hier.plugins.plugin_utils import bytecode  # noqa: F401  # pylint: disable=unused-import
from ansible_collections.strata.hier.plugins.plugin_utils.compat import (
    accept_args_markers, accept_lazy_markers, vault_ciphertext,
)
from ansible_collections.strata.hier.plugins.plugin_utils.provenance_text import (
    key_records, plain_records, records_json, withheld_keys,
)


def _names(value, option):
    if value is None:
        return None
    if isinstance(value, (str, Mapping)) or not all(isinstance(name, str) for name in value):
        raise AnsibleFilterError('to_provenance_json: %s must be a list of strings, not %r' % (option, value))
    return list(value)


@accept_args_markers
@accept_lazy_markers
def to_provenance_json(records, keys=None, withhold=None):
    """The records as sorted JSON, vault values as {"__ansible_vault": ciphertext}."""
    if not isinstance(records, Mapping):
        raise AnsibleFilterError('to_provenance_json: the input must be a map of records, not %s'
                                 % type(records).__name__)
    records = plain_records(records, vault_ciphertext)
    keys = _names(keys, 'keys')
    if keys is not None:
        records = key_records(records, keys)
    top = keys if keys is not None else sorted(set(path.split('/', 1)[0] for path in records))
    withheld = set(_names(withhold, 'withhold') or ()) | set(withheld_keys(records, top))
    return records_json(records, vault_ciphertext, withheld)


class FilterModule(object):
    """Provenance records as JSON."""

    def filters(self):
        return {'to_provenance_json': to_provenance_json}
