# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Datum's handlers in a Datum store, resolved for one node as Datum.InvokeCommand resolves them.

The expressions are parsed by ``module_utils/dialects/datum/expressions.py`` (never run); this module gives their
references a value: ``$Node`` is the node's own file data plus ``Name`` (its file's base name), before merging,
each property that is itself a handler resolved in the node file; ``$Datum.A.B`` reads the store (handlers in
what it reads resolved in their own file); ``$File`` is the file holding the value. A value is resolved level by
level before merging, as Datum's Merge-Datum does. A cycle (``$Node.A`` needing ``$Node.A``) is reported.

Data files are untrusted, so a node's resolutions are bounded: each ``$Node`` property and ``$Datum`` reference is
resolved once per node (memoised, as Datum resolves a file's handlers once), every handler's result is charged to
the node's ``limits.ExpansionBudget`` (characters of text, values of data), handlers within handlers stop at
``MAX_EXPANSION_DEPTH`` and the data they build at ``MAX_DEPTH``: an error names the file, line and key, never a
RecursionError. A value that takes data of a whole-file vaulted file through a reference is marked vaulted
(``resolve_level``), as the file's own values are.

What cannot be evaluated — other PowerShell, ``[ENC=...]`` — is an error naming file, line and key, or, when
Datum.yml says ``DatumHandlersThrowOnError: false``, a warning and the text kept as written (Datum's behaviour).
Warnings are results, never printed here: ``datum_levels`` returns the configuration's, a ``NodeContext`` keeps its
own until ``take_warnings`` (the lookup that resolved the value gives them to its answer).

Outside a Datum store (a hier.yml) handlers are not evaluated: ``handler_check.py`` refuses them. Only Datum stores
load this module and the expressions' parser.
"""

from __future__ import annotations

import glob
import os
import stat
from collections.abc import Mapping
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ansible_collections.strata.hier.plugins.module_utils.dialects.datum.expressions import (
    SUPPORTED_FORMS, ExpressionError, Reference, SourceFile, evaluate, parse, source_file,
)
from ansible_collections.strata.hier.plugins.module_utils.dialects.datum.syntax import is_handler, is_protected
from ansible_collections.strata.hier.plugins.module_utils.core.errors import ExpansionError, MergeError
from ansible_collections.strata.hier.plugins.module_utils.core.levels import Expansion, from_datum, split_level
from ansible_collections.strata.hier.plugins.module_utils.core.limits import (
    MAX_DEPTH, MAX_EXPANSION_DEPTH, ExpansionBudget,
)
from ansible_collections.strata.hier.plugins.module_utils.core.paths import join_path
from ansible_collections.strata.hier.plugins.plugin_utils.source_lines import key_position
from ansible_collections.strata.hier.plugins.plugin_utils.handler_check import DatumHandlerError, handler_in
from ansible_collections.strata.hier.plugins.plugin_utils.store import DATA_EXTENSIONS
from ansible_collections.strata.hier.plugins.plugin_utils.walk import (
    DataSizeError, children, depth_error, expanded_size,
)

PROTECTED_DATA = ('[ENC=...] (Datum.ProtectedData) cannot be decrypted without PowerShell; '
                  'store the secret as an Ansible vault value (ansible-vault encrypt_string) instead')


def datum_levels(path: str, levels: Sequence[str], throw: bool) -> Tuple[List[str], List[str]]:
    """ResolutionPrecedence as levels: ``$($Node.X)`` read as ``%{X}``; a handler entry kept for ``expand_level``,
    refused here when it cannot be evaluated (or, DatumHandlersThrowOnError false, a warning: it finds nothing).
    Returns (the levels, the warnings)."""
    result, warnings = [], []
    for level in levels:
        problem = _unsupported(level) if is_handler(level) else None
        if problem is not None:
            message = '%s: %s' % (key_position(path, ['ResolutionPrecedence']), problem)
            if throw:
                raise DatumHandlerError(message) from problem
            warnings.append('%s; the level finds nothing (DatumHandlersThrowOnError: false)' % message)
        result.append(level if is_handler(level) else from_datum(level))
    return result, warnings


def _unsupported(text: str) -> Optional[ExpressionError]:
    """Why a handler cannot be evaluated, or None."""
    if is_protected(text):
        return ExpressionError(PROTECTED_DATA)
    try:
        parse(text)
    except ExpressionError as exc:
        return exc
    return None


class NodeContext:
    """The handler context of one node of a Datum store: its ``$Node``, the store for ``$Datum``, the settings, and
    the node's work budget (``budget``), which every handler's result is charged to; ``warnings`` not given yet
    (``take_warnings``)."""

    def __init__(self, config: Any, store: Any, variables: Mapping) -> None:
        self.store = store
        self.config = config
        self.throw = config.handlers_throw
        self.variables = variables
        self.budget = ExpansionBudget()
        self._counted: set = set()      # the files whose written size the budget has
        self.node_file, self.node_data = _locate_node(config.nodes, store, variables)
        self._node_vaulted = bool(self.node_file) and store.vaulted(self.node_file)
        self._count_written(self.node_file)
        self._active: List[str] = []
        self._node_values: Dict[str, Tuple[Any, bool, List[str]]] = {}     # $Node: (value, took vaulted data, warnings)
        self._references: Dict[Tuple[str, ...], Tuple[Any, bool, List[str]]] = {}     # $Datum references, alike
        self._sizes: Dict[int, Optional[int]] = {}     # id of a value the memos keep alive -> its size, once known
        self._vaulted_read = False      # whether the value being resolved took data of a whole-file vaulted file
        self._nesting = 0               # how deep the value being resolved sits in the handlers' values around it
        self.warnings: List[str] = []   # a memoised resolution's warnings come again with each value using it

    def take_warnings(self) -> List[str]:
        """The warnings of the resolutions since the last call (the lookup that caused them gives them)."""
        taken, self.warnings = self.warnings, []
        return list(dict.fromkeys(taken))      # a handler repeated in one value: one warning

    # -- what the hierarchy asks
    def level_variable(self, read: Callable[[Mapping, str], Any]) -> Callable[[Mapping, str], Any]:
        """``read`` for a level's ``$($Node.X)``: the variable, a handler in it resolved; a variable the host does
        not have is the node file's (``Name``: its base name)."""
        def fetch(variables: Mapping, name: str) -> Any:
            try:
                value = read(variables, name)
            except KeyError:
                value = self._node_property(name)
                if value is None:
                    raise
                return value
            return self._node_scalar(name, value) if is_handler(value) else value
        return fetch

    def expand_level(self, template: str) -> Expansion:
        """A ResolutionPrecedence entry that is a handler, evaluated for this node (Datum drops an empty one)."""
        shown = ['ResolutionPrecedence']
        if _unsupported(template):       # warned when the configuration was read: Datum would find nothing there
            return Expansion(template, None, 'the handler is not evaluated (see the warning)')
        value = self._text(template, None, self.config.path, shown)
        if value is None or (isinstance(value, str) and not value.strip()):
            return Expansion(template, None, 'the handler gives no path for this node')
        if not isinstance(value, (str, int, float)):
            raise DatumHandlerError('%s: the ResolutionPrecedence handler %r gives a %s, not a path'
                                    % (key_position(self.config.path, shown), template, type(value).__name__))
        return Expansion(template, split_level(str(value).strip(), template))

    def resolve_level(self, value: Any, file: Optional[str], keys: Sequence[str]) -> Tuple[Any, bool]:
        """``resolve`` for a level's value, and whether a handler in it took data of a whole-file vaulted file (which
        is plain once loaded: whoever writes the value out must keep it secret, as the file's own values)."""
        outer, self._vaulted_read = self._vaulted_read, False
        try:
            self._count_written(file)
            return self.resolve(value, file, keys), self._vaulted_read
        finally:
            self._vaulted_read = outer

    def resolve(self, value: Any, file: Optional[str], keys: Sequence[str]) -> Any:
        """A level's value with its handlers resolved (a copy where there is one; the input is never changed).

        ``file`` holds the value (a folder for a folder read as a map: ``$File`` is then unknown), ``keys`` are
        the keys leading to it inside the file.
        """
        done: Dict[int, Any] = {}
        active: set = set()

        def walk(item: Any, path: Tuple[Any, ...]) -> Any:
            pairs = children(item)
            if pairs is None:
                return self._nested_text(item, file, list(keys) + list(path), len(path)) if is_handler(item) else item
            if id(item) in done:
                return done[id(item)]
            if id(item) in active or self._nesting + len(path) >= MAX_DEPTH:
                raise depth_error(path, id(item) in active)
            active.add(id(item))
            if isinstance(item, Mapping):
                built: Any = {key: walk(child, path + (key,)) for key, child in pairs}
            else:
                built = [walk(child, path + (index,)) for index, child in pairs]
            active.discard(id(item))
            done[id(item)] = built
            return built

        return walk(value, ()) if handler_in(value) is not None else value

    def node_name(self) -> Any:
        if self.node_file:
            return os.path.splitext(os.path.basename(self.node_file))[0]
        return self.variables.get('inventory_hostname')

    # -- evaluation
    def _nested_text(self, text: str, file: Optional[str], keys: Sequence[Any], depth: int) -> Any:
        """A handler ``depth`` maps or lists deep in the value being resolved: what it gives nests as much deeper."""
        self._nesting += depth
        try:
            return self._text(text, file, file, keys)
        finally:
            self._nesting -= depth

    def _text(self, text: str, file: Optional[str], shown_file: Optional[str], keys: Sequence[Any]) -> Any:
        """A handler string's value, charged to the budget, or (not evaluated, DatumHandlersThrowOnError false) the
        text itself. Passing the budget is an error whatever DatumHandlersThrowOnError says."""
        def place() -> str:
            return _place(shown_file, tuple(str(key) for key in keys))

        outermost = self.budget.depth == 0
        try:
            if is_protected(text):
                raise ExpressionError(PROTECTED_DATA)
            value = self._evaluate(text, file, place)
            self._charge(value, place)
            return value
        except ExpansionError as exc:
            raise DatumHandlerError(str(exc)) from exc      # the budget's message names the place
        except (ExpressionError, MergeError) as exc:
            if self.throw:
                raise DatumHandlerError('%s: %s' % (place(), exc)) from exc
            self.warnings.append('%s: %s; the value is kept as written (DatumHandlersThrowOnError: false)'
                                 % (place(), exc))
            return text
        except RecursionError:
            if not outermost:       # the stack unwinds to the first handler, where there is room for the message
                raise
            raise DatumHandlerError('%s: handlers nest deeper than the stack allows (a chain of references)'
                                    % place()) from None

    def _evaluate(self, text: str, file: Optional[str], place: Callable[[], str]) -> Any:
        handler = self._parse(text, file)
        budget = self.budget
        budget.enter(place() if budget.depth >= MAX_EXPANSION_DEPTH else '')    # the place only for the message
        try:
            result = evaluate(handler, lambda reference: self._value_of(reference, file))
            if is_handler(result):     # Datum.InvokeCommand resolves what a handler gives again
                result = self._evaluate(result, file, place) if not is_protected(result) else self._refused(result)
        finally:
            budget.leave()
        return result

    def _parse(self, text: str, file: Optional[str]) -> Any:
        """The handler in ``text``; messages quote a handler only when it holds no data of a whole-file vaulted file
        (plain once loaded, but secret)."""
        secret = self._vaulted_read or (bool(file) and self.store.vaulted(file))
        try:
            handler = parse(text)
        except ExpressionError:
            if not secret:
                raise
            raise ExpressionError('the Datum handler is not evaluated: strata.hier runs no PowerShell; supported '
                                  'forms: %s (the handler is not shown: it holds data of a whole-file vaulted file)'
                                  % SUPPORTED_FORMS) from None
        if handler.outside.strip():
            self.warnings.append('in %s, the text around [x= ... =] in %s is dropped, as Datum drops it'
                                 % (file or self.config.path, 'a handler of a whole-file vaulted file' if secret
                                    else repr(text)))
        return handler

    def _charge(self, result: Any, place: Callable[[], str]) -> None:
        """A handler's result costs its size, characters of text or values of data (a reference repeats its value's
        size wherever it is used): one node's resolutions together stay within its budget."""
        budget = self.budget
        remaining = max(budget.allowance - budget.spent, 0)
        if isinstance(result, str):
            units = len(result)
        elif children(result) is None:
            units = 1
        else:
            units = self._sizes.get(id(result)) or self._size(result, remaining)
        budget.charge(units, place() if units > remaining else '')

    def _size(self, result: Any, remaining: int) -> int:
        """A result's values written out in full, walked once for a value the memos keep (used again and again)."""
        try:
            units = expanded_size(result, remaining)
        except DataSizeError:
            return remaining + 1
        if id(result) in self._sizes:
            self._sizes[id(result)] = units
        return units

    def _count_written(self, file: Optional[str]) -> None:
        """A data file was read: what the node's handlers may produce grows with its written size (once a file)."""
        if not file or file in self._counted:
            return
        self._counted.add(file)
        try:
            status = os.stat(file)
        except OSError:
            return
        if stat.S_ISREG(status.st_mode):
            self.budget.add_written(status.st_size)

    def _memoised(self, memo: Dict[Any, Tuple[Any, bool, List[str]]], key: Any, compute: Callable[[], Any]) -> Any:
        """``compute()`` once per node, as Datum resolves a file's handlers once; whether it took data of a whole-file
        vaulted file, and its warnings, are remembered with it: they mark (and warn) every value using it."""
        known = memo.get(key)
        if known is None:
            outer, self._vaulted_read = self._vaulted_read, False
            start = len(self.warnings)
            try:
                known = memo[key] = (compute(), self._vaulted_read, self.warnings[start:])
            finally:
                self._vaulted_read = outer
            if children(known[0]) is not None:
                self._sizes[id(known[0])] = None       # kept alive by the memo: its id stays its own
        else:
            self.warnings.extend(known[2])
        self._vaulted_read = self._vaulted_read or known[1]
        return known[0]

    def _refused(self, text: str) -> Any:
        raise ExpressionError(PROTECTED_DATA)

    def _value_of(self, reference: Any, file: Optional[str]) -> Any:
        if isinstance(reference, SourceFile) or reference.root == 'file':
            return self._file_property(reference, file)
        if reference.root == 'node':
            return _walk(self._node_property(reference.parts[0]), reference.parts[1:])
        return self._datum(reference)

    def _file_property(self, reference: Any, file: Optional[str]) -> str:
        if file is None or not os.path.isfile(file):
            raise ExpressionError('%s has no file here (the value does not come from one data file)'
                                  % ('Get-DatumSourceFile -Path $File' if isinstance(reference, SourceFile)
                                     else reference))
        if isinstance(reference, SourceFile):
            return source_file(os.path.relpath(file, self.store.root))
        parts = tuple(part.lower() for part in reference.parts)
        if parts == ('name',):
            return os.path.basename(file)
        if parts == ('basename',):
            return os.path.splitext(os.path.basename(file))[0]
        return os.path.basename(os.path.dirname(file))      # Directory.BaseName / Directory.Name

    def _node_property(self, name: str) -> Any:
        return self._memoised(self._node_values, name.casefold(), lambda: self._read_node_property(name))

    def _read_node_property(self, name: str) -> Any:
        key = name.casefold()
        data = self.node_data if self.node_data is not None else self.variables
        actual = next((candidate for candidate in data if isinstance(candidate, str)
                       and candidate.casefold() == key), None)
        value = data[actual] if actual is not None else (self.node_name() if key == 'name' else None)
        if actual is not None and self.node_data is not None and self._node_vaulted:
            self._vaulted_read = True
        return self._node_scalar(actual or name, value) if is_handler(value) else value

    def _node_scalar(self, name: str, value: str) -> Any:
        """A node property that is a handler, resolved in the node file (a cycle through it is reported)."""
        self._enter('$Node.%s' % name)
        try:
            return self._text(value, self.node_file, self.node_file, [name])
        finally:
            self._active.pop()

    def _datum(self, reference: Reference) -> Any:
        """A store reference's value, resolved once per node. Its uses share it, as they share the parsed data of a
        value without handlers: nothing changes a resolved value (merging copies what it keeps), and the budget
        charges each use its size written out in full."""
        parts = reference.parts
        key = tuple(part.casefold() for part in parts) if self.store.case_insensitive else parts
        return self._memoised(self._references, key, lambda: self._read_reference(reference))

    def _read_reference(self, reference: Reference) -> Any:
        self._enter(str(reference))
        try:
            found = self.store.get(reference.parts)
            if found.value is None or not found.file:
                return None
            self._count_written(found.file)
            if self.store.vaulted(found.file):
                self._vaulted_read = True
            inside = _keys_inside(found.file, reference.parts)
            return self.resolve(found.value, found.file if os.path.isfile(found.file) else None, inside)
        finally:
            self._active.pop()

    def _enter(self, label: str) -> None:
        if label in self._active:
            chain = self._active[self._active.index(label):] + [label]
            raise ExpressionError('cycle: %s' % ' -> '.join(chain))
        self._active.append(label)


_PLACES: Dict[Tuple[str, Tuple[str, ...], int, int], str] = {}
_PLACES_KEPT = 10000


def _place(file: Optional[str], keys: Tuple[str, ...]) -> str:
    """``file:line: key 'a/b'`` of a message; remembered while the file is unchanged, since every node of an
    inventory repeats the warnings of shared files (finding a line parses the file again)."""
    if not file:
        return '(no file): key %r' % join_path(keys)
    try:
        stat = os.stat(file)
    except OSError:
        return '%s: key %r' % (file, join_path(keys))
    cache_key = (file, keys, stat.st_mtime_ns, stat.st_size)
    place = _PLACES.get(cache_key)
    if place is None:
        if len(_PLACES) >= _PLACES_KEPT:
            _PLACES.clear()
        place = _PLACES[cache_key] = '%s: key %r' % (key_position(file, keys), join_path(keys))
    return place


def _walk(value: Any, parts: Sequence[str]) -> Any:
    """``.A.B`` after a reference: map keys in any case; a missing one is null, as in PowerShell."""
    for part in parts:
        if not isinstance(value, Mapping):
            return None
        actual = next((key for key in value if isinstance(key, str) and key.casefold() == part.casefold()), None)
        if actual is None:
            return None
        value = value[actual]
    return value


def _keys_inside(file: str, parts: Sequence[str]) -> List[str]:
    """The keys of a store path that lie inside the file holding its value."""
    stem = os.path.splitext(os.path.basename(file))[0].casefold()
    for position in range(len(parts) - 1, -1, -1):
        if parts[position].casefold() == stem:
            return list(parts[position + 1:])
    return []


def _locate_node(pattern: Optional[str], store: Any, variables: Mapping) -> Tuple[Optional[str], Optional[Mapping]]:
    """The node file of these variables (matched by inventory_hostname, NodeName or Name against the file names
    under the configuration's ``nodes`` glob, in any case) and its data; (None, None) when there is none."""
    names = [variables.get(key) for key in ('inventory_hostname', 'NodeName', 'Name')]
    names = [name for name in names if isinstance(name, str) and name and not is_handler(name)]
    if not pattern or not names:
        return None, None
    base, segments = store.locate(split_level(pattern))
    for path in _node_files(base, segments, names):
        stem = os.path.splitext(os.path.basename(path))[0].casefold()
        if stem in {name.casefold() for name in names}:
            data = store.load(store.inside(path, os.path.relpath(path, store.root)))
            return path, data if isinstance(data, Mapping) else {}
    return None, None


def _node_files(base: str, segments: Sequence[str], names: Sequence[str]) -> List[str]:
    """Files of the nodes glob named as the node (tried first as written), else all of them."""
    found = []
    for name in names:
        for extension in DATA_EXTENSIONS:
            found.extend(glob.glob(os.path.join(base, *segments[:-1], glob.escape(name) + extension)))
    if found:
        return sorted(found)
    return sorted(path for extension in DATA_EXTENSIONS for path in glob.glob(os.path.join(base, *segments) + extension))
