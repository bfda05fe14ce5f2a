"""Re-verification speed: 10,000 findings against a ~1 MB redlined version, against first verification.

    python benchmarks/reverify.py [--findings 10000] [--size 1000000] [--seed 7] [--docx]

Builds a contract of numbered clauses (~1 MB), a redline of it (amounts changed, "not" inserted, clauses
inserted and deleted, a typographic-only edit), and 10,000 findings quoting version 1. Baseline, in the
same run: the first verification of the same findings on version 1 (`gate(…, fuzzy=True)`, the index
built inside the timing). Then `reverify(findings, v2, old=v1)` (exact only; aligning both versions and
building v2's index inside the timing). Prints both times, the ratio, and the statuses.

The goal (issue 4): re-verification no slower than first verification, and under a second here.

With `--docx` the redline is one DOCX with tracked changes (w:ins / w:del), read in its original and
accepted views; reading it is not timed. Without it the two versions are text files.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from citationgate import gate as gate_module  # noqa: E402
from citationgate.gate import gate  # noqa: E402
from citationgate.model import CitationRequest, Proposal  # noqa: E402
from citationgate.reverify import reverify  # noqa: E402
from ingest import load_document  # noqa: E402

_VOCABULARY = (
    "the Supplier Customer shall may must provide deliver pay invoice fees services within days",
    "of any all notice written party parties agreement obligation liability damages loss indirect",
    "consequential except unless provided that subject to reasonable efforts term renewal period",
    "termination breach material confidential information data personal processing security audit",
    "records insurance warranty performance standard acceptance tests deliverables intellectual",
    "property licence rights",
)
_WORDS = tuple(w for line in _VOCABULARY for w in line.split())


def _sentence(rng: random.Random) -> str:
    n = rng.randint(12, 30)
    words = [rng.choice(_WORDS) for _ in range(n)]
    words.insert(rng.randrange(n), f"{rng.randint(1, 999)},{rng.randint(100, 999)}")
    return " ".join(words).capitalize() + "."


Run = tuple[str, str]  # ("same" | "ins" | "del", text)
Para = tuple[str, list[Run]]  # ("same" | "ins" | "del" paragraph mark, runs)


def build(size: int, seed: int) -> tuple[list[str], list[str], list[Para]]:
    """Version 1 and version 2 as lines, and the redline between them as tracked-change paragraphs."""
    rng = random.Random(seed)
    clauses: list[tuple[str, str]] = []
    total, art = 0, 0
    while total < size:
        art += 1
        clauses.append((f"{art}.", f"Article heading {art}"))
        for k in range(1, rng.randint(4, 12)):
            body = " ".join(_sentence(rng) for _ in range(rng.randint(1, 4)))
            clauses.append((f"{art}.{k}", body))
            total += len(body) + 8
    redline: list[Para] = []
    for label, body in clauses:
        r = rng.random()
        head = f"{label} "
        if "." not in label.rstrip("."):
            redline.append(("same", [("same", head + body)]))
        elif r < 0.02:  # an amount changed
            words = body.split()
            i = next((i for i, w in enumerate(words) if "," in w), 0)
            before, after = " ".join(words[:i]), " ".join(words[i + 1 :])
            runs = [("same", head + before + " "), ("del", words[i]), ("ins", words[i].replace(",", "0,", 1))]
            redline.append(("same", [*runs, ("same", " " + after)]))
        elif r < 0.04:  # "not" inserted
            words = body.split()
            i = rng.randrange(1, len(words))
            runs = [
                ("same", head + " ".join(words[:i]) + " "),
                ("ins", "not "),
                ("same", " ".join(words[i:])),
            ]
            redline.append(("same", runs))
        elif r < 0.045:  # a clause deleted
            redline.append(("del", [("del", head + body)]))
        elif r < 0.05:  # a new clause inserted before it
            redline.append(("ins", [("ins", f"{label}A {_sentence(rng)}")]))
            redline.append(("same", [("same", head + body)]))
        elif r < 0.055:  # a non-breaking space: typographic only
            i = body.find(" the ")
            if i < 0:
                redline.append(("same", [("same", head + body)]))
            else:
                runs = [
                    ("same", head + body[:i] + " the"),
                    ("del", " "),
                    ("ins", "\u00a0"),
                    ("same", body[i + 5 :]),
                ]
                redline.append(("same", runs))
        else:
            redline.append(("same", [("same", head + body)]))
    v1 = ["".join(t for k, t in runs if k != "ins") for mark, runs in redline if mark != "ins"]
    v2 = ["".join(t for k, t in runs if k != "del") for mark, runs in redline if mark != "del"]
    return v1, v2, redline


def _docx(path: Path, redline: list[Para]) -> Path:
    """One DOCX holding both versions as tracked changes (w:ins / w:del, paragraph marks included)."""
    from tests.docx_fixtures import build_docx, dele, ins, p

    body = []
    for mark, runs in redline:
        parts = [ins(t) if k == "ins" else dele(t) if k == "del" else t for k, t in runs]
        body.append(p(*parts, mark=mark if mark != "same" else ""))
    return build_docx(path, "".join(body))


def _text(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


def _quotes(text: str, n: int, seed: int) -> list[str]:
    rng = random.Random(seed + 1)
    lines = [ln for ln in text.split("\n") if len(ln.split()) > 14]
    out = []
    for _ in range(n):
        words = rng.choice(lines).split()[1:]
        k = rng.randint(6, min(18, len(words)))
        i = rng.randrange(0, len(words) - k + 1)
        out.append(" ".join(words[i : i + k]))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--findings", type=int, default=10_000)
    ap.add_argument("--size", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--docx", action="store_true", help="one redlined DOCX instead of two text files")
    args = ap.parse_args()

    v1_lines, v2_lines, redline = build(args.size, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        if args.docx:
            path = _docx(Path(tmp) / "redline.docx", redline)
            t0 = time.perf_counter()
            old, new = load_document(path, view="original"), load_document(path, view="accepted")
            took = time.perf_counter() - t0
            print(f"redline.docx {path.stat().st_size:,} bytes, both views read in {took:.1f} s (not timed)")
        else:
            p1, p2 = Path(tmp) / "v1.txt", Path(tmp) / "v2.txt"
            p1.write_text(_text(v1_lines), encoding="utf-8")
            p2.write_text(_text(v2_lines), encoding="utf-8")
            old, new = load_document(p1), load_document(p2)
    quotes = _quotes(old.text, args.findings, args.seed)
    proposals = [
        Proposal(id=f"p{i}", claim="benchmark", citations=(CitationRequest(quote=q),))
        for i, q in enumerate(quotes)
    ]
    print(
        f"v1 {len(old.text):,} chars, {len(old.sections):,} sections; v2 {len(new.text):,} chars; "
        f"{len(proposals):,} findings"
    )

    gate_module._CACHE.clear()
    w0, c0 = time.perf_counter(), time.process_time()
    first = gate(old, proposals, fuzzy=True)
    t_first, c_first = time.perf_counter() - w0, time.process_time() - c0
    findings = [f.to_dict() for f in first.findings]

    gate_module._CACHE.clear()
    w0, c0 = time.perf_counter(), time.process_time()
    result = reverify(findings, new, old=old)
    t_re, c_re = time.perf_counter() - w0, time.process_time() - c0

    gate_module._CACHE.clear()
    w0, c0 = time.perf_counter(), time.process_time()
    reverify(findings, new)
    t_json, c_json = time.perf_counter() - w0, time.process_time() - c0

    print("                                          wall       cpu   wall ratio to first verification")
    print(f"first verification (gate, fuzzy):      {t_first:7.3f} s {c_first:7.3f} s")
    print(f"re-verification (aligned, exact only): {t_re:7.3f} s {c_re:7.3f} s   {t_re / t_first:.2f}x")
    print(f"re-verification (--findings, no old):  {t_json:7.3f} s {c_json:7.3f} s   {t_json / t_first:.2f}x")
    print("statuses:", dict(sorted(result.summary.items())))
    no_slower = t_re <= t_first and c_re <= c_first
    print(f"goal 1, no slower than first verification (wall and cpu): {'met' if no_slower else 'NOT met'}")
    print(
        f"goal 2, under a second: cpu {c_re:.3f} s {'met' if c_re < 1.0 else 'NOT met'}, "
        f"wall {t_re:.3f} s {'met' if t_re < 1.0 else 'NOT met'}"
        + ("" if t_re < 1.0 or t_re < 1.5 * c_re else " (wall well above cpu: the machine is busy)")
    )


if __name__ == "__main__":
    main()
