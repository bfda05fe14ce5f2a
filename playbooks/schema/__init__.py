"""The playbook file contract (YAML, `schema: citationgate-playbook/1`) and loading it.

Validation is pydantic with extra fields forbidden, then a second pass that compiles every regular
expression and parses every predicate against the clause's declared values. Any failure is a
`PlaybookError` naming the file, the line, the field path, and what was expected — a misspelt field in a
`when` fails here, not halfway through a review. The YAML is composed with its node marks kept, so pydantic's
error paths map back to line numbers.

The package, by concept: `models`, `compiled`, `messages`, `compile`, `load`.
"""

from __future__ import annotations

from playbooks.schema.compile import MUTUAL_PARTY, UNBOUND_ROLES, _regex
from playbooks.schema.compiled import CompiledCheck, CompiledClause, CompiledField, CompiledPosition, Playbook
from playbooks.schema.load import load_playbook_file, parse_playbook
from playbooks.schema.models import (
    OUTCOMES,
    SCHEMA_ID,
    SEVERITIES,
    CheckModel,
    ClauseModel,
    PlaybookFile,
    TestExpectModel,
)

__all__ = [
    "MUTUAL_PARTY",
    "OUTCOMES",
    "SCHEMA_ID",
    "SEVERITIES",
    "UNBOUND_ROLES",
    "CheckModel",
    "ClauseModel",
    "CompiledCheck",
    "CompiledClause",
    "CompiledField",
    "CompiledPosition",
    "Playbook",
    "PlaybookFile",
    "TestExpectModel",
    "_regex",
    "load_playbook_file",
    "parse_playbook",
]
