# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""What Deckhand documents say: errors named as Deckhand names them, each document's layering and substitution
metadata read and checked (``parse_document``), and the paths of actions and substitutions (``.a.b[0]``) with
reading and writing at them.  layering.py renders the documents; substitution.py copies their data.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, MutableMapping
from typing import Any, List, Optional, Sequence, Tuple, Union

from ansible_collections.strata.hier.plugins.module_utils.core.errors import DocumentError
from ansible_collections.strata.hier.plugins.module_utils.core.records import Record
from ansible_collections.strata.hier.plugins.module_utils.core.safe_regex import SafePattern, compile_untrusted

LAYERING_POLICY = 'deckhand/LayeringPolicy'
CONTROL_METADATA = 'metadata/Control'
MERGE, REPLACE, DELETE = 'merge', 'replace', 'delete'
METHODS = (MERGE, REPLACE, DELETE)
ENCRYPTED = 'encrypted'

Path = Tuple[Union[str, int], ...]
Key = Tuple[str, str]

_SEGMENT = re.compile(r"""\.(?P<key>[^.\[\]'"]+)|\.'(?P<key1>[^']*)'|\."(?P<key2>[^"]*)"|\[(?P<index>\d+)\]"""
                      r"""|\['(?P<key3>[^']*)'\]|\["(?P<key4>[^"]*)"\]""")
# Deckhand reads an action path's leading ".data" as the data section itself.
_DATA_PREFIX = re.compile(r'^\$?\.data(?=$|[.\[])')
_SOURCE_KEYS = frozenset(('schema', 'name', 'path', 'pattern', 'match_group', 'deepcopy'))
_DESTINATION_KEYS = frozenset(('path', 'pattern', 'recurse'))


# --- errors, each named as Deckhand names it ------------------------------------------------
class DeckhandError(DocumentError):
    """An error Deckhand also raises; the message ends with the name of Deckhand's exception."""

    def __init__(self, message: str) -> None:
        super().__init__('%s (Deckhand: %s)' % (message, type(self).__name__))


class InvalidDocumentFormat(DeckhandError):
    """Metadata Deckhand's schema validation rejects."""


class LayeringPolicyNotFound(DeckhandError):
    """Documents use layering, but no LayeringPolicy was given."""


class InvalidDocumentLayer(DeckhandError):
    """A layer that the layerOrder does not name."""


class InvalidDocumentParent(DeckhandError):
    """A selector matches a document of another schema, or of the same or a lower layer."""


class IndeterminateDocumentParent(DeckhandError):
    """A selector matches several documents in the nearest layer."""


class InvalidDocumentReplacement(DeckhandError):
    """A replacement without a parent of its schema and name, or documents sharing schema and name."""


class UnsupportedActionMethod(DeckhandError):
    """A layering action that is not merge, replace or delete."""


class MissingDocumentKey(DeckhandError):
    """A layering action's path is missing where the action reads it."""


class SubstitutionSourceNotFound(DeckhandError):
    """No concrete document has the substitution source's schema and name."""


class SubstitutionSourceDataNotFound(DeckhandError):
    """The source document has nothing at src.path."""


class SubstitutionDependencyCycle(DeckhandError):
    """Documents depend on each other through parents and substitution sources."""


class MissingDocumentPattern(DeckhandError):
    """dest.pattern is not found in the text at dest.path."""


class UnknownSubstitutionError(DeckhandError):
    """A substitution cannot write at dest.path (a value of another kind is in the way)."""


# --- what the documents say ---------------------------------------------------------------
class Action(Record):
    """One layering action: a method and the path it applies to."""

    method: str
    path: Path
    text: str
    """The path as written, for messages."""


class Destination(Record):
    """Where a substitution writes: a path, and a pattern to replace in the text there."""

    path: Path
    text: str
    pattern: Optional[SafePattern] = None
    depth: Optional[int] = None
    """recurse.depth: the pattern is replaced in every string down to this many levels (-1: all)."""


class Substitution(Record):
    """One item of metadata.substitutions."""

    number: int
    source: Key
    path: Path
    path_text: str
    destinations: Tuple[Destination, ...]
    pattern: Optional[SafePattern] = None
    match_group: int = 0


class Document:
    """A document and what its metadata says about layering and substitution: a working object, its layering
    filled in as the documents are read and linked (``parent``, ``replaced_by``), compared by identity."""

    def __init__(self, index: int, source: Mapping, schema: str, name: str) -> None:
        self.index, self.source, self.schema, self.name = index, source, schema, name
        self.layer: Optional[str] = None
        self.labels: Mapping = {}
        self.selector: Mapping = {}
        self.actions: List[Action] = []
        self.substitutions: List[Substitution] = []
        self.abstract = False
        self.replacement = False
        self.control = False
        self.encrypted = False
        self.parent: Optional['Document'] = None
        self.replaced_by: Optional['Document'] = None

    def describe(self) -> str:
        """``schema/name``, with the layer when there is one (a replacement shares schema and name)."""
        where = ' (layer %s)' % self.layer if self.layer is not None else ''
        return '%s/%s%s' % (self.schema, self.name, where)

    @property
    def key(self) -> Key:
        return self.schema, self.name

    @property
    def uses_layering(self) -> bool:
        return self.layer is not None or bool(self.selector) or self.replacement

    @property
    def own_data(self) -> Any:
        data = self.source.get('data')
        return {} if data is None else data    # as Deckhand: no data is an empty map


# --- reading documents ----------------------------------------------------------------
def parse_document(index: int, document: Any) -> Document:
    """Read the parts of a document layering and substitution use; malformed metadata is an error."""
    if not isinstance(document, Mapping):
        raise InvalidDocumentFormat('document %d (counting from 0) is a %s, not a map with schema, metadata and data'
                                    % (index, type(document).__name__))
    metadata = document.get('metadata')
    schema = document.get('schema')
    name = metadata.get('name') if isinstance(metadata, Mapping) else None
    if not (isinstance(schema, str) and schema and isinstance(name, str) and name):
        raise InvalidDocumentFormat('document %d (counting from 0) needs a schema and a metadata.name (strings); '
                                    'it has schema %r and metadata.name %r' % (index, schema, name))
    doc = Document(index, document, schema, name)
    doc.control = schema.startswith(LAYERING_POLICY) or str(metadata.get('schema', '')).startswith(CONTROL_METADATA)
    doc.encrypted = metadata.get('storagePolicy') == ENCRYPTED
    if doc.control:
        return doc     # control documents are never layered nor substituted
    doc.labels = _map_at(doc, metadata, 'labels', 'metadata.labels')
    doc.replacement = metadata.get('replacement') is True
    definition = _map_at(doc, metadata, 'layeringDefinition', 'metadata.layeringDefinition')
    _read_definition(doc, definition)
    doc.substitutions = [read_substitution(doc, number, item)
                         for number, item in enumerate(_list_at(doc, metadata, 'substitutions', 'metadata'), 1)]
    return doc


def _map_at(doc: Document, container: Mapping, key: str, where: str) -> Mapping:
    value = container.get(key)
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InvalidDocumentFormat('%s: %s must be a map, not %s' % (doc.describe(), where, type(value).__name__))
    return value


def _list_at(doc: Document, container: Mapping, key: str, where: str) -> Sequence:
    value = container.get(key)
    if value is None:
        return []
    if not isinstance(value, (list, tuple)):
        raise InvalidDocumentFormat('%s: %s.%s must be a list, not %s'
                                    % (doc.describe(), where, key, type(value).__name__))
    return value


def _read_definition(doc: Document, definition: Mapping) -> None:
    layer = definition.get('layer')
    if layer is not None and not isinstance(layer, str):
        raise InvalidDocumentFormat('%s: metadata.layeringDefinition.layer must be a string, not %r'
                                    % (doc.describe(), layer))
    doc.layer = layer
    doc.abstract = definition.get('abstract') is True
    doc.selector = _map_at(doc, definition, 'parentSelector', 'metadata.layeringDefinition.parentSelector')
    actions = _list_at(doc, definition, 'actions', 'metadata.layeringDefinition')
    doc.actions = [_read_action(doc, number, action) for number, action in enumerate(actions, 1)]


def _read_action(doc: Document, number: int, action: Any) -> Action:
    where = '%s: action %d' % (doc.describe(), number)
    if not isinstance(action, Mapping) or 'method' not in action or 'path' not in action:
        raise InvalidDocumentFormat('%s must be a map with a method and a path, not %r' % (where, action))
    method = action['method']
    if method not in METHODS:
        raise UnsupportedActionMethod('%s: unknown method %r; valid methods: %s' % (where, method, ', '.join(METHODS)))
    text = action['path']
    return Action(method, parse_action_path(text, '%s (%s)' % (where, method)), str(text))


def read_substitution(doc: Document, number: int, item: Any) -> Substitution:
    """One item of metadata.substitutions: src (schema, name, path, pattern, match_group) and dest (one or a list)."""
    where = '%s: substitution %d' % (doc.describe(), number)
    if not isinstance(item, Mapping) or set(item) != {'src', 'dest'}:
        raise InvalidDocumentFormat('%s must be a map with src and dest, not %r' % (where, item))
    src = _checked_map(item['src'], _SOURCE_KEYS, where + ': src')
    for key in ('schema', 'name', 'path'):
        if not isinstance(src.get(key), str):
            raise InvalidDocumentFormat('%s: src.%s must be a string, not %r' % (where, key, src.get(key)))
    group = src.get('match_group', 0)
    if isinstance(group, bool) or not isinstance(group, int) or group < 0:
        raise InvalidDocumentFormat('%s: src.match_group must be a number of a group, not %r' % (where, group))
    dests = item['dest'] if isinstance(item['dest'], (list, tuple)) else [item['dest']]
    if not dests:
        raise InvalidDocumentFormat('%s: dest is an empty list' % where)
    return Substitution(number, (src['schema'], src['name']), parse_path(src['path'], where + ': src.path'),
                        src['path'], tuple(_read_destination(where + ': dest', dest) for dest in dests),
                        _pattern(src.get('pattern'), where + ': src.pattern'), group)


def _read_destination(where: str, dest: Any) -> Destination:
    dest = _checked_map(dest, _DESTINATION_KEYS, where)
    if not isinstance(dest.get('path'), str):
        raise InvalidDocumentFormat('%s: path must be a string, not %r' % (where, dest.get('path')))
    depth = None
    if dest.get('recurse') is not None:
        recurse = dest['recurse']
        depth = recurse.get('depth') if isinstance(recurse, Mapping) else None
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < -1:
            raise InvalidDocumentFormat('%s: recurse must be a map with depth, a number of levels (-1: all), not %r'
                                        % (where, recurse))
    pattern = _pattern(dest.get('pattern'), where + ': pattern')
    if depth is not None and pattern is None:
        raise InvalidDocumentFormat('%s: recurse needs a pattern' % where)
    return Destination(parse_path(dest['path'], where + ': path'), dest['path'], pattern, depth)


def _checked_map(value: Any, keys: frozenset, where: str) -> Mapping:
    if not isinstance(value, Mapping):
        raise InvalidDocumentFormat('%s must be a map, not %s' % (where, type(value).__name__))
    unknown = sorted(str(key) for key in value if key not in keys)
    if unknown:
        raise InvalidDocumentFormat('%s: unknown key(s) %s; valid keys: %s'
                                    % (where, ', '.join(unknown), ', '.join(sorted(keys))))
    return value


def _pattern(text: Any, where: str) -> Optional[SafePattern]:
    """A pattern from a document: refused unless Python's re matches it in linear time (safe_regex)."""
    if text is None or text == '':
        return None     # Deckhand: an empty pattern is no pattern
    if not isinstance(text, str):
        raise InvalidDocumentFormat('%s must be a regular expression (a string), not %r' % (where, text))
    return compile_untrusted(text, 0, where, InvalidDocumentFormat)


# --- paths ----------------------------------------------------------------------------
def parse_action_path(text: Any, where: str = 'path') -> Path:
    """An action's path as Deckhand reads it: a leading ``.data`` or ``$.data`` is the data section itself."""
    if isinstance(text, str):
        text = _DATA_PREFIX.sub('', text.strip())
    return parse_path(text, where)


def parse_path(text: Any, where: str = 'path') -> Path:
    """``.`` -> (), ``.a.b`` -> ('a', 'b'), ``.a[0]`` -> ('a', 0); ``$`` may stand for the root, ``a.b`` is ``.a.b``."""
    if not isinstance(text, str):
        raise InvalidDocumentFormat('%s: the path must be a string such as .a.b or .a[0], not %r' % (where, text))
    rest = text.strip()
    if rest.startswith('$'):
        rest = rest[1:]
    if rest in ('', '.'):
        return ()
    if rest.startswith('.['):
        rest = rest[1:]
    elif not rest.startswith(('.', '[')):
        rest = '.' + rest     # Deckhand adds the leading dot
    parts: List[Union[str, int]] = []
    position = 0
    while position < len(rest):
        match = _SEGMENT.match(rest, position)
        if match is None:
            raise InvalidDocumentFormat('%s: cannot read the path %r at %r; paths are made of .key, .\'key\' and '
                                        '[index]' % (where, text, rest[position:]))
        parts.append(_segment(match))
        position = match.end()
    return tuple(parts)


def _segment(match: Any) -> Union[str, int]:
    if match.group('index') is not None:
        return int(match.group('index'))
    return next(value for name, value in match.groupdict().items() if name != 'index' and value is not None)


def holds(container: Any, part: Union[str, int]) -> bool:
    if isinstance(part, int):
        return isinstance(container, (list, tuple)) and part < len(container)
    return isinstance(container, Mapping) and part in container


def lookup(data: Any, path: Path) -> Tuple[bool, Any]:
    """(found, value) at the path."""
    for part in path:
        if not holds(data, part):
            return False, None
        data = data[part]
    return True, data


class PathConflict(Exception):
    """A value of another kind is in the way of a path; the message says what and where."""


def store(data: Any, path: Path, value: Any) -> Any:
    """Set the value at the path (the data is changed in place), creating missing maps, or a list before an
    index, on the way; a list shorter than an index is padded with empty maps, as Deckhand does.
    Returns the data (the value itself for the root path)."""
    if not path:
        return value
    container = data
    last = len(path) - 1
    for position, part in enumerate(path):
        check_container(container, part)
        if isinstance(part, int) and part >= len(container):
            while len(container) < part:
                container.append({})
            container.append(None)
        if position == last:
            container[part] = value
        else:
            container = _step_into(container, part, path[position + 1])
    return data


def _step_into(container: Any, part: Union[str, int], following: Union[str, int]) -> Any:
    """The container at ``part``; a missing or null one becomes a map, or a list before an index."""
    current = container.get(part) if isinstance(part, str) else container[part]
    if current is None:
        current = container[part] = [] if isinstance(following, int) else {}
    return current


def check_container(container: Any, part: Union[str, int]) -> None:
    wanted, kind = (list, 'list') if isinstance(part, int) else (MutableMapping, 'map')
    if not isinstance(container, wanted):
        raise PathConflict('the data holds a %s where the path needs a %s' % (type(container).__name__, kind))
