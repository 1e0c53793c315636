# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fuzz target of Deckhand substitution, as a document writer sees it: random src and dest paths, src.pattern and
dest.pattern (match groups, recurse depths), sources that are abstract, missing, encrypted, vault values or other
substituted documents (chains, cycles), through the layer_documents filter (documents loaded by DataLoader, vault
values included). The oracle is surfaces.py's (docs/security.md); test_fuzz_core.py covers layering.
STRATA_FUZZ_EXAMPLES sets the examples per test; ``scripts/fuzz`` runs many.
"""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given, strategies as st

from ansible.errors import AnsibleFilterError

from ansible_collections.strata.hier.plugins.filter.layer_documents import layer_documents
from ansible_collections.strata.hier.tests.unit.plugins.plugin_utils.surfaces import (
    FINDINGS, FUZZ, INLINE_SECRET, INLINE_VAULT, allowance, bounded, check_warnings, line_limit, loader, metered,
    shows, size_of, started, warnings_kept,
)

PATHS = ['.', '.a', '.a.b', '.a[0]', '.a[3]', "['a']", '$.a', '$', '.x', 'a.b', '.a[1].b', '..', 'bad path', '.[0]',
         '.values.password', ".'a.b'", '.a[12]', '.b', 5, '.a[-1]', '.a.b.c.d', '.data']
PATTERNS = ['PASSWORD', 'a+', r'(\w+)@', '^', '$', '[', '(?P<x>a)', '.*', '', 'a|b', '(a)(b)?', 'X', r'\d{2,}',
            '((a)+b)', '(?=a)', 5]
HOSTILE_PATTERNS = ['((a+))+$', '(a|a)+$', '(a|aa)+$', '(a*)*$', '(?:a+)+$', '(a+)+$', '(.*a){12}$']
"""Patterns whose backtracking match takes exponential time (issue 25, finding 7): refused."""
TEXTS = st.sampled_from(['PASSWORD', 'aaaaaaaaaaaa', 'user@host', 'x', '', 'PASSWORD and PASSWORD', 'ab', '12345',
                         'INLINE', 'X'])
SCALARS = st.one_of(TEXTS, st.integers(-1, 3), st.booleans(), st.none())
DATA = st.recursive(SCALARS, lambda children: st.one_of(
    st.lists(children, max_size=3), st.dictionaries(st.sampled_from(['a', 'b', 'x', 'values', 'password', 'a.b']),
                                                    children, max_size=3)), max_leaves=8)
NAMES = ['s0', 's1', 'd0', 'd1', 'd2', 'missing']
POLICY = {'schema': 'deckhand/LayeringPolicy/v1', 'metadata': {'schema': 'metadata/Control/v1', 'name': 'policy'},
          'data': {'layerOrder': ['global', 'site']}}


@st.composite
def substitution(draw, patterns):
    src = {'schema': draw(st.sampled_from(['a/S/v1', 'a/D/v1'])), 'name': draw(st.sampled_from(NAMES)),
           'path': draw(st.sampled_from(PATHS))}
    if draw(st.integers(0, 2)) == 0:
        src['pattern'] = draw(st.sampled_from(patterns))
        if draw(st.booleans()):
            src['match_group'] = draw(st.sampled_from([0, 1, 2, -1, 'x', True]))
    dests = []
    for _dest in range(draw(st.integers(1, 3))):
        dest = {'path': draw(st.sampled_from(PATHS))}
        if draw(st.booleans()):
            dest['pattern'] = draw(st.sampled_from(patterns))
            if draw(st.booleans()):
                dest['recurse'] = {'depth': draw(st.sampled_from([-1, 0, 1, 2, -2, 'x']))}
        dests.append(dest)
    return {'src': src, 'dest': dests[0] if len(dests) == 1 and draw(st.booleans()) else dests}


def document(schema, name, data, layer='site', **metadata):
    return {'schema': schema, 'metadata': dict({'schema': 'metadata/Document/v1', 'name': name,
                                                'layeringDefinition': {'layer': layer}}, **metadata), 'data': data}


@st.composite
def documents(draw):
    patterns = PATTERNS
    docs = [POLICY]
    for index in range(draw(st.integers(1, 2))):
        abstract = {'layeringDefinition': {'layer': 'site', 'abstract': True}} if draw(st.integers(0, 5)) == 0 else {}
        docs.append(document('a/S/v1', 's%d' % index, draw(DATA),
                             storagePolicy=draw(st.sampled_from(['cleartext', 'encrypted'])), **abstract))
    for index in range(draw(st.integers(1, 3))):
        docs.append(document('a/D/v1', 'd%d' % index, draw(DATA),
                             substitutions=draw(st.lists(substitution(patterns), min_size=1, max_size=3))))
    return docs


@st.composite
def hostile_pattern(draw):
    """Documents that render but for one hostile pattern (src.pattern or dest.pattern), which must be refused."""
    pattern = draw(st.sampled_from(HOSTILE_PATTERNS))
    where = draw(st.sampled_from(['src', 'dest']))
    item = {'src': {'schema': 'a/S/v1', 'name': 's0', 'path': '.'}, 'dest': {'path': '.a'}}
    item[where]['pattern'] = pattern
    return [POLICY, document('a/S/v1', 's0', 'aaaa'), document('a/D/v1', 'd0', {'a': 'aaaa'}, substitutions=[item])], pattern


@st.composite
def doubling(draw):
    """Documents c0..cN, each substituting the one before into both halves of its own text: the text doubles."""
    length = draw(st.integers(20, 23))     # 2 ** 21 characters and more: past the expansion budget
    docs = [POLICY, document('a/C/v1', 'c0', {'t': 'XX'})]
    for index in range(1, length):
        docs.append(document('a/C/v1', 'c%d' % index, {'t': 'XX'}, substitutions=[
            {'src': {'schema': 'a/C/v1', 'name': 'c%d' % (index - 1), 'path': '.t'},
             'dest': {'path': '.t', 'pattern': 'X'}}]))
    return docs


@st.composite
def padding(draw):
    """A dest.path with a big list index: Deckhand pads the list with empty maps up to it."""
    index = draw(st.integers(1200000, 1300000))     # past the expansion budget (1,000,000 values)
    return [POLICY, document('a/S/v1', 's0', 'x'), document('a/D/v1', 'd0', {}, substitutions=[
        {'src': {'schema': 'a/S/v1', 'name': 's0', 'path': '.'}, 'dest': {'path': '.a[%d]' % index}}])]


def loaded(docs):
    """The documents as the filter gets them from a YAML file: DataLoader's values, vault values included."""
    text = yaml.safe_dump(docs).replace("'INLINE'", INLINE_VAULT).replace('INLINE', INLINE_VAULT)
    return loader().load(text), len(text.encode('utf-8'))


def fuzz_documents(docs, refused=None):
    data, written = loaded(docs)
    start = started()
    with warnings_kept() as warnings:
        try:
            result = metered(lambda: layer_documents(data), line_limit(written))
        except AnsibleFilterError as exc:
            message = str(exc)
            assert message.startswith('layer_documents: ') and INLINE_SECRET not in message, message
            assert 'Deckhand: ' in message or '/v1' in message, 'the error names no document: %s' % message
            assert refused is None or refused in message, 'a pattern that backtracks exponentially was not refused'
        else:
            assert refused is None, 'a pattern that backtracks exponentially was used'
            assert not shows(result, INLINE_SECRET), 'a vault value was put into text'
            assert size_of(result) <= allowance(written), 'the result is larger than the expansion budget allows'
    bounded(start)
    check_warnings(warnings)


@FUZZ
@given(documents())
def test_deckhand_substitution(docs):
    fuzz_documents(docs)


@pytest.mark.parametrize('finding', [
    pytest.param('regexes'),
    pytest.param('doubling'),
    pytest.param('padding'),
])
@FINDINGS
@given(data=st.data())
def test_deckhand_findings(finding, data):
    if finding == 'regexes':
        fuzz_documents(*data.draw(hostile_pattern()))
    else:
        fuzz_documents(data.draw(doubling() if finding == 'doubling' else padding()))
