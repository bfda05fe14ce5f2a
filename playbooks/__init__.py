"""Playbooks: what a contract team expects of each clause, and the engine that proposes findings.

`load_playbook("msa-customer")` (or a YAML path) → `Playbook`; `run_playbook(document, playbook)` →
`list[ClauseOutcome]`, each with the quotes and extracted values it relied on; `run_tests(playbook)` runs the
playbook's embedded tests.
"""

from playbooks.engine import run_playbook
from playbooks.errors import PlaybookError
from playbooks.library import list_playbooks, load_playbook, run_tests
from playbooks.outcome import ClauseOutcome, ExtractedValue, PlaybookTestResult, QuoteRef, SearchRecord
from playbooks.schema import Playbook

__all__ = [
    "ClauseOutcome",
    "ExtractedValue",
    "Playbook",
    "PlaybookError",
    "PlaybookTestResult",
    "QuoteRef",
    "SearchRecord",
    "list_playbooks",
    "load_playbook",
    "run_playbook",
    "run_tests",
]
