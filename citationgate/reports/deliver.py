"""One review value → the deliverable a format names; the format from `--out`'s extension or `--format`.

`--out review.html` means HTML, `--out reviewed.docx` the commented copy, `.md` the memo, `.json` JSON,
`.csv` the issues list as CSV. `--format` may say otherwise only where the extension agrees
(`--format issues-docx --out issues.docx`); a mismatch is an error, never a mislabeled file.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citationgate.escape import terminal
from citationgate.reports.html import render_html
from citationgate.reports.issues import render_csv, render_issues_docx
from citationgate.reports.markdown import render_markdown
from citationgate.reports.table import render_table
from citationgate.reports.word_comments import render_word_comments
from ingest.document import Document
from ingest.errors import CitationGateError

__all__ = ["BINARY_FORMATS", "FORMATS", "Deliverable", "ReportError", "deliver", "resolve_format"]

FORMATS = ("table", "json", "md", "html", "docx", "issues-docx", "csv")
BINARY_FORMATS = frozenset({"docx", "issues-docx"})
#: What each file extension holds; the first format is the one an extension alone picks.
_BY_EXTENSION: dict[str, tuple[str, ...]] = {
    ".html": ("html",),
    ".htm": ("html",),
    ".docx": ("docx", "issues-docx"),
    ".md": ("md",),
    ".json": ("json",),
    ".csv": ("csv",),
    ".txt": ("table",),
}


class ReportError(CitationGateError):
    """A report that cannot be written as asked (a format the file name contradicts, a missing input)."""

    exit_code = 2


def resolve_format(fmt: str | None, out: Path | None) -> str:
    """The format to write: `fmt` if given (checked against `out`'s extension), else from the extension."""
    if fmt is not None and fmt not in FORMATS:
        raise ReportError(f"unknown format '{fmt}' (expected one of {', '.join(FORMATS)})")
    if out is None:
        if fmt in BINARY_FORMATS:
            raise ReportError(f"--format {fmt} writes a Word file: give --out PATH.docx")
        return fmt or "table"
    ext = out.suffix.lower()
    allowed = _BY_EXTENSION.get(ext)
    if allowed is None:
        known = ", ".join(_BY_EXTENSION)
        if fmt is None:
            raise ReportError(
                f"{out.name}: cannot tell the format from '{ext or 'no extension'}' ({known}); give --format"
            )
        raise ReportError(
            f"{out.name}: --format {fmt} writes a {_extension_of(fmt)} file, not '{ext or 'no extension'}'"
        )
    if fmt is None:
        return allowed[0]
    if fmt not in allowed:
        raise ReportError(
            f"{out.name}: the extension {ext} says {' or '.join(allowed)}, but --format is {fmt} "
            f"(name the file {out.stem}{_extension_of(fmt)}, or drop --format)"
        )
    return fmt


def _extension_of(fmt: str) -> str:
    return next(ext for ext, fmts in _BY_EXTENSION.items() if fmt in fmts)


@dataclass(frozen=True, slots=True, kw_only=True)
class Deliverable:
    """The bytes to write and a note for the person (what was anchored, what was not)."""

    format: str
    content: bytes
    note: str = ""

    @property
    def text(self) -> str:
        return self.content.decode("utf-8")


def deliver(
    fmt: str, data: Mapping[str, Any], *, document: Document | None = None, source: bytes | None = None
) -> Deliverable:
    """Render `data` (the review's JSON shape) as `fmt`; HTML needs `document`, DOCX comments `source`."""
    # the text formats are escaped as the terminal is (`escape.terminal`): a file written with --out is
    # read with cat and less as stdout is, so a contract's ESC/OSC/bidi characters are shown, not obeyed
    if fmt == "json":
        return Deliverable(format=fmt, content=_text(_json(data)))
    if fmt == "md":
        return Deliverable(format=fmt, content=_text(render_markdown(data)))
    if fmt == "table":
        return Deliverable(format=fmt, content=_text(render_table(data)))
    if fmt == "csv":
        return Deliverable(format=fmt, content=_text(render_csv(data)))
    if fmt == "issues-docx":
        return Deliverable(format=fmt, content=render_issues_docx(data), note="the issues list")
    if fmt == "html":
        if document is None:
            raise ReportError("the HTML review needs the document's text (review a file or a stored review)")
        return Deliverable(format=fmt, content=render_html(data, document).encode("utf-8"))
    if fmt == "docx":
        if document is not None and document.file_type == "docx" and source is not None:
            copy = render_word_comments(data, document, source)
            note = f"a copy of {document.name} with {copy.comments} Word comments at the cited words"
            if copy.not_anchored:
                note += (
                    f"; {len(copy.not_anchored)} citation(s) not anchored (in the issues list): "
                    + "; ".join(copy.not_anchored)
                )
            return Deliverable(format=fmt, content=copy.data, note=note)
        name = document.name if document is not None else str((data.get("document") or {}).get("name"))
        why = "is not a DOCX" if document is None or document.file_type != "docx" else "is not at hand"
        note = f"{name} {why}, so there is no Word file to comment: wrote the issues list only"
        return Deliverable(format=fmt, content=render_issues_docx(data, note=f"Note: {note}."), note=note)
    raise ReportError(f"unknown format '{fmt}' (expected one of {', '.join(FORMATS)})")


def _json(data: Mapping[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n"


def _text(text: str) -> bytes:
    return terminal(text).encode("utf-8")
