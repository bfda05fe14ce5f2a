"""Errors of playbook loading and evaluation."""

from __future__ import annotations

from ingest.errors import CitationGateError


class PlaybookError(CitationGateError):
    """A playbook file that does not load: names the file, the field or line, and what was expected."""

    exit_code = 4
