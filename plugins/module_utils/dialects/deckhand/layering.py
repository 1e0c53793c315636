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
What the substitutions write is charged to one work budget per rendering
(limits.ExpansionBudget, grown by the documents' size as written): a chain of
substitutions doubling a text stops with an ExpansionError naming the document
and the substitution.  Patterns are data too: safe_regex refuses those Python's
re could take more than linear time to match.

Documents are read by documents.py (with Deckhand's errors and paths);
substitution itself is substitution.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from ansible_collections.strata.hier.plugins.module_utils.dialects.deckhand.documents import (
    DELETE, ENCRYPTED, LAYERING_POLICY, MERGE, REPLACE, Action, Document, IndeterminateDocumentParent,
    InvalidDocumentFormat, InvalidDocumentLayer, InvalidDocumentParent, InvalidDocumentReplacement, Key,
    LayeringPolicyNotFound, MissingDocumentKey, PathConflict, Substitution, SubstitutionDependencyCycle,
    SubstitutionSourceNotFound, check_container, holds, lookup, parse_document, store,
)
from ansible_collections.strata.hier.plugins.module_utils.dialects.deckhand.substitution import (
    SourceText, inject, source_value,
)
from ansible_collections.strata.hier.plugins.module_utils.core.errors import DocumentError, MergeError
from ansible_collections.strata.hier.plugins.module_utils.core.kinds import MAP, SCALAR, family_of
from ansible_collections.strata.hier.plugins.module_utils.core.limits import ExpansionBudget, copy_value
from ansible_collections.strata.hier.plugins.module_utils.core.merging import merge_layers
from ansible_collections.strata.hier.plugins.module_utils.core.records import Record
from ansible_collections.strata.hier.plugins.module_utils.core.rules import MergeRules
from ansible_collections.strata.hier.plugins.module_utils.core.strategy import DEEP, datum_strategy

# Deckhand's merge: maps merge key by key with the child winning, lists are taken whole
# from the child, and no key is a knockout marker.
DECKHAND_MERGE = datum_strategy('deckhand', {'merge_hash': DEEP}, knockout_prefix=None)
_RULES = MergeRules(DECKHAND_MERGE)


def _never(_value: Any) -> bool:
    return False


class LayeringResult(Record):
    """The rendered documents, in input order, and warnings for the user."""

    documents: List[dict]
    warnings: List[str]


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
    renderer = Renderer(docs, warnings, secret or _never, ExpansionBudget(written_text(documents)))
    renderer.render()
    result = [_output(doc, renderer) for doc in docs if _returned(doc)]
    return LayeringResult(result, warnings)


def written_text(documents: Sequence[Any]) -> int:
    """The documents' size as written: characters of text, one per other value, map key or list item; each map
    and list counted once (a YAML alias is not written twice)."""
    size, seen, pending = 0, set(), [document for document in documents if family_of(document) is not SCALAR]
    while pending:
        value = pending.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        entries = list(value.items()) if family_of(value) is MAP else [(None, item) for item in value]
        for key, item in entries:
            for part in (key, item):
                size += len(part) if isinstance(part, str) else 1
            if family_of(item) is not SCALAR:
                pending.append(item)
    return size


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

    def __init__(self, docs: List[Document], warnings: List[str], secret: Callable[[Any], bool] = _never,
                 budget: Optional[ExpansionBudget] = None) -> None:
        self.docs = docs
        self.warnings = warnings
        self.secret = secret
        self.budget = ExpansionBudget(written_text([doc.source for doc in docs])) if budget is None else budget
        """What every substitution writes is charged to it: chained substitutions can double a text at each step."""
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
                data = inject(doc, substitution, destination, data, SourceText(value, self.secret), self.warnings,
                              self.budget)
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
    if not (found and holds(container, last)):
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
