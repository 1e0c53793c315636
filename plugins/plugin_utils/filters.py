# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""What every filter of the collection does around its call into the merge core."""

from __future__ import annotations

from typing import Any, Callable

from ansible.errors import AnsibleFilterError
from ansible.utils.display import Display

from ansible_collections.strata.hier.plugins.module_utils.errors import MergeError


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
        Display().warning('%s: %s' % (filter_name, warning))
    return result
