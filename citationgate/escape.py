"""Escaping for every surface that shows text we did not write: a document's words, a proposal's claim, a
playbook's rule, a file's name.

- `terminal`: control characters (C0 but newline, tab and the CR of a CRLF line end; DEL; C1) and the
  bidirectional-override and isolate characters become visible escapes (`\\u001b`, `\\u202e`), so a contract
  cannot clear the screen, recolour it, set a window title (OSC) or reorder what a reader sees. The escape
  is the JSON spelling, so applied to JSON it changes nothing a JSON reader sees. Applied twice it changes
  nothing more. Every text file the CLI writes with `--out` (table, Markdown, JSON, CSV) is escaped the
  same way as its stdout, since such a file is read with `cat` and `less` too.
- `markdown`: every character Markdown or HTML would act on is escaped (CommonMark backslash escapes for
  ASCII punctuation, `&` and `<` as entities), so headings, emphasis, links (`javascript:` ones included),
  raw HTML and `<script>` render as the text they are; terminal escapes too, on one line.
- `csv_cell`: a cell a spreadsheet would read as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a
  carriage return) is prefixed with `'`, as OWASP recommends against CSV injection.
"""

from __future__ import annotations

import re

__all__ = ["csv_cell", "markdown", "terminal"]

_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
# a carriage return is kept where it ends a line (CSV's CRLF), escaped alone (it would overwrite the line)
_UNSAFE = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f{_BIDI}]|\r(?!\n)")


def _visible(m: re.Match[str]) -> str:
    return f"\\u{ord(m.group()):04x}"


def terminal(text: str) -> str:
    """`text` safe to print: control and bidi-override characters shown as `\\uXXXX`."""
    return _UNSAFE.sub(_visible, text)


_MD_PUNCT = re.compile(r"([\\`*_{}\[\]#|!~>])")
_MD_LINE_START = re.compile(r"^(?:(\d+)([.)])|([-+=]))(?=\s|$)")  # a list marker, or a rule


def markdown(text: str) -> str:
    """`text` as literal Markdown inline text, on one line: no emphasis, code, link, image, heading,
    table cell break, HTML or entity can be made of it, nor a list if it starts a line."""
    flat = " ".join(terminal(text).split())
    flat = _MD_PUNCT.sub(r"\\\1", flat.replace("&", "&amp;").replace("<", "&lt;"))
    return _MD_LINE_START.sub(lambda m: f"{m[1]}\\{m[2]}" if m[1] else f"\\{m[3]}", flat)


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> str:
    """A CSV cell a spreadsheet shows as text, never runs as a formula."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(_FORMULA_START) else text
