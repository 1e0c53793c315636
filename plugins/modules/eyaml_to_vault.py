#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

DOCUMENTATION = r"""
module: eyaml_to_vault
short_description: Each hiera-eyaml value of a folder's YAML files rewritten as an Ansible vault value
version_added: 1.1.0
author: Strata maintainers (@strata-hier)
extends_documentation_fragment:
  - strata.hier.job
description:
  - Reads every C(.yaml) and C(.yml) file under O(path) (hidden folders skipped, no link followed) and rewrites each
    value that is one hiera-eyaml C(ENC[PKCS7,...]) token (plain, quoted, or a folded or literal block) as
    C(!vault |) followed by the vault text, indented below its key. Every other byte of a file stays as it was
    (comments, a comment after the value moving after C(!vault |), order, quoting, anchors kept on the value, blank
    lines, CRLF line ends).
  - 'A value in a flow collection (C({a: "ENC[...]"}), C(["ENC[...]"])) becomes C(!vault "...") on one line.'
  - Each value is decrypted with the eyaml key pair (O(private_key), O(public_key)) and encrypted with Ansible's
    vault, with a secret the run loaded (C(--vault-id), C(--vault-password-file), C(--ask-vault-pass)); O(vault_id)
    picks one as C(ansible-vault encrypt_string --encrypt-vault-id) does.
  - Check mode unless O(apply=true), and always with C(--check). In check mode the whole run is made in memory
    (decrypted, encrypted, verified with O(verify)) and nothing is written.
  - The run is planned in full before anything is written. When a value cannot be migrated (a file holding C(ENC[)
    that is not valid YAML, C(ENC[...]) of another encryptor than PKCS7 or within other text, a O(verify) mismatch) the task
    fails naming each by C(file:line key) and writes no file. A value the key pair cannot decrypt fails the run at
    once, naming its C(file:line). Files are then replaced one by one atomically (a temporary file beside each, its
    mode kept, a rename). A run stopped between two files leaves whole files, and the next run migrates the rest.
  - Values are named by C(file:line key) only; neither a ciphertext nor a plain text is in the result, a message or
    the output, at any verbosity. Nothing but the rewritten files is written.
  - A second run over a migrated folder finds no eyaml value and changes nothing.
  - Runs on the controller only (an action plugin); the collection playbook C(strata.hier.eyaml_to_vault) wraps it.
options:
  path:
    description: The folder whose YAML files are rewritten (a Hiera data folder, a whole control repository).
    type: path
    required: true
  vault_id:
    description:
      - The vault id to encrypt with, among those the run loaded. Without it, C(DEFAULT_VAULT_ENCRYPT_IDENTITY) when
        set, else the only vault id loaded; several loaded and none picked is an error.
      - A vault id other than C(default) is written in the vault text's header (format 1.2), as
        C(ansible-vault encrypt_string) writes it.
    type: str
  apply:
    description: Write the rewritten files. Without it (the default), nothing is written.
    type: bool
    default: false
  verify:
    description:
      - Decrypt both sides and compare before anything is written, per file (in check mode too) the data of the
        rewritten text with its new vault values decrypted against the original's with its eyaml values decrypted.
        Vault values already in a file are compared by their text.
        A difference fails the task naming C(file:line key) and nothing is written.
    type: bool
    default: false
  private_key:
    description:
      - The eyaml private key (PEM), relative to O(path). Its text in the environment variable
        C(STRATA_HIER_EYAML_PRIVATE_KEY) replaces the file.
      - Default C(keys/private_key.pkcs7.pem), where C(eyaml createkeys) writes it.
    type: str
  public_key:
    description:
      - The eyaml public key (a PEM certificate), relative to O(path). Its text in the environment variable
        C(STRATA_HIER_EYAML_PUBLIC_KEY) replaces the file.
      - Default C(keys/public_key.pkcs7.pem).
    type: str
notes:
  - Supports check mode (C(--check)); it never writes then, whatever O(apply) says.
  - Encrypting a vault value costs a key derivation (PBKDF2, 10,000 rounds of SHA-256) per value; see the
    collection's C(docs/eyaml_migration.md) for what a large repository costs.
seealso:
  - module: strata.hier.check
  - plugin: strata.hier.hier
    plugin_type: lookup
    description: Decrypts the eyaml values it returns, for data not migrated yet.
"""

EXAMPLES = r"""
# ansible-playbook strata.hier.eyaml_to_vault -e path=data -e verify=true --vault-id prod@prompt
- name: Rewrite the eyaml values of data/ as vault values of the id prod
  strata.hier.eyaml_to_vault:
    path: data
    vault_id: prod
    private_key: ../keys/private_key.pkcs7.pem
    public_key: ../keys/public_key.pkcs7.pem
    verify: true
    apply: true
  register: migrated

- name: Say which values were rewritten
  ansible.builtin.debug:
    msg: "{{ migrated.report }}"
"""

RETURN = r"""
rewritten:
  description: Each eyaml value rewritten (or to rewrite, in check mode), in the order of the files and lines.
  returned: always
  type: list
  elements: dict
  contains:
    file: {description: 'The file, relative to O(path).', type: str}
    line: {description: The value's first line in the original file., type: int}
    key: {description: 'Its key path as written (C(a/b/0)).', type: str}
files:
  description: Each file changed (or to change), relative to O(path), with its number of values.
  returned: always
  type: list
  elements: dict
  contains:
    file: {description: The file., type: str}
    count: {description: Its number of eyaml values., type: int}
problems:
  description: 'What keeps values or files from being migrated, each naming C(file:line key); the task fails on any.'
  returned: always
  type: list
  elements: str
applied:
  description: Whether the files were written.
  returned: always
  type: bool
vault_id:
  description: The vault id the values are encrypted with.
  returned: always
  type: str
summary:
  description: The counts.
  returned: always
  type: dict
  contains:
    files_scanned: {description: YAML files read., type: int}
    files_changed: {description: Files with eyaml values., type: int}
    eyaml_values: {description: eyaml values found., type: int}
    problems: {description: Problems found., type: int}
report:
  description: 'The lines the playbook prints: C(file:line key) per value, C(file: N values) per file, the problems.'
  returned: always
  type: list
  elements: str
"""
