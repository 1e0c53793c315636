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

Each spec becomes one core strategy, used for a two-layer merge (the document over the result
so far):

==========================  ==================================================================
dict(replace)               merge_hash: hash (top-level keys replaced whole); null is a value
dict(no_replace)            merge_hash: deep; merge_scalar, type_mismatch: LeastSpecific (the
                            existing value wins); lists and strings LeastSpecific unless
                            recurse_list / recurse_str hand them to the list / str merger
dict(allow_delete)          null_values: delete (a null removes the existing key)
list(append) / (prepend)    Sum, array_order general_first / specific_first
list(replace)               Positional (items at one index merge; the existing list's length);
                            positional_items from the list merger's recurse_* options
list(no_replace), no list   LeastSpecific
str(append) / str()         merge_string Join (existing first) / MostSpecific; no str: LeastSpecific
==========================  ==================================================================

Keys keep the existing document's order (key_order: general_first), lists of maps and of
scalars merge together (list_kinds: together) and nothing is a knockout marker.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Dict, FrozenSet, List, Optional, Sequence, Tuple

from ansible_collections.strata.hier.plugins.module_utils.errors import MergeInputError, StrategyError
from ansible_collections.strata.hier.plugins.module_utils.merging import Merged, merge_layers
from ansible_collections.strata.hier.plugins.module_utils.rules import MergeRules
from ansible_collections.strata.hier.plugins.module_utils.strategy import (
    DEEP, DELETE, GENERAL_FIRST, HASH, JOIN, LEAST_SPECIFIC, MOST_SPECIFIC, POSITIONAL, SPECIFIC_FIRST, SUM,
    TOGETHER, VALUE, MergeStrategy, parse_strategy,
)

DEFAULT_MERGE_HOW = 'dict(replace)+list()+str()'
"""What cloud-init's cloud-config part handler uses for a document that names no mergers."""
MERGE_KEYS = ('merge_how', 'merge_type')
DICT = 'dict'
LIST = 'list'
STR = 'str'
MERGERS = (DICT, LIST, STR)
_RECURSE = ('recurse_dict', 'recurse_list', 'recurse_array', 'recurse_str')
OPTIONS = {
    DICT: ('allow_delete', 'no_replace', 'replace') + _RECURSE,
    LIST: ('append', 'prepend', 'replace', 'no_replace') + _RECURSE,
    STR: ('append',) + _RECURSE,
}
# The first of these a merger's options name is its method (cloud-init's MERGE_TYPES), else the default.
_METHODS = {DICT: ('replace', 'no_replace'), LIST: ('append', 'prepend', 'replace', 'no_replace')}
_DEFAULT_METHODS = {DICT: 'no_replace', LIST: 'replace'}
_NAME = re.compile(r'^([a-zA-Z_][A-Za-z0-9_]*)\((.*?)\)$')
_MODULE_PREFIX = 'm_'       # cloud-init finds merger "list" in module m_list; "m_list" works too

Mergers = Tuple[Tuple[str, FrozenSet[str]], ...]


def parse_merge_how(spec: Any, where: str = 'merge_how') -> Mergers:
    """A merge_how (string or list form) as (merger, options) pairs; the first merger of a type wins.

    An empty spec gives (): the default applies.
    """
    if spec is None or spec == '' or spec == []:
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
    options = mergers.get(STR)
    if options is None:
        return LEAST_SPECIFIC
    return JOIN if 'append' in options else MOST_SPECIFIC


def _list_settings(mergers: Dict[str, FrozenSet[str]]) -> Dict[str, Any]:
    """The core settings of the list merger (lists reached by recursion)."""
    options = mergers.get(LIST)
    if options is None:
        return {'arrays': LEAST_SPECIFIC}
    method = _method(LIST, options)
    if method == 'append':
        return {'arrays': SUM, 'array_order': GENERAL_FIRST}
    if method == 'prepend':
        return {'arrays': SUM, 'array_order': SPECIFIC_FIRST}
    if method == 'no_replace':
        return {'arrays': LEAST_SPECIFIC}
    items = {   # list(replace): the new item wins at each index unless a recurse_* option merges it
        'merge_hash': DEEP if 'recurse_dict' in options else MOST_SPECIFIC,
        'merge_string': _string_mode(mergers) if 'recurse_str' in options else MOST_SPECIFIC,
        'merge_options': {'knockout_prefix': None, 'string_order': GENERAL_FIRST},
    }
    recurse = 'recurse_list' in options or 'recurse_array' in options
    items['merge_basetype_array'] = items['merge_hash_array'] = POSITIONAL if recurse else MOST_SPECIFIC
    return {'arrays': POSITIONAL, 'positional_items': items}


def strategy_for(mergers: Mergers) -> Optional[MergeStrategy]:
    """The core strategy merging a document with these mergers into the result so far;
    None when no dict merger is named (cloud-init then keeps the result as it was)."""
    named = dict(mergers)
    options = named.get(DICT)
    if options is None:
        return None
    merge_options: Dict[str, Any] = {
        'knockout_prefix': None, 'key_order': GENERAL_FIRST, 'list_kinds': TOGETHER,
        'string_order': GENERAL_FIRST, 'null_values': DELETE if 'allow_delete' in options else VALUE,
    }
    if _method(DICT, options) == 'replace':
        return parse_strategy({'merge_hash': HASH, 'merge_options': merge_options}, 'merge_how')
    spec: Dict[str, Any] = {'merge_hash': DEEP, 'merge_scalar': LEAST_SPECIFIC, 'merge_options': merge_options}
    merge_options['type_mismatch'] = LEAST_SPECIFIC
    spec['merge_string'] = _string_mode(named) if 'recurse_str' in options else LEAST_SPECIFIC
    lists = _list_settings(named) if 'recurse_list' in options or 'recurse_array' in options \
        else {'arrays': LEAST_SPECIFIC}
    spec['merge_basetype_array'] = spec['merge_hash_array'] = lists.pop('arrays')
    merge_options.update(lists)
    return parse_strategy(spec, 'merge_how')


_RULES: Dict[Mergers, Optional[MergeRules]] = {}


def _rules_for(mergers: Mergers) -> Optional[MergeRules]:
    if mergers not in _RULES:
        strategy = strategy_for(mergers)
        _RULES[mergers] = None if strategy is None else MergeRules(strategy)
    return _RULES[mergers]


def merge_cloud_configs(documents: Sequence[Any], merge_how: Any = None) -> Merged:
    """Merge cloud-config documents in the order cloud-init receives them; return the merged
    cloud-config (without merge_how / merge_type) and warnings.

    ``merge_how`` is the spec of documents that name none (default: cloud-init's own), in the string,
    list or dictionary form.
    """
    if not isinstance(documents, (list, tuple)):
        raise MergeInputError('the cloud-config documents must be a list, not %s' % type(documents).__name__)
    where = "the filter's merge_how"
    default = parse_merge_how(from_dictionary(merge_how, where), where) or parse_merge_how(DEFAULT_MERGE_HOW)
    merged: Dict[str, Any] = {}
    warnings: List[str] = []
    for position, document in enumerate(documents):
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
    return Merged(merged, warnings)
