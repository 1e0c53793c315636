# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Guardrails on layered data: what a level may not do to a key path (docs/constraints.md).

A configuration's ``constraints`` map key paths (or ``^regex`` keys, as ``lookup_options``) to rules. Every
constraint whose key matches a path applies: one never relaxes another. They are checked on a node's *chain*:
each level that sets the path (or knocks it out), least specific first, with the value merged up to that level
(``Contribution``). The checks are plain Python over that chain; the plugins build it and say where each
contribution is written (``where``), so a message names every line it speaks of.
"""

from __future__ import annotations

import fnmatch
import json
import re
from collections.abc import Mapping
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeError
from ansible_collections.strata.hier.plugins.module_utils.core.identity import freeze, opaque_identity, shown
from ansible_collections.strata.hier.plugins.module_utils.core.levels import from_datum
from ansible_collections.strata.hier.plugins.module_utils.core.paths import join_path, split_path
from ansible_collections.strata.hier.plugins.module_utils.core.records import Record
from ansible_collections.strata.hier.plugins.module_utils.core.schema import Schema

RULES = ('type', 'final', 'tighten', 'owners', 'protect_items', 'required', 'vault')
"""The kinds of constraint, in the order a path is checked against them (a finding's ``rule``)."""
SETTINGS = RULES + ('severity',)
SEVERITIES = ('error', 'warn')
TIGHTEN = ('decrease', 'increase', 'subset', 'superset')
ABSENT: Any = object()
"""The merged value of a level that knocks the path out (nothing is left)."""
WITHHELD = '<withheld: vaulted file>'
"""How a message shows a value that holds data of a whole-file vaulted file."""
UNMERGED: Any = object()
"""The merged value of a less specific level, where no constraint of the path compares levels' merged values (only
``final``, ``tighten`` and ``protect_items`` do): not worked out."""


class ConstraintError(MergeError):
    """A constraint of the configuration is malformed."""


class Constraint(Record):
    """One entry of ``constraints``: its key as written and the rules it sets."""

    name: str
    severity: str = 'error'
    schema: Optional[Schema] = None
    final: bool = False
    tighten: Optional[str] = None
    owners: Tuple[str, ...] = ()
    protect_items: Tuple[Any, ...] = ()
    required: bool = False
    vault: bool = False

    def rules(self) -> List[str]:
        """The rules this entry sets, in checking order."""
        settings = (self.schema is not None, self.final, self.tighten, self.owners, self.protect_items,
                    self.required, self.vault)
        return [rule for rule, setting in zip(RULES, settings) if setting]


class Contribution(Record):
    """A level of a node's chain for one path: what it writes there and what the merge holds after it.

    ``value``: as written, knockout markers left out (None for a knockout of the path); ``markers``: the items and keys
    its markers knock out; ``merged``: the value merged from this level and the less specific ones (ABSENT after a
    knockout; ``merged_secret``: it holds data of a whole-file vaulted file); ``level``: the level as the hierarchy
    writes it; ``file``: relative to the configuration's folder; ``secret``: the whole file is vaulted; ``place``: the
    plugins' handle for its line."""

    level: str
    file: Optional[str]
    value: Any
    merged: Any
    knocked_out: bool = False
    markers: Tuple[Any, ...] = ()
    secret: bool = False
    place: Any = None
    merged_secret: bool = False


class Violation(Record):
    """A broken rule: ``at`` the contribution that breaks it (None: no level does, as for ``required``),
    ``protected`` the one it breaks (a fixed value, a tighter value, a protected item's level); ``detail``
    says what happened, with the lines ``where`` gave."""

    rule: str
    detail: str
    at: Optional[Contribution] = None
    protected: Optional[Contribution] = None
    value: Any = None


Where = Callable[[Contribution], str]


class Constraints:
    """The ``constraints`` of a configuration, by key path (exact, then ``^regex`` keys in written order)."""

    def __init__(self, spec: Any, where: Callable[[str], str], case_insensitive_keys: bool = False) -> None:
        """``where(name)``: how a message names an entry (its ``file:line`` and key)."""
        if not isinstance(spec, Mapping):
            raise ConstraintError('constraints must be a map of key paths to rules, not %s' % _kind(spec))
        self._fold = str.casefold if case_insensitive_keys else _same
        self.exact: Dict[str, List[Constraint]] = {}
        self.patterns: List[Tuple[Any, Constraint]] = []
        for key, rules in spec.items():
            name = str(key)
            constraint = parse_constraint(name, rules, where(name))
            if name.startswith('^'):
                self.patterns.append((_compiled(name, case_insensitive_keys, where(name)), constraint))
            else:
                self.exact.setdefault(self._fold(join_path(split_path(name))), []).append(constraint)

    def __bool__(self) -> bool:
        return bool(self.exact or self.patterns)

    def for_path(self, path: Sequence[Any]) -> List[Constraint]:
        """Every constraint of a key path: its exact entry, then each regex that matches it (``/`` or ``\\``)."""
        text = join_path(path)
        found = list(self.exact.get(self._fold(text), ()))
        backslashed = text.replace('/', '\\')
        found.extend(constraint for regex, constraint in self.patterns
                     if regex.search(text) or regex.search(backslashed))
        return found

    def exact_paths(self) -> List[Tuple[str, ...]]:
        """The key paths written out (not regexes), as segments."""
        return [split_path(constraint.name) for constraints in self.exact.values() for constraint in constraints[:1]]


def _same(text: str) -> str:
    return text


def _compiled(name: str, case_insensitive: bool, where: str) -> Any:
    try:
        return re.compile(name, re.IGNORECASE if case_insensitive else 0)
    except re.error as exc:
        raise ConstraintError('%s: invalid regular expression: %s' % (where, exc)) from exc


def parse_constraint(name: str, rules: Any, where: str) -> Constraint:
    """One entry, checked: every setting known and well formed."""
    if not isinstance(rules, Mapping) or not rules:
        raise ConstraintError('%s: a constraint is a map of rules (%s), not %s'
                              % (where, ', '.join(SETTINGS), _kind(rules)))
    unknown = [str(key) for key in rules if key not in SETTINGS]
    if unknown:
        raise ConstraintError('%s: unknown rule %s; valid rules: %s' % (where, ', '.join(map(repr, unknown)),
                                                                        ', '.join(SETTINGS)))
    return Constraint(name=name, severity=_choice(rules, 'severity', SEVERITIES, where) or 'error',
                      schema=Schema(rules['type'], '%s: type' % where) if 'type' in rules else None,
                      final=_flag(rules, 'final', where), tighten=_choice(rules, 'tighten', TIGHTEN, where),
                      owners=_owner_list(rules, where), protect_items=_item_list(rules, where),
                      required=_flag(rules, 'required', where), vault=_choice(rules, 'vault', ('required',), where) is not None)


def _flag(rules: Mapping, key: str, where: str) -> bool:
    value = rules.get(key, False)
    if not isinstance(value, bool):
        raise ConstraintError('%s: %s must be true or false, not %s' % (where, key, _kind(value)))
    return value


def _choice(rules: Mapping, key: str, choices: Sequence[str], where: str) -> Optional[str]:
    value = rules.get(key)
    if value is not None and value not in choices:
        raise ConstraintError('%s: %s must be one of %s, not %s' % (where, key, ', '.join(choices), shown(value)))
    return value


def _owner_list(rules: Mapping, where: str) -> Tuple[str, ...]:
    if 'owners' not in rules:
        return ()
    owners = rules['owners']
    if not isinstance(owners, list) or not all(isinstance(owner, str) and owner for owner in owners) \
            or ('owners' in rules and not owners):
        raise ConstraintError('%s: owners must be a list of levels (as the hierarchy writes them) or file globs '
                              '(relative to the configuration\'s folder)' % where)
    return tuple(owners)


def _item_list(rules: Mapping, where: str) -> Tuple[Any, ...]:
    if 'protect_items' not in rules:
        return ()
    items = rules['protect_items']
    if not isinstance(items, list) or ('protect_items' in rules and not items) \
            or any(isinstance(item, (Mapping, list)) or opaque_identity(item) is not None for item in items):
        raise ConstraintError('%s: protect_items must be a list of list items or map keys (plain scalars)' % where)
    return tuple(items)


def _kind(value: Any) -> str:
    for kinds, name in ((bool, 'a boolean'), (str, 'a string'), ((int, float), 'a number'), (list, 'a list'),
                        (Mapping, 'a map')):
        if isinstance(value, kinds):
            return name
    return 'null' if value is None else 'a %s' % type(value).__name__


def violations(constraint: Constraint, chain: Sequence[Contribution], where: Where) -> List[Violation]:
    """What a node's chain for one path breaks of one constraint (``where``: a contribution's ``file:line``)."""
    found: List[Violation] = []
    for rule in constraint.rules():
        found.extend(_CHECKS[rule](constraint, chain, where))
    return found


def _type(constraint: Constraint, chain: Sequence[Contribution], where: Where) -> List[Violation]:
    """Each level's contribution (a part of a map merged deep needs no ``required`` key), then the merged value:
    what only the merge breaks (an error a level already has, the same item at another index, is not told twice)."""
    schema, found, seen = constraint.schema, [], set()
    for contribution in chain:
        if contribution.knocked_out or contribution.secret:
            continue
        for path, message in schema.errors(contribution.value, partial=True):
            seen.add((_unindexed(path), message))
            detail = '%s sets %s: %s%s' % (where(contribution), shown_value(contribution.value), _inside(path), message)
            found.append(Violation('type', detail, at=contribution, value=contribution.value))
    top = _last_set(chain)
    if top is None or chain[-1].merged is ABSENT or _withheld(chain[-1]):     # its messages would show the data
        return found
    for path, message in schema.errors(chain[-1].merged):
        if (_unindexed(path), message) not in seen:
            found.append(Violation('type', 'the merged value %s: %s%s (its most specific level: %s)'
                                   % (shown_value(chain[-1].merged), _inside(path), message, where(top)),
                                   at=top, value=chain[-1].merged))
    return found


def _final(constraint: Constraint, chain: Sequence[Contribution], where: Where) -> List[Violation]:
    """The least specific level that sets the path fixes it: no later level may change or knock it out."""
    fixed = next((contribution for contribution in chain if not contribution.knocked_out), None)
    if fixed is None:
        return []
    found = []
    for contribution in chain[chain.index(fixed) + 1:]:
        if contribution.knocked_out:
            detail = '%s knocks it out; it is fixed at %s (%s)' % (where(contribution), where(fixed),
                                                                   shown_value(fixed.value, fixed))
        elif not same(contribution.merged, fixed.merged):
            detail = '%s sets %s over %s fixed at %s' % (where(contribution), shown_value(contribution.value, contribution),
                                                         shown_value(fixed.value, fixed), where(fixed))
        else:
            continue
        found.append(Violation('final', detail, at=contribution, protected=fixed, value=contribution.value))
    return found


def _tighten(constraint: Constraint, chain: Sequence[Contribution], where: Where) -> List[Violation]:
    """Along the chain (levels that do not set the path are not in it), each merged value moves one way only."""
    found, before = [], None
    for contribution in chain:
        if before is None:
            before = None if contribution.knocked_out else contribution
            continue
        if contribution.knocked_out:
            if constraint.tighten != 'subset':
                found.append(Violation('tighten', '%s knocks it out; it may only %s from %s at %s' % (
                    where(contribution), _VERB[constraint.tighten], shown_merged(before),
                    where(before)), at=contribution, protected=before))
            continue
        problem = _moved(constraint.tighten, before.merged, contribution.merged,
                         lambda value, shown=contribution: shown_merged(shown, value))
        if problem:
            found.append(Violation('tighten', '%s %s %s at %s; it may only %s' % (
                where(contribution), problem, shown_merged(before), where(before),
                _VERB[constraint.tighten]), at=contribution, protected=before, value=contribution.merged))
        before = contribution
    return found


_VERB = {'decrease': 'decrease', 'increase': 'increase', 'subset': 'narrow', 'superset': 'widen'}


def _moved(direction: str, before: Any, after: Any, show: Callable[[Any], str]) -> Optional[str]:
    """How ``after`` moves the wrong way from ``before`` (the start of a sentence ending in ``before``), or None;
    ``show``: a value of ``after`` as the message may show it."""
    if direction in ('decrease', 'increase'):
        return _moved_number(direction, before, after, show)
    return _moved_members(direction, before, after, show)


def _moved_number(direction: str, before: Any, after: Any, show: Callable[[Any], str]) -> Optional[str]:
    """``_moved`` for ``decrease`` and ``increase``."""
    if not (_is_number(before) and _is_number(after)):
        return 'sets %s, which tighten: %s cannot compare with' % (show(after), direction)
    if (after > before) if direction == 'decrease' else (after < before):
        return 'sets %s, %s' % (show(after), 'above' if direction == 'decrease' else 'below')
    return None


def _moved_members(direction: str, before: Any, after: Any, show: Callable[[Any], str]) -> Optional[str]:
    """``_moved`` for ``subset`` and ``superset``."""
    old, new = _members(before), _members(after)
    if old is None or new is None:
        return 'sets %s, which tighten: %s cannot compare with' % (show(after), direction)
    extra = [item for frozen, item in (new if direction == 'subset' else old).items()
             if frozen not in (old if direction == 'subset' else new)]
    if not extra:
        return None
    return '%s %s %s' % ('adds' if direction == 'subset' else 'drops', show(extra),
                         'to' if direction == 'subset' else 'from')


def _owners(constraint: Constraint, chain: Sequence[Contribution], where: Where) -> List[Violation]:
    """Only the levels (as written) or the files (globs) named may set the path or knock it out."""
    found = []
    for contribution in chain:
        if not _owned(contribution, constraint.owners):
            shown = shown_value(contribution.value, contribution)
            what = 'knocks it out' if contribution.knocked_out else 'sets %s' % shown
            found.append(Violation('owners', '%s (level %r) %s; only %s may set it' % (
                where(contribution), contribution.level, what, ', '.join(constraint.owners)),
                at=contribution, value=contribution.value))
    return found


def _owned(contribution: Contribution, owners: Sequence[str]) -> bool:
    """A level named as written, or as strata.hier reads it (Datum's ``Roles\\$($Node.Role)`` as ``Roles/%{Role}``)."""
    level = contribution.level.split(' [', 1)[0]      # a mapped level's path shows its item after the template
    levels = {contribution.level, level, from_datum(contribution.level), from_datum(level)}
    return any(owner in levels or from_datum(owner) in levels or
               (contribution.file is not None and fnmatch.fnmatchcase(contribution.file, owner)) for owner in owners)


def _protect_items(constraint: Constraint, chain: Sequence[Contribution], where: Where) -> List[Violation]:
    """A protected item (list item or map key) that a level set is still in the merged value."""
    found = []
    final = chain[-1].merged if chain else ABSENT
    for item in constraint.protect_items:
        origin = next((contribution for contribution in chain if _holds(contribution.merged, item)), None)
        if origin is None or _holds(final, item):
            continue
        later = chain[chain.index(origin) + 1:]
        remover = next(contribution for contribution in later if not _holds(contribution.merged, item))
        knocked = remover.knocked_out or freeze(item) in {freeze(marker) for marker in remover.markers}
        found.append(Violation('protect_items', '%s %s %s, set at %s' % (
            where(remover), 'knocks out' if knocked else 'drops', shown_value(item), where(origin)),
            at=remover, protected=origin, value=item))
    return found


def _required(constraint: Constraint, chain: Sequence[Contribution], where: Where) -> List[Violation]:
    if chain and chain[-1].merged is not ABSENT:
        return []
    knocker = chain[-1] if chain else None
    detail = '%s knocks it out' % where(knocker) if knocker is not None else 'no level of the host sets it'
    return [Violation('required', detail, at=knocker)]


def _vault(constraint: Constraint, chain: Sequence[Contribution], where: Where) -> List[Violation]:
    """The merged value is a vault value (every scalar in it, for a map or list), or comes from vaulted files."""
    if not chain or chain[-1].merged is ABSENT or _plain_leaf(chain[-1].merged) is None:
        return []
    plain = [contribution for contribution in chain
             if not contribution.knocked_out and not contribution.secret and _plain_leaf(contribution.value) is not None]
    if not plain:
        return []
    # the value is never shown: a secret written in clear must not reach a report too
    return [Violation('vault', '%s sets it in plain text; it must be a vault value' % where(plain[-1]), at=plain[-1])]


_CHECKS: Dict[str, Callable[[Constraint, Sequence[Contribution], Where], List[Violation]]] = {
    'type': _type, 'final': _final, 'tighten': _tighten, 'owners': _owners, 'protect_items': _protect_items,
    'required': _required, 'vault': _vault}


def _last_set(chain: Sequence[Contribution]) -> Optional[Contribution]:
    return next((contribution for contribution in reversed(chain) if not contribution.knocked_out), None)


def same(one: Any, other: Any) -> bool:
    """Equal as the merge compares (vault values by ciphertext, never decrypted)."""
    return freeze(one) == freeze(other)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _members(value: Any) -> Optional[Dict[Any, Any]]:
    """A list's items or a map's keys, frozen -> as written; None for anything else."""
    if isinstance(value, Mapping):
        return {freeze(key): key for key in value}
    if isinstance(value, list):
        return {freeze(item): item for item in value}
    return None


def _holds(value: Any, item: Any) -> bool:
    members = _members(value)
    return members is not None and freeze(item) in members


def _plain_leaf(value: Any) -> Optional[Any]:
    """A scalar of the value that is no vault value (None when every one is)."""
    if isinstance(value, Mapping):
        value = list(value.values())
    if isinstance(value, list):
        return next((leaf for leaf in map(_plain_leaf, value) if leaf is not None), None)
    return None if value is None or opaque_identity(value) is not None else value


def _unindexed(path: Tuple[Any, ...]) -> Tuple[Any, ...]:
    """A path inside a value with its list indexes left out: merging moves list items."""
    return tuple(part for part in path if not isinstance(part, int))


def _inside(path: Tuple[Any, ...]) -> str:
    return '%s ' % join_path(path) if path else ''


def shown_merged(contribution: Contribution, value: Any = ABSENT) -> str:
    """A contribution's merged value (or ``value``, a part of it) in a message: withheld when it holds data of a
    whole-file vaulted file."""
    if _withheld(contribution):
        return WITHHELD
    return shown_value(contribution.merged if value is ABSENT else value)


def _withheld(contribution: Contribution) -> bool:
    """Whether a contribution's merged value holds data of a whole-file vaulted file (its own file's at least)."""
    return contribution.secret or contribution.merged_secret


def shown_value(value: Any, contribution: Optional[Contribution] = None) -> str:
    """A value in a message: as JSON, cut at 80 characters; a vault value, or one of a vaulted file, withheld."""
    if contribution is not None and contribution.secret:
        return WITHHELD
    text = _json(value)
    return text if len(text) <= 80 else text[:77] + '...'


def _json(value: Any) -> str:
    try:
        return json.dumps(displayable(value), sort_keys=True, ensure_ascii=False, default=shown)
    except (TypeError, ValueError):     # keys json cannot sort or write
        return shown(value)


def displayable(value: Any, depth: int = 0) -> Any:
    """The value with each vault value as a marker (json would read a vault string's text)."""
    if opaque_identity(value) is not None:
        return '<vault value>'
    if depth > 20:
        return '...'
    if isinstance(value, Mapping):
        return {str(displayable(key, depth + 1)): displayable(item, depth + 1) for key, item in value.items()}
    if isinstance(value, list):
        return [displayable(item, depth + 1) for item in value]
    return value
