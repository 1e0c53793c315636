# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""cloud-init's merging of cloud-config documents (cloudinit/mergers, the cloud-config part
handler), translated into the merge core's settings.

cloud-init merges the documents one after the other into what came before, each with the
mergers of its OWN ``merge_how`` (or legacy ``merge_type``) - not, as its documentation says,
with those of the previous document - and with ``dict(replace)+list()+str()`` when it names
none.  A merger is looked up by the type of the existing value; a type no merger handles keeps
the existing value, so a spec without ``dict()`` leaves the whole document unmerged.

Each spec becomes one core strategy, built from the core's mergers (mergers/) with settings no
lookup_options rule can name, used for a two-layer merge (the document over the result so far):

==========================  ==================================================================
dict(replace)               maps: hash (top-level keys replaced whole); a null is a value
dict(no_replace)            maps: deep; other scalars LeastSpecific and the existing value's type
                            wins (the dispatch's winner); lists and strings LeastSpecific unless
                            recurse_list / recurse_str hand them to the list / str merger
dict(allow_delete)          maps: a null removes the existing key
list(append) / (prepend)    Sum, the existing list's items first / last
list(replace)               PositionalMerger (items at one index merge; the existing list's
                            length), its items' strategy from the list merger's recurse_* options
list(no_replace), no list   LeastSpecific
str(append) / str()         strings Join (existing first) / MostSpecific; no str: LeastSpecific
==========================  ==================================================================

Keys keep the existing document's order, lists of maps and of scalars merge together (the
dispatch's ``lists: together``) and nothing is a knockout marker.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Dict, FrozenSet, List, Optional, Sequence, Tuple

from ansible_collections.strata.hier.plugins.module_utils.errors import MergeInputError, StrategyError
from ansible_collections.strata.hier.plugins.module_utils.merging import MergeResult, merge_layers
from ansible_collections.strata.hier.plugins.module_utils.mergers.base import (
    GENERAL_FIRST, LEAST_SPECIFIC, MOST_SPECIFIC, SPECIFIC_FIRST, Merger,
)
from ansible_collections.strata.hier.plugins.module_utils.mergers.dispatch import TOGETHER, ByType
from ansible_collections.strata.hier.plugins.module_utils.mergers.hash_arrays import HashArrayMerger
from ansible_collections.strata.hier.plugins.module_utils.mergers.maps import DEEP, HASH, NULL_DELETES, NULL_VALUE, MapMerger
from ansible_collections.strata.hier.plugins.module_utils.mergers.positional import PositionalMerger
from ansible_collections.strata.hier.plugins.module_utils.mergers.scalar_lists import SUM, ScalarListMerger
from ansible_collections.strata.hier.plugins.module_utils.mergers.scalars import JOIN, ScalarMerger
from ansible_collections.strata.hier.plugins.module_utils.rules import MergeRules
from ansible_collections.strata.hier.plugins.module_utils.strategy import MergeStrategy

DEFAULT_MERGE_HOW = 'dict(replace)+list()+str()'
"""What cloud-init's cloud-config part handler uses for a document that names no mergers."""
MERGE_KEYS = ('merge_how', 'merge_type')
DICT_MERGER = 'dict'
LIST_MERGER = 'list'
STR_MERGER = 'str'
MERGERS = (DICT_MERGER, LIST_MERGER, STR_MERGER)
_RECURSE = ('recurse_dict', 'recurse_list', 'recurse_array', 'recurse_str')
OPTIONS = {
    DICT_MERGER: ('allow_delete', 'no_replace', 'replace') + _RECURSE,
    LIST_MERGER: ('append', 'prepend', 'replace', 'no_replace') + _RECURSE,
    STR_MERGER: ('append',) + _RECURSE,
}
# The first of these a merger's options name is its method (cloud-init's MERGE_TYPES), else the default.
_METHODS = {DICT_MERGER: ('replace', 'no_replace'), LIST_MERGER: ('append', 'prepend', 'replace', 'no_replace')}
_DEFAULT_METHODS = {DICT_MERGER: 'no_replace', LIST_MERGER: 'replace'}
_NAME = re.compile(r'^([a-zA-Z_][A-Za-z0-9_]*)\((.*?)\)$')
_MODULE_PREFIX = 'm_'       # cloud-init finds merger "list" in module m_list; "m_list" works too

Mergers = Tuple[Tuple[str, FrozenSet[str]], ...]


def parse_merge_how(spec: Any, where: str = 'merge_how') -> Mergers:
    """A merge_how (string or list form) as (merger, options) pairs; the first merger of a type wins.

    An empty spec gives (): the default applies.
    """
    if spec is None or (isinstance(spec, (str, list, tuple)) and not spec):
        return ()
    if isinstance(spec, str):
        entries = _parse_string(spec, where)
    elif isinstance(spec, (list, tuple)):
        entries = _parse_list(spec, where)
    else:
        raise StrategyError('%s must be a string such as %r or a list of {name, settings} maps, not %s'
                            % (where, DEFAULT_MERGE_HOW, type(spec).__name__))
    mergers: Dict[str, FrozenSet[str]] = {}
    for name, options in entries:
        if name.startswith(_MODULE_PREFIX):
            name = name[len(_MODULE_PREFIX):]
        if name not in MERGERS:
            raise StrategyError('unknown merger %r in %s; valid mergers: %s' % (name, where, ', '.join(MERGERS)))
        for option in options:
            if option not in OPTIONS[name]:
                raise StrategyError('unknown option %r of merger %r in %s; valid options: %s'
                                    % (option, name, where, ', '.join(OPTIONS[name])))
        mergers.setdefault(name, frozenset(options))
    return tuple(mergers.items())


def from_dictionary(spec: Any, where: str = 'merge_how') -> Any:
    """The spec of cloud-init's dictionary format, ``{merge_how: ...}`` (or merge_type), read as cloud-init
    reads a document's; any other spec as it is.  For specs given beside the documents: a document's own
    merge_how holding a map fails in cloud-init, and so here."""
    if not isinstance(spec, Mapping):
        return spec
    present = [key for key in MERGE_KEYS if key in spec]
    if spec and not present:
        raise StrategyError('%s as a map must hold merge_how (or merge_type), as in cloud-init\'s dictionary format '
                            '{merge_how: [{name: list, settings: [append]}, ...]}; it has %s'
                            % (where, ', '.join(map(str, spec))))
    return next((spec[key] for key in present if spec[key] is not None), None)    # null: the default


def _parse_string(spec: str, where: str) -> List[Tuple[str, List[str]]]:
    """``classname1(option1,option2)+classname2(...)``, as cloud-init's string_extract_mergers."""
    entries = []
    for part in spec.split('+'):
        name = part.lower().strip().replace('-', '_')
        if not name:
            continue
        match = _NAME.match(name)
        if not match:
            raise StrategyError('merger %r in %s is not in the format name(option,...), as in %r'
                                % (part.strip(), where, DEFAULT_MERGE_HOW))
        name, options = match.groups()
        entries.append((name, [option.strip().lower() for option in options.split(',') if option.strip()]))
    return entries


def _parse_list(spec: Sequence[Any], where: str) -> List[Tuple[str, List[str]]]:
    """``[{name: list, settings: [append]}, ...]`` (or ``[[list, append], ...]``), as cloud-init's dict form."""
    entries = []
    for entry in spec:
        if isinstance(entry, Mapping):
            name = entry.get('name')
            settings = entry.get('settings', [])
        elif isinstance(entry, (list, tuple)) and entry:
            name, settings = entry[0], list(entry[1:])
        else:
            raise StrategyError('each merger in %s must be a map with name and settings, or a list '
                                '[name, option...], not %r' % (where, entry))
        if isinstance(settings, str):
            settings = settings.split(',')
        if not isinstance(name, str) or not isinstance(settings, (list, tuple)) \
                or not all(isinstance(option, str) for option in settings):
            raise StrategyError('merger %r in %s must have a name and a list of settings (strings)' % (entry, where))
        entries.append((name.replace('-', '_').strip().lower(),
                        [option.strip().lower() for option in settings if option.strip()]))
    return entries


def _method(merger: str, options: FrozenSet[str]) -> str:
    for method in _METHODS[merger]:
        if method in options:
            return method
    return _DEFAULT_METHODS[merger]


def _string_mode(mergers: Dict[str, FrozenSet[str]]) -> str:
    """What the str merger does with two strings: no str merger keeps the existing one."""
    options = mergers.get(STR_MERGER)
    if options is None:
        return LEAST_SPECIFIC
    return JOIN if 'append' in options else MOST_SPECIFIC


def _recurses_into_lists(options: FrozenSet[str]) -> bool:
    return 'recurse_list' in options or 'recurse_array' in options


def _list_mergers(mergers: Dict[str, FrozenSet[str]], nulls: str) -> Tuple[Merger, Merger]:
    """The list merger's core mergers (for lists reached by recursion): base-type arrays, hash arrays."""
    options = mergers.get(LIST_MERGER)
    method = 'no_replace' if options is None else _method(LIST_MERGER, options)
    if method in ('append', 'prepend'):
        order = GENERAL_FIRST if method == 'append' else SPECIFIC_FIRST
        return ScalarListMerger(SUM, order=order), HashArrayMerger(SUM, order=order)
    if method == 'no_replace':
        return ScalarListMerger(LEAST_SPECIFIC), HashArrayMerger(LEAST_SPECIFIC)
    items = _positional_items(mergers, options)     # list(replace): index by index
    return PositionalMerger(items=items, nulls=nulls), PositionalMerger(items=items, nulls=nulls, of_maps=True)


def _positional_items(mergers: Dict[str, FrozenSet[str]], options: FrozenSet[str]) -> MergeStrategy:
    """list(replace): the new item wins at each index unless a recurse_* option merges it."""
    recurse = _recurses_into_lists(options)
    return MergeStrategy(
        name='cloud-init list items',
        maps=MapMerger(DEEP if 'recurse_dict' in options else MOST_SPECIFIC),
        scalars=ScalarMerger(strings=_string_mode(mergers) if 'recurse_str' in options else MOST_SPECIFIC,
                             order=GENERAL_FIRST),
        scalar_lists=PositionalMerger() if recurse else ScalarListMerger(),         # Positional: the array's own
        hash_arrays=PositionalMerger(of_maps=True) if recurse else HashArrayMerger())


def strategy_for(mergers: Mergers) -> Optional[MergeStrategy]:
    """The core strategy merging a document with these mergers into the result so far;
    None when no dict merger is named (cloud-init then keeps the result as it was).

    Every strategy keeps the existing document's keys first, merges lists of maps and of scalars
    together and knows no knockout marker."""
    named = dict(mergers)
    options = named.get(DICT_MERGER)
    if options is None:
        return None
    nulls = NULL_DELETES if 'allow_delete' in options else NULL_VALUE
    name = 'cloud-init %s' % '+'.join('%s(%s)' % (merger, ','.join(sorted(settings))) for merger, settings in mergers)
    if _method(DICT_MERGER, options) == 'replace':
        return MergeStrategy(name=name, maps=MapMerger(HASH, nulls=nulls, key_order=GENERAL_FIRST),
                             scalars=ScalarMerger(order=GENERAL_FIRST), dispatch=ByType(lists=TOGETHER))
    lists = _list_mergers(named, nulls) if _recurses_into_lists(options) else \
        (ScalarListMerger(LEAST_SPECIFIC), HashArrayMerger(LEAST_SPECIFIC))
    strings = _string_mode(named) if 'recurse_str' in options else LEAST_SPECIFIC
    return MergeStrategy(name=name, maps=MapMerger(DEEP, nulls=nulls, key_order=GENERAL_FIRST),
                         scalars=ScalarMerger(strings=strings, others=LEAST_SPECIFIC, order=GENERAL_FIRST),
                         scalar_lists=lists[0], hash_arrays=lists[1],
                         dispatch=ByType(winner=LEAST_SPECIFIC, lists=TOGETHER))


_RULES: Dict[Mergers, Optional[MergeRules]] = {}


def _rules_for(mergers: Mergers) -> Optional[MergeRules]:
    if mergers not in _RULES:
        strategy = strategy_for(mergers)
        _RULES[mergers] = None if strategy is None else MergeRules(strategy)
    return _RULES[mergers]


def merge_cloud_configs(documents: Sequence[Any], merge_how: Any = None) -> MergeResult:
    """Merge cloud-config documents, most specific (the last cloud-init receives) first; return the merged
    cloud-config (without merge_how / merge_type) and warnings.  Messages count documents from 0 in the
    order cloud-init receives them.

    ``merge_how`` is the spec of documents that name none (default: cloud-init's own), in the string,
    list or dictionary form.
    """
    if not isinstance(documents, (list, tuple)):
        raise MergeInputError('the cloud-config documents must be a list, not %s' % type(documents).__name__)
    where = "the filter's merge_how"
    default = parse_merge_how(from_dictionary(merge_how, where), where) or parse_merge_how(DEFAULT_MERGE_HOW)
    merged: Dict[str, Any] = {}
    warnings: List[str] = []
    for position, document in enumerate(reversed(documents)):     # in the order cloud-init merges them
        where = 'document %d (counting from 0)' % position
        if document is None:        # an empty part: cloud-init fails on it and goes on
            continue
        if not isinstance(document, Mapping):
            raise MergeInputError('%s must be a map, not %s' % (where, type(document).__name__))
        spec = document.get(MERGE_KEYS[0])
        key = MERGE_KEYS[0]
        if spec is None:
            spec, key = document.get(MERGE_KEYS[1]), MERGE_KEYS[1]
        mergers = parse_merge_how(spec, '%s of %s' % (key, where)) or default
        rules = _rules_for(mergers)
        if rules is None:
            warnings.append('%s: its mergers name no dict merger, so cloud-init leaves the configuration as it was '
                            'and the document is not merged' % where)
            continue
        body = {name: value for name, value in document.items() if name not in MERGE_KEYS}
        result = merge_layers([body, merged], rules)
        warnings.extend('%s: %s' % (where, warning) for warning in result.warnings)
        merged = result.value
    return MergeResult(merged, warnings=warnings)
