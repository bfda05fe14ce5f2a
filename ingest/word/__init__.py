"""DOCX: one canonical text from the WordprocessingML package, walked in body order.

python-docx's `Paragraph.text` reads only the runs directly inside a paragraph, so tracked
insertions, content controls, fields, smart tags and tables vanish and numbering is never there. This
reader walks the XML itself. What the canonical text holds, in order:

1. The body. Paragraphs are separated by "\\n". A table is its rows, one per line, cells separated by "\\t"
   (paragraphs inside a cell are separated by "\\n"); a vertically merged cell is read once (the
   continuation cells hold no text of their own); nested tables are read in place.
   Automatic numbering labels ("1.", "11.2", "(a)", "ARTICLE V") are rendered at the start of their
   paragraph followed by one "\\t", and recorded as generated spans (kind "numbering") that slice
   exactly to the label. Bullets are not rendered. Text boxes are read once (the `mc:Choice`, never
   also the `mc:Fallback` copy) and placed after the paragraph that anchors them.
   Fields keep their result and drop their instruction; `w:tab` is "\\t", `w:br`/`w:cr` (also page and
   column breaks) are "\\n", `w:noBreakHyphen` is U+2011, `w:softHyphen` is U+00AD, `w:sym` is the
   character Word stores (symbol-font glyphs stay private-use code points: no normalization).
2. Footnotes, then endnotes, that the body references in the chosen view (each a region, kind
   "footnote"/"endnote", in `metadata["regions"]`).
3. Headers, then footers, of every section (furniture, kind "header"/"footer"), each part once.

Regions after the body are separated from it and from each other by a blank line. Sections are made
only from the body.

Tracked changes are read as one explicit view: "accepted" keeps `w:ins`/`w:moveTo` and drops
`w:del`/`w:moveFrom`; "original" does the reverse and reads `w:pPrChange` for paragraph properties. A
paragraph mark deleted in the view joins its paragraph to the next one, as Word shows it.

The package is opened defensively: a ZIP with too many parts or inflating past a limit is refused;
XML is parsed without DTDs, external entities or network access, and a part that declares a DOCTYPE
is refused.

The package, by concept: `package`, `walker`, `headings`, `reader`.
"""

from __future__ import annotations

from ingest.word.package import MAX_INFLATED_BYTES, MAX_MEMBERS, MAX_PART_BYTES, parse_xml
from ingest.word.reader import BodyMap, load_docx, map_docx_body

__all__ = [
    "MAX_INFLATED_BYTES",
    "MAX_MEMBERS",
    "MAX_PART_BYTES",
    "BodyMap",
    "load_docx",
    "map_docx_body",
    "parse_xml",
]
