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
  - Not needed when the play's inventory comes from the P(strata.hier.hier#inventory) inventory plugin or the
    P(strata.hier.hier#vars) vars plugin is enabled, which load most of the same code in the main process.
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

from ansible.plugins.callback import CallbackBase
from ansible.plugins.loader import lookup_loader

from ansible_collections.strata.hier.plugins.plugin_utils import bytecode
from ansible_collections.strata.hier.plugins.plugin_utils.source import preload


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
