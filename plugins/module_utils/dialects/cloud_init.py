# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""cloud-init's merging of cloud-config documents (cloudinit/mergers, the cloud-config part handler).

cloud-init merges the documents one after the other into what came before, each with the mergers
of its OWN ``merge_how`` (or legacy ``merge_type``) - not, as its documentation says, with those of
the previous document - and with ``dict(replace)+list()+str()`` when it names none.

Its mergers dispatch on the type of the EXISTING value (LookupMerger): a map goes to the dict
merger, a list to the list merger, a string to the str merger, the first of each in the spec; any
other existing value, or one whose merger the spec does not name, is kept.  What a merger hands on
depends on the NEW value's type and the merger's recurse_* options:

- dict: a new value that is not a map keeps the existing one; ``replace`` takes each new key's value
  whole, ``no_replace`` merges a map again (always), a list only with recurse_list (recurse_array),
  a string only with recurse_str, and keeps the existing value otherwise; new keys are added;
  ``allow_delete``: a null removes the existing key.
- list: ``append`` / ``prepend`` add the new list's items (a string's characters, a map's keys);
  ``replace`` (the default) takes a new value that is not a list, else replaces item by item up to
  the shorter length, merging items as recurse_dict / recurse_list / recurse_str say;
  ``no_replace`` keeps the existing list.
- str: ``append`` concatenates, else the new value (of any type) replaces the string.

These are this module's own mergers, applied by a fold over a result it owns (folding.py), so that
each document costs what it adds however large the result has grown.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Dict, FrozenSet, List, Optional, Sequence, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeInputError, StrategyError
from ansible_collections.strata.hier.plugins.module_utils.core.folding import Items, appended, finish, is_text, own
from ansible_collections.strata.hier.plugins.module_utils.core.kinds import LIST, MAP, family_of
from ansible_collections.strata.hier.plugins.module_utils.core.limits import MAX_DEPTH, WorkBudget, too_deep
from ansible_collections.strata.hier.plugins.module_utils.core.merging import MergeResult
from ansible_collections.strata.hier.plugins.module_utils.core.paths import join_path
from ansible_collections.strata.hier.plugins.module_utils.core.records import Record

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


def _recurses_into_lists(options: FrozenSet[str]) -> bool:
    return 'recurse_list' in options or 'recurse_array' in options


class DictMerger(Record):
    """cloud-init's m_dict: maps merge again always (its recurse_dict is always on)."""

    replace: bool
    allow_delete: bool
    recurse_list: bool
    recurse_str: bool


class ListMerger(Record):
    """cloud-init's m_list."""

    method: str
    recurse_dict: bool
    recurse_list: bool
    recurse_str: bool


class CloudInitMergers(Record):
    """The mergers a spec names, one per type of existing value (None: that type is kept as it is)."""

    dict: Optional[DictMerger]
    list: Optional[ListMerger]
    str_append: Optional[bool]
    """The str merger: None when the spec has none, else whether it appends."""

    @classmethod
    def of(cls, mergers: Mergers) -> 'CloudInitMergers':
        named = dict(mergers)
        options = named.get(DICT_MERGER)
        dict_merger = None if options is None else DictMerger(
            replace=_method(DICT_MERGER, options) == 'replace', allow_delete='allow_delete' in options,
            recurse_list=_recurses_into_lists(options), recurse_str='recurse_str' in options)
        options = named.get(LIST_MERGER)
        list_merger = None if options is None else ListMerger(
            method=_method(LIST_MERGER, options), recurse_dict='recurse_dict' in options,
            recurse_list=_recurses_into_lists(options), recurse_str='recurse_str' in options)
        options = named.get(STR_MERGER)
        return cls(dict_merger, list_merger, None if options is None else 'append' in options)


class _Fold:
    """One document merged into the result so far (owned: changed in place), as its mergers say."""

    def __init__(self, mergers: CloudInitMergers, budget: WorkBudget, where: str) -> None:
        self.mergers = mergers
        self.budget = budget
        self.where = where

    def merge(self, old: Any, new: Any, path: Tuple[Any, ...], depth: int) -> Any:
        """cloud-init's LookupMerger.merge: the merger for the existing value's type, else the existing value."""
        if depth > MAX_DEPTH:
            raise too_deep(path)
        mergers = self.mergers
        if isinstance(old, dict):
            return old if mergers.dict is None else self._dict(old, new, path, depth)
        if isinstance(old, Items):
            return old if mergers.list is None else self._list(old, new, path, depth)
        if is_text(old) and mergers.str_append is not None:
            return self._str(old, new, path, depth)
        return old

    def _own(self, value: Any, path: Tuple[Any, ...], depth: int) -> Any:
        return own(value, self.budget, path, depth)

    def _dict(self, old: dict, new: Any, path: Tuple[Any, ...], depth: int) -> dict:
        merger = self.mergers.dict
        if family_of(new) is not MAP:
            return old
        for key, value in new.items():
            at = path + (key,)
            if key not in old:
                old[key] = self._own(value, at, depth + 1)
            elif value is None and merger.allow_delete:
                del old[key]
            elif merger.replace:
                old[key] = self._own(value, at, depth + 1)
            elif self._recurses(value, merger.recurse_list, merger.recurse_str, True):
                old[key] = self.merge(old[key], value, at, depth + 1)
        return old

    @staticmethod
    def _recurses(value: Any, lists: bool, strings: bool, maps: bool) -> bool:
        """Whether a merger hands the new value on to the merger of the existing value's type."""
        family = family_of(value)
        if family is MAP:
            return maps
        if family is LIST:
            return lists
        return strings and isinstance(value, str)

    def _list(self, old: Items, new: Any, path: Tuple[Any, ...], depth: int) -> Items:
        merger = self.mergers.list
        family = family_of(new)
        if merger.method == 'replace' and family is not LIST:
            return self._own(new, path, depth)
        if merger.method in ('append', 'prepend'):
            added = [self._own(item, path, depth + 1) for item in new]    # a string's characters, a map's keys
            if merger.method == 'append':
                old.append_all(added)
            else:
                old.prepend_all(added)
            return old
        common = min(len(old), len(new))
        if merger.method == 'no_replace':
            if family is MAP and any(index not in new for index in range(common)):
                raise MergeInputError('%s: list(no_replace) reads a map merged into a list by index (as cloud-init '
                                      'does), and the map has no key %d' % (self.where, next(
                                          index for index in range(common) if index not in new)), join_path(path))
            return old
        for index in range(common):
            item = new[index]
            if self._recurses(item, merger.recurse_list, merger.recurse_str, merger.recurse_dict):
                old[index] = self.merge(old[index], item, path + (index,), depth + 1)
            else:
                old[index] = self._own(item, path + (index,), depth + 1)
        return old

    def _str(self, old: Any, new: Any, path: Tuple[Any, ...], depth: int) -> Any:
        if not self.mergers.str_append:
            return self._own(new, path, depth)
        if not isinstance(new, str):
            raise MergeInputError('%s: str(append) cannot append a %s to a string (cloud-init fails on this part '
                                  'with a TypeError and skips it)' % (self.where, type(new).__name__),
                                  join_path(path))
        return appended(old, new)


_MERGERS: Dict[Mergers, CloudInitMergers] = {}


def _mergers_for(mergers: Mergers) -> CloudInitMergers:
    if mergers not in _MERGERS:
        _MERGERS[mergers] = CloudInitMergers.of(mergers)
    return _MERGERS[mergers]


def _document_spec(document: Mapping, where: str) -> Mergers:
    spec, key = document.get(MERGE_KEYS[0]), MERGE_KEYS[0]
    if spec is None:
        spec, key = document.get(MERGE_KEYS[1]), MERGE_KEYS[1]
    return parse_merge_how(spec, '%s of %s' % (key, where))


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
    merged: Dict[Any, Any] = {}
    warnings: List[str] = []
    budget = WorkBudget(documents)
    for position, document in enumerate(reversed(documents)):     # in the order cloud-init merges them
        where = 'document %d (counting from 0)' % position
        if document is None:        # an empty part: cloud-init fails on it and goes on
            continue
        if not isinstance(document, Mapping):
            raise MergeInputError('%s must be a map, not %s' % (where, type(document).__name__))
        mergers = _mergers_for(_document_spec(document, where) or default)
        if mergers.dict is None:
            warnings.append('%s: its mergers name no dict merger, so cloud-init leaves the configuration as it was '
                            'and the document is not merged' % where)
            continue
        body = {name: value for name, value in document.items() if name not in MERGE_KEYS}
        merged = _Fold(mergers, budget, where).merge(merged, body, (), 0)
    return MergeResult(finish(merged), warnings=warnings)
