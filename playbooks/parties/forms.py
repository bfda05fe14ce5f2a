"""Preambles that name the parties without defining a term for each one.

"concluded between: EuroTel Bratislava a.s., Stefanikova 17, … and Sicap Ltd, Bernstrasse 34, …" names two
legal entities and leaves the body to call them "EuroTel" and "Sicap"; "Party A: Xi'an Zhonghong … Co., Ltd.
Address: … Party B: …" defines "Party A" and "Party B" by a label before each name. Each reader returns
(defined term, name, start, end) for every party it finds, or nothing unless it finds two.
"""

from __future__ import annotations

import re

__all__ = ["labelled_parties", "named_parties"]

# a legal entity's form at the end of its name
_SUFFIX = (
    r"(?:Inc|Incorporated|Corp|Corporation|Company|Co|LLC|L\.L\.C|Ltd|Limited|LLP|L\.P|LP|plc|PLC|GmbH|AG|"
    r"S\.A|SA|S/A|B\.V|BV|N\.V|NV|A/S|AB|Pty|S\.p\.A|SpA|S\.r\.l|Srl|a\.s|s\.r\.o|Oy|KG|SE|SAS|S\.A\.S)\.?"
)
_WORD = r"[A-Z0-9][A-Za-z0-9À-ÖØ-öø-ÿ.&'\-]*"
_NAME = rf"(?:{_WORD}(?:,?\s+|\s*&\s*)){{0,6}}?{_SUFFIX}"
# "between X, <address> and Y, <address>": two entity names, each optionally followed by its address
_BETWEEN_NAMES = re.compile(
    rf"\s*:?\s*(?:\(1\)\s*)?(?P<a>{_NAME})(?![A-Za-z])(?P<addr>[^.;]{{0,220}}?)?,?\s+(?:and|AND|And)\s+"
    rf"(?:\(2\)\s*)?(?P<b>{_NAME})(?![A-Za-z])"
)


def _count(text: str, term: str) -> int:
    return len(re.findall(r"(?<![A-Za-z])" + re.escape(term) + r"(?![a-z])", text))


def _short(text: str, name: str) -> str | None:
    """The name the body calls an entity by: its whole name when the body mostly writes it so ("Sicap Ltd
    shall"), else the name without its legal form ("Sicap"), else its first word ("EuroTel" for "EuroTel
    Bratislava a.s."), when the body uses it."""
    bare = re.sub(rf"[\s,]+{_SUFFIX}$", "", name).strip(" ,")
    if bare and bare != name and (n := _count(text, bare)) >= 3:
        return name if 2 * _count(text, name) >= n else bare
    first = bare.split()[0] if bare else ""
    if len(first) >= 4 and not first.isupper() and _count(text, first) >= 3:
        return first
    if len(first) >= 3 and first.isupper() and _count(text, first) >= 3:
        return first
    return None


def named_parties(text: str, at: int) -> list[tuple[str, str, int, int]]:
    """The two entities a preamble names right after 'between' at `at`, by the names the body uses."""
    m = _BETWEEN_NAMES.match(text, at, at + 700)
    if not m:
        return []
    out = []
    for g in ("a", "b"):
        name = " ".join(m.group(g).split()).strip(" ,")
        short = _short(text, name)
        if short is None:
            return []
        out.append((short, name, m.start(g), m.end(g)))
    if out[0][0].lower() == out[1][0].lower():
        return []
    return out


# "Party A: <name>", "Party B (Carrier): <name>", "The buyer/End-User: <name>" is left alone (no label term)
_LABEL = re.compile(
    r"\bParty\s+(?P<x>[A-H])\s*(?:\([^()\n]{1,30}\)\s*)?[:：]\s*(?P<name>[A-Z][^\n:：]{1,160}?)"
    r"(?=\s+(?:Address|ADD|Add|Legal|Registration|Registered|Contact|Tel|Domicile|Residence|Authori[sz]ed|"
    r"Post|Zip|Fax|Party\s+[A-H]\b)|\s*\(|\s*[\n;]|\s{2,}|,\s+(?=an?\s)|$)"
)


def labelled_parties(text: str) -> list[tuple[str, str, int, int]]:
    """Parties labelled in the opening ("Party A: …, Party B: …"), each defined as its label."""
    out: list[tuple[str, str, int, int]] = []
    seen: set[str] = set()
    for m in _LABEL.finditer(text, 0, min(len(text), 4000)):
        term = f"Party {m.group('x')}"
        if term in seen or _count(text, term) < 3:
            continue
        seen.add(term)
        out.append((term, " ".join(m.group("name").split()).strip(" ,"), m.start(), m.end("x")))
    return out if len(out) >= 2 else []
