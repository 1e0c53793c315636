# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""What changed in one host's resultant set of data between two refs: added, removed and changed key paths.

List items are matched by identity (a hash array's items by their tuple keys, other items by their value), so an
item moved between files or levels without changing the merged list is no change, and a list whose items only
changed order is one ``reordered`` change.  Secrets are never shown: a vault value compares by its ciphertext, or
with the vault password by a keyed hash of its plain text (a value re-encrypted unchanged is then no change), and
is shown as ``(secret)``; data of a whole-file vaulted file is shown as ``(withheld)``.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Mapping
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.identity import freeze, is_opaque
from ansible_collections.strata.hier.plugins.module_utils.core.mergers.hash_arrays import item_tuple
from ansible_collections.strata.hier.plugins.module_utils.core.records import Record
from ansible_collections.strata.hier.plugins.plugin_utils.compat import is_vault_value, vault_ciphertext

SECRET = '(secret)'
WITHHELD = '(withheld)'


class Secrets:
    """How vault values compare: by ciphertext, or when they decrypt, by a keyed hash of the plain text (the key
    drawn for this run, so the hash says nothing outside it)."""

    def __init__(self, loader: Any) -> None:
        self._key = os.urandom(32)
        self._vault = getattr(loader, '_vault', None)   # DataLoader's VaultLib: the run's vault secrets
        self._tokens: Dict[str, Tuple[str, str]] = {}   # each ciphertext decrypted once (a key derivation each)

    def token(self, value: Any) -> Tuple[str, str]:
        ciphertext = vault_ciphertext(value)
        token = self._tokens.get(ciphertext)
        if token is None:
            try:
                plain = self._vault.decrypt(ciphertext)
            except Exception:   # pylint: disable=broad-except  # no password for it: its ciphertext is all there is
                token = ('ciphertext', ciphertext)
            else:
                token = ('plain', hmac.new(self._key, plain, hashlib.sha256).hexdigest())
            self._tokens[ciphertext] = token
        return token


class Change(Record):
    """One change of a host: ``op`` added, removed, changed or reordered at ``path`` (the head's path; ``base_path``
    the base's, which differs for a list item that moved)."""

    path: str
    base_path: str
    op: str
    before: Any = None
    after: Any = None


class Comparison:
    """The diff of one host's data (key -> value) at two refs."""

    def __init__(self, secrets: Secrets, tuple_keys: Callable[[Tuple[Any, ...]], Sequence[str]],
                 withheld: Callable[[str, str], bool]) -> None:
        self._secrets, self._tuple_keys, self._withheld = secrets, tuple_keys, withheld
        self.changes: List[Change] = []

    def compare(self, before: Mapping, after: Mapping) -> List[Change]:
        self._maps((), (), before, after)
        return self.changes

    def _value(self, path: Tuple[Any, ...], base_path: Tuple[Any, ...], before: Any, after: Any) -> None:
        if isinstance(before, Mapping) and isinstance(after, Mapping):
            self._maps(path, base_path, before, after)
        elif isinstance(before, list) and isinstance(after, list):
            self._lists(path, base_path, before, after)
        elif self._form(before) != self._form(after):
            self._note(path, base_path, 'changed', before, after)

    def _maps(self, path: Tuple[Any, ...], base_path: Tuple[Any, ...], before: Mapping, after: Mapping) -> None:
        for key, value in before.items():
            if key not in after:
                self._note(path + (key,), base_path + (key,), 'removed', value, None)
            else:
                self._value(path + (key,), base_path + (key,), value, after[key])
        for key, value in after.items():
            if key not in before:
                self._note(path + (key,), base_path + (key,), 'added', None, value)

    def _lists(self, path: Tuple[Any, ...], base_path: Tuple[Any, ...], before: list, after: list) -> None:
        keys = self._tuple_keys(path)
        old = [self._identity(item, keys) for item in before]
        new = [self._identity(item, keys) for item in after]
        unmatched: Dict[Any, List[int]] = {}
        for index, identity in enumerate(old):
            unmatched.setdefault(identity, []).append(index)
        matched: List[Tuple[int, int]] = []
        taken: Dict[Any, int] = {}      # per identity, how many of its base items are matched
        for index, identity in enumerate(new):
            spare = unmatched.get(identity, ())
            if taken.get(identity, 0) < len(spare):
                matched.append((spare[taken.get(identity, 0)], index))
                taken[identity] = taken.get(identity, 0) + 1
            else:
                self._note(path + (index,), base_path, 'added', None, after[index])
        for identity, indexes in unmatched.items():
            for index in indexes[taken.get(identity, 0):]:
                self._note(path, base_path + (index,), 'removed', before[index], None)
        if [base for base, _head in matched] != sorted(base for base, _head in matched):
            self._note(path, base_path, 'reordered', before, after)
        for base, head in matched:
            self._value(path + (head,), base_path + (base,), before[base], after[head])

    def _identity(self, item: Any, keys: Sequence[str]) -> Any:
        """A hash-array item by its tuple keys, as the merge matches it (item_tuple), other items by value."""
        identity = item_tuple(item, keys, self._form) if isinstance(item, Mapping) and keys else None
        return ('tuple', identity) if identity is not None else self._form(item)

    def _form(self, value: Any) -> Any:
        """A comparable stand-in: vault values by Secrets.token, containers frozen."""
        if is_vault_value(value):
            return ('vault', self._secrets.token(value))
        if isinstance(value, Mapping):
            return ('map', frozenset((key, self._form(item)) for key, item in value.items()))
        if isinstance(value, list):
            return ('list', tuple(self._form(item) for item in value))
        return freeze(value)

    def _note(self, path: Tuple[Any, ...], base_path: Tuple[Any, ...], op: str, before: Any, after: Any) -> None:
        head, base = join(path), join(base_path)
        withheld = self._withheld(head, base)
        self.changes.append(Change(head, base, op, _shown(before, withheld), _shown(after, withheld)))


def join(path: Sequence[Any]) -> str:
    """A key path as provenance records name it: ``/`` separated, list indexes as numbers."""
    return '/'.join(str(part) for part in path)


def _shown(value: Any, withheld: bool) -> Any:
    """A value as the report shows it: secrets hidden, withheld data withheld."""
    if value is None:
        return None
    if withheld:
        return WITHHELD
    if is_opaque(value):        # a vault or an eyaml value
        return SECRET
    if isinstance(value, Mapping):
        return {str(key): _shown(item, False) for key, item in value.items()}
    if isinstance(value, list):
        return [_shown(item, False) for item in value]
    return value if isinstance(value, (str, int, float, bool)) else str(value)


def tuple_keys_of(rules: Any) -> Callable[[Tuple[Any, ...]], Sequence[str]]:
    """The tuple keys a hash array at a key path is merged by (rules: a configuration's MergeRules)."""
    def keys(path: Tuple[Any, ...]) -> Sequence[str]:
        rule_path = tuple(part for part in path if not isinstance(part, int))
        strategy = rules.resolve(rule_path).strategy
        return tuple(getattr(strategy.hash_arrays, 'tuple_keys', ()) or ())
    return keys


def no_secret_left(report: Any, is_secret: Optional[Callable[[Any], bool]] = None) -> bool:
    """Whether a report holds no encrypted value (for tests and a last check before writing)."""
    check = is_secret or is_opaque
    if check(report):
        return False
    if isinstance(report, Mapping):
        return all(no_secret_left(key, check) and no_secret_left(value, check) for key, value in report.items())
    if isinstance(report, (list, tuple)):
        return all(no_secret_left(item, check) for item in report)
    return True
