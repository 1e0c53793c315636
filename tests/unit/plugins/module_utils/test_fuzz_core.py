# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fuzzing the merge core and every dialect's core function, with the contract as the oracle.

For generated data (markers, numbers, booleans, nulls, vault values, str subclasses, YAML-like aliases
and alias bombs, data that refers to itself) and generated strategies and rules, each call must:
- return a result or raise the collection's documented MergeError, nothing else (no RecursionError, no
  TypeError...);
- leave its inputs as they were, and share no map or list with them;
- leave no knockout marker in the result (Datum strategies);
- never decrypt a vault value (Sealed raises, and counts, when anything compares or reads it);
- run a number of lines of the core bounded by the input's size as written (aliases expanded only within
  the work budget): counted, not timed.

The number of examples per target comes from STRATA_FUZZ_EXAMPLES (scripts/fuzz sets it large); the
default keeps this file within a few seconds per target.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from hypothesis import HealthCheck, given, settings, strategies as st

from ansible_collections.strata.hier.plugins.module_utils.dialects.cloud_init import merge_cloud_configs
from ansible_collections.strata.hier.plugins.module_utils.dialects.deckhand.layering import layer_documents
from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeError
from ansible_collections.strata.hier.plugins.module_utils.dialects.heat import merge_environments
from ansible_collections.strata.hier.plugins.module_utils.core.merging import merge_documents, merge_layers
from ansible_collections.strata.hier.plugins.module_utils.core.rules import MergeRules
from ansible_collections.strata.hier.plugins.module_utils.dialects.sequence import merge_scopes
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.contract import (
    Sealed, containers, lines_run, work_bound,
)
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.extended import extended_specs, extended_strategy

EXAMPLES = int(os.environ.get('STRATA_FUZZ_EXAMPLES', '40'))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=False,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
PREFIXES = ('--', '!')


class Tagged(str):
    """A str subclass, as ansible-core's tagged and unsafe strings are."""


# --- data -----------------------------------------------------------------------------------------------
TEXTS = st.sampled_from(['a', 'b', 'A', 'x', '', 'Name', '80', '--a', '--b', '--A', '--80', '!a', '--', '-'])
SCALARS = st.one_of(
    TEXTS, st.integers(-2, 100), st.booleans(), st.none(), st.floats(allow_nan=False, allow_infinity=False, width=16),
    st.sampled_from(['A', 'B']).map(Sealed), st.sampled_from(['a', '--a']).map(Tagged))
KEYS = st.one_of(st.sampled_from(['a', 'b', 'A', 'Name', 'name', 'Version', 'ip', 'v', '--a', '--Name', '--name',
                                  '!a', 'merge_how', 'parameters', 'data']),
                 st.sampled_from([1, 80, True, 1.5, None]))


@st.composite
def data(draw, depth=4):
    """A value that may reuse its own parts (YAML aliases), grow into an alias bomb or refer to itself."""
    anchors = []

    def node(level):
        kind = draw(st.integers(0, 7 if level < depth else 1))
        if kind == 1 and anchors:
            return anchors[draw(st.integers(0, len(anchors) - 1))]      # an alias of an earlier part
        if kind in (0, 1):
            return draw(SCALARS)
        if kind == 2:
            value = [node(level + 1) for _index in range(draw(st.integers(0, 3)))]
        elif kind == 3:
            value = [{draw(st.sampled_from(['Name', 'name', 'Version', 'ip'])): node(level + 1),
                      draw(KEYS): node(level + 1)} for _index in range(draw(st.integers(1, 3)))]
        elif kind == 4 and level == 1 and draw(st.integers(0, 30)) == 0:
            value = {'self': None}
            value['self'] = value                            # data that refers to itself
        elif kind == 5 and draw(st.integers(0, 8)) == 0:
            value = _bomb(draw(st.integers(2, 7)), draw(st.integers(2, 6)), draw(st.booleans()))
        else:
            value = {draw(KEYS): node(level + 1) for _index in range(draw(st.integers(0, 4)))}
        anchors.append(value)
        return value

    return node(0)


def _bomb(levels, width, maps):
    value = ['x'] * width
    for _level in range(levels):
        value = {'k%d' % index: value for index in range(width)} if maps else [value] * width
    return value


MAPS = data().map(lambda value: value if isinstance(value, dict) else {'a': value})
LAYERS = st.lists(st.one_of(st.none(), data()), min_size=1, max_size=4)
MAP_LAYERS = st.lists(st.one_of(st.none(), MAPS), min_size=1, max_size=4)

# --- strategies and rules -------------------------------------------------------------------------------
DATUM = st.one_of(
    st.sampled_from(['MostSpecific', 'First', 'hash', 'deep', 'MergeRecursively', 'Unique', 'Sum', 'DeepTuple',
                     'UniqueKeyValTuples']),
    st.fixed_dictionaries({
        'merge_hash': st.sampled_from(['MostSpecific', 'hash', 'deep']),
        'merge_basetype_array': st.sampled_from(['MostSpecific', 'Unique', 'Sum']),
        'merge_hash_array': st.sampled_from(['MostSpecific', 'Sum', 'DeepTuple', 'UniqueKeyValTuples']),
        'merge_options': st.fixed_dictionaries({'knockout_prefix': st.sampled_from(PREFIXES + (None,)),
                                                'tuple_keys': st.sampled_from([['Name'], ['Name', 'Version'],
                                                                               ['ip']])})}))
EXTENDED = extended_specs(tuple_keys=(['Name'], ['ip']), prefixes=PREFIXES + (None,),
                          tuple_modes=('DeepTuple', 'UniqueKeyValTuples')).map(extended_strategy)
PATHS = st.sampled_from(['a', 'a/b', 'Name', '^a/.*', '^(b|Name)$', 'a/Name/v'])


@st.composite
def rules(draw, strategies):
    lookup_options = draw(st.dictionaries(PATHS, strategies, max_size=2))
    return MergeRules(draw(strategies), lookup_options, case_insensitive_keys=draw(st.booleans()))


# --- the oracle -----------------------------------------------------------------------------------------
def snapshot(values):
    """What the inputs hold, each map and list by identity (aliases and loops stay what they are)."""
    shown = {}
    for ident, node in containers(values).items():
        entries = node.items() if isinstance(node, Mapping) else enumerate(node)
        shown[ident] = (type(node), [(_form(key), _form(item)) for key, item in entries])
    return shown


def _form(value):
    if isinstance(value, (Mapping, list, tuple)):
        return ('container', id(value))
    if isinstance(value, Sealed):
        return ('sealed', value.ciphertext)
    return (type(value), repr(value))


def markers_in(value, prefix, tuple_keys, fold):
    """Knockout markers where Datum reads them: map keys, base-type array items, tuple-key values."""
    keys = {fold(key) for key in tuple_keys}
    found = []
    for node in containers(value).values():
        if isinstance(node, Mapping):
            found.extend(key for key in node if isinstance(key, str) and key.startswith(prefix))
        elif node and all(isinstance(item, Mapping) for item in node):
            found.extend(item[key] for item in node for key in item if fold(key) in keys
                         and isinstance(item[key], str) and item[key].startswith(prefix))
        else:
            found.extend(item for item in node if isinstance(item, str) and item.startswith(prefix))
    return found


def honours_the_contract(function, *args, markers=None):
    """Call ``function(*args)`` and check the contract; return its result (or its MergeError)."""
    before = snapshot(args)
    decryptions = Sealed.decryptions
    outcome, lines = lines_run(function, *args)
    assert Sealed.decryptions == decryptions, 'a vault value was decrypted'
    if isinstance(outcome, Exception) and not isinstance(outcome, MergeError):
        raise outcome
    assert snapshot(args) == before, 'an input was changed'
    assert lines <= work_bound(args), 'the work is out of proportion with the input (%d lines)' % lines
    if not isinstance(outcome, Exception):
        value = getattr(outcome, 'value', getattr(outcome, 'documents', outcome))
        shared = set(containers(value)) & set(containers(args))
        assert not shared, 'the result shares a map or list with the input'
        if markers is not None:
            assert not markers_in(value, *markers), 'a knockout marker survived'
    return outcome


def _markers_of(rules_):
    """The knockout marker forms to look for: only when every rule takes Datum's syntax and one prefix."""
    strategies = [rules_.default.strategy] + [rule.strategy for rule in rules_.all_rules()]
    prefixes = {strategy.knockout_prefix for strategy in strategies}
    if len(prefixes) != 1 or None in prefixes:
        return None
    fold = (lambda key: key.casefold() if isinstance(key, str) else key) if rules_.case_insensitive_keys else \
        (lambda key: key)
    tuple_keys = {strategy.tuple_keys for strategy in strategies}
    keys = tuple_keys.pop() if len(tuple_keys) == 1 else ()     # tuple markers: only where every rule agrees
    return prefixes.pop(), keys, fold


# --- the targets ----------------------------------------------------------------------------------------
@FUZZ
@given(LAYERS, rules(DATUM), st.sampled_from(['', 'a', 'a/b', 'Name']))
def test_merge_layers_with_datum_strategies(values, rules_, path):
    honours_the_contract(merge_layers, values, rules_, path, markers=_markers_of(rules_) if not path else None)


@FUZZ
@given(LAYERS, rules(st.one_of(EXTENDED, DATUM)), st.sampled_from(['', 'a']))
def test_merge_layers_with_the_dialects_settings(values, rules_, path):
    honours_the_contract(merge_layers, values, rules_, path)


@FUZZ
@given(MAP_LAYERS, rules(DATUM))
def test_merge_documents(documents, rules_):
    honours_the_contract(merge_documents, documents, rules_, markers=_markers_of(rules_))


MERGE_HOWS = st.one_of(st.none(), st.sampled_from([
    'dict(replace)+list()+str()', 'dict(no_replace,recurse_list)+list(append)+str(append)',
    'dict(allow_delete,no_replace,recurse_list,recurse_str)+list(replace,recurse_dict,recurse_list,recurse_str)+str()',
    'list(prepend)+dict(recurse_array)', 'dict(replace,allow_delete)+list(no_replace)', 'str(append)', 'bogus(',
]), st.sampled_from(['A']).map(Sealed), st.just([{'name': 'list', 'settings': ['append']}, {'name': 'dict'}]))


@st.composite
def cloud_configs(draw):
    documents = draw(st.lists(st.one_of(st.none(), MAPS), max_size=4))
    for document in documents:
        if document is not None and draw(st.booleans()):
            document['merge_how'] = draw(MERGE_HOWS)
    return documents


@FUZZ
@given(cloud_configs(), MERGE_HOWS)
def test_cloud_init(documents, merge_how):
    honours_the_contract(merge_cloud_configs, documents, merge_how)


HEAT_STRATEGIES = st.sampled_from(['overwrite', 'merge', 'deep_merge', 'append']) | st.builds(Sealed, st.just('A'))


@st.composite
def environments(draw):
    files = []
    for _file in range(draw(st.integers(0, 4))):
        environment = {}
        for section in draw(st.lists(st.sampled_from(['parameters', 'parameter_defaults', 'resource_registry',
                                                      'event_sinks', 'outputs']), max_size=3, unique=True)):
            environment[section] = draw(st.one_of(MAPS, data()))
        if draw(st.booleans()):
            environment['parameter_merge_strategies'] = draw(st.dictionaries(
                st.sampled_from(['default', 'a', 'b', 'Name']), HEAT_STRATEGIES, max_size=3))
        files.append(environment if draw(st.integers(0, 9)) else draw(data()))
    return files


@FUZZ
@given(environments(), st.one_of(st.none(), st.dictionaries(st.sampled_from(['a', 'b', 'Name']), st.sampled_from(
    ['string', 'json', 'comma_delimited_list', 'number', 'boolean', 'CommaDelimitedList', 'list']), max_size=3)))
def test_heat(environments_, parameter_types):
    honours_the_contract(merge_environments, environments_, parameter_types)


@FUZZ
@given(st.lists(st.one_of(st.none(), data()), min_size=1, max_size=4), st.sampled_from(['append', 'prepend', 'replace']),
       st.sampled_from(['list', 'set']), st.sampled_from([None, 'ip', ['Name', 'ip']]))
def test_sequence(scopes, mode, kind, primary_key):
    honours_the_contract(merge_scopes, scopes, mode, kind, primary_key)


LAYER_NAMES = ('global', 'region', 'site')
ACTION_PATHS = st.sampled_from(['.', '.a', '.a.b', '.a[0]', '.Name', ".'a'", '.b[1].a', '.x.y', 5])


@st.composite
def deckhand_documents(draw):
    documents = [{'schema': 'deckhand/LayeringPolicy/v1', 'metadata': {'schema': 'metadata/Control/v1', 'name': 'p'},
                  'data': {'layerOrder': list(LAYER_NAMES)}}]
    for index in range(draw(st.integers(0, 5))):
        definition = {'layer': draw(st.sampled_from(LAYER_NAMES)), 'abstract': draw(st.booleans())}
        if draw(st.booleans()):
            definition['parentSelector'] = {'kind': draw(st.sampled_from(['x', 'y']))}
            definition['actions'] = [{'method': draw(st.sampled_from(['merge', 'replace', 'delete'])),
                                      'path': draw(ACTION_PATHS)} for _action in range(draw(st.integers(0, 3)))]
        metadata = {'schema': 'metadata/Document/v1', 'name': 'd%d' % draw(st.integers(0, index)),
                    'labels': {'kind': draw(st.sampled_from(['x', 'y']))}, 'layeringDefinition': definition}
        if draw(st.integers(0, 5)) == 0:
            metadata['replacement'] = True
        documents.append({'schema': draw(st.sampled_from(['a/B/v1', 'a/C/v1'])), 'metadata': metadata,
                          'data': draw(data())})
    return documents


@FUZZ
@given(deckhand_documents())
def test_deckhand_layering(documents):
    honours_the_contract(layer_documents, documents)
