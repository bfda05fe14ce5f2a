"""Benchmark: the review's footing — binding us and them (`resolve_roles`) and typing the contract
(`classify`) — each cue tried only where its leading word stands, against every cue run over every
character, as before (measured in the same run).

    python benchmarks/parties.py [--data ../shared/data] [--limit 8] [--repeat 2]

The texts: the largest `--limit` CUAD texts under `--data` (with their parties read once, outside the
timing), and the Northwind sample agreement grown to 50 pages as `benchmarks/review.py` builds it (the
contract a 50-page review reads). Each run starts with an empty regex cache, as a review of a new contract
does: the cues name the contract's own parties, so none is compiled before. The plain path runs every cue
with `re.findall` and then `re.search` over the whole text, as `resolve_roles` did before `parties.scan`;
both paths must give the same binding (the same parties, the same basis) and the same type, or the
benchmark fails.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from playbooks.contract_type import classify  # noqa: E402
from playbooks.parties import Party, read_parties, resolve_roles  # noqa: E402
from playbooks.parties.scan import Text  # noqa: E402

FAST = Text.findall


def _plain(
    self: Text, rx: str, flags: int, leads: Iterable[str] | None, *, limit: int | None = None
) -> list[re.Match[str]]:
    """The path before `parties.scan`: the cue over every character (`re.findall`), then its first match
    (`re.search`)."""
    hits = re.findall(rx, self.text, flags)
    if not hits:
        return []
    first = re.search(rx, self.text, flags)
    assert first is not None
    # what the callers read: how many (up to `limit`) and the first
    return [first] * min(len(hits), limit or len(hits))


def _contracts(data: Path, limit: int) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    folder = data / "cuad" / "texts"
    if folder.is_dir():
        paths = sorted(folder.glob("*.txt"), key=lambda p: -p.stat().st_size)[:limit]
        out = [(p.stem, p.read_text(encoding="utf-8", errors="replace")) for p in paths]
    import review as review_bench  # benchmarks/review.py: the 50-page contract it reviews

    with tempfile.TemporaryDirectory() as tmp:
        _, txt = review_bench.make_contract(50, Path(tmp))
        out.append(("northwind_50p", txt.read_text(encoding="utf-8")))
    return out


def _run(cases: list[tuple[str, str, list[Party]]]) -> tuple[float, list[str]]:
    re.purge()
    t0 = time.perf_counter()
    bases = [repr((resolve_roles(text, parties, "customer"), classify(text))) for _, text, parties in cases]
    return time.perf_counter() - t0, bases


Findall = Callable[..., list[re.Match[str]]]


def _time(path: Findall, cases: list[tuple[str, str, list[Party]]], repeat: int) -> tuple[float, list[str]]:
    Text.findall = path  # type: ignore[method-assign]
    try:
        runs = [_run(cases) for _ in range(repeat)]
    finally:
        Text.findall = FAST  # type: ignore[method-assign]
    return statistics.median(t for t, _ in runs), runs[0][1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--limit", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    contracts = _contracts(Path(args.data), args.limit)
    cases = [(name, text, read_parties(text)) for name, text in contracts]
    size = sum(len(t) for _, t, _ in cases)
    print(f"{len(cases)} contracts, {size:,} characters (the largest CUAD texts and a 50-page MSA)")
    plain, plain_out = _time(_plain, cases, args.repeat)
    fast, fast_out = _time(FAST, cases, args.repeat)
    if plain_out != fast_out:
        bad = [name for (name, _, _), a, b in zip(cases, plain_out, fast_out, strict=True) if a != b]
        print(f"Error: the two paths bind or type differently on {', '.join(bad)}", file=sys.stderr)
        return 1
    each = len(cases) / 1000
    print(f"  plain (every cue at every character)    {plain * 1000:8.1f} ms ({plain / each:.1f} a contract)")
    print(f"  scan (cues only at their leading words) {fast * 1000:8.1f} ms ({fast / each:.1f} a contract)")
    print(f"  ratio plain/scan {plain / fast:.1f}x; the same binding, basis and type on all {len(cases)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
