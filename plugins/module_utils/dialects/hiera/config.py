# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""A Hiera 5 ``hiera.yaml`` as a configuration: its levels and where their data files are.

``parse_hiera_config`` checks the whole file as Puppet's ``HieraConfigV5`` does (unknown keys, types,
one data function and one location kind per level, unique names) and refuses what strata.hier does not
support, each error naming the file, the key and the level: version 3 and 4 files, backends other than
``yaml_data``/``json_data`` and ``eyaml_lookup_key`` (PKCS7 only), ``uri``/``uris``.  ``options`` mean nothing to
``yaml_data`` and ``json_data`` and give a warning; an eyaml level's ``pkcs7_private_key``/``pkcs7_public_key``
are its key files (``HieraLevel.eyaml``; other eyaml options give a warning, another encrypt_method an error).

``ruby_glob`` expands a level's ``glob`` in Ruby's ``Dir.glob`` order (each directory's entries sorted by
bytes, walked depth first, files and folders interleaved; ``{a,b}`` in brace order), which Hiera's
answers depend on; ``**`` enters folders, not links to folders, as Ruby's does, and the work is charged to a
budget (limits.ExpansionBudget).
"""

from __future__ import annotations

import fnmatch
import os
import re
import stat
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from ansible_collections.strata.hier.plugins.module_utils.core.errors import HieraConfigError
from ansible_collections.strata.hier.plugins.module_utils.core.limits import ExpansionBudget
from ansible_collections.strata.hier.plugins.module_utils.core.records import Record

HIERA_VERSION = 5
DATA_HASHES = ('yaml_data', 'json_data')
EYAML = 'eyaml_lookup_key'
EYAML_KEY_OPTIONS = ('pkcs7_private_key', 'pkcs7_public_key')
FUNCTION_KEYS = ('data_hash', 'lookup_key', 'data_dig')
LEVEL_FUNCTION_KEYS = FUNCTION_KEYS + ('hiera3_backend',)
LOCATION_KEYS = ('path', 'paths', 'glob', 'globs', 'uri', 'uris', 'mapped_paths')
LEVEL_KEYS = ('name', 'options', 'datadir') + LEVEL_FUNCTION_KEYS + LOCATION_KEYS
DEFAULTS_KEYS = ('datadir', 'options') + FUNCTION_KEYS
TOP_KEYS = ('version', 'defaults', 'hierarchy', 'plan_hierarchy', 'default_hierarchy')
DEFAULT_DEFAULTS = {'datadir': 'data', 'data_hash': 'yaml_data'}
DEFAULT_HIERARCHY = [{'name': 'Common', 'path': 'common.yaml'}]


class HieraLevel(Record):
    """One ``hierarchy`` entry: its location kind (``path``, ``paths``, ``glob``, ``globs``, ``mapped_paths``),
    the templates as written (``mapped_paths``: the variable, the item name and the template) and its datadir."""

    name: str
    kind: str
    templates: Tuple[str, ...]
    datadir: str
    data_hash: str
    eyaml: Optional[Tuple[Optional[str], Optional[str]]] = None
    """An eyaml level's private and public key files as written (None: the default); None for other levels."""
    module: Optional[str] = None
    """The module whose hiera.yaml holds the level (module_layer.py); None for the environment's."""


class HieraConfig(Record):
    path: str
    root: str
    levels: Tuple[HieraLevel, ...]
    warnings: Tuple[str, ...] = ()


def parse_hiera_config(data: Any, path: str, module: Optional[str] = None) -> HieraConfig:
    """The configuration ``data`` (the parsed ``path``) stands for, or a HieraConfigError naming file and key: every
    problem of the file at once (its ``problems``, each naming its key), so one round of edits fixes them all.
    ``module``: the hiera.yaml of that module (its levels say so)."""
    _check_version(data, path)
    problems: List[HieraConfigError] = []
    warnings: List[str] = []
    _check_keys(data, TOP_KEYS, path, '', problems)
    if 'default_hierarchy' in data:
        problems.append(_error(path, 'default_hierarchy', "is only allowed in a Puppet module's hiera.yaml" if module
                               is None else "(a module's levels for keys nothing else holds) is not supported"))
    if 'plan_hierarchy' in data:
        warnings.append("%s: 'plan_hierarchy' is for Bolt plans and is ignored" % path)
    defaults = _defaults(data, path, problems)
    entries = _or_default(data.get('hierarchy'), DEFAULT_HIERARCHY)
    if not isinstance(entries, list):
        problems.append(_error(path, 'hierarchy', 'must be a list of levels'))
        entries = []
    levels = [_level(entry, index, defaults, path, warnings, problems) for index, entry in enumerate(entries)]
    _check_unique_names(entries, path, problems)
    if problems:
        raise problems[0] if len(problems) == 1 else _all_of(problems, path)
    kept = tuple(level if module is None else level.replace(module=module) for level in levels if level is not None)
    return HieraConfig(path=path, root=os.path.dirname(os.path.abspath(path)), levels=kept, warnings=tuple(warnings))


def _all_of(problems: List[HieraConfigError], path: str) -> HieraConfigError:
    """One error listing every problem, one a line; ``problems`` keeps them, each with its key (for its line)."""
    error = HieraConfigError('%s has %d problems:\n%s' % (path, len(problems), '\n'.join(map(str, problems))))
    error.keys, error.problems = problems[0].keys, tuple(problems)
    return error


def _defaults(data: Dict[str, Any], path: str, problems: List[HieraConfigError]) -> Dict[str, Any]:
    """The ``defaults`` the levels use (Puppet's where they are not a map, so no level is blamed for them)."""
    defaults = _or_default(data.get('defaults'), DEFAULT_DEFAULTS)
    if not isinstance(defaults, dict):
        problems.append(_error(path, 'defaults', 'must be a map'))
        return DEFAULT_DEFAULTS
    _check_keys(defaults, DEFAULTS_KEYS, path, 'defaults.', problems)
    if sum(key in defaults for key in FUNCTION_KEYS) > 1:
        problems.append(_error(path, 'defaults', 'may define only one of data_hash, lookup_key or data_dig'))
    return defaults


def _or_default(value: Any, default: Any) -> Any:
    """Puppet's ``config[key] ||= default``: a key given no value (``defaults:`` with only comments under it) or
    ``false`` has the default, as a missing one."""
    return default if value is None or value is False else value


def _check_version(data: Any, path: str) -> None:
    """A file that is not version 5 is refused at once: nothing else in it means what it would in version 5."""
    if not isinstance(data, dict) or not data:
        raise HieraConfigError('%s is not a Hiera 5 configuration: it holds no map (an empty or non-map hiera.yaml '
                               'is a version 3 file to Puppet)' % path)
    version = data.get('version')
    if version == HIERA_VERSION:
        return
    if version in (None, 3, 4):
        shown = 'has no version (a version 3 file)' if version is None else 'is version %s' % version
        raise _error(path, 'version', 'says the file %s; only hiera.yaml version 5 is supported (convert it: '
                     'https://www.puppet.com/docs/puppet/7/hiera_migrate.html)' % shown)
    raise _error(path, 'version', 'is %r: hiera.yaml version %s is not supported (only 5)' % (version, version))


def _check_keys(mapping: Dict[str, Any], allowed: Sequence[str], path: str, where: str,
                problems: List[HieraConfigError]) -> None:
    for key in mapping:
        if key not in allowed:
            problems.append(_error(path, '%s%s' % (where, key), 'is not a Hiera 5 key here (valid: %s)'
                                   % ', '.join(allowed)))


def _error(path: str, key: str, problem: str) -> HieraConfigError:
    error = HieraConfigError("%s: key '%s' %s" % (path, key, problem))
    error.keys, error.detail = key_path(key), "key '%s' %s" % (key, problem)
    return error


def key_path(key: str) -> Tuple[Any, ...]:
    """``hierarchy[0] (level 'a').options.path`` -> ('hierarchy', 0, 'options', 'path'), to find its line."""
    key = re.sub(r" \(level '[^']*'\)", '', key)
    return tuple(int(index) if index else name for name, index in re.findall(r'([^.\[\]]+)|\[(\d+)\]', key))


def _noted(problems: List[HieraConfigError], check: Callable[..., Any], *arguments: Any) -> Any:
    """``check(*arguments)``, its HieraConfigError noted in ``problems`` (None then), so the next check runs."""
    try:
        return check(*arguments)
    except HieraConfigError as error:
        problems.append(error)
        return None


def _level(entry: Any, index: int, defaults: Dict[str, Any], path: str, warnings: List[str],
           problems: List[HieraConfigError]) -> Optional[HieraLevel]:
    """The level ``entry`` stands for, or None with each of its problems noted."""
    where = 'hierarchy[%d]' % index
    if not isinstance(entry, dict):
        problems.append(_error(path, where, 'must be a map with a name and a path'))
        return None
    noted = len(problems)
    _check_keys(entry, LEVEL_KEYS, path, where + '.', problems)
    name = entry.get('name')
    if not isinstance(name, str) or not name:
        problems.append(_error(path, where + '.name', 'is required and must be a non-empty string'))
    else:
        where = "%s (level '%s')" % (where, name)
    data_hash = _noted(problems, _data_hash, entry, defaults, path, where)
    location = _noted(problems, _location, entry, path, where)
    datadir = entry.get('datadir', defaults.get('datadir', 'data'))
    _noted(problems, _check_text, datadir, path, where + '.datadir')
    options = entry.get('options', defaults.get('options'))
    eyaml = _noted(problems, _check_options, options, data_hash, path, where, warnings)
    if len(problems) > noted:
        return None
    return HieraLevel(name=name, kind=location[0], templates=location[1], datadir=datadir,
                      data_hash='yaml_data' if data_hash == EYAML else data_hash, eyaml=eyaml)


def _data_hash(entry: Dict[str, Any], defaults: Dict[str, Any], path: str, where: str) -> str:
    own = [key for key in LEVEL_FUNCTION_KEYS if key in entry]
    if len(own) > 1:
        raise _error(path, where, 'may define only one of data_hash, lookup_key, data_dig or hiera3_backend')
    source = entry if own else defaults
    kinds = own or [key for key in FUNCTION_KEYS if key in defaults]
    if not kinds:
        raise _error(path, where, 'defines no data_hash (and defaults has none)')
    kind, function = kinds[0], source[kinds[0]]
    if (kind == 'data_hash' and function in DATA_HASHES) or (kind == 'lookup_key' and function == EYAML):
        return function
    raise _error(path, '%s.%s' % (where, kind), 'uses the backend %r; only data_hash: yaml_data and json_data and '
                 'lookup_key: eyaml_lookup_key are supported' % (function,))


def _location(entry: Dict[str, Any], path: str, where: str) -> Tuple[str, Tuple[str, ...]]:
    kinds = [key for key in LOCATION_KEYS if key in entry]
    if len(kinds) > 1:
        raise _error(path, where, 'may define only one of path, paths, glob, globs, uri, uris or mapped_paths')
    if not kinds:
        raise _error(path, where, 'defines none of path, paths, glob, globs or mapped_paths')
    kind = kinds[0]
    value = entry[kind]
    if kind in ('uri', 'uris'):
        raise _error(path, '%s.%s' % (where, kind), 'is for custom backends, which are not supported')
    if kind in ('path', 'glob'):
        _check_text(value, path, '%s.%s' % (where, kind))
        return kind, (value,)
    size_ok = isinstance(value, list) and (len(value) == 3 if kind == 'mapped_paths' else len(value) >= 1)
    if not size_ok:
        wanted = 'a list of exactly three strings' if kind == 'mapped_paths' else 'a non-empty list of strings'
        raise _error(path, '%s.%s' % (where, kind), 'must be %s' % wanted)
    for position, item in enumerate(value):
        _check_text(item, path, '%s.%s[%d]' % (where, kind, position))
    return kind, tuple(value)


def _check_text(value: Any, path: str, key: str) -> None:
    if not isinstance(value, str) or not value:
        raise _error(path, key, 'must be a non-empty string')


def _check_options(options: Any, data_hash: Optional[str], path: str, where: str,
                   warnings: List[str]) -> Optional[Tuple[Optional[str], Optional[str]]]:
    """The key files of an eyaml level (None for other levels); options meaning nothing here give a warning."""
    if options is None:
        return (None, None) if data_hash == EYAML else None
    if not isinstance(options, dict):
        raise _error(path, where + '.options', 'must be a map')
    for reserved in ('path', 'uri'):
        if reserved in options:
            raise _error(path, '%s.options.%s' % (where, reserved), 'is reserved by Puppet')
    if data_hash != EYAML:
        warnings.append('%s: %s.options mean nothing to yaml_data and json_data and are ignored' % (path, where))
        return None
    method = options.get('encrypt_method', 'pkcs7')
    if not isinstance(method, str) or method.lower() != 'pkcs7':
        raise _error(path, '%s.options.encrypt_method' % where, 'is %r: only the pkcs7 encryptor of eyaml is supported'
                     % (method,))
    ignored = sorted(str(name) for name in options if name not in EYAML_KEY_OPTIONS + ('encrypt_method',))
    if ignored:
        warnings.append('%s: %s.options %s mean nothing to strata.hier\'s eyaml and are ignored'
                        % (path, where, ', '.join(ignored)))
    for name in EYAML_KEY_OPTIONS:
        if options.get(name) is not None:
            _check_text(options[name], path, '%s.options.%s' % (where, name))
            if '%{' in options[name]:
                raise _error(path, '%s.options.%s' % (where, name), 'interpolates: eyaml key files are read as '
                             'written (a path, relative to the hiera.yaml)')
    return (options.get('pkcs7_private_key'), options.get('pkcs7_public_key'))


def _check_unique_names(entries: List[Any], path: str, problems: List[HieraConfigError]) -> None:
    seen = set()
    for entry in entries:
        name = entry.get('name') if isinstance(entry, dict) else None
        if isinstance(name, str) and name in seen:
            problems.append(_error(path, 'hierarchy', "names the level '%s' more than once" % name))
        seen.add(name)


# ----------------------------------------------------------------- Ruby's Dir.glob


Charge = Callable[[int], None]
"""``charge(units)``: units of work an expansion produced (an ExpansionBudget's ``charge`` with its place)."""


def charger(budget: ExpansionBudget, where: Callable[[], str]) -> Charge:
    """``budget.charge`` with its place given by ``where()``, called only for the error (it may read a file to
    find the line)."""
    def charge(units: int) -> None:
        budget.charge(units, where() if budget.spent + units > budget.allowance else '')
    return charge


def ruby_glob(pattern: str, charge: Optional[Charge] = None) -> List[str]:
    """The files ``pattern`` matches, in Ruby's ``Dir.glob`` order; directories are left out (as Hiera does).

    As Ruby's, ``**`` descends into folders, not into links to folders (two links to ``.`` would make it walk
    2^depth paths). Every pattern the braces give and every path the walk visits is charged by its length
    (``charge``; default: a budget of its own), so braces doubling per group (``{a,b}{a,b}...``, which a fact can
    hold: Hiera interpolates facts into the pattern before globbing) end in an ExpansionError, not in hours."""
    if charge is None:
        charge = charger(ExpansionBudget(), lambda: 'glob %r' % pattern)
    found: List[str] = []
    for expanded in _braces(pattern):
        charge(len(expanded))
        root, segments = _split_pattern(expanded)
        _walk(root, segments, found, charge)
    return [path for path in found if not os.path.isdir(path)]


def _braces(pattern: str) -> Iterator[str]:
    """The patterns ``{a,b}`` groups stand for, in Ruby's order, one at a time (the caller charges each)."""
    stack = [pattern]
    while stack:
        text = stack.pop()
        match = re.search(r'\{([^{}]*)\}', text)
        if not match:
            yield text
            continue
        stack.extend(text[:match.start()] + choice + text[match.end():]
                     for choice in reversed(match.group(1).split(',')))


def _split_pattern(pattern: str) -> Tuple[str, List[str]]:
    parts = pattern.split('/')
    root_parts: List[str] = []
    while parts and not _magic(parts[0]):
        root_parts.append(parts.pop(0))
    root = '/'.join(root_parts) or ('/' if pattern.startswith('/') else '.')
    if pattern.startswith('/') and root_parts == ['']:
        root = '/'
    return root, parts


def _magic(segment: str) -> bool:
    return any(char in segment for char in '*?[')


def _entries(directory: str) -> List[str]:
    try:
        names = os.listdir(directory)
    except (OSError, ValueError):       # ValueError: a NUL character in the path
        return []
    return sorted(names, key=lambda name: name.encode('utf-8', 'surrogateescape'))


def _matches(segment: str, name: str) -> bool:
    if name.startswith('.') and not segment.startswith('.'):
        return False
    return fnmatch.fnmatchcase(name, segment)


def _walk(directory: str, segments: List[str], found: List[str], charge: Charge) -> None:
    charge(len(directory))
    if not segments:
        if os.path.exists(directory):
            found.append(directory)
        return
    segment, rest = segments[0], segments[1:]
    if segment == '**':
        for name in _entries(directory):
            child = os.path.join(directory, name)
            if rest and _matches(rest[0], name):
                _walk(child, rest[1:], found, charge)
            if not name.startswith('.') and _real_folder(child):
                _walk(child, segments, found, charge)
        return
    if not _magic(segment):
        _walk(os.path.join(directory, segment), rest, found, charge)
        return
    for name in _entries(directory):
        if _matches(segment, name):
            _walk(os.path.join(directory, name), rest, found, charge)


def _real_folder(path: str) -> bool:
    """A folder and not a link to one: what Ruby's ``**`` descends into."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def resolved_path(root: str, datadir: str, relative: str) -> str:
    """A location: ``relative`` under ``datadir`` under the hiera.yaml's folder (absolute parts replace)."""
    return os.path.normpath(os.path.join(root, datadir, relative))


def inside(root: str, path: str) -> bool:
    return os.path.commonpath([os.path.abspath(root), os.path.abspath(path)]) == os.path.abspath(root)


def level_locations(level: HieraLevel, expand: Any, mapped: Any, root: str,
                    charge: Optional[Charge] = None) -> List[Tuple[str, str]]:
    """(template, path) per location of ``level``; ``expand(text)`` interpolates a template,
    ``mapped(variable, name, template)`` yields the texts of a mapped_paths level; ``charge``: what globbing
    costs (ruby_glob)."""
    datadir = expand(level.datadir)
    if level.kind in ('path', 'paths'):
        return [(template, resolved_path(root, datadir, expand(template))) for template in level.templates]
    if level.kind in ('glob', 'globs'):
        found = []
        for template in level.templates:
            pattern = os.path.join(root, datadir, expand(template))     # Puppet shows the pattern
            found.extend((pattern, os.path.normpath(path)) for path in ruby_glob(pattern, charge))
        return found
    variable, name, template = level.templates
    return [(template, resolved_path(root, datadir, text)) for text in mapped(variable, name, template)]
