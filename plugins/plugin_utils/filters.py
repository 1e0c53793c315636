# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""What every filter of the collection does around its call into the merge core.

This module is the filter plugins' edge, shared: a filter plugin is a function returning a value, with no display of
its own, so ``call_core`` prints the warnings its core call's result carries (the one warning channel: results carry
warnings, the plugin prints them), as the lookup, inventory and vars plugins print their answers'.
"""

from __future__ import annotations

from typing import Any, Callable, List, Sequence

from ansible.errors import AnsibleFilterError
from ansible.utils.display import Display

from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeError
# Imported for its effect too: it teaches the core to compare vault values by ciphertext.
from ansible_collections.strata.hier.plugins.plugin_utils import compat  # noqa: F401  # pylint: disable=unused-import

display = Display()


def layers_from(filter_name: str, value: Any, others: Sequence[Any], what: str = 'layers') -> List[Any]:
    """The layers of a filter call, most specific first, as the core takes them.

    Filters follow combine's convention: the input and later arguments, or the input alone as a list,
    least specific first.  ``what`` names the layers in the error for an input that is no list.
    """
    layers = [value] + list(others) if others else value
    if not isinstance(layers, (list, tuple)):
        raise AnsibleFilterError('%s: with no argument, the input must be a list of %s, not %s'
                                 % (filter_name, what, type(layers).__name__))
    return list(layers)[::-1]


def call_core(filter_name: str, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run a core function: its errors become AnsibleFilterError, its warnings Ansible warnings.

    The result's ``warnings`` attribute (a list of strings), when it has one, is shown
    with the filter's name.
    """
    try:
        result = function(*args, **kwargs)
    except MergeError as exc:
        raise AnsibleFilterError('%s: %s' % (filter_name, exc)) from exc
    for warning in getattr(result, 'warnings', None) or ():
        display.warning('%s: %s' % (filter_name, warning))
    return result
