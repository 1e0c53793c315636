# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

DOCUMENTATION = r"""
name: blame
short_description: Which hosts and key paths a line or file of the data feeds, shadows or knocks out
version_added: 1.1.0
author: Strata maintainers (@strata-hier)
description:
  - The reverse of provenance. Given each host's provenance records (the host variable C(hier_provenance), or the
    C(provenance) of the P(strata.hier.hier#lookup) lookup with C(whole_node=true, provenance=true)) and a place
    O(where), lists every host and key path where that place
  - C(fed) - is the record's own file and line (the value, map key or list item is written there);
  - C(shadowed) - is a less specific definition the value overrode (the record's C(shadowed));
  - C(knocks out) - holds a knockout marker that removed a value (a C(removed) entry's C(marker));
  - C(knocked out) - holds a value a knockout removed (a C(removed) entry's own file and line).
  - Matches that differ only by host are one, with the list of its hosts; they are sorted by key path.
  - What the C(strata.hier.blame) playbook runs (C(ansible-playbook strata.hier.blame -e where=data/common.yml:4)).
positional: _input, where
options:
  _input:
    description:
      - The records of each host, host name -> (key path -> record).
      - Or a list of reports this filter returned (O(format=data)) for the same O(where), to combine into one, such as
        the reports each host's worker made.
    type: raw
    required: true
  where:
    description:
      - C(file:line), or a file for every line of it, relative to the hierarchy configuration's folder as the records
        name files (V(data/common.yml:4), V(data/common.yml)).
    type: str
    required: true
  format:
    description:
      - V(data) returns the report as a map (see RV(_value)).
      - V(text) returns it as text for people, one paragraph per key path.
      - 'V(json) returns it as JSON text, sorted, vault values as C({"__ansible_vault": ciphertext}).'
    type: str
    default: data
    choices: [data, text, json]
notes:
  - Vault values are never decrypted; the text shows them as C(!vault). Data of a whole-file vaulted file has no
    line in the records, so only a O(where) that names the whole file finds it.
seealso:
  - plugin: strata.hier.hier
    plugin_type: lookup
"""

EXAMPLES = r"""
- name: What does line 4 of data/common.yml feed? (inventory source with provenance=true)
  ansible.builtin.debug:
    msg: "{{ dict(ansible_play_hosts | zip(ansible_play_hosts | map('extract', hostvars, 'hier_provenance')))
             | strata.hier.blame('data/common.yml:4', format='text') }}"
  run_once: true
# data/common.yml:4: 2 host x key path pairs on 2 of the 2 hosts examined.
#
# ntp/makestep
#   data/common.yml:4 feeds "1.0 3" on 1 host: web01
#   data/common.yml:4 ("1.0 3") is shadowed by "0.1 -1" at data/roles/db.yml:3 on 1 host: db01
"""

RETURN = r"""
_value:
  description:
    - With O(format=data), C({where, hosts, file_named, matches}), C(hosts) the hosts examined, C(file_named) whether
      any record names the file at all, and each of C(matches) C({path, how, file, line, value, other, hosts}) with
      C(how) one of V(fed), V(shadowed), V(knocks out), V(knocked out); C(value) the value at that place (scalars);
      C(other) the other place involved (what shadowed it, the value a marker removed, the marker that removed it).
    - With O(format=text) or O(format=json), the report as text.
  type: raw
"""

from collections.abc import Mapping

from ansible.errors import AnsibleFilterError

# Before the helpers: they load with Python's bytecode cache (plugin_utils/bytecode.py).
from ansible_collections.strata.hier.plugins.plugin_utils import bytecode  # noqa: F401  # pylint: disable=unused-import
from ansible_collections.strata.hier.plugins.plugin_utils.jobs.blame import (
    WhereError, blame as blame_records, combine, report_json, report_text,
)
from ansible_collections.strata.hier.plugins.plugin_utils.compat import (
    accept_args_markers, accept_lazy_markers, vault_ciphertext,
)
from ansible_collections.strata.hier.plugins.plugin_utils.provenance_text import plain_records

FORMATS = ('data', 'text', 'json')


@accept_args_markers
@accept_lazy_markers
def blame(data, where, format='data'):  # pylint: disable=redefined-builtin
    """The hosts and key paths ``where`` takes part in."""
    if format not in FORMATS:
        raise AnsibleFilterError('blame: format must be one of %s, not %r' % (', '.join(FORMATS), format))
    data = plain_records(data, vault_ciphertext, wrappers=5)
    try:
        if isinstance(data, Mapping):
            _check_records(data)
            report = blame_records(data, where, vault_ciphertext)
        elif isinstance(data, list) and all(isinstance(item, Mapping) and 'matches' in item for item in data):
            report = combine(data, where, vault_ciphertext)
        else:
            raise AnsibleFilterError('blame: the input must be a map of host -> provenance records, or a list of '
                                     'reports of this filter, not %s' % type(data).__name__)
    except WhereError as exc:
        raise AnsibleFilterError('blame: %s' % exc) from exc
    if format == 'text':
        return report_text(report, vault_ciphertext)
    if format == 'json':
        return report_json(report, vault_ciphertext)
    return report


def _check_records(data):
    for host, records in data.items():
        if not isinstance(records, Mapping) or not all(isinstance(record, Mapping) for record in records.values()):
            raise AnsibleFilterError('blame: the records of %s must be a map of key path -> record (hier_provenance), '
                                     'not %s' % (host, type(records).__name__))


class FilterModule(object):
    """The hosts and key paths a line of the data takes part in."""

    def filters(self):
        return {'blame': blame}
