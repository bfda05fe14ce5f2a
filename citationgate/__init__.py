"""CitationGate: a finding surfaces only if its quote is found verbatim in the contract."""

from citationgate.errors import (
    AuditChainError,
    NotFoundError,
    ProposalError,
    StoreError,
    WithheldDocumentError,
)
from citationgate.model import (
    AbsenceEvidence,
    CitationRequest,
    CitationResult,
    CitationStatus,
    Evidence,
    Finding,
    FindingStatus,
    MatchType,
    Proposal,
    Supervision,
    VerifiedQuote,
)
from ingest import CitationGateError, Document, load_document

__version__ = "0.1.0"

__all__ = [
    "AbsenceEvidence",
    "AuditChainError",
    "CitationGateError",
    "CitationRequest",
    "CitationResult",
    "CitationStatus",
    "Document",
    "Evidence",
    "Finding",
    "FindingStatus",
    "MatchType",
    "NotFoundError",
    "Proposal",
    "ProposalError",
    "StoreError",
    "Supervision",
    "VerifiedQuote",
    "WithheldDocumentError",
    "__version__",
    "load_document",
]
