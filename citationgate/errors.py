"""Errors of the gate, the store and the review. All derive from `CitationGateError`."""

from __future__ import annotations

from ingest.errors import CitationGateError


class UsageError(CitationGateError):
    """A call made with the wrong combination of arguments (the CLI's usage error)."""

    exit_code = 2


class ProposalError(CitationGateError):
    """Proposals JSON that does not match the documented shape."""

    exit_code = 4


class WithheldDocumentError(CitationGateError):
    """A document that could not be read whole: nothing is reviewed against it."""

    exit_code = 5


class StoreError(CitationGateError):
    """The database could not be opened, or a stored object does not exist."""

    exit_code = 6


class NotFoundError(StoreError):
    """A review, finding or document version that is not in the store."""


class AuditChainError(CitationGateError):
    """The audit log's hash chain is broken."""

    exit_code = 7


class BatchError(CitationGateError):
    """The batch engine could not start: nothing to review, Dask missing, or its scheduler unreachable."""

    exit_code = 8
