# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

DOCUMENTATION = r"""
name: preload
type: aggregate
short_description: Load the hier lookup once, before ansible-playbook forks a worker for each host
version_added: 1.1.0
author: Strata maintainers (@strata-hier)
description:
  - ansible-playbook runs each task of each host in a worker process forked from its main process. A lookup plugin,
    and the code it imports, is loaded afresh in every worker that calls it; for the P(strata.hier.hier#lookup)
    lookup that is most of what its first call on a host costs.
  - This callback loads the lookup into ansible-playbook's main process when a playbook starts, so every worker forked
    after that starts with it loaded. It changes no result, and prints nothing but, once per run, a warning where
    the collection's code had no bytecode and none can be kept (C(PYTHONDONTWRITEBYTECODE), a read-only
    installation), with the command that compiles it.
  - When each play starts, it also reads the hierarchy configuration a lookup without C(config=) reads (a C(hier.yml)
    or C(Datum.yml) found as the lookup finds it) and parses the files of its data folder (at most 500, the folders
    holding the fewest files first, which many hosts read), so the workers find them parsed. A worker's lookup still
    checks each file it reads for changes (a file changed during the play is read again), and a lookup given another
    C(config=) reads its own as without the callback. A file that cannot be read is left to the lookup that reads
    it, which fails with the same error as without the callback. A C(hiera.yaml)'s data is not preloaded.
  - Loading the code is not needed when the play's inventory comes from the P(strata.hier.hier#inventory) inventory
    plugin or the P(strata.hier.hier#vars) vars plugin is enabled, which load most of the same code in the main
    process; the data files are preloaded only by this callback.
  - Like every callback that is not the output callback, it must be enabled, in C(ansible.cfg)
    C([defaults] callbacks_enabled = strata.hier.preload) or E(ANSIBLE_CALLBACKS_ENABLED).
notes:
  - The collection's C(docs/hierarchy.md) gives what a lookup costs in a play, with and without this callback.
seealso:
  - plugin: strata.hier.hier
    plugin_type: lookup
"""

EXAMPLES = r"""
# ansible.cfg
# [defaults]
# callbacks_enabled = strata.hier.preload
"""

from ansible import context
from ansible.plugins.callback import CallbackBase
from ansible.plugins.loader import lookup_loader

from ansible_collections.strata.hier.plugins.plugin_utils import bytecode
from ansible_collections.strata.hier.plugins.plugin_utils.config_path import resolve_option_path
from ansible_collections.strata.hier.plugins.plugin_utils.discovery import discover_config
from ansible_collections.strata.hier.plugins.plugin_utils.source import get_source, preload


class CallbackModule(CallbackBase):
    """Imports the hier lookup (and the helpers it imports) in ansible-playbook's main process."""

    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = 'aggregate'
    CALLBACK_NAME = 'strata.hier.preload'
    CALLBACK_NEEDS_ENABLED = True

    def v2_playbook_on_start(self, playbook):
        # Loading through the plugin loader also registers the lookup's option definitions, as a worker would.
        lookup_loader.get('strata.hier.hier')
        preload()       # the Source of hier.yml and Datum.yml, which the lookup loads on its first call
        # the helpers just loaded here without bytecode to keep: named once, before any worker loads them again
        bytecode.warn_uncached(self._display.warning)

    def v2_playbook_on_play_start(self, play):
        # the data a lookup without config= reads, parsed before this play's workers fork: each inherits it
        loader = getattr(play, '_loader', None)
        if loader is None:
            return
        try:
            count = preload_data(loader)
        except Exception:  # pylint: disable=broad-except  # the lookup meets the same problem and reports it
            self._display.vvv('strata.hier.preload: nothing preloaded (a lookup reading the data reports why)')
            return
        if count is not None:
            self._display.vvv('strata.hier.preload: %d data files preloaded' % count)


def preload_data(loader):
    """Open the Source a lookup without config= reads (plugin_utils/discovery.py, with the lookup's setting) and
    load its data files; how many, or None for a kind whose data is not preloaded (a hiera.yaml)."""
    lookup = lookup_loader.get('strata.hier.hier', loader=loader, templar=None)
    lookup.set_options(var_options={}, direct={})
    basedir = loader.get_basedir()
    path = discover_config(basedir, context.CLIARGS.get('inventory') or (),
                           resolve_option_path(lookup, 'config', basedir, {}))
    return get_source(path, loader).preload_data()
