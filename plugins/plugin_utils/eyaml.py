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

What Puppet's ``eyaml_lookup_key`` answers (``puppet/functions/eyaml_lookup_key.rb``, hiera-eyaml 3.3.0), and so
what ``EyamlValue.decrypted`` answers: the plain text with the whitespace around the token (a folded block's last
line break) kept, then chomped as Ruby does (one trailing line break removed); a string is taken as encrypted only
when an ``ENC[`` and a ``]`` are on one line, so a token broken over the lines of a literal block (``|``) is
returned as its ciphertext by Puppet (and left encrypted by ``eyaml decrypt -f``): read_values refuses it.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import os
import re
from typing import Any, Callable, Dict, Optional, Tuple

from ansible.errors import AnsibleError

from ansible_collections.strata.hier.plugins.module_utils.core.identity import register_opaque
from ansible_collections.strata.hier.plugins.plugin_utils.compat import RUN_VAULT_ID, CompleteMessage, encrypted_for_run, run_secret as _run_secret
from ansible_collections.strata.hier.plugins.plugin_utils.data_files import MAX_NESTING
from ansible_collections.strata.hier.plugins.plugin_utils.source_lines import file_line, key_position
from ansible_collections.strata.hier.plugins.plugin_utils.walk import find, holds, rebuild, shown_path

ENV_PRIVATE_KEY = 'STRATA_HIER_EYAML_PRIVATE_KEY'
ENV_PUBLIC_KEY = 'STRATA_HIER_EYAML_PUBLIC_KEY'
"""The keys as PEM text, instead of the configured files (a CI secret); they apply to every eyaml level."""

DEFAULT_PRIVATE_KEY = 'keys/private_key.pkcs7.pem'
DEFAULT_PUBLIC_KEY = 'keys/public_key.pkcs7.pem'
"""Where the ``eyaml`` gem writes its keys (``eyaml createkeys``), relative to the configuration's folder."""

MIN_CRYPTOGRAPHY = (45, 0)
"""The first cryptography release that decrypts the gem's values (AES-256-CBC content), measured with the gem's
values: 43.0.3 has no ``pkcs7_decrypt_der``; 44.0.0 and 44.0.3 have it but decrypt only AES-128-CBC (they raise
``UnsupportedAlgorithm``: 'Only AES-128-CBC is currently supported for content decryption'); 45.0.0 (yanked on
PyPI, no reason given), 45.0.7 and 50.0.2 decrypt them."""

_WHOLE = re.compile(r'(\s*)ENC\[(?:(\w+),)?([A-Za-z0-9+/=\s]*)\](\s*)')
"""A value that is one eyaml token, and the whitespace around it (hiera-eyaml's form; the block form folds line
breaks into the base64 as spaces)."""
_TOKEN = re.compile(r'ENC\[(?:\w+,)?[A-Za-z0-9+/=\s]+\]')
_PUPPET_BASE64 = re.compile(r'[A-Za-z0-9+/= ]*')
"""What Puppet reads within a token of a value it takes as encrypted: spaces (a folded block), no other whitespace."""

COUNTS = {'decrypted': 0, 'values': 0}
"""Ciphertexts this process decrypted, and eyaml values it read (none: host variables need no walk for them)."""


class EyamlError(CompleteMessage, AnsibleError):
    key_pair = False
    """The key pair cannot be used (a key file missing or not a key): so it is for every value of the pair."""


def _key_pair_error(message: str) -> EyamlError:
    error = EyamlError(message)
    error.key_pair = True
    return error


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
        pkcs7, unsupported = _pkcs7(value)
        der = value.der()
        private, certificate = self._keys(value)
        try:
            plain = pkcs7.pkcs7_decrypt_der(der, certificate, private, [])
        except unsupported as exc:     # cryptography 44 decrypts AES-128 only
            raise _too_old(value.position(), exc) from None
        except ValueError as exc:
            raise EyamlError('%s: the eyaml value cannot be decrypted with the key pair of %s (%s): it was encrypted '
                             'for another key pair, or is damaged (%s)'
                             % (value.position(), self.where, self._public_source(), exc)) from None
        COUNTS['decrypted'] += 1
        try:
            return plain.decode('utf-8')
        except UnicodeDecodeError:
            raise EyamlError('%s: the eyaml value is not UTF-8 text once decrypted' % value.position()) from None

    def _keys(self, value: 'EyamlValue') -> Tuple[Any, Any]:
        if self._pair is None:
            private = _pem(ENV_PRIVATE_KEY, self.private_key, value, self.where)
            public = _pem(ENV_PUBLIC_KEY, self.public_key, value, self.where)
            self._pair = (_private_key(private, value, self.where), _certificate(public, value, self.where))
        return self._pair

    def _public_source(self) -> str:
        return ENV_PUBLIC_KEY if os.environ.get(ENV_PUBLIC_KEY) else self.public_key


_PLAINTEXT: Dict[Tuple[str, str, str], str] = {}


class EyamlValue:
    """An eyaml value as a data file holds it: opaque (its text is its ciphertext, never its plain text)."""

    __slots__ = ('ciphertext', 'keys', 'file', 'around')

    def __init__(self, ciphertext: str, keys: EyamlKeys, file: str, around: Tuple[str, str] = ('', '')) -> None:
        COUNTS['values'] += 1
        self.ciphertext = ciphertext
        """``ENC[PKCS7,<base64>]`` without the whitespace of the block form."""
        self.keys = keys
        self.file = file
        self.around = around
        """The whitespace before and after the token (a folded block's last line break): part of Puppet's answer,
        not of the value's identity."""

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, EyamlValue) and other.ciphertext == self.ciphertext

    def __hash__(self) -> int:
        return hash(self.ciphertext)

    def __repr__(self) -> str:
        return self.ciphertext

    def __copy__(self) -> 'EyamlValue':
        return self

    def __deepcopy__(self, memo: Dict[int, Any]) -> 'EyamlValue':
        return self     # immutable; a deep copy would copy its keys' loaded key objects (Hiera's deep merge copies)

    __str__ = __repr__

    def der(self) -> bytes:
        try:
            return base64.b64decode(self.ciphertext[len('ENC[PKCS7,'):-1], validate=True)
        except (binascii.Error, ValueError):
            raise EyamlError('%s: the eyaml value is not valid base64' % self.position()) from None

    def decrypted(self) -> str:
        """What Puppet's eyaml_lookup_key answers: the plain text between the whitespace around the token, chomped."""
        return _chomp(self.around[0] + self.keys.decrypt(self) + self.around[1])

    def cache_form(self) -> Dict[str, str]:
        """What an inventory cache keeps of the value: its ciphertext, file and key files (nothing secret)."""
        return {'ciphertext': self.ciphertext, 'file': self.file, 'private_key': self.keys.private_key,
                'public_key': self.keys.public_key, 'where': self.keys.where, 'around': list(self.around)}

    @classmethod
    def from_cache_form(cls, form: Dict[str, str]) -> 'EyamlValue':
        if not isinstance(form, dict) or not _WHOLE.fullmatch(str(form.get('ciphertext'))):
            raise ValueError('a cached eyaml value is not eyaml ciphertext')
        keys = EyamlKeys('/', form['private_key'], form['public_key'], form['where'])
        around = form.get('around') or ('', '')
        if len(around) != 2 or not all(isinstance(part, str) and not part.strip() for part in around):
            raise ValueError('a cached eyaml value has no whitespace around it')
        return cls(form['ciphertext'], keys, form['file'], (around[0], around[1]))

    def position(self) -> str:
        """``file:line`` of the value: the line where its base64 text starts (the file's text without whitespace
        searched, as a block spreads it over lines and values of one size share their first 50 characters)."""
        try:
            with open(self.file, encoding='utf-8') as stream:
                line = _line_of(stream.read(), self.ciphertext[len('ENC[PKCS7,'):-1])
        except (OSError, UnicodeDecodeError):
            line = 0
        return file_line(self.file, line)


register_opaque(EyamlValue, lambda value: ('eyaml', value.ciphertext))


def _line_of(text: str, base64_text: str) -> int:
    """1-based line where ``base64_text`` starts in ``text`` once its whitespace is removed, or 0."""
    starts, parts, size = [], [], 0
    for line in text.splitlines():
        part = ''.join(line.split())
        starts.append(size)
        parts.append(part)
        size += len(part)
    found = ''.join(parts).find(base64_text) if base64_text else -1
    return bisect.bisect_right(starts, found) if found >= 0 else 0


def _chomp(text: str) -> str:
    """Ruby's ``String#chomp``: one trailing line break (``\\r\\n``, ``\\n`` or ``\\r``) removed."""
    if text.endswith('\r\n'):
        return text[:-2]
    return text[:-1] if text.endswith(('\n', '\r')) else text


def read_values(data: Any, path: str, keys: Optional[EyamlKeys], reader: str) -> Any:
    """A data file's values with each eyaml string as an EyamlValue (``keys``: those of the ``reader``, a level or a
    configuration), or the data as it is when it holds none; an EyamlError naming file, line and key for ciphertext
    the reader cannot read."""
    found = find(data, _holds_token, depth=MAX_NESTING) if holds(data, _holds_token, MAX_NESTING) else None
    if found is None:
        return data
    if keys is None:
        raise EyamlError('%s: the value of %r looks like eyaml ciphertext; %s has no eyaml keys'
                         % (key_position(path, found[0]), shown_path(found[0]), reader))
    unreadable = find(data, _not_readable, depth=MAX_NESTING)
    if unreadable is not None:
        raise EyamlError('%s: the value of %r %s' % (key_position(path, unreadable[0]), shown_path(unreadable[0]),
                                                     _why_unreadable(unreadable[1])))
    return rebuild(data, lambda value: _value(value, keys, path), wrappers=MAX_NESTING)


def _holds_token(value: Any) -> bool:
    return isinstance(value, str) and 'ENC[' in value and _TOKEN.search(value) is not None


def _not_readable(value: Any) -> bool:
    return _holds_token(value) and _why_unreadable(value) is not None


def _why_unreadable(value: str) -> Optional[str]:
    whole = _WHOLE.fullmatch(value)
    if whole is None:
        return 'holds eyaml ciphertext within other text; only a whole value can be an eyaml value'
    if (whole.group(2) or 'PKCS7') != 'PKCS7':
        return 'is encrypted with the eyaml encryptor %s; only PKCS7 is supported' % whole.group(2)
    if '\n' in whole.group(3):
        return ('is eyaml ciphertext broken over lines (a literal block, |): Puppet does not decrypt it and answers '
                'the ciphertext; write it folded (>) or on one line')
    if _PUPPET_BASE64.fullmatch(whole.group(3)) is None:
        return 'is eyaml ciphertext holding whitespace other than spaces, which Puppet does not decrypt'
    return None


def _value(value: Any, keys: EyamlKeys, path: str) -> Any:
    if not _holds_token(value):
        return value
    whole = _WHOLE.fullmatch(value)
    return EyamlValue('ENC[PKCS7,%s]' % ''.join(whole.group(3).split()), keys, path,
                      (whole.group(1), whole.group(4)))


def is_eyaml(value: Any) -> bool:
    return isinstance(value, EyamlValue)


def decrypted(value: Any) -> Any:
    """A copy of an answer with each eyaml value decrypted (what a lookup returns); the answer itself when the
    process never made an eyaml value (nothing to look for)."""
    if not COUNTS['values'] or find(value, is_eyaml) is None:
        return value
    return rebuild(value, lambda item: item.decrypted() if isinstance(item, EyamlValue) else item)


def _pem(variable: str, path: str, value: EyamlValue, where: str) -> Tuple[bytes, str]:
    """A key's PEM text and where it comes from (the environment variable, else the key file)."""
    text = os.environ.get(variable)
    if text:
        return text.encode('utf-8'), variable
    try:
        with open(path, 'rb') as stream:
            return stream.read(), path
    except OSError as exc:
        raise _key_pair_error('%s: decrypting the eyaml value needs the key %s of %s, which cannot be read (%s); give '
                              'the key file, or its text in %s'
                              % (value.position(), path, where, exc.strerror, variable)) from None


def _private_key(pem: Tuple[bytes, str], value: EyamlValue, where: str) -> Any:
    from cryptography.hazmat.primitives.serialization import load_pem_private_key
    try:
        return load_pem_private_key(pem[0], None)
    except (ValueError, TypeError) as exc:
        raise _key_pair_error('%s: decrypting the eyaml value needs the private key of %s, and %s is not an '
                              'unencrypted PEM private key (%s)' % (value.position(), where, pem[1], exc)) from None


def _certificate(pem: Tuple[bytes, str], value: EyamlValue, where: str) -> Any:
    from cryptography import x509
    try:
        return x509.load_pem_x509_certificate(pem[0])
    except ValueError as exc:
        raise _key_pair_error('%s: decrypting the eyaml value needs the public key of %s, and %s is not a PEM '
                              'certificate (%s)' % (value.position(), where, pem[1], exc)) from None


def _pkcs7(value: EyamlValue) -> Tuple[Any, type]:
    """cryptography's pkcs7 module and its UnsupportedAlgorithm, or an error naming the version when too old."""
    from cryptography.exceptions import UnsupportedAlgorithm
    from cryptography.hazmat.primitives.serialization import pkcs7
    if not hasattr(pkcs7, 'pkcs7_decrypt_der'):
        raise _too_old(value.position(), None)
    return pkcs7, UnsupportedAlgorithm


def _too_old(position: str, exc: Optional[Exception]) -> EyamlError:
    import cryptography
    return EyamlError('%s: decrypting eyaml values (AES-256-CBC, as the eyaml gem writes them) needs the Python package '
                      'cryptography %s or later; this is cryptography %s%s'
                      % (position, '.'.join(map(str, MIN_CRYPTOGRAPHY)), cryptography.__version__,
                         ' (%s)' % exc if exc else ''))


_RUN: Dict[Tuple[str, str, str, Tuple[str, str]], Any] = {}
"""The run's vault value of each eyaml value (by key pair, ciphertext and the whitespace around it)."""


def for_host_vars(host_vars: Dict[str, Any], warn: Callable[[str], None]) -> Dict[str, Any]:
    """Host variables with each eyaml value as an Ansible vault value of the run (``RUN_VAULT_ID``), which a task
    uses as it uses a ``!vault`` value; ``hier_encrypted_keys`` lists the keys holding one. A value that cannot be
    decrypted (no private key) becomes a vault value that no secret decrypts, with a warning: a task using it fails.
    """
    if not COUNTS['values']:
        return host_vars
    names = [name for name, value in host_vars.items() if find(value, is_eyaml) is not None]
    if not names:
        return host_vars
    result = dict(host_vars)
    for name in names:
        result[name] = rebuild(result[name], lambda value: _run_value(value, warn) if is_eyaml(value) else value)
    # the plugins' own variables (hier_provenance's values) are converted, not listed: data cannot set hier_*
    result['hier_encrypted_keys'] = [name for name in names if not name.startswith('hier_')]
    return result


def _run_value(value: EyamlValue, warn: Callable[[str], None]) -> Any:
    memo = (value.keys.private_key, value.keys.public_key, value.ciphertext, value.around)
    known = _RUN.get(memo)
    if known is None:
        try:
            plaintext: Optional[str] = value.decrypted()
        except EyamlError as exc:
            _warn_once(exc, value, warn)
            plaintext = None
        known = _RUN[memo] = run_vault_value(value.ciphertext, plaintext)
    return known


def _warn_once(error: EyamlError, value: EyamlValue, warn: Callable[[str], None]) -> None:
    """A warning per value, or once per key pair when the pair cannot be used (a CI run without the private key
    would otherwise say it for every value)."""
    pair = (value.keys.private_key, value.keys.public_key)
    if not error.key_pair:
        warn('strata.hier.hier: %s; a task using the value fails' % error)
    elif pair not in _WARNED:
        _WARNED.add(pair)
        warn('strata.hier.hier: %s; a task using it, or any other eyaml value of %s, fails' % (error, value.keys.where))


_WARNED: set = set()


def run_vault_value(written: str, plaintext: Optional[str]) -> Any:
    """A vault value holding ``plaintext`` under the run's secret (None: a vault value no secret decrypts), written
    out (rsop, caches) as ``written``."""
    from ansible.parsing.vault import VaultLib, VaultSecret
    secret = _run_secret()
    if plaintext is None:       # encrypted under a secret nobody has: Ansible's own error when a task uses it
        secret = VaultSecret(os.urandom(32))
    text = VaultLib([(RUN_VAULT_ID, secret)]).encrypt(plaintext or '', secret=secret, vault_id=RUN_VAULT_ID)
    return encrypted_for_run(text.decode('ascii'), written)


def token_of(value: Any) -> Tuple[Optional[str], Optional[str]]:
    """``(ciphertext, None)`` for a value that is one eyaml PKCS7 token (``ENC[PKCS7,...]``, the block form's
    whitespace removed), ``(None, why)`` for one holding ciphertext no eyaml level reads (the guard's rules: another
    encryptor, a token within other text), ``(None, None)`` for any other value."""
    if not _holds_token(value):
        return None, None
    if _not_readable(value):
        return None, _why_unreadable(value)
    return 'ENC[PKCS7,%s]' % ''.join(_WHOLE.fullmatch(value).group(3).split()), None
