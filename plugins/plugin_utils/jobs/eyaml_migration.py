# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The eyaml to vault migration (``strata.hier.eyaml_to_vault``, docs/eyaml_migration.md): each eyaml value of a
folder's YAML files rewritten as an Ansible vault value (``!vault |``), every other byte of the file kept.

Values are found with PyYAML's pure Python composer, whose marks count the text's characters (what the edits index;
libyaml's count bytes), and replaced from the end of the file backwards. The whole folder is planned first (read,
decrypt, encrypt, verify); when any value cannot be migrated nothing is written, else each changed file is replaced
atomically. No message holds a value: values are named by ``file:line key``.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

import yaml

from ansible_collections.strata.hier.plugins.plugin_utils.eyaml import EyamlError, EyamlKeys, EyamlValue, token_of
from ansible_collections.strata.hier.plugins.plugin_utils.parse import redefines_anchor, unique_anchors
from ansible_collections.strata.hier.plugins.plugin_utils.source_lines import file_line
from ansible_collections.strata.hier.plugins.plugin_utils.walk import shown_path

SUFFIXES = ('.yaml', '.yml')

_PROPERTY = re.compile(r'(?:(?P<anchor>&[^\s,\[\]{}]+)|![^\s,\[\]{}]*)\s+')
"""An anchor or a tag before a scalar (its node starts there): the anchor is kept, the tag becomes ``!vault``."""
_BLOCK_HEADER = re.compile(r'[|>][-+0-9]*(?P<comment>[ \t]+#.*)?')


class Spot:
    """One eyaml value of a file: its text's span, where it is, and what ``!vault`` text replaces it."""

    __slots__ = ('start', 'end', 'line', 'keys', 'ciphertext', 'head', 'indent', 'flow', 'newline')

    def __init__(self, start: int, end: int, line: int, keys: Tuple[Any, ...], ciphertext: str) -> None:
        self.start, self.end, self.line, self.keys, self.ciphertext = start, end, line, keys, ciphertext
        self.head = ''          # the anchor kept, '!vault |' and a comment that followed the value
        self.indent = 0
        self.flow = False
        self.newline = '\n'

    def replacement(self, vault_text: str) -> str:
        """``!vault |`` and the vault text's lines below it (in a flow collection, one double-quoted line)."""
        lines = vault_text.strip().splitlines()
        if self.flow:
            quoted = '\\n'.join(line.replace('\\', '\\\\').replace('"', '\\"') for line in lines)
            return '%s!vault "%s"' % (self.head, quoted)
        return self.head + ''.join('%s%s%s' % (self.newline, ' ' * self.indent, line) for line in lines)


def data_files(root: str) -> List[str]:
    """The YAML files under ``root``, relative to it, sorted: hidden folders skipped, no link followed (a linked file
    is rewritten through its own path, when it is under ``root``)."""
    found = []
    for folder, folders, files in os.walk(root):
        folders[:] = sorted(name for name in folders if not name.startswith('.'))
        for name in files:
            path = os.path.join(folder, name)
            if name.endswith(SUFFIXES) and not os.path.islink(path):
                found.append(os.path.relpath(path, root))
    return sorted(found)


def scan(text: str, file: str) -> Tuple[List[Spot], List[str]]:
    """The eyaml values of a file's text, in the order written, and what keeps others from being rewritten
    (``file:line`` messages)."""
    try:
        documents = _compose(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, 'problem_mark', None)
        where = file_line(file, mark.line + 1 if mark is not None else None)
        # the problem only: PyYAML's own message quotes the file's text
        return [], ['%s: not valid YAML (%s); not rewritten' % (where, getattr(exc, 'problem', None) or type(exc).__name__)]
    spots, problems = [], []
    for node, keys, indent, flow in _scalars(documents):
        ciphertext, why = token_of(node.value)
        line = node.start_mark.line + 1
        if why is not None:
            problems.append('%s %s: the value %s; not rewritten' % (file_line(file, line), shown_path(keys), why))
        elif ciphertext is not None:
            spots.append(_spot(text, node, Spot(node.start_mark.index, node.end_mark.index, line, keys, ciphertext),
                               indent, flow))
    return sorted(spots, key=lambda spot: spot.start), problems


def _compose(text: str) -> List[Any]:
    try:
        return list(yaml.compose_all(text, Loader=yaml.SafeLoader))
    except yaml.composer.ComposerError as exc:     # an anchor defined again: read as parse.py reads the data
        unique = unique_anchors(text) if redefines_anchor(exc) else None
        if unique is None or len(unique) != len(text):
            raise
        return list(yaml.compose_all(unique, Loader=yaml.SafeLoader))


def _scalars(documents: Sequence[Any]) -> Iterator[Tuple[Any, Tuple[Any, ...], int, bool]]:
    """(node, key path, indentation of a block value there, in a flow collection) of each scalar value (not keys);
    a node once, however many aliases name it."""
    stack = [(root, (), 2, False) for root in reversed(documents)]
    seen = set()
    while stack:
        node, keys, indent, flow = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            yield node, keys, indent, flow
            continue
        inner = flow or bool(node.flow_style)
        if isinstance(node, yaml.MappingNode):
            entries = [(value, keys + (_key(key),), key.start_mark.column + 2) for key, value in node.value]
        else:
            entries = [(item, keys + (index,), max(item.start_mark.column, 1)) for index, item in enumerate(node.value)]
        stack.extend((child, path, column, inner) for child, path, column in reversed(entries))


def _key(node: Any) -> Any:
    return node.value if isinstance(node, yaml.ScalarNode) else '<%s>' % node.id


def _spot(text: str, node: Any, spot: Spot, indent: int, flow: bool) -> Spot:
    """Where the replacement goes: from the node's anchor (kept) or tag (dropped), to the value's end; a block value's
    span ends with its last line holding text (the blank lines after it stay), a plain or quoted one's with its
    line, whose comment moves after ``!vault |``."""
    position, anchor = spot.start, ''
    found = _PROPERTY.match(text, position)
    while found is not None and position < spot.end:
        anchor = found.group('anchor') + ' ' if found.group('anchor') else anchor
        position = found.end()
        found = _PROPERTY.match(text, position)
    spot.indent, spot.flow = indent, flow
    if flow:
        spot.head = anchor
        return spot
    if node.style in ('|', '>'):
        header = _BLOCK_HEADER.match(text, position)
        comment = (header.group('comment') or '') if header is not None else ''
        spot.end = _line_end(text, position + len(text[position:spot.end].rstrip()))
    else:
        comment = text[spot.end:_line_end(text, spot.end)].rstrip()
        spot.end = _line_end(text, spot.end)
    spot.head = '%s!vault |%s' % (anchor, comment)
    spot.newline = '\r\n' if text.startswith('\r\n', spot.end) or ('\n' not in text[spot.end:] and '\r\n' in text) \
        else '\n'
    return spot


def _line_end(text: str, index: int) -> int:
    """Where the line holding ``index`` ends: its line break (``\\r\\n`` or ``\\n``), or the end of the text."""
    end = text.find('\n', index)
    if end < 0:
        return len(text)
    return end - 1 if end > index and text[end - 1] == '\r' else end


def rewritten(text: str, spots: Sequence[Spot], vault_texts: Sequence[str]) -> str:
    """The text with each spot replaced by its vault text, from the end backwards (earlier offsets stay valid)."""
    for spot, vault_text in sorted(zip(spots, vault_texts), key=lambda pair: pair[0].start, reverse=True):
        text = text[:spot.start] + spot.replacement(vault_text) + text[spot.end:]
    return text


class Migration:
    """One run over a folder: ``plan`` reads, decrypts, encrypts (and verifies) everything, ``write`` writes.

    ``encrypt(plaintext)`` gives a value's vault text; ``decrypt_vault(vault_text)`` its plain text (``verify``)."""

    def __init__(self, root: str, keys: EyamlKeys, encrypt: Callable[[str], str],
                 decrypt_vault: Optional[Callable[[str], str]] = None) -> None:
        self.root, self.keys, self.encrypt, self.decrypt_vault = root, keys, encrypt, decrypt_vault
        self.values: List[Dict[str, Any]] = []
        self.files: List[Dict[str, Any]] = []
        self.problems: List[str] = []
        self.scanned = 0
        self._texts: Dict[str, str] = {}

    def plan(self) -> 'Migration':
        for relative in data_files(self.root):
            self.scanned += 1
            path = os.path.join(self.root, relative)
            text = self._read(path, relative)
            spots = self._spots(text, relative) if text is not None and 'ENC[' in text else []
            if not spots:
                continue
            plaintexts = [EyamlValue(spot.ciphertext, self.keys, path).decrypted() for spot in spots]
            new_text = rewritten(text, spots, [self.encrypt(plaintext) for plaintext in plaintexts])
            if self.decrypt_vault is not None:
                self.problems.extend(verify(relative, text, new_text, spots, plaintexts, self.decrypt_vault))
            self._texts[path] = new_text
            self.values.extend({'file': relative, 'line': spot.line, 'key': shown_path(spot.keys)} for spot in spots)
            self.files.append({'file': relative, 'count': len(spots)})
        return self

    def _read(self, path: str, relative: str) -> Optional[str]:
        try:
            with open(path, encoding='utf-8', newline='') as stream:    # newline='': CRLF kept as written
                return stream.read()
        except UnicodeDecodeError:
            self.problems.append('%s: not UTF-8 text; not read' % relative)
        except OSError as exc:
            self.problems.append('%s: cannot be read (%s)' % (relative, exc.strerror))
        return None

    def _spots(self, text: str, relative: str) -> List[Spot]:
        spots, problems = scan(text, relative)
        self.problems.extend(problems)
        return spots

    def write(self) -> None:
        """Each changed file replaced by its new text: a temporary file beside it, its mode, then a rename."""
        if self.problems:
            raise EyamlError('eyaml_to_vault: nothing written while values cannot be migrated')
        for path, text in self._texts.items():
            write_atomically(path, text)


def write_atomically(path: str, text: str) -> None:
    mode = stat.S_IMODE(os.stat(path).st_mode)
    handle, temporary = tempfile.mkstemp(prefix='.%s.' % os.path.basename(path), dir=os.path.dirname(path) or '.')
    try:
        with os.fdopen(handle, 'w', encoding='utf-8', newline='') as stream:
            stream.write(text)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def verify(file: str, text: str, new_text: str, spots: Sequence[Spot], plaintexts: Sequence[str],
           decrypt_vault: Callable[[str], str]) -> List[str]:
    """Both sides decrypted and compared: the new text's data, its new vault values decrypted, against the old
    text's, its eyaml values decrypted (vault values already there are compared by their text: they may be of a vault
    id the run has not loaded); a ``file:line key`` message per value that differs, a message per other difference."""
    by_ciphertext = dict(zip((spot.ciphertext for spot in spots), plaintexts))
    kept: set = set()

    def old_vault(vault_text: str) -> Tuple[str, str]:
        kept.add(vault_text)
        return ('vault', vault_text)

    def new_vault(vault_text: str) -> Any:
        return ('vault', vault_text) if vault_text in kept else decrypt_vault(vault_text)

    try:
        before = list(yaml.load_all(text, Loader=_loader(lambda value: by_ciphertext.get(token_of(value)[0], value),
                                                         old_vault)))
        after = list(yaml.load_all(new_text, Loader=_loader(lambda value: value, new_vault)))
    except Exception as exc:    # pylint: disable=broad-except  # a vault error, a YAML error: named without its text
        return ['%s: verify: the file cannot be read to compare both sides (%s)' % (file, type(exc).__name__)]
    differences = [keys for old, new in zip(before, after) for keys in _differences(old, new, ())]
    if len(before) != len(after):
        differences.append(())
    lines = {spot.keys: spot.line for spot in spots}
    return ["%s %s: verify: the vault value does not decrypt to the eyaml value's plain text"
            % (file_line(file, lines[keys]), shown_path(keys)) if keys in lines else
            '%s: verify: the rewritten data differs from the original at %s' % (file, shown_path(keys) or 'its top')
            for keys in differences]


def _differences(old: Any, new: Any, keys: Tuple[Any, ...]) -> List[Tuple[Any, ...]]:
    """The key paths where two loaded documents differ (the first of each branch)."""
    if isinstance(old, dict) and isinstance(new, dict) and list(old) == list(new):
        return [found for key in old for found in _differences(old[key], new[key], keys + (key,))]
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [found for index, item in enumerate(old) for found in _differences(item, new[index], keys + (index,))]
    return [] if type(old) is type(new) and old == new else [keys]


def _loader(string: Callable[[str], Any], vault: Callable[[str], Any]) -> Any:
    """A safe loader whose strings pass through ``string`` and whose ``!vault`` values' texts through ``vault``."""

    class Loader(yaml.SafeLoader):     # pylint: disable=too-many-ancestors
        def construct_yaml_str(self, node: Any) -> Any:
            return string(super().construct_yaml_str(node))

    Loader.add_constructor('tag:yaml.org,2002:str', Loader.construct_yaml_str)
    Loader.add_constructor('!vault', lambda loader, node: vault(loader.construct_scalar(node)))
    return Loader


def migrate(options: Dict[str, Any], secrets: Sequence[Any], write: bool) -> Dict[str, Any]:
    """The task's result of one run (options: the module's); files written only with ``write`` and no problem."""
    root = options['path']
    if not os.path.isdir(root):
        raise EyamlError('eyaml_to_vault: path=%s is not a folder' % root)
    vault_id, secret, vault = vault_for_run(secrets, options['vault_id'])
    keys = EyamlKeys(root, options['private_key'], options['public_key'], where='eyaml_to_vault path=%s' % root)
    migration = Migration(root, keys, lambda plaintext: vault.encrypt(plaintext, secret, vault_id=vault_id).decode(),
                          (lambda text: vault.decrypt(text).decode('utf-8')) if options['verify'] else None).plan()
    written = write and not migration.problems and bool(migration.values)
    if written:
        migration.write()
    return result_of(migration, vault_id, written, options['verify'])


def run_secrets(loader: Any) -> List[Any]:
    """The vault secrets the run loaded: ansible-core 2.19's secrets context, before it the DataLoader's vault."""
    try:
        from ansible.parsing.vault import VaultSecretsContext
    except ImportError:
        VaultSecretsContext = None     # pylint: disable=invalid-name  # ansible-core before 2.19
    context = VaultSecretsContext.current(optional=True) if VaultSecretsContext is not None else None
    if context is not None:
        return list(context.secrets)
    return list(loader._vault.secrets)      # pylint: disable=protected-access  # the only way before 2.19


def vault_for_run(secrets: Sequence[Any], vault_id: Optional[str]) -> Tuple[str, Any, Any]:
    """(vault id, secret, VaultLib) to encrypt with, chosen as ``ansible-vault encrypt_string --encrypt-vault-id``
    chooses among the secrets the run loaded (``--vault-id``, ``--vault-password-file``)."""
    from ansible import constants as C
    from ansible.parsing.vault import AnsibleVaultError, VaultLib, match_encrypt_secret
    ids = sorted({name for name, _secret in secrets})
    if not ids:
        raise EyamlError('eyaml_to_vault: no vault secret is loaded to encrypt with: run ansible-playbook with '
                         '--vault-id, --vault-password-file or --ask-vault-pass')
    wanted = vault_id or C.DEFAULT_VAULT_ENCRYPT_IDENTITY
    if not wanted and len(ids) > 1:
        raise EyamlError('eyaml_to_vault: the vault ids %s are loaded: give vault_id= to pick the one to encrypt with'
                         % ', '.join(ids))
    try:
        chosen, secret = match_encrypt_secret(secrets, wanted)
    except AnsibleVaultError:
        raise EyamlError('eyaml_to_vault: vault_id=%s is not loaded for this run (loaded: %s)'
                         % (wanted, ', '.join(ids))) from None
    return chosen, secret, VaultLib(list(secrets))


def result_of(migration: Migration, vault_id: str, written: bool, verified: bool) -> Dict[str, Any]:
    """The task's result: each value by ``file:line key`` (never its text), the files and their counts, problems."""
    values, files, problems = migration.values, migration.files, migration.problems
    summary = {'files_scanned': migration.scanned, 'files_changed': len(files), 'eyaml_values': len(values),
               'problems': len(problems)}
    report = (['%(file)s:%(line)d %(key)s' % value for value in values]
              + ['%s: %s' % (item['file'], _counted(item['count'], 'value')) for item in files] + problems)
    result = {'changed': bool(values) and not problems, 'applied': written, 'vault_id': vault_id, 'summary': summary,
              'rewritten': values, 'files': files, 'problems': problems, 'report': report}
    if problems:
        result.update(failed=True, msg='strata.hier.eyaml_to_vault: %s; nothing written: %s'
                      % (_counted(len(problems), 'problem'), '; '.join(problems[:5])))
    elif not values:
        result['msg'] = 'strata.hier.eyaml_to_vault: no eyaml value in %s' % _counted(migration.scanned, 'file')
    else:
        result['msg'] = 'strata.hier.eyaml_to_vault: %s in %s %s as vault values (vault id %s)%s%s' % (
            _counted(len(values), 'eyaml value'), _counted(len(files), 'file'),
            'rewritten' if written else 'to rewrite', vault_id, ', verified' if verified else '',
            '' if written else '; nothing written (check mode: apply=true writes)')
    return result


def _counted(count: int, thing: str) -> str:
    return '%d %s%s' % (count, thing, '' if count == 1 else 's')
