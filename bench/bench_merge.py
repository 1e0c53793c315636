# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Merge-core benchmark: every figure is a ratio against a baseline timed in the same run.

- deep merge of 8 layers (~20k leaves each, 4 levels) vs a plain recursive dict merge;
- DeepTuple at 2n items vs n items (linear time means ~2x);
- DeepTuple and Unique against the hand-written merges a script would do (issue 13: <= 2.5x);
- ansible.builtin.combine(recursive=True, list_merge='append_rp') on the same layers, for reference;
- the sparse shape of layered data (issue 32): four layers (common, role, environment, node), the more specific
  ones overriding scattered keys, for maps (deep), a list of maps merged by a tuple key (DeepTuple), a Unique list
  of strings and one with a number in ten items, each against the copying floor: a hand-written merge that builds
  every map and list of the result anew, as strata's contract requires (no sharing with its inputs; issue 32:
  <= 1.5x), and its growth exponent from n to 4n (<= 1.15); the dense shape against the same floor;
- n keys resolved against n/10 regex rules (lookup_options keys starting with ^): the growth exponent (<= 1.15).

Run with the collection importable as ansible_collections.strata.hier (scripts/bench does that).
"""

from __future__ import annotations

import argparse
import functools
import math
import random
import time

from ansible_collections.strata.hier.plugins.module_utils.core.merging import merge_documents, merge_layers
from ansible_collections.strata.hier.plugins.module_utils.core.rules import MergeRules

LAYERS = 8
FANOUT = (13, 13, 13, 13)     # 4 levels, ~85% of the two lower levels present: ~20k leaves
HASH_ITEMS = 5000


def nested_layer(rng: random.Random, layer: int) -> dict:
    """A 4-level tree; each layer holds ~70% of the full key space with its own values."""
    def level(depth: int, prefix: str):
        if depth == len(FANOUT):
            return '%s=%d' % (prefix, layer)
        return {'k%d' % i: level(depth + 1, '%s.%d' % (prefix, i))
                for i in range(FANOUT[depth]) if depth < 2 or rng.random() < 0.85}
    return level(0, 'r')


def leaves(tree) -> int:
    return sum(leaves(value) for value in tree.values()) if isinstance(tree, dict) else 1


def hash_array_layers(items: int, layers: int = LAYERS) -> list:
    """Lists of maps, 50% of each layer's tuples also in the next layer."""
    result = []
    for layer in range(layers):
        start = layer * items // 2
        result.append([{'Name': 'pkg%d' % i, 'Version': '1', 'Layer%d' % layer: True, 'Opts': {'l': layer}}
                       for i in range(start, start + items)])
    return result


def plain_merge(base: dict, override: dict) -> dict:
    """The usual hand-written recursive merge: override wins, maps recurse."""
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = plain_merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def hand_deep_tuple(lists: list) -> list:
    """The usual hand-written DeepTuple: items grouped by Name (most specific first), each group merged into a new
    map (a merge must share no container with its inputs, which other hosts' merges share)."""
    return copying_tuples(lists, 'Name')


def deep_update(target: dict, source: dict) -> None:
    """Merge ``source`` into ``target``, copying its maps and lists."""
    for key, value in source.items():
        if isinstance(value, dict):
            inner = target.get(key)
            if not isinstance(inner, dict):
                inner = target[key] = {}
            deep_update(inner, value)
        else:
            target[key] = list(value) if isinstance(value, list) else value


def unique_layers(items: int, layers: int = LAYERS) -> list:
    """Lists of strings, 50% of each layer's items also in the next layer."""
    return [['item%d' % i for i in range(layer * items // 2, layer * items // 2 + items)] for layer in range(layers)]


def hand_unique(lists: list) -> list:
    """The usual hand-written Unique: the items of the lists (most specific first) without repeats."""
    seen: set = set()
    result = []
    for items in lists:
        for item in items:
            if item not in seen:
                seen.add(item)
                result.append(item)
    return result


SPARSE_SIZE = 2000
"""The sparse shape's n: top-level keys of the maps, items of the lists."""
SPARSE_SHARES = (0.02, 0.05, 0.10)
"""The share of the common layer's keys or items the node, environment and role layers override."""


def sparse_maps(rng: random.Random, size: int) -> list:
    """Maps of four layers, most specific first: common holds ``size`` services (two nested maps of scalars each),
    each more specific layer overrides a few scattered leaves of some of them and adds a service of its own."""
    common = {'svc%d' % index: {'port': 8000 + index, 'enabled': True,
                                'settings': {'opt%d' % key: 'value%d' % key for key in range(8)},
                                'limits': {'cpu': 2, 'memory': '1G', 'files': 1024}} for index in range(size)}
    layers = [common]
    for share in SPARSE_SHARES[::-1]:
        layer: dict = {}
        for index in rng.sample(range(size), int(size * share)):
            service = layer['svc%d' % index] = {}
            for key in rng.sample(range(8), rng.randint(1, 2)):
                service.setdefault('settings', {})['opt%d' % key] = 'override%d' % len(layers)
            if rng.random() < 0.3:
                service['limits'] = {'memory': '%dG' % len(layers)}
        layer['own%d' % len(layers)] = {'enabled': False, 'settings': {'opt0': 'x'}}
        layers.append(layer)
    return layers[::-1]


def sparse_tuples(rng: random.Random, size: int) -> list:
    """Lists of maps of four layers, most specific first, merged by the tuple key ``name``: common lists ``size``
    packages, each more specific layer overrides a field of some of them (in its own order) and adds one."""
    common = [{'name': 'pkg%d' % index, 'version': '1.0', 'state': 'present', 'options': {'a': 1, 'b': 2}}
              for index in range(size)]
    layers = [common]
    for share in SPARSE_SHARES[::-1]:
        layer = [{'name': 'pkg%d' % index, 'version': '%d.0' % len(layers)} if rng.random() < 0.5
                 else {'name': 'pkg%d' % index, 'options': {'b': len(layers)}}
                 for index in rng.sample(range(size), int(size * share))]
        layer.append({'name': 'own%d' % len(layers), 'version': '1'})
        layers.append(layer)
    return layers[::-1]


def sparse_unique(rng: random.Random, size: int, numbers: bool = False) -> list:
    """Lists of four layers for Unique, most specific first: common lists ``size`` items, each more specific
    layer repeats some of them and adds as many of its own; ``numbers``: one item in ten is a number."""
    def item(index: int):
        return index if numbers and index % 10 == 3 else 'item%d' % index
    layers = [[item(index) for index in range(size)]]
    for share in SPARSE_SHARES[::-1]:
        count = int(size * share)
        layers.append([item(index) for index in rng.sample(range(size), count)]
                      + [item(size * len(layers) + index) for index in range(count)])
    return layers[::-1]


def copying_merge(maps: list) -> dict:
    """The copying floor of a deep merge (maps most specific first): every map of the result built anew."""
    result: dict = {}
    for mapping in reversed(maps):
        deep_update(result, mapping)
    return result


def copying_tuples(lists: list, key: str = 'name') -> list:
    """The copying floor of DeepTuple by one tuple key: hand_deep_tuple's grouping, every map built anew."""
    groups: dict = {}
    for items in lists:
        for item in items:
            groups.setdefault(item[key], []).append(item)
    result = []
    for group in groups.values():
        merged: dict = {}
        for item in reversed(group):
            deep_update(merged, item)
        result.append(merged)
    return result


def best_of(func, repeat: int) -> float:
    """The least CPU time of ``repeat`` runs: CPU time, which other work on a shared machine disturbs far less."""
    times = []
    for _attempt in range(repeat):
        start = time.process_time()
        func()
        times.append(time.process_time() - start)
    return min(times)


def taking_turns(funcs, repeat: int) -> list:
    """The least CPU time of each function over ``repeat`` rounds, the functions taking turns within each round:
    a ratio of two of them is a same-run figure even when other work comes and goes."""
    times = [[] for _func in funcs]
    for _round in range(repeat):
        for func, measured in zip(funcs, times):
            start = time.process_time()
            func()
            measured.append(time.process_time() - start)
    return [min(measured) for measured in times]


def exponent(at_n: float, at_4n: float) -> float:
    """The growth exponent between n and 4n: 1 is linear."""
    return math.log(at_4n / at_n) / math.log(4)


SPARSE_SHAPES = (      # name, strategy, layers of size n, floor, n as a multiple of SPARSE_SIZE
    ('maps (deep)', 'deep', sparse_maps, copying_merge, 1),
    ('list of maps (DeepTuple by name)', {'merge_hash_array': 'DeepTuple', 'merge_options': {'tuple_keys': ['name']}},
     sparse_tuples, copying_tuples, 1),
    ('Unique list of strings', 'unique', sparse_unique, hand_unique, 5),   # a list of scalars merges in ~0.2 ms at 1x
    ('Unique list, 1 in 10 a number', 'unique', functools.partial(sparse_unique, numbers=True), hand_unique, 5),
)


def sparse_shape(repeat: int, size: int = SPARSE_SIZE) -> None:
    """The sparse shape: strata against the copying floor at n, and both at 4n for the growth exponents."""
    shares = '/'.join('%d%%' % (share * 100) for share in SPARSE_SHARES)
    print('sparse shape: 4 layers (common, role, environment, node), the node, environment and role layers override '
          '%s of the common layer\'s n keys or items; n to 4n' % shares)
    for name, spec, generate, floor, factor in SPARSE_SHAPES:
        rules = MergeRules(spec)
        small, large = generate(random.Random(7), factor * size), generate(random.Random(7), 4 * factor * size)
        for values in (small, large):
            assert merge_layers(values, rules).value == floor(values), name
        core, hand, core_4n, hand_4n = taking_turns([
            lambda: merge_layers(small, rules), lambda: floor(small),
            lambda: merge_layers(large, rules), lambda: floor(large)], repeat)
        print('  %-33s n=%-6d strata %7.2f ms, copying floor %7.2f ms: ratio %.2fx (4n: %.2fx; target <= 1.5x), '
              'exponent %.2f (floor %.2f; target <= 1.15)'
              % (name, factor * size, core * 1000, hand * 1000, core / hand, core_4n / hand_4n,
                 exponent(core, core_4n), exponent(hand, hand_4n)))


def rule_keys(size: int) -> tuple:
    """``size`` key paths and lookup_options of ``size // 10`` regex rules, each rule matching some of the keys."""
    rules = {'^app%d/.*' % index: 'deep' for index in range(size // 10)}
    keys = ['app%d/key%d' % (index % (size // 5), index) for index in range(size)]     # half of them match a rule
    return rules, keys


def rules_growth(repeat: int, size: int = 1000) -> None:
    """n keys resolved against n/10 regex rules, at n and 4n (the rules' cache emptied each time)."""
    measured = []
    for count in (size, 4 * size):
        lookup_options, keys = rule_keys(count)
        paths = [tuple(key.split('/')) for key in keys]

        def resolve_all(lookup_options=lookup_options, paths=paths) -> None:
            rules = MergeRules('deep', lookup_options)
            for path in paths:
                rules.resolve(path)
        measured.append(resolve_all)
    at_n, at_4n = taking_turns(measured, repeat)
    print('rules: %d keys against %d regex rules %7.2f ms; 4n %7.2f ms: exponent %.2f (target <= 1.15)'
          % (size, size // 10, at_n * 1000, at_4n * 1000, exponent(at_n, at_4n)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--repeat', type=int, default=5)
    parser.add_argument('--only', choices=('sparse', 'rules'), help='run only the sparse shape or the rules')
    args = parser.parse_args()
    if args.only != 'rules':
        sparse_shape(args.repeat)
    if args.only != 'sparse':
        rules_growth(args.repeat)
    if args.only:
        return
    rng = random.Random(42)
    layers = [nested_layer(rng, layer) for layer in range(LAYERS)]     # least specific first
    most_specific_first = layers[::-1]
    deep = MergeRules('deep')

    # sanity: the core agrees with the plain merge on maps of scalars
    assert merge_documents(most_specific_first, deep).value == functools.reduce(plain_merge, layers)

    plain = best_of(lambda: functools.reduce(plain_merge, layers), args.repeat)
    core = best_of(lambda: merge_documents(most_specific_first, deep), args.repeat)
    print('layers: %d, leaves per layer: ~%d' % (LAYERS, sum(leaves(layer) for layer in layers) // LAYERS))
    print('plain recursive dict merge      %8.1f ms' % (plain * 1000))
    print('strata deep merge (tree)        %8.1f ms   ratio %.2fx  (target <= 1.5x)' % (core * 1000, core / plain))
    assert merge_documents(most_specific_first, deep).value == copying_merge(most_specific_first)
    core, copying = taking_turns([lambda: merge_documents(most_specific_first, deep),
                                  lambda: copying_merge(most_specific_first)], args.repeat)
    print('copying floor (every map anew)  %8.1f ms; strata %.1f ms: ratio %.2fx  (issue 32: <= 1.5x)'
          % (copying * 1000, core * 1000, core / copying))

    tuple_rules = MergeRules({'merge_hash_array': 'DeepTuple', 'merge_options': {'tuple_keys': ['Name']}})
    small = hash_array_layers(HASH_ITEMS)[::-1]
    large = hash_array_layers(2 * HASH_ITEMS)[::-1]
    assert len(merge_layers(small, tuple_rules).value) == HASH_ITEMS * (LAYERS + 1) // 2
    at_n = best_of(lambda: merge_layers(small, tuple_rules), args.repeat)
    at_2n = best_of(lambda: merge_layers(large, tuple_rules), args.repeat)
    print('DeepTuple, %5d items per layer %8.1f ms' % (HASH_ITEMS, at_n * 1000))
    print('DeepTuple, %5d items per layer %8.1f ms   ratio %.2fx  (target <= 2.3x)'
          % (2 * HASH_ITEMS, at_2n * 1000, at_2n / at_n))

    hand_tuples = best_of(lambda: hand_deep_tuple(small), args.repeat)
    assert [item['Name'] for item in hand_deep_tuple(small)] == \
        [item['Name'] for item in merge_layers(small, tuple_rules).value]
    print('hand-written DeepTuple merge     %8.1f ms; DeepTuple ratio %.2fx  (target <= 2.5x)'
          % (hand_tuples * 1000, at_n / hand_tuples))
    unique_rules = MergeRules('unique')
    scalar_lists = unique_layers(HASH_ITEMS * 4)[::-1]
    assert merge_layers(scalar_lists, unique_rules).value == hand_unique(scalar_lists)
    unique = best_of(lambda: merge_layers(scalar_lists, unique_rules), args.repeat)
    hand = best_of(lambda: hand_unique(scalar_lists), args.repeat)
    print('Unique, %5d items per layer     %8.1f ms; hand-written %.1f ms; ratio %.2fx  (target <= 2.5x)'
          % (HASH_ITEMS * 4, unique * 1000, hand * 1000, unique / hand))

    try:
        from ansible.plugins.filter.core import combine
    except ImportError:
        print('ansible.builtin.combine: ansible-core not importable, skipped')
        return
    combined = best_of(lambda: combine(*layers, recursive=True, list_merge='append_rp'), args.repeat)
    print('ansible.builtin.combine         %8.1f ms   ratio %.2fx of plain; strata is %.2fx of combine'
          % (combined * 1000, combined / plain, core / combined))
    wrapped = [{'Packages': items} for items in hash_array_layers(HASH_ITEMS)]
    combined_lists = best_of(lambda: combine(*wrapped, recursive=True, list_merge='append_rp'), 1)  # quadratic: once
    print('combine append_rp, %5d items    %8.1f ms   (no item merging); DeepTuple is %.2fx of it'
          % (HASH_ITEMS, combined_lists * 1000, at_n / combined_lists))


if __name__ == '__main__':
    main()
