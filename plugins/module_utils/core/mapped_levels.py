# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Levels per item of a list variable: Hiera 5's ``mapped_paths``.

In hier.yml a level may be ``{mapped_paths: [roles, role, "Roles/%{role}"]}``: one path per item of the host's
list variable ``roles``, in list order (most specific first, as the hierarchy reads), each item named ``role``
in the template.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable, Iterator, List, Optional, Union

from ansible_collections.strata.hier.plugins.module_utils.core.levels import Expansion, LevelError, check_level, expand
from ansible_collections.strata.hier.plugins.module_utils.core.records import Record

_ITEM_NAME_CHARS = frozenset('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_')


class MappedLevel(Record):
    """``mapped_paths: [variable, item, template]``."""

    variable: str
    item: str
    template: str

    def __str__(self) -> str:
        return 'mapped_paths [%s, %s, %s]' % (self.variable, self.item, self.template)

    def __repr__(self) -> str:     # errors show a level with %r
        return str(self)


Level = Union[str, MappedLevel]


def parse_level(entry: Any) -> Level:
    """A hierarchy entry of hier.yml: a level path, or a map holding ``mapped_paths``; LevelError otherwise."""
    if isinstance(entry, str):
        check_level(entry)
        return str(entry)     # drops 2.19's tags
    if not isinstance(entry, Mapping) or set(entry) != {'mapped_paths'}:
        raise LevelError('a level is a path such as "Roles/%%{Role}" or {mapped_paths: [variable, item, template]}, '
                         'not %r' % (entry,))
    triple = entry['mapped_paths']
    if not isinstance(triple, list) or len(triple) != 3 or not all(isinstance(part, str) for part in triple):
        raise LevelError('mapped_paths must be a list of three strings [variable, item, template], not %r' % (triple,))
    variable, item, template = (str(part) for part in triple)
    if not item or not set(item) <= _ITEM_NAME_CHARS:
        raise LevelError('mapped_paths item name %r must be letters, digits and _' % item)
    check_level(template)
    return MappedLevel(variable, item, template)


def expand_level(level: Level, variables: Mapping, fetch: Optional[Callable[[Mapping, str], Any]] = None,
                 case_insensitive: bool = False) -> List[Expansion]:
    """The expansions of one level: one for a path, one per list item for ``mapped_paths``.

    ``fetch`` is ``levels.expand``'s. An undefined variable or an empty list gives one skipped expansion
    (explain shows why); a variable that is not a list is a LevelError naming the host.
    """
    if isinstance(level, str):
        return [expand(level, variables, fetch, case_insensitive)]
    read = fetch or (lambda mapping, name: mapping[name])
    try:
        items = read(variables, level.variable)
    except KeyError:
        return [Expansion(str(level), None, 'variable %r is undefined' % level.variable, (level.variable,))]
    if not isinstance(items, (list, tuple)):
        raise LevelError('level %s: variable %r of host %s is a %s, not a list'
                         % (level, level.variable, variables.get('inventory_hostname', '(no host)'),
                            'null' if items is None else type(items).__name__))
    if not items:
        return [Expansion(str(level), None, 'variable %r is an empty list' % level.variable)]
    expansions = []
    for index in range(len(items)):
        with_item = with_variable(variables, level.item, items[index])
        expansion = expand(level.template, with_item, read, case_insensitive)
        expansions.append(Expansion('%s [%s=%s]' % (level.template, level.item, _shown(with_item, level, read)),
                                    expansion.path, expansion.reason, expansion.missing))
    return expansions


def _shown(with_item: Mapping, level: MappedLevel, read: Callable[[Mapping, str], Any]) -> str:
    """The item as the path shows it (read again through ``read``, so a guarded value stays guarded)."""
    return str(read(with_item, level.item))


def with_variable(variables: Mapping, name: str, value: Any) -> Mapping:
    """The variables with ``name`` set to ``value`` (over one of that name), the originals untouched."""
    return _WithVariable(variables, name, value)


class _WithVariable(Mapping):
    """A host's variables with one more: the item of a mapped level, or ``group_names`` in precedence."""

    def __init__(self, variables: Mapping, name: str, value: Any) -> None:
        self._variables = variables
        self._name = name
        self._value = value

    def __getitem__(self, key: Any) -> Any:
        return self._value if key == self._name else self._variables[key]

    def __contains__(self, key: Any) -> bool:
        return key == self._name or key in self._variables

    def __iter__(self) -> Iterator[Any]:
        yield self._name
        for key in self._variables:
            if key != self._name:
                yield key

    def __len__(self) -> int:
        return len(self._variables) + (0 if self._name in self._variables else 1)
