# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""check_rsop.py OUTPUT EXPECTED PROVENANCE [KEY...]

OUTPUT holds one file per host of EXPECTED (``ansible-inventory --host --yaml`` of each host), whose data is the
host's merged variables (the keys of its hier_sources, or the KEYs given), with hier_sources when PROVENANCE is
``true``, top-level keys sorted, vault values as ``!vault`` blocks with the inventory's ciphertext and the keys of
hier_vaulted_keys (data of whole-file vaulted files) withheld. VAULTED_FILES=yes in the environment: some host
must have such keys; no: none.
"""

from __future__ import annotations

import os
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
    assert written == ['%s.yml' % host for host in hosts], 'files %s, hosts %s' % (written, hosts)
    for host in hosts:
        inventory = load(os.path.join(expected_dir, host + '.yml'))
        vaulted_keys = inventory.get('hier_vaulted_keys', [])
        merged = {key: WITHHELD if key in vaulted_keys else inventory[key]
                  for key in (keys or inventory['hier_sources']) if key in inventory}
        withheld += sum(1 for value in merged.values() if value == WITHHELD)
        if provenance:
            merged['hier_sources'] = inventory['hier_sources']
        path = os.path.join(output, host + '.yml')
        with open(path) as stream:
            text = stream.read()
        assert text.startswith('---\n# Resultant set of data of %s, ' % host), text[:200]
        data = load(path)
        for key in sorted(set(data) | set(merged)):
            assert data.get(key) == merged.get(key), '%s: %s: file %r, inventory %r' % (
                host, key, data.get(key), merged.get(key))
        top = [line.split(':', 1)[0] for line in text.splitlines()[2:] if line[:1] not in ('', ' ', '-')]
        assert top == sorted(merged), '%s: top-level keys %s' % (host, top)
        vaulted = [key for key, value in merged.items() if isinstance(value, tuple)]
        assert vaulted or keys, '%s: no vault value to check' % host
        for key in vaulted:
            assert '\n%s: !vault |\n  $ANSIBLE_VAULT;' % key in text, '%s: %s is not a !vault block' % (host, key)
    if os.environ.get('VAULTED_FILES') == 'yes':
        assert withheld, 'no value of a whole-file vaulted file was withheld'
    elif os.environ.get('VAULTED_FILES') == 'no':
        assert not withheld, '%d values withheld without a whole-file vaulted file' % withheld
    print('%s: %d files as expected, %d values withheld' % (output, len(hosts), withheld))


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2], sys.argv[3] == 'true', sys.argv[4:])
