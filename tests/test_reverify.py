"""Re-verification after a redline: each case from a real pair of files (TXT, PDF, DOCX).

The earlier findings come from the real gate on version 1; version 2 is a real file read by the real
reader; re-verification is exact only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from fpdf import FPDF
from hypothesis import given, settings
from hypothesis import strategies as st

from citationgate.gate import gate
from citationgate.model import CitationRequest, Proposal
from citationgate.reverify import PlaybookRef, reverify
from ingest import Document, load_document
from tests.docx_fixtures import build_docx, dele, ins, p

# One contract, one clause per line; every case edits a copy of it.
V1 = [
    "MASTER SERVICES AGREEMENT",
    "1. Definitions",
    '1.1 "Confidential Information" means any information disclosed by one party to the other.',
    "1.2 The Effective Date is 1 March 2024.",
    "5. Costs",
    "5.1 Each party shall bear its own costs of negotiating this Agreement.",
    "8. Liability",
    "8.1 Neither party excludes liability for fraud or for death caused by negligence.",
    "8.2 The Supplier's total liability is capped at {amount} in aggregate. This cap applies to all claims.",
    "8.3 The Customer shall pay all invoices within 30 days of receipt.",
    "8.4 The Supplier shall indemnify the Customer against all third-party claims.",
    "9. Confidentiality",
    "9.1 The Recipient shall not disclose the Confidential Information to any third party.",
    "12. Intellectual Property",
    "12.1 The Supplier shall indemnify the Customer against third-party IP claims.",
    "14. General",
    "14.1 Each party shall bear its own costs of negotiating this Agreement.",
    "14.2 This Agreement continues for 24 months from the Effective Date.",
]

NAIRA = "₦50,000,000"
USD = "USD 50,000,000"  # PDFs are written with a core font: Latin-1 only


def _lines(amount: str) -> list[str]:
    return [ln.replace("{amount}", amount) for ln in V1]


def _write(path: Path, lines: Sequence[str]) -> Path:
    if path.suffix == ".txt":
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    elif path.suffix == ".docx":
        build_docx(path, "".join(p(ln) for ln in lines))
    else:
        pdf = FPDF()
        pdf.add_page()
        pdf.set_font("Helvetica", size=10)
        for ln in lines:
            pdf.multi_cell(0, 5, ln, new_x="LMARGIN", new_y="NEXT")
        path.write_bytes(bytes(pdf.output()))
    return path


def _pair(tmp_path: Path, ext: str, edit: Callable[[list[str]], list[str]]) -> tuple[Document, Document]:
    amount = USD if ext == ".pdf" else NAIRA
    v1 = _lines(amount)
    old = load_document(_write(tmp_path / f"v1{ext}", v1))
    new = load_document(_write(tmp_path / f"v2{ext}", edit(list(v1))))
    assert old.ready and new.ready
    return old, new


def _findings(doc: Document, *citations: Sequence[str | tuple[str, str]]) -> list[dict[str, Any]]:
    """The real gate's findings on `doc`: one finding per argument, one citation per quote."""
    proposals = []
    for n, quotes in enumerate(citations, start=1):
        reqs = tuple(
            CitationRequest(quote=q[0], section=q[1]) if isinstance(q, tuple) else CitationRequest(quote=q)
            for q in quotes
        )
        proposals.append(Proposal(id=f"p{n}", claim=f"claim {n}", citations=reqs))
    result = gate(doc, proposals, fuzzy=False)
    out = [f.to_dict() for f in result.findings]
    assert all(c["status"] == "verified" for f in out for c in f["citations"]), out
    return out


def _sub(old: str, new: str) -> Callable[[list[str]], list[str]]:
    def edit(lines: list[str]) -> list[str]:
        hits = [i for i, ln in enumerate(lines) if old in ln]
        assert hits, old
        lines[hits[0]] = lines[hits[0]].replace(old, new)
        return lines

    return edit


def _insert_line(before: str, line: str) -> Callable[[list[str]], list[str]]:
    def edit(lines: list[str]) -> list[str]:
        i = next(i for i, ln in enumerate(lines) if ln.startswith(before))
        return [*lines[:i], line, *lines[i:]]

    return edit


def _delete_line(prefix: str) -> Callable[[list[str]], list[str]]:
    def edit(lines: list[str]) -> list[str]:
        return [ln for ln in lines if not ln.startswith(prefix)]

    return edit


def _renumber_liability(lines: list[str]) -> list[str]:
    """A new clause 8.1; the old 8.1-8.4 become 8.2-8.5 (only their labels change)."""
    out = []
    for ln in lines:
        for k in (4, 3, 2, 1):
            if ln.startswith(f"8.{k} "):
                ln = f"8.{k + 1} " + ln[4:]
                break
        out.append(ln)
    i = out.index("8. Liability") + 1
    return [*out[:i], "8.1 Each party shall mitigate its losses.", *out[i:]]


FORMATS = [".txt", ".pdf", ".docx"]


def _check_slices(doc: Document, outcome: Any) -> None:
    for c in outcome.citations:
        if c.new is not None:
            assert doc.text[c.new.start : c.new.end] == c.new.text
            assert c.new.text.split() == c.old.text.split()


@pytest.mark.parametrize("ext", FORMATS)
@pytest.mark.parametrize(
    ("edit", "quote", "status", "became"),
    [
        # an amount changed inside the cited passage: stale, and the report shows the new amount
        (
            lambda ln: _sub("50,000,000", "500,000,000")(ln),
            "total liability is capped at {amount}",
            "stale",
            "500,000,000",
        ),
        # a defined term's capitalisation changed: stale (capitals mark defined terms)
        (
            _sub("disclose the Confidential Information", "disclose the confidential information"),
            "disclose the Confidential Information to any third party",
            "stale",
            "confidential information",
        ),
        # a date changed: stale
        (_sub("1 March 2024", "1 April 2024"), "The Effective Date is 1 March 2024", "stale", "1 April 2024"),
        # "not" inserted right before the quote: the quote still matches, its clause changed
        (
            _sub("shall pay all invoices", "shall not pay all invoices"),
            "pay all invoices within 30 days of receipt",
            "context_changed",
            None,
        ),
        # a carve-out added two sentences later in the same clause
        (
            _sub("applies to all claims.", "applies to all claims. It does not apply to fraud."),
            "total liability is capped at {amount}",
            "context_changed",
            None,
        ),
        # an edit in another clause shifts the offsets: still verified, at the new offsets
        (
            _sub("disclosed by one party", "disclosed in any form by one party"),
            "Neither party excludes liability for fraud",
            "verified",
            None,
        ),
        # a paragraph inserted above: the words and clause are unchanged, so verified at the new offsets
        # (the shift recorded) — "moved" is kept for a clause whose label changed
        (
            _insert_line("1. Definitions", "This Agreement is made between the parties named in the Order."),
            "Neither party excludes liability for fraud",
            "verified",
            None,
        ),
        # renumbering only: moved, with the new clause label
        (_renumber_liability, "The Customer shall pay all invoices within 30 days", "moved", None),
        # a clause deleted while a look-alike clause remains elsewhere: stale, never re-anchored
        (
            _delete_line("8.4 "),
            "The Supplier shall indemnify the Customer against all third-party claims",
            "stale",
            None,
        ),
    ],
    ids=[
        "amount",
        "defined-term",
        "date",
        "not-before",
        "carve-out",
        "shifted",
        "para-above",
        "renumbered",
        "look-alike",
    ],
)
def test_reverify_statuses(
    tmp_path: Path,
    ext: str,
    edit: Callable[[list[str]], list[str]],
    quote: str,
    status: str,
    became: str | None,
) -> None:
    """Each edit gives the status the issue names, from real files of every format."""
    amount = USD if ext == ".pdf" else NAIRA
    old, new = _pair(tmp_path, ext, edit)
    findings = _findings(old, [quote.replace("{amount}", amount)])
    result = reverify(findings, new, old=old)
    (f,) = result.findings
    assert f.status == status, f.reason
    (c,) = f.citations
    _check_slices(new, f)
    if status == "stale":
        assert c.new is None
        if became is not None:
            assert c.became is not None and became in c.became
            assert became in f.reason
    else:
        assert c.new is not None
        assert c.to_dict()["shift"] == c.new.start - (c.old.start or 0)
    assert result.audit and all(e.document_sha256 == new.text_sha256 for e in result.audit)


def test_renumbered_reports_the_new_label(tmp_path: Path) -> None:
    """Renumbering 8.3 → 8.4: moved, and the citation's new section is 8.4."""
    old, new = _pair(tmp_path, ".txt", _renumber_liability)
    findings = _findings(old, ["The Customer shall pay all invoices within 30 days"])
    (f,) = reverify(findings, new, old=old).findings
    (c,) = f.citations
    assert (f.status, c.old.section, c.new.section if c.new else None) == ("moved", "8.3", "8.4")
    assert "8.3 → 8.4" in f.reason


def test_naira_one_zero_apart_is_stale_not_reanchored(tmp_path: Path) -> None:
    """₦50,000,000 → ₦500,000,000: one character apart, and the finding goes stale."""
    old, new = _pair(tmp_path, ".txt", _sub("₦50,000,000", "₦500,000,000"))
    findings = _findings(old, ["The Supplier's total liability is capped at ₦50,000,000 in aggregate"])
    (f,) = reverify(findings, new, old=old).findings
    (c,) = f.citations
    assert f.status == "stale" and c.new is None
    assert c.became == "The Supplier's total liability is capped at ₦500,000,000 in aggregate"
    assert [(e.old_text, e.new_text) for e in c.edits] == [("₦50,000,000", "₦500,000,000")]


def test_identical_boilerplate_is_not_reanchored_onto_the_other_copy(tmp_path: Path) -> None:
    """5.1 and 14.1 hold the same words; 5.1 cited and deleted: stale, not moved to 14.1's copy."""
    old, new = _pair(tmp_path, ".txt", _delete_line("5.1 "))
    findings = _findings(old, [("Each party shall bear its own costs of negotiating this Agreement", "5.1")])
    assert findings[0]["citations"][0]["section"] == "5.1"
    (f,) = reverify(findings, new, old=old).findings
    assert f.status == "stale", f.reason
    assert "another clause's copy" in f.reason


def test_repeated_passage_keeps_its_own_copy(tmp_path: Path) -> None:
    """The 14.1 copy cited; a paragraph inserted above: re-anchored to 14.1's copy, not the first one."""
    old, new = _pair(
        tmp_path, ".txt", _insert_line("1. Definitions", "This Agreement is made between the parties.")
    )
    findings = _findings(old, [("Each party shall bear its own costs of negotiating this Agreement", "14.1")])
    (f,) = reverify(findings, new, old=old).findings
    (c,) = f.citations
    assert f.status == "verified" and "1 paragraph inserted above it" in f.reason  # only the offsets moved
    assert c.new is not None and c.new.section == "14.1"
    assert c.new.start == new.text.rindex("Each party shall bear")


def test_several_citations_verified_while_one_holds(tmp_path: Path) -> None:
    """One of two citations went stale: the finding stays verified and names the stale one."""
    old, new = _pair(tmp_path, ".txt", _sub("₦50,000,000", "₦500,000,000"))
    findings = _findings(
        old, ["Neither party excludes liability for fraud", "total liability is capped at ₦50,000,000"]
    )
    (f,) = reverify(findings, new, old=old).findings
    assert f.status == "verified"
    assert [c.status for c in f.citations] == ["verified", "stale"]
    assert f.to_dict()["stale_citations"] == [1]
    assert "went stale: citation 2" in f.reason


def test_all_citations_stale_makes_the_finding_stale(tmp_path: Path) -> None:
    """Every citation gone: the finding is stale."""
    old, new = _pair(tmp_path, ".txt", _sub("₦50,000,000", "₦500,000,000"))
    findings = _findings(old, ["capped at ₦50,000,000 in aggregate", "liability is capped at ₦50,000,000"])
    (f,) = reverify(findings, new, old=old).findings
    assert f.status == "stale" and "every citation went stale" in f.reason


def test_redlined_docx_views_are_the_two_versions(tmp_path: Path) -> None:
    """One redlined DOCX: its original view reads as v1, its accepted view as v2."""
    lines = _lines(NAIRA)
    v1 = load_document(_write(tmp_path / "v1.docx", lines))
    v2_lines = _sub("₦50,000,000", "₦500,000,000")(_sub("shall pay", "shall not pay")(list(lines)))
    v2 = load_document(_write(tmp_path / "v2.docx", v2_lines))
    body = ""
    for ln in lines:
        if "₦50,000,000" in ln:
            a, b = ln.split("₦50,000,000")
            body += p(a, dele("₦50,000,000"), ins("₦500,000,000"), b)
        elif "shall pay" in ln:
            a, b = ln.split("shall pay")
            body += p(a + "shall ", ins("not "), "pay" + b)
        else:
            body += p(ln)
    redline = build_docx(tmp_path / "redline.docx", body)
    original = load_document(redline, view="original")
    accepted = load_document(redline, view="accepted")
    assert original.text == v1.text
    assert accepted.text == v2.text
    findings = _findings(
        original, ["total liability is capped at ₦50,000,000"], ["pay all invoices within 30 days of receipt"]
    )
    result = reverify(findings, accepted, old=original)
    assert [f.status for f in result.findings] == ["stale", "context_changed"]


@pytest.mark.parametrize(
    ("edit", "status"),
    [
        # untouched: verified at the same offsets
        (lambda ln: ln, "verified"),
        # the amount changed: stale, with what the passage became
        (_sub("₦50,000,000", "₦500,000,000"), "stale"),
        # "not" inserted just before the quote: the JSON's prefix shows the change
        (_sub("shall pay all invoices", "shall not pay all invoices"), "context_changed"),
        # renumbered: moved, new label
        (_renumber_liability, "moved"),
    ],
    ids=["unchanged", "amount", "not-before", "renumbered"],
)
def test_without_the_old_document(
    tmp_path: Path, edit: Callable[[list[str]], list[str]], status: str
) -> None:
    """From findings JSON alone (no old text): the same verdicts on the cases the JSON can decide."""
    old, new = _pair(tmp_path, ".txt", edit)
    quote = {
        "verified": "Neither party excludes liability for fraud",
        "stale": "total liability is capped at ₦50,000,000",
        "context_changed": "pay all invoices within 30 days of receipt",
        "moved": "The Customer shall pay all invoices within 30 days",
    }[status]
    (f,) = reverify(_findings(old, [quote]), new).findings
    assert f.status == status, f.reason
    if status == "stale":
        assert f.citations[0].became is not None and "₦500,000,000" in f.citations[0].became
    _check_slices(new, f)


def test_absence_without_playbook_stays_open(tmp_path: Path) -> None:
    """An absence finding with no playbook on record stays open and says why."""
    old, new = _pair(tmp_path, ".txt", lambda ln: ln)
    absence = {
        "id": "F9",
        "status": "needs_review",
        "evidence": "absence",
        "rule": "governing_law",
        "citations": [],
    }
    (f,) = reverify([absence], new, old=old).findings
    assert f.status == "open" and "no playbook" in f.reason


def test_absence_resolved_when_the_clause_arrives(tmp_path: Path) -> None:
    """With the review's playbook, a governing-law clause added in v2 resolves the absence finding."""
    old, new = _pair(
        tmp_path,
        ".txt",
        lambda ln: [
            *ln,
            "15. Governing Law",
            "15.1 This Agreement is governed by the laws of England and Wales.",
        ],
    )
    absence = {
        "id": "F9",
        "status": "needs_review",
        "evidence": "absence",
        "rule": "governing_law",
        "citations": [],
    }
    pb = PlaybookRef(id="msa-customer")
    (f,) = reverify([absence], new, old=old, playbook=pb).findings
    assert f.status == "resolved", f.reason
    assert f.resolution is not None and "governed by the laws of England and Wales" in f.resolution.text
    assert new.text[f.resolution.start : f.resolution.end] == f.resolution.text
    (g,) = reverify([absence], old, old=old, playbook=pb).findings
    assert g.status == "open"


def test_withheld_new_version_is_refused(tmp_path: Path) -> None:
    """Nothing is re-verified against a withheld version."""
    from dataclasses import replace

    from citationgate.errors import WithheldDocumentError

    old, new = _pair(tmp_path, ".txt", lambda ln: ln)
    withheld = replace(new, status="withheld", reasons=("fidelity 0.80 below 0.995",))
    with pytest.raises(WithheldDocumentError, match="withheld"):
        reverify(_findings(old, ["Neither party excludes liability for fraud"]), withheld, old=old)


def load_document_text(text: str) -> Document:
    from ingest.plain import load_text

    return load_text(Path("locator.txt"), text.encode("utf-8"))


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=100_000))
def test_property_stale_exactly_when_the_words_are_gone(seed: int) -> None:
    """Property: after random word edits, a citation is stale iff its exact words are gone, and every
    re-anchored citation slices to its own words in the new text."""
    import random

    rng = random.Random(seed)
    counter = iter(range(10**6))
    paras = [
        f"{k}. " + " ".join(f"w{next(counter):05d}" for _ in range(rng.randint(6, 20))) + "."
        for k in range(1, 12)
    ]
    old = load_document_text("\n".join(paras) + "\n")
    new_paras = []
    for para in paras:
        words = para.split()
        if rng.random() < 0.4:
            i = rng.randrange(1, len(words))
            op = rng.choice(["insert", "delete", "replace"])
            if op == "insert":
                words.insert(i, "not")
            elif op == "delete" and len(words) > 3:
                del words[i]
            else:
                words[i] = words[i] + "x"
        if rng.random() < 0.1:
            new_paras.append("An inserted paragraph.")
        new_paras.append(" ".join(words))
    new = load_document_text("\n".join(new_paras) + "\n")
    quotes = []
    for para in paras:
        words = para.split()[1:]
        k = rng.randint(2, len(words))
        i = rng.randrange(0, len(words) - k + 1)
        quotes.append([" ".join(words[i : i + k])])
    findings = _findings(old, *quotes)
    result = reverify(findings, new, old=old)
    for f, (q,) in zip(result.findings, quotes, strict=True):
        (c,) = f.citations
        gone = q not in " ".join(new.text.split())
        assert (c.status == "stale") == gone, (q, f.reason)
        if c.new is not None:
            assert new.text[c.new.start : c.new.end] == c.new.text
            assert c.new.text.split() == q.split()


class _PagedContract(FPDF):
    """Running header and a 'Page n of N' footer: page furniture the PDF reader marks."""

    def header(self) -> None:
        self.set_font("Helvetica", size=8)
        self.cell(0, 6, "ACME Master Services Agreement - Confidential", new_x="LMARGIN", new_y="NEXT")

    def footer(self) -> None:
        self.set_y(-15)
        self.set_font("Helvetica", size=8)
        self.cell(0, 6, f"Page {self.page_no()} of {{nb}}", align="C")


_TOPICS = ["delivery", "acceptance", "payment", "warranty", "liability", "termination", "audit", "notices"]


def _paged_pdf(path: Path, *, extra_page: bool) -> Document:
    pdf = _PagedContract()
    pdf.alias_nb_pages()
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    for i, topic in enumerate(_TOPICS, start=1):
        pdf.multi_cell(0, 6, f"{i}. {topic.title()}", new_x="LMARGIN", new_y="NEXT")
        body = " ".join(
            f"Sentence {k} about {topic} binds the party named in clause {i}." for k in range(1, 12)
        )
        pdf.multi_cell(0, 6, f"{i}.1 {body}", new_x="LMARGIN", new_y="NEXT")
    if extra_page:
        pdf.add_page()
        pdf.multi_cell(
            0,
            6,
            "9. Schedules\n9.1 The schedules form part of this Agreement.",
            new_x="LMARGIN",
            new_y="NEXT",
        )
    path.write_bytes(bytes(pdf.output()))
    return load_document(path)


def test_new_page_count_in_the_footer_is_not_a_clause_change(tmp_path: Path) -> None:
    """A redline that adds a page renumbers every 'Page n of N': quotes in clauses that run across a
    page break stay verified, not context_changed."""
    old = _paged_pdf(tmp_path / "v1.pdf", extra_page=False)
    new = _paged_pdf(tmp_path / "v2.pdf", extra_page=True)
    assert "of 2" in old.text and "of 3" in new.text
    # a clause whose paragraph is split by the page break: quote its words before the break
    footer = old.text.index("Page 1 of 2")
    clause = old.section_at(footer - 1)
    assert clause is not None
    # the last whole sentence before the break: "Sentence 3 about termination binds … clause 6."
    last = old.text.rindex("Sentence", clause.start, old.text.rindex("Sentence", clause.start, footer))
    quote = " ".join(old.text[last:footer].split()[:5])
    findings = _findings(old, [quote])
    (f,) = reverify(findings, new, old=old).findings
    assert f.status == "verified", f.reason


@pytest.mark.data
def test_real_contracts_stale_exactly_when_the_words_are_gone(shared_data: Path, tmp_path: Path) -> None:
    """On real contracts (CUAD), with seeded edits — a number changed, 'not' inserted, a paragraph
    added — a citation is stale exactly when the gate's exact mode no longer finds its words, and every
    re-anchored citation slices to its own words."""
    import json
    import random

    from citationgate.locate import QuoteIndex

    records = [
        json.loads(line) for line in (shared_data / "cuad" / "annotations.jsonl").open(encoding="utf-8")
    ]
    records.sort(key=lambda r: r["id"])
    for record in records[:10]:
        rng = random.Random(record["id"])
        path = shared_data / "cuad" / record["text_file"]
        old = load_document(path)
        lines = old.text.split("\n")
        long_lines = [i for i, ln in enumerate(lines) if len(ln.split()) >= 14]
        if len(long_lines) < 6:
            continue
        picked = rng.sample(long_lines, 6)
        quotes = []
        for i in picked:
            words = lines[i].split()
            k = rng.randint(8, min(16, len(words)))
            j = rng.randrange(0, len(words) - k + 1)
            quotes.append(" ".join(words[j : j + k]))
        new_lines = list(lines)
        for n, i in enumerate(picked[:4]):
            words = new_lines[i].split(" ")
            if n % 2 == 0:
                digits = [w for w, t in enumerate(words) if any(ch.isdigit() for ch in t)]
                w = digits[0] if digits else rng.randrange(len(words))
                words[w] = words[w] + "0"
            else:
                words.insert(rng.randrange(1, len(words)), "not")
            new_lines[i] = " ".join(words)
        new_lines.insert(rng.randrange(len(new_lines)), "This paragraph was added in the redline.")
        v2 = tmp_path / f"{record['id']}-v2.txt"
        v2.write_text("\n".join(new_lines), encoding="utf-8")
        new = load_document(v2)
        result = gate(
            old,
            [
                Proposal(id=f"p{n}", claim="c", citations=(CitationRequest(quote=q),))
                for n, q in enumerate(quotes)
            ],
            fuzzy=False,
        )
        findings = [f.to_dict() for f in result.findings if f.citations[0].verified]
        index = QuoteIndex(new.text)
        outcomes = reverify(findings, new, old=old).findings
        for f in outcomes:
            (c,) = f.citations
            gone = not index.find_exact(c.old.text or "")
            assert (c.status == "stale") == gone, (record["id"], c.old.text, f.reason)
            if c.new is not None:
                assert new.text[c.new.start : c.new.end] == c.new.text
                assert c.new.text.split() == (c.old.text or "").split()
