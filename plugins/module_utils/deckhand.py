# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Deckhand document layering: a list of documents -> the rendered concrete documents.

Follows Deckhand's documentation (docs/deckhand.md lists where its engine does
something else): a LayeringPolicy's ``data.layerOrder`` ranks the layers; a
document's ``metadata.layeringDefinition`` gives its ``layer``, ``abstract``
flag, ``parentSelector`` and ``actions``.  The parent is the one document of the
same schema, in the nearest layer above the child's holding a match, whose
``metadata.labels`` include every pair of the selector.  Actions (``merge``,
``replace``, ``delete`` at a path such as ``.``, ``.a.b``, ``.a[0]``) run in
order on a copy of the parent's rendered data.  A ``replacement: true``
document replaces its parent (same schema and name): the parent is not
returned and its other children layer onto the replacement.  Abstract and
replaced documents are rendered but not returned.  Inputs are never modified.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from ansible_collections.strata.hier.plugins.module_utils.errors import DocumentError, MergeError
from ansible_collections.strata.hier.plugins.module_utils.limits import copy_value
from ansible_collections.strata.hier.plugins.module_utils.merging import merge_layers
from ansible_collections.strata.hier.plugins.module_utils.rules import MergeRules
from ansible_collections.strata.hier.plugins.module_utils.strategy import DEEP, datum_strategy

LAYERING_POLICY = 'deckhand/LayeringPolicy'
CONTROL_METADATA = 'metadata/Control'
MERGE, REPLACE, DELETE = 'merge', 'replace', 'delete'
METHODS = (MERGE, REPLACE, DELETE)

# Deckhand's merge: maps merge key by key with the child winning, lists are taken whole
# from the child, and no key is a knockout marker.
DECKHAND_MERGE = datum_strategy('deckhand', {'merge_hash': DEEP}, knockout_prefix=None)
_RULES = MergeRules(DECKHAND_MERGE)

Path = Tuple[Union[str, int], ...]

_SEGMENT = re.compile(r"""\.(?P<key>[^.\[\]'"]+)|\.'(?P<key1>[^']*)'|\."(?P<key2>[^"]*)"|\[(?P<index>\d+)\]"""
                      r"""|\['(?P<key3>[^']*)'\]|\["(?P<key4>[^"]*)"\]""")


@dataclass(frozen=True)
class Action:
    """One layering action: a method and the path it applies to."""

    method: str
    path: Path
    text: str
    """The path as written, for messages."""


@dataclass(eq=False)
class Document:
    """A document and what its metadata says about layering."""

    index: int
    source: Mapping
    schema: str
    name: str
    layer: Optional[str] = None
    labels: Mapping = field(default_factory=dict)
    selector: Mapping = field(default_factory=dict)
    actions: List[Action] = field(default_factory=list)
    abstract: bool = False
    replacement: bool = False
    control: bool = False
    parent: Optional['Document'] = None
    replaced_by: Optional['Document'] = None

    def describe(self) -> str:
        """``schema/name``, with the layer when there is one (a replacement shares schema and name)."""
        where = ' (layer %s)' % self.layer if self.layer is not None else ''
        return '%s/%s%s' % (self.schema, self.name, where)

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


def layer_documents(documents: Sequence[Any]) -> LayeringResult:
    """Render Deckhand documents: concrete documents come back with their layered data."""
    docs = [parse_document(index, document) for index, document in enumerate(documents)
            if document is not None]     # an empty YAML document
    warnings: List[str] = []
    order = _layer_order(docs, warnings)
    rank = {layer: position for position, layer in enumerate(order)}
    _check_layers(docs, rank)
    _select_parents(docs, rank, warnings)
    _link_replacements(docs)
    _check_unique(docs)
    renderer = Renderer()
    for doc in docs:
        if not doc.control:
            renderer.data(doc)     # abstract documents too: their errors are the user's errors
    result = [_output(doc, renderer) for doc in docs if _returned(doc)]
    _warn_substitutions(docs, warnings)
    return LayeringResult(result, warnings)


# --- reading documents ----------------------------------------------------------------
def parse_document(index: int, document: Any) -> Document:
    """Read the parts of a document layering uses; malformed metadata is an error."""
    if not isinstance(document, Mapping):
        raise DocumentError('document %d (counting from 0) is a %s, not a map with schema, metadata and data'
                            % (index, type(document).__name__))
    metadata = document.get('metadata')
    schema = document.get('schema')
    name = metadata.get('name') if isinstance(metadata, Mapping) else None
    if not (isinstance(schema, str) and schema and isinstance(name, str) and name):
        raise DocumentError('document %d (counting from 0) needs a schema and a metadata.name (strings); '
                            'it has schema %r and metadata %r' % (index, schema, metadata))
    doc = Document(index, document, schema, name)
    doc.control = schema.startswith(LAYERING_POLICY) or str(metadata.get('schema', '')).startswith(CONTROL_METADATA)
    if doc.control:
        return doc     # control documents are never layered
    doc.labels = _map_at(doc, metadata, 'labels', 'metadata.labels')
    doc.replacement = metadata.get('replacement') is True
    definition = _map_at(doc, metadata, 'layeringDefinition', 'metadata.layeringDefinition')
    _read_definition(doc, definition)
    return doc


def _map_at(doc: Document, container: Mapping, key: str, where: str) -> Mapping:
    value = container.get(key)
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise DocumentError('%s: %s must be a map, not %s' % (doc.describe(), where, type(value).__name__))
    return value


def _read_definition(doc: Document, definition: Mapping) -> None:
    layer = definition.get('layer')
    if layer is not None and not isinstance(layer, str):
        raise DocumentError('%s: metadata.layeringDefinition.layer must be a string, not %r' % (doc.describe(), layer))
    doc.layer = layer
    doc.abstract = definition.get('abstract') is True
    doc.selector = _map_at(doc, definition, 'parentSelector', 'metadata.layeringDefinition.parentSelector')
    actions = definition.get('actions')
    if actions is None:
        actions = []
    if not isinstance(actions, (list, tuple)):
        raise DocumentError('%s: metadata.layeringDefinition.actions must be a list, not %s'
                            % (doc.describe(), type(actions).__name__))
    doc.actions = [_read_action(doc, number, action) for number, action in enumerate(actions, 1)]


def _read_action(doc: Document, number: int, action: Any) -> Action:
    where = '%s: action %d' % (doc.describe(), number)
    if not isinstance(action, Mapping) or 'method' not in action or 'path' not in action:
        raise DocumentError('%s must be a map with a method and a path, not %r' % (where, action))
    method = action['method']
    if method not in METHODS:
        raise DocumentError('%s: unknown method %r; valid methods: %s' % (where, method, ', '.join(METHODS)))
    text = action['path']
    return Action(method, parse_path(text, '%s (%s)' % (where, method)), str(text))


def parse_path(text: Any, where: str = 'path') -> Path:
    """``.`` -> (), ``.a.b`` -> ('a', 'b'), ``.a[0]`` -> ('a', 0); ``$`` may stand for the leading dot's root."""
    if not isinstance(text, str):
        raise DocumentError('%s: the path must be a string such as .a.b or .a[0], not %r' % (where, text))
    rest = text.strip()
    if rest.startswith('$'):
        rest = rest[1:]
    elif not rest.startswith('.'):
        raise DocumentError('%s: the path %r must start with "." (the data section) or "$"' % (where, text))
    if rest in ('', '.'):
        return ()
    parts: List[Union[str, int]] = []
    position = 0
    while position < len(rest):
        match = _SEGMENT.match(rest, position)
        if match is None:
            raise DocumentError('%s: cannot read the path %r at %r; paths are made of .key, .\'key\' and [index]'
                                % (where, text, rest[position:]))
        parts.append(_segment(match))
        position = match.end()
    return tuple(parts)


def _segment(match: Any) -> Union[str, int]:
    if match.group('index') is not None:
        return int(match.group('index'))
    return next(value for name, value in match.groupdict().items() if name != 'index' and value is not None)


# --- the policy and the layers --------------------------------------------------------
def _layer_order(docs: List[Document], warnings: List[str]) -> List[str]:
    """The first LayeringPolicy's layerOrder (Deckhand warns about others); [] when nothing needs one."""
    policies = [doc for doc in docs if doc.schema.startswith(LAYERING_POLICY)]
    if not policies:
        user = next((doc for doc in docs if not doc.control and doc.uses_layering), None)
        if user is not None:
            raise DocumentError('no LayeringPolicy (schema %s/v1) among the documents, but %s uses layering; '
                                'add the policy whose data.layerOrder lists the layers' % (LAYERING_POLICY, user.describe()))
        return []
    if len(policies) > 1:
        warnings.append('%d LayeringPolicy documents were given; using the first, %s'
                        % (len(policies), policies[0].describe()))
    return _read_order(policies[0])


def _read_order(policy: Document) -> List[str]:
    data = policy.source.get('data')
    order = data.get('layerOrder') if isinstance(data, Mapping) else None
    if not isinstance(order, (list, tuple)) or not all(isinstance(layer, str) for layer in order):
        raise DocumentError('LayeringPolicy %s: data.layerOrder must be a list of layer names, not %r'
                            % (policy.describe(), order))
    if len(set(order)) != len(order):
        raise DocumentError('LayeringPolicy %s: data.layerOrder names a layer twice: %s'
                            % (policy.describe(), ', '.join(order)))
    return list(order)


def _check_layers(docs: List[Document], rank: Dict[str, int]) -> None:
    for doc in docs:
        if doc.control:
            continue
        if doc.layer is not None and doc.layer not in rank:
            raise DocumentError('%s: layer %r is not in the LayeringPolicy\'s layerOrder (%s)'
                                % (doc.describe(), doc.layer, ', '.join(rank) or 'empty'))
        if doc.layer is None and doc.selector:
            raise DocumentError('%s: it has a parentSelector but no metadata.layeringDefinition.layer; '
                                'the layer decides where its parent may be' % doc.describe())


# --- parents and replacements ---------------------------------------------------------
def _select_parents(docs: List[Document], rank: Dict[str, int], warnings: List[str]) -> None:
    by_schema: Dict[str, List[Document]] = {}
    for doc in docs:
        if not doc.control and doc.layer is not None:
            by_schema.setdefault(doc.schema, []).append(doc)
    for doc in docs:
        if not doc.control and doc.selector:
            doc.parent = _parent_of(doc, by_schema[doc.schema], rank, warnings)


def _selects(selector: Mapping, labels: Mapping) -> bool:
    return all(key in labels and labels[key] == value for key, value in selector.items())


def _parent_of(doc: Document, candidates: List[Document], rank: Dict[str, int], warnings: List[str]) -> Optional[Document]:
    """The one match in the nearest layer above the document's; documents of other schemas never match."""
    own = rank[doc.layer]
    matches = [other for other in candidates
               if other is not doc and rank[other.layer] < own and _selects(doc.selector, other.labels)]
    if not matches:
        return _no_parent(doc, warnings)
    nearest = max(rank[other.layer] for other in matches)
    closest = [other for other in matches if rank[other.layer] == nearest]
    if len(closest) > 1:
        raise DocumentError('%s: its parentSelector %r matches %d documents in layer %r, the nearest layer above '
                            'its own with a match: %s; a document has exactly one parent'
                            % (doc.describe(), dict(doc.selector), len(closest), closest[0].layer,
                               ', '.join(other.describe() for other in closest)))
    return closest[0]


def _no_parent(doc: Document, warnings: List[str]) -> None:
    if _selects(doc.selector, doc.labels):
        raise DocumentError('%s: its parentSelector %r selects the document itself, and no document of schema %s '
                            'in a layer above %r has these labels; a document cannot be its own parent'
                            % (doc.describe(), dict(doc.selector), doc.schema, doc.layer))
    # Deckhand renders such a document from its own data (and only logs it).
    warnings.append('%s: no document of schema %s in a layer above %r has labels matching its parentSelector %r; '
                    'it is rendered from its own data' % (doc.describe(), doc.schema, doc.layer, dict(doc.selector)))


def _link_replacements(docs: List[Document]) -> None:
    for doc in docs:
        parent = doc.parent
        if doc.replacement:
            _check_replacement(doc, parent)
            parent.replaced_by = doc
        elif parent is not None and parent.name == doc.name:
            raise DocumentError('%s has the same schema and metadata.name as its parent %s; add '
                                '"replacement: true" to its metadata to replace the parent, or rename it'
                                % (doc.describe(), parent.describe()))


def _check_replacement(doc: Document, parent: Optional[Document]) -> None:
    if parent is None:
        raise DocumentError('%s has "replacement: true" but no parent; a replacement replaces the parent its '
                            'parentSelector selects' % doc.describe())
    if parent.name != doc.name:
        raise DocumentError('%s has "replacement: true" but its parent %s has another metadata.name; a replacement '
                            'has the same schema and metadata.name as the parent it replaces'
                            % (doc.describe(), parent.describe()))
    if parent.replacement:
        raise DocumentError('%s replaces %s, which is itself a replacement; only one level of replacement is allowed'
                            % (doc.describe(), parent.describe()))
    if parent.replaced_by is not None:
        raise DocumentError('%s and %s both replace %s; a document can be replaced by one document only'
                            % (parent.replaced_by.describe(), doc.describe(), parent.describe()))


def _check_unique(docs: List[Document]) -> None:
    """schema and metadata.name identify a document; only a replacement shares them, with its parent."""
    seen: Dict[Tuple[str, str], Document] = {}
    for doc in docs:
        if doc.control:
            continue
        other = seen.setdefault((doc.schema, doc.name), doc)
        if other is doc or (doc.replacement and doc.parent is other) or (other.replacement and other.parent is doc):
            continue
        raise DocumentError('%s and %s have the same schema and metadata.name; only a replacement '
                            '("replacement: true") may share them, with the parent it replaces'
                            % (other.describe(), doc.describe()))


# --- rendering ------------------------------------------------------------------------
class Renderer:
    """Renders documents, each once, parents first; data given out is never modified afterwards."""

    def __init__(self) -> None:
        self._done: Dict[int, Any] = {}
        self._active: List[Document] = []

    def data(self, doc: Document) -> Any:
        """The document's rendered data: its own data unless it has a parent and actions."""
        if doc.index in self._done:
            return self._done[doc.index]
        if any(active is doc for active in self._active):
            chain = self._active[self._active.index(doc):] + [doc]
            raise DocumentError('layering cycle: %s' % ' -> '.join(active.describe() for active in chain))
        self._active.append(doc)
        source = layering_source(doc)
        if source is None or not doc.actions:
            rendered = doc.own_data    # Deckhand: a parent without actions gives nothing
        else:
            rendered = apply_actions(doc, self.data(source))
        self._active.pop()
        self._done[doc.index] = rendered
        return rendered


def layering_source(doc: Document) -> Optional[Document]:
    """The document whose rendered data a child layers onto: its parent, or the parent's replacement."""
    parent = doc.parent
    if parent is not None and parent.replaced_by is not None and parent.replaced_by is not doc:
        return parent.replaced_by
    return parent


def apply_actions(doc: Document, parent_data: Any) -> Any:
    """The child's actions, in order, applied to a copy of its parent's rendered data."""
    rendered = copy_value(parent_data)
    for action in doc.actions:
        rendered = _ACTIONS[action.method](doc, action, rendered)
    return rendered


def _merge(doc: Document, action: Action, rendered: Any) -> Any:
    child = _child_value(doc, action)
    found, parent = _lookup(rendered, action.path)
    if isinstance(child, Mapping):
        try:
            merged = merge_layers([child, parent if found and isinstance(parent, Mapping) else None], _RULES).value
        except MergeError as exc:
            raise DocumentError('%s: merge %r: %s' % (doc.describe(), action.text, exc)) from exc
    elif found and _extends(action, child, parent):
        merged = parent + copy_value(child)     # parent is already a copy
    else:
        merged = copy_value(child)    # primitives and lists: the child wins
    return _store(doc, action, rendered, merged)


def _extends(action: Action, child: Any, parent: Any) -> bool:
    """Deckhand's documentation: with an index in the path, a child's list extends the parent's."""
    return (any(isinstance(part, int) for part in action.path)
            and isinstance(child, (list, tuple)) and isinstance(parent, list))


def _replace(doc: Document, action: Action, rendered: Any) -> Any:
    return _store(doc, action, rendered, copy_value(_child_value(doc, action)))


def _delete(doc: Document, action: Action, rendered: Any) -> Any:
    if not action.path:
        return {}
    found, container = _lookup(rendered, action.path[:-1])
    last = action.path[-1]
    if not (found and _holds(container, last)):
        raise DocumentError('%s: delete %r: the path is missing in the data the document inherits from its parent '
                            '(%s); delete removes inherited data' % (doc.describe(), action.text,
                                                                     layering_source(doc).describe()))
    _check_container(doc, action, container, last)
    del container[last]
    return rendered


_ACTIONS: Dict[str, Callable[[Document, Action, Any], Any]] = {MERGE: _merge, REPLACE: _replace, DELETE: _delete}


def _child_value(doc: Document, action: Action) -> Any:
    found, value = _lookup(doc.own_data, action.path)
    if not found or value is None:
        raise DocumentError('%s: %s %r: the path is missing in the document\'s own data; %s takes the child\'s '
                            'data at the path' % (doc.describe(), action.method, action.text, action.method))
    return value


def _holds(container: Any, part: Union[str, int]) -> bool:
    if isinstance(part, int):
        return isinstance(container, (list, tuple)) and part < len(container)
    return isinstance(container, Mapping) and part in container


def _lookup(data: Any, path: Path) -> Tuple[bool, Any]:
    for part in path:
        if not _holds(data, part):
            return False, None
        data = data[part]
    return True, data


def _store(doc: Document, action: Action, rendered: Any, value: Any) -> Any:
    """Set the value at the path, creating missing maps and lists on the way (as Deckhand does)."""
    if not action.path:
        return value
    container = rendered
    last = len(action.path) - 1
    for position, part in enumerate(action.path):
        _check_container(doc, action, container, part)
        if isinstance(part, int) and part >= len(container):
            while len(container) < part:
                container.append({})    # Deckhand pads with empty maps
            container.append(None)
        if position == last:
            container[part] = value
        else:
            container = _step_into(container, part, action.path[position + 1])
    return rendered


def _step_into(container: Any, part: Union[str, int], following: Union[str, int]) -> Any:
    """The container at ``part``; a missing or null one becomes a map, or a list before an index."""
    current = container.get(part) if isinstance(part, str) else container[part]
    if current is None:
        current = container[part] = [] if isinstance(following, int) else {}
    return current


def _check_container(doc: Document, action: Action, container: Any, part: Union[str, int]) -> None:
    wanted, kind = (list, 'list') if isinstance(part, int) else (MutableMapping, 'map')
    if not isinstance(container, wanted):
        raise DocumentError('%s: %s %r: the inherited data holds a %s where the path needs a %s'
                            % (doc.describe(), action.method, action.text, type(container).__name__, kind))


# --- output ---------------------------------------------------------------------------
def _returned(doc: Document) -> bool:
    """Abstract documents and replaced documents are rendered but not returned."""
    return not doc.abstract and doc.replaced_by is None


def _output(doc: Document, renderer: Renderer) -> dict:
    """A copy of the document with its rendered data; documents that do not layer come back as they are."""
    result = dict(doc.source)
    if not doc.control and doc.actions and layering_source(doc) is not None:
        result['data'] = renderer.data(doc)
    return {key: copy_value(value) for key, value in result.items()}    # each section counts its own depth


def _warn_substitutions(docs: List[Document], warnings: List[str]) -> None:
    users = [doc for doc in docs if isinstance(doc.source.get('metadata'), Mapping)
             and doc.source['metadata'].get('substitutions')]
    if users:
        warnings.append('%d document(s) have metadata.substitutions (first: %s); layer_documents does not apply '
                        'substitutions' % (len(users), users[0].describe()))
