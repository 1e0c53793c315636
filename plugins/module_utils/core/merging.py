# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The merge engine: one key path's values from several layers -> one value.

Layers are given most specific first, everywhere in the core.  All layers are merged at once (not
pairwise), so the cost is linear in the size of the input.  Inputs are never modified and no
container of an input is shared with the result: cached layers are reused across hosts.

The engine is a dispatcher: a strategy's dispatch hands the values to the merger for their kind
(mergers/), which asks the engine again for nested values, with the strategy the rules give them.
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple, TypeVar, Union

from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeInputError
from ansible_collections.strata.hier.plugins.module_utils.core.identity import freeze, shown_path
from ansible_collections.strata.hier.plugins.module_utils.core.kinds import FAST_PATHS, MAP, SCALAR, family_of
from ansible_collections.strata.hier.plugins.module_utils.core.knockout import ItemKnockouts
from ansible_collections.strata.hier.plugins.module_utils.core.limits import WorkBudget
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.base import INHERITED, WHOLE
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.maps import DEEP
from ansible_collections.strata.hier.plugins.module_utils.core.paths import fold_text, split_path
from ansible_collections.strata.hier.plugins.module_utils.core.rules import DEFAULT_RULE, MergeRules, Rule
from ansible_collections.strata.hier.plugins.module_utils.core.strategy import MergeStrategy

if TYPE_CHECKING:
    from ansible_collections.strata.hier.plugins.module_utils.core.mergers.base import Merger
    from ansible_collections.strata.hier.plugins.module_utils.core.mergers.hash_arrays import HashArrayMerger
    from ansible_collections.strata.hier.plugins.module_utils.core.mergers.scalar_lists import ScalarListMerger


class MergeResult:
    """A merged value and how it was obtained (every merge of the core returns one).

    ``sources``: indexes of the layers that supplied the value, a list, or for a map a list per top-level key.
    ``paths``: with explain, the strategy each map and list of the value merged by (``PathTrace.report``).
    ``trace`` and ``provenance``: with provenance, the PathTrace and the Provenance of the merge.
    """

    __slots__ = ('value', 'found', 'strategy', 'rule', 'sources', 'warnings', 'paths', 'trace', 'provenance')

    def __init__(self, value: Any, found: bool = True, strategy: Optional[MergeStrategy] = None, rule: str = '',
                 sources: Any = None, warnings: Optional[List[str]] = None,
                 paths: Optional[List[Dict[str, Any]]] = None) -> None:
        self.value, self.found, self.strategy, self.rule, self.sources = value, found, strategy, rule, sources
        self.warnings = [] if warnings is None else warnings
        self.paths = paths
        self.trace: Optional[PathTrace] = None
        self.provenance: Any = None     # a provenance.Provenance


class PathTrace:
    """What explain reports per key path: the strategy and the merger each map and list merged by.

    The merge notes them where it decides them (``chose``: the strategy of a path, in MapMerger._merge_key;
    ``merged``: the merger its values went to, in the dispatch), so the report is the merge's own decision.
    Only an explaining merge has one (``MergeRun.trace``); it runs without the fast paths that decide nothing
    aloud (``MergeRules.every_path``).
    """

    def __init__(self, reports: bool = True) -> None:
        self._chosen: Dict[Tuple[Any, ...], Tuple[MergeStrategy, str, str]] = {}   # path -> strategy, rule, how
        self._entries: Dict[str, Dict[str, Any]] = {}
        self._reports = reports     # False: provenance only, which reads rule_of (the entries cost a repr each)

    @property
    def reports(self) -> bool:
        """Whether explain's report is built (else provenance reads the rules chosen only)."""
        return self._reports

    def chose(self, path: Tuple[Any, ...], strategy: MergeStrategy, rule: str,
              under: Optional[Tuple[Any, ...]] = None) -> None:
        """``strategy`` merges the values at ``path``, by ``rule`` (a rule's name, INHERITED or WHOLE: then the
        rule of the path ``under``, by default the parent, whose strategy it derives from)."""
        if rule is INHERITED or rule is WHOLE:
            parent = self._chosen.get(path[:-1] if under is None else under)
            how, rule = ('inherited' if rule is INHERITED else 'whole'), (parent[1] if parent else '')
        else:
            how = 'default' if rule == DEFAULT_RULE else 'rule'
        self._chosen[path] = (strategy, rule, how)

    def merged(self, path: Tuple[Any, ...], merger: Optional[Merger], kind: str = '') -> None:
        """The values at ``path`` went to ``merger`` (None: no merger, the values being of ``kind``)."""
        if not self._reports:
            return
        strategy, rule, how = self._chosen[path]
        entry: Dict[str, Any] = {'path': shown_path(path), 'type': kind if merger is None else merger.VALUES,
                                 'strategy': strategy.name, 'rule': rule, 'how': how}
        if merger is not None:
            entry.update(merger.explained())
        # the items of a hash array note their paths once per item: one entry per different report (its text, as
        # its fields come in one order and some are lists or maps)
        self._entries.setdefault(repr(entry), entry)

    def report(self) -> List[Dict[str, Any]]:
        """The entries, in the order the merge met their paths (the looked-up path first)."""
        return list(self._entries.values())

    def rule_of(self, path: Tuple[Any, ...]) -> Tuple[str, str]:
        """(rule, how) of the nearest path at or above ``path`` whose strategy the merge chose."""
        for size in range(len(path), -1, -1):
            chosen = self._chosen.get(tuple(path[:size]))
            if chosen is not None:
                return chosen[1], chosen[2]
        return '', ''


class MergeRun:
    """One merge: the rules, what it found to warn about, the sources of a map's keys, its work budget, and
    with explain its PathTrace, with provenance also its Provenance.

    ``fast``: whether the merge takes the fast paths, read once from the switch (``kinds.FAST_PATHS``): not
    with provenance, which notes what the mergers decide and the fast paths decide nothing aloud.
    """

    def __init__(self, rules: MergeRules, inputs: Any, trace: Optional[PathTrace] = None,
                 provenance: Any = None) -> None:
        self.rules = rules
        self.warnings: List[str] = []
        self.sources: Dict[Any, List[int]] = {}
        self.budget = WorkBudget(inputs)
        self.trace = trace
        self.provenance = provenance
        self.fast = FAST_PATHS.on and provenance is None

    def merge(self, path: Tuple[Any, ...], values: List[Any], strategy: MergeStrategy, depth: int,
              family: Optional[str] = None) -> Any:
        """Values of one key path (nested in the merged value), most specific first."""
        return strategy.dispatch.merge(self, path, values, strategy, depth, family)

    def freeze(self, value: Any) -> Any:
        return freeze(value, self.budget)

    def tuple_freezer(self, case_insensitive: bool) -> Callable[[Any], Any]:
        """How tuple values compare: case-insensitively with case-insensitive keys (Datum's -eq)."""
        if case_insensitive:
            return lambda value: freeze(fold_text(value), self.budget)
        return self.freeze

    def item_knockouts(self, merger: Union[ScalarListMerger, HashArrayMerger]) -> ItemKnockouts:
        """Tuple knockouts of hash-array items, as a merger with tuple keys reads them."""
        return ItemKnockouts(merger.tuple_keys, merger.knockout_prefix, self.tuple_freezer(merger.case_insensitive),
                             fold_text if merger.case_insensitive else None)

    def warn_mismatch(self, path: Sequence[Any], family: str) -> None:
        self.warnings.append('type mismatch at %r: the most specific value is a %s; less specific values '
                             'of another type were ignored' % (shown_path(path) or '(root)', family))


_Merge = TypeVar('_Merge', bound=Callable[..., Any])


def cycle_collection_paused(merge: _Merge) -> _Merge:
    """Run ``merge`` with Python's cycle collector paused.

    A merge builds many containers and no reference cycle (refcounting frees all it drops), while each
    collection the allocations trigger walks every container the process holds (in a play, every cached
    layer): on the benchmark's DeepTuple that was a quarter of the merge's time.  A merge inside a merge
    leaves the collector to the outer one.
    """
    @functools.wraps(merge)
    def paused(*args: Any, **kwargs: Any) -> Any:
        if not gc.isenabled():
            return merge(*args, **kwargs)
        gc.disable()
        try:
            return merge(*args, **kwargs)
        finally:
            gc.enable()
    return paused  # type: ignore[return-value]


@cycle_collection_paused
def merge_layers(values: Sequence[Any], rules: MergeRules, path: Any = (), explain: bool = False,
                 provenance: bool = False) -> MergeResult:
    """Merge the values one key path has in several layers, most specific first.

    ``None`` means the layer does not hold the key (Datum: found means not null).  ``explain``: the result's
    ``paths`` tell the strategy each map and list of the value merged by (PathTrace).  ``provenance``: the
    result's ``provenance`` tells where each part of the value comes from (provenance.py), ``trace`` by which rule.
    """
    keys = split_path(path)
    rule = rules.resolve(keys)
    layers = [index for index, value in enumerate(values) if value is not None]
    if not layers:
        return MergeResult(None, False, rule.strategy, rule.name, [], paths=[] if explain else None)
    run = _start_run(rules, values, explain, provenance)
    family = family_of(values[layers[0]])
    kept = [index for index in layers if family_of(values[index]) is family]
    if len(kept) != len(layers):
        run.warn_mismatch(keys, family)
    if run.trace is not None:
        _trace_root(run.trace, keys, rule, family)
    value, sources = _merge_root(run, keys, rule.strategy, [values[index] for index in kept], kept, family)
    result = MergeResult(value, True, rule.strategy, rule.name, sources, run.warnings,
                         run.trace.report() if explain else None)
    if run.provenance is not None:
        _note_root(run.provenance, keys, [(run.provenance.layer_place(index), values[index]) for index in layers],
                   value)
        result.trace, result.provenance = run.trace, run.provenance
    return result


def _start_run(rules: MergeRules, values: Sequence[Any], explain: bool, provenance: bool) -> MergeRun:
    """The run of a lookup: with a PathTrace when it explains or notes provenance (its rules come from the trace;
    provenance alone reads only the strategy of each path, not explain's report of them)."""
    if not (explain or provenance):
        return MergeRun(rules, values)
    return MergeRun(rules.every_path(), values, PathTrace(explain), _provenance(values) if provenance else None)


def _merge_root(run: MergeRun, keys: Tuple[Any, ...], strategy: MergeStrategy, found: List[Any], kept: List[int],
                family: str) -> Tuple[Any, Any]:
    """The looked-up path's values merged, with their sources (a map's: per key)."""
    if family is MAP:
        return strategy.maps.merge(run, keys, found, strategy, 0, kept), run.sources
    value = run.merge(keys, found, strategy, 0, family)
    return value, strategy.sources(found[0], kept)


def _provenance(values: Sequence[Any]) -> Any:
    """A Provenance of the layers (its module loads only for a merge that asks for it)."""
    from ansible_collections.strata.hier.plugins.module_utils.core.provenance import Provenance
    return Provenance(values)


def _note_root(provenance: Any, keys: Tuple[Any, ...], definitions: List[Tuple[Any, Any]], value: Any) -> None:
    """The looked-up path's own record: every layer that holds it (a scalar's first one is its value)."""
    if family_of(value) is SCALAR:
        provenance.key(keys, definitions, value)
    else:
        provenance.container(keys, definitions, value)


def _trace_root(trace: PathTrace, keys: Tuple[Any, ...], rule: Rule, family: str) -> None:
    """The looked-up path's own entry; a list's merger is noted by the dispatch, which chooses it."""
    trace.chose(keys, rule.strategy, rule.name)
    if family is MAP:
        trace.merged(keys, rule.strategy.maps)
    elif family is SCALAR:
        trace.merged(keys, None, SCALAR)


@cycle_collection_paused
def merge_documents(documents: Sequence[Any], rules: MergeRules) -> MergeResult:
    """Merge whole documents (maps), most specific first: each top-level key merges as a lookup of it would.

    A key uses its own rule or the default, whatever the other keys do; ``--key`` at the top
    removes that key from less specific documents when the default has a knockout prefix.
    """
    default = rules.default.strategy
    layers = [index for index, document in enumerate(documents) if document is not None]
    for index in layers:
        if not isinstance(documents[index], Mapping):
            raise MergeInputError('document %d is a %s, not a map' % (index, type(documents[index]).__name__))
    run = MergeRun(rules, documents)
    strategy = default.with_maps(default.maps.with_settings(mode=DEEP))
    value = strategy.maps.merge(run, (), [documents[index] for index in layers], strategy, 0, layers, documents=True)
    return MergeResult(value, bool(layers), default, rules.default.name, run.sources, run.warnings)
