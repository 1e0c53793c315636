# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""How values compare when merging matches them (Unique items, tuple values, knockouts).

``freeze`` gives a hashable stand-in for any value.  Opaque values are compared by an identity of
their own, never by their ``==`` or ``hash``: Ansible's vault values decrypt themselves to compare,
which needs the vault password and would put the secret where it does not belong.  The core knows
no Ansible type; the plugins register them (plugin_utils/compat.py registers the running
ansible-core's vault type with its ciphertext).  Two vault values are then equal when their
ciphertexts are: two encryptions of the same secret differ, and a vault value never equals a plain string.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Sequence

from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeDepthError
from ansible_collections.strata.hier.plugins.module_utils.core.kinds import FAST_PATHS, MAP, SCALAR, family_of
from ansible_collections.strata.hier.plugins.module_utils.core.limits import MAX_DEPTH, WorkBudget

_OPAQUE: Dict[type, Callable[[Any], Any]] = {}
_UNKNOWN = object()


def register_opaque(cls: type, identity: Callable[[Any], Any]) -> None:
    """Compare values of ``cls`` (and its subclasses) by ``identity(value)`` only."""
    _OPAQUE[cls] = identity
    FAST_PATHS.forget_identities()


def is_opaque(value: Any) -> bool:
    """Whether a value is of a registered opaque type (an encrypted value: a vault or eyaml value)."""
    identity = FAST_PATHS.identity_by_type.get(type(value), _UNKNOWN)
    if identity is _UNKNOWN:
        return opaque_identity(value) is not None
    return identity is not None


def opaque_identity(value: Any) -> Optional[tuple]:
    """The stand-in of an opaque value, or None for any other value (the merge's hot path: a type look-up)."""
    kind = type(value)
    identity = FAST_PATHS.identity_by_type.get(kind, _UNKNOWN)
    if identity is None:
        return None
    if identity is _UNKNOWN:
        identity = next((function for cls, function in _OPAQUE.items() if issubclass(kind, cls)), None)
        FAST_PATHS.learn_identity(kind, identity)
    return None if identity is None else ('opaque', identity(value))


def freeze(value: Any, budget: Optional[WorkBudget] = None, depth: int = 0) -> Any:
    """A hashable stand-in for a value; equal values give equal stand-ins."""
    if depth > MAX_DEPTH:
        raise MergeDepthError('a list item nests deeper than %d levels, or refers to itself' % MAX_DEPTH)
    family = family_of(value)
    if family is SCALAR:
        if value is True or value is False:
            return ('bool', value)    # YAML's true is not the integer 1
        if FAST_PATHS.identity_by_type.get(type(value), _UNKNOWN) is None:     # the hot path: compared as it is
            return value
        opaque = opaque_identity(value)
        return value if opaque is None else opaque
    if budget is not None:
        budget.spend(len(value))
    if family is MAP:
        return ('map', frozenset((freeze(key, budget, depth + 1), freeze(item, budget, depth + 1))
                                 for key, item in value.items()))
    return ('list', tuple(freeze(item, budget, depth + 1) for item in value))


def shown(value: Any) -> str:
    """A value as an error message shows it: an opaque value as its type only (its repr may decrypt it)."""
    if opaque_identity(value) is not None:
        return '<%s>' % type(value).__name__
    return repr(value)


def shown_path(path: Sequence[Any]) -> str:
    """A key path as explain shows it, ``/`` separated: an opaque key (a vault value) as its type only."""
    return '/'.join('<%s>' % type(part).__name__ if opaque_identity(part) is not None else str(part) for part in path)
