"""A playbook as the engine runs it: compiled fields, positions, clauses and checks."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from playbooks.predicates import Predicate
from playbooks.schema.models import (
    CheckModel,
    ClauseModel,
    ExtractModel,
    PlaybookFile,
)


@dataclass(frozen=True, slots=True, kw_only=True)
class CompiledField:
    name: str
    spec: ExtractModel
    near: tuple[re.Pattern[str], ...]
    closest_to: tuple[re.Pattern[str], ...]
    cues: Mapping[str, tuple[re.Pattern[str], ...]]  # enum / set
    true_if: tuple[re.Pattern[str], ...]
    false_if: tuple[re.Pattern[str], ...]
    after: tuple[re.Pattern[str], ...]
    pattern: re.Pattern[str] | None
    unless: tuple[re.Pattern[str], ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class CompiledPosition:
    outcome: str  # unacceptable | standard | fallback
    when: Predicate
    reason: str | None
    claim: str | None
    rank: int = 0
    approval: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class CompiledClause:
    id: str
    title: str
    required: bool
    model: ClauseModel
    headings: tuple[str, ...]
    heading_keys: tuple[str, ...]  # the longest word of each heading: a cheap test before the regex
    heading_res: tuple[re.Pattern[str], ...]
    bridges: tuple[re.Pattern[str], ...]
    patterns: tuple[re.Pattern[str], ...]
    exclude: tuple[re.Pattern[str], ...]
    hints: tuple[re.Pattern[str], ...]
    fields: tuple[CompiledField, ...]
    positions: tuple[CompiledPosition, ...]  # in evaluation order: unacceptable, standard, fallbacks by rank
    not_applicable_when: Predicate | None
    referenced: tuple[re.Pattern[str], ...]
    provided_if: tuple[re.Pattern[str], ...]
    applies_to: tuple[str, ...] = ()
    not_expected_in: tuple[str, ...] = ()
    role_dependent: bool = False  # some pattern speaks of {us} or {them}: its reading needs the roles bound
    about: tuple[re.Pattern[str], ...] = ()  # terms the operative sentence states (`playbooks.engine.about`)
    duty: tuple[re.Pattern[str], re.Pattern[str]] | None = None  # (the side whose promise it is, the other)


@dataclass(frozen=True, slots=True, kw_only=True)
class CompiledCheck:
    id: str
    title: str
    model: CheckModel
    when: Predicate
    applies_when: Predicate | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Playbook:
    """A loaded, validated playbook. `sha256` is the hash of the file's bytes (recorded on every review)."""

    id: str
    version: str
    title: str
    our_role: str
    sha256: str
    source: str  # the file it was read from
    model: PlaybookFile = field(repr=False)
    clauses: tuple[CompiledClause, ...] = field(repr=False)
    checks: tuple[CompiledCheck, ...] = field(repr=False)
    marks: Mapping[tuple[str | int, ...], int] = field(default_factory=dict, repr=False)
    roles: Mapping[str, str] = field(default_factory=dict, repr=False)  # what {us}/{them} were bound to
    bounded: bool = field(default=True, repr=False)  # patterns run under a time bound (all but built-ins)

    @property
    def description(self) -> str:
        return self.model.description

    @property
    def fits(self) -> tuple[str, ...]:
        return tuple(self.model.fits)

    def bind(self, roles: Mapping[str, str]) -> Playbook:
        """This playbook with `{us}`/`{them}` in its patterns bound to `roles` (regexes for each side)."""
        if dict(roles) == dict(self.roles):
            return self
        from playbooks.schema.compile import _compile  # compiling builds these classes: imported when binding

        clauses, checks = _compile(
            self.model, Path(self.source).name, dict(self.marks), roles=roles, bounded=self.bounded
        )
        return replace(self, clauses=clauses, checks=checks, roles=dict(roles))

    def clause(self, clause_id: str) -> CompiledClause | None:
        return next((c for c in self.clauses if c.id == clause_id), None)
