# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""check_rsop.py OUTPUT EXPECTED PROVENANCE [KEY...]

OUTPUT holds one file per host of EXPECTED (``ansible-inventory --host --yaml`` of each host), whose data is the
host's merged variables (the keys of its hier_sources, or the KEYs given), with hier_sources when PROVENANCE is
``true``, a ``# file:line`` comment on every top-level key when it is ``inline``, and a ``<host>.provenance.json``
beside it holding the host's hier_provenance when it is ``sidecar``, top-level keys sorted, vault values as
``!vault`` blocks with the inventory's ciphertext and the keys of hier_vaulted_keys (data of whole-file vaulted
files) withheld. VAULTED_FILES=yes in the environment: some host
must have such keys; no: none.
"""

from __future__ import annotations

import json
import os
import re
import sys

WITHHELD = 'WITHHELD: data of a whole-file vaulted file'

import yaml


class VaultLoader(yaml.SafeLoader):
    """Reads !vault values as ('!vault', ciphertext), so that files and inventory compare by ciphertext."""


VaultLoader.add_constructor('!vault', lambda loader, node: ('!vault', loader.construct_scalar(node).strip()))


def load(path):
    with open(path) as stream:
        return yaml.load(stream, Loader=VaultLoader)


def main(output, expected_dir, provenance, keys):
    hosts = sorted(name[:-len('.yml')] for name in os.listdir(expected_dir))
    withheld = 0
    written = sorted(os.listdir(output))
    wanted = ['%s%s' % (host, suffix) for host in hosts
              for suffix in (['.provenance.json', '.yml'] if provenance == 'sidecar' else ['.yml'])]
    assert written == wanted, 'files %s, hosts %s' % (written, hosts)
    for host in hosts:
        inventory = load(os.path.join(expected_dir, host + '.yml'))
        vaulted_keys = inventory.get('hier_vaulted_keys', [])
        merged = {key: WITHHELD if key in vaulted_keys else inventory[key]
                  for key in (keys or inventory['hier_sources']) if key in inventory}
        withheld += sum(1 for value in merged.values() if value == WITHHELD)
        if provenance == 'true':
            merged['hier_sources'] = inventory['hier_sources']
        path = os.path.join(output, host + '.yml')
        with open(path) as stream:
            text = stream.read()
        assert text.startswith('---\n# Resultant set of data of %s, ' % host), text[:200]
        data = load(path)
        for key in sorted(set(data) | set(merged)):
            assert data.get(key) == merged.get(key), '%s: %s: file %r, inventory %r' % (
                host, key, data.get(key), merged.get(key))
        top = [line.split(':', 1)[0] for line in text.splitlines()[2:] if line[:1] not in ('', ' ', '-', '#')]
        commented = [line for line in text.splitlines()[2:] if line[:1] not in ('', ' ', '-', '#') and '  # ' in line]
        assert len(commented) == (len(top) if provenance == 'inline' else 0), '%s: comments %s' % (host, commented)
        if provenance == 'sidecar':
            check_sidecar(os.path.join(output, host + '.provenance.json'), inventory, merged)
        assert top == sorted(merged), '%s: top-level keys %s' % (host, top)
        vaulted = [key for key, value in merged.items() if isinstance(value, tuple)]
        assert vaulted or keys, '%s: no vault value to check' % host
        for key in vaulted:
            block = re.search(r'\n%s: !vault \|(  # [^\n]+)?\n  \$ANSIBLE_VAULT;' % re.escape(key), text)
            assert block, '%s: %s is not a !vault block' % (host, key)
    if os.environ.get('VAULTED_FILES') == 'yes':
        assert withheld, 'no value of a whole-file vaulted file was withheld'
    elif os.environ.get('VAULTED_FILES') == 'no':
        assert not withheld, '%d values withheld without a whole-file vaulted file' % withheld
    print('%s: %d files as expected, %d values withheld' % (output, len(hosts), withheld))


def check_sidecar(path, inventory, merged):
    """The records of the written keys, as the inventory's hier_provenance has them (vault values as
    __ansible_vault, the values of withheld keys left out)."""
    with open(path) as stream:
        text = stream.read()
    records = json.loads(text)
    assert text == json.dumps(records, indent=1, sort_keys=True, ensure_ascii=False) + '\n', path
    expected = inventory['hier_provenance']
    assert {path.split('/')[0] for path in records} == set(merged), (path, sorted(records))
    for key_path, record in records.items():
        shown = expected[key_path].get('value')
        if isinstance(shown, tuple):    # a vault value
            assert record['value']['__ansible_vault'].strip() == shown[1], key_path
        elif merged[key_path.split('/')[0]] == WITHHELD:
            assert 'value' not in record, key_path
        else:
            assert record.get('value') == shown, key_path


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:])
