"""`citationgate check-answer` and `citationgate ledger`.

check-answer puts the verified record between a drafting step and delivery: every quoted passage of
the answer must be a sub-span of a verified quote under the citation written against it, or the
answer is withheld (exit 1) with every failure listed, its reason, and the verified text it should
have used. ledger shows, one row per atomic claim, which claims a review's passages support and what
to do about the rest.
"""

from __future__ import annotations

import csv
import io
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from citationgate.api import check_answer_run
from citationgate.cli.app import EXIT_GATE, DbOption, Format, app, emit_json, fail, info
from citationgate.escape import csv_cell, markdown
from citationgate.untrusted import read_json_file
from ingest.errors import CorruptFileError, MissingFileError

if TYPE_CHECKING:  # the answer checker, the ledger and the store load when a command runs, not for --help
    from citationgate.answers import AnswerCheck, PassageCheck
    from citationgate.ledger import LedgerRow
    from citationgate.store import Store
    from ingest.document import Document

EXIT_USAGE = 2


class LedgerFormat(StrEnum):
    table = "table"
    json = "json"
    csv = "csv"
    md = "md"


def read_answer(path: Path) -> str:
    """The answer's text (UTF-8). A missing, unreadable, non-UTF-8 or empty file is exit 3."""
    name = path.name
    if not path.is_file():
        raise MissingFileError(f"{name}: no such file")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise MissingFileError(f"{name}: cannot be read ({exc.strerror})") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CorruptFileError(f"{name}: not UTF-8 text (byte {exc.start})") from None
    if not text.strip():
        raise CorruptFileError(f"{name}: the answer is empty")
    return text


def read_findings_file(path: Path) -> object:
    """Decode a findings JSON file (`verify`/`review`/`findings --format json` output)."""
    from citationgate.answers import FindingsError

    return read_json_file(path, error=FindingsError)


def _document_by_text_sha(store: Store, data: object) -> Document | None:
    """The stored version a findings file names by `document.text_sha256`, if it is in the store."""
    if not isinstance(data, dict):
        return None
    sha = (data.get("document") or {}).get("text_sha256") if isinstance(data.get("document"), dict) else None
    if not isinstance(sha, str):
        return None
    for v in store.list_versions():
        if v["text_sha256"] == sha:
            return store.get_version(int(v["id"])).document
    return None


@app.command("check-answer")
def check_answer_command(
    answer: Annotated[Path, typer.Argument(metavar="ANSWER", help="The answer: Markdown or plain text.")],
    review: Annotated[
        int | None, typer.Option("--review", metavar="REVIEW_ID", help="Check against a stored review.")
    ] = None,
    findings_file: Annotated[
        Path | None,
        typer.Option(
            "--findings", metavar="FINDINGS.json", help="Check against findings JSON (verify/review output)."
        ),
    ] = None,
    doc: Annotated[
        Path | None,
        typer.Option(
            "--doc", help="The contract, with --findings: resolves clause references and unread words."
        ),
    ] = None,
    fmt: Annotated[Format, typer.Option("--format", help="table or json.")] = Format.table,
    db: DbOption = None,
) -> None:
    """Check every quoted passage of an answer against the verified record; withhold it if any fails.

    Each failure is listed with its reason and the verified text to use instead.

    Exit codes: 0 every passage verified; 1 withheld; 2 neither or both of --review/--findings;
    3 unreadable ANSWER; 4 malformed findings JSON; 6 unknown review.
    """
    if (review is None) == (findings_file is None):
        fail("give exactly one of --review REVIEW_ID or --findings FINDINGS.json", code=EXIT_USAGE)
    from citationgate.answers import parse_findings
    from citationgate.store import Store
    from citationgate.versions import read_file

    text = read_answer(answer)
    store = Store.open(db)
    document: Document | None = None
    findings = None
    source = None
    if review is not None:
        if doc is not None:
            used = store.get_review(review).version.document.name
            info(f"--doc {doc.name} is not used with --review: the review's own version is ({used})")
    else:
        assert findings_file is not None
        data = read_findings_file(findings_file)
        findings = parse_findings(data, source=findings_file.name)
        source = findings_file.name
        if doc is not None:
            document = read_file(store, doc).document  # read or reused; only the audit entry is written
        else:
            document = _document_by_text_sha(store, data)
            if document is None:
                info(
                    "no document: clause references resolve only through the findings' section labels, "
                    "and words outside every verified quote count as `nowhere` (pass --doc FILE)"
                )
    result, data_out = check_answer_run(
        text, review, findings=findings, document=document, store=store, name=answer.name, source=source
    )
    if fmt is Format.json:
        emit_json(data_out)
    else:
        for line in render_check(answer.name, result):
            typer.echo(line)
    if result.verdict != "pass":
        raise typer.Exit(EXIT_GATE)


def render_check(name: str, result: AnswerCheck) -> list[str]:
    """The table view: verdict, then each passage with its status, citation and, for a failure,
    the reason and the verified text to use instead."""
    n, bad = len(result.passages), len(result.failures)
    if result.verdict == "pass":
        head = f"{name}: PASS — {n} quoted passage(s), every one inside a verified quote under its citation"
    else:
        head = f"{name}: WITHHELD — {bad} of {n} quoted passage(s) fail"
    lines = [head]
    for p in result.passages:
        lines.extend(_render_passage(p))
    if result.claims:
        lines.append("")
        lines.append("claims (cited sentences, split into atomic claims):")
        for r in result.claims:
            lines.append(f"  {r.id:<7} {r.support.value:<12} {_clip(r.claim, 70)}")
            if r.support.value != "supported":
                lines.append(f"          {r.explanation}")
    for note in result.notes:
        lines.append(f"note: {note}")
    return lines


def _render_passage(p: PassageCheck) -> list[str]:
    cite = f"{p.citation.text} ({p.citation_source})" if p.citation else "no citation"
    mark = "ok  " if p.passed else "FAIL"
    out = [
        f"  {mark} {p.passage.index:>2}. {p.status.value:<21} line {p.passage.line:<4} "
        f"“{_clip(p.passage.text, 60)}”  {cite}"
    ]
    if not p.passed:
        out.append(f"          why: {p.reason}")
        for s in p.should_use:
            out.append(f"          use: “{_clip(s.text, 90)}” {s.cite()}")
    for f in p.flags:
        out.append(f"          flag: {f}")
    return out


def _clip(s: str, n: int) -> str:
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 1] + "…"


# ── ledger ───────────────────────────────────────────────────────────────────────────────────────
_CSV_FIELDS = (
    "id",
    "source",
    "claim",
    "support",
    "action",
    "authority",
    "explanation",
    "proposed",
    "rejected",
    "passages",
)


def _passages_cell(r: LedgerRow) -> str:
    return "; ".join(f"{p.finding} [{p.start}, {p.end}) {p.section or ''}".strip() for p in r.passages)


@app.command("ledger")
def ledger_command(
    review_id: Annotated[
        int, typer.Argument(metavar="REVIEW_ID", help="A stored review (see `findings --list`).")
    ],
    fmt: Annotated[
        LedgerFormat, typer.Option("--format", help="table, json, csv or md.")
    ] = LedgerFormat.table,
    db: DbOption = None,
) -> None:
    """The claim-support ledger of a review: one row per atomic claim, with its passages, a support
    label (supported | partial | unsupported | unverifiable), the words at issue, what to do about
    it (keep | narrow | remove | review) and the source's authority."""
    from citationgate.ledger import build_ledger, summarize
    from citationgate.store import Store

    store = Store.open(db)
    record = store.get_review(review_id)
    document = record.version.document
    rows = build_ledger(record.findings, document=document)
    counts = summarize(rows)
    rejected = sum(1 for f in record.findings if f.get("status") == "rejected")
    skipped = f"{rejected} rejected finding(s) left out: they never surface" if rejected else ""
    if fmt is LedgerFormat.json:
        emit_json(
            {
                "review": {"id": record.id, "kind": record.kind},
                "document": {"name": document.name, "text_sha256": document.text_sha256},
                "rows": [r.to_dict() for r in rows],
                "summary": counts,
                "rejected_findings": rejected,
            }
        )
        return
    if fmt is LedgerFormat.csv:
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=list(_CSV_FIELDS), lineterminator="\n")
        writer.writeheader()
        for r in rows:
            d: dict[str, Any] = r.to_dict()
            writer.writerow(
                {k: csv_cell(_passages_cell(r) if k == "passages" else d.get(k) or "") for k in _CSV_FIELDS}
            )
        typer.echo(buf.getvalue(), nl=False)
        return
    if fmt is LedgerFormat.md:
        typer.echo(f"# Claim-support ledger — review {record.id} ({_md(document.name)})\n")
        typer.echo("| id | claim | support | action | authority | explanation | passages |")
        typer.echo("|---|---|---|---|---|---|---|")
        for r in rows:
            expl = r.explanation + (f" Proposed: “{r.proposed}”." if r.proposed else "")
            typer.echo(
                f"| {r.id} | {_md(r.claim)} | {r.support.value} | {r.action} | {r.authority} | "
                f"{_md(expl)} | {_md(_passages_cell(r))} |"
            )
        typer.echo("\n" + ", ".join(f"{k}: {v}" for k, v in counts.items()))
        if skipped:
            typer.echo(f"\n{skipped}.")
        return
    typer.echo(f"ledger of review {record.id} ({record.kind})  {document.name}  {len(rows)} atomic claim(s)")
    for r in rows:
        typer.echo(f"  {r.id:<8} {r.support.value:<12} {r.action:<7} {r.authority:<11} {_clip(r.claim, 64)}")
        if r.support.value != "supported":
            typer.echo(f"           {r.explanation}")
        if r.proposed:
            typer.echo(f"           proposed: “{r.proposed}”  (rejected: “{r.rejected}”)")
    typer.echo(", ".join(f"{k}: {v}" for k, v in counts.items()))
    if skipped:
        info(skipped)


def _md(s: str) -> str:
    return markdown(s)
