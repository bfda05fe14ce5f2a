"""CitationGate: a finding surfaces only if its quote is found verbatim in the contract.

The verbs a pipeline calls — `review`, `verify`, `reverify`, `check_answer`, `load_document` — each
return the value the CLI prints with `--format json` (see `citationgate.api`).
"""

import sys as _sys
import types as _types

from citationgate.api import check_answer, findings, ingest, reverify, review, verify
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


class _Package(_types.ModuleType):
    """The package keeps its verbs `review` and `reverify` bound to the functions: importing the
    submodules of the same name (`citationgate.review`, `citationgate.reverify`) would otherwise
    rebind the attributes to the modules. `from citationgate.review import …` is unaffected."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in {"review", "reverify", "findings"} and isinstance(value, _types.ModuleType):
            return
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package

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
    "check_answer",
    "findings",
    "ingest",
    "load_document",
    "reverify",
    "review",
    "verify",
]
