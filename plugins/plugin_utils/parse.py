# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""A fast parser for data files, giving the values Ansible's DataLoader gives.

DataLoader tries JSON, then YAML through Ansible's constructor, which tags every value it builds
(2.19+: origin tags; 2.16: position attributes) and checks every map for duplicate keys: most of
its cost. This module reads the same text the same way (JSON first, then YAML with libyaml's
parser where PyYAML has it) with PyYAML's safe constructor: the same values as builtin types,
``!vault`` values as the version's vault type (compat.py). It gives up on a file whenever
DataLoader could answer differently, and the caller then asks DataLoader (``NEEDS_DATALOADER``):
a whole-file vaulted file, text that is not UTF-8, any YAML or JSON error (so errors stay
DataLoader's), duplicate keys (DataLoader warns or fails, as configured), Ansible's own JSON
markers (``__ansible_vault``...) and YAML tags other than ``!vault`` (``!unsafe``, ``!!omap``...).
Values carry no 2.19 origin tags: error messages find file and line with source_lines.py.

An anchor defined again (``a: {owner: &id 1, group: *id}`` then ``b: {owner: &id 2, group: *id}``) is YAML 1.2
and Puppet reads it: an alias names the latest definition before it. PyYAML's composers (libyaml's included) refuse
it, so a file that does it, and only such a file, is read again as ``unique_anchors`` rewrites it, each definition
under a name of its own (data_files.py does the same for DataLoader, source_lines.py for the lines of keys).

Parsed files are also kept, as marshal data, in the run's private temporary folder
(ansible-core's local tmp, created by the process that forks the workers and removed by it at
exit): a worker forked for the next host reads them instead of parsing again. An entry is
used only when it names the same file with the same size, mtime, ctime, inode and device,
from a folder and file owned by this user that no one else may write; vault values are kept
as their ciphertext, and a whole-file vaulted file (plain once decrypted) is never kept. The same folder keeps
what is computed from text every worker holds (``kept_for_text``: the lookup's option definitions from its
DOCUMENTATION), under the digest of that text.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import marshal
import os
import string
import sys
from typing import Any, Callable, Dict, Iterator, List, Optional, Set, Tuple

import yaml
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

from ansible.parsing.vault import is_encrypted

from ansible_collections.strata.hier.plugins.plugin_utils.compat import vault_from_ciphertext

try:
    from yaml.cyaml import CParser as _Parser     # libyaml: what DataLoader uses too when PyYAML has it
except ImportError:  # pragma: no cover  # PyYAML without libyaml
    from yaml.composer import Composer
    from yaml.parser import Parser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class _Parser(Reader, Scanner, Parser, Composer):  # type: ignore[no-redef]
        def __init__(self, stream):
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            Parser.__init__(self)
            Composer.__init__(self)

NEEDS_DATALOADER = object()
"""What ``parse`` returns for a file that only DataLoader reads as Ansible does."""

COUNTS = {'parsed': 0, 'reused': 0, 'dataloader': 0}
"""Files this process parsed, read from the run's folder, and handed to DataLoader (the benchmark reads them)."""

_VAULT_MARK = '\x00strata.hier vault'
"""First item of the tuple standing for a vault value until ``_with_vault_values``; the safe constructor builds
no tuples (``!!omap`` and ``!!pairs`` go to DataLoader), so the mark cannot come from a file."""

_CACHE_FORMAT = 1
_CACHE_VERSION = (_CACHE_FORMAT, sys.version_info[:2], yaml.__version__)


class _GiveUp(Exception):
    """Something in the file that DataLoader treats its own way."""


class _Loader(_Parser, SafeConstructor, Resolver):
    """PyYAML's safe loader, refusing what Ansible's constructor reads differently; vault values as marks."""

    def __init__(self, stream: str) -> None:
        _Parser.__init__(self, stream)
        SafeConstructor.__init__(self)
        Resolver.__init__(self)
        self.vault_values = 0

    def construct_mapping(self, node: Any, deep: bool = False) -> dict:
        mapping = SafeConstructor.construct_mapping(self, node, deep)
        if len(mapping) != len(node.value):   # duplicate keys (merge keys included, as Ansible counts them)
            raise _GiveUp()
        return mapping

    def construct_vault(self, node: Any) -> tuple:
        if not isinstance(node, yaml.ScalarNode):
            raise _GiveUp()
        self.vault_values += 1
        return (_VAULT_MARK, self.construct_scalar(node))

    def give_up(self, node: Any) -> None:
        raise _GiveUp()


_Loader.add_constructor('!vault', _Loader.construct_vault)
for _tag in ('!unsafe', '!vault-encrypted', 'tag:yaml.org,2002:omap', 'tag:yaml.org,2002:pairs'):
    _Loader.add_constructor(_tag, _Loader.give_up)


def parse(path: str, loader: Any, check: Callable[[bytes], None] = lambda raw: None) -> Any:
    """A data file's values as DataLoader gives them, or NEEDS_DATALOADER.

    ``check`` sees the file's bytes before they are parsed (not when the run's folder has them parsed already).
    """
    if not os.path.isabs(path):
        COUNTS['dataloader'] += 1
        return NEEDS_DATALOADER     # DataLoader finds it relative to its base folder
    try:
        cache = _cache_file(path)
        kept = _read_kept(cache, file_identity(os.stat(path))) if cache else None
        if kept is not None:
            COUNTS['reused'] += 1
            return _with_vault_values(kept[1], loader) if kept[0] else kept[1]
        with open(path, 'rb') as stream:
            status = os.fstat(stream.fileno())     # before reading: a later change shows in the ctime
            raw = stream.read()
    except OSError:
        COUNTS['dataloader'] += 1
        return NEEDS_DATALOADER
    check(raw)
    parsed = _parse_text(raw)
    if parsed is None:
        COUNTS['dataloader'] += 1
        return NEEDS_DATALOADER
    COUNTS['parsed'] += 1
    data, vault_values = parsed
    if cache:
        _keep(cache, file_identity(status), data, vault_values)
    return _with_vault_values(data, loader) if vault_values else data


def kept_for_text(purpose: str, text: str, make: Callable[[str], Any]) -> Any:
    """``make(text)`` for text that every worker of the run holds, such as a plugin's DOCUMENTATION: kept in the
    run's folder under the digest of ``purpose`` and text, so that only the first worker computes it.
    ``make`` must give marshal data (else each worker computes it)."""
    folder = _cache_folder()
    if folder is None:
        return make(text)
    digest = hashlib.sha256(('%s\0%s' % (purpose, text)).encode('utf-8', 'surrogatepass')).hexdigest()
    cache = os.path.join(folder, 'text-' + digest)
    kept = _read_kept(cache, digest)
    if kept is not None:
        return kept[1]
    made = make(text)
    _keep(cache, digest, made, 0)
    return made


def _parse_text(raw: bytes) -> Optional[Tuple[Any, int]]:
    """(data with vault marks, how many vault values), or None where DataLoader must read the file."""
    if is_encrypted(raw) or b'__ansible' in raw:
        return None
    try:
        text = raw.decode('utf-8')
    except UnicodeDecodeError:
        return None
    try:
        return json.loads(text), 0          # DataLoader, too, tries JSON first
    except Exception:  # pylint: disable=broad-except  # not JSON: YAML then
        pass
    try:
        return _parse_yaml(text)
    except yaml.composer.ComposerError as exc:
        unique = unique_anchors(text) if redefines_anchor(exc) else None
    except Exception:  # pylint: disable=broad-except  # bad YAML, or what only DataLoader reads: its answer
        return None
    try:
        return _parse_yaml(unique) if unique is not None else None
    except Exception:  # pylint: disable=broad-except  # as above
        return None


def _parse_yaml(text: str) -> Tuple[Any, int]:
    loader = _Loader(text)
    try:
        return loader.get_single_data(), loader.vault_values
    finally:
        loader.dispose()


_ANCHOR_CHARACTERS = string.ascii_letters + string.digits + '-_'
"""What an anchor's name is made of, for libyaml and PyYAML alike."""


def redefines_anchor(exc: BaseException) -> bool:
    """Whether a composer refused a text for defining an anchor again (libyaml's and PyYAML's messages)."""
    return isinstance(exc, yaml.composer.ComposerError) and 'duplicate anchor' in str(exc.context)


def unique_anchors(text: str) -> Optional[str]:
    """The text with each anchor defined again renamed, with the aliases that follow it up to its next definition:
    what a composer refusing a name defined twice then reads is what YAML 1.2 reads (an alias names the latest
    definition before it). A new name has the old one's length where one is free, so lines and columns stay.
    None when no anchor is defined twice, or the text does not scan (its composer's error stands then)."""
    try:
        tokens = [token for token in yaml.scan(text, Loader=yaml.SafeLoader)
                  if isinstance(token, (yaml.AnchorToken, yaml.AliasToken))]
    except yaml.YAMLError:
        return None
    used = {token.value for token in tokens}
    free: Dict[int, Iterator[str]] = {}      # by length: names used nowhere in the file
    defined: Set[str] = set()
    renamed: Dict[str, str] = {}
    edits: List[Tuple[int, int, str]] = []
    for token in tokens:
        if isinstance(token, yaml.AnchorToken):
            if token.value in defined:
                renamed[token.value] = _free_name(len(token.value), used, free)
            defined.add(token.value)
        if token.value in renamed:
            mark = '&' if isinstance(token, yaml.AnchorToken) else '*'
            edits.append((token.start_mark.index, token.end_mark.index, mark + renamed[token.value]))
    if not edits:
        return None
    pieces, done = [], 0
    for start, end, name in edits:      # the scanner's index counts the text's characters (a BOM included)
        pieces.extend((text[done:start], name))
        done = end
    return ''.join(pieces) + text[done:]


def _free_name(length: int, used: Set[str], free: Dict[int, Iterator[str]]) -> str:
    """A name used nowhere in the file nor given yet, ``length`` long where one is left (else longer)."""
    while True:
        if length not in free:
            free[length] = (name for name in map(''.join, itertools.product(_ANCHOR_CHARACTERS, repeat=length))
                            if name not in used)
        name = next(free[length], None)
        if name is not None:
            return name
        length += 1


def _with_vault_values(data: Any, loader: Any) -> Any:
    """Vault marks replaced, in place, by vault values (data fresh from the parser or the cache)."""
    try:
        return _replace_vault_marks(data, loader)
    except Exception:  # pylint: disable=broad-except  # a vault value where a set or key needs a hashable: DataLoader's
        return NEEDS_DATALOADER


def _replace_vault_marks(data: Any, loader: Any) -> Any:
    seen = set()

    def value(item: Any) -> Any:
        if type(item) is tuple and len(item) == 2 and item[0] == _VAULT_MARK:  # pylint: disable=unidiomatic-typecheck
            return vault_from_ciphertext(item[1], loader)
        if isinstance(item, (dict, list, set)) and id(item) not in seen:
            seen.add(id(item))
            replace(item)
        return item

    def replace(container: Any) -> None:
        if isinstance(container, list):
            container[:] = [value(item) for item in container]
        elif isinstance(container, dict):
            pairs = [(value(key), value(item)) for key, item in container.items()]
            container.clear()
            container.update(pairs)
        else:
            items = [value(item) for item in container]
            container.clear()
            container.update(items)

    return value(data)


def _cache_file(path: str) -> Optional[str]:
    folder = _cache_folder()
    return os.path.join(folder, hashlib.sha256(os.fsencode(path)).hexdigest()) if folder else None


_FOLDER = {}


def _cache_folder() -> Optional[str]:
    """This run's folder for parsed files, checked once per process; None where there is none to trust."""
    if 'path' not in _FOLDER:
        _FOLDER['path'] = _private_folder()
    return _FOLDER['path']


def _private_folder() -> Optional[str]:
    try:
        from ansible import constants
        run_folder = constants.DEFAULT_LOCAL_TMP
        folder = os.path.join(run_folder, 'strata.hier-parsed')
        try:
            os.mkdir(folder, 0o700)
        except FileExistsError:
            pass
        for checked in (run_folder, folder):
            status = os.lstat(checked)
            if status.st_uid != os.geteuid() or status.st_mode & 0o077 or not os.path.isdir(checked) \
                    or os.path.islink(checked):
                return None
        return folder
    except Exception:  # pylint: disable=broad-except  # no run folder: parse in every process
        return None


MISSING_FILE = (-1, -1, -1, -1, -1)
"""path_identity of a path where no file is."""


def path_identity(path: str) -> Tuple[int, int, int, int, int]:
    """file_identity of the file at ``path`` (links followed), MISSING_FILE where there is none."""
    try:
        return file_identity(os.stat(path))
    except (OSError, ValueError):
        return MISSING_FILE


def file_identity(path_status: os.stat_result) -> Tuple[int, int, int, int, int]:
    """What says a file is unchanged (every cache of a file's data compares it): size, mtime, ctime, inode, device (a
    file replaced by another shows in its inode, a change within the mtime's resolution in its ctime)."""
    return (path_status.st_size, path_status.st_mtime_ns, path_status.st_ctime_ns, path_status.st_ino,
            path_status.st_dev)


def _read_kept(cache: str, expected: Any) -> Optional[Tuple[int, Any]]:
    """(vault values, data) kept under the identity ``expected`` (a file's as it is now, or a text's digest), or None."""
    try:
        with open(cache, 'rb') as stream:
            own = os.fstat(stream.fileno())
            if own.st_uid != os.geteuid() or own.st_mode & 0o077:
                return None
            version, identity, vault_values, data = marshal.load(stream)
    except Exception:  # pylint: disable=broad-except  # not kept (or unreadable): parse the file
        return None
    if version != _CACHE_VERSION or identity != expected:
        return None
    return vault_values, data


def _keep(cache: str, identity: Any, data: Any, vault_values: int) -> None:
    """Write the parsed data for other workers of the run (atomically; a failure only costs a parse)."""
    try:
        dumped = marshal.dumps((_CACHE_VERSION, identity, vault_values, data))
    except ValueError:
        return      # timestamps and the like: not marshal data, parsed in each process
    temporary = '%s.%d.tmp' % (cache, os.getpid())     # the folder is private: no one else names files there
    try:
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(handle, 'wb') as stream:
            stream.write(dumped)
        os.replace(temporary, cache)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
