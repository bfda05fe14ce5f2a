"""What a lawyer reads in the table and the memo: severity first then document order, prose not tokens."""

from __future__ import annotations

import re
from typing import Any

import pytest

from citationgate.reports import render_markdown, render_table
from citationgate.reports.findings import ordered, readable


def _finding(fid: str, severity: str, start: int | None, **extra: Any) -> dict[str, Any]:
    cites = []
    if start is not None:
        cites = [{"status": "verified", "text": "the quoted words here", "start": start, "end": start + 21}]
    f = {
        "id": fid,
        "rule": "limitation_of_liability",
        "title": "Limitation of liability",
        "severity": severity,
        "outcome": "unacceptable",
        "status": "verified",
        "evidence": "quote" if start is not None else "absence",
        "claim": "A claim.",
        "citations": cites,
    }
    f.update(extra)
    return f


def _data(findings: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "review": {"id": 1, "playbook": {"id": "pb", "version": "1", "sha256": "0" * 64}},
        "document": {"name": "c.docx", "text_sha256": "1" * 64},
        "summary": {},
        "findings": findings,
    }


def test_ordered_is_severity_then_document_order() -> None:
    """A later-numbered finding earlier in the document comes first within its severity; absences last."""
    fs = [
        _finding("F1", "high", 900),
        _finding("F2", "critical", 500),
        _finding("F3", "high", 100),
        _finding("F4", "high", None),
        _finding("F5", "info", 0),
    ]
    assert [f["id"] for f in ordered(fs)] == ["F2", "F3", "F1", "F4", "F5"]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        # predicate notation and the values tail are the engine's evidence, not prose
        (
            "the cap is below six months' fees [cap_months lt 6]; values: cap_months: 3 (“three (3) months”)",
            "the cap is below six months' fees",
        ),
        # snake_case tokens become words
        (
            "carve-outs are gross_negligence, wilful_misconduct.",
            "carve-outs are gross negligence, wilful misconduct.",
        ),
        # a regular expression is dropped
        (r"searched for \bcap\w* in the text", "searched for in the text"),
        # plain prose is untouched
        ("The Supplier's liability is uncapped.", "The Supplier's liability is uncapped."),
    ],
    ids=["predicate", "snake", "regex", "prose"],
)
def test_readable(raw: str, expected: str) -> None:
    assert readable(raw) == expected


def test_memo_and_table_show_no_tokens_and_keep_order() -> None:
    fs = [
        _finding(
            "F1", "high", 900, claim="carve-outs are gross_negligence", outcome="referenced_not_provided"
        ),
        _finding("F2", "high", 100, rationale="below [cap_months lt 6]"),
    ]
    for text in (render_markdown(_data(fs)), render_table(_data(fs))):
        prose = text.replace("c.docx", "")
        assert not re.search(r"\b[a-z]+_[a-z]+\b", prose.replace("\\_", "_")), prose
        assert "[cap_months" not in prose
        assert prose.index("F2") < prose.index("F1")
