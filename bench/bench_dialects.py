# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Scaling of the dialect filters: each is timed at SMALL and LARGE inputs in the same run and the
time exponent log(t_large / t_small) / log(LARGE / SMALL) is printed (1.0 is linear; target <= 1.15).

Each dialect is one entry of DIALECTS: a name, a function building n inputs, and the call to time.

Run with the collection importable as ansible_collections.strata.hier (scripts/bench does that).
"""

from __future__ import annotations

import argparse
import math
from typing import Any, Callable, List, NamedTuple

from ansible_collections.strata.hier.bench.bench_merge import best_of
from ansible_collections.strata.hier.plugins.module_utils.dialects.cloud_init import merge_cloud_configs
from ansible_collections.strata.hier.plugins.module_utils.dialects.deckhand.layering import layer_documents
from ansible_collections.strata.hier.plugins.module_utils.dialects.heat import merge_environments

SMALL, LARGE = 1000, 4000
TARGET_EXPONENT = 1.15


class Dialect(NamedTuple):
    name: str
    build: Callable[[int], Any]
    """n inputs (documents, files, ...) for the call."""
    run: Callable[[Any], Any]


def deckhand_documents(count: int) -> List[dict]:
    """About ``count`` documents shaped like an Airship site: per chart a global, a region and a site
    document of one schema (the site one merging, deleting and substituting), and a passphrase; one
    SoftwareVersions document every chart reads its image from; each site document also reads the
    previous chart's site document, so substitutions chain through the whole set."""
    charts = max(1, (count - 2) // 4)
    versions = {'images': {'chart-%d' % i: 'registry/chart-%d:1.%d' % (i, i) for i in range(charts)}}
    documents = [_document('deckhand/LayeringPolicy/v1', 'layering-policy', {'layerOrder': ['global', 'region', 'site']},
                           control=True),
                 _document('pegleg/SoftwareVersions/v1', 'software-versions', versions, layer='global')]
    for i in range(charts):
        chart = 'chart-%d' % i
        documents.extend([
            _document('armada/Chart/v1', chart + '-global', _chart_data(i), layer='global', abstract=True,
                      labels={'name': chart, 'layer': 'global'}),
            _document('armada/Chart/v1', chart + '-region', {'values': {'replicas': 2, 'region': 'r%d' % (i % 7)}},
                      layer='region', abstract=True, labels={'name': chart, 'layer': 'region'},
                      selector={'name': chart, 'layer': 'global'}, actions=[('merge', '.')]),
            _document('armada/Chart/v1', chart, {'values': {'replicas': 3}}, layer='site',
                      selector={'name': chart, 'layer': 'region'}, actions=[('merge', '.'), ('delete', '.values.unused')],
                      substitutions=_substitutions(i)),
            _document('deckhand/Passphrase/v1', chart + '-password', 'secret-%d' % i, layer='site'),
        ])
    return documents


def _chart_data(i: int) -> dict:
    return {'chart_name': 'chart-%d' % i, 'values': {'image': None, 'unused': [1, 2, 3],
                                                     'url': 'http://admin:PASSWORD@svc-%d:8080/v1' % i,
                                                     'conf': {'k%d' % key: key for key in range(10)}}}


def _substitutions(i: int) -> List[dict]:
    subs = [
        {'src': {'schema': 'pegleg/SoftwareVersions/v1', 'name': 'software-versions', 'path': '.images.chart-%d' % i},
         'dest': {'path': '.values.image'}},
        {'src': {'schema': 'deckhand/Passphrase/v1', 'name': 'chart-%d-password' % i, 'path': '.'},
         'dest': [{'path': '.values.url', 'pattern': 'PASSWORD'}, {'path': '.values.password'}]},
    ]
    if i:
        subs.append({'src': {'schema': 'armada/Chart/v1', 'name': 'chart-%d' % (i - 1), 'path': '.values.image'},
                     'dest': {'path': '.values.previous_image'}})
    return subs


def _document(schema: str, name: str, data: Any, layer: str = '', control: bool = False, abstract: bool = False,
              labels: Any = None, selector: Any = None, actions: Any = None, substitutions: Any = None) -> dict:
    metadata: dict = {'schema': 'metadata/%s/v1' % ('Control' if control else 'Document'), 'name': name}
    if not control:
        metadata['storagePolicy'] = 'cleartext'
        definition: dict = {'abstract': abstract, 'layer': layer}
        if selector:
            definition['parentSelector'] = selector
            definition['actions'] = [{'method': method, 'path': path} for method, path in actions]
        metadata['layeringDefinition'] = definition
    if labels:
        metadata['labels'] = labels
    if substitutions:
        metadata['substitutions'] = substitutions
    return {'schema': schema, 'metadata': metadata, 'data': data}


CLOUD_INIT_APPEND = 'list(append)+dict(no_replace,recurse_list,recurse_str)+str(append)'


def cloud_config_parts(count: int) -> List[dict]:
    """``count`` cloud-config parts (most specific first, as the core takes them), each appending commands,
    packages, files and a user to the lists every earlier part built, adding keys to a nested map and a line to
    a string, with list(append)+dict(no_replace,recurse_list,recurse_str)+str(append)."""
    parts = []
    for i in range(count):
        parts.append({
            'merge_how': CLOUD_INIT_APPEND,
            'runcmd': ['echo part-%d' % i, ['sh', '-c', 'true %d' % i]],
            'packages': ['pkg-%d' % i],
            'write_files': [{'path': '/etc/part-%d.conf' % i, 'content': 'x=%d\n' % i, 'permissions': '0644'}],
            'users': [{'name': 'user-%d' % i, 'groups': ['wheel'], 'shell': '/bin/bash'}],
            'bootcmd': {'step-%d' % i: 'echo %d' % i, 'common': {'last': i}},
            'final_message': 'part %d done. ' % i,
        })
    return parts[::-1]


def heat_environment_files(count: int) -> List[dict]:
    """``count`` environment files (most specific first): a growing json parameter merged deep, a list extended,
    a string parameter overwritten, resource_registry entries added by every file; the template declares them."""
    files = [{'parameter_merge_strategies': {'ExtraConfig': 'deep_merge', 'ControllerServices': 'merge'}}]
    for i in range(count):
        files.append({
            'parameter_defaults': {'ExtraConfig': {'hiera': {'key_%d' % i: i, 'list': ['item-%d' % i]}},
                                   'ControllerServices': ['Service%d' % i], 'NtpServer': 'ntp-%d' % i},
            'resource_registry': {'OS::Site::Role%d' % i: 'role-%d.yaml' % i},
        })
    return files[::-1]


HEAT_TYPES = {'ExtraConfig': 'json', 'ControllerServices': 'comma_delimited_list', 'NtpServer': 'string'}

DIALECTS = [
    Dialect('layer_documents', deckhand_documents, layer_documents),
    Dialect('cloud_init_merge', cloud_config_parts, merge_cloud_configs),
    Dialect('heat_merge', heat_environment_files, lambda files: merge_environments(files, HEAT_TYPES)),
]


def exponent(small_time: float, large_time: float) -> float:
    return math.log(large_time / small_time) / math.log(LARGE / SMALL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--repeat', type=int, default=5)
    parser.add_argument('dialects', nargs='*', help='names of the dialects to time (default: all)')
    args = parser.parse_args()
    for dialect in DIALECTS:
        if args.dialects and dialect.name not in args.dialects:
            continue
        small_input, large_input = dialect.build(SMALL), dialect.build(LARGE)
        small = best_of(lambda: dialect.run(small_input), args.repeat)
        large = best_of(lambda: dialect.run(large_input), args.repeat)
        print('%-18s %5d inputs %8.1f ms   %5d inputs %8.1f ms   ratio %5.2fx   exponent %.2f  (target <= %.2f)'
              % (dialect.name, SMALL, small * 1000, LARGE, large * 1000, large / small, exponent(small, large),
                 TARGET_EXPONENT))


if __name__ == '__main__':
    main()
