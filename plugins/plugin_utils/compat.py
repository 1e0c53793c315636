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

from collections.abc import Mapping

from ansible.module_utils.common.text.converters import to_text
from ansible.release import __version__ as ansible_version

try:  # ansible-core >= 2.19
    from ansible.template import trust_as_template as _trust_as_template
except ImportError:  # ansible-core < 2.19: every string may be templated
    _trust_as_template = None

CORE_VERSION = tuple(int(part) for part in ansible_version.split('.')[:2])
DATA_TAGGING = CORE_VERSION >= (2, 19)

if DATA_TAGGING:
    from ansible.parsing.vault import EncryptedString as _VaultValue, VaultHelper
else:  # importing ansible.parsing.yaml.objects on 2.19+ costs ~0.1 s (a deprecated module)
    from ansible.parsing.yaml.objects import AnsibleVaultEncryptedUnicode as _VaultValue
    from ansible.utils.unsafe_proxy import AnsibleUnsafeText

# DataLoader.load_from_file(cache=...) was a bool before 2.17 and a mode string since.
LOADER_NO_CACHE = 'none' if CORE_VERSION >= (2, 17) else False


def trust_as_template(value):
    """Mark a string as a template the user asked to render (a no-op before 2.19)."""
    return _trust_as_template(value) if _trust_as_template else value


def not_templates(value):
    """Data is never rendered as templates by Ansible: mark strings unsafe before 2.19.

    From 2.19, data the store loads is not trusted as templates anyway. (ansible-core's
    wrap_var would turn a 2.16 vault value into a list of characters, hence this walk.)
    """
    if DATA_TAGGING or is_vault_value(value):
        return value
    if isinstance(value, Mapping):
        return {key: not_templates(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [not_templates(item) for item in value]
    if isinstance(value, str) and ('{{' in value or '{%' in value or '{#' in value):
        return AnsibleUnsafeText(value)     # only what could render: --list stays free of unsafe markers
    return value


def is_vault_value(value) -> bool:
    return isinstance(value, _VaultValue)


def plain(value):
    """Builtin types only, vault values decrypted: for JMESPath and for returning bare vault scalars.

    jmespath rejects the tagged types of 2.19 (it checks exact types).
    """
    if isinstance(value, Mapping):
        return {plain(key): plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    if is_vault_value(value):
        return str(to_text(str(value) if DATA_TAGGING else value.data))   # str(): 2.19 tags the decrypted text
    if isinstance(value, bool) or value is None:
        return value
    for kind in (str, int, float):
        if isinstance(value, kind):
            return kind(value)     # drops 2.19's tags
    return value


_CACHED_VAULT = '__strata_hier_vault__'


def for_cache(value):
    """Host vars as an inventory cache should hold them.

    From 2.19 every loaded value carries its file:line tags, which make the cache large and slow
    to read back, and vault values come back from a cache as bare ciphertext
    (ansible/ansible#86369). So store builtin types, and vault values as marked ciphertext.
    Before 2.19 the cache plugins handle both; the value is kept as it is.
    """
    if not DATA_TAGGING:
        return value
    if isinstance(value, Mapping):
        return {for_cache(key): for_cache(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [for_cache(item) for item in value]
    if is_vault_value(value):
        return {_CACHED_VAULT: VaultHelper.get_ciphertext(value, with_tags=False)}
    return plain(value)


def from_cache(value):
    """Undo for_cache: marked ciphertext becomes a vault value again."""
    if not DATA_TAGGING:
        return value
    if isinstance(value, Mapping):
        if len(value) == 1 and _CACHED_VAULT in value:
            return _VaultValue(ciphertext=str(value[_CACHED_VAULT]))
        return {key: from_cache(item) for key, item in value.items()}
    if isinstance(value, list):
        return [from_cache(item) for item in value]
    return value
