# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Positions of key paths (source_lines.py): each file's spans are worked out once into a table of plain tuples,
the composed nodes let go. The table answers as a walk of the composed nodes does (``walked``, written here as the
reference), over every YAML file of the collection and documents built to hold aliases, keys written twice, keys
that differ by case, lists, scalars and paths that do not exist."""

from __future__ import annotations

import gc
import os

import pytest
import yaml
from hypothesis import given, settings, strategies as st

from ansible_collections.strata.hier.plugins.plugin_utils import source_lines
from ansible_collections.strata.hier.plugins.plugin_utils.source_lines import Positions

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..', '..'))     # the collection


def walked(node, keys, deepest, case_insensitive=False):
    """The span of ``keys`` by walking the composed nodes (what Positions answered before its table)."""
    mark = None
    for key in keys:
        if isinstance(node, yaml.SequenceNode) and isinstance(key, int) and 0 <= key < len(node.value):
            node = node.value[key]
            mark = node.start_mark
            continue
        match = None
        if isinstance(node, yaml.MappingNode):
            match = next(((k, v) for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == str(key)),
                         None)
            if match is None and case_insensitive:
                match = next(((k, v) for k, v in node.value
                              if isinstance(k, yaml.ScalarNode) and k.value.casefold() == str(key).casefold()), None)
        if match is None:
            mark = mark if deepest else None
            break
        mark, node = match[0].start_mark, match[1]
    if mark is None:
        return (None, None, None)
    end = node.end_mark
    return (mark.line + 1, mark.column + 1, max(mark.line + 1, end.line + (1 if end.column else 0)))


def key_paths(node, prefix=(), depth=0):
    """Every key path of a composed document (an alias followed twice at most), and paths just off them."""
    yield prefix
    if depth > 6:
        return
    if isinstance(node, yaml.MappingNode):
        yield prefix + ('no such key',)
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode):
                yield from key_paths(value, prefix + (key.value,), depth + 1)
                yield prefix + (key.value.upper(),)
    elif isinstance(node, yaml.SequenceNode):
        yield prefix + (len(node.value),)
        yield prefix + ('0',)
        for index, item in enumerate(node.value):
            yield from key_paths(item, prefix + (index,), depth + 1)
    else:
        yield prefix + ('below a scalar',)


def same_answers(tmp_path, text, case_insensitive=False):
    path = tmp_path / 'data.yml'
    path.write_text(text)
    node = yaml.compose(text, Loader=yaml.SafeLoader)
    positions = Positions(case_insensitive)
    checked = 0
    for keys in key_paths(node):
        for deepest in (False, True):
            assert positions.span(str(path), keys, deepest) == walked(node, keys, deepest, case_insensitive), keys
            checked += 1
    return checked


DOCUMENTS = [
    'a: &x {b: 1, c: [1, 2]}\nd: *x\ne:\n  - *x\n  - {b: 2}\n',         # aliases of a map
    'l: &l [a, {k: v}]\nm: [*l, *l]\n',                                 # an alias of a list, twice
    'a: 1\na: 2\nb: {c: 1, c: 2}\n',                                     # keys written twice
    'Key: 1\nkey: 2\nOther: {Inner: x}\n',                               # keys differing by case
    '- a\n- {b: [1, 2], c: null}\n- - x\n  - y\n',                       # a list at the top
    'just a scalar\n',
    '',
    'a: |\n  text\n  more\nb: >-\n  folded\nc: "q"\nd:\n  e: f\n',       # blocks: their last lines
    '? [complex, key]\n: value\nplain: 1\n1: number key\ntrue: bool key\n',
]


@pytest.mark.parametrize('text', DOCUMENTS)
@pytest.mark.parametrize('case_insensitive', [False, True])
def test_the_table_answers_as_the_walk_of_the_nodes(tmp_path, text, case_insensitive):
    assert same_answers(tmp_path, text, case_insensitive) > 0


def test_every_yaml_file_of_the_collection_is_answered_as_the_walk(tmp_path):
    checked = 0
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [name for name in dirs if not name.startswith('.') and name != 'output']     # not tests/output
        for name in files:
            if name.endswith(('.yml', '.yaml')):
                with open(os.path.join(folder, name), encoding='utf-8') as stream:
                    text = stream.read()
                try:
                    yaml.compose(text, Loader=yaml.SafeLoader)
                except yaml.YAMLError:
                    continue        # several documents, tags or broken on purpose: not a data file
                checked += same_answers(tmp_path, text)
    assert checked > 1000


SCALARS = st.one_of(st.sampled_from(['a', 'A', 'b', '1', 'x y', '']), st.integers(-1, 3), st.booleans(), st.none())
VALUES = st.recursive(SCALARS, lambda children: st.one_of(
    st.lists(children, max_size=3), st.dictionaries(st.sampled_from(['a', 'A', 'b', 'c', 'Name']), children,
                                                    max_size=3)), max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(VALUES, st.booleans(), st.booleans())
def test_generated_documents_are_answered_as_the_walk(tmp_path_factory, value, flow, case_insensitive):
    text = yaml.safe_dump(value, default_flow_style=flow)
    same_answers(tmp_path_factory.mktemp('doc'), text, case_insensitive)


def test_a_cached_file_keeps_no_node_for_the_cycle_collector(tmp_path):
    """What a thousand cached files cost every collection: no composed node, mark or per-value object is kept, only
    tuples of plain values (which the collector stops tracking)."""
    path = tmp_path / 'data.yml'
    path.write_text(''.join('key%d: {a: [1, 2], b: {c: text}}\n' % index for index in range(200)))
    positions = Positions()
    assert positions.span(str(path), ['key7', 'b', 'c'], False) == (8, 23, 8)
    spans = positions._files[str(path)][1]
    assert isinstance(spans, source_lines._Spans)
    pending, seen = [spans.__dict__], 0
    while pending:
        value = pending.pop()
        seen += 1
        assert not isinstance(value, (yaml.Node, yaml.Mark)), value
        if isinstance(value, dict):
            pending.extend(value.keys())
            pending.extend(value.values())
        elif isinstance(value, (tuple, set, frozenset, list)):
            pending.extend(value)
        else:
            assert value is None or isinstance(value, (str, int)), value
    assert seen > 2000
    gc.collect()
    assert not gc.is_tracked(next(iter(spans.spans.values())))
