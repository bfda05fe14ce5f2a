"""Typeset contracts for the PDF fidelity evaluation: real contract text set the way a typesetter sets it.

Each PDF is built with fpdf2 from a contract's own text: two columns, the ligatures ﬀ ﬁ ﬂ ﬃ ﬄ printed
as ligature glyphs (from a TTF that has them), words hyphenated at line ends, a running header with
the title and a running footer "Page n of N". Column one is written before column two, as typesetters
do, so a correct reader reads it first. The files are generated on the fly and never stored.

Planted defects (`plant`) are the failures the fidelity check exists for, each applied to the
canonical (pypdf) reading of a clean typeset file, or to the file itself:
- `interleaved-columns`: pypdf's layout mode reads the two columns line by line across the gutter;
- `dropped-paragraph`: a run of lines (about a paragraph) missing from one page;
- `moved-paragraph`: a run of lines read later on its page than where it is printed;
- `missing-page`: the last page not read;
- `glyph-garbage` (in the file): the fonts' Unicode map removed, so readers return glyph ids.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: TTF fonts with ligature glyphs, from Debian's fonts-dejavu-core and fonts-liberation.
LIGATURE_FONTS = (
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"),
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    Path("/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf"),
)
#: Longest first, so "ffi" becomes one ligature and not "ﬀ" + "i".
_LIGATURES = (("ffi", "\ufb03"), ("ffl", "\ufb04"), ("ff", "\ufb00"), ("fi", "\ufb01"), ("fl", "\ufb02"))
DEFECTS = ("interleaved-columns", "dropped-paragraph", "moved-paragraph", "missing-page", "glyph-garbage")

_PAGE_W, _PAGE_H = 210.0, 297.0  # A4, mm
_MARGIN, _GUTTER = 18.0, 8.0
_TOP, _BOTTOM = 24.0, _PAGE_H - 22.0
_MIN_PART = 3  # letters either side of a hyphenation point


def ligature_font() -> Path | None:
    """The first installed TTF of `LIGATURE_FONTS` that has glyphs for ﬀ ﬁ ﬂ ﬃ ﬄ, or None."""
    from fontTools.ttLib import TTFont  # fpdf2's own dependency

    for path in LIGATURE_FONTS:
        if path.is_file():
            cmap = TTFont(str(path)).getBestCmap() or {}
            if all(ord(lig) in cmap for _seq, lig in _LIGATURES):
                return path
    return None


def with_ligatures(text: str) -> str:
    """`text` with ff, fi, fl, ffi and ffl written as the ligature characters a typesetter prints."""
    for seq, lig in _LIGATURES:
        text = text.replace(seq, lig)
    return text


def paragraphs_of(text: str, max_chars: int) -> list[str]:
    """The first paragraphs of a contract text (blank-line separated, whitespace collapsed)."""
    out: list[str] = []
    size = 0
    for block in re.split(r"\n\s*\n", text):
        para = " ".join(block.split())
        if not para:
            continue
        out.append(para)
        size += len(para)
        if size >= max_chars:
            break
    return out


def _wrap(pdf: Any, para: str, width: float) -> list[str]:
    """Greedy line breaking; a word that does not fit is hyphenated when a part of it does."""
    lines: list[str] = []
    line = ""
    for word in para.split():
        trial = f"{line} {word}" if line else word
        if pdf.get_string_width(trial) <= width:
            line = trial
            continue
        head = ""
        if word.isalpha() and len(word) >= 2 * _MIN_PART + 1:
            for k in range(len(word) - _MIN_PART, _MIN_PART - 1, -1):
                part = f"{line} {word[:k]}-" if line else f"{word[:k]}-"
                if pdf.get_string_width(part) <= width:
                    head = part
                    word = word[k:]
                    break
        if head:
            lines.append(head)
        elif line:
            lines.append(line)
        line = word
    if line:
        lines.append(line)
    return lines


def typeset_pdf(title: str, paragraphs: Sequence[str], font: Path, *, size: float = 9.0) -> bytes:
    """Two-column typeset PDF of `paragraphs` (ligatures, hyphenation, running header and footer)."""
    from fpdf import FPDF

    class _Typeset(FPDF):
        def header(self) -> None:
            self.set_font("body", size=7.5)
            self.set_xy(_MARGIN, 10)
            self.cell(0, 5, f"{title} \u2014 Confidential")

        def footer(self) -> None:  # a cell, not text(): only cells fill in the page-count alias
            self.set_font("body", size=7.5)
            self.set_xy(_MARGIN, _PAGE_H - 15)
            self.cell(_PAGE_W - 2 * _MARGIN, 5, f"Page {self.page_no()} of {{nb}}", align="C")

    pdf = _Typeset(format="A4")
    pdf.set_auto_page_break(False)
    pdf.alias_nb_pages()
    pdf.add_font("body", fname=str(font))
    pdf.set_font("body", size=size)
    col_w = (_PAGE_W - 2 * _MARGIN - _GUTTER) / 2
    lead = size * 0.3528 * 1.3  # line height in mm
    pdf.add_page()
    column, y = 0, _TOP
    for para in paragraphs:
        for line in _wrap(pdf, with_ligatures(para), col_w):
            if y > _BOTTOM:
                column, y = column + 1, _TOP
                if column == 2:
                    pdf.add_page()
                    pdf.set_font("body", size=size)
                    column = 0
            pdf.text(_MARGIN + column * (col_w + _GUTTER), y, line)
            y += lead
        y += lead / 2
    return bytes(pdf.output())


def without_unicode_map(data: bytes) -> bytes:
    """The same PDF with its fonts' /ToUnicode maps disabled (same length, so offsets stay valid)."""
    return data.replace(b"/ToUnicode", b"/ToUnicodX")


def _lines_block(page: str, min_chars: int) -> tuple[int, int] | None:
    """`[start, end)` line indices of a run of lines in the middle of a page of at least `min_chars`."""
    lines = page.split("\n")
    start = len(lines) // 3
    size = 0
    for end in range(start, len(lines)):
        size += len(lines[end])
        if size >= min_chars:
            return start, end + 1
    return None


@dataclass(frozen=True, slots=True)
class Planted:
    """A defect planted in a reading: the canonical pages (pypdf's, changed) and what was done."""

    kind: str
    pages: list[str]
    what: str


def plant(kind: str, data: bytes, pages: Sequence[str], *, paragraph: int = 300) -> Planted:
    """Plant defect `kind` in the pypdf reading `pages` of the file `data` (see the module docstring)."""
    out = list(pages)
    if kind == "interleaved-columns":
        import pypdf

        reader = pypdf.PdfReader(io.BytesIO(data))
        out = [p.extract_text(extraction_mode="layout") for p in reader.pages]
        return Planted(kind, out, "every page read by pypdf's layout mode")
    if kind == "missing-page":
        return Planted(kind, out[:-1], f"page {len(out)} of {len(out)} not read")
    if kind in ("dropped-paragraph", "moved-paragraph"):
        block = _lines_block(out[0], paragraph)
        if block is None:
            raise ValueError("page 1 is too short to plant a paragraph defect")
        lines = out[0].split("\n")
        a, b = block
        moved = lines[a:b]
        rest = lines[:a] + lines[b:]
        if kind == "dropped-paragraph":
            out[0] = "\n".join(rest)
            return Planted(
                kind, out, f"page 1: lines {a + 1}-{b} ({sum(map(len, moved))} characters) left out"
            )
        out[0] = "\n".join(rest + moved)
        return Planted(kind, out, f"page 1: lines {a + 1}-{b} read at the end of the page")
    raise ValueError(f"unknown defect {kind!r} (expected one of {', '.join(DEFECTS)})")
