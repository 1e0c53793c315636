# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""What a lookup over a hier.yml loads in a fresh worker (issue 13): every forked worker pays for it again."""

from __future__ import annotations

from ansible_collections.strata.hier.tests.unit.plugins.fresh_process import run_fresh, write_role_store

OURS = 'ansible_collections.strata.hier.plugins.'

# A fresh process as a worker: one lookup over a hier.yml; prints the collection's modules it loaded, and the
# dataclasses and named tuples they define (each compiles generated code when its class is created).
WORKER = '''
import json, sys
from ansible.parsing.dataloader import DataLoader
from ansible.plugins.loader import init_plugin_loader, lookup_loader
from ansible.template import Templar
init_plugin_loader([sys.argv[1]])
loader = DataLoader()
lookup = lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader))
value = lookup.run(['Packages'], variables={'role': 'web'}, config=sys.argv[2])
ours = {name: module for name, module in sys.modules.items() if name.startswith(sys.argv[3])}
generated = sorted('%s.%s' % (name, attribute) for name, module in ours.items() for attribute, item in vars(module).items()
                   if isinstance(item, type) and item.__module__ == name
                   and (hasattr(item, '__dataclass_fields__') or (issubclass(item, tuple) and hasattr(item, '_fields'))))
print(json.dumps({'modules': sorted(ours), 'generated': generated, 'value': value}))
'''


def test_a_hier_yml_lookup_loads_no_dialect_code_and_builds_no_generated_classes(tmp_path):
    config = write_role_store(tmp_path, '{merge_basetype_array: Unique}')
    report = run_fresh(WORKER, config, OURS)
    assert report['value'] == [['nginx', 'base']]
    assert report['generated'] == []
    loaded = {name[len(OURS):] for name in report['modules']}
    assert 'module_utils.core.merging' in loaded and 'plugin_utils.hierarchy' in loaded
    for only_where_used in ('module_utils.dialects.hiera.engine', 'module_utils.dialects.datum.expressions', 'module_utils.dialects.datum.strategies',
                            'plugin_utils.datum_handlers', 'plugin_utils.datum_config', 'plugin_utils.sources.hiera_yaml',
                            'plugin_utils.nodes',
                            'module_utils.dialects.deckhand.layering', 'module_utils.dialects.cloud_init', 'module_utils.dialects.heat'):
        assert only_where_used not in loaded, only_where_used
