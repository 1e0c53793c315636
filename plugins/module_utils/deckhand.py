# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Deckhand document rendering: a list of documents -> the rendered concrete documents.

Follows Deckhand's documentation (docs/deckhand.md lists where its engine does
something else): a LayeringPolicy's ``data.layerOrder`` ranks the layers; a
document's ``metadata.layeringDefinition`` gives its ``layer``, ``abstract``
flag, ``parentSelector`` and ``actions``.  The parent is the one document of the
same schema, in the nearest layer above the child's holding a match, whose
``metadata.labels`` include every pair of the selector (documents of another
schema or of the same or a lower layer whose labels match are errors).  Actions
(``merge``, ``replace``, ``delete`` at a path such as ``.``, ``.a.b``,
``.a[0]``) run in order on a copy of the parent's rendered data.  A
``replacement: true`` document replaces its parent (same schema and name): the
parent is not returned and its other children layer onto the replacement.

Then each document's ``metadata.substitutions`` copy data from concrete source
documents (by schema and name, a replaced document's replacement standing in for
it) into its own data.  Documents render in dependency order (parents and
substitution sources first), so a child inherits its parent's substituted data
and a source gives its rendered data; a cycle is an error.  Abstract and
replaced documents are rendered but not returned.  Inputs are never modified;
values that are not text (an Ansible vault value, say) are moved, never
turned into text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from ansible_collections.strata.hier.plugins.module_utils.errors import DocumentError, MergeError
from ansible_collections.strata.hier.plugins.module_utils.limits import copy_value
from ansible_collections.strata.hier.plugins.module_utils.merging import merge_layers
from ansible_collections.strata.hier.plugins.module_utils.rules import MergeRules
from ansible_collections.strata.hier.plugins.module_utils.strategy import DEEP, datum_strategy

LAYERING_POLICY = 'deckhand/LayeringPolicy'
CONTROL_METADATA = 'metadata/Control'
MERGE, REPLACE, DELETE = 'merge', 'replace', 'delete'
METHODS = (MERGE, REPLACE, DELETE)
ENCRYPTED = 'encrypted'

# Deckhand's merge: maps merge key by key with the child winning, lists are taken whole
# from the child, and no key is a knockout marker.
DECKHAND_MERGE = datum_strategy('deckhand', {'merge_hash': DEEP}, knockout_prefix=None)
_RULES = MergeRules(DECKHAND_MERGE)

Path = Tuple[Union[str, int], ...]
Key = Tuple[str, str]

_SEGMENT = re.compile(r"""\.(?P<key>[^.\[\]'"]+)|\.'(?P<key1>[^']*)'|\."(?P<key2>[^"]*)"|\[(?P<index>\d+)\]"""
                      r"""|\['(?P<key3>[^']*)'\]|\["(?P<key4>[^"]*)"\]""")
# Deckhand reads an action path's leading ".data" as the data section itself.
_DATA_PREFIX = re.compile(r'^\$?\.data(?=$|[.\[])')
# A repeated group that itself repeats, such as (a+)+: the shape whose matching can take exponential time.
_NESTED_REPETITION = re.compile(r'\((?:[^()\\]|\\.)*(?:[+*]|\{\d*,\d*\})(?:[^()\\]|\\.)*\)(?:[+*]|\{\d*,?\d*\})')
_SOURCE_KEYS = frozenset(('schema', 'name', 'path', 'pattern', 'match_group', 'deepcopy'))
_DESTINATION_KEYS = frozenset(('path', 'pattern', 'recurse'))


def _never(_value: Any) -> bool:
    return False


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
@dataclass(frozen=True)
class Action:
    """One layering action: a method and the path it applies to."""

    method: str
    path: Path
    text: str
    """The path as written, for messages."""


@dataclass(frozen=True)
class Destination:
    """Where a substitution writes: a path, and a pattern to replace in the text there."""

    path: Path
    text: str
    pattern: Optional[re.Pattern] = None
    depth: Optional[int] = None
    """recurse.depth: the pattern is replaced in every string down to this many levels (-1: all)."""


@dataclass(frozen=True)
class Substitution:
    """One item of metadata.substitutions."""

    number: int
    source: Key
    path: Path
    path_text: str
    destinations: Tuple[Destination, ...]
    pattern: Optional[re.Pattern] = None
    match_group: int = 0


@dataclass(eq=False)
class Document:
    """A document and what its metadata says about layering and substitution."""

    index: int
    source: Mapping
    schema: str
    name: str
    layer: Optional[str] = None
    labels: Mapping = field(default_factory=dict)
    selector: Mapping = field(default_factory=dict)
    actions: List[Action] = field(default_factory=list)
    substitutions: List[Substitution] = field(default_factory=list)
    abstract: bool = False
    replacement: bool = False
    control: bool = False
    encrypted: bool = False
    parent: Optional['Document'] = None
    replaced_by: Optional['Document'] = None

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


@dataclass
class LayeringResult:
    """The rendered documents, in input order, and warnings for the user."""

    documents: List[dict]
    warnings: List[str] = field(default_factory=list)


def layer_documents(documents: Sequence[Any], secret: Optional[Callable[[Any], bool]] = None) -> LayeringResult:
    """Render Deckhand documents: concrete documents come back layered and substituted.

    ``secret`` tells which values are encrypted (Ansible's vault values, also once decrypted but still
    tagged as vaulted): they are never put into text.
    """
    docs = [parse_document(index, document) for index, document in enumerate(documents)
            if document is not None]     # an empty YAML document
    warnings: List[str] = []
    order = _layer_order(docs, warnings)
    rank = {layer: position for position, layer in enumerate(order)}
    _check_layers(docs, rank)
    select_parents(docs, rank, warnings)
    _link_replacements(docs)
    _check_unique(docs)
    renderer = Renderer(docs, warnings, secret or _never)
    renderer.render()
    result = [_output(doc, renderer) for doc in docs if _returned(doc)]
    return LayeringResult(result, warnings)


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


def _pattern(text: Any, where: str) -> Optional[re.Pattern]:
    if text is None or text == '':
        return None     # Deckhand: an empty pattern is no pattern
    if not isinstance(text, str):
        raise InvalidDocumentFormat('%s must be a regular expression (a string), not %r' % (where, text))
    if _NESTED_REPETITION.search(text):
        raise InvalidDocumentFormat('%s: %r repeats a group that itself repeats, which can take exponential time to '
                                    'match; documents are data, so such patterns are refused' % (where, text))
    try:
        return re.compile(text)
    except re.error as exc:
        raise InvalidDocumentFormat('%s: %r is not a regular expression: %s' % (where, text, exc)) from exc


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


def _holds(container: Any, part: Union[str, int]) -> bool:
    if isinstance(part, int):
        return isinstance(container, (list, tuple)) and part < len(container)
    return isinstance(container, Mapping) and part in container


def lookup(data: Any, path: Path) -> Tuple[bool, Any]:
    """(found, value) at the path."""
    for part in path:
        if not _holds(data, part):
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


# --- the policy and the layers --------------------------------------------------------
def _layer_order(docs: List[Document], warnings: List[str]) -> List[str]:
    """The first LayeringPolicy's layerOrder (Deckhand warns about others); [] when nothing needs one."""
    policies = [doc for doc in docs if doc.schema.startswith(LAYERING_POLICY)]
    if not policies:
        user = next((doc for doc in docs if not doc.control and doc.uses_layering), None)
        if user is not None:
            raise LayeringPolicyNotFound('no LayeringPolicy (schema %s/v1) among the documents, but %s uses '
                                         'layering; add the policy whose data.layerOrder lists the layers'
                                         % (LAYERING_POLICY, user.describe()))
        return []
    if len(policies) > 1:
        warnings.append('%d LayeringPolicy documents were given; using the first, %s'
                        % (len(policies), policies[0].describe()))
    return _read_order(policies[0])


def _read_order(policy: Document) -> List[str]:
    data = policy.source.get('data')
    order = data.get('layerOrder') if isinstance(data, Mapping) else None
    if not isinstance(order, (list, tuple)) or not all(isinstance(layer, str) for layer in order):
        raise InvalidDocumentFormat('LayeringPolicy %s: data.layerOrder must be a list of layer names, not %r'
                                    % (policy.describe(), order))
    if len(set(order)) != len(order):
        raise InvalidDocumentFormat('LayeringPolicy %s: data.layerOrder names a layer twice: %s'
                                    % (policy.describe(), ', '.join(order)))
    return list(order)


def _check_layers(docs: List[Document], rank: Dict[str, int]) -> None:
    for doc in docs:
        if doc.control:
            continue
        if doc.layer is not None and doc.layer not in rank:
            raise InvalidDocumentLayer('%s: layer %r is not in the LayeringPolicy\'s layerOrder (%s)'
                                       % (doc.describe(), doc.layer, ', '.join(rank) or 'empty'))
        if doc.layer is None and doc.selector:
            raise InvalidDocumentFormat('%s: it has a parentSelector but no metadata.layeringDefinition.layer; '
                                        'the layer decides where its parent may be' % doc.describe())


# --- parents: documents indexed by label ----------------------------------------------
def _hashable(value: Any) -> Any:
    """A hashable stand-in, equal for equal values (only narrows the candidates; matching compares values)."""
    if isinstance(value, Mapping):
        return frozenset((key, _hashable(item)) for key, item in value.items())
    if isinstance(value, (list, tuple)):
        return tuple(_hashable(item) for item in value)
    try:
        hash(value)
    except TypeError:
        return type(value).__name__
    return value


class _Matches:
    """The documents whose labels include one selector, the lowest layer (largest rank) first."""

    def __init__(self, docs: List[Document], rank: Dict[str, int]) -> None:
        self.docs = sorted(docs, key=lambda doc: -rank[doc.layer])
        self.per_rank: Dict[int, List[Document]] = {}
        self.per_schema: Dict[str, Document] = {}
        for doc in self.docs:
            self.per_rank.setdefault(rank[doc.layer], []).append(doc)
            self.per_schema.setdefault(doc.schema, doc)

    def other_schema(self, schema: str) -> Optional[Document]:
        return next((doc for other, doc in self.per_schema.items() if other != schema), None)

    def lowest_other(self, doc: Document) -> Optional[Document]:
        """The match in the lowest layer, the document itself aside."""
        return next((other for other in self.docs[:2] if other is not doc), None)


def select_parents(docs: List[Document], rank: Dict[str, int], warnings: List[str]) -> None:
    """Each document's parent, through an index of labels: linear in the documents and their labels."""
    by_label: Dict[Tuple[Any, Any], List[Document]] = {}
    for doc in docs:
        if not doc.control and doc.layer is not None:
            for pair in doc.labels.items():
                by_label.setdefault((pair[0], _hashable(pair[1])), []).append(doc)
    matches: Dict[Any, _Matches] = {}
    for doc in docs:
        if doc.control or not doc.selector:
            continue
        signature = frozenset((key, _hashable(value)) for key, value in doc.selector.items())
        if signature not in matches:
            matches[signature] = _Matches(_matching(doc.selector, by_label), rank)
        doc.parent = _parent_of(doc, matches[signature], rank, warnings)


def _matching(selector: Mapping, by_label: Dict[Tuple[Any, Any], List[Document]]) -> List[Document]:
    """The documents whose labels include the selector: the shortest list of one pair, checked for the others."""
    lists = [by_label.get((key, _hashable(value)), []) for key, value in selector.items()]
    return [doc for doc in min(lists, key=len) if selects(selector, doc.labels)]


def selects(selector: Mapping, labels: Mapping) -> bool:
    return all(key in labels and labels[key] == value for key, value in selector.items())


def _parent_of(doc: Document, matches: _Matches, rank: Dict[str, int], warnings: List[str]) -> Optional[Document]:
    """The one match in the nearest layer above the document's; other matches are Deckhand's errors."""
    other = matches.other_schema(doc.schema)
    if other is not None:
        raise InvalidDocumentParent('%s: its parentSelector %r matches the labels of %s, a document of another '
                                    'schema; documents of different schemas are never layered together'
                                    % (doc.describe(), dict(doc.selector), other.describe()))
    lowest = matches.lowest_other(doc)
    if lowest is None:
        return _no_parent(doc, warnings)
    own = rank[doc.layer]
    if rank[lowest.layer] >= own:
        raise InvalidDocumentParent('%s: its parentSelector %r matches the labels of %s, which is not in a layer '
                                    'above %r (layerOrder: %s); a parent must be in a higher layer'
                                    % (doc.describe(), dict(doc.selector), lowest.describe(), doc.layer,
                                       ', '.join(sorted(rank, key=rank.get))))
    closest = matches.per_rank[rank[lowest.layer]]
    if len(closest) > 1:
        raise IndeterminateDocumentParent(
            '%s: its parentSelector %r matches %d documents in layer %r, the nearest layer above its own with a '
            'match: %s; a document has exactly one parent' % (doc.describe(), dict(doc.selector), len(closest),
                                                              lowest.layer, ', '.join(match.describe() for match in closest)))
    return lowest


def _no_parent(doc: Document, warnings: List[str]) -> None:
    if selects(doc.selector, doc.labels):
        raise DocumentError('%s: its parentSelector %r selects the document itself, and no document of schema %s '
                            'in a layer above %r has these labels; a document cannot be its own parent'
                            % (doc.describe(), dict(doc.selector), doc.schema, doc.layer))
    # Deckhand renders such a document from its own data (and only logs it).
    warnings.append('%s: no document of schema %s in a layer above %r has labels matching its parentSelector %r; '
                    'it is rendered from its own data' % (doc.describe(), doc.schema, doc.layer, dict(doc.selector)))


# --- replacements -----------------------------------------------------------------------
def _link_replacements(docs: List[Document]) -> None:
    for doc in docs:
        parent = doc.parent
        if doc.replacement:
            _check_replacement(doc, parent)
            parent.replaced_by = doc
        elif parent is not None and parent.name == doc.name:
            raise InvalidDocumentReplacement('%s has the same schema and metadata.name as its parent %s; add '
                                             '"replacement: true" to its metadata to replace the parent, or rename it'
                                             % (doc.describe(), parent.describe()))


def _check_replacement(doc: Document, parent: Optional[Document]) -> None:
    if parent is None:
        raise InvalidDocumentReplacement('%s has "replacement: true" but no parent; a replacement replaces the '
                                         'parent its parentSelector selects' % doc.describe())
    if parent.name != doc.name:
        raise InvalidDocumentReplacement('%s has "replacement: true" but its parent %s has another metadata.name; '
                                         'a replacement has the same schema and metadata.name as the parent it '
                                         'replaces' % (doc.describe(), parent.describe()))
    if parent.replacement:
        raise InvalidDocumentReplacement('%s replaces %s, which is itself a replacement; only one level of '
                                         'replacement is allowed' % (doc.describe(), parent.describe()))
    if parent.replaced_by is not None:
        raise InvalidDocumentReplacement('%s and %s both replace %s; a document can be replaced by one document only'
                                         % (parent.replaced_by.describe(), doc.describe(), parent.describe()))


def _check_unique(docs: List[Document]) -> None:
    """schema and metadata.name identify a document; only a replacement shares them, with its parent."""
    seen: Dict[Key, Document] = {}
    for doc in docs:
        if doc.control:
            continue
        other = seen.setdefault(doc.key, doc)
        if other is doc or (doc.replacement and doc.parent is other) or (other.replacement and other.parent is doc):
            continue
        raise InvalidDocumentReplacement('%s and %s have the same schema and metadata.name; only a replacement '
                                         '("replacement: true") may share them, with the parent it replaces'
                                         % (other.describe(), doc.describe()))


def layering_source(doc: Document) -> Optional[Document]:
    """The document whose rendered data a child layers onto: its parent, or the parent's replacement."""
    parent = doc.parent
    if parent is not None and parent.replaced_by is not None and parent.replaced_by is not doc:
        return parent.replaced_by
    return parent


# --- rendering order ------------------------------------------------------------------
def substitution_sources(docs: List[Document]) -> Dict[Key, Document]:
    """Concrete documents by schema and name; a replaced document's replacement stands in for it."""
    sources: Dict[Key, Document] = {}
    for doc in docs:
        if not doc.abstract:
            sources[doc.key] = doc.replaced_by or doc
    return sources


class Renderer:
    """Renders every document once, after the documents it depends on (its layering source and its
    substitution sources); data given out is never modified afterwards."""

    def __init__(self, docs: List[Document], warnings: List[str], secret: Callable[[Any], bool] = _never) -> None:
        self.docs = docs
        self.warnings = warnings
        self.secret = secret
        self.sources = substitution_sources(docs)
        self.by_key = {doc.key: doc for doc in docs}
        self.rendered: Dict[int, Any] = {}
        self.changed: Dict[int, bool] = {}
        """Documents whose data is not their own: layered or substituted."""
        self.receives_secrets: Dict[int, bool] = {}

    def render(self) -> None:
        for doc in self.order():
            if doc.control:
                self.rendered[doc.index] = doc.own_data    # a substitution source too, never changed
            else:
                self._render(doc)

    def data(self, doc: Document) -> Any:
        return self.rendered[doc.index] if self.changed.get(doc.index) else doc.source.get('data')

    def order(self) -> List[Document]:
        """Dependencies first (an iterative depth-first search: linear, and no recursion limit)."""
        order: List[Document] = []
        done: Dict[int, bool] = {}     # False while on the stack
        for root in self.docs:
            if root.index in done:
                continue
            done[root.index] = False
            stack: List[Tuple[Document, Iterator[Document]]] = [(root, self.dependencies(root))]
            while stack:
                doc, pending = stack[-1]
                dependency = next(pending, None)
                if dependency is None:
                    stack.pop()
                    done[doc.index] = True
                    order.append(doc)
                elif dependency.index not in done:
                    done[dependency.index] = False
                    stack.append((dependency, self.dependencies(dependency)))
                elif not done[dependency.index]:
                    raise _cycle([entry[0] for entry in stack], dependency)
        return order

    def dependencies(self, doc: Document) -> Iterator[Document]:
        if doc.control:
            return
        source = layering_source(doc)
        if source is not None:
            yield source
        for substitution in doc.substitutions:
            source = self.sources.get(substitution.source)
            if source is not None:     # a missing source is an error when the document renders (as in Deckhand)
                yield source

    def source_of(self, doc: Document, substitution: Substitution) -> Document:
        source = self.sources.get(substitution.source)
        if source is not None:
            return source
        known = self.by_key.get(substitution.source)
        why = ('is abstract; only concrete documents are substitution sources' if known is not None
               else 'is not among the documents')
        raise SubstitutionSourceNotFound('%s: substitution %d: the source document %s/%s %s'
                                         % (doc.describe(), substitution.number, substitution.source[0],
                                            substitution.source[1], why))

    def _render(self, doc: Document) -> None:
        source = layering_source(doc)
        layered = source is not None and bool(doc.actions)
        data = apply_actions(doc, self.rendered[source.index]) if layered else doc.own_data
        if doc.substitutions:
            data = self._substitute(doc, data if layered else copy_value(data))
        self.rendered[doc.index] = data
        self.changed[doc.index] = layered or bool(doc.substitutions)

    def _substitute(self, doc: Document, data: Any) -> Any:
        for substitution in doc.substitutions:
            source = self.source_of(doc, substitution)
            value = source_value(doc, substitution, source, self.rendered[source.index], self.warnings, self.secret)
            if source.encrypted or self.receives_secrets.get(source.index):
                self.receives_secrets[doc.index] = True     # Deckhand marks it encrypted, and so on downstream
            for destination in substitution.destinations:
                data = inject(doc, substitution, destination, data, _Text(value, self.secret), self.warnings)
        return data


def _cycle(stack: List[Document], again: Document) -> SubstitutionDependencyCycle:
    chain = stack[next(position for position, doc in enumerate(stack) if doc is again):] + [again]
    return SubstitutionDependencyCycle('documents depend on each other through their parents and substitution '
                                       'sources: %s (each needs the next rendered first)'
                                       % ' -> '.join(doc.describe() for doc in chain))


# --- layering actions -------------------------------------------------------------------
def apply_actions(doc: Document, parent_data: Any) -> Any:
    """The child's actions, in order, applied to a copy of its parent's rendered data."""
    rendered = copy_value(parent_data)
    for action in doc.actions:
        rendered = _ACTIONS[action.method](doc, action, rendered)
    return rendered


def _merge(doc: Document, action: Action, rendered: Any) -> Any:
    child = _child_value(doc, action)
    found, parent = lookup(rendered, action.path)
    if isinstance(child, Mapping):
        try:
            merged = merge_layers([child, parent if found and isinstance(parent, Mapping) else None], _RULES).value
        except MergeError as exc:
            raise DocumentError('%s: merge %r: %s' % (doc.describe(), action.text, exc)) from exc
    elif found and _extends(action, child, parent):
        merged = parent + copy_value(child)     # parent is already a copy
    else:
        merged = copy_value(child)    # primitives and lists: the child wins
    return _store_action(doc, action, rendered, merged)


def _extends(action: Action, child: Any, parent: Any) -> bool:
    """Deckhand's documentation: with an index in the path, a child's list extends the parent's."""
    return (any(isinstance(part, int) for part in action.path)
            and isinstance(child, (list, tuple)) and isinstance(parent, list))


def _replace(doc: Document, action: Action, rendered: Any) -> Any:
    return _store_action(doc, action, rendered, copy_value(_child_value(doc, action)))


def _delete(doc: Document, action: Action, rendered: Any) -> Any:
    if not action.path:
        return {}
    found, container = lookup(rendered, action.path[:-1])
    last = action.path[-1]
    if not (found and _holds(container, last)):
        raise MissingDocumentKey('%s: delete %r: the path is missing in the data the document inherits from its '
                                 'parent (%s); delete removes inherited data'
                                 % (doc.describe(), action.text, layering_source(doc).describe()))
    try:
        check_container(container, last)
    except PathConflict as exc:
        raise _action_conflict(doc, action, exc) from exc
    del container[last]
    return rendered


_ACTIONS: Dict[str, Callable[[Document, Action, Any], Any]] = {MERGE: _merge, REPLACE: _replace, DELETE: _delete}


def _child_value(doc: Document, action: Action) -> Any:
    found, value = lookup(doc.own_data, action.path)
    if not found or value is None:
        raise MissingDocumentKey('%s: %s %r: the path is missing in the document\'s own data; %s takes the child\'s '
                                 'data at the path' % (doc.describe(), action.method, action.text, action.method))
    return value


def _store_action(doc: Document, action: Action, rendered: Any, value: Any) -> Any:
    try:
        return store(rendered, action.path, value)
    except PathConflict as exc:
        raise _action_conflict(doc, action, exc) from exc


def _action_conflict(doc: Document, action: Action, exc: PathConflict) -> DocumentError:
    return DocumentError('%s: %s %r: in the inherited data, %s' % (doc.describe(), action.method, action.text, exc))


# --- substitution ---------------------------------------------------------------------
def source_value(doc: Document, substitution: Substitution, source: Document, data: Any,
                 warnings: List[str], secret: Callable[[Any], bool]) -> Any:
    """The value at src.path of the source's rendered data, narrowed by src.pattern."""
    found, value = lookup(data, substitution.path)
    if not found or value is None:
        raise SubstitutionSourceDataNotFound('%s: substitution %d: the source document %s has nothing at src.path %r'
                                             % (doc.describe(), substitution.number, source.describe(),
                                                substitution.path_text))
    if substitution.pattern is None:
        return value
    if not isinstance(value, str) or secret(value):
        raise UnknownSubstitutionError('%s: substitution %d: src.pattern needs text, but src.path %r of %s holds %s'
                                       % (doc.describe(), substitution.number, substitution.path_text,
                                          source.describe(), _what(value, secret)))
    match = substitution.pattern.search(value)
    if match is None:
        warnings.append('%s: substitution %d: src.pattern %r does not match the value at src.path %r of %s; the '
                        'whole value is used, as in Deckhand'
                        % (doc.describe(), substitution.number, substitution.pattern.pattern, substitution.path_text,
                           source.describe()))
        return value
    try:
        return match.group(substitution.match_group)
    except IndexError as exc:
        raise InvalidDocumentFormat('%s: substitution %d: src.pattern %r has no group %d (src.match_group)'
                                    % (doc.describe(), substitution.number, substitution.pattern.pattern,
                                       substitution.match_group)) from exc


def _what(value: Any, secret: Callable[[Any], bool]) -> str:
    """What a value that cannot be put into text is, for messages (never the value itself)."""
    if secret(value):
        return ('an encrypted value (an Ansible vault value), never decrypted by substitution: substitute it whole, '
                'without a pattern')
    if isinstance(value, (Mapping, list, tuple, int, float)):
        return 'a %s, which is not text' % type(value).__name__
    return ('a %s, not text; an encrypted value (an Ansible vault value) is never decrypted by substitution: '
            'substitute it whole, without a pattern' % type(value).__name__)


def inject(doc: Document, substitution: Substitution, destination: Destination, data: Any, source: _Text,
           warnings: List[str]) -> Any:
    """The data with the value written at dest.path, or put in place of dest.pattern in the text there."""
    where = '%s: substitution %d: dest.path %r' % (doc.describe(), substitution.number, destination.text)
    if destination.pattern is None:
        return _store_substitution(where, data, destination.path, copy_value(source.value))
    found, current = lookup(data, destination.path)
    if not found:
        _check_writable(where, data, destination.path)     # a value in the way is that error, not a missing pattern
    if destination.depth is not None and isinstance(current, (dict, list)):
        replace_recursively(current, destination.pattern, lambda: source.text(where), destination.depth)
        return data
    if not (found and isinstance(current, str)):
        raise MissingDocumentPattern('%s: dest.pattern %r replaces text, but the destination has %s there'
                                     % (where, destination.pattern.pattern,
                                        'a %s' % type(current).__name__ if found else 'nothing'))
    if not destination.pattern.search(current):
        warnings.append('%s: dest.pattern %r is not in the text there; nothing is replaced, as in Deckhand'
                        % (where, destination.pattern.pattern))
        return data
    text = source.text(where)
    return _store_substitution(where, data, destination.path, destination.pattern.sub(lambda _match: text, current))


def _check_writable(where: str, data: Any, path: Path) -> None:
    """Raise the error store() would raise for the path, without writing anything."""
    for part in path:
        try:
            check_container(data, part)
        except PathConflict as exc:
            raise UnknownSubstitutionError('%s: %s' % (where, exc)) from exc
        if not _holds(data, part) or data[part] is None:
            return      # store() creates the rest
        data = data[part]


def _store_substitution(where: str, data: Any, path: Path, value: Any) -> Any:
    try:
        return store(data, path, value)
    except PathConflict as exc:
        raise UnknownSubstitutionError('%s: %s' % (where, exc)) from exc


class _Text:
    """A substitution's source value, as text only when a pattern needs it (and never an encrypted one)."""

    def __init__(self, value: Any, secret: Callable[[Any], bool]) -> None:
        self.value = value
        self.secret = secret

    def text(self, where: str) -> str:
        if isinstance(self.value, str) and not self.secret(self.value):
            return self.value
        if isinstance(self.value, (bool, int, float)):
            return str(self.value)      # Deckhand's str(): True, 1.5
        raise UnknownSubstitutionError('%s: dest.pattern needs the source as text, but it is %s'
                                       % (where, _what(self.value, self.secret)))


def replace_recursively(container: Any, pattern: re.Pattern, text: Callable[[], str], depth: int,
                        level: int = 0) -> None:
    """Replace the pattern in every string of the maps and lists under ``container``, down to ``depth`` levels
    (-1: all); strings without the pattern are left alone, as Deckhand's recurse does."""
    if level == depth:
        return
    items = container.items() if isinstance(container, dict) else enumerate(container)
    for key, item in list(items):
        if isinstance(item, str):
            if pattern.search(item):
                replacement = text()
                container[key] = pattern.sub(lambda _match: replacement, item)
        elif isinstance(item, (dict, list)):
            replace_recursively(item, pattern, text, depth, level + 1)


# --- output ---------------------------------------------------------------------------
def _returned(doc: Document) -> bool:
    """Abstract documents and replaced documents are rendered but not returned."""
    return not doc.abstract and doc.replaced_by is None


def _output(doc: Document, renderer: Renderer) -> dict:
    """A copy of the document with its rendered data; documents that neither layer nor substitute come back as
    they are.  A document that received data from an encrypted source is marked encrypted, as Deckhand does."""
    result = dict(doc.source)
    if renderer.changed.get(doc.index):
        result['data'] = renderer.data(doc)
    if renderer.receives_secrets.get(doc.index) and not doc.encrypted:
        result['metadata'] = dict(result['metadata'], storagePolicy=ENCRYPTED)
    return {key: copy_value(value) for key, value in result.items()}    # each section counts its own depth
