# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The merge engine: one key path's values from several layers -> one value.

Layers are given most specific first.  All layers are merged at once (not
pairwise), so the cost is linear in the size of the input.  Inputs are never
modified and no container of an input is shared with the result: cached
layers are reused across hosts.

Which strategy applies below the merged path (SPEC, kept from Datum):
- a key with its own rule (lookup_options) merges by that rule;
- under ``deep``, a nested map without a rule inherits its parent's strategy
  and a nested list uses the default; hash-array items are maps of the array's path;
- under ``hash`` and ``MostSpecific``, a key without a rule is taken whole
  from the most specific layer holding it.

Scalars in a map merge by the map's strategy (``merge_string``, ``merge_scalar``),
or by their own rule when a rule merges scalars.  The settings beyond Datum
(``LeastSpecific``, ``Positional``, ``Join``, the order and null options...) are
described in strategy.py and docs/merge-strategies.md; their defaults are Datum's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple

from ansible_collections.strata.hier.plugins.module_utils.errors import MergeDepthError, MergeInputError
from ansible_collections.strata.hier.plugins.module_utils.hash_array import general_first, group_items
from ansible_collections.strata.hier.plugins.module_utils.kinds import (
    EMPTY_LIST, LIST, MAP, MAP_LIST, SCALAR, SCALAR_LIST, family_of, list_kind,
)
from ansible_collections.strata.hier.plugins.module_utils.knockout import knockout_text
from ansible_collections.strata.hier.plugins.module_utils.rules import MergeRules, join_path, split_path
from ansible_collections.strata.hier.plugins.module_utils.strategy import (
    DEEP, DEEP_TUPLE, DELETE, GENERAL_FIRST, JOIN, LEAST_SPECIFIC, MOST_SPECIFIC, NOT_FOUND, POSITIONAL,
    SPECIFIC_FIRST, TOGETHER, UNIQUE, WHOLE_MODES, MergeStrategy,
)

MAX_DEPTH = 64
"""Deepest nesting merged; deeper data (or data that refers to itself) is an error."""


@dataclass
class MergeResult:
    """A merged value and how it was obtained."""

    value: Any
    found: bool
    strategy: MergeStrategy
    rule: str
    sources: Any = None
    """Indexes of the layers that supplied the value: a list, or for a map a list per top-level key."""
    warnings: List[str] = field(default_factory=list)


class Merged(NamedTuple):
    """A merged value and the warnings met (what a system's merge, such as Heat's or cloud-init's, returns)."""

    value: Any
    warnings: List[str]


def merge_layers(values: Sequence[Any], rules: MergeRules, path: Any = ()) -> MergeResult:
    """Merge the values one key path has in several layers, most specific first.

    ``None`` means the layer does not hold the key (Datum: found means not null).
    """
    keys = split_path(path)
    strategy, rule = rules.resolve(keys)
    layers = [index for index, value in enumerate(values) if value is not None]
    if not layers:
        return MergeResult(None, False, strategy, rule, [])
    engine = _Engine(rules)
    least = strategy.type_mismatch == LEAST_SPECIFIC
    family = family_of(values[layers[-1] if least else layers[0]])
    kept = [index for index in layers if family_of(values[index]) is family]
    if len(kept) != len(layers):
        engine.warn_mismatch(keys, family, least)
    found = [values[index] for index in kept]
    if family is MAP:
        value = engine.maps(keys, found, strategy, 0, kept)
        sources = engine.sources
    else:
        value = engine.merge(keys, found, strategy, 0, family)
        sources = _sources(found, strategy, kept)
    return MergeResult(value, True, strategy, rule, sources, engine.warnings)


def merge_documents(documents: Sequence[Any], rules: MergeRules) -> MergeResult:
    """Merge whole documents (maps), most specific first: each top-level key merges as a lookup of it would.

    A key uses its own rule or the default, whatever the other keys do; ``--key`` at the top
    removes that key from less specific documents when the default has a knockout prefix.
    """
    default, rule = rules.default
    layers = [index for index, document in enumerate(documents) if document is not None]
    for index in layers:
        if not isinstance(documents[index], Mapping):
            raise MergeInputError('document %d is a %s, not a map' % (index, type(documents[index]).__name__))
    engine = _Engine(rules)
    value = engine.maps((), [documents[index] for index in layers], default.with_(merge_hash=DEEP), 0,
                        layers, documents=True)
    return MergeResult(value, bool(layers), default, rule, engine.sources, engine.warnings)


def _is_whole(strategy: MergeStrategy) -> bool:
    return MOST_SPECIFIC == strategy.merge_hash == strategy.merge_basetype_array == strategy.merge_hash_array


def _mode(value: Any, strategy: MergeStrategy) -> str:
    """The sub-strategy that merges values of this shape."""
    family = family_of(value)
    if family is MAP:
        return strategy.merge_hash
    if family is SCALAR:
        return strategy.merge_string if isinstance(value, str) else strategy.merge_scalar
    return strategy.merge_hash_array if list_kind([value]) == MAP_LIST else strategy.merge_basetype_array


def _sources(values: List[Any], strategy: MergeStrategy, indexes: List[int]) -> List[int]:
    """The layers (of ``indexes``, most specific first) that supply a merged value."""
    mode = _mode(values[0], strategy)
    if mode == MOST_SPECIFIC:
        return indexes[:1]
    if mode == LEAST_SPECIFIC:
        return indexes[-1:]
    return list(indexes)


def merge_scalars(values: List[Any], strategy: MergeStrategy) -> Any:
    """Scalars of several layers, most specific first: merge_string when all are strings, else merge_scalar."""
    if len(values) == 1 or strategy.plain_scalars:
        return values[0]
    if all(isinstance(value, str) for value in values):
        mode = strategy.merge_string
        if mode == JOIN:
            return _join(values if strategy.string_order == SPECIFIC_FIRST else values[::-1],
                         strategy.string_separator)
    else:
        mode = strategy.merge_scalar
    return values[-1] if mode == LEAST_SPECIFIC else values[0]


def _join(parts: List[str], separator: str) -> str:
    """Join strings; the result keeps the class of a part whose class is a subclass of str
    (such as a marker of untrusted text), so joining never launders a part."""
    joined = separator.join(parts)
    for part in parts:
        cls = type(part)
        if cls is not str:
            try:
                return cls(joined)
            except Exception:   # pylint: disable=broad-except
                return joined
    return joined


def freeze(value: Any, depth: int = 0) -> Any:
    """A hashable stand-in for a value; equal values give equal stand-ins."""
    if depth > MAX_DEPTH:
        raise MergeDepthError('a list item nests deeper than %d levels, or refers to itself' % MAX_DEPTH)
    family = family_of(value)
    if family is MAP:
        return ('map', frozenset((freeze(k, depth + 1), freeze(v, depth + 1)) for k, v in value.items()))
    if family is LIST:
        return ('list', tuple(freeze(item, depth + 1) for item in value))
    if isinstance(value, bool):
        return ('bool', value)    # YAML's true is not the integer 1
    return value


def copy_value(value: Any, depth: int = 0) -> Any:
    """A copy of plain data sharing no map or list with it (maps become dicts, lists lists).

    copy.deepcopy would recurse until Python's RecursionError and copy self-referencing data;
    this raises MergeDepthError past MAX_DEPTH, as the merge does.
    """
    family = family_of(value)
    if family is SCALAR:
        return value
    if depth > MAX_DEPTH:
        raise _too_deep(())
    if family is MAP:
        return {key: copy_value(item, depth + 1) for key, item in value.items()}
    return [copy_value(item, depth + 1) for item in value]


def _too_deep(path: Sequence[Any]) -> MergeDepthError:
    return MergeDepthError('data nests deeper than %d levels, or refers to itself' % MAX_DEPTH, join_path(path))


class _Engine:
    def __init__(self, rules: MergeRules) -> None:
        self.rules = rules
        self.warnings: List[str] = []
        self.sources: Dict[Any, List[int]] = {}
        self._derived: Dict[Tuple[MergeStrategy, str], MergeStrategy] = {}

    def warn_mismatch(self, path: Sequence[Any], family: str, least: bool = False) -> None:
        which, others = ('least', 'more') if least else ('most', 'less')
        self.warnings.append('type mismatch at %r: the %s specific value is a %s; %s specific values '
                             'of another type were ignored' % (join_path(path) or '(root)', which, family, others))

    def tuple_value(self, value: Any) -> Any:
        return freeze(self.rules.fold(value))

    def whole(self, strategy: MergeStrategy) -> MergeStrategy:
        """Take the most specific value whole, still dropping markers of the prefix in force."""
        return self._derive(strategy, MOST_SPECIFIC)

    def _derive(self, strategy: MergeStrategy, merge_hash: str) -> MergeStrategy:
        key = (strategy, merge_hash)
        derived = self._derived.get(key)
        if derived is None:
            if merge_hash == MOST_SPECIFIC:
                derived = strategy.with_(merge_hash=MOST_SPECIFIC, merge_basetype_array=MOST_SPECIFIC,
                                         merge_hash_array=MOST_SPECIFIC)
            else:
                derived = strategy.with_(merge_hash=merge_hash)
            self._derived[key] = derived
        return derived

    def merge(self, path: Tuple[Any, ...], values: List[Any], strategy: MergeStrategy, depth: int,
              family: Optional[str] = None) -> Any:
        least = strategy.type_mismatch == LEAST_SPECIFIC
        if family is None:
            family = family_of(values[-1] if least else values[0])
        if len(values) > 1:
            values = self.same_family(path, values, family, least)
        if family is MAP:
            return self.maps(path, values, strategy, depth)
        if family is LIST:
            return self.lists(path, values, strategy, depth)
        return merge_scalars(values, strategy)

    def same_family(self, path: Sequence[Any], values: List[Any], family: str, least: bool = False) -> List[Any]:
        """The values of the winning value's family (the most specific value's, or with
        ``least`` the least specific value's); warn when others were dropped, unless the
        winner or every dropped value is a null (null_values: value)."""
        for value in values:
            if family_of(value) is not family:
                kept = [value for value in values if family_of(value) is family]
                dropped = [value for value in values if family_of(value) is not family]
                winner = values[-1] if least else values[0]
                if winner is not None and any(value is not None for value in dropped):
                    self.warn_mismatch(path, family, least)
                return kept
        return values

    # --- maps -------------------------------------------------------------------------
    def collect_keys(self, maps: Sequence[Mapping], strategy: MergeStrategy, track: bool) -> tuple:
        """Per key (folded when keys are case-insensitive): the values, most specific first.

        A null is no value (null_values: not_found), a value (value), or removes the key from
        less specific maps (delete); a deleting null that finds nothing to delete is a value.
        Also returns the key as most specifically written (case-insensitive only) and, when
        ``track``, the indexes of the maps that supplied each key.
        """
        prefix = strategy.knockout_prefix
        nulls = strategy.null_values
        if not (track or self.rules.case_insensitive_keys) and nulls == NOT_FOUND:
            entries = _plain_collect(maps)
            if not _may_hold_markers(entries, prefix):
                return entries, None, None
        fold = self.rules.case_insensitive_keys
        keep_null = nulls != NOT_FOUND
        entries: Dict[Any, List[Any]] = {}
        spelled: Optional[Dict[Any, Any]] = {} if fold else None
        supplied: Optional[Dict[Any, List[int]]] = {} if track else None
        knocked: set = set()
        deleted: set = set()        # keys a null removed from less specific maps (null_values: delete)
        removed: set = set()        # ... which a less specific map did hold
        for index, mapping in enumerate(maps):
            knocks = []
            deletes = []
            for key, value in mapping.items():
                is_text = isinstance(key, str)
                if prefix is not None and is_text and key.startswith(prefix):
                    knocks.append(self.rules.fold(key[len(prefix):]))
                    continue
                folded = key.casefold() if fold and is_text else key
                if knocked and knockout_text(folded) in knocked:
                    continue
                if deleted and folded in deleted:
                    if folded not in removed:       # drop the deleting null: it found something to delete
                        removed.add(folded)
                        entries[folded].pop()
                        if supplied is not None:
                            supplied[folded].pop()
                    continue
                values = entries.get(folded)
                if values is None:
                    entries[folded] = values = []
                    if spelled is not None:
                        spelled[folded] = key
                    if supplied is not None:
                        supplied[folded] = []
                if value is not None or keep_null:
                    values.append(value)
                    if supplied is not None:
                        supplied[folded].append(index)
                    if value is None and nulls == DELETE:
                        deletes.append(folded)      # the last value of this key: nothing less specific is added
            knocked.update(knocks)
            deleted.update(deletes)
        for folded in removed:
            if not entries[folded]:
                del entries[folded]
                if spelled is not None:
                    del spelled[folded]
                if supplied is not None:
                    del supplied[folded]
        return entries, spelled, supplied

    def maps(self, path: Tuple[Any, ...], maps: List[Any], strategy: MergeStrategy, depth: int,
             layers: Optional[List[int]] = None, documents: bool = False) -> dict:
        """Merge maps key by key; with ``layers`` (their layer indexes) also record each key's sources.

        ``documents``: the maps are whole documents, whose keys each use their own rule or the default.
        """
        if depth > MAX_DEPTH:
            raise _too_deep(path)
        if strategy.merge_hash == MOST_SPECIFIC:
            maps = maps[:1]
        elif strategy.merge_hash == LEAST_SPECIFIC:
            maps = maps[-1:]
            if layers is not None:
                layers = layers[-1:]
        entries, spelled, supplied = self.collect_keys(maps, strategy, layers is not None)
        plain = strategy.plain_scalars and not self.rules.scalar_rules
        least = strategy.type_mismatch == LEAST_SPECIFIC
        result = {}
        for folded, values in entries.items():
            key = folded if spelled is None else spelled[folded]
            if not values:
                result[key] = None
                continue
            if _SCALAR_TYPES.issuperset(map(type, values)):     # the hot path: plain scalars
                family = SCALAR
            else:
                family = family_of(values[-1] if least else values[0])
                values = self.same_family(path + (key,), values, family, least)
            if family is SCALAR:
                if plain:
                    result[key] = values[0]
                    child_strategy = strategy
                else:
                    child_strategy = self.scalar_strategy(path + (key,), strategy, documents)
                    result[key] = merge_scalars(values, child_strategy)
            else:
                child_path = path + (key,)
                if documents:
                    child_strategy = self.rules.resolve(child_path)[0]
                else:
                    child_strategy = self.child_strategy(child_path, family, strategy)
                whole = _is_whole(child_strategy) and (family is not LIST or len(values) == 1)
                result[key] = self.merge(child_path, values[:1] if whole else values,   # lists: check their kinds
                                         child_strategy, depth + 1, family)
            if supplied is not None:
                indexes = [layers[index] for index in supplied[folded]]
                self.sources[key] = _sources(values, child_strategy, indexes)
        if strategy.key_order == GENERAL_FIRST and len(maps) > 1:
            return self.keys_general_first(result, maps, spelled)
        return result

    def keys_general_first(self, result: dict, maps: Sequence[Mapping], spelled: Optional[Dict[Any, Any]]) -> dict:
        """The merged map with the least specific map's keys first (key_order: general_first)."""
        fold = self.rules.case_insensitive_keys
        ordered = {}
        for mapping in reversed(maps):
            for key in mapping:
                if spelled is not None:
                    key = spelled.get(key.casefold() if fold and isinstance(key, str) else key, _ABSENT)
                if key in result and key not in ordered:
                    ordered[key] = result[key]
        return ordered

    def scalar_strategy(self, path: Tuple[Any, ...], parent: MergeStrategy, documents: bool) -> MergeStrategy:
        """A scalar merges by its own rule when a rule merges scalars, else by its map's strategy."""
        if self.rules.scalar_rules or documents:     # a document's key: its own rule, as its lookup
            rule = self.rules.explicit(path)
            if rule is not None:
                return rule[0]
        return self.rules.default[0] if documents else parent

    def child_strategy(self, path: Tuple[Any, ...], family: str, parent: MergeStrategy) -> MergeStrategy:
        rule = self.rules.explicit(path)
        if rule is not None:
            return rule[0]
        if parent.merge_hash != DEEP:
            return self.whole(parent)
        if family is LIST:
            return self.rules.default[0]
        return parent

    # --- lists ------------------------------------------------------------------------
    def lists(self, path: Tuple[Any, ...], lists: List[Any], strategy: MergeStrategy, depth: int) -> list:
        if depth > MAX_DEPTH:
            raise _too_deep(path)
        if strategy.list_kinds == TOGETHER:
            kinds = {list_kind([items]) for items in lists}
            kinds.discard(EMPTY_LIST)
            if not kinds:
                return []
            kind = MAP_LIST if kinds == {MAP_LIST} else SCALAR_LIST
            same = lists
        else:
            least = strategy.type_mismatch == LEAST_SPECIFIC
            kind = list_kind(lists[::-1] if least else lists)
            if kind == EMPTY_LIST:
                return []
            same = [items for items in lists if list_kind([items]) in (kind, EMPTY_LIST)]
            if len(same) != len(lists):
                self.warnings.append('type mismatch at %r: lists of maps and lists of scalars do not merge; '
                                     'the %s specific kind was kept' % (join_path(path), 'least' if least else 'most'))
        if kind == MAP_LIST:
            return self.hash_arrays(path, same, strategy, depth)
        return self.basetype_arrays(path, same, strategy, depth)

    def basetype_arrays(self, path: Tuple[Any, ...], lists: List[Any], strategy: MergeStrategy,
                        depth: int) -> list:
        mode = strategy.merge_basetype_array
        if mode == MOST_SPECIFIC:
            lists = lists[:1]
        elif mode == LEAST_SPECIFIC:
            lists = lists[-1:]
        elif mode == POSITIONAL:
            return self.positional(path, lists, strategy, depth)
        prefix = strategy.knockout_prefix
        unique = mode == UNIQUE
        reorder = strategy.array_order == GENERAL_FIRST and len(lists) > 1
        result, seen, knocked, starts = [], set(), set(), []
        for items in lists:
            if reorder:
                starts.append(len(result))
            knocks = []
            for item in items:
                if prefix is not None and isinstance(item, str) and item.startswith(prefix):
                    knocks.append(item[len(prefix):])
                    continue
                if knocked and family_of(item) is SCALAR and knockout_text(item) in knocked:
                    continue
                if unique:
                    identity = freeze(item)
                    if identity in seen:
                        continue
                    seen.add(identity)
                if family_of(item) is not SCALAR:     # a list mixing scalars and containers
                    item = self.merge(path, [item], self.whole(strategy), depth + 1)
                result.append(item)
            knocked.update(knocks)
        return general_first(result, starts) if reorder else result

    def hash_arrays(self, path: Tuple[Any, ...], lists: List[Any], strategy: MergeStrategy, depth: int) -> list:
        if strategy.merge_hash_array == POSITIONAL:
            return self.positional(path, lists, strategy, depth)
        if strategy.merge_hash_array == DEEP_TUPLE:
            item_strategy = self._derive(strategy, DEEP)     # matched items merge key by key
        else:
            item_strategy = self.whole(strategy)
        whole = item_strategy.merge_hash == MOST_SPECIFIC
        fold = self.rules.fold if self.rules.case_insensitive_keys else None
        return [self.maps(path, group[:1] if whole else group, item_strategy, depth + 1)
                for group in group_items(lists, strategy, self.tuple_value, fold)]

    def positional(self, path: Tuple[Any, ...], lists: List[Any], strategy: MergeStrategy, depth: int) -> list:
        """Item i merges the items at index i of every layer; the result is as long as the least
        specific list (items more specific lists hold beyond it are dropped: cloud-init's list replace).

        Base-type knockout markers are dropped first; they remove nothing.
        """
        prefix = strategy.knockout_prefix
        if prefix is not None:
            lists = [[item for item in items if not (isinstance(item, str) and item.startswith(prefix))]
                     for items in lists]
        items_strategy = strategy.positional_items or _ITEMS_WHOLE
        result = []
        for index in range(len(lists[-1])):
            group = [items[index] for items in lists if index < len(items)]
            if strategy.null_values == NOT_FOUND and len(group) > 1:
                group = [item for item in group if item is not None] or [None]
            result.append(self.item_at(path, group, strategy, items_strategy, depth))
        return result

    def item_at(self, path: Tuple[Any, ...], group: List[Any], strategy: MergeStrategy, items: MergeStrategy,
                depth: int) -> Any:
        """The items at one index of Positional arrays, most specific first, merged as ``items`` says;
        maps and lists that merge do so by the array's strategy with ``items``' sub-strategy in place."""
        least = items.type_mismatch == LEAST_SPECIFIC
        family = family_of(group[-1] if least else group[0])
        if len(group) > 1:
            group = self.same_family(path, group, family, least)
        if family is SCALAR:
            return merge_scalars(group, items)
        if family is MAP:
            mode = items.merge_hash
            if mode in WHOLE_MODES:
                return self.merge(path, group[-1:] if mode == LEAST_SPECIFIC else group[:1], self.whole(strategy),
                                  depth + 1, MAP)
            return self.maps(path, group, self._derive(strategy, mode), depth + 1)
        mode = items.merge_hash_array if list_kind(group) == MAP_LIST else items.merge_basetype_array
        if mode in WHOLE_MODES:
            return self.merge(path, group[-1:] if mode == LEAST_SPECIFIC else group[:1], self.whole(strategy),
                              depth + 1, LIST)
        return self.lists(path, group, self._arrays_of(strategy, items), depth + 1)

    def _arrays_of(self, strategy: MergeStrategy, items: MergeStrategy) -> MergeStrategy:
        key = (strategy, items)
        derived = self._derived.get(key)
        if derived is None:
            derived = strategy.with_(merge_basetype_array=items.merge_basetype_array,
                                     merge_hash_array=items.merge_hash_array)
            self._derived[key] = derived
        return derived


_SCALAR_TYPES = frozenset((str, int, float, bool, type(None)))
_ITEMS_WHOLE = MergeStrategy()
_ABSENT = object()


def _may_hold_markers(keys: Mapping, prefix: Optional[str]) -> bool:
    """Whether any key may start with the knockout prefix.

    The merge's hot path: joining text keys and searching the result runs in C;
    a non-text key or a false alarm only sends the maps down the general path.
    """
    if prefix is None or not keys:
        return False
    try:
        return ('\n' + '\n'.join(keys)).find('\n' + prefix) >= 0
    except TypeError:
        return True


def _plain_collect(maps: Sequence[Mapping]) -> Dict[Any, List[Any]]:
    """collect_keys without knockout, case folding or tracking."""
    entries: Dict[Any, List[Any]] = {key: [] if value is None else [value] for key, value in maps[0].items()}
    for mapping in maps[1:]:
        for key, value in mapping.items():
            if key in entries:
                if value is not None:
                    entries[key].append(value)
            else:
                entries[key] = [] if value is None else [value]
    return entries
