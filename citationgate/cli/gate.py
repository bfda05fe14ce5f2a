"""`citationgate verify`, `citationgate findings` and `citationgate audit`.

What appears in quotation marks in the table output is always the document's own text at the
verified offsets (whitespace runs shown as one space); a proposer's wording is never quoted.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from citationgate.api import record_json, verification_json, verify_run, verify_unstored
from citationgate.cli.app import (
    EXIT_GATE,
    DbOption,
    Format,
    NoStoreOption,
    ReportFormat,
    app,
    emit_json,
    end_at_once,
    fail,
    few_collections,
    info,
)
from citationgate.errors import ProposalError
from citationgate.escape import markdown
from citationgate.untrusted import read_json_file

if TYPE_CHECKING:
    from citationgate.store import Store

# The store (SQLAlchemy), the proposals' models (pydantic) and the gate (numpy, rapidfuzz) are imported by
# the command that uses them, so `citationgate audit --help` loads none of them.

EXIT_AUDIT = 7
_DELIVERABLES = (ReportFormat.html, ReportFormat.csv, ReportFormat.issues_docx, ReportFormat.docx)


def read_proposals_file(path: Path) -> object:
    """Decode a proposals file; errors name the file (`ProposalError`, exit 4)."""
    return read_json_file(path, error=ProposalError)


@app.command()
def verify(
    proposals_file: Annotated[
        Path, typer.Argument(metavar="PROPOSALS.json", help="Proposals from an outside agent (JSON).")
    ],
    doc: Annotated[Path, typer.Option("--doc", help="The contract the proposals are about.")],
    fmt: Annotated[Format, typer.Option("--format", help="table or json.")] = Format.table,
    strict: Annotated[
        bool, typer.Option("--strict", help="Exit 1 if any finding was rejected (for pipelines).")
    ] = False,
    no_store: NoStoreOption = False,
    db: DbOption = None,
) -> None:
    """Gate an outside agent's proposals: every quote located verbatim at real offsets, or rejected.

    Ingests the document (or reuses the stored version with the same bytes), verifies every
    citation, stores the result as a review with its audit entries, and prints the findings.
    Exits 4 for malformed proposals, 5 for a withheld document, 1 with --strict when anything was
    rejected.
    """
    end_at_once()  # every transaction closes its connection; nothing else is opened (`citationgate.cli.run`)
    with few_collections():  # it keeps nearly everything it makes until it ends
        _verify(proposals_file, doc, fmt=fmt, strict=strict, no_store=no_store, db=db)


def _verify(
    proposals_file: Path, doc: Path, *, fmt: Format, strict: bool, no_store: bool, db: str | None
) -> None:
    from citationgate.proposals import parse_proposals
    from citationgate.verification import status_counts

    # the file itself must be the documented object (the library also takes a bare list)
    data = parse_proposals(read_proposals_file(proposals_file), source=proposals_file.name)
    if no_store:
        look = verify_unstored(doc, data, view="accepted", source=proposals_file.name)
        counts = status_counts(look["findings"])
        if fmt is Format.json:
            emit_json(look)
        else:
            d = look["document"]
            typer.echo(f"verify (not stored)  {d['name']}  sha256 {d['text_sha256'][:12]}  {d['status']}")
            for line in render_findings(look["findings"]):
                typer.echo(line)
            typer.echo(_summary_line(counts))
        if strict and counts.get("rejected", 0):
            raise typer.Exit(EXIT_GATE)
        return
    done = verify_run(
        doc, data, store=db, source=proposals_file.name, summary={"proposals_file": proposals_file.name}
    )
    document, record, findings = done.version.document, done.review, done.findings
    if done.reused:
        info(f"{document.name}: reusing stored version {done.version.id} (same bytes)")
    counts = status_counts(findings)
    if fmt is Format.json:
        emit_json(verification_json(done))
    else:
        typer.echo(
            f"review {record.id} (verify)  {document.name}  sha256 {document.text_sha256[:12]}  "
            f"{document.status}"
        )
        for line in render_findings(findings):
            typer.echo(line)
        typer.echo(_summary_line(counts))
    if strict and counts.get("rejected", 0):
        raise typer.Exit(EXIT_GATE)


@app.command()
def findings(
    review_id: Annotated[
        int | None, typer.Argument(metavar="REVIEW_ID", help="A review id (see --list).")
    ] = None,
    list_reviews: Annotated[bool, typer.Option("--list", help="List stored reviews instead.")] = False,
    given_fmt: Annotated[
        ReportFormat | None,
        typer.Option(
            "--format",
            help="table, json, md, html, issues-docx or csv. Default: from --out's extension, else table.",
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write the report to this file (its extension picks the format)."),
    ] = None,
    db: DbOption = None,
) -> None:
    """Print a stored review's findings (`findings REVIEW_ID`), or list reviews (`findings --list`)."""
    from citationgate.store import Store
    from citationgate.verification import status_counts

    fmt = given_fmt or ReportFormat.table
    store = Store.open(db)
    if list_reviews or review_id is None:
        if not list_reviews:
            fail("give a REVIEW_ID, or --list to see the stored reviews", code=2)
        rows = store.list_reviews()
        if fmt is ReportFormat.json:
            emit_json({"reviews": rows})  # = citationgate.api.list_reviews()
            return
        if not rows:
            typer.echo("No reviews stored yet. Run `citationgate verify` or `citationgate review`.")
            return
        typer.echo(f"{'id':>4}  {'kind':<9} {'document':<36} {'findings':>8}  {'playbook':<24} created")
        for r in rows:
            typer.echo(
                f"{r['id']:>4}  {r['kind']:<9} {str(r['document'])[:36]:<36} {r['findings']:>8}  "
                f"{str(r['playbook'] or '-')[:24]:<24} {r['created_at'][:19]}"
            )
        return
    record = store.get_review(review_id)
    doc = record.version.document
    if fmt in _DELIVERABLES or out is not None:  # the formats of citationgate.reports (#16)
        from citationgate.cli.review import emit
        from citationgate.reports import one_line_summary, record_data
        from citationgate.reports.deliver import deliver, resolve_format

        if fmt is ReportFormat.docx:
            fail(
                "a commented copy needs the DOCX itself: run `citationgate review FILE --format docx`", code=2
            )
        data = record_data(record)
        chosen = resolve_format(given_fmt.value if given_fmt else None, out)
        emit(deliver(chosen, data, document=doc), out, one_line_summary(data))
        return
    if fmt is ReportFormat.json:
        emit_json(record_json(record))
        return
    counts = status_counts(record.findings)
    if fmt is ReportFormat.md and record.kind == "review":  # the memo `review --format md` prints
        from citationgate.reports import record_data
        from citationgate.reports import render_markdown as review_memo

        typer.echo(review_memo(record_data(record)), nl=False)
        return
    if fmt is ReportFormat.md:
        typer.echo(f"# Review {record.id} ({record.kind}): {markdown(doc.name)}\n")
        typer.echo(f"Document SHA-256 `{doc.text_sha256}`, status {doc.status}.\n")
        for line in render_markdown(record.findings):
            typer.echo(line)
        typer.echo(f"\n{_summary_line(counts)}")
        return
    typer.echo(f"review {record.id} ({record.kind})  {doc.name}  sha256 {doc.text_sha256[:12]}  {doc.status}")
    for line in render_findings(record.findings):
        typer.echo(line)
    typer.echo(_summary_line(counts))


class AuditAction(StrEnum):
    head = "head"


@app.command()
def audit(
    action: Annotated[
        AuditAction | None,
        typer.Argument(metavar="[head]", help="`head`: print the chain's head hash and entry count."),
    ] = None,
    check: Annotated[
        bool, typer.Option("--check", help="Verify the hash chain; exit 7 at the first broken link.")
    ] = False,
    expect: Annotated[
        str | None,
        typer.Option(
            "--expect",
            metavar="HEAD",
            help="With --check: a head printed earlier (HASH or HASH:COUNT) that must still be in the chain.",
        ),
    ] = None,
    migrate: Annotated[
        bool,
        typer.Option(
            "--migrate",
            help="Re-seal a chain written before entries were numbered, once it verifies under the rule it "
            "was written with (exit 7, nothing changed, if it does not).",
        ),
    ] = False,
    fmt: Annotated[Format, typer.Option("--format", help="table or json.")] = Format.table,
    limit: Annotated[int | None, typer.Option("--limit", min=1, help="Show only the last N entries.")] = None,
    db: DbOption = None,
) -> None:
    """List the audit log (every gate decision), print its head, or check that its hash chain is intact.

    The check covers the record the chain speaks for too (every review's findings, summary and document
    text). Keep the head `audit head` prints (or the `audit_head` a review prints) somewhere the database's
    users cannot write, and check against it later with `--check --expect HEAD`: a chain cut short or
    rewritten then fails. Set CITATIONGATE_AUDIT_KEY to make every hash an HMAC under that secret.

    A database written by the first releases fails the check at entry 1: `--migrate` verifies its chain
    under the old rule, re-seals it under the current one and records that in the chain itself.
    """
    from citationgate.store import Store

    store = Store.open(db)
    if expect is not None and not check:
        raise typer.BadParameter("--expect needs --check", param_hint="--expect")
    if migrate:
        if check or action is not None:
            raise typer.BadParameter("--migrate runs alone (then `audit --check`)", param_hint="--migrate")
        _migrate(store, fmt)
        return
    if action is AuditAction.head:
        head = store.head()
        if fmt is Format.json:
            emit_json(head.to_dict())
        else:
            typer.echo(f"{head.hash}:{head.entries}")
        return
    if check:
        count, broken = store.check_audit(expect=expect)
        if fmt is Format.json:
            emit_json(
                {
                    "intact": broken is None,
                    "entries": count,
                    "broken_at": broken.entry_id if broken else None,
                    "reason": broken.reason if broken else None,
                }
            )
            if broken is not None:
                raise typer.Exit(EXIT_AUDIT)
            return
        if broken is not None:
            where = f" at entry {broken.entry_id}" if broken.entry_id is not None else ""
            fail(f"audit chain broken{where}: {broken.reason}", code=EXIT_AUDIT)
        typer.echo(f"audit chain intact: {count} entries")
        return
    entries = store.audit_entries(limit=limit)
    if fmt is Format.json:
        emit_json({"entries": entries})
        return
    if not entries:
        typer.echo("The audit log is empty.")
        return
    typer.echo(f"{'id':>5}  {'at':<19}  {'action':<9} {'result':<12} {'actor':<20} {'proposal':<10} reason")
    for e in entries:
        proposal = str(e["payload"].get("proposal_id", "")) if isinstance(e["payload"], dict) else ""
        typer.echo(
            f"{e['id']:>5}  {e['at'][:19]:<19}  {e['action']:<9} {e['result']:<12} "
            f"{e['actor'][:20]:<20} {proposal[:10]:<10} {_one_line(e['reason'], 90)}"
        )


def _migrate(store: Store, fmt: Format) -> None:
    done = store.migrate_audit()  # a chain broken under its own rule: AuditChainError, exit 7
    if fmt is Format.json:
        emit_json(done.to_dict())
        return
    if not done.resealed:
        typer.echo(
            f"audit chain already sealed under the current rule ({done.head.entries} entries): nothing to do"
        )
        return
    before = done.head_before
    typer.echo(
        f"audit chain re-sealed: {done.resealed} entries verified under the rule they were written with "
        f"({done.legacy} under the first releases' rule) and numbered under the current one; "
        f"{done.sealed_reviews} older reviews sealed; entry {done.head.entries} records the migration"
    )
    if before is not None:
        typer.echo(f"head before: {before.hash}:{before.entries} (kept in the migration entry)")
    typer.echo(f"head now:    {done.head.hash}:{done.head.entries} (export this one)")


# ── rendering (over finding dicts, so stored reviews print the same way) ─────────────────────────
_MARK = {"verified": "✓", "ambiguous": "?", "failed": "✗", "rejected": "✗", "unverifiable": "…"}


def _summary_line(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in counts.items() if n or k != "needs_review")


def _one_line(text: str, width: int | None = None) -> str:
    flat = " ".join(str(text).split())
    if width is not None and len(flat) > width:
        return flat[: width - 1] + "…"
    return flat


def _where(c: Mapping[str, Any]) -> str:
    section = c.get("section")
    page = c.get("page")
    sec = f"§ {section}" if section else "§ -"
    pg = f"p. {page}" if page is not None else "p. n/a"
    return f"{sec}  {pg}  [{c.get('start')}, {c.get('end')})"


def render_findings(findings: Sequence[Mapping[str, Any]]) -> Iterator[str]:
    """Terminal lines for findings: status, then each citation with the document's own words."""
    for f in findings:
        yield ""
        pid = f.get("proposal_id")
        shown = f"{f.get('id')} ({pid})" if pid and pid != f.get("id") else str(f.get("id"))
        head = f"{shown}  {str(f.get('status')).upper():<12} supervision {f.get('supervision')}"
        if f.get("rule"):
            head += f"  rule {f['rule']}"
        if f.get("severity"):
            head += f"  severity {f['severity']}"
        yield head
        yield f"    claim: {_one_line(str(f.get('claim', '')))}"
        if f.get("evidence") == "absence":
            searched = f.get("searched") or {}
            yield "    evidence: ABSENCE — not quote-verified"
            yield f"    requirement: {searched.get('requirement', '')}"
            yield f"    searched: {', '.join(searched.get('searched', [])) or '(nothing stated)'}"
            continue
        citations = f.get("citations") or []
        if not citations:
            yield f"    {f.get('reason')}"
        for c in citations:
            status = str(c.get("status"))
            mark = _MARK.get(status, "-")
            if c.get("text") is not None:
                yield f"    {mark} {status} ({c.get('match')})  {_where(c)}"
                yield f'      "{_one_line(str(c["text"]))}"'
            elif status == "ambiguous":
                occ = c.get("occurrences") or []
                yield f"    {mark} ambiguous: {len(occ)} occurrences, pinpoint ambiguous"
                for o in occ[:5]:
                    yield f"      at {_where(o)}"
                if len(occ) > 5:
                    yield f"      … {len(occ) - 5} more"
            else:
                yield f"    {mark} {status}: {_one_line(str(c.get('reason', '')))}"
                yield f"      proposed (not the document's words): {_one_line(str(c.get('quote', '')), 100)}"
            for flag in c.get("flags") or []:
                yield f"      flag: {flag}"


def render_markdown(findings: Sequence[Mapping[str, Any]]) -> Iterator[str]:
    """Markdown for findings; the quoted text is the document's own words."""
    for f in findings:
        pid = f.get("proposal_id")
        shown = f"{f.get('id')} ({pid})" if pid and pid != f.get("id") else str(f.get("id"))
        yield f"## {markdown(shown)} — {f.get('status')} (supervision {f.get('supervision')})\n"
        yield f"{markdown(str(f.get('claim', '')))}\n"
        if f.get("evidence") == "absence":
            searched = f.get("searched") or {}
            terms = ", ".join(markdown(str(t)) for t in searched.get("searched", []))
            yield "**Absence finding — not quote-verified.** "
            yield f"Searched for {markdown(str(searched.get('requirement', '')))}: {terms}.\n"
            continue
        for c in f.get("citations") or []:
            if c.get("text") is not None:
                yield f"- {c.get('status')} ({c.get('match')}), {markdown(_where(c))}:"
                yield f"  > {markdown(str(c['text']))}"
            else:
                yield f"- {c.get('status')}: {markdown(str(c.get('reason', '')))}"
            for flag in c.get("flags") or []:
                yield f"  - flag: {markdown(str(flag))}"
        yield ""
