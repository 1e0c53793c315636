# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""hiera-eyaml values: ``ENC[PKCS7,...]`` strings of a level with eyaml keys, read as encrypted values.

As hiera-eyaml does, a level with eyaml keys answers its plain values without any key file; an eyaml value is
opaque to the merge (compared by its ciphertext, as a vault value is) and is decrypted only where a lookup returns
it, each ciphertext once per process, with ``cryptography``'s PKCS7 (what the ``eyaml`` gem writes: RSA key
transport, AES-256-CBC content). A level without eyaml keys refuses ciphertext-shaped strings (the guard): Puppet
would return the ciphertext as the value.
"""

from __future__ import annotations

import base64
import binascii
import os
import re
from typing import Any, Dict, Optional, Tuple

from ansible.errors import AnsibleError

from ansible_collections.strata.hier.plugins.module_utils.identity import register_opaque
from ansible_collections.strata.hier.plugins.plugin_utils.compat import CompleteMessage
from ansible_collections.strata.hier.plugins.plugin_utils.source_lines import key_position
from ansible_collections.strata.hier.plugins.plugin_utils.walk import find, rebuild, shown_path

ENV_PRIVATE_KEY = 'STRATA_HIER_EYAML_PRIVATE_KEY'
ENV_PUBLIC_KEY = 'STRATA_HIER_EYAML_PUBLIC_KEY'
"""The keys as PEM text, instead of the configured files (a CI secret); they apply to every eyaml level."""

DEFAULT_PRIVATE_KEY = 'keys/private_key.pkcs7.pem'
DEFAULT_PUBLIC_KEY = 'keys/public_key.pkcs7.pem'
"""Where the ``eyaml`` gem writes its keys (``eyaml createkeys``), relative to the configuration's folder."""

MIN_CRYPTOGRAPHY = (44, 0)
"""The first cryptography release whose PKCS7 decryption reads AES-256-CBC content (the gem's default)."""

_WHOLE = re.compile(r'\s*ENC\[(?:(\w+),)?([A-Za-z0-9+/=\s]*)\]\s*')
"""A value that is one eyaml token (hiera-eyaml's form; the block form folds whitespace into the base64)."""
_TOKEN = re.compile(r'ENC\[(?:\w+,)?[A-Za-z0-9+/=\s]+\]')

COUNTS = {'decrypted': 0}
"""Ciphertexts this process decrypted (tests and the benchmark read it)."""


class EyamlError(CompleteMessage, AnsibleError):
    pass


class EyamlKeys:
    """A level's PKCS7 key pair: files as configured (relative to the configuration's folder), read at the first
    decryption; ``ENV_PRIVATE_KEY``/``ENV_PUBLIC_KEY`` give them as text instead."""

    __slots__ = ('private_key', 'public_key', 'where', '_pair')

    def __init__(self, root: str, private_key: Optional[str] = None, public_key: Optional[str] = None,
                 where: str = '') -> None:
        self.private_key = os.path.join(root, os.path.expanduser(private_key or DEFAULT_PRIVATE_KEY))
        self.public_key = os.path.join(root, os.path.expanduser(public_key or DEFAULT_PUBLIC_KEY))
        self.where = where
        self._pair: Any = None

    def decrypt(self, value: 'EyamlValue') -> str:
        """The plain text of ``value``, decrypted once per process and key pair."""
        memo = (self.private_key, self.public_key, value.ciphertext)
        known = _PLAINTEXT.get(memo)
        if known is None:
            known = _PLAINTEXT[memo] = self._decrypt(value)
        return known

    def _decrypt(self, value: 'EyamlValue') -> str:
        pkcs7 = _pkcs7()
        private, certificate = self._keys(value)
        try:
            plain = pkcs7.pkcs7_decrypt_der(value.der(), certificate, private, [])
        except ValueError as exc:
            raise EyamlError('%s: the eyaml value cannot be decrypted with the key pair of %s (%s): it was encrypted '
                             'for another key pair, or is damaged (%s)'
                             % (value.position(), self.where, self.public_key, exc)) from None
        COUNTS['decrypted'] += 1
        try:
            return plain.decode('utf-8')
        except UnicodeDecodeError:
            raise EyamlError('%s: the eyaml value is not UTF-8 text once decrypted' % value.position()) from None

    def _keys(self, value: 'EyamlValue') -> Tuple[Any, Any]:
        if self._pair is None:
            self._pair = (_private_key(_pem(ENV_PRIVATE_KEY, self.private_key, value, self.where)),
                          _certificate(_pem(ENV_PUBLIC_KEY, self.public_key, value, self.where)))
        return self._pair


_PLAINTEXT: Dict[Tuple[str, str, str], str] = {}


class EyamlValue:
    """An eyaml value as a data file holds it: opaque (its text is its ciphertext, never its plain text)."""

    __slots__ = ('ciphertext', 'keys', 'file')

    def __init__(self, ciphertext: str, keys: EyamlKeys, file: str) -> None:
        self.ciphertext = ciphertext
        """``ENC[PKCS7,<base64>]`` without the whitespace of the block form."""
        self.keys = keys
        self.file = file

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, EyamlValue) and other.ciphertext == self.ciphertext

    def __hash__(self) -> int:
        return hash(self.ciphertext)

    def __repr__(self) -> str:
        return self.ciphertext

    __str__ = __repr__

    def der(self) -> bytes:
        try:
            return base64.b64decode(self.ciphertext[len('ENC[PKCS7,'):-1], validate=True)
        except (binascii.Error, ValueError):
            raise EyamlError('%s: the eyaml value is not valid base64' % self.position()) from None

    def decrypted(self) -> str:
        return self.keys.decrypt(self)

    def position(self) -> str:
        """``file:line`` of the value: the line holding the start of its base64 text."""
        head = self.ciphertext[len('ENC[PKCS7,'):][:40]
        try:
            with open(self.file, encoding='utf-8') as stream:
                for number, line in enumerate(stream, 1):
                    if head in line:
                        return '%s:%d' % (self.file, number)
        except (OSError, UnicodeDecodeError):
            pass
        return self.file


register_opaque(EyamlValue, lambda value: ('eyaml', value.ciphertext))


def read_values(data: Any, path: str, keys: Optional[EyamlKeys], level: str) -> Any:
    """A data file's values with each eyaml string as an EyamlValue (``keys``: the level's), or the data as it is
    when it holds none; an EyamlError naming file, line and key for ciphertext a level cannot read."""
    found = find(data, _holds_token)
    if found is None:
        return data
    if keys is None:
        raise EyamlError('%s: the value of %r looks like eyaml ciphertext; level %s has no eyaml keys'
                         % (key_position(path, found[0]), shown_path(found[0]), level))
    unreadable = find(data, _not_readable)
    if unreadable is not None:
        raise EyamlError('%s: the value of %r %s' % (key_position(path, unreadable[0]), shown_path(unreadable[0]),
                                                     _why_unreadable(unreadable[1])))
    return rebuild(data, lambda value: _value(value, keys, path))


def _holds_token(value: Any) -> bool:
    return isinstance(value, str) and 'ENC[' in value and _TOKEN.search(value) is not None


def _not_readable(value: Any) -> bool:
    if not _holds_token(value):
        return False
    whole = _WHOLE.fullmatch(value)
    return whole is None or (whole.group(1) or 'PKCS7') != 'PKCS7'


def _why_unreadable(value: str) -> str:
    whole = _WHOLE.fullmatch(value)
    if whole is None:
        return 'holds eyaml ciphertext within other text; only a whole value can be an eyaml value'
    return 'is encrypted with the eyaml encryptor %s; only PKCS7 is supported' % whole.group(1)


def _value(value: Any, keys: EyamlKeys, path: str) -> Any:
    if not _holds_token(value):
        return value
    text = _WHOLE.fullmatch(value).group(2)
    return EyamlValue('ENC[PKCS7,%s]' % ''.join(text.split()), keys, path)


def is_eyaml(value: Any) -> bool:
    return isinstance(value, EyamlValue)


def decrypted(value: Any) -> Any:
    """A copy of an answer with each eyaml value decrypted (what a lookup returns)."""
    if find(value, is_eyaml) is None:
        return value
    return rebuild(value, lambda item: item.decrypted() if isinstance(item, EyamlValue) else item)


def _pem(variable: str, path: str, value: EyamlValue, where: str) -> bytes:
    text = os.environ.get(variable)
    if text:
        return text.encode('utf-8')
    try:
        with open(path, 'rb') as stream:
            return stream.read()
    except OSError as exc:
        raise EyamlError('%s: decrypting the eyaml value needs the key %s of %s, which cannot be read (%s); give the '
                         'key file, or its text in %s' % (value.position(), path, where, exc.strerror, variable)) from None


def _private_key(pem: bytes) -> Any:
    from cryptography.hazmat.primitives.serialization import load_pem_private_key
    try:
        return load_pem_private_key(pem, None)
    except (ValueError, TypeError) as exc:
        raise EyamlError('the eyaml private key is not an unencrypted PEM private key (%s)' % exc) from None


def _certificate(pem: bytes) -> Any:
    from cryptography import x509
    try:
        return x509.load_pem_x509_certificate(pem)
    except ValueError as exc:
        raise EyamlError('the eyaml public key is not a PEM certificate (%s)' % exc) from None


def _pkcs7() -> Any:
    import cryptography
    from cryptography.hazmat.primitives.serialization import pkcs7
    if not hasattr(pkcs7, 'pkcs7_decrypt_der'):
        raise EyamlError('decrypting eyaml values needs the Python package cryptography %s or later; this is %s'
                         % ('.'.join(map(str, MIN_CRYPTOGRAPHY)), cryptography.__version__))
    return pkcs7


def token_of(value: Any) -> Tuple[Optional[str], Optional[str]]:
    """``(ciphertext, None)`` for a value that is one eyaml PKCS7 token (``ENC[PKCS7,...]``, the block form's
    whitespace removed), ``(None, why)`` for one holding ciphertext no eyaml level reads (the guard's rules: another
    encryptor, a token within other text), ``(None, None)`` for any other value."""
    if not _holds_token(value):
        return None, None
    if _not_readable(value):
        return None, _why_unreadable(value)
    return 'ENC[PKCS7,%s]' % ''.join(_WHOLE.fullmatch(value).group(2).split()), None
