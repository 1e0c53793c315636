# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Hiera 5's merge behaviours: ``first``, ``unique``, ``hash`` and ``deep``, exactly as Puppet 7 merges.

Hiera does not merge a key path's values at once as the other dialects do: it reduces the values found
level by level, most specific first, with a pairwise ``merge(accumulated, next)`` (Puppet's
``MergeStrategy#lookup``), and the reductions nest (locations in a level, levels, layers).  Each merger
here is therefore a pairwise merge plus the two hooks Puppet calls on a value found alone
(``merge_single``) or first of several (``convert``); ``reduce`` is the reduction.

``deep`` is the ``deep_merge`` gem's ``deep_merge!(source, dest)`` ported step by step, including where it
changes its source in place, because those changes are visible in Hiera's answers: a knockout marker acts
only on the next lower level, an array under a key new in the merge is merged with itself (losing its
duplicates), a map over a scalar merges its later keys into themselves.  The destination is always a
fresh copy (Puppet deep-clones it) and the source is the accumulated value the reduction owns, so the
caller's data is never changed.
"""

from __future__ import annotations

import copy
import functools
import re
from typing import Any, Callable, Dict, Iterable, Optional, Tuple, Union

from ansible_collections.strata.hier.plugins.module_utils.core.errors import HieraError, HieraNotFound, MergeInputError
from ansible_collections.strata.hier.plugins.module_utils.dialects.hiera.ruby import (
    flatten, is_data, is_secret, puppet_type, ruby_sort, truthy, union,
)
from ansible_collections.strata.hier.plugins.module_utils.core.records import Record
from ansible_collections.strata.hier.plugins.module_utils.core.safe_regex import SafePattern, compile_untrusted

FIRST, UNIQUE, HASH, DEEP = 'first', 'unique', 'hash', 'deep'
STRATEGIES = (FIRST, UNIQUE, HASH, DEEP)
DEEP_OPTIONS = {'knockout_prefix': (str,), 'merge_debug': (bool,), 'merge_hash_arrays': (bool,),
                'sort_merged_arrays': (bool,)}
_MISSING = object()


def _type_error(side: str, expected: str, value: Any) -> HieraError:
    return HieraError('The %s element of the merge has wrong type, expects %s, got %s'
                      % (side, expected, puppet_type(value)))


class HieraMerger:
    """A Hiera merge behaviour; ``first`` by default."""

    name = FIRST
    first_found = True
    traced = False
    """A TracedMerger (provenance.py) carries marks: the engine hands it each found value's."""

    def merge_single(self, value: Any) -> Any:
        return value

    def convert(self, value: Any) -> Any:
        return value

    def merge(self, higher: Any, lower: Any) -> Any:
        return higher

    def merge_fresh(self, higher: Any, lower: Any) -> Any:
        """merge, where ``lower`` is the caller's own (made for this merge, referenced nowhere else): it may be
        changed instead of copied."""
        return self.merge(higher, lower)

    def describe(self) -> Union[str, Dict[str, Any]]:
        return self.name

    def reduce(self, variants: Iterable[Any], fetch: Callable[[Any], Any], fresh: bool = False) -> Any:
        """Puppet's ``MergeStrategy#lookup``: ``fetch`` each variant (most specific first) and merge what
        is found; HieraNotFound when nothing is. ``fresh``: every value fetched is the caller's own (merge_fresh)."""
        variants = list(variants)
        if self.first_found:
            for variant in variants:
                try:
                    return fetch(variant)
                except HieraNotFound:
                    continue
            raise HieraNotFound()
        if len(variants) == 1:
            return self.merge_single(fetch(variants[0]))
        merged = _MISSING
        for variant in variants:
            try:
                value = fetch(variant)
            except HieraNotFound:
                continue
            if merged is _MISSING:
                merged = self.convert(value)
            else:
                merged = self.merge_fresh(merged, value) if fresh else self.merge(merged, value)
        if merged is _MISSING:
            raise HieraNotFound()
        return merged


class UniqueMerger(HieraMerger):
    """Flatten, wrap single values, union with Ruby ``eql?``; most specific items first."""

    name = UNIQUE
    first_found = False

    def merge_single(self, value: Any) -> Any:
        return union(value, []) if isinstance(value, list) else value

    def convert(self, value: Any) -> Any:
        return flatten(value) if isinstance(value, list) else [value]

    def merge(self, higher: Any, lower: Any) -> Any:
        for side, value in (('first', higher), ('second', lower)):
            scalar = isinstance(value, (str, int, float, bool)) or is_secret(value)
            if not (scalar or (isinstance(value, list) and is_data(value))):
                raise _type_error(side, 'a value of type Scalar or Array', value)
        return union(self.convert(higher), self.convert(lower))


class HashMerger(HieraMerger):
    """Top-level keys: the most specific value of each key, the least specific level's keys first."""

    name = HASH
    first_found = False

    def merge(self, higher: Any, lower: Any) -> Any:
        for side, value in (('first', higher), ('second', lower)):
            if not isinstance(value, dict):
                raise _type_error(side, 'a Hash value', value)
            if not is_data(value):
                raise HieraError('The %s element of the merge has wrong type, expects a Hash[String, Data] value, '
                                 'got %s' % (side, puppet_type(value)))
        merged = dict(lower)
        merged.update(higher)
        return merged


class DeepMerger(Record, HieraMerger):
    """The deep_merge gem as Puppet calls it (``preserve_unmergeables: false``)."""

    knockout_prefix: Optional[str] = None
    sort_merged_arrays: bool = False
    merge_hash_arrays: bool = False
    options: Optional[Dict[str, Any]] = None
    """The options as given, for describe()."""

    name = DEEP
    first_found = False

    def describe(self) -> Union[str, Dict[str, Any]]:
        return dict(self.options, strategy=DEEP) if self.options else DEEP

    def merge(self, higher: Any, lower: Any) -> Any:
        return self.merge_fresh(higher, copy.deepcopy(lower))

    def merge_fresh(self, higher: Any, lower: Any) -> Any:
        if self.knockout_prefix == '':
            raise MergeInputError('knockout_prefix cannot be an empty string in deep_merge!')
        return self._merge(higher, lower)

    def _is_marker(self, item: Any) -> bool:
        return isinstance(item, str) and self._strip(item) != item

    def _strip(self, text: str) -> str:
        return _knockout_pattern(self.knockout_prefix).sub('', text)

    def _merge(self, source: Any, dest: Any) -> Any:
        if source is None:
            return dest
        if not truthy(dest):
            return source
        if isinstance(source, dict):
            return self._merge_map(source, dest)
        if isinstance(source, list):
            return self._merge_list(source, dest)
        return self._overwrite(source, dest)

    def _merge_map(self, source: dict, dest: Any) -> Any:
        for key, value in list(source.items()):
            if not isinstance(dest, dict):
                dest = self._overwrite(source, dest)
            elif truthy(dest.get(key)):
                dest[key] = self._merge(value, dest[key])
            else:
                dest[key] = self._merge(value, copy.copy(value))
        return dest

    def _merge_list(self, source: list, dest: Any) -> Any:
        prefix = self.knockout_prefix
        if prefix and prefix in [item for item in source if isinstance(item, str)]:
            dest = _cleared(dest)       # a bare prefix item empties the lower value
            source[:] = [item for item in source if item != prefix or not isinstance(item, str)]
        if not isinstance(dest, list):
            return self._overwrite(source, dest)
        if prefix:
            self._knock_out(source, dest)
        if self.merge_hash_arrays and all(isinstance(item, dict) for item in source + dest):
            merged = self._by_position(source, dest)
        else:
            merged = union(dest, source)
        return ruby_sort(merged) if self.sort_merged_arrays else merged

    def _knock_out(self, source: list, dest: list) -> None:
        """Each ``<prefix>x`` item of the source deletes ``x`` and itself from the destination, then leaves."""
        def knocks_out(item: Any) -> bool:
            if not self._is_marker(item):
                return False
            stripped = self._strip(item)
            dest[:] = [old for old in dest if not (isinstance(old, str) and old in (stripped, item))]
            return True

        _delete_if(source, knocks_out)

    def _by_position(self, source: list, dest: list) -> list:
        """merge_hash_arrays: item i is the source's item i deep-merged into the destination's, extra items after."""
        merged = [self._merge(source[index] if index < len(source) and truthy(source[index]) else {}, item)
                  for index, item in enumerate(dest)]
        merged.extend(source[len(dest):])
        return merged

    def _overwrite(self, source: Any, dest: Any) -> Any:
        """``overwrite_unmergeables``: the source wins; a knockout string gives ``""``, a list loses its markers."""
        if not self.knockout_prefix:
            return source
        if isinstance(source, str):
            return source if self._strip(source) == source else ''
        if isinstance(source, list):
            source[:] = [item for item in source if not self._is_marker(item)]
        return source


@functools.lru_cache(maxsize=64)
def _knockout_pattern(prefix: str) -> SafePattern:
    """The deep_merge gem strips ``/^#{knockout_prefix}/``: the prefix is a regular expression, written in data
    (lookup_options), so refused unless it matches in linear time (``safe_regex``)."""
    return compile_untrusted('^' + prefix, re.MULTILINE, 'knockout_prefix %r' % prefix, MergeInputError)


def _delete_if(items: list, predicate: Callable[[Any], bool]) -> None:
    """Ruby's ``Array#delete_if`` step by step: the predicate may delete from ``items`` itself (a list merged
    into itself), and Ruby's index bookkeeping then drops the item after each one deleted that way."""
    read = kept = 0
    while read < len(items):
        item = items[read]
        if not predicate(item):
            if read != kept:
                items[kept] = item
            kept += 1
        read += 1
    if kept < len(items) and kept < read:
        tail = items[read:] if read < len(items) else []
        items[kept:] = tail


def _cleared(value: Any) -> Any:
    """``clear_or_nil``: containers and text emptied in place, anything else nil."""
    if isinstance(value, (list, dict)):
        value.clear()
        return value
    if isinstance(value, str):
        return ''
    return None


_SIMPLE = {FIRST: HieraMerger(), UNIQUE: UniqueMerger(), HASH: HashMerger(), DEEP: DeepMerger()}


def merger_for(merge: Any) -> HieraMerger:
    """The merger for Hiera's ``merge`` forms: nothing (first), a name, or a map with ``strategy`` and options.

    Refuses what Puppet refuses, with Puppet's words: unknown names, a map without a strategy, options the
    strategy does not take or of the wrong type.
    """
    if merge is None:
        return _SIMPLE[FIRST]
    if isinstance(merge, HieraMerger):
        return merge
    options: Dict[str, Any] = {}
    name = merge
    if isinstance(merge, dict):
        name = merge.get('strategy')
        if not isinstance(name, str):
            raise HieraError("The hash given as 'merge' must contain the name of a strategy in string form "
                             "for the key 'strategy'")
        options = {key: value for key, value in merge.items() if key != 'strategy'}
    if name not in STRATEGIES:
        raise HieraError("Unknown merge strategy: '%s'" % (name,))
    if not options:
        return _SIMPLE[name]
    key = _options_key(name, options)
    kept = None if key is None else _WITH_OPTIONS.get(key)
    if kept is None:
        kept = _with_options(name, options)
        if key is not None:
            if len(_WITH_OPTIONS) >= 256:
                _WITH_OPTIONS.clear()
            _WITH_OPTIONS[key] = kept
    return kept


def _options_key(name: str, options: Dict[str, Any]) -> Optional[Tuple[Any, ...]]:
    """The key of merge options in _WITH_OPTIONS: each value with its type (1 == True, but 1 is no Boolean option);
    None when a name is not text or a value is not plain text, a Boolean or null. Such options are never hashed (a
    vault value decrypts in its hash; _with_options refuses them)."""
    if not all(option.__class__ is str and value.__class__ in _OPTION_TYPES for option, value in options.items()):
        return None
    return (name, tuple(sorted((option, value.__class__, value) for option, value in options.items())))


_OPTION_TYPES = frozenset((str, bool, type(None)))
_WITH_OPTIONS: Dict[Any, HieraMerger] = {}
"""The mergers of merge options already checked and built, by the options (a lookup_options entry's, read again by
every lookup of its key); immutable records."""


def _with_options(name: str, options: Dict[str, Any]) -> HieraMerger:
    allowed = DEEP_OPTIONS if name == DEEP else {}
    for key, value in options.items():
        if key not in allowed:
            raise HieraError("The merge options has wrong type, unrecognized key '%s'" % (key,))
        if value is not None and not isinstance(value, allowed[key]):
            expected = 'String' if allowed[key] == (str,) else 'Boolean'
            raise HieraError("The merge options has wrong type, entry '%s' expects a value of type Undef or %s, "
                             "got %s" % (key, expected, puppet_type(value)))
    return DeepMerger(knockout_prefix=options.get('knockout_prefix'),
                      sort_merged_arrays=bool(options.get('sort_merged_arrays')),
                      merge_hash_arrays=bool(options.get('merge_hash_arrays')), options=dict(options))
