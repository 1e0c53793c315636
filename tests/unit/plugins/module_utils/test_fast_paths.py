# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The engine's fast paths agree with its general path, on generated data and under every strategy.

Each fast path is a shortcut the engine takes when it can tell the general path would give the same
answer (maps that cannot hold knockout markers, values of the builtin scalar types, whole values...).
``general_path()`` switches every one of them off; the merged value, its sources and the warnings must not
change.
"""

from __future__ import annotations

import copy
from unittest import mock

from hypothesis import example, given, settings, strategies as st

from ansible_collections.strata.hier.plugins.module_utils.core.kinds import FAST_PATHS
from ansible_collections.strata.hier.plugins.module_utils.core.merging import merge_documents, merge_layers
from ansible_collections.strata.hier.plugins.module_utils.core.mergers import hash_arrays, maps, scalar_lists
from ansible_collections.strata.hier.plugins.module_utils.core.provenance import Place
from ansible_collections.strata.hier.plugins.module_utils.core.rules import MergeRules
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.contract import containers
from ansible_collections.strata.hier.tests.unit.plugins.module_utils.extended import extended_rules, extended_specs


def general_path():
    """Every fast path of the engine off: the core's one switch."""
    return FAST_PATHS.general()


SCALARS = st.one_of(st.sampled_from(['p', 'q', 'P', '--p', '--q', '!p', 'Name', '']), st.integers(-2, 2),
                    st.floats(allow_nan=False, width=16), st.booleans(), st.none())
KEYS = st.sampled_from(['a', 'b', 'A', 'Name', 'name', 'ip', 'Version', '--a', '--name', '!a', 1, True])
HASH_ITEMS = st.dictionaries(st.sampled_from(['Name', 'name', 'ip', 'Version', 'v', '--v']), SCALARS, max_size=3)
TREES = st.recursive(SCALARS, lambda children: st.one_of(
    st.lists(children, max_size=3),
    st.lists(HASH_ITEMS, min_size=1, max_size=3),
    st.dictionaries(KEYS, children, max_size=4)), max_leaves=14)
LAYERS = st.lists(st.one_of(st.none(), TREES), min_size=1, max_size=4)
WIDE_KEYS = st.sampled_from(['k%d' % index for index in range(10)] + ['--k1', '!k2', 'K0'])
PLAIN_WIDE_MAPS = st.dictionaries(WIDE_KEYS, st.one_of(st.sampled_from(['p', '--p', '']), st.integers(-2, 2)),
                                  min_size=8)
WIDE_MAPS = st.one_of(
    PLAIN_WIDE_MAPS, PLAIN_WIDE_MAPS,
    st.dictionaries(WIDE_KEYS, st.one_of(SCALARS, st.dictionaries(KEYS, SCALARS, max_size=2)), min_size=8))
"""Maps wide enough for the merge of maps of scalars by dict operations, mostly such maps."""
NAMED_ITEMS = st.fixed_dictionaries({'Name': st.one_of(st.sampled_from(['p', 'q', '--p', '--q']), st.integers(0, 2))},
                                    optional={'v': SCALARS, 'o': st.dictionaries(KEYS, SCALARS, max_size=2)})
"""Hash-array items that all hold the tuple key Name."""
MAP_LAYERS = st.lists(st.one_of(st.none(), st.dictionaries(KEYS, TREES, max_size=4)), min_size=1, max_size=4)

PRESETS = st.sampled_from(['MostSpecific', 'hash', 'deep', 'Unique', 'Sum', 'DeepTuple', 'UniqueKeyValTuples'])
DATUM_MAPS = st.fixed_dictionaries({
    'merge_hash': st.sampled_from(['MostSpecific', 'hash', 'deep']),
    'merge_basetype_array': st.sampled_from(['MostSpecific', 'Unique', 'Sum']),
    'merge_hash_array': st.sampled_from(['MostSpecific', 'Sum', 'DeepTuple', 'UniqueKeyValTuples']),
    'merge_options': st.fixed_dictionaries({
        'knockout_prefix': st.sampled_from([None, '--', '!']),
        'tuple_keys': st.sampled_from([['Name'], ['Name', 'Version'], ['ip']]),
    }),
})
EXTENDED_MAPS = extended_specs(prefixes=(None, '--'), tuple_modes=('DeepTuple', 'UniqueKeyValTuples'))
SPECS = st.one_of(PRESETS, DATUM_MAPS, EXTENDED_MAPS)
PATHS = st.sampled_from(['a', 'a/b', 'a/Name', 'ip', 'b/a'])
LOOKUP_OPTIONS = st.dictionaries(st.one_of(PATHS, st.sampled_from(['^a/.*', '^b'])), SPECS, max_size=2)


def build_rules(default, lookup_options, case_insensitive):
    return extended_rules(default, lookup_options, case_insensitive_keys=case_insensitive)


def outcome(function, values, rules, *args):
    try:
        result = function(values, rules, *args)
    except Exception as exc:   # pylint: disable=broad-except  # the same error either way
        return ('error', type(exc).__name__, str(exc))
    if function is _noted:
        return result
    return (result.value, result.found, result.sources, result.warnings)


def both_paths(function, values, rules, *args):
    fast = outcome(function, values, rules, *args)
    with general_path():
        general = outcome(function, values, rules, *args)
    return fast, general


@settings(max_examples=400, deadline=None)
@given(LAYERS, SPECS, LOOKUP_OPTIONS, st.booleans(), st.one_of(st.just(()), PATHS))
def test_fast_paths_agree_with_the_general_path(values, spec, lookup_options, case_insensitive, path):
    rules = build_rules(spec, lookup_options, case_insensitive)
    fast, general = both_paths(merge_layers, values, rules, path)
    assert repr(fast) == repr(general)


@settings(max_examples=300, deadline=None)
@given(MAP_LAYERS, SPECS, LOOKUP_OPTIONS, st.booleans())
def test_fast_paths_agree_on_whole_documents(documents, spec, lookup_options, case_insensitive):
    rules = build_rules(spec, lookup_options, case_insensitive)
    fast, general = both_paths(merge_documents, documents, rules)
    assert repr(fast) == repr(general)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(WIDE_MAPS, st.fixed_dictionaries({'a': WIDE_MAPS}), st.fixed_dictionaries({'a': WIDE_MAPS}),
                          st.none()), min_size=2, max_size=4),
       st.one_of(st.just('deep'), SPECS), st.one_of(st.just({}), LOOKUP_OPTIONS), st.booleans())
def test_fast_paths_agree_on_wide_maps(values, spec, lookup_options, case_insensitive):
    rules = build_rules(spec, lookup_options, case_insensitive)
    fast, general = both_paths(merge_layers, values, rules, ())
    assert repr(fast) == repr(general)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.none(), st.fixed_dictionaries({'a': st.lists(NAMED_ITEMS, min_size=1, max_size=4)})),
                min_size=1, max_size=4),
       st.one_of(SPECS, st.fixed_dictionaries({
           'merge_hash': st.just('deep'),
           'merge_hash_array': st.sampled_from(['DeepTuple', 'UniqueKeyValTuples']),
           'merge_options': st.fixed_dictionaries({'knockout_prefix': st.sampled_from([None, '--']),
                                                   'tuple_keys': st.just(['Name'])})})),
       st.booleans())
def test_fast_paths_agree_on_hash_arrays_with_one_tuple_key(values, spec, case_insensitive):
    rules = build_rules(spec, {}, case_insensitive)
    fast, general = both_paths(merge_layers, values, rules, ())
    assert repr(fast) == repr(general)


FLAT_SCALARS = st.one_of(st.sampled_from(['p', 'q', '--p']), st.integers(-1, 1), st.booleans())
FLAT_LEAVES = st.one_of(st.dictionaries(st.sampled_from(['a', 'b', 'c']), FLAT_SCALARS, max_size=3),
                        st.dictionaries(KEYS, st.one_of(SCALARS, st.lists(SCALARS, max_size=1)), max_size=2))
FLAT_MAPS = st.dictionaries(st.sampled_from(['s', 'p', 'l', 'Name']), st.one_of(FLAT_SCALARS, FLAT_LEAVES, FLAT_LEAVES),
                            max_size=4)
"""Services and hash-array items of layered data: scalars and maps of scalars (no null, keys without a marker), now
and then another value (a null, a marker among the keys, a list) for the general path."""
FLAT_ITEMS = st.fixed_dictionaries({'Name': st.sampled_from(['x', 'y', 'z', 'w'])},
                                   optional={'s': FLAT_LEAVES, 'p': FLAT_SCALARS})


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.fixed_dictionaries({'svc': FLAT_MAPS}, optional={'own': FLAT_MAPS}),
                          st.fixed_dictionaries({'t': st.lists(FLAT_ITEMS, min_size=1, max_size=3)})),
                min_size=1, max_size=4),
       st.one_of(st.just('deep'), st.fixed_dictionaries({
           'merge_hash': st.just('deep'), 'merge_hash_array': st.just('DeepTuple'),
           'merge_options': st.fixed_dictionaries({'knockout_prefix': st.sampled_from([None, '--']),
                                                   'tuple_keys': st.just(['Name'])})}), SPECS),
       st.booleans(), st.booleans())
@example([{'t': [{'Name': 'x', 's': {'a': [1]}}]}, {'t': [{'Name': 'y', 's': {'a': 1}}]}],
         {'merge_hash': 'deep', 'merge_hash_array': 'DeepTuple', 'merge_options': {'tuple_keys': ['Name']}}, False, True)
def test_fast_paths_agree_on_maps_of_maps_of_scalars(values, spec, case_insensitive, warm):
    """Issue 32: maps of scalars and maps of scalars of several layers (MapMerger._flat_merge) and of one layer
    (_merge_each_flat, _merge_all_alone), a scalar of one layer over a map of another, a map holding a null, a marker or
    a list among them; ``warm``: their keys seen unmarked. The result shares no map or list with the inputs."""
    rules = build_rules(spec, {}, case_insensitive)
    if warm:
        merge_layers(values, rules)
    before = copy.deepcopy(values)
    fast, general = both_paths(merge_layers, values, rules, ())
    assert repr(fast) == repr(general)
    assert values == before     # the inputs unchanged, none of their maps and lists in the result
    if fast[0] != 'error':
        assert not set(containers(fast[0])) & set(containers(values))


def _explaining(values, rules, path):
    return merge_layers(values, rules, path, explain=True)


@settings(max_examples=300, deadline=None)
@given(LAYERS, SPECS, LOOKUP_OPTIONS, st.booleans(), st.one_of(st.just(()), PATHS))
def test_explain_merges_as_a_lookup_without_it(values, spec, lookup_options, case_insensitive, path):
    """explain merges without the fast paths (every strategy chosen where its report notes it): the same answer."""
    rules = build_rules(spec, lookup_options, case_insensitive)
    assert repr(outcome(_explaining, values, rules, path)) == repr(outcome(merge_layers, values, rules, path))


def _type_caches():
    return (dict(FAST_PATHS.family_by_type), set(FAST_PATHS.scalar_types), set(FAST_PATHS.value_types),
            set(FAST_PATHS.map_types), dict(FAST_PATHS.identity_by_type))


def test_the_general_path_leaves_the_type_sets_as_they_were():
    before = _type_caches()
    rules = MergeRules('deep')
    with general_path():
        assert not FAST_PATHS.on and not FAST_PATHS.scalar_types and not FAST_PATHS.family_by_type
        merge_layers([{'a': None, 'b': {'c': None}, 'l': [None, 'x']}, {'a': 1, 'b': {'c': 2}, 'l': ['y']}], rules)
        assert not FAST_PATHS.family_by_type and not FAST_PATHS.scalar_types     # it learned nothing either
    assert FAST_PATHS.on and _type_caches() == before
    assert type(None) not in FAST_PATHS.value_types


def test_a_null_in_a_wide_map_is_not_found_after_the_general_path_ran():
    """Hypothesis found it (seed 20): the general path taught VALUE_TYPES null, and the next fast merge of wide
    maps took the most specific null over a less specific value."""
    specific = dict({'k%d' % index: 'p' for index in range(8)}, k0=None)
    general = {'k%d' % index: 'p' for index in range(8)}
    rules = MergeRules('deep')
    both_paths(merge_layers, [{'l': [None, 'x']}, {'l': ['y']}], rules, ())     # a null list item: a new type
    fast, slow = both_paths(merge_layers, [{'a': specific}, {'a': general}], rules, ())
    assert fast == slow and fast[0] == {'a': general}
    assert outcome(merge_layers, [{'a': specific}, {'a': general}], rules) == fast


def test_general_path_is_really_taken():
    """The switches reach the engine: scalars and maps in maps go through the family check of each key."""
    rules = MergeRules('deep')
    layers = [{'a': {'x': 1}, 'b': 'text'}, {'a': {'y': 2}, 'b': 'other'}]
    with mock.patch.object(maps.MapMerger, '_merge_key', autospec=True, side_effect=maps.MapMerger._merge_key) as key:
        assert merge_layers(layers, rules).value == {'a': {'x': 1, 'y': 2}, 'b': 'text'}
        assert not key.called
        with general_path():
            assert merge_layers(layers, rules).value == {'a': {'x': 1, 'y': 2}, 'b': 'text'}
        assert key.called


def test_general_path_is_really_taken_by_lists_and_hash_arrays():
    """The list and hash-array shortcuts (layers of text and numbers, one tuple key, one map copied) are switched
    off too: items go through the picker, item maps through the key collection."""
    unique = MergeRules('unique')
    tuples = MergeRules({'merge_hash_array': 'DeepTuple', 'merge_options': {'tuple_keys': ['Name']}})
    lists = [['b', 'a'], ['a', 'c']]
    items = [[{'Name': 'x', 'o': {'a': 1}}], [{'Name': 'x', 'o': {'b': 2}}, {'Name': 'y'}]]
    for rules, layers, expected, method in (
            (unique, lists, ['b', 'a', 'c'], (scalar_lists._Picker, 'keeps')),
            (tuples, items, [{'Name': 'x', 'o': {'a': 1, 'b': 2}}, {'Name': 'y'}], (maps.MapMerger, 'collect'))):
        with mock.patch.object(*method, autospec=True, side_effect=getattr(*method)) as general:
            assert merge_layers(layers, rules).value == expected
            fast_calls = general.call_count
            with general_path():
                assert merge_layers(layers, rules).value == expected
            assert general.call_count - fast_calls > fast_calls


def test_wide_maps_of_scalars_merge_by_dict_operations():
    """Maps of 8 keys or more holding only scalars skip the key collection, with the same keys, order and values."""
    rules = MergeRules('deep')
    specific = {'k%d' % index: index for index in range(8)}
    general = {'k%d' % index: -index for index in range(12, 4, -1)}
    layers = [{'a': specific}, {'a': general}]
    expected = ['k%d' % index for index in range(8)] + ['k12', 'k11', 'k10', 'k9', 'k8']
    with mock.patch.object(maps, 'collect_simple', wraps=maps.collect_simple) as simple, \
            mock.patch.object(maps.MapMerger, 'collect', autospec=True, side_effect=maps.MapMerger.collect) as collect:
        merged = merge_layers(layers, rules).value['a']
        assert not simple.called and not collect.called     # the top level's keys by MapMerger._merge_tracked
        with general_path():
            assert merge_layers(layers, rules).value['a'] == merged
        assert collect.call_count == 2      # the top level's keys, and 'a' went key by key too
    assert list(merged) == expected and merged == {key: specific.get(key, general.get(key)) for key in expected}


def _noted(values, rules, path):
    """What a merge with provenance notes per path (provenance.Entry), as text to compare."""
    result = merge_layers(values, rules, path, provenance=True)
    if result.provenance is None:
        return result.value
    return result.value, [(shown, entry.place, entry.definitions, entry.rule_path, entry.value,
                           [(removal.place, removal.value, removal.marker) for removal in entry.removed])
                          for shown, entry in result.provenance.entries.items()]


@settings(max_examples=300, deadline=None)
@given(LAYERS, SPECS, LOOKUP_OPTIONS, st.booleans(), st.one_of(st.just(()), PATHS))
def test_provenance_notes_the_same_on_the_general_path(values, spec, lookup_options, case_insensitive, path):
    """The map merger's shortcut for provenance (maps.collect_tracked, keys as written without a knockout marker)
    notes what _Collected's general path notes."""
    rules = build_rules(spec, lookup_options, case_insensitive)
    fast, general = both_paths(_noted, values, rules, path)
    assert repr(fast) == repr(general)


def test_hash_array_items_with_provenance_are_identified_in_c():
    """With provenance too, items whose one tuple key holds plain text or a number, no marker among them, are
    identified without the item by item path (which notes markers and what they remove): as without provenance."""
    rules = MergeRules({'merge_hash_array': 'DeepTuple', 'merge_options': {'tuple_keys': ['Name']}})
    layers = [[{'Name': 'x', 'v': 1}], [{'Name': 'x', 'v': 2}, {'Name': 'y'}]]
    with mock.patch.object(hash_arrays, '_identified', wraps=hash_arrays._identified) as identified:
        fast = _noted(layers, rules, ())
        assert not identified.called
        with general_path():
            assert repr(_noted(layers, rules, ())) == repr(fast)
        assert identified.called
        _noted([[{'Name': '--x'}], [{'Name': 'x'}]], rules, ())      # a marker: item by item
        assert identified.call_count == 4
    assert fast[0] == [{'Name': 'x', 'v': 1}, {'Name': 'y'}]


TEXT_AND_NUMBERS = st.lists(st.one_of(st.sampled_from(['p', 'q', 'P', '--p', '-1', '-p', '!p', '']), st.integers(-3, 3),
                                      st.floats(allow_nan=False, width=16), st.booleans()), max_size=6)
"""Base-type arrays of text and numbers (booleans now and then): Unique's items compared as they are, or not."""


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.none(), TEXT_AND_NUMBERS, st.fixed_dictionaries({'a': TEXT_AND_NUMBERS})),
                min_size=1, max_size=4),
       st.one_of(st.sampled_from(['Unique', 'Sum', 'deep', 'MostSpecific']), st.fixed_dictionaries({
           'merge_basetype_array': st.sampled_from(['Unique', 'Sum', 'MostSpecific']),
           'merge_options': st.fixed_dictionaries({'knockout_prefix': st.sampled_from([None, '--', '-', '!'])})})),
       st.booleans())
def test_fast_paths_agree_on_lists_of_text_and_numbers(values, spec, case_insensitive):
    rules = build_rules(spec, {}, case_insensitive)
    fast, general = both_paths(merge_layers, values, rules, ())
    assert repr(fast) == repr(general)


def test_lists_of_text_and_numbers_merge_in_c():
    """Layers of plain text and numbers (a number in some items) without a marker merge without the picker, the
    same on the general path: Unique keeps the first of equal items (1 and 1.0), a boolean is not the number 1."""
    unique = MergeRules('unique')
    layers = [['b', 1, 'a'], ['a', 1.0, 2, 'c', -1]]
    with mock.patch.object(scalar_lists._Picker, 'keeps', autospec=True, side_effect=scalar_lists._Picker.keeps) as keeps:
        assert merge_layers(layers, unique).value == ['b', 1, 'a', 2, 'c', -1]
        assert not keeps.called
        with general_path():
            assert merge_layers(layers, unique).value == ['b', 1, 'a', 2, 'c', -1]
        assert keeps.called
        assert merge_layers([['--b', 1], ['b', True, 1]], unique).value == [1, True]     # a marker: the general path


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.none(), TEXT_AND_NUMBERS, st.fixed_dictionaries({'a': TEXT_AND_NUMBERS})),
                min_size=1, max_size=4),
       st.sampled_from(['Unique', 'Sum', 'deep', 'MostSpecific',
                        {'merge_basetype_array': 'Unique', 'merge_options': {'knockout_prefix': '-'}}]))
def test_provenance_of_lists_of_text_and_numbers_is_the_general_paths(values, spec):
    """Provenance's shortcut for lists of plain text and numbers (Provenance.plain_items) notes each item, its place
    and Unique's dropped copies as the picker does on the general path."""
    fast, general = both_paths(_noted, values, build_rules(spec, {}, False), ())
    assert repr(fast) == repr(general)


def test_lists_of_text_and_numbers_with_provenance_merge_without_the_picker():
    """With provenance, layers of plain text and numbers without a marker skip the picker too: each item noted with
    its place, the less specific copies Unique dropped as its other definitions."""
    unique = MergeRules('unique')
    layers = [['b', 1, 'a'], ['a', 1.0, 2]]
    with mock.patch.object(scalar_lists._Picker, 'keeps', autospec=True, side_effect=scalar_lists._Picker.keeps) as keeps:
        fast = _noted(layers, unique, ())
        assert not keeps.called
        with general_path():
            assert repr(_noted(layers, unique, ())) == repr(fast)
        assert keeps.called
    entries = dict((shown, (place, definitions)) for shown, place, definitions, *rest in fast[1])
    assert fast[0] == ['b', 1, 'a', 2]
    assert entries[(2,)] == (Place(0, (2,)), [(Place(0, (2,)), 'a'), (Place(1, (0,)), 'a')])
    assert entries[(3,)] == (Place(1, (2,)), [(Place(1, (2,)), 2)])


def test_a_map_of_one_layer_is_copied_without_merge_fast():
    """The usual shape of layered data: most maps of the common layer are in no other layer; each is copied by
    MapMerger._copy's recursion, not through merge_fast per map, and shares nothing with its layer."""
    rules = MergeRules('deep')
    common = {'svc': {'port': 1, 'settings': {'a': 1, 'b': {'c': 2}}}, 'other': {'x': 1}}
    layers = [{'other': {'y': 2}}, common]
    with mock.patch.object(maps.MapMerger, 'merge_fast', autospec=True, side_effect=maps.MapMerger.merge_fast) as fast:
        merged = merge_layers(layers, rules).value
        assert fast.call_count == 1     # 'other', in two layers
    assert merged == {'other': {'y': 2, 'x': 1}, 'svc': common['svc']}
    assert merged['svc'] is not common['svc'] and merged['svc']['settings']['b'] is not common['svc']['settings']['b']


def test_maps_of_one_layer_holding_maps_of_scalars_are_copied_flat():
    """Issue 32, the sparse shape of layered data: a key of one layer is merged without collecting its values, a map
    of one layer holding scalars and maps of scalars (a service, a hash-array item) is copied without a call per map,
    maps of scalars of several layers are merged in the loop over their parent's keys; the same as on the general
    path, sharing nothing with the layers."""
    deep = MergeRules('deep')
    tuples = MergeRules({'merge_hash_array': 'DeepTuple', 'merge_options': {'tuple_keys': ['Name']}})
    common = {'svc%d' % index: {'port': index, 'settings': {'a': 1, 'b': 2}, 'limits': {'cpu': 1}}
              for index in range(maps._FEW_KEYS)}     # more keys than _merge_collected takes
    items = [{'Name': key, 'o': service['settings']} for key, service in common.items()]
    for rules, layers, keyed in ((deep, [{'svc1': {'settings': {'b': 3}}, 'own': 1}, None, common], 1),
                                 (tuples, [[{'Name': 'svc1', 'o': {'b': 3}}], items], 0)):
        merge_layers(layers, rules)     # the keys seen without a marker are learned
        with mock.patch.object(maps.MapMerger, '_copy', autospec=True, side_effect=maps.MapMerger._copy) as copy, \
                mock.patch.object(maps.MapMerger, '_merge_tracked_key', autospec=True,
                                  side_effect=maps.MapMerger._merge_tracked_key) as tracked:
            fast = merge_layers(layers, rules)
            assert not copy.called and tracked.call_count == keyed     # svc1, in two layers
        with general_path():
            general = merge_layers(layers, rules)
        assert repr((fast.value, fast.sources, fast.warnings)) == repr((general.value, general.sources,
                                                                        general.warnings))
    assert fast.value[0] == {'Name': 'svc1', 'o': {'b': 3, 'a': 1}} and fast.value[1]['o'] is not items[0]['o']
    merged = merge_layers([{'svc1': {'settings': {'b': 3}}}, common], deep).value
    assert merged['svc1']['settings'] == {'b': 3, 'a': 1}
    assert merged['svc0']['settings'] is not common['svc0']['settings']


def test_small_maps_overriding_each_other_collect_their_keys_at_once():
    """The looked-up map's keys when the maps are small and hold mostly the same keys (a map of settings overridden
    level by level): collected once (_merge_collected), not merged by a call per key; as on the general path."""
    layers = [{'Dns': '10.0.1.1', 'Gw1': 'x', 'opts': {'a': 1}}, {'Dns': '10.0.0.1', 'Gw0': 'y'},
              {'Dns': '10.0.2.1', 'opts': {'b': [1]}}]
    with mock.patch.object(maps.MapMerger, '_merge_tracked_key', autospec=True,
                           side_effect=maps.MapMerger._merge_tracked_key) as per_key:
        fast = merge_layers(layers, MergeRules('hash'))
        assert not per_key.called
    with general_path():
        general = merge_layers(layers, MergeRules('hash'))
    assert repr((fast.value, fast.sources)) == repr((general.value, general.sources))
    assert fast.value == {'Dns': '10.0.1.1', 'Gw1': 'x', 'opts': {'a': 1}, 'Gw0': 'y'}


def test_maps_of_several_layers_holding_maps_of_scalars_merge_in_one_loop():
    """Issue 32, the sparse shape: a service or a hash-array item of several layers (scalars and maps of scalars) is
    merged in one loop over its items, without collecting its keys (collect_simple) or a call per nested map; the
    containers of one layer at the looked-up path are copied without a call each (_merge_alone); the same as on the
    general path, sharing nothing with the layers."""
    deep = MergeRules('deep')
    tuples = MergeRules({'merge_hash_array': 'DeepTuple', 'merge_options': {'tuple_keys': ['Name']}})
    common = {'svc%d' % index: {'port': index, 'settings': {'a': 1, 'b': 2}, 'limits': {'cpu': 1}} for index in range(3)}
    items = [dict(service, Name=key) for key, service in common.items()]
    for rules, layers in ((deep, [{'svc1': {'settings': {'b': 3}, 'port': 8}}, common]),
                          (tuples, [[{'Name': 'svc1', 'settings': {'b': 3}, 'port': 8}], items])):
        merge_layers(layers, rules)     # the keys seen without a marker are learned
        with mock.patch.object(maps, 'collect_simple', wraps=maps.collect_simple) as collect, \
                mock.patch.object(maps.MapMerger, '_merge_alone', autospec=True,
                                  side_effect=maps.MapMerger._merge_alone) as alone, \
                mock.patch.object(maps.MapMerger, 'merge_nested', autospec=True,
                                  side_effect=maps.MapMerger.merge_nested) as nested:
            fast = merge_layers(layers, rules)
            assert not collect.called and not alone.called and not nested.called
        with general_path():
            general = merge_layers(layers, rules)
        assert repr((fast.value, fast.sources, fast.warnings)) == repr((general.value, general.sources,
                                                                        general.warnings))
    merged = merge_layers([{'svc1': {'settings': {'b': 3}, 'port': 8}}, common], deep).value
    assert merged['svc1'] == {'settings': {'b': 3, 'a': 1}, 'port': 8, 'limits': {'cpu': 1}}
    assert list(merged['svc1']) == ['settings', 'port', 'limits']      # each key where it first appears
    assert merged['svc1']['limits'] is not common['svc1']['limits']
    assert merged['svc0']['settings'] is not common['svc0']['settings']


def test_unique_looks_for_markers_among_the_items_kept():
    """Issue 32: Unique's merge in C looks for knockout markers once, among the items it keeps (every text of the
    lists is among them), not in each list."""
    unique = MergeRules('unique')
    layers = [['a', 'b'], ['b', 3, 'c'], ['a', 'c', 'd']]
    with mock.patch.object(scalar_lists, 'texts_may_hold_markers',
                           wraps=scalar_lists.texts_may_hold_markers) as markers:
        assert merge_layers(layers, unique).value == ['a', 'b', 3, 'c', 'd']
    assert [call.args[0] for call in markers.call_args_list] == [['a', 'b', 3, 'c', 'd']]
    assert merge_layers([['a'], ['b', 3, '--a'], ['a']], unique).value == ['a', 'b', 3]     # a marker: the general path


class _Text(str):
    """A str subclass, as ansible-core's tagged and unsafe text is: not plain, compared by the general path."""


class _Number(int):
    """An int subclass, as ansible-core 2.19's tagged numbers are."""


class _Opaque:
    """A value the fast path must neither hash nor compare before it tells it is not plain (a vault value would be
    decrypted)."""

    def __hash__(self):
        raise AssertionError('hashed')

    def __eq__(self, other):
        raise AssertionError('compared')


def test_plain_lists_tells_text_alone_from_text_and_numbers_by_exact_type():
    """Issue 32: lists of text alone are told by counting their type, lists with a number by issuperset; a boolean,
    None, a str or int subclass, an opaque value or a container is not plain wherever it is (after lists of text alone,
    where the count falls back to issuperset, or after a list with a number, checked by issuperset alone)."""
    plain = scalar_lists.plain_lists
    assert plain([['a', 'b'], [], ['c']]) is True
    assert plain([['a'], ['b', 1, 2.5]]) is False
    assert plain([['a', -1], ['b']]) is False
    for odd in (True, False, None, _Text('b'), _Number(1), _Opaque(), ['x'], {'x': 1}):
        assert plain([['a'], ['b', odd]]) is None
        assert plain([['a', 1], ['b', odd]]) is None
        assert plain([[odd], ['a']]) is None
    with general_path():
        assert plain([['a']]) is None


LISTS_OF_TEXT_AND_NUMBERS = [       # layers, knockout prefix, whether the merge in C may take them
    ([['b', 1, 2.5], ['a', 1.0, 'b', 3]], '--', True),
    ([['b', 'c'], ['a', 'b']], '--', True),
    ([['a', 1], ['b', True, 1]], '--', False),          # a boolean is not the number 1
    ([['a', 1], [_Text('a'), 'c']], '--', False),       # tagged text is not plain
    ([['--a', 1, 'b'], ['a', 2]], '--', False),         # the first text of all a marker
    ([['--a', 'b'], ['a', 'c']], '--', False),          # the same in text alone
    ([['b', 1], [2.5, '--b', 'c']], '--', False),       # a marker after numbers, in a less specific list
    ([['a', 'b'], ['c', '--a']], '--', False),
    ([['a-b', 1], ['c--d', 'a-b']], '--', True),        # the prefix inside texts, not at their start
    ([['a', -1], ['b', -2.5]], '-', True),              # a negative number is no marker
    ([['a', -1], ['-b', 'a']], '-', False),
    ([['a\n--b', 2], ['c']], '--', False),              # a false alarm (the texts are joined by newlines)
    ([['!a', 1], ['b']], '!!', True),                   # the prefix's first character, not the prefix
    ([['!a', 1], ['!!b', 'a']], '!!', False),
]


def test_unique_and_sum_of_text_and_numbers_in_c_agree_with_the_general_path():
    """Issue 32: lists of text and numbers, with and without markers (at the start of the first text, after numbers,
    in text alone, inside texts): the merge in C takes only those without a marker or anything not plain, and keeps
    what the general path keeps."""
    for layers, prefix, in_c in LISTS_OF_TEXT_AND_NUMBERS:
        for mode in ('Unique', 'Sum'):
            rules = MergeRules({'merge_basetype_array': mode, 'merge_options': {'knockout_prefix': prefix}})
            with mock.patch.object(scalar_lists._Picker, 'keeps', autospec=True,
                                   side_effect=scalar_lists._Picker.keeps) as keeps:
                fast = outcome(merge_layers, copy.deepcopy(layers), rules)
            with general_path():
                general = outcome(merge_layers, copy.deepcopy(layers), rules)
            assert repr(fast) == repr(general), (layers, prefix, mode)
            assert keeps.called != in_c, (layers, prefix, mode)
            fast_noted, general_noted = both_paths(_noted, copy.deepcopy(layers), rules, ())
            assert repr(fast_noted) == repr(general_noted), (layers, prefix, mode)


def test_unique_of_text_and_numbers_looks_for_markers_among_its_texts_at_once():
    """Issue 32: with a number among the items, their texts are joined once (not first all items, whose join a number
    makes fail); text alone is joined as it is."""
    unique = MergeRules('unique')
    with mock.patch.object(scalar_lists, 'may_hold_markers', wraps=maps.may_hold_markers) as markers:
        assert merge_layers([['a', 1], ['b', 2.5, 'a']], unique).value == ['a', 1, 'b', 2.5]
        assert merge_layers([['a', 'c'], ['b', 'a']], unique).value == ['a', 'c', 'b']
    assert [call.args[0] for call in markers.call_args_list] == [['a', 'b'], ['a', 'c', 'b']]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet='a-!\n', max_size=4), max_size=5),
       st.sampled_from(['-', '--', '!', '!!', 'a', '\n', '\n-', '-\n', '']))
def test_may_hold_markers_finds_what_a_search_of_each_line_start_finds(texts, prefix):
    """may_hold_markers looks for the prefix's first character before it searches the whole prefix: the answer of
    the search after a newline of every text, as the search was before (a text starting with it, or a line)."""
    assert maps.may_hold_markers(texts, prefix) == (bool(texts) and ('\n' + '\n'.join(texts)).find('\n' + prefix) >= 0)
