# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The data store: a folder of YAML/JSON files read as one tree.

Folders are maps, ``*.yml``/``*.yaml``/``*.json`` files are keys named by their
stem, and a key path may continue from a file into the keys inside it.  Files
are read by data_files.py (so whole-file vault and ``!vault`` values work) and
parsed once per process while they do not change.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ansible.errors import AnsibleError

from ansible_collections.strata.hier.plugins.module_utils.core.levels import real_path_inside
from ansible_collections.strata.hier.plugins.module_utils.core.paths import fold_text
from ansible_collections.strata.hier.plugins.plugin_utils.compat import CompleteMessage
from ansible_collections.strata.hier.plugins.plugin_utils.data_files import load_untrusted, whole_file_vaulted
from ansible_collections.strata.hier.plugins.plugin_utils.eyaml import EyamlError, EyamlKeys, read_values
from ansible_collections.strata.hier.plugins.plugin_utils.parse import NEEDS_DATALOADER, file_identity

DATA_EXTENSIONS = ('.yml', '.yaml', '.json')

# (real path) -> (identity, size, parsed data, whole-file vaulted, eyaml keys); shared by every store of the process,
# and by the workers forked after the preload callback filled it.
_PARSED: Dict[str, Tuple[Tuple[int, ...], int, Any, bool, Optional[EyamlKeys]]] = {}

PRELOADED_FILES_MOST = 500
"""Files the preload callback parses at most (about a second of the main process's CPU before the first task)."""


class StoreError(CompleteMessage, AnsibleError):
    """A path leaves the data folder, or the folder holds ambiguous files."""


class Found:
    """What a key path holds at one level: the value, the file it came from (a folder for a whole folder), and
    whether the map holding the last key also holds ``<prefix><key>`` (knocked out)."""

    __slots__ = ('value', 'file', 'knocked_out')

    def __init__(self, value: Any, file: Optional[str], knocked_out: bool = False) -> None:
        self.value, self.file, self.knocked_out = value, file, knocked_out


NOT_FOUND = Found(None, None)

_NO_ENTRY = object()     # a walk met a folder without the next segment
_UNWALKED = object()


class DataStore:
    """Read-only view of a data folder as nested maps."""

    def __init__(self, datadir: str, loader: Any, case_insensitive: bool = False,
                 mounts: Optional[Mapping[str, str]] = None, list_members: bool = False,
                 eyaml: Optional[EyamlKeys] = None) -> None:
        self.root = os.path.realpath(datadir)
        self.eyaml = eyaml
        """The configuration's eyaml keys (secrets.eyaml): its eyaml values read as EyamlValue; None refuses them."""
        self.list_members = list_members
        """A key after a list collects the key from the list's items (PowerShell's member enumeration, in Datum)."""
        if not os.path.isdir(self.root):
            raise StoreError('the data folder %s does not exist' % datadir)
        self.loader = loader
        self.case_insensitive = case_insensitive
        self._listings: Dict[str, Tuple[int, Dict[str, Tuple[str, str]]]] = {}
        self._checked: Dict[str, str] = {}    # path -> its real path, known to be inside
        self._fresh: set = set()                # paths whose mtime was checked in this pass
        self._named: Dict[Tuple[str, str], Tuple[int, Optional[Tuple[str, str]]]] = {}  # by stat, with folder mtime
        self._mtimes: Dict[str, int] = {}       # folders read by stat: their mtime
        self._spots: Dict[Tuple[str, ...], Any] = {}   # a level's path -> where its walk stands, in this pass
        self.mounts = {self._fold(name): self.inside(os.path.join(self.root, path), name)
                       for name, path in (mounts or {}).items()}

    def _fold(self, name: Any) -> Any:
        return fold_text(name) if self.case_insensitive else name

    def inside(self, path: str, shown: str) -> str:
        """The real path, refused when it leaves the data folder (``..``, absolute, links)."""
        real = self._checked.get(path)
        if real is None:
            real = real_path_inside(path, self.root)
            if real is None:
                raise StoreError('%r resolves to %s, outside the data folder %s'
                                 % (shown, os.path.realpath(path), self.root))
            self._checked[path] = real
        return real

    def begin_pass(self) -> None:
        """Check files and folders for changes again (once each until the next pass).

        A pass is one lookup call or one inventory parse: within it, the store is a snapshot.
        """
        self._fresh.clear()
        self._spots.clear()

    def locate(self, segments: Sequence[str]) -> Tuple[str, Tuple[str, ...]]:
        """Where a path starts: a Datum store's folder when its first segment names one, else the root."""
        mount = self.mounts.get(self._fold(segments[0])) if segments else None
        return (mount, tuple(segments[1:])) if mount else (self.root, tuple(segments))

    def get(self, path: Sequence[str], keys: Sequence[str] = (), knockout_prefix: Optional[str] = None) -> Found:
        """The value at the key path ``path + keys`` (folders, then files, then keys inside the file).

        ``path`` is a level's path: its walk through the folders is done once per pass, then continued with
        ``keys`` (each key of a node reads the same levels).
        """
        spot = self._spot(tuple(path), tuple(keys))
        if spot is _NO_ENTRY:
            return NOT_FOUND
        kind, place, inner = spot
        if kind == 'file':
            return self._in_file(place, inner, knockout_prefix)
        return Found(self.folder_as_map(place), place)

    def _spot(self, path: Tuple[str, ...], keys: Tuple[str, ...]) -> Any:
        """Where ``path + keys`` stands after its folders: ``('file', file, keys inside it)``, ``('dir', folder,
        ())`` or ``_NO_ENTRY`` (a folder lacks an entry: every path under it is not found)."""
        full = path + keys
        if not path:
            return self._walk(full, full)
        spot = self._spots.get(path, _UNWALKED)
        if spot is _UNWALKED:
            try:
                spot = self._walk(path, full)
            except StoreError:
                spot = None     # walked again below, so that the error names the whole path
            self._spots[path] = spot
        if spot is None:
            return self._walk(full, full)
        if spot is _NO_ENTRY or spot[0] == 'file':
            return spot if spot is _NO_ENTRY else ('file', spot[1], spot[2] + keys)
        return self._walk_folder(spot[1], keys, full)

    def _walk(self, segments: Tuple[str, ...], shown: Sequence[str]) -> Any:
        folder, rest = self.locate(segments)
        return self._walk_folder(folder, rest, shown)

    def _walk_folder(self, folder: str, rest: Sequence[str], shown: Sequence[str]) -> Any:
        for index, segment in enumerate(rest):
            entry = self._entry(folder, segment)
            if entry is None:
                return _NO_ENTRY
            kind, path = entry
            path = self.inside(path, '/'.join(shown))
            if kind == 'file':
                return ('file', path, tuple(rest[index + 1:]))
            folder = path
        return ('dir', folder, ())

    def _in_file(self, path: str, keys: Sequence[str], knockout_prefix: Optional[str]) -> Found:
        value = self.load(path)
        for position, key in enumerate(keys):
            if isinstance(value, list) and self.list_members:
                value = self._members(value, key)
                if value is None:
                    return NOT_FOUND
                continue
            if not isinstance(value, Mapping):
                return NOT_FOUND
            if knockout_prefix and position == len(keys) - 1 and self._key(value, knockout_prefix + key) is not None:
                return Found(None, path, True)
            actual = self._key(value, key)
            if actual is None:
                return NOT_FOUND
            value = value[actual]
        return Found(value, path)

    def _members(self, items: list, key: str) -> Any:
        """``$list.Key`` as PowerShell gives it: each map item's value, lists flattened one level; one value is
        itself, none is None (not found)."""
        found: list = []
        for item in items:
            actual = self._key(item, key) if isinstance(item, Mapping) else None
            if actual is not None and item[actual] is not None:
                member = item[actual]
                found.extend(member) if isinstance(member, list) else found.append(member)
        if not found:
            return None
        return found[0] if len(found) == 1 else found

    def _key(self, mapping: Mapping, key: str) -> Any:
        if key in mapping:
            return key
        if self.case_insensitive:
            folded = key.casefold()
            for candidate in mapping:
                if isinstance(candidate, str) and candidate.casefold() == folded:
                    return candidate
        return None

    def folder_as_map(self, folder: str, _within: Tuple[str, ...] = ()) -> dict:
        """A whole folder: sub-folders and files become keys."""
        within = _within + (os.path.realpath(folder),)
        result = {}
        for name, (kind, path) in sorted(self._listing(folder).items()):
            real = self.inside(path, name)
            if kind == 'dir' and real in within:
                raise StoreError('%s links back to %s, which holds it: a folder cannot be read as a map of itself'
                                 % (path, real))
            result[os.path.splitext(os.path.basename(real))[0] if kind == 'file' else os.path.basename(real)] = \
                self.load(real) if kind == 'file' else self.folder_as_map(real, within)
        return result

    # -- one named entry by stat: a lookup touches only the files its levels name, whatever the folder holds
    def _entry(self, folder: str, name: str) -> Optional[Tuple[str, str]]:
        """A folder's entry for a key: from its listing once read (or to fold case), else by stat of its names."""
        if self.case_insensitive or folder in self._listings or not _plain_name(name):
            return self._listing(folder).get(self._fold(name))
        mtime = self._folder_mtime(folder)
        cached = self._named.get((folder, name))
        if cached and cached[0] == mtime:
            return cached[1]
        if len(self._named) > _NAMED_ENTRIES_KEPT:
            self._named.clear()
        entry = named_entry(folder, name)
        self._named[(folder, name)] = (mtime, entry)
        return entry

    def _folder_mtime(self, folder: str) -> int:
        """A folder's mtime, read once per pass; a change forgets the real paths known inside (links may differ)."""
        known = self._mtimes.get(folder)
        if known is not None and folder in self._fresh:
            return known
        mtime = os.stat(folder).st_mtime_ns
        self._fresh.add(folder)
        if known is not None and known != mtime:
            self._checked.clear()
        self._mtimes[folder] = mtime
        return mtime

    def _listing(self, folder: str) -> Dict[str, Tuple[str, str]]:
        """Entries of a folder by (folded) name, re-read when the folder changes."""
        cached = self._listings.get(folder)
        if cached and folder in self._fresh:
            return cached[1]
        mtime = os.stat(folder).st_mtime_ns
        self._fresh.add(folder)
        if cached and cached[0] == mtime:
            return cached[1]
        entries: Dict[str, Tuple[str, str]] = {}
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            kind = entry_kind(name, path)
            if kind == 'dir':
                entries.setdefault(self._fold(name), ('dir', path))
            elif kind == 'file':
                stem = os.path.splitext(name)[0]
                key = self._fold(stem)
                if key in entries and entries[key][0] == 'file':
                    raise StoreError('%s and %s both define the key %r; keep one of them'
                                     % (entries[key][1], path, stem))
                entries[key] = ('file', path)   # a file wins over a folder of the same name
        self._listings[folder] = (mtime, entries)
        self._checked.clear()     # links may have changed with the folder
        return entries

    def data_files(self) -> List[str]:
        """Every file the store may read, folders walked as its listings see them (through links that stay
        inside the data folder, each real folder once): what a change to the data shows in."""
        files, seen = [], set()
        for folder, dirs, names in os.walk(self.root, followlinks=True):
            real = real_path_inside(folder, self.root)
            if real is None or real in seen:
                dirs[:] = []
                continue
            seen.add(real)
            dirs[:] = sorted(name for name in dirs if entry_kind(name, os.path.join(folder, name)) == 'dir')
            files.extend(os.path.join(folder, name) for name in sorted(names)
                         if entry_kind(name, os.path.join(folder, name)) == 'file')
        return files

    def parsed(self, path: str) -> Any:
        """A file's data as ``load`` gave it in this pass, or None (not a file loaded in this pass)."""
        cached = _PARSED.get(path)
        return cached[2] if cached and path in self._fresh else None

    def load(self, path: str, dataloader: bool = True) -> Any:
        """A file's data, parsed once per process while the file stays the same (its stat's identity).

        ``dataloader=False`` (preloading): None, the file left unread, where only DataLoader reads it.
        """
        cached = _PARSED.get(path)
        if cached and path in self._fresh:
            return cached[2]
        status = os.stat(path)
        self._fresh.add(path)
        identity = file_identity(status)
        if cached and cached[0] == identity and cached[4] is self.eyaml:
            return cached[2]
        data = load_untrusted(self.loader, path, StoreError, dataloader)
        if data is NEEDS_DATALOADER:
            self._fresh.discard(path)
            return None
        try:
            data = {} if data is None else read_values(data, path, self.eyaml, self._reader())
        except EyamlError as exc:
            raise StoreError(str(exc)) from None
        _PARSED[path] = (identity, status.st_size, data, whole_file_vaulted(path), self.eyaml)
        return data

    def preload(self, most: int = PRELOADED_FILES_MOST) -> List[str]:
        """The data files of the store loaded in this pass, as a lookup would load them (the preload callback, in
        the process that forks the workers): the real paths loaded. At most ``most`` files, those of the folders
        holding the fewest first: those are the files many hosts read (a role's, an environment's), where a folder
        of many files is mostly one file per host, which one worker parses as well as the main process would. A file
        that fails to load, or that only DataLoader reads, is left to the lookup that reads it, which fails or warns
        as without preloading."""
        by_folder: Dict[str, List[str]] = {}
        for file in self.data_files():
            by_folder.setdefault(os.path.dirname(file), []).append(file)
        chosen = [file for folder in sorted(by_folder, key=lambda folder: (len(by_folder[folder]), folder))
                  for file in by_folder[folder]][:most]
        loaded: Dict[str, None] = {}       # in order; a set's look-up for files reached twice (links)
        for file in chosen:
            real = real_path_inside(file, self.root)
            if real is None or real in loaded:
                continue
            try:
                if self.load(real, dataloader=False) is None:
                    continue
            except Exception:  # pylint: disable=broad-except  # the lookup reading the file gives the error
                continue
            loaded[real] = None
            self._walked(file)
        return list(loaded)

    def _walked(self, file: str) -> None:
        """The walk a level's path takes to ``file``, made once: each folder's entry for the path's names found (by
        stat) and its real path checked, as a lookup's first walk of it in a worker would do again (a worker forked
        after the preload inherits them, and checks each folder's mtime once per pass as before). An error is left to
        the lookup that walks there."""
        parts = os.path.relpath(file, self.root).split(os.sep)
        parts[-1] = os.path.splitext(parts[-1])[0]
        try:
            self._walk_folder(self.root, parts, parts)
        except StoreError:
            pass

    def _reader(self) -> str:
        return 'the hierarchy configuration' if self.eyaml is None else self.eyaml.where

    def vaulted(self, path: str) -> bool:
        """Whether the data at ``path`` (a file, or a folder read as a map) comes from a whole-file vaulted file.

        Its values are plain once loaded; whoever writes them out must know they were secret.
        """
        cached = _PARSED.get(path)
        if cached is not None:
            return cached[3]
        below = path + os.sep
        return any(entry[3] for name, entry in _PARSED.items() if name.startswith(below))


_NAMED_ENTRIES_KEPT = 100000
_STAT_EXTENSIONS = DATA_EXTENSIONS + tuple(extension.upper() for extension in DATA_EXTENSIONS)


def named_entry(folder: str, name: str) -> Optional[Tuple[str, str]]:
    """What a folder's listing holds for the key ``name``, found by stat of the names it may have: a data file
    (``.yml``, ``.yaml``, ``.json``, lower or upper case), else a folder; two files of one key are an error."""
    files = sorted(name + extension for extension in _STAT_EXTENSIONS
                   if entry_kind(name + extension, os.path.join(folder, name + extension)) == 'file')
    if len(files) > 1:
        raise StoreError('%s and %s both define the key %r; keep one of them'
                         % (os.path.join(folder, files[0]), os.path.join(folder, files[1]), name))
    if files:
        return ('file', os.path.join(folder, files[0]))
    path = os.path.join(folder, name)
    return ('dir', path) if entry_kind(name, path) == 'dir' else None


def _plain_name(name: Any) -> bool:
    """A name that can only mean one entry of the folder (no separator, not hidden, not empty)."""
    return isinstance(name, str) and bool(name) and not name.startswith('.') and '/' not in name \
        and os.sep not in name and '\0' not in name


def entry_kind(name: str, path: str) -> Optional[str]:
    """What a folder entry is to the store: 'dir' (a folder that is not hidden), 'file' (a data file) or None;
    links followed, with one stat."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    if stat.S_ISDIR(mode):
        return None if name.startswith('.') else 'dir'
    if stat.S_ISREG(mode) and os.path.splitext(name)[1].lower() in DATA_EXTENSIONS:
        return 'file'
    return None
