# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Immutable settings classes (mergers, strategies) declared like frozen dataclasses, built without them.

A frozen dataclass writes and compiles its methods when its class is created: about 0.35 ms a class, paid again
in every worker ansible-playbook forks, where the lookup's first call imports the mergers (issue 13). A
``Record`` declares its fields the same way, as annotated class attributes with their defaults, and gets
``__init__``, ``==``, ``hash``, ``repr`` and ``replace`` from this base, with no code generated. A field without
a default must be given, and comes before those with one.

A field marked ``derived()`` is settled by the class in ``__post_init__`` (with ``settle``): it is not an
argument and takes no part in ``==``, ``hash`` or ``repr``, as ``field(init=False, compare=False, repr=False)``.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, Callable, ClassVar, Dict, Tuple

_DERIVED: Any = object()
_REQUIRED: Any = object()


def derived() -> Any:
    """Marks a field the record settles itself."""
    return _DERIVED


class Record:
    """An immutable value: fields by keyword or position, compared and hashed by value."""

    FIELDS: ClassVar[Tuple[str, ...]] = ()
    """The fields given to ``__init__``, the base class's first."""
    DEFAULTS: ClassVar[Dict[str, Any]] = {}
    """Each field's default (a marker for those without)."""
    _field_values: ClassVar[Callable[[Any], Tuple[Any, ...]]] = staticmethod(lambda record: ())

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields = list(cls.FIELDS)
        defaults = dict(cls.DEFAULTS)
        for name, annotation in cls.__dict__.get('__annotations__', {}).items():
            if str(annotation).startswith(('ClassVar', 'typing.ClassVar')):
                continue
            default = cls.__dict__.get(name, _REQUIRED)
            if default is _DERIVED:
                delattr(cls, name)
                continue
            if default is _REQUIRED and any(value is not _REQUIRED for value in defaults.values()):
                raise TypeError('%s.%s: a field without a default follows one with a default' % (cls.__name__, name))
            if name not in fields:
                fields.append(name)
            defaults[name] = default
        cls.FIELDS = tuple(fields)
        cls.DEFAULTS = defaults
        if len(fields) > 1:     # in C: strategies are compared and hashed as cache keys while merging
            cls._field_values = staticmethod(attrgetter(*fields))
        elif fields:
            cls._field_values = staticmethod(lambda record, name=fields[0]: (getattr(record, name),))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(self.FIELDS):
            raise TypeError('%s takes at most %d arguments' % (type(self).__name__, len(self.FIELDS)))
        values = dict(self.DEFAULTS)
        values.update(zip(self.FIELDS, args))
        for name, value in kwargs.items():
            if name not in values or name in self.FIELDS[:len(args)]:
                raise TypeError('%s got an unexpected or repeated argument %r' % (type(self).__name__, name))
            values[name] = value
        for name, value in values.items():
            if value is _REQUIRED:
                raise TypeError('%s needs the argument %r' % (type(self).__name__, name))
            object.__setattr__(self, name, value)
        self.__post_init__()

    def __post_init__(self) -> None:
        """Validate and settle the fields (subclasses)."""

    def settle(self, name: str, value: Any) -> None:
        """Set a field while the record is being built."""
        object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError('%s is immutable: cannot assign to %r' % (type(self).__name__, name))

    def __delattr__(self, name: str) -> None:
        raise AttributeError('%s is immutable: cannot delete %r' % (type(self).__name__, name))

    def values(self) -> Tuple[Any, ...]:
        return self._field_values(self)

    def __eq__(self, other: Any) -> bool:
        if other is self:
            return True
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._field_values(self) == self._field_values(other)

    def __hash__(self) -> int:
        known = self.__dict__.get('_hash')
        if known is None:
            known = hash(self._field_values(self))      # immutable: computed once
            object.__setattr__(self, '_hash', known)
        return known

    def __repr__(self) -> str:
        return '%s(%s)' % (type(self).__qualname__,
                           ', '.join('%s=%r' % (name, getattr(self, name)) for name in self.FIELDS))

    def replace(self, **changes: Any) -> Any:
        """A copy with ``changes``, built (and validated) anew."""
        return type(self)(**dict(zip(self.FIELDS, self.values()), **changes))
