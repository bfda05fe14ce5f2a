"""DOCX automatic numbering: the labels Word draws in front of numbered paragraphs.

Clause numbers in a Word contract ("1.", "11.2", "(a)", "(iv)", "ARTICLE V") are not in any text run:
they are generated from `word/numbering.xml` when the document is shown. This module reads that part
and `word/styles.xml` (numbering inherited through paragraph styles) and renders the labels:

- `w:abstractNum` holds up to nine levels (`w:lvl`): start value (`w:start`), number format
  (`w:numFmt`: decimal, lowerLetter, upperLetter, lowerRoman, upperRoman, bullet, none, …), label
  template (`w:lvlText`, e.g. "%1.%2" or "ARTICLE %1"), `w:isLgl` (all levels shown as decimals),
  `w:lvlRestart` (which shallower level restarts this one) and `w:suff` (tab, space, nothing).
- `w:num` points at an abstractNum and may override levels (`w:lvlOverride`: `w:startOverride`, or a
  whole replacement `w:lvl`).
- Counters: Word continues one list across every `w:num` that points at the same abstractNum
  without overrides, so those share a counter; a `w:num` with overrides is a list of its own that
  starts at its override. A deeper level restarts when a shallower level advances (unless
  `w:lvlRestart` says otherwise).

Bullets and "none" levels produce no label here: they number nothing a lawyer would cite.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W = "{" + W_NS + "}"

#: Formats that never carry a number worth citing; paragraphs numbered with them are not clauses.
UNNUMBERED_FORMATS = frozenset({"bullet", "none"})

_ONES = [
    "",
    "One",
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Eleven",
    "Twelve",
    "Thirteen",
    "Fourteen",
    "Fifteen",
    "Sixteen",
    "Seventeen",
    "Eighteen",
    "Nineteen",
]
_TENS = ["", "", "Twenty", "Thirty", "Forty", "Fifty", "Sixty", "Seventy", "Eighty", "Ninety"]
_ORDINAL_WORDS = {
    "One": "First",
    "Two": "Second",
    "Three": "Third",
    "Five": "Fifth",
    "Eight": "Eighth",
    "Nine": "Ninth",
    "Twelve": "Twelfth",
}


def _attr(el: Any, name: str = "val") -> str | None:
    if el is None:
        return None
    v = el.get(W + name)
    return None if v is None else str(v)


def _int_attr(el: Any, default: int | None = None) -> int | None:
    v = _attr(el)
    if v is None:
        return default
    try:
        return int(v)
    except ValueError:
        return default


def _on(el: Any) -> bool:
    """A WordprocessingML on/off property: present and not val="0"/"false"/"off"."""
    if el is None:
        return False
    return _attr(el) not in ("0", "false", "off")


def to_roman(n: int) -> str:
    if n <= 0:
        return str(n)
    out = []
    for value, sym in (
        (1000, "m"),
        (900, "cm"),
        (500, "d"),
        (400, "cd"),
        (100, "c"),
        (90, "xc"),
        (50, "l"),
        (40, "xl"),
        (10, "x"),
        (9, "ix"),
        (5, "v"),
        (4, "iv"),
        (1, "i"),
    ):
        while n >= value:
            out.append(sym)
            n -= value
    return "".join(out)


def to_letters(n: int) -> str:
    """Word's letter numbering: a..z, then aa..zz, aaa… (the letter repeated, not base 26)."""
    if n <= 0:
        return str(n)
    return chr(ord("a") + (n - 1) % 26) * ((n - 1) // 26 + 1)


def _cardinal(n: int) -> str:
    if n < 20:
        return _ONES[n] if n > 0 else "Zero"
    if n < 100:
        t, o = divmod(n, 10)
        return _TENS[t] + ("-" + _ONES[o] if o else "")
    if n < 1000:
        h, r = divmod(n, 100)
        return _ONES[h] + " Hundred" + (" " + _cardinal(r) if r else "")
    return str(n)


def _ordinal_text(n: int) -> str:
    words = _cardinal(n)
    head, sep, last = words.rpartition("-") if "-" in words else ("", "", words)
    if last in _ORDINAL_WORDS:
        last = _ORDINAL_WORDS[last]
    elif last.endswith("y"):
        last = last[:-1] + "ieth"
    else:
        last += "th"
    return head + sep + last


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def format_number(n: int, fmt: str) -> str:
    """Render counter value `n` in WordprocessingML number format `fmt` (unknown formats: decimal)."""
    if fmt in UNNUMBERED_FORMATS:
        return ""
    if fmt == "lowerLetter":
        return to_letters(n)
    if fmt == "upperLetter":
        return to_letters(n).upper()
    if fmt == "lowerRoman":
        return to_roman(n)
    if fmt == "upperRoman":
        return to_roman(n).upper()
    if fmt == "decimalZero":
        return f"{n:02d}"
    if fmt == "ordinal":
        return _ordinal(n)
    if fmt == "cardinalText":
        return _cardinal(n)
    if fmt == "ordinalText":
        return _ordinal_text(n)
    return str(n)


@dataclass(frozen=True, slots=True, kw_only=True)
class Level:
    """One level (`w:lvl`) of a numbering definition."""

    ilvl: int
    start: int = 1
    fmt: str = "decimal"
    text: str = ""  # w:lvlText, e.g. "%1.%2."
    is_lgl: bool = False
    restart: int | None = None  # w:lvlRestart; None = restart after any shallower level
    suffix: str = "tab"  # w:suff: tab | space | nothing
    pstyle: str | None = None  # w:pStyle: the paragraph style tied to this level

    @property
    def numbered(self) -> bool:
        return self.fmt not in UNNUMBERED_FORMATS


def _parse_level(el: Any) -> Level:
    ilvl = int(el.get(W + "ilvl", "0"))
    lvl_text = el.find(W + "lvlText")
    return Level(
        ilvl=ilvl,
        start=_int_attr(el.find(W + "start"), 1) or 0,
        fmt=_attr(el.find(W + "numFmt")) or "decimal",
        text=_attr(lvl_text) or "",
        is_lgl=_on(el.find(W + "isLgl")),
        restart=_int_attr(el.find(W + "lvlRestart")),
        suffix=_attr(el.find(W + "suff")) or "tab",
        pstyle=_attr(el.find(W + "pStyle")),
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class AbstractNum:
    id: str
    levels: Mapping[int, Level]
    num_style_link: str | None = None  # w:numStyleLink: "use the list defined by numbering style X"


@dataclass(frozen=True, slots=True, kw_only=True)
class Num:
    id: str
    abstract_id: str
    start_overrides: Mapping[int, int] = field(default_factory=dict)
    level_overrides: Mapping[int, Level] = field(default_factory=dict)

    @property
    def overridden(self) -> bool:
        return bool(self.start_overrides or self.level_overrides)


@dataclass(frozen=True, slots=True, kw_only=True)
class StyleInfo:
    """What numbering and headings need from one `w:style` in styles.xml."""

    id: str
    name: str
    based_on: str | None
    num_id: str | None  # from w:pPr/w:numPr/w:numId ("0" switches numbering off)
    ilvl: int | None
    outline_level: int | None  # w:pPr/w:outlineLvl (0-based)


def parse_styles(root: Any | None) -> dict[str, StyleInfo]:
    """The paragraph and numbering styles of styles.xml, by style id."""
    styles: dict[str, StyleInfo] = {}
    if root is None:
        return styles
    for st in root.iter(W + "style"):
        sid = st.get(W + "styleId")
        if sid is None:
            continue
        ppr = st.find(W + "pPr")
        num_pr = ppr.find(W + "numPr") if ppr is not None else None
        styles[sid] = StyleInfo(
            id=sid,
            name=(_attr(st.find(W + "name")) or sid),
            based_on=_attr(st.find(W + "basedOn")),
            num_id=_attr(num_pr.find(W + "numId")) if num_pr is not None else None,
            ilvl=_int_attr(num_pr.find(W + "ilvl")) if num_pr is not None else None,
            outline_level=_int_attr(ppr.find(W + "outlineLvl")) if ppr is not None else None,
        )
    return styles


def style_chain(styles: Mapping[str, StyleInfo], style_id: str | None) -> list[StyleInfo]:
    """The style and everything it is based on, nearest first (cycles cut)."""
    chain: list[StyleInfo] = []
    seen: set[str] = set()
    while style_id is not None and style_id not in seen and style_id in styles:
        seen.add(style_id)
        st = styles[style_id]
        chain.append(st)
        style_id = st.based_on
    return chain


@dataclass(frozen=True, slots=True, kw_only=True)
class Numbering:
    """The parsed numbering part (plus the styles it refers to)."""

    abstracts: Mapping[str, AbstractNum] = field(default_factory=dict)
    nums: Mapping[str, Num] = field(default_factory=dict)
    styles: Mapping[str, StyleInfo] = field(default_factory=dict)
    #: (numId, ilvl) -> the level in force, overrides and style links resolved once at parse time
    levels: Mapping[tuple[str, int], Level] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.levels and self.nums:
            resolved = {}
            for nid in self.nums:
                for ilvl in range(9):
                    lv = self._level(nid, ilvl)
                    if lv is not None:
                        resolved[(nid, ilvl)] = lv
            object.__setattr__(self, "levels", resolved)

    @classmethod
    def parse(cls, root: Any | None, styles: Mapping[str, StyleInfo] | None = None) -> Numbering:
        abstracts: dict[str, AbstractNum] = {}
        nums: dict[str, Num] = {}
        if root is not None:
            for an in root.iter(W + "abstractNum"):
                aid = an.get(W + "abstractNumId")
                if aid is None:
                    continue
                levels = {}
                for lvl in an.findall(W + "lvl"):
                    level = _parse_level(lvl)
                    levels[level.ilvl] = level
                abstracts[aid] = AbstractNum(
                    id=aid, levels=levels, num_style_link=_attr(an.find(W + "numStyleLink"))
                )
            for num in root.iter(W + "num"):
                nid = num.get(W + "numId")
                aid = _attr(num.find(W + "abstractNumId"))
                if nid is None or aid is None:
                    continue
                starts: dict[int, int] = {}
                lvls: dict[int, Level] = {}
                for ov in num.findall(W + "lvlOverride"):
                    ilvl = int(ov.get(W + "ilvl", "0"))
                    so = _int_attr(ov.find(W + "startOverride"))
                    if so is not None:
                        starts[ilvl] = so
                    lv = ov.find(W + "lvl")
                    if lv is not None:
                        lvls[ilvl] = replace(_parse_level(lv), ilvl=ilvl)
                nums[nid] = Num(id=nid, abstract_id=aid, start_overrides=starts, level_overrides=lvls)
        return cls(abstracts=abstracts, nums=nums, styles=dict(styles or {}))

    def abstract_for(self, num_id: str) -> AbstractNum | None:
        """The abstractNum behind `num_id`, following w:numStyleLink through numbering styles."""
        num = self.nums.get(num_id)
        if num is None:
            return None
        an = self.abstracts.get(num.abstract_id)
        seen = set()
        while an is not None and an.num_style_link and an.id not in seen:
            seen.add(an.id)
            linked = None
            for st in style_chain(self.styles, an.num_style_link):
                if st.num_id is not None:
                    linked = self.nums.get(st.num_id)
                    break
            if linked is None:
                break
            an = self.abstracts.get(linked.abstract_id)
        return an

    def level(self, num_id: str, ilvl: int) -> Level | None:
        """The level definition used for a paragraph numbered (num_id, ilvl), overrides applied."""
        return self.levels.get((num_id, ilvl))

    def _level(self, num_id: str, ilvl: int) -> Level | None:
        num = self.nums.get(num_id)
        if num is None:
            return None
        if ilvl in num.level_overrides:
            return num.level_overrides[ilvl]
        an = self.abstract_for(num_id)
        if an is None:
            return None
        return an.levels.get(ilvl)

    def resolve(self, num_pr: Any | None, style_id: str | None) -> tuple[str, int] | None:
        """(numId, ilvl) of a paragraph from its own w:numPr and its style chain; None if unnumbered."""
        num_id: str | None = None
        ilvl: int | None = None
        if num_pr is not None:
            num_id = _attr(num_pr.find(W + "numId"))
            ilvl = _int_attr(num_pr.find(W + "ilvl"))
        chain = style_chain(self.styles, style_id)
        for st in chain:
            if num_id is None and st.num_id is not None:
                num_id = st.num_id
                if ilvl is None:
                    ilvl = st.ilvl
            if num_id is not None:
                break
        if num_id is None or num_id == "0" or num_id not in self.nums:
            return None
        if ilvl is None:
            for st in chain:
                if st.ilvl is not None:
                    ilvl = st.ilvl
                    break
        if ilvl is None and style_id is not None:
            an = self.abstract_for(num_id)
            if an is not None:
                for lv in an.levels.values():
                    if lv.pstyle == style_id:
                        ilvl = lv.ilvl
                        break
        ilvl = min(max(ilvl or 0, 0), 8)
        return num_id, ilvl


@dataclass(frozen=True, slots=True, kw_only=True)
class Label:
    """A rendered numbering label and the separator Word draws after it."""

    text: str
    level: Level
    num_id: str


class Counters:
    """Running counters for one story (body, footnotes, a header…), in document order.

    Nums without overrides share the counters of their abstractNum (Word continues the list);
    a num with overrides keeps counters of its own.
    """

    def __init__(self, numbering: Numbering) -> None:
        self._numbering = numbering
        self._counts: dict[str, list[int | None]] = {}
        self._keys: dict[str, str] = {}

    def _key(self, num_id: str) -> str:
        key = self._keys.get(num_id)
        if key is None:
            key = self._keys[num_id] = self._compute_key(num_id)
        return key

    def _compute_key(self, num_id: str) -> str:
        num = self._numbering.nums[num_id]
        if num.overridden:
            return "num:" + num_id
        an = self._numbering.abstract_for(num_id)
        return "abs:" + (an.id if an is not None else num.abstract_id)

    def _start(self, num_id: str, ilvl: int) -> int:
        num = self._numbering.nums[num_id]
        if ilvl in num.start_overrides:
            return num.start_overrides[ilvl]
        lv = self._numbering.level(num_id, ilvl)
        return lv.start if lv is not None else 1

    def advance(self, num_id: str, ilvl: int) -> Label | None:
        """Count one paragraph numbered (num_id, ilvl); return its label, or None (bullet, none, empty)."""
        level = self._numbering.level(num_id, ilvl)
        if level is None:
            return None
        counts = self._counts.setdefault(self._key(num_id), [None] * 9)
        current = counts[ilvl]
        counts[ilvl] = self._start(num_id, ilvl) if current is None else current + 1
        for deeper in range(ilvl + 1, 9):
            lv = self._numbering.level(num_id, deeper)
            restart = lv.restart if lv is not None else None
            if restart is None or (restart != 0 and ilvl < restart):
                counts[deeper] = None
        if not level.numbered:
            return None
        text = self._render(num_id, level, counts)
        if not text.strip():
            return None
        return Label(text=text, level=level, num_id=num_id)

    def _render(self, num_id: str, level: Level, counts: list[int | None]) -> str:
        template = level.text
        out: list[str] = []
        i = 0
        while i < len(template):
            ch = template[i]
            if ch == "%" and i + 1 < len(template) and template[i + 1].isdigit():
                n = int(template[i + 1]) - 1
                i += 2
                if not 0 <= n <= 8:
                    continue
                value = counts[n]
                if value is None:
                    value = self._start(num_id, n)
                lv = self._numbering.level(num_id, n)
                fmt = lv.fmt if lv is not None else "decimal"
                if level.is_lgl and fmt not in UNNUMBERED_FORMATS:
                    fmt = "decimal"
                out.append(format_number(value, fmt))
                continue
            out.append(ch)
            i += 1
        return "".join(out)
