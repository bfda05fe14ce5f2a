"""Canonical offsets → the runs of a DOCX: split runs so a range of the text is exactly whole runs.

The reader (`ingest.word.map_docx_body`) says which run child (`w:t`, `w:tab`, `w:br`…) produced each
character of the body text. To anchor something at `[start, end)` — a comment, a tracked change — the
runs are split at both offsets (a `w:t` is cut in two, its run copied with the same properties), and the
range becomes the runs from the first piece at or after `start` to the last piece ending at or before
`end`. Splitting never changes the text: the copy reads back to the same canonical text.

What lies between pieces — paragraph and cell separators, numbering labels — is generated, not in a
run: a range that starts with a numbering label ("7.1\t…") is anchored from the paragraph's first run,
since Word draws the label and no comment can hold it (`anchorable` says which words a range keeps).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from io import BytesIO
from typing import Any

import docx
from docx.document import Document as WordDocument

from ingest.document import Document
from ingest.errors import CitationGateError
from ingest.numbering import W
from ingest.word import BodyMap, map_docx_body

__all__ = ["AnchorError", "Anchors", "RunRange"]

_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
_SPLITTABLE = (W + "t", W + "delText")


class AnchorError(CitationGateError):
    """A report cannot be anchored in the DOCX (the file does not read as the reviewed text)."""

    exit_code = 3


@dataclass(frozen=True, slots=True)
class RunRange:
    """The whole runs `[first … last]` (document order) that hold the text `[start, end)`."""

    start: int
    end: int
    first: Any  # w:r
    last: Any  # w:r
    runs: tuple[Any, ...]


class Anchors:
    """A python-docx copy of the reviewed DOCX, with the body's offset map kept current."""

    def __init__(self, document: Document, data: bytes) -> None:
        self.document = document
        self.data = data
        self.word: WordDocument = docx.Document(BytesIO(data))
        self.body = self.word.element.body
        self.body_end = int(document.metadata.get("body_end", len(document.text)))
        self.map = self._remap()
        if self.map.text != document.text[: self.body_end]:
            raise AnchorError(
                f"{document.name}: the file does not read as the reviewed text (its body differs from "
                "the stored version); review this file again before writing a copy of it"
            )

    def _remap(self) -> BodyMap:
        return map_docx_body(self.document.name, self.data, self.body, view=self.document.view)

    def in_body(self, start: int, end: int) -> bool:
        """Whether `[start, end)` lies in the document body (not a footnote, header or footer)."""
        return 0 <= start < end <= self.body_end

    def split(self, offsets: Iterable[int]) -> None:
        """Split runs so that every offset falls on a run boundary; the text is unchanged."""
        cuts = sorted(set(offsets))
        pieces = list(self.map.pieces)
        i = 0
        for off in cuts:
            while i < len(pieces) and pieces[i][1] <= off:
                i += 1
            if i == len(pieces):
                break
            start, _end, el = pieces[i]
            if start < off and el.tag in _SPLITTABLE:
                el = _split_text(el, off - start)
                pieces[i] = (off, _end, el)
            elif start < off:
                continue  # inside a one-character piece: cannot happen for w:tab, w:br…
            _split_run_before(el)
        self.map = self._remap()

    def runs(self, start: int, end: int) -> RunRange | None:
        """The runs holding `[start, end)` after `split`, or None where no run lies in the range."""
        inside = [(s, e, el) for s, e, el in self.map.pieces if s >= start and e <= end]
        if not inside:
            return None
        runs: list[Any] = []
        for _s, _e, el in inside:
            r = el.getparent()
            if not runs or runs[-1] is not r:
                runs.append(r)
        return RunRange(start=inside[0][0], end=inside[-1][1], first=runs[0], last=runs[-1], runs=tuple(runs))

    def save(self) -> bytes:
        out = BytesIO()
        self.word.save(out)
        return out.getvalue()


def _content(r: Any) -> list[Any]:
    return [c for c in r if c.tag != W + "rPr"]


def _split_text(el: Any, k: int) -> Any:
    """Cut a w:t (or w:delText) at `k`: the element keeps `[:k]`, a new sibling after it holds `[k:]`."""
    text = el.text or ""
    tail = copy.deepcopy(el)
    el.text, tail.text = text[:k], text[k:]
    for e in (el, tail):
        e.set(_XML_SPACE, "preserve")
    el.addnext(tail)
    return tail


def _split_run_before(child: Any) -> None:
    """Move `child` and what follows it in its run into a copy of the run placed right after it."""
    r = child.getparent()
    content = _content(r)
    if not content or content[0] is child:
        return
    rest = content[content.index(child) :]
    new = copy.deepcopy(r)
    for c in _content(new):
        new.remove(c)
    for c in rest:
        new.append(c)  # moves it out of `r`
    r.addnext(new)


def anchored_text(doc_text: str, body: BodyMap) -> dict[str, str]:
    """Each comment id → the canonical text between its range marks (how a reader sees the anchor)."""
    starts: dict[str, int] = {}
    texts: dict[str, str] = {}
    for pos, el in body.marks:
        cid = str(el.get(W + "id"))
        if el.tag == W + "commentRangeStart":
            starts[cid] = pos
        elif cid in starts:
            texts[cid] = doc_text[starts[cid] : pos]
    return texts


def anchorable(document: Document, start: int, end: int) -> tuple[int, int]:
    """`[start, end)` without a leading numbering label and its tab: the words a comment can hold."""
    for g in document.generated:
        if g.kind == "numbering" and g.start <= start < g.end + 1 <= end:
            start = g.end + (document.text[g.end : g.end + 1] == "\t")
    return start, end


def ranges_of(anchors: Anchors, spans: Sequence[tuple[int, int]]) -> list[RunRange | None]:
    """Split once for all `spans`, then each span's runs (None where it is outside the body or empty)."""
    inside = [(s, e) for s, e in spans if anchors.in_body(s, e)]
    anchors.split([o for s, e in inside for o in (s, e)])
    return [anchors.runs(s, e) if anchors.in_body(s, e) else None for s, e in spans]
