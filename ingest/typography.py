"""The typographic fold: one table of the characters that print alike, shared by every reader.

The gate (`citationgate.normalize`) matches quotes on a view of the canonical text folded with this
table, and the PDF fidelity check (`ingest.fidelity`) folds both PDF readings with it before comparing
them, so the two never disagree about what counts as the same text. The table lives here, in the
lowest layer, because `ingest` may not import `citationgate`.

- quote marks and apostrophes of every family to ``"`` or ``'``; hyphens, dashes and minus signs to
  ``-``; the Greek question mark (U+037E) to ``;``; Unicode spaces to a space; line breaks to ``\n``;
- soft hyphens and zero-width characters are dropped (they print as nothing);
- the ligatures ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ expand to their letters.
"""

from __future__ import annotations

from collections.abc import Mapping

DOUBLE_QUOTES = (
    "\u0022\u00ab\u00bb\u201c\u201d\u201e\u201f\u2033\u2036\u275d\u275e\u2e42\u301d\u301e\u301f\uff02"
)
SINGLE_QUOTES = "\u0027\u2018\u2019\u201a\u201b\u2039\u203a\u2032\u2035\u275b\u275c\uff07\u02bc"
DASHES = "\u002d\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2043\ufe58\ufe63\uff0d"
#: Horizontal spaces: fold to " ".
SPACES = " \t\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000"
#: Line breaks: fold to "\n" (a whitespace that also marks a line end, for hyphenation).
BREAKS = "\n\r\u000b\u000c\u0085\u2028\u2029"
#: Printed as nothing: dropped.
INVISIBLE = "\u00ad\u200b\u200c\u200d\u2060\ufeff\u180e"
LIGATURES: Mapping[str, str] = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",
    "\ufb06": "st",
}


def _fold_table() -> dict[str, str]:
    table: dict[str, str] = {}
    for ch in DOUBLE_QUOTES:
        table[ch] = '"'
    for ch in SINGLE_QUOTES:
        table[ch] = "'"
    for ch in DASHES:
        table[ch] = "-"
    for ch in SPACES:
        table[ch] = " "
    for ch in BREAKS:
        table[ch] = "\n"
    for ch in INVISIBLE:
        table[ch] = ""
    table["\u037e"] = ";"  # Greek question mark, as real filings carry it for a semicolon
    table.update(LIGATURES)
    return table


#: Every fold, as one table: character → replacement ("" = dropped, 2–3 letters = ligature).
FOLDS: Mapping[str, str] = _fold_table()

__all__ = ["BREAKS", "DASHES", "DOUBLE_QUOTES", "FOLDS", "INVISIBLE", "LIGATURES", "SINGLE_QUOTES", "SPACES"]
