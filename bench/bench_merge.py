# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Merge-core benchmark: every figure is a ratio against a baseline timed in the same run.

- deep merge of 8 layers (~20k leaves each, 4 levels) vs a plain recursive dict merge;
- DeepTuple at 2n items vs n items (linear time means ~2x);
- DeepTuple and Unique against the hand-written merges a script would do (issue 13: <= 2.5x);
- ansible.builtin.combine(recursive=True, list_merge='append_rp') on the same layers, for reference.

Run with the collection importable as ansible_collections.strata.hier (scripts/bench does that).
"""

from __future__ import annotations

import argparse
import functools
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
    groups: dict = {}
    for items in lists:
        for item in items:
            groups.setdefault(item['Name'], []).append(item)
    result = []
    for group in groups.values():
        merged: dict = {}
        for item in reversed(group):
            deep_update(merged, item)
        result.append(merged)
    return result


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


def best_of(func, repeat: int) -> float:
    """The least CPU time of ``repeat`` runs: CPU time, which other work on a shared machine disturbs far less."""
    times = []
    for _attempt in range(repeat):
        start = time.process_time()
        func()
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--repeat', type=int, default=5)
    args = parser.parse_args()
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
