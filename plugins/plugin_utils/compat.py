# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""What differs between the supported ansible-core releases, in one place.

ansible-core 2.19 introduced data tagging: strings loaded from files carry tags,
templates render only from strings trusted as templates, and vault values are
``EncryptedString`` objects.  2.16 has ``AnsibleUnicode`` and
``AnsibleVaultEncryptedUnicode`` instead.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from ansible.module_utils.common.text.converters import to_bytes, to_text
from ansible.release import __version__ as ansible_version

from ansible_collections.strata.hier.plugins.module_utils.core.identity import is_opaque, register_opaque, shown_path
from ansible_collections.strata.hier.plugins.module_utils.core.paths import split_path
from ansible_collections.strata.hier.plugins.plugin_utils.walk import rebuild

try:  # ansible-core >= 2.19
    from ansible.template import trust_as_template as _trust_as_template
    from ansible.template import accept_args_markers, accept_lazy_markers  # pylint: disable=unused-import  # for filters
except ImportError:  # ansible-core < 2.19: every string may be templated, filters get plain values
    _trust_as_template = None

    def accept_args_markers(plugin):
        """A filter that handles undefined values itself (2.19's markers); nothing to declare before 2.19."""
        return plugin

    accept_lazy_markers = accept_args_markers

CORE_VERSION = tuple(int(part) for part in ansible_version.split('.')[:2])
DATA_TAGGING = CORE_VERSION >= (2, 19)

if DATA_TAGGING:
    # no public name yet: ansible-core's own plugins (lookup env, inventory ini) import Origin from here too
    from ansible._internal._datatag._tags import Origin as _Origin
    from ansible.parsing.vault import EncryptedString as _VaultValue, VaultHelper
else:  # importing ansible.parsing.yaml.objects on 2.19+ costs ~0.1 s (a deprecated module)
    from ansible.parsing.yaml.objects import AnsibleVaultEncryptedUnicode as _VaultValue
    from ansible.template import JINJA2_OVERRIDE as _JINJA2_HEADER
    from ansible.utils.unsafe_proxy import AnsibleUnsafeText
    from jinja2.defaults import BLOCK_START_STRING, COMMENT_START_STRING, VARIABLE_START_STRING

    _START_STRINGS = (BLOCK_START_STRING, VARIABLE_START_STRING, COMMENT_START_STRING)


class CompleteMessage(object):
    """Mixed into the collection's errors, whose messages say everything: from 2.19, Ansible would append the
    message of the exception they translate (``raise ... from exc``)."""

    _include_cause_message = False


# DataLoader.load_from_file(cache=...) was a bool before 2.17 and a mode string since.
LOADER_NO_CACHE = 'none' if CORE_VERSION >= (2, 17) else False


def trust_as_template(value):
    """Mark a string as a template the user asked to render (a no-op before 2.19)."""
    return _trust_as_template(value) if _trust_as_template else value


def not_templates(value, wrappers=0):
    """Data is never rendered as templates by Ansible: before 2.19, mark unsafe every string (keys too) that
    Ansible's Templar could render.

    Before 2.19, ``Templar.template`` renders a string when ``Templar.is_possibly_template`` says so: a
    ``#jinja2:`` header at the very start of the string (``JINJA2_OVERRIDE``) may set any attribute of the Jinja
    environment (delimiters such as ``<<``, line statement and comment prefixes, ...), then the block, variable or
    comment start string of that environment must occur in it. Without a header they are Jinja's defaults: Ansible
    never changes its environment's (the template module's delimiters apply to its template file, not to the
    variables it reads). That predicate is not asked here: it would parse every hostile header (``literal_eval``,
    a warning per unknown setting). Marked instead, a superset of what it accepts: every string starting with the
    header, whatever the header sets, and every string holding a default start string.

    From 2.19, data the store loads is not trusted as templates anyway. (ansible-core's
    wrap_var would turn a 2.16 vault value into a list of characters, hence this walk.) ``wrappers``: levels of
    maps around the data (walk.rebuild).
    """
    return value if DATA_TAGGING else rebuild(value, _unsafe_if_template, wrappers=wrappers)


def _unsafe_if_template(value):
    if isinstance(value, str) and (value.startswith(_JINJA2_HEADER) or any(start in value for start in _START_STRINGS)):
        return AnsibleUnsafeText(value)     # only what could render: --list stays free of unsafe markers
    return value


def is_vault_value(value) -> bool:
    return isinstance(value, _VaultValue)


def vault_ciphertext(value):
    """The ciphertext of a vault value, without decrypting it; None for any other value. A value encrypted for the
    run (``encrypted_for_run``) gives the text it is written as.

    From 2.19 this includes a decrypted value still tagged with its ciphertext.
    """
    if DATA_TAGGING:
        ciphertext = VaultHelper.get_ciphertext(value, with_tags=False)
    else:
        ciphertext = to_text(value._ciphertext) if is_vault_value(value) else None
    return _WRITTEN_AS.get(ciphertext, ciphertext) if _WRITTEN_AS and ciphertext else ciphertext


RUN_VAULT_ID = 'strata_hier_eyaml'
"""The vault id of the run's own secret (eyaml values in host variables)."""
_WRITTEN_AS = {}
"""Ciphertext of the run's vault values -> the text they are written as (an eyaml value's ENC[...])."""
_RUN_SECRET = []


def run_secret():
    """The run's own vault secret (random, in memory only), added to the vault secrets of the run (2.19's context,
    which the CLI makes before any inventory is read; outside a play there is none, and nothing decrypts)."""
    if not _RUN_SECRET:
        from ansible.parsing.vault import VaultSecret
        _RUN_SECRET.append(VaultSecret(os.urandom(32)))
    if DATA_TAGGING:
        from ansible.parsing.vault import VaultSecretsContext
        context = VaultSecretsContext.current(optional=True)
        entry = (RUN_VAULT_ID, _RUN_SECRET[0])
        if context is not None and entry not in context.secrets:
            context.secrets.append(entry)
    return _RUN_SECRET[0]


def encrypted_for_run(ciphertext, written):
    """A vault value of ``ciphertext`` (vault text of the run's secret), written out (``vault_ciphertext``) as
    ``written``."""
    _WRITTEN_AS[ciphertext] = written
    if DATA_TAGGING:
        return _VaultValue(ciphertext=ciphertext)
    from ansible.parsing.vault import VaultLib
    value = _VaultValue(to_bytes(ciphertext))
    value.vault = VaultLib([(RUN_VAULT_ID, run_secret())])
    return value


# The merge core compares vault values (Unique items, tuple values, knockouts) by ciphertext: comparing
# them as strings would decrypt them, which needs the password and exposes the secret.
register_opaque(_VaultValue, vault_ciphertext)


def plain(value, wrappers=0):
    """Builtin types only, vault values kept as they are: for explain and caches.

    Drops 2.19's tags (jmespath and JSON caches check exact types); never decrypts. ``wrappers``: levels of maps
    around the data (walk.rebuild).
    """
    return rebuild(value, plain_scalar, wrappers=wrappers)


def decrypted(value):
    """The plain text of a vault value (a bare vault value is what a lookup of it returns)."""
    return str(to_text(str(value) if DATA_TAGGING else value.data))   # str(): 2.19 tags the decrypted text


def plain_scalar(value):
    """A scalar as its builtin type (2.19's tags dropped); vault values and other objects as they are, an eyaml
    value as its ciphertext (what a report shows of it)."""
    if isinstance(value, bool) or value is None or is_vault_value(value):
        return value
    if is_opaque(value):
        return str(value)
    for kind in (str, int, float):
        if isinstance(value, kind):
            return kind(value)     # drops 2.19's tags
    return value


def cached_vault_value(ciphertext):
    """A vault value of ``ciphertext`` with no secrets (the inventory cache's: cache_form.py gives it its loader's)."""
    return _VaultValue(ciphertext=str(ciphertext))


def vault_from_ciphertext(ciphertext, loader):
    """A ``!vault`` value as DataLoader builds it (2.16: decrypted with the loader's vault secrets, when asked)."""
    if DATA_TAGGING:
        return _VaultValue(ciphertext=str(ciphertext))
    value = _VaultValue(to_bytes(ciphertext))
    value.vault = loader._vault     # pylint: disable=protected-access  # what 2.16's constructor gives its values
    return value


def origin_tagged(value, records, base, key):
    """The merged value of ``key`` with ansible-core's ``Origin`` tag on each map, list and leaf that a provenance
    record places (``records``: path -> record, provenance_report.py, files relative to the folder ``base``), so
    that an error about the value (a failed ``assert``, a template error) names the data file and line.

    From 2.19; before, the value as it is.  Tagging copies every map and list and needs the records (a lookup with
    provenance, which costs the merge its fast paths): the lookup's ``origin_tags`` setting turns it on.  Vault values
    keep the tags DataLoader gave them; a record withheld (whole-file vaulted data) gives its file without a line.
    """
    if not DATA_TAGGING or not records:
        return value
    return _tag_origins(value, split_path(key), records, os.path.abspath(base))


def _tag_origins(value, path, records, base):
    if isinstance(value, Mapping):
        value = {name: _tag_origins(item, path + (name,), records, base) for name, item in value.items()}
    elif isinstance(value, list):
        value = [_tag_origins(item, path + (index,), records, base) for index, item in enumerate(value)]
    elif is_vault_value(value):
        return value
    record = records.get(shown_path(path))
    if not record or not record.get('file'):
        return value
    origin = _Origin(path=os.path.normpath(os.path.join(base, record['file'])), line_num=record.get('line'),
                     col_num=record.get('column'))
    return origin.try_tag(value)
