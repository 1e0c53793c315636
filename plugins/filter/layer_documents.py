# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

DOCUMENTATION = r"""
name: layer_documents
short_description: Render Deckhand documents (layering and substitution) as Deckhand's documentation describes
version_added: 1.0.0
author: Strata maintainers (@strata-hier)
description:
  - Renders a set of L(Deckhand,https://airship-deckhand.readthedocs.io/) documents, each a map with
    C(schema), C(metadata) and C(data), and returns the concrete documents with their rendered C(data).
  - "The C(deckhand/LayeringPolicy/v1) document's C(data.layerOrder) lists the layers, highest (most general) first.
    It is required as soon as one document names a layer, has a C(parentSelector) or is a replacement."
  - "Each document's C(metadata.layeringDefinition) gives its C(layer), C(abstract) flag, C(parentSelector) and
    C(actions). The parent of a document is the one document of the same C(schema), in the nearest layer above
    the document's own layer that holds a match, whose C(metadata.labels) include every key and value of the
    C(parentSelector). As in Deckhand, labels matching a document of another C(schema), or of the same or a lower
    layer, are an error (C(InvalidDocumentParent))."
  - "The actions run in order on a copy of the parent's rendered data. C(merge) deep-merges the child's data at
    its path into it (maps key by key, the child winning; lists and other values are the child's, except that
    a list at a path holding an index, such as V(.a[0]), extends the parent's list). C(replace) puts the child's
    data at its path. C(delete) removes the path. Paths are V(.) (the whole data section), V(.a.b) and V(.a[0]);
    as in Deckhand, an action path's leading V(.data) or V($.data) is the data section itself (V(.data.a) is
    V(.a)) and a path without a leading dot gets one (V(a.b) is V(.a.b))."
  - A document with a C(parentSelector) but no actions keeps its own data, as in Deckhand.
  - "A document with C(metadata.replacement: true) replaces its parent, which must have the same C(schema) and
    C(metadata.name): the parent is not returned and its other children layer onto the replacement."
  - "C(metadata.substitutions) copy data into the document after its layering: each item's C(src) names a concrete
    document by C(schema) and C(name) (a replaced document's replacement stands in for it) and a C(path) in its
    rendered data, optionally narrowed by C(pattern) and C(match_group); C(dest) (one map or a list) gives the
    C(path) to write, or a C(pattern) to replace in the text there, everywhere below the path with
    C(recurse: {depth: N}) (V(-1): all levels). Secrets are ordinary documents of the list (for example
    C(deckhand/Passphrase/v1)); a document that receives data from a C(storagePolicy: encrypted) source is
    returned with C(storagePolicy: encrypted), as in Deckhand."
  - "Documents render in Deckhand's order: parents and substitution sources first, so a child inherits its
    parent's substituted data and a source gives its rendered data. Documents depending on each other are an
    error (C(SubstitutionDependencyCycle))."
  - "Vault values stay encrypted: a vault value substituted whole is the same vault value in the result. Putting
    one into text with a C(pattern) would need its plain text, so it is an error, never a silent decryption."
  - Abstract documents are rendered, and may be parents, but are not returned. Documents that neither layer nor
    substitute, and the LayeringPolicy, are returned as they are. Documents come back in the order given.
  - See the collection's C(docs/deckhand.md) for how Deckhand documents map onto this filter and every place
    where it departs from Deckhand's engine.
  - The input documents are never modified; the result shares no map or list with them.
positional: _input, _documents
options:
  _input:
    description:
      - The documents, a list of maps (for example the result of C(from_yaml_all) on a multi-document file).
        A single map is one document. Null items (empty YAML documents) are skipped.
    type: raw
    required: true
  _documents:
    description:
      - More documents, each argument a list of documents or one document, added after the input's.
        V(a | strata.hier.layer_documents(b\)) renders the documents of V(a) and V(b) together.
    type: raw
notes:
  - "Errors name the documents (C(schema/name)) and the path, and end with the name of the exception Deckhand raises
    for the same problem: C(LayeringPolicyNotFound), C(InvalidDocumentLayer), C(InvalidDocumentParent),
    C(IndeterminateDocumentParent), C(InvalidDocumentReplacement), C(UnsupportedActionMethod),
    C(MissingDocumentKey) (an action path missing in the child's data, or for C(delete) in the inherited data),
    C(SubstitutionSourceNotFound) (no concrete source of that schema and name), C(SubstitutionSourceDataNotFound)
    (nothing at C(src.path)), C(SubstitutionDependencyCycle), C(MissingDocumentPattern) (no text at a
    C(dest.path) with a C(pattern)), C(UnknownSubstitutionError) (another value in the way of C(dest.path), or a
    value that is not text put into text), C(InvalidDocumentFormat) (malformed metadata, or a pattern that Python
    could take more than linear time to match, such as V((a+\\)+) or V(a*a*b); see docs/deckhand.md). What the
    substitutions write is limited to 1,000,000 characters plus 64 per character of the documents (a chain of
    substitutions doubling a text)."
  - "Warnings: a C(parentSelector) that matches no document in a layer above (the document keeps its own data), a
    C(dest.pattern) not found in the text at C(dest.path) (nothing is replaced), a C(src.pattern) that does not
    match (the whole value is used)."
  - "A null value in the child never overrides the parent's value in a C(merge): null means not found,
    as everywhere in strata.hier."
  - Data nesting deeper than 64 levels, or referring to itself, is an error.
seealso:
  - plugin: strata.hier.deep_merge
    plugin_type: filter
"""

EXAMPLES = r"""
- name: Render the documents of a site
  ansible.builtin.set_fact:
    rendered: "{{ lookup('ansible.builtin.file', 'site.yaml') | ansible.builtin.from_yaml_all | strata.hier.layer_documents }}"

- name: Layer a site document onto an abstract global one
  ansible.builtin.debug:
    msg: "{{ [policy, global_doc, site_doc] | strata.hier.layer_documents }}"
  vars:
    policy:
      schema: deckhand/LayeringPolicy/v1
      metadata: {schema: metadata/Control/v1, name: layering-policy}
      data: {layerOrder: [global, site]}
    global_doc:
      schema: example/Kind/v1
      metadata:
        schema: metadata/Document/v1
        name: global-1234
        labels: {key1: value1}
        layeringDefinition: {abstract: true, layer: global}
      data: {a: {x: 1, y: 2}}
    site_doc:
      schema: example/Kind/v1
      metadata:
        schema: metadata/Document/v1
        name: site-1234
        layeringDefinition:
          layer: site
          parentSelector: {key1: value1}
          actions:
            - {method: merge, path: .}
      data: {b: 4}
  # => the LayeringPolicy as it is, and site-1234 with data {a: {x: 1, y: 2}, b: 4}

- name: Substitute a password kept in Ansible vault into a chart
  ansible.builtin.set_fact:
    rendered: "{{ [policy, password, chart] | strata.hier.layer_documents }}"
  vars:
    policy: {schema: deckhand/LayeringPolicy/v1, data: {layerOrder: [global, site]},
             metadata: {schema: metadata/Control/v1, name: layering-policy}}
    password:
      schema: deckhand/Passphrase/v1
      metadata: {schema: metadata/Document/v1, name: db-password, storagePolicy: encrypted,
                 layeringDefinition: {layer: site}}
      data: "{{ vaulted_db_password }}"   # a !vault value: it stays one in the result
    chart:
      schema: armada/Chart/v1
      metadata:
        schema: metadata/Document/v1
        name: db
        layeringDefinition: {layer: site}
        substitutions:
          - src: {schema: deckhand/Passphrase/v1, name: db-password, path: .}
            dest: {path: .values.password}
          - src: {schema: deckhand/Passphrase/v1, name: db-password, path: .}
            dest: {path: .values.endpoints, pattern: PASSWORD, recurse: {depth: -1}}
      data: {values: {endpoints: {admin: "http://admin@db"}}}
  # => db's data: {values: {endpoints: {admin: "http://admin@db"}, password: <the vault value>}}
  #    (a PASSWORD placeholder in the endpoints would be an error with a vault value: it is never decrypted)

- name: Only the rendered data of one schema
  ansible.builtin.debug:
    msg: "{{ documents | strata.hier.layer_documents | selectattr('schema', 'equalto', 'example/Kind/v1') | map(attribute='data') }}"
"""

RETURN = r"""
_value:
  description:
    - The concrete documents, in the order given, abstract and replaced documents left out.
      A document that layers with a parent or has substitutions has its rendered C(data); every other document is
      returned as it is.
  type: list
  elements: dict
"""

from collections.abc import Iterable, Mapping

from ansible.errors import AnsibleFilterError

# Before the helpers: they load with Python's bytecode cache (plugin_utils/bytecode.py).
from ansible_collections.strata.hier.plugins.plugin_utils import bytecode  # noqa: F401  # pylint: disable=unused-import
from ansible_collections.strata.hier.plugins.module_utils.dialects.deckhand.layering import layer_documents as render
from ansible_collections.strata.hier.plugins.plugin_utils.compat import vault_ciphertext
from ansible_collections.strata.hier.plugins.plugin_utils.filters import call_core


def documents_from(value, others):
    """The input's documents followed by each argument's; a map is one document."""
    documents = []
    for position, group in enumerate([value] + list(others)):
        if isinstance(group, Mapping):
            documents.append(group)
        elif isinstance(group, Iterable) and not isinstance(group, (str, bytes)):
            documents.extend(group)
        else:
            what = 'the input' if position == 0 else 'argument %d' % position
            raise AnsibleFilterError('layer_documents: %s must be a list of documents (maps), not %s'
                                     % (what, type(group).__name__))
    return documents


def layer_documents(value, *others):
    """Render Deckhand documents: the concrete ones, with their layered and substituted data."""
    return call_core('layer_documents', render, documents_from(value, others), secret=is_vaulted).documents


def is_vaulted(value):
    """A vault value, or (ansible-core 2.19+) its decrypted text still tagged with its ciphertext."""
    return vault_ciphertext(value) is not None


class FilterModule(object):
    """Deckhand document rendering."""

    def filters(self):
        return {'layer_documents': layer_documents}
