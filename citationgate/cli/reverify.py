"""`citationgate reverify` (every earlier finding against a new version) and `citationgate diff`.

`reverify REVIEW_ID NEW_FILE` works from the store: the new file becomes the next version of the
review's document, and the result is stored as a new review (kind "reverify", linked to the old one)
with its audit entries, in one transaction. `reverify --findings FINDINGS.json NEW_FILE` is stateless:
it reads the JSON `verify` or `review` printed and stores nothing (no version, no review, no audit
entry) — a pipeline that wants the record uses the store form. A redlined DOCX is read in its accepted
view; `diff REDLINE.docx` compares its original view with its accepted view.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from citationgate.api import ReverifyRun, reverify_run
from citationgate.cli.app import EXIT_GATE, DbOption, Format, app, emit_json, fail, info
from citationgate.untrusted import read_json_file
from ingest.load import load_document

if TYPE_CHECKING:  # re-verification, the aligner and the store load when a command runs, not for --help
    from citationgate.align import UnitChange
    from citationgate.reverify import FindingOutcome, PlaybookRef
    from ingest.document import Document

EXIT_USAGE = 2


def read_findings_file(path: Path) -> object:
    """Decode a findings JSON file; errors name the file (`FindingsError`, exit 4)."""
    from citationgate.reverify import FindingsError

    return read_json_file(path, error=FindingsError)


@app.command()
def reverify(
    targets: Annotated[
        list[str],
        typer.Argument(
            metavar="[REVIEW_ID] NEW_FILE",
            help="A stored review id and the new version of its document; with --findings, only NEW_FILE.",
            show_default=False,
        ),
    ],
    findings_file: Annotated[
        Path | None,
        typer.Option(
            "--findings",
            metavar="FINDINGS.json",
            help="Re-verify the JSON `verify` or `review` printed, without the store (stores nothing).",
        ),
    ] = None,
    fmt: Annotated[Format, typer.Option("--format", help="table or json.")] = Format.table,
    strict: Annotated[
        bool,
        typer.Option(
            "--strict", help="Exit 1 if any finding is stale or its context changed (for pipelines)."
        ),
    ] = False,
    db: DbOption = None,
) -> None:
    """Re-verify every finding of an earlier review against a new version, exact only.

    Each finding comes out verified, moved (re-anchored, with the reason), context_changed (the
    words match but the clause around them changed: needs review) or stale (the words are gone; the
    report shows what the passage became). Absence findings are re-run: resolved or open. A redlined
    DOCX is read in its accepted view. Exits 6 for an unknown review, 4 for malformed findings JSON,
    5 when the new version is withheld, 1 with --strict when anything is stale or context_changed.
    """
    from citationgate.reverify import CONTEXT_CHANGED, STALE, parse_findings
    from citationgate.reverify import reverify as run_reverify

    if findings_file is not None:
        if len(targets) != 1:
            fail(f"with --findings give only NEW_FILE (got {len(targets)} arguments)", code=EXIT_USAGE)
        new_file = Path(targets[0])
        data = read_findings_file(findings_file)
        findings = parse_findings(data, source=findings_file.name)
        new_doc = load_document(new_file, view="accepted")
        old_doc = _original_view_if_same(new_file, data)
        playbook = _playbook_from_json(data)
        result = run_reverify(findings, new_doc, old=old_doc, playbook=playbook)
        if old_doc is not None:
            info(f"{new_file.name}: its original view is the version the findings were verified against")
        _emit(
            fmt,
            ReverifyRun(
                result=result, document=new_doc, previous_review=_previous_review_id(data), review=None
            ),
        )
    else:
        if len(targets) != 2:
            fail(
                f"give REVIEW_ID and NEW_FILE, or --findings FINDINGS.json NEW_FILE "
                f"(got {len(targets)} argument{'s' if len(targets) != 1 else ''})",
                code=EXIT_USAGE,
            )
        try:
            review_id = int(targets[0])
        except ValueError:
            fail(f"REVIEW_ID must be a number, got {targets[0]!r}", code=EXIT_USAGE)
        done = reverify_run(review_id, Path(targets[1]), store=db)
        result = done.result
        _emit(fmt, done)
    if strict and (result.summary.get(STALE, 0) or result.summary.get(CONTEXT_CHANGED, 0)):
        raise typer.Exit(EXIT_GATE)


def _original_view_if_same(new_file: Path, data: object) -> Document | None:
    """A redlined DOCX whose original view is the text the findings were verified against."""
    if new_file.suffix.lower() != ".docx" or not isinstance(data, dict):
        return None
    sha = (data.get("document") or {}).get("text_sha256") if isinstance(data.get("document"), dict) else None
    if not sha:
        return None
    original = load_document(new_file, view="original")
    return original if original.text_sha256 == sha else None


def _playbook_from_json(data: object) -> PlaybookRef | None:
    from citationgate.reverify import PlaybookRef

    if not isinstance(data, dict):
        return None
    for holder in (data.get("review"), data):
        if not isinstance(holder, dict):
            continue
        pb = holder.get("playbook")
        if isinstance(pb, dict) and isinstance(pb.get("id"), str):
            version = pb.get("version")
            return PlaybookRef(id=pb["id"], version=str(version) if version is not None else None)
        if isinstance(pb, str) and pb:
            pid, _, version = pb.partition("@")
            return PlaybookRef(id=pid, version=version or None)
        if isinstance(holder.get("playbook_id"), str):
            v = holder.get("playbook_version")
            return PlaybookRef(id=holder["playbook_id"], version=str(v) if v is not None else None)
    return None


def _previous_review_id(data: object) -> int | None:
    if isinstance(data, dict) and isinstance(data.get("review"), dict):
        rid = data["review"].get("id")
        return rid if isinstance(rid, int) else None
    return None


def _emit(fmt: Format, done: ReverifyRun) -> None:
    if fmt is Format.json:
        emit_json(done.to_dict())
        return
    doc, result, previous_review, review = done.document, done.result, done.previous_review, done.review
    head = f"reverify  {doc.name}  sha256 {doc.text_sha256[:12]}"
    if previous_review is not None:
        head += f"  previous review {previous_review}"
    if review is not None:
        head += f"  → review {review['id']} (version {review['version_no']})"
    typer.echo(head)
    for line in render_reverify(result.findings):
        typer.echo(line)
    typer.echo("")
    typer.echo(
        "summary: " + (" · ".join(f"{k} {v}" for k, v in sorted(result.summary.items())) or "no findings")
    )


def render_reverify(findings: Sequence[FindingOutcome]) -> Iterator[str]:
    """One block per finding: status and reason; each citation with where it is now or what it became."""
    from citationgate.reverify import STALE

    for f in findings:
        yield ""
        head = f"{f.id}  {f.status.upper():<16}"
        rule = f.previous.get("rule")
        if rule:
            head += f"  rule {rule}"
        yield head
        yield f"    {f.reason}"
        if f.resolution is not None:
            r = f.resolution
            yield f'    now found: "{_one_line(r.text)}"  ({r.section or "no clause"}, [{r.start}, {r.end}))'
        for c in f.citations:
            o = c.old
            was = f"[{o.start}, {o.end})" if o.start is not None else "no span"
            yield f"    citation {o.index + 1}  {c.status}"
            if o.text is not None:
                yield f'      was:    "{_one_line(o.text)}"  ({o.section or "no clause"}, {was})'
            if c.new is not None:
                n = c.new
                where = f"{n.section or 'no clause'}, [{n.start}, {n.end})"
                yield f'      now:    "{_one_line(n.text)}"  ({where})'
            if c.status == STALE:
                yield (
                    f'      became: "{_one_line(c.became)}"'
                    if c.became
                    else "      became: (nothing aligned)"
                )


def _one_line(s: str, n: int = 160) -> str:
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 1] + "…"


# ── diff ────────────────────────────────────────────────────────────────────────────────────────
@app.command()
def diff(
    old: Annotated[
        Path,
        typer.Argument(
            metavar="OLD", help="The earlier version (a file or a stored version id), or one redlined .docx."
        ),
    ],
    new: Annotated[
        Path | None,
        typer.Argument(
            metavar="[NEW]", help="The later version (a file or a stored version id); omit for a redline."
        ),
    ] = None,
    fmt: Annotated[Format, typer.Option("--format", help="table or json.")] = Format.table,
    db: DbOption = None,
) -> None:
    """Show what changed between two versions, clause by clause: renumbered, moved, changed (with the
    words inserted and deleted), added, deleted. With one redlined DOCX, its original view is compared
    with its accepted view. A number that is not a file is a stored version id (see `citationgate
    coverage`), read from --db."""
    from citationgate.align import align

    if new is None:
        if old.suffix.lower() != ".docx":
            fail(
                f"{old.name}: give two files, or one redlined .docx (got a single {old.suffix or 'file'})",
                code=EXIT_USAGE,
            )
        old_doc = load_document(old, view="original")
        new_doc = load_document(old, view="accepted")
    else:
        old_doc = _version_or_file(old, db)
        new_doc = _version_or_file(new, db)
    for d in (old_doc, new_doc):
        if not d.ready:
            info(f"warning: {d.name} ({d.view}) is withheld: {'; '.join(d.reasons)}")
    alignment = align(old_doc, new_doc)
    changes = [c for c in alignment.changes if c.kind != "same"]
    summary = alignment.summary()
    if fmt is Format.json:
        emit_json(
            {
                "old": _doc_ref(old_doc),
                "new": _doc_ref(new_doc),
                "summary": summary,
                "changes": [c.to_dict(old_doc.text, new_doc.text) for c in changes],
            }
        )
        return
    typer.echo(f"{old_doc.name} ({old_doc.view}) → {new_doc.name} ({new_doc.view})")
    if not changes:
        typer.echo("No changes.")
        return
    for c in changes:
        for line in render_change(c, old_doc.text, new_doc.text):
            typer.echo(line)
    typer.echo("")
    typer.echo("summary: " + " · ".join(f"{k} {v}" for k, v in sorted(summary.items())))


def _version_or_file(arg: Path, db: str | None) -> Document:
    """A file, or — a bare number that is not a file — the stored document version with that id."""
    if not arg.exists() and str(arg).isdigit():
        from citationgate.store import Store

        return Store.open(db).get_version(int(str(arg))).document
    return load_document(arg, view="accepted")


def _doc_ref(d: Document) -> dict[str, Any]:
    return {"name": d.name, "view": d.view, "text_sha256": d.text_sha256, "status": d.status}


def render_change(c: UnitChange, old_text: str, new_text: str) -> Iterator[str]:
    """Terminal lines for one clause-level change."""
    o, n = c.old, c.new
    if c.kind == "added" and n is not None:
        yield f"added       {n.section or '-':<12} {_one_line(new_text[n.start : n.end], 100)}"
        return
    if c.kind == "deleted" and o is not None:
        yield f"deleted     {o.section or '-':<12} {_one_line(old_text[o.start : o.end], 100)}"
        return
    assert o is not None and n is not None
    labels = o.section or "-" if o.section == n.section else f"{o.section or '-'} → {n.section or '-'}"
    yield f"{c.kind:<11} {labels:<12} {_one_line(new_text[n.start : n.end], 100)}"
    for e in c.edits:
        if e.op == "insert":
            yield f"              + {_one_line(e.new_text, 100)!r}"
        elif e.op == "delete":
            yield f"              - {_one_line(e.old_text, 100)!r}"
        else:
            yield f"              - {_one_line(e.old_text, 100)!r}  + {_one_line(e.new_text, 100)!r}"
