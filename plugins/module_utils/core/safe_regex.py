# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Regular expressions written in data (Deckhand's ``src.pattern``/``dest.pattern``, Hiera's ``lookup_options``
pattern keys and ``knockout_prefix``): compiled only when Python's backtracking ``re`` matches them fast.

Python's ``re`` tries the ways a pattern can match one after the other; a pattern that can match the same text in
many ways (``(a+)+$``, ``(a|a)+$``, ``^(a?){25}a{25}$``) tries exponentially many before it fails.  Data is
untrusted, so ``compile_untrusted`` parses the pattern with ``re``'s own parser (the tree ``re`` runs, after its
own simplifications) and refuses it, naming where it was written and why, unless every part is *unambiguous*:

- an alternation's branches never match the same text: at most one can match the empty string, and two
  branches that can start with the same character can only match texts of different lengths;
- a repeat that can repeat more than once (``*``, ``+``, ``{m,n}``: greedy, lazy or possessive alike) has a body
  that cannot match the empty string, is itself unambiguous, and, when it matches texts of different lengths,
  cannot end where it could instead go on with the character that starts its next round (``(a+)+`` is refused,
  ``(a+b)+`` and ``(\\w+\\s)+`` are accepted);
- in a sequence, two parts of variable length with nothing but optional parts between them never compete for
  the same character (``a*a*b``, ``\\s*\\s*$`` are refused); one part competing with a fixed text before the next
  variable part (``^(.*):(.*)$``: the two ``.*`` share out the colons) is allowed once in the whole pattern,
  and only when the pattern is anchored at the start or reads a bounded length;
- no backreference (``\\1``, ``(?(1)...)``), a lookaround only of fixed length (``(?=ab)``, not ``(?=.*a)``),
  at most ``MAX_PATTERN`` characters, bounded repeats of at most ``MAX_COUNT``, groups nested at most
  ``MAX_NESTING`` deep.

Why that is enough: then a partial match that reaches a point of the pattern at a position of the text is
reached one way only (or, for the one allowed competing pair, once per place the two parts could share the
text), so one attempt at one position costs at most about length x pattern size (length squared for the pair).
Character classes are compared as sets (``\\w`` and ``\\s`` never meet; a class with non-ASCII ranges or
case folding meets more than it may, which only refuses more).

``re.search`` then tries every starting position: a pattern that can read far and then fail (``[a-z]+_key$`` on
``aaaa...``) costs length squared over the whole text.  So the compiled pattern (a ``SafePattern``, used like a
compiled regex) refuses to search a text when its worst case, counted from the text itself, passes both
``MAX_WORK`` steps and ``LINEAR_WORK`` steps a character: the places an attempt can start at (1 when the pattern
is anchored at the start with ``^`` or ``\\A``; else the characters that can start a match), times what one
attempt can read (the longest run of characters the pattern can read at all, or its longest match) to the power
1 + the competing pairs, times the pattern's length.  Ordinary texts never come near (a literal pattern, or one
whose runs end at a space, a newline or a punctuation mark); a text built to be slow is refused with a message
saying how to bound the pattern.
"""

from __future__ import annotations

import functools
import importlib
import re
from typing import Any, Callable, Dict, FrozenSet, List, NamedTuple, Sequence, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeError

try:
    _parser: Any = importlib.import_module('re._parser')      # Python 3.11 and later
except ImportError:     # pragma: no cover - Python 3.8 to 3.10
    _parser = importlib.import_module('sre_parse')

MAX_PATTERN = 1000
"""Longest pattern, in characters."""
MAX_COUNT = 1000
"""Largest bound of a counted repeat (``{m,n}``)."""
MAX_NESTING = 50
"""Deepest nesting of groups and repeats."""
MAX_WORK = 1 << 21
"""Steps a search of one text may take in the worst case (a tenth of a second at most)."""
LINEAR_WORK = 256
"""Steps per character a search of any text may take in the worst case."""
INF = float('inf')


class UnsafeRegexError(MergeError):
    """A regular expression from data that Python's re could take super-linear time to match."""


class _Refused(Exception):
    """Why the pattern is refused (internal: compile_untrusted adds where it was written)."""


# --- character sets: 128 ASCII bits, and what beyond ASCII (categories, ranges, '*' for anything) --------
_ASCII = (1 << 128) - 1
_CATEGORIES = {'CATEGORY_WORD': 'w', 'CATEGORY_NOT_WORD': 'W', 'CATEGORY_DIGIT': 'd', 'CATEGORY_NOT_DIGIT': 'D',
               'CATEGORY_SPACE': 's', 'CATEGORY_NOT_SPACE': 'S'}
_CATEGORY_RE = {letter: re.compile('\\' + letter) for letter in 'wWdDsS'}
_CATEGORY_BITS = {letter: sum(1 << code for code in range(128) if regex.match(chr(code)))
                  for letter, regex in _CATEGORY_RE.items()}
_COMPLEMENT = {'w': 'W', 'W': 'w', 'd': 'D', 'D': 'd', 's': 'S', 'S': 's'}
# Categories that share no character (checked over all of Unicode); any other two may share some.
_DISJOINT = frozenset(frozenset(pair) for pair in ('wW', 'dD', 'sS', 'ds', 'dW', 'ws'))
# Non-ASCII characters re's case folding matches with an ASCII letter.
_FOLDS = {'i': (0x130, 0x131), 'k': (0x212a,), 's': (0x17f,)}
_FOLDED_TO = {code: letter for letter, codes in _FOLDS.items() for code in codes}


class _Chars(NamedTuple):
    ascii: int
    high: FrozenSet[Any]

    def __or__(self, other: Any) -> '_Chars':
        return _Chars(self.ascii | other.ascii, self.high | other.high)

    def meets(self, other: '_Chars') -> bool:
        """Whether the two sets may share a character (when unsure: yes)."""
        if self.ascii & other.ascii:
            return True
        return any(_atoms_meet(one, two) for one in self.high for two in other.high)


_NONE = _Chars(0, frozenset())


def _atoms_meet(one: Any, two: Any) -> bool:
    if one == '*' or two == '*':
        return True
    if isinstance(one, tuple) and isinstance(two, tuple):
        return one[0] <= two[1] and two[0] <= one[1]
    if isinstance(one, tuple) or isinstance(two, tuple):
        span, letter = (one, two) if isinstance(one, tuple) else (two, one)
        if span[1] - span[0] > 256:
            return True
        return any(_CATEGORY_RE[letter].match(chr(code)) for code in range(span[0], span[1] + 1))
    return one == two or frozenset((one, two)) not in _DISJOINT


def _span(low: int, high: int, fold: bool) -> _Chars:
    """The characters low..high; with case folding, their other cases too (ASCII exactly, others roughly)."""
    bits = 0
    if low < 128:
        top = min(high, 127)
        bits = ((1 << (top + 1)) - 1) ^ ((1 << low) - 1)
    beyond = frozenset([(max(low, 128), high)]) if high >= 128 else frozenset()
    if not fold:
        return _Chars(bits, beyond)
    extra: List[Any] = []
    for letter in 'abcdefghijklmnopqrstuvwxyz':
        if bits & (1 << ord(letter) | 1 << ord(letter.upper())):
            bits |= 1 << ord(letter) | 1 << ord(letter.upper())
            extra.extend((code, code) for code in _FOLDS.get(letter, ()))
    for code, letter in _FOLDED_TO.items():
        if low <= code <= high:
            bits |= 1 << ord(letter) | 1 << ord(letter.upper())
    return _Chars(bits, beyond | frozenset(extra) | (frozenset('*') if beyond else frozenset()))


def _category(name: Any) -> _Chars:
    letter = _CATEGORIES.get(str(name))
    if letter is None:
        raise _Refused('the character class %s is not understood' % name)
    return _Chars(_CATEGORY_BITS[letter], frozenset(letter))


def _negated(chars: _Chars) -> _Chars:
    """What a negated class may match: the complement (taken without case folding: folding only removes more)."""
    categories = [atom for atom in chars.high if isinstance(atom, str) and atom != '*']
    beyond = frozenset(_COMPLEMENT[categories[0]]) if categories else frozenset('*')
    return _Chars(_ASCII & ~chars.ascii, beyond)


def _char_class(items: Sequence[Any], fold: bool) -> _Chars:
    negate = any(str(op) == 'NEGATE' for op, _value in items)
    chars = _NONE
    for op, value in items:
        name = str(op)
        if name == 'LITERAL':
            chars = chars | _span(value, value, fold and not negate)
        elif name == 'RANGE':
            chars = chars | _span(value[0], value[1], fold and not negate)
        elif name == 'CATEGORY':
            chars = chars | _category(value)
        elif name != 'NEGATE':
            raise _Refused('the character class item %s is not understood' % name)
    return _negated(chars) if negate else chars


# --- shapes: what a part of the pattern can match ------------------------------------------------------------
class _Shape(NamedTuple):
    nullable: bool
    low: float
    high: float
    first: _Chars
    """Characters a non-empty match may start with."""
    cont: _Chars
    """Characters with which a match may go on into a longer match (none for a fixed length)."""
    chars: _Chars
    """Every character it may read."""
    pairs: int = 0
    """Competing pairs of variable parts (each multiplies the work of an attempt by the text's length)."""


_EMPTY = _Shape(True, 0, 0, _NONE, _NONE, _NONE)


def _char(chars: _Chars) -> _Shape:
    return _Shape(False, 1, 1, chars, _NONE, chars)


def _union(shapes: Sequence[_Shape], field: str) -> _Chars:
    result = _NONE
    for shape in shapes:
        result = result | getattr(shape, field)
    return result


class _Rest:
    """What follows a part of a sequence, gathered from the end."""

    def __init__(self) -> None:
        self.first = self.variable_first = self.chars = _NONE
        self.nullable, self.variable = True, False

    def compete(self, shape: _Shape) -> Tuple[_Chars, int]:
        """How ``shape``, followed by the rest, can go on past a match, and whether it competes with a later
        variable part (a pair); refuses variable parts competing with only optional parts between them."""
        if shape.low == shape.high:
            return _NONE, 0
        if not shape.cont.meets(self.first):
            return (shape.cont if self.nullable else _NONE), 0
        if shape.cont.meets(self.variable_first):
            raise _Refused('two parts of variable length follow each other and can match the same characters '
                           '(as in a*a*b), so the text can be shared between them in many ways')
        return shape.chars | self.chars, int(self.variable)

    def add(self, shape: _Shape) -> None:
        """``shape`` now starts the rest."""
        variable = shape.low != shape.high
        self.variable_first = (shape.first if variable else _NONE) | (
            self.variable_first if shape.nullable else _NONE)
        self.first = shape.first | (self.first if shape.nullable else _NONE)
        self.chars = self.chars | shape.chars
        self.nullable = self.nullable and shape.nullable
        self.variable = self.variable or variable


def _sequence(shapes: List[_Shape]) -> _Shape:
    """Parts one after the other; counts the pairs of variable parts that compete for characters."""
    pairs = sum(shape.pairs for shape in shapes)
    cont = _NONE
    rest = _Rest()
    for shape in reversed(shapes):
        goes_on, pair = rest.compete(shape)
        cont, pairs = cont | goes_on, pairs + pair
        rest.add(shape)
    low, high = sum(shape.low for shape in shapes), sum(shape.high for shape in shapes)
    return _Shape(rest.nullable, low, high, rest.first, cont if low != high else _NONE, rest.chars, pairs)


def _branches(shapes: List[_Shape]) -> _Shape:
    """An alternation; refuses two branches that can match the same text."""
    nullable = [shape for shape in shapes if shape.nullable]
    if len(nullable) > 1:
        raise _Refused('two alternatives can both match the empty text')
    cont = _union(shapes, 'cont') | (_union(shapes, 'first') if nullable else _NONE)
    for index, one in enumerate(shapes):
        for two in shapes[index + 1:]:
            if not one.first.meets(two.first):
                continue
            if one.low <= two.high and two.low <= one.high:
                raise _Refused('two alternatives can match the same text (they start alike, and their lengths '
                               'can be equal)')
            cont = cont | one.chars | two.chars
    low, high = min(shape.low for shape in shapes), max(shape.high for shape in shapes)
    return _Shape(bool(nullable), low, high, _union(shapes, 'first'), cont if low != high else _NONE,
                  _union(shapes, 'chars'), max(shape.pairs for shape in shapes))


def _repeat(least: int, most: float, body: _Shape) -> _Shape:
    """A repeat; refuses a body that can repeat in several ways over the same text."""
    if least > MAX_COUNT or MAX_COUNT < most < INF:
        raise _Refused('a counted repeat goes beyond %d' % MAX_COUNT)
    if most == 0:
        return _EMPTY
    if most == 1:
        if least == 1:
            return body
        return _Shape(True, 0, body.high, body.first, body.cont | body.first, body.chars, body.pairs)
    if body.nullable:
        raise _Refused('a repeated part can match the empty text, so the repeat can split a text in many ways')
    if body.pairs:
        raise _Refused('a repeated part can itself match a text in several ways')
    if body.low != body.high and body.cont.meets(body.first):
        raise _Refused('a repeated part of variable length can end where it could go on with the character that '
                       'starts its next round (as in (a+)+), so the rounds can share a text in many ways')
    cont = body.cont | (body.first if most > least else _NONE)
    return _Shape(least == 0, least * body.low, most * body.high, body.first, cont, body.chars)


# --- the parsed pattern ----------------------------------------------------------------------------------------
def _items(items: Any, flags: int, depth: int) -> _Shape:
    if depth > MAX_NESTING:
        raise _Refused('groups and repeats nest more than %d deep' % MAX_NESTING)
    return _sequence([_item(str(op), value, flags, depth + 1) for op, value in items])


def _lookaround(body: _Shape) -> _Shape:
    if body.low != body.high or body.pairs:
        raise _Refused('a lookaround (?=...), (?!...) must have a fixed length (it is tried at every position)')
    return _EMPTY


def _repeated(value: Any, flags: int, depth: int) -> _Shape:
    most = INF if value[1] == _parser.MAXREPEAT else value[1]
    return _repeat(value[0], most, _items(value[2], flags, depth))


def _any(flags: int) -> _Shape:
    return _char(_Chars(_ASCII if flags & re.DOTALL else _ASCII & ~(1 << 10), frozenset('*')))


_SINGLE: Dict[str, Callable[[Any, int], _Shape]] = {
    'LITERAL': lambda value, flags: _char(_span(value, value, bool(flags & re.IGNORECASE))),
    'NOT_LITERAL': lambda value, flags: _char(_negated(_span(value, value, False))),
    'IN': lambda value, flags: _char(_char_class(value, bool(flags & re.IGNORECASE))),
    'ANY': lambda value, flags: _any(flags),
    'AT': lambda value, flags: _EMPTY,
}
_NESTED: Dict[str, Callable[[Any, int, int], _Shape]] = {
    'SUBPATTERN': lambda value, flags, depth: _items(value[-1], (flags | value[1]) & ~value[2], depth),
    'ATOMIC_GROUP': _items,
    'BRANCH': lambda value, flags, depth: _branches([_items(branch, flags, depth) for branch in value[1]]),
    'MAX_REPEAT': _repeated,
    'MIN_REPEAT': _repeated,
    'POSSESSIVE_REPEAT': _repeated,
    'ASSERT': lambda value, flags, depth: _lookaround(_items(value[1], flags, depth)),
    'ASSERT_NOT': lambda value, flags, depth: _lookaround(_items(value[1], flags, depth)),
}


def _item(name: str, value: Any, flags: int, depth: int) -> _Shape:
    if name in _SINGLE:
        return _SINGLE[name](value, flags)
    if name in _NESTED:
        return _NESTED[name](value, flags, depth)
    if name.startswith('GROUPREF'):
        raise _Refused('backreferences (\\1, (?P=name), (?(1)...)) can take exponential time')
    raise _Refused('%s is not understood' % name)


class _Analysis(NamedTuple):
    anchor: str
    """'text': only at the start of the text; 'line': at the start of each line; '': anywhere."""
    high: float
    pairs: int
    size: int
    """The pattern's length: a step of an attempt costs up to that much."""
    starts: str
    """A class of the characters an attempt can get past its first character at (a regular expression)."""
    reads: str
    """A class of every character an attempt can read: an attempt ends within a run of them."""


def _class_of(chars: _Chars) -> str:
    """A character class holding at least the characters of ``chars`` (anything beyond ASCII when it has any)."""
    listed = ''.join(re.escape(chr(code)) for code in range(128) if chars.ascii >> code & 1)
    beyond = '\x80-\U0010ffff' if chars.high else ''
    return '[%s%s]' % (listed, beyond) if listed or beyond else '(?!)'


def _anchor(items: Any, flags: int) -> str:
    """Whether the pattern starts with ^ or \\A (re then tries the start of the text, or of each line, only)."""
    while items:
        name, value = str(items[0][0]), items[0][1]
        if name == 'SUBPATTERN':
            items, flags = value[-1], (flags | value[1]) & ~value[2]
            continue
        if name == 'AT' and str(value) == 'AT_BEGINNING_STRING':
            return 'text'
        if name == 'AT' and str(value) == 'AT_BEGINNING':
            return 'line' if flags & re.MULTILINE else 'text'
        return ''
    return ''


@functools.lru_cache(maxsize=256)
def _analyse(pattern: str, flags: int) -> _Analysis:
    """The pattern's worst case, or _Refused; re.error for a pattern that is not one."""
    if len(pattern) > MAX_PATTERN:
        raise _Refused('it is longer than %d characters' % MAX_PATTERN)
    try:
        parsed = _parser.parse(pattern, flags)
    except RecursionError as exc:
        raise _Refused('groups nest too deep') from exc
    flags = parsed.state.flags
    shape = _items(parsed.data, flags, 0)
    analysis = _Analysis(_anchor(parsed.data, flags), shape.high, shape.pairs, max(len(pattern), 1),
                         _class_of(shape.first), _class_of(shape.chars))
    if shape.pairs > 1:
        raise _Refused('%d pairs of variable parts compete for the same characters (as in .*:.*:.*), which takes '
                       'time growing with the text\'s length to the power %d' % (shape.pairs, shape.pairs + 1))
    if shape.pairs and shape.high == INF and not analysis.anchor:
        raise _Refused('two variable parts compete for the same characters (as in .*:.*) and the pattern is not '
                       'anchored at the start (^), so every position of a text costs its length squared')
    return analysis


# --- what callers use --------------------------------------------------------------------------------------------
def _runs(regex: Any, text: str) -> Tuple[int, int]:
    """How many characters of the class are in the text, and its longest run of them."""
    runs = regex.findall(text)
    return sum(len(run) for run in runs), max((len(run) for run in runs), default=0)


def _work(analysis: _Analysis, attempts: int, longest: int) -> float:
    """Steps a search may take in the worst case: an attempt reads at most the longest run of characters the
    pattern can read (and the character after it), and is slowed down by competing pairs and the pattern's size."""
    return attempts * max(min(longest + 1, analysis.high), 1) ** (1 + analysis.pairs) * analysis.size


def _allowed(work: float, length: int) -> bool:
    return work <= max(MAX_WORK, LINEAR_WORK * length)


class SafePattern:
    """A compiled pattern from data (``regex``), used as one: ``search`` and ``sub`` refuse a text whose search
    could be slow (see the module's docstring), naming where the pattern was written and where the text is."""

    __slots__ = ('regex', 'pattern', 'where', 'error', 'analysis', '_starts', '_reads')

    def __init__(self, regex: Any, where: str, error: Callable[[str], Exception], analysis: _Analysis) -> None:
        self.regex = regex
        self.pattern: str = regex.pattern
        self.where = where
        self.error = error
        self.analysis = analysis
        self._starts = re.compile(analysis.starts + '+')
        self._reads = re.compile(analysis.reads + '+')

    def _attempts(self, text: str) -> int:
        """Positions re may try the pattern at, past its first character."""
        anchor = self.analysis.anchor
        if anchor == 'text' or (anchor == 'line' and '\n' not in text):
            return 1
        if anchor == 'line':
            return text.count('\n') + 1
        return _runs(self._starts, text)[0] + 1

    def check(self, text: str, where: str = '') -> None:
        """Refuse a text this pattern could take too long to search."""
        length = len(text)
        if (length + 1) ** (2 + self.analysis.pairs) * self.analysis.size <= MAX_WORK:
            return      # a short text: even the worst case is small
        attempts, longest = self._attempts(text), _runs(self._reads, text)[1]
        if _allowed(_work(self.analysis, attempts, longest), length):
            return
        raise self.error('%s%s: the regular expression %r could take time growing faster than the length of the '
                         'text it searches, and this text of %d characters (%d places to try it at, a longest run of '
                         '%d characters it can read) is too long for it; anchor it at the start with ^, or bound its '
                         'repeats, as in [^:]{0,100}'
                         % (self.where, ' (applied at %s)' % where if where else '', self.pattern, length, attempts,
                            longest))

    def search(self, text: str, where: str = '') -> Any:
        self.check(text, where)
        return self.regex.search(text)

    def sub(self, replacement: Any, text: str, where: str = '') -> str:
        self.check(text, where)
        return self.regex.sub(replacement, text)

    def finditer(self, text: str, where: str = '') -> Any:
        self.check(text, where)
        return self.regex.finditer(text)


def compile_untrusted(pattern: str, flags: int = 0, where: str = '',
                      error: Callable[[str], Exception] = UnsafeRegexError) -> SafePattern:
    """``pattern`` (written at ``where``) compiled, or ``error(message)`` when Python's re could take
    super-linear time to match it or it is not a regular expression; see the module's docstring for the rule."""
    try:
        analysis = _analyse(pattern, flags)
        return SafePattern(re.compile(pattern, flags), where, error, analysis)
    except re.error as exc:
        raise error('%s: %r is not a regular expression: %s' % (where, pattern, exc)) from exc
    except _Refused as exc:
        raise error('%s: the regular expression %r is refused: %s; patterns written in data must match in linear '
                    'time' % (where, pattern, exc)) from None
