"""A value read from contract text, tied to the exact span it was read from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Hit"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Hit:
    """A value parsed from `[start, end)` of the document text; `conflict` names a disagreement."""

    value: Any
    start: int
    end: int
    conflict: str | None = None
