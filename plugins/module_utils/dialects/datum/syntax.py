# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""How Datum tells a handler in a string: InvokeCommand's ``[x= ... =]`` and ProtectedData's ``[ENC=...]``.

Every lookup asks this (a hier.yml store refuses handlers, a Datum store evaluates them); what a handler says is
read by ``expressions.py``, which only Datum stores load.
"""

from __future__ import annotations

from typing import Any, Optional, Tuple

HEADER, FOOTER = '[x=', '=]'


def handler_content(text: str) -> Optional[Tuple[str, str]]:
    """(content, text outside) of an InvokeCommand handler, as Datum's regex ``\\[x=(?<Content>...)=\\]`` (ignoring
    case) takes it: from the first ``[x=`` to the last ``=]`` after it; None when the text holds none, or one with no
    content (``[x==]``: Datum finds a handler there, but InvokeCommand has nothing to run)."""
    span = _span(text)
    if span is None or span[1] == span[0] + len(HEADER):
        return None
    start, end = span
    return text[start + len(HEADER):end], text[:start] + text[end + len(FOOTER):]


def _span(text: str) -> Optional[Tuple[int, int]]:
    """Where the first ``[x=`` and the last ``=]`` after it start, as Datum's ``\\[x=[\\s\\S]*=\\]`` finds them."""
    lowered = text.lower()
    start = lowered.find(HEADER)
    end = lowered.rfind(FOOTER)
    return None if start < 0 or end < start + len(HEADER) else (start, end)


def is_protected(text: str) -> bool:
    """Datum.ProtectedData's ``[ENC=...]``: the whole (stripped) value, any case."""
    stripped = text.strip()
    return stripped[:5].lower() == '[enc=' and stripped.endswith(']') and len(stripped) >= 6


def is_handler(value: Any) -> bool:
    """Whether a value is a string Datum would hand to a handler, as Datum matches them (PowerShell's -match ignores
    case): InvokeCommand's ``[x= ... =]`` anywhere in it, ProtectedData's ``[ENC=...]`` as the whole (stripped)
    value."""
    return isinstance(value, str) and (_span(value) is not None or is_protected(value))
