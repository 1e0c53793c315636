# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Walking loaded data at the cost of the data as written.

YAML aliases let a file of a few hundred bytes hold a container shared billions of times
(9 levels of 9 aliases: 9**9 items), or a container that holds itself. Every walk of the
plugins over loaded data goes through this module: a shared container is visited once
(its copy is built once and shared in the same way), a container holding itself or data
nesting deeper than the merge core's ``MAX_DEPTH`` is the core's depth error, and what must
be written out in full (a cache, YAML for review) is first measured against
``EXPANDED_LIMIT``.
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeDepthError, MergeError
from ansible_collections.strata.hier.plugins.module_utils.core.kinds import BUILTIN_SCALARS, FAST_PATHS
from ansible_collections.strata.hier.plugins.module_utils.core.limits import MAX_DEPTH
from ansible_collections.strata.hier.plugins.module_utils.core.rules import join_path

EXPANDED_LIMIT = 200000
"""Most values a piece of data may expand to when written out in full, aliases repeated."""


class DataSizeError(MergeError):
    """Data written out in full (aliases repeated) would hold more than EXPANDED_LIMIT values."""


def children(value: Any) -> Optional[Sequence[Tuple[Any, Any]]]:
    """(key, item) pairs of a map, a list, a tuple or a set; None for a scalar (vault values are scalars)."""
    if type(value) in BUILTIN_SCALARS:     # most values; an ABC check costs far more the first time a type meets it
        return None
    if isinstance(value, Mapping):
        return list(value.items())
    if isinstance(value, (list, tuple)):
        return list(enumerate(value))
    if isinstance(value, Set):
        return list(enumerate(value))
    return None


def depth_error(path: Sequence[Any], cycle: bool) -> MergeDepthError:
    reason = 'refers to itself (a YAML alias inside its own anchor)' if cycle else \
        'nests deeper than %d levels' % MAX_DEPTH
    return MergeDepthError('data %s' % reason, shown_path(path))


def shown_path(path: Sequence[Any]) -> str:
    """A key path for a message; a key that is no plain scalar (a vault value) is shown by its type only."""
    return join_path(tuple(part if isinstance(part, (str, int, float)) or part is None else '<%s>' % type(part).__name__
                           for part in path))


def rebuild(value: Any, scalar: Callable[[Any], Any], mapping: Optional[Callable[[Mapping], Any]] = None,
            wrappers: int = 0) -> Any:
    """A copy of data as builtin dicts and lists, each other value given to ``scalar``.

    ``mapping(value)`` may replace a whole map (None: rebuild it). A container shared through
    aliases is rebuilt once and its copy shared alike, so the cost is that of the data as written.
    ``wrappers``: how many levels of maps hold the data (an explain report, a cache's hosts), beyond MAX_DEPTH.
    """
    done: Dict[int, Any] = {}
    active: set = set()

    def walk(item: Any, path: Tuple[Any, ...]) -> Any:
        if mapping is not None and isinstance(item, Mapping):
            replaced = mapping(item)
            if replaced is not None:
                return replaced
        pairs = children(item)
        if pairs is None:
            return scalar(item)
        known = done.get(id(item))
        if known is not None:
            return known
        _enter(item, path, active, wrappers)
        if isinstance(item, Mapping):
            built: Any = {walk(key, path): walk(child, path + (key,)) for key, child in pairs}
        else:
            built = [walk(child, path + (index,)) for index, child in pairs]
        active.discard(id(item))
        done[id(item)] = built
        return built

    return walk(value, ())


def _enter(item: Any, path: Tuple[Any, ...], active: set, wrappers: int = 0) -> None:
    if id(item) in active:
        raise depth_error(path, True)
    if len(path) - wrappers >= MAX_DEPTH:
        raise depth_error(path, False)
    active.add(id(item))


def expanded_size(value: Any, limit: Optional[int] = None) -> int:
    """How many values the data holds written out in full (aliases repeated), counted at the cost of the data as
    written; DataSizeError past ``limit`` (default EXPANDED_LIMIT), the depth error for data holding itself or nesting too deep."""
    limit = EXPANDED_LIMIT if limit is None else limit
    sizes: Dict[int, int] = {}
    active: set = set()

    def count(item: Any, path: Tuple[Any, ...]) -> int:
        pairs = children(item)
        if pairs is None:
            return 1
        known = sizes.get(id(item))
        if known is not None:
            return known
        _enter(item, path, active)
        total = 1 + sum(count(child, path + (key,)) + (1 if isinstance(item, Mapping) else 0)
                        for key, child in pairs)
        active.discard(id(item))
        if total > limit:
            raise DataSizeError('data expands to more than %d values when written out (YAML aliases repeat '
                                'what they refer to)' % limit, shown_path(path))
        sizes[id(item)] = total
        return total

    return count(value, ())


def find(value: Any, predicate: Callable[[Any], bool], keys: bool = False,
         depth: int = MAX_DEPTH) -> Optional[Tuple[Tuple[str, ...], Any]]:
    """The key path and value of the first scalar for which ``predicate`` is true, each container looked at once
    (a container holding itself is not looked at again); the depth error past ``depth``. With ``keys``, map keys
    are looked at too (a key found is its own path's last part)."""
    seen: set = set()

    def search(item: Any, path: Tuple[str, ...]) -> Optional[Tuple[Tuple[str, ...], Any]]:
        pairs = children(item)
        if pairs is None:
            return (path, item) if predicate(item) else None
        if id(item) in seen:
            return None
        if len(path) >= depth:
            raise depth_error(path, False)
        seen.add(id(item))
        for key, child in pairs:
            if keys and isinstance(item, Mapping) and children(key) is None and predicate(key):
                return path + (str(key),), key
            found = search(child, path + (str(key),))
            if found:
                return found
        return None

    return search(value, ())


def holds(value: Any, predicate: Callable[[Any], bool], depth: int = MAX_DEPTH) -> bool:
    """Whether ``find(value, predicate, depth=depth)`` may find a scalar or fail: False only where it gives None.

    One flat walk over the values, with no key paths: a file's data is walked for ciphertext or handlers that it
    almost never holds, and ``find`` (for where, or for its error) is asked only when this says True. A container
    met again deeper than before (a YAML alias) says True too: whether find fails there depends on its order.
    Off with the core's fast paths (kinds.FAST_PATHS): always True.
    """
    if not FAST_PATHS.on:
        return True
    seen: Dict[int, int] = {}
    stack = [(value, 0)]
    while stack:
        item, level = stack.pop()
        values = _values(item)
        if values is None:
            if predicate(item):
                return True
            continue
        if id(item) in seen:
            if level > seen[id(item)]:
                return True
            continue
        if level >= depth:
            return True     # find fails here, or finds a value first: it says which
        seen[id(item)] = level
        for child in values:
            if child.__class__ is str:      # most values: looked at here rather than stacked
                if predicate(child):
                    return True
            else:
                stack.append((child, level + 1))
    return False


def _values(item: Any) -> Optional[Any]:
    """A container's values (as ``children`` finds containers), or None for a scalar."""
    kind = type(item)
    if kind in BUILTIN_SCALARS:
        return None
    if kind is dict:
        return item.values()
    if kind is list:
        return item
    pairs = children(item)
    return None if pairs is None else [pair[1] for pair in pairs]


def find_key(value: Any, predicate: Callable[[Any], bool]) -> Optional[Tuple[Any, ...]]:
    """The key path (the key itself last, keys as they are: show it with ``shown_path``) of the first map key for
    which ``predicate`` is true, each container looked at once; the depth error past ``MAX_DEPTH``."""
    seen: set = set()

    def search(item: Any, path: Tuple[Any, ...]) -> Optional[Tuple[Any, ...]]:
        pairs = children(item)
        if pairs is None or id(item) in seen:
            return None
        if len(path) >= MAX_DEPTH:
            raise depth_error(path, False)
        seen.add(id(item))
        is_map = isinstance(item, Mapping)
        for key, child in pairs:
            if is_map and predicate(key):
                return path + (key,)
            found = search(child, path + (key,))
            if found:
                return found
        return None

    return search(value, ())


def map_paths(value: Any, path: Tuple[Any, ...], limit: int) -> List[Tuple[Any, ...]]:
    """``path`` and the key path of every map key under it (maps only: list items have no key path), at most
    ``limit`` of them (a MergeError beyond: a constraint's regex is matched against each)."""
    paths, pending = [], [(value, path)]
    while pending:
        item, at = pending.pop()
        paths.append(at)
        if len(paths) > limit:
            raise MergeError('more than %d key paths under %s to match constraints against' % (limit, shown_path(path)))
        if isinstance(item, Mapping) and len(at) <= MAX_DEPTH:
            pending.extend((child, at + (key,)) for key, child in item.items() if isinstance(key, str))
    return paths
