# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fuzz target of Datum stores with handlers, as a data writer sees them: ``[x= $Node.X =]``, ``[x= $Datum.A.B =]``,
``$File``, quoted templates, references to references, cycles, chains, unsupported PowerShell, ``[ENC=...]``,
whole-file and inline vault values, handler levels in ResolutionPrecedence. Driven through Hierarchy (lookups, a
node's whole data) and merged_host_vars as the lookup, inventory and vars plugins drive them; the oracle is
surfaces.py's (docs/security.md). STRATA_FUZZ_EXAMPLES sets the examples per test; ``scripts/fuzz`` runs many.
"""

from __future__ import annotations

import os
import tempfile

import pytest
import yaml
from hypothesis import given, strategies as st

from ansible.utils.display import Display

from ansible_collections.strata.hier.plugins.plugin_utils.sources.hier_yml import load_config
from ansible_collections.strata.hier.plugins.plugin_utils.hierarchy import Hierarchy
from ansible_collections.strata.hier.plugins.plugin_utils.host_vars import merged_host_vars
from ansible_collections.strata.hier.tests.unit.plugins.plugin_utils.surfaces import (
    FINDINGS, FUZZ, INLINE_SECRET, INLINE_VAULT, WHOLE_VAULTED, allowance, bounded, check_error, check_vaulted_keys,
    check_warnings, line_limit, loader, metered, shows, size_of, started, warnings_kept, write_files,
)

HANDLERS = ['[x={ $Node.A }=]', '[x={ $Node.Name }=]', '[x= "<$($Node.B)>" =]', '[x={ $Datum.Common.A }=]',
            '[x={ $Datum.Global.Domain }=]', '[x= "$($Datum.Common.B)-$($Datum.Common.B)" =]', '[x={ $File.BaseName }=]',
            '[x={ $File.Directory.Name }=]', '[x={ Get-DatumSourceFile -Path $File }=]', "[x= 'lit' =]",
            '[ENC=AAAA]', '[x={ Get-Date }=]', '[x={ $Datum..x }=]', '[x={ $Node.Inline }=]',
            '[x= "s=$($Node.Inline)" =]', '[x={ $Datum.Common.Inline }=]', 'pre [x={ $Node.A }=] post',
            '[x={ $Datum.AllNodes.Dev.n1.A }=]', '[x={ $Node.C.D }=]', '[x={ $Datum.Roles }=]', '[x={ $Node }=]',
            '[x={ $Datum.Common.Missing }=]', '[x= "$($Node.A)$($Node.B)$($Node.C)" =]', '[x={ $node.name }=]',
            '[x=  =]', '[x={ $Datum.Roles.web.Port }=]', '[x= "[x={ $Node.A }=]" =]', "[x= '[x={ $Node.B }=]' =]",
            '[x={ $Datum.Global.Domain.Fqdn }=]', '[x={ $Datum.Common }=]', '[x={ $Datum.AllNodes }=]']
VAULTED_REFERENCES = ['[x={ $Datum.Global.Secret.Password }=]', '[x= "$($Datum.Global.Secret.Password)" =]',
                      '[x={ $Datum.Global.Secret }=]', '[x={ $Datum.Global }=]']
"""References to a whole-file vaulted file's values (issue 25, finding 3)."""
KEYS = ['A', 'B', 'C', 'D', 'Name', 'Port', 'Inline', 'a', 'Items', '--A']
SCALARS = st.one_of(st.sampled_from(HANDLERS), st.sampled_from(['x', '', 'web', '--A', '$($Node.A)', '{{ x }}']),
                    st.integers(-2, 2), st.booleans(), st.none())


def values(scalars):
    return st.recursive(scalars, lambda children: st.one_of(
        st.lists(children, max_size=3), st.dictionaries(st.sampled_from(KEYS), children, max_size=3)), max_leaves=6)


@st.composite
def data_file(draw, scalars, node=False):
    data = draw(st.dictionaries(st.sampled_from(KEYS), values(scalars), max_size=4))
    if node:
        data.update({'NodeName': draw(st.sampled_from(['n1', '[x={ $Node.Name }=]', '..'])), 'Environment': 'Dev',
                     'Role': draw(st.sampled_from(['web', '[x= "web" =]', '[x={ $Node.Role }=]', '../..']))})
    if draw(st.integers(0, 4)) == 0:
        data['Inline'] = 'INLINE'
    text = yaml.safe_dump(data).replace("'INLINE'", INLINE_VAULT).replace('INLINE', INLINE_VAULT)
    if draw(st.integers(0, 20)) == 0:
        text = draw(st.sampled_from(['A: [unclosed\n', 'A: &x [1]\nB: *x\n', '- 1\n', '\t']))
    return text


LEVELS = ['AllNodes\\$($Node.Environment)\\$($Node.NodeName)', 'Roles\\$($Node.Role)', 'Common', 'Global\\Domain',
          '[x= "Roles\\$($Node.Role)" =]', '[x={ $Node.Role }=]', '[x={ Get-Date }=]', 'Roles\\$($Node.A)',
          '[x={ $Datum.Common.A }=]', '..\\x', 'Global\\Secret']


@st.composite
def datum_yml(draw):
    config = {'ResolutionPrecedence': draw(st.lists(st.sampled_from(LEVELS), min_size=1, max_size=5)),
              'DatumHandlersThrowOnError': draw(st.booleans())}
    if draw(st.booleans()):
        config['lookup_options'] = draw(st.dictionaries(st.sampled_from(KEYS), st.sampled_from(
            ['MostSpecific', 'Unique', 'Sum', 'deep', 'hash', 'DeepTuple', 'Add']), max_size=3))
    return yaml.safe_dump(config)


@st.composite
def chain(draw):
    """Keys K0..KN in Common.yml, each referencing the one before once or twice: a chain, or a doubling."""
    length = draw(st.integers(2, 80))
    twice = draw(st.booleans())
    data = {'K0': 'ab'}
    for index in range(1, length):
        data['K%d' % index] = ('[x= "$($Datum.Common.KN)$($Datum.Common.KN)" =]' if twice
                               else '[x={ $Datum.Common.KN }=]').replace('N', str(index - 1))
    return data, 'K%d' % (length - 1)


@st.composite
def store(draw, vaulted=False, chains=False):
    scalars = st.one_of(SCALARS, st.sampled_from(VAULTED_REFERENCES)) if vaulted else SCALARS
    files = {'Datum.yml': draw(datum_yml()), 'AllNodes/Dev/n1.yml': draw(data_file(scalars, node=True)),
             'Roles/web.yml': draw(data_file(scalars)), 'Common.yml': draw(data_file(scalars)),
             'Global/Domain.yml': draw(data_file(scalars))}
    if vaulted:
        files['Global/Secret.yml'] = WHOLE_VAULTED
    keys = draw(st.lists(st.sampled_from(KEYS + ['Items/A', 'A/B', '']), min_size=1, max_size=3))
    if chains:
        data, last = draw(chain())
        files['Common.yml'] = yaml.safe_dump(data)
        keys.append(last)
    return files, keys


NODE = st.fixed_dictionaries({'inventory_hostname': st.sampled_from(['n1', 'n2', '[x={ $Node.A }=]'])},
                             optional={'NodeName': st.sampled_from(['n1', '..']), 'Environment': st.just('Dev'),
                                       'Role': st.sampled_from(['web', '[x={ $Node.A }=]', '..', '']),
                                       'A': st.sampled_from(['web', '[x={ $Node.A }=]'])})


def fuzz_store(files, keys, node):
    with tempfile.TemporaryDirectory() as root:
        written = write_files(root, files)
        names = [root, 'Datum.yml'] + keys + KEYS
        start = started()
        with warnings_kept() as warnings:
            outputs = metered(lambda: _run(os.path.join(root, 'Datum.yml'), keys, node, names), line_limit(written))
        bounded(start)
        check_warnings(warnings)
        for output in outputs:
            assert size_of(output) <= allowance(written), 'the result is larger than the expansion budget allows'


def shown_warnings(warnings):
    """As a plugin shows them (results carry warnings; warnings_kept sees what the plugin prints)."""
    for warning in warnings:
        Display().warning(warning)


def _run(path, keys, node, names):
    outputs = []
    try:
        data_loader = loader()
        hierarchy = Hierarchy(load_config(path, data_loader), data_loader)
        shown_warnings(hierarchy.config.warnings)
        expansions = hierarchy.expand_levels(node)
    except Exception as exc:  # pylint: disable=broad-except  # check_error judges it
        check_error(exc, names)
        return outputs
    for key in keys:
        try:
            resolution = hierarchy.lookup(key, node, expansions=expansions)
            shown_warnings(resolution.warnings)
            explained = resolution.explain()
        except Exception as exc:  # pylint: disable=broad-except
            check_error(exc, names)
            continue
        assert not shows(explained, INLINE_SECRET), 'a lookup shows a vault value in clear'
        outputs.append(explained)
    try:
        host_vars = merged_host_vars(hierarchy, node, expansions, Display().warning, provenance=True)
    except Exception as exc:  # pylint: disable=broad-except
        check_error(exc, names)
    else:
        check_vaulted_keys(host_vars)
        outputs.append(host_vars)
    return outputs


@FUZZ
@given(store(), NODE)
def test_datum_stores_with_handlers(generated, node):
    fuzz_store(*generated, node)


# Each finding's inputs in a target of its own (issue 25): the target above runs clean without them.
@pytest.mark.parametrize('vaulted, chains', [
    pytest.param(True, False, id='references-to-vaulted-files'),
    pytest.param(False, True, id='reference-chains'),
])
@FINDINGS
@given(data=st.data())
def test_datum_findings(vaulted, chains, data):
    fuzz_store(*data.draw(store(vaulted, chains)), data.draw(NODE))
