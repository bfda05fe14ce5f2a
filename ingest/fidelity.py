"""Fidelity: how closely the canonical text agrees with an independent reading of the same file.

Each reader has its own section below (PDF: `pdf_*`; DOCX: `docx_*`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rapidfuzz.distance import Indel

from ingest.document import Fidelity, Section, Span
from ingest.furniture import without_ranges
from ingest.numbering import Numbering, W
from ingest.typography import FOLDS

#: Below this agreement the document is withheld (DESIGN.md §3).
MIN_FIDELITY = 0.995

# ---------------------------------------------------------------------------------------------------------
# PDF
#
# Both readings are prepared identically before they are compared (`pdf_prepared`):
# - the gate's typographic fold (ingest.typography: ligatures, dashes, quote marks, Unicode spaces, soft
#   hyphens), since pypdf keeps "ﬁ" where pdfium expands it to "fi", and the gate treats both as one text;
# - pdfium's break markers dropped: where a word is hyphenated at a line end pdfium writes U+FFFE (older
#   builds U+0002) instead of the hyphen and joins the lines ("Custom\ufffeer"), where pypdf keeps
#   "Custom-⏎er"; so a hyphen after a letter and before a line break is dropped too, on both sides
#   ("non-⏎compete" and "19-Dec-⏎2018" as well: this is a comparison, the canonical text keeps every
#   hyphen);
# - all whitespace removed: line breaks, column gaps and spaces from glyph positions are where two correct
#   readers legitimately differ, and the gate matches whitespace-flexibly anyway;
# - the page furniture removed from *both* readings by one rule: the running lines found on the
#   canonical reading (ingest.furniture), each prepared the same way, are cut out of each prepared page
#   by content — a header line at its first occurrence, a footer line at its last. Found this way, the
#   furniture is the same text on both sides even where pdfium breaks, joins or orders its lines
#   differently from pypdf (looking it up by line in pdfium's own reading missed it there).
#
# The metric: per page, the Indel similarity (rapidfuzz; 1 - (insertions + deletions) / (len a + len b))
# of the two prepared pages; overall, the same over the sum of all pages. Unlike a character multiset
# it is order-sensitive: two columns read line-interleaved, or a paragraph dropped or moved, lower it;
# it costs O(n·m/64) per page with RapidFuzz's bit-parallel Indel. Per page, so a single unread page
# shows up as that page's minimum instead of drowning in a long document's total. `Fidelity.detail`
# names the lowest page and quotes the largest disagreement that remains (`page 6: pypdf "…" vs
# pdfium "…"`), so a withholding can be understood without opening the file.
# Withheld below MIN_FIDELITY overall, and also when one page disagrees over a single passage longer
# than PDF_MAX_PASSAGE (a paragraph dropped or moved in a long document hardly moves the total).
# Measured on the 40 CUAD PDFs (benchmarks/ingest_pdf.py): 3 of 877 pages differ at all once prepared,
# the largest passage 67 characters (text one reader places inside a table the other skips).
# Pages longer than `PDF_MAX_ALIGN` characters fall back to a character-multiset overlap, to bound time.
# ---------------------------------------------------------------------------------------------------------

PDF_MAX_ALIGN = 200_000
#: More than this share of unreadable characters means the fonts have no usable Unicode map.
PDF_MAX_BAD_SHARE = 0.005
#: pdfium's marks for a hyphen it found at a line break (U+FFFE; U+0002 in older builds).
PDFIUM_BREAK_MARKERS = "\ufffe\x02"
#: A page whose readings disagree over one passage longer than this (prepared characters, about two
#: lines) withholds the document even when the whole agrees above MIN_FIDELITY: a dropped or moved
#: paragraph in a long document. Measured on the 40 CUAD PDFs: the largest such passage is 67.
PDF_MAX_PASSAGE = 120
#: Disagreements quoted in `Fidelity.detail` (the lowest pages first).
PDF_EXCERPTS = 3
_EXCERPT_CONTEXT = 15  # prepared characters shown either side of a disagreement
_EXCERPT_MAX = 70  # characters of one side's excerpt, at most
_EXCERPT_JOIN = 10  # differences separated by fewer equal characters are one disagreement

_WS = re.compile(r"\s+")
# U+FFFD, private-use glyphs, control characters (tab, line feed, CR, form feed, vertical tab excepted),
# and pdfminer-style "(cid:12)" for a glyph with no Unicode mapping.
_BAD = re.compile(r"\(cid:\d+\)|[\ufffd\ue000-\uf8ff\x00-\x08\x0e-\x1f\x7f-\x9f]")
_PREPARE_TABLE: dict[str, str] = {**FOLDS, **dict.fromkeys(PDFIUM_BREAK_MARKERS, "")}
# The characters the fold changes, whitespace aside (removed anyway): found by one regex scan, which is
# ten times faster than str.translate over text that is nearly all ASCII.
_FOLDABLE = re.compile(
    "[" + re.escape("".join(c for c, r in _PREPARE_TABLE.items() if r != c and not c.isspace())) + "]"
)
_LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
#: A hyphen after a letter, before a whitespace run that holds a line break (pdfium marks these
#: whatever follows: "19-Dec-⏎2018" reads "19-Dec\ufffe2018"). The hyphen is matched first and the
#: letter checked behind it: a lookbehind tried at every position costs a hundred times more.
_BREAK_HYPHEN = re.compile(r"-(?<=[^\W\d_]-)(?=[^\S" + _LINE_BREAKS + r"]*[" + _LINE_BREAKS + r"]\s*\S)")


def _fold(match: re.Match[str]) -> str:
    return _PREPARE_TABLE[match.group()]


@dataclass(frozen=True, slots=True, kw_only=True)
class PdfCheck:
    """The outcome of checking a PDF reading: fidelity, withholding reasons, and notes."""

    fidelity: Fidelity
    reasons: tuple[str, ...]
    notes: tuple[str, ...]
    page_similarity: tuple[float, ...]


def pdf_prepared(text: str) -> str:
    """A reading as the fidelity check compares it: folded, line-break hyphens and markers dropped,
    whitespace removed (see the comment above)."""
    return "".join(_BREAK_HYPHEN.sub("", _FOLDABLE.sub(_fold, text)).split())


def _prepared_with_map(text: str) -> tuple[str, list[int]]:
    """`pdf_prepared(text)` and, for each of its characters, the position in `text` it came from."""
    chars: list[str] = []
    src: list[int] = []
    for i, c in enumerate(text):
        for ch in _PREPARE_TABLE.get(c, c):
            chars.append(ch)
            src.append(i)
    folded = "".join(chars)
    dropped = {m.start() for m in _BREAK_HYPHEN.finditer(folded)}
    dropped.update(k for m in _WS.finditer(folded) for k in range(*m.span()))
    keep = [k for k in range(len(folded)) if k not in dropped]
    return "".join(folded[k] for k in keep), [src[k] for k in keep]


@dataclass(frozen=True, slots=True)
class PdfFurniture:
    """One page's running lines, prepared: headers (cut at their first occurrence) and footers (last)."""

    top: tuple[str, ...]
    bottom: tuple[str, ...]


def pdf_page_furniture(page: str, ranges: Sequence[tuple[int, int]]) -> PdfFurniture:
    """The furniture lines `ranges` of `page` (the canonical reading), prepared, split top and bottom."""
    top: list[str] = []
    bottom: list[str] = []
    for a, b in sorted(ranges):
        line = pdf_prepared(page[a:b])
        if line:
            (top if a < len(page) / 2 else bottom).append(line)
    return PdfFurniture(top=tuple(top), bottom=tuple(reversed(bottom)))


def _cut_furniture(
    prepared: str, src: list[int] | None, furniture: PdfFurniture
) -> tuple[str, list[int] | None]:
    """`prepared` without its furniture lines (found by content), and `src` cut alike when given."""
    for line, last in [(t, False) for t in furniture.top] + [(b, True) for b in furniture.bottom]:
        i = prepared.rfind(line) if last else prepared.find(line)
        if i < 0:
            continue
        prepared = prepared[:i] + prepared[i + len(line) :]
        if src is not None:
            src = src[:i] + src[i + len(line) :]
    return prepared, src


def pdf_page_similarity(a: str, b: str) -> tuple[int, int]:
    """(distance, total) for two prepared page texts: similarity = 1 - d/total."""
    total = len(a) + len(b)
    if total == 0:
        return 0, 0
    if total > PDF_MAX_ALIGN:
        ca, cb = Counter(a), Counter(b)
        common = sum((ca & cb).values())
        return total - 2 * common, total
    return Indel.distance(a, b), total


def pdf_bad_characters(text: str) -> int:
    """How many unreadable glyphs `text` holds (U+FFFD, private use, control characters, '(cid:N)')."""
    return len(_BAD.findall(text))


def _pages_list(numbers: Sequence[int]) -> str:
    shown = ", ".join(str(n) for n in numbers[:8])
    return shown + (f" and {len(numbers) - 8} more" if len(numbers) > 8 else "")


def _shown(text: str, src: list[int], lo: int, hi: int) -> str:
    """The original characters behind prepared `[lo, hi)`, whitespace collapsed, shortened."""
    if not src:
        return ""
    lo, hi = max(0, lo), min(len(src), hi)
    if hi <= lo:
        return ""
    s = _WS.sub(" ", text[src[lo] : src[hi - 1] + 1]).strip()
    if len(s) > _EXCERPT_MAX:
        half = (_EXCERPT_MAX - 1) // 2
        s = s[:half] + "…" + s[-half:]
    # Markers and other unprintable characters are shown escaped ("\\ufffe"), quotes as apostrophes.
    return "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in s).replace('"', "'")


def _largest_disagreement(a: str, b: str) -> tuple[int, int, int, int, int] | None:
    """`(a_lo, a_hi, b_lo, b_hi, size)` of the largest passage two prepared pages disagree on, where
    differences fewer than `_EXCERPT_JOIN` equal characters apart count as one passage."""
    if len(a) + len(b) > PDF_MAX_ALIGN:
        return None
    groups: list[list[int]] = []  # [a_lo, a_hi, b_lo, b_hi, size]
    for op in Indel.opcodes(a, b):
        if op.tag == "equal":
            continue
        i1, i2, j1, j2 = op.src_start, op.src_end, op.dest_start, op.dest_end
        size = (i2 - i1) + (j2 - j1)
        g = groups[-1] if groups else None
        if g is not None and i1 - g[1] < _EXCERPT_JOIN and j1 - g[3] < _EXCERPT_JOIN:
            g[1], g[3], g[4] = max(g[1], i2), max(g[3], j2), g[4] + size
        else:
            groups.append([i1, i2, j1, j2, size])
    if not groups:
        return None
    a_lo, a_hi, b_lo, b_hi, size = max(groups, key=lambda g: g[4])
    return a_lo, a_hi, b_lo, b_hi, size


def pdf_disagreement(first: str, second: str, furniture: PdfFurniture) -> str:
    """The largest disagreement between one page's two readings: `pypdf "…" vs pdfium "…"`."""
    a, src_a = _cut_furniture(*_prepared_with_map(first), furniture)
    b, src_b = _cut_furniture(*_prepared_with_map(second), furniture)
    assert src_a is not None and src_b is not None
    found = _largest_disagreement(a, b)
    if found is None:
        return "too long to align" if a != b else "no disagreement"
    a_lo, a_hi, b_lo, b_hi, _size = found
    c = _EXCERPT_CONTEXT
    return (
        f'pypdf "{_shown(first, src_a, a_lo - c, a_hi + c)}" vs '
        f'pdfium "{_shown(second, src_b, b_lo - c, b_hi + c)}"'
    )


def pdf_check(
    pages: Sequence[str],
    furniture: Sequence[Sequence[tuple[int, int]]],
    second: Sequence[str],
    *,
    shapes: Sequence[tuple[float, int]],
    min_page_chars: int,
    min_image_cover: float,
    min_paths: int,
) -> PdfCheck:
    """Compare pypdf's pages with pypdfium2's, and guard against errors both readers would share.

    `pages`/`furniture`: the canonical reading and its page-relative furniture ranges; `second`: the
    independent reading (the same furniture lines are cut from it by content); `shapes`: per page,
    (image cover share, vector path count) from the second reader, measured where a page is near-empty.
    """
    reasons: list[str] = []
    notes: list[str] = []
    if len(second) != len(pages):
        reasons.append(
            f"the two PDF readers disagree on the page count (pypdf {len(pages)}, pdfium {len(second)})"
        )

    bodies = [without_ranges(p, f) for p, f in zip(pages, furniture, strict=True)]
    scans: list[int] = []
    drawn: list[int] = []
    blank: list[int] = []
    for i, body in enumerate(bodies):
        if len(_WS.sub("", body)) >= min_page_chars:
            continue
        cover, paths = shapes[i] if i < len(shapes) else (0.0, 0)
        if cover >= min_image_cover:
            scans.append(i + 1)
        elif paths >= min_paths:
            drawn.append(i + 1)
        elif not _WS.sub("", body):
            blank.append(i + 1)
    for n in scans:
        reasons.append(f"page {n} has no text layer (it is an image); OCR it first")
    for n in drawn:
        reasons.append(f"page {n} has no text layer (its text is drawn as shapes); OCR it first")
    if blank:
        notes.append(f"blank page{'s' if len(blank) > 1 else ''}: {_pages_list(blank)}")

    printable = sum(len(_WS.sub("", b)) for b in bodies)
    if printable == 0 and not scans and not drawn:
        reasons.append("the PDF has no text on any page; OCR it first")
    bad = pdf_bad_characters("".join(bodies))
    if printable and bad / printable > PDF_MAX_BAD_SHARE:
        reasons.append(
            f"{bad} of {printable} characters ({bad / printable:.1%}) are unreadable glyphs "
            "(U+FFFD, private-use, control or unmapped '(cid:N)'): the fonts carry no usable text map; "
            "OCR it or export the PDF again"
        )

    dist = total = 0
    sims: list[float] = []
    totals: list[int] = []
    passages: list[tuple[int, int]] = []  # (page, size) of passages over PDF_MAX_PASSAGE
    lines = [pdf_page_furniture(p, f) for p, f in zip(pages, furniture, strict=True)]
    for i, (a_page, b_page, page_lines) in enumerate(zip(pages, second, lines, strict=False)):
        a, _ = _cut_furniture(pdf_prepared(a_page), None, page_lines)
        b, _ = _cut_furniture(pdf_prepared(b_page), None, page_lines)
        d, t = pdf_page_similarity(a, b)
        dist += d
        total += t
        sims.append(1.0 - d / t if t else 1.0)
        totals.append(t)
        if d > PDF_MAX_PASSAGE:  # only then can one passage be longer
            found = _largest_disagreement(a, b)
            if found is not None and found[4] > PDF_MAX_PASSAGE:
                passages.append((i + 1, found[4]))
    value = 1.0 - dist / total if total else 0.0
    compared = [i for i, t in enumerate(totals) if t]
    if compared:
        worst = min(compared, key=sims.__getitem__)
        detail = (
            f"{len(compared)} pages with text compared; lowest page {worst + 1}: {sims[worst]:.4f}; "
            "typography folded, whitespace and page furniture left out of both readings"
        )
        shown = sorted((i for i in compared if sims[i] < 1.0), key=sims.__getitem__)[:PDF_EXCERPTS]
        for i in shown:
            detail += f"; page {i + 1}: {pdf_disagreement(pages[i], second[i], lines[i])}"
    else:
        detail = "no text on any page to compare"
    if total and value < MIN_FIDELITY:
        low = [i + 1 for i, s in enumerate(sims) if s < MIN_FIDELITY]
        reasons.append(
            f"text fidelity {value:.2%} is below {MIN_FIDELITY:.1%} against an independent reading "
            f"(pages that disagree: {_pages_list(low)})"
        )
    elif passages:
        reasons.append(
            f"an independent reading disagrees over a passage of more than {PDF_MAX_PASSAGE} characters "
            "(a paragraph dropped, added or moved) on "
            + "; ".join(f"page {n} ({size} characters)" for n, size in passages[:8])
            + (f" and {len(passages) - 8} more pages" if len(passages) > 8 else "")
        )
    return PdfCheck(
        fidelity=Fidelity(value=value, method="pdfium-page-indel", detail=detail),
        reasons=tuple(reasons),
        notes=tuple(notes),
        page_similarity=tuple(sims),
    )


# ---------------------------------------------------------------------------------------------------------
# Fidelity and coverage checks: is the canonical text the whole document?
#
# DOCX (`docx_*`): the canonical text built by the walker in `ingest.word` is compared with an
# independent reading of the same XML — every `w:t` (and, in the original view, `w:delText`) of the
# parts that were ingested, collected by a plain XPath iteration that shares no code with the walker.
# The numbering labels the walker generated are taken out first; whitespace is ignored on both sides
# (paragraph, cell and label separators are ours, not the document's).
#
# The metric is a character-multiset agreement, `2·common / (len(ours) + len(reference))`, where
# `common` counts each character as often as both sides have it. It is O(n) (a 100-page contract
# takes milliseconds; a character alignment such as difflib takes minutes) and it catches every way a
# DOCX reader really fails: dropped text lowers it (tables, content controls, insertions), repeated
# text lowers it (merged cells repeated, a text box read twice through its fallback), and a mixture of
# tracked-change views lowers it (deleted text read as live). It cannot see text that is present but
# reordered, which the walker never does except for text boxes, which it places after their anchor
# paragraph on purpose.
#
# Section coverage counts the numbered paragraphs in document.xml without any section detector: a
# paragraph numbered directly (`w:numPr`) or through its style, at a level whose format is not a
# bullet or "none", outside tables and text boxes, in the chosen tracked-change view. A reading that
# finds fewer sections than that is withheld.
# ---------------------------------------------------------------------------------------------------------

#: Below this agreement with the independent reading, a document is withheld.
DOCX_FIDELITY_THRESHOLD = 0.995

_DOCX_NS = {
    "w": W[1:-1],
    "mc": "http://schemas.openxmlformats.org/markup-compatibility/2006",
    "m": "http://schemas.openxmlformats.org/officeDocument/2006/math",
}

_DOCX_SYM = W + "sym"
_DOCX_HEX = re.compile(r"^[0-9A-Fa-f]{1,6}$")
_DOCX_CHARS = {W + "noBreakHyphen": "\u2011", W + "softHyphen": "\u00ad"}


def _docx_excluded(view: str) -> str:
    """XPath predicate: not inside content that the view leaves out, nor a fallback copy."""
    if view == "original":
        gone = (
            "ancestor::w:ins or ancestor::w:moveTo or ancestor::w:tr[w:trPr/w:ins]"
            " or ancestor::w:tc[w:tcPr/w:cellIns]"
        )
    else:
        gone = (
            "ancestor::w:del or ancestor::w:moveFrom or ancestor::w:tr[w:trPr/w:del]"
            " or ancestor::w:tc[w:tcPr/w:cellDel]"
        )
    return f"not({gone} or ancestor::mc:Fallback)"


def _docx_text_xpath(view: str) -> str:
    kinds = "self::w:t or self::m:t or self::w:noBreakHyphen or self::w:softHyphen or self::w:sym"
    if view == "original":
        kinds += " or self::w:delText"
    return f".//*[({kinds}) and {_docx_excluded(view)}]"


def docx_reference_text(stories: Sequence[Any], *, view: str) -> str:
    """All text elements of `stories` (XML elements) in the chosen view, in document order."""
    out: list[str] = []
    xpath = _docx_text_xpath(view)
    for story in stories:
        for el in story.xpath(xpath, namespaces=_DOCX_NS):
            if el.tag == _DOCX_SYM:
                out.append(
                    chr(int(el.get(W + "char") or "20", 16))
                    if _DOCX_HEX.match(el.get(W + "char") or "")
                    else ""
                )
            else:
                out.append(_DOCX_CHARS.get(el.tag) or el.text or "")
    return "".join(out)


def docx_referenced_notes(document_root: Any, kind: str, *, view: str) -> list[str]:
    """Ids of the footnotes (`kind="footnote"`) or endnotes referenced from the body in the view."""
    xpath = f".//w:{kind}Reference[{_docx_excluded(view)}]"
    ids: list[str] = []
    for el in document_root.xpath(xpath, namespaces=_DOCX_NS):
        nid = el.get(W + "id")
        if nid is not None and nid not in ids:
            ids.append(nid)
    return ids


def _docx_strip_spans(text: str, spans: Sequence[Span]) -> str:
    if not spans:
        return text
    parts: list[str] = []
    pos = 0
    for s in sorted(spans, key=lambda s: s.start):
        parts.append(text[pos : s.start])
        pos = max(pos, s.end)
    parts.append(text[pos:])
    return "".join(parts)


def docx_char_agreement(ours: str, reference: str) -> tuple[float, float, float]:
    """(agreement, recall, precision) of two texts as whitespace-free character multisets."""
    a = "".join(ours.split())
    b = "".join(reference.split())
    if a == b:
        return 1.0, 1.0, 1.0
    if not a or not b:
        return 0.0, 0.0 if b else 1.0, 0.0 if a else 1.0
    ca, cb = Counter(a), Counter(b)
    common = sum(min(n, cb[c]) for c, n in ca.items())
    return 2 * common / (len(a) + len(b)), common / len(b), common / len(a)


def docx_text_fidelity(text: str, generated: Sequence[Span], reference: str) -> Fidelity:
    """Agreement of the canonical text (generated labels removed) with the independent reading."""
    value, recall, precision = docx_char_agreement(_docx_strip_spans(text, generated), reference)
    detail = (
        f"character agreement with the w:t reading: recall {recall:.4f}, precision {precision:.4f} "
        f"(whitespace ignored, {len(generated)} generated numbering labels excluded)"
    )
    return Fidelity(value=value, method="docx-wt-multiset", detail=detail)


def docx_fidelity_reason(fidelity: Fidelity) -> str | None:
    """Why the document is withheld for its text fidelity, or None."""
    if fidelity.value >= DOCX_FIDELITY_THRESHOLD:
        return None
    return (
        f"text fidelity {fidelity.value:.2%} is below {DOCX_FIDELITY_THRESHOLD:.1%} against an "
        f"independent reading of the document's text elements ({fidelity.detail})"
    )


def _docx_mark_removed(p: Any, view: str) -> bool:
    rpr = p.find(f"{W}pPr/{W}rPr")
    if rpr is None:
        return False
    names = ("ins", "moveTo") if view == "original" else ("del", "moveFrom")
    return any(rpr.find(W + n) is not None for n in names)


def docx_paragraph_properties(p: Any, view: str) -> Any | None:
    """A paragraph's w:pPr as it stands in the view (the original view reads w:pPrChange)."""
    ppr = p.find(W + "pPr")
    if ppr is not None and view == "original":
        change = ppr.find(W + "pPrChange")
        if change is not None:
            old = change.find(W + "pPr")
            return old if old is not None else ppr
    return ppr


def docx_count_numbered(document_root: Any, numbering: Numbering, *, view: str) -> int:
    """Numbered paragraphs of the body in the view: the sections a reading must find."""
    xpath = (
        f".//w:body//w:p[not(ancestor::w:tbl) and not(ancestor::w:txbxContent) and {_docx_excluded(view)}]"
    )
    count = 0
    if not numbering.nums:
        return 0
    memo: dict[Any, bool] = {}
    for p in document_root.xpath(xpath, namespaces=_DOCX_NS):
        if _docx_mark_removed(p, view):
            continue  # its paragraph mark is gone in this view: it merges into the next paragraph
        ppr = docx_paragraph_properties(p, view)
        if ppr is None:
            continue
        style = ppr.find(W + "pStyle")
        style_id = style.get(W + "val") if style is not None else None
        num_pr = ppr.find(W + "numPr")
        key = (None if num_pr is None else tuple((c.tag, c.get(W + "val")) for c in num_pr), style_id)
        if key not in memo:
            resolved = numbering.resolve(num_pr, style_id)
            level = numbering.level(*resolved) if resolved is not None else None
            memo[key] = level is not None and level.numbered and bool(level.text.strip())
        count += memo[key]
    return count


def docx_coverage_reason(sections: Sequence[Section], expected: int) -> str | None:
    """Why the document is withheld for its section coverage, or None when every clause was found."""
    found = len(sections)
    if found >= expected:
        return None
    return (
        f"found {found} of {expected} numbered clauses (the document numbers {expected} paragraphs "
        "automatically; a reading that misses their labels cannot locate them)"
    )
