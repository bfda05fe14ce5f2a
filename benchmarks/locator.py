"""Benchmark: what the learned clause locator costs — load time, weights size, time per contract, and its
share of a full review.

    python benchmarks/locator.py [--contracts 40] [--repeat 3] [--data ../shared/data]

Contracts: the first `--contracts` CUAD texts under `--data` when present, else the generated 50-page MSA
of benchmarks/review.py. Baseline, measured in the same run: the same review with the rules alone
(`review(..., locator=False)`), and the ratio fused / rules.

The locator's share of a review (goal ≤ 20 %) is measured directly: the CPU time spent inside the
locator's own calls (`Locator.scan_text` and `Locator.score`, outermost call only) during the fused reviews,
over those reviews' CPU time. CPU time (`time.process_time`), not wall time, so a busy shared machine does
not move it much. The difference (fused − rules) / fused is printed too, but it is not the locator's cost: a
fused review also makes fewer or other absence searches than the rules alone, so it can even be negative.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from citationgate.review import review  # noqa: E402
from ingest.document import Document  # noqa: E402
from ingest.load import load_document  # noqa: E402
from playbooks import load_playbook  # noqa: E402
from playbooks.locator import WEIGHTS, Locator, load_locator  # noqa: E402
from playbooks.locator.model import _loaded  # noqa: E402

GOAL_SHARE = 0.20


def _documents(data: Path, n: int) -> list[Document]:
    texts = sorted((data / "cuad" / "texts").glob("*.txt"))[:n]
    if texts:
        return [load_document(p) for p in texts]
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from review import make_contract  # type: ignore[import-not-found]

    tmp = Path(tempfile.mkdtemp())
    _, txt = make_contract(50, tmp)
    return [load_document(txt)]


def _median(fn: object, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        fn()  # type: ignore[operator]
        times.append(time.process_time() - t0)
    return statistics.median(times)


class _InLocator:
    """CPU seconds spent inside the locator's own calls (the outermost of nested ones), while installed."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._depth = 0
        self._saved: dict[str, Any] = {}

    def __enter__(self) -> _InLocator:
        for name in ("scan_text", "score"):
            original = getattr(Locator, name)
            self._saved[name] = original
            setattr(Locator, name, self._timed(original))
        return self

    def __exit__(self, *exc: object) -> None:
        for name, original in self._saved.items():
            setattr(Locator, name, original)

    def _timed(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            self._depth += 1
            t0 = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self._depth -= 1
                if self._depth == 0:
                    self.seconds += time.process_time() - t0

        return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--contracts", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    args = parser.parse_args()

    _loaded.clear()
    t0 = time.perf_counter()
    loc: Locator = load_locator()
    load_s = time.perf_counter() - t0
    size = WEIGHTS.stat().st_size / 1e6
    print(f"locator {loc.version}: weights {size:.2f} MB, loaded in {load_s * 1000:.0f} ms")

    docs = _documents(args.data, args.contracts)
    chars = sum(len(d.text) for d in docs)
    playbook = load_playbook("msa-customer")
    for d in docs[:2]:  # warm-up: imports, compiled patterns, the word cache
        review(d, playbook, locator=loc)

    def scan_all() -> None:
        for d in docs:
            loc.scan(d)

    def rules_reviews() -> None:
        for d in docs:
            review(d, playbook, locator=False)

    def fused_reviews() -> None:
        for d in docs:
            review(d, playbook, locator=loc)

    scan = _median(scan_all, args.repeat) / len(docs)
    rules = _median(rules_reviews, args.repeat) / len(docs)
    with _InLocator() as inside:
        fused_total = 0.0
        for _ in range(args.repeat):
            t0 = time.process_time()
            fused_reviews()
            fused_total += time.process_time() - t0
    fused = fused_total / args.repeat / len(docs)
    in_locator = inside.seconds / args.repeat / len(docs)
    share = in_locator / fused if fused else 0.0
    print(f"{len(docs)} contracts, {chars / len(docs):,.0f} characters each on average (CPU time)")
    print(f"  locator scan alone                     {scan * 1000:8.1f} ms per contract")
    print(f"  baseline: review with the rules alone   {rules * 1000:8.1f} ms per contract")
    print(f"  review fused with the locator           {fused * 1000:8.1f} ms per contract")
    print(f"    of which inside the locator's calls   {in_locator * 1000:8.1f} ms per contract")
    verdict = "within" if share <= GOAL_SHARE else "OVER"
    print(
        f"  ratio fused/rules {fused / rules:.2f}x (difference {(fused - rules) / fused:+.0%} of a fused "
        f"review, not the locator's cost); the locator's share of a review {share:.0%} ({verdict} the "
        f"{GOAL_SHARE:.0%} goal)"
    )


if __name__ == "__main__":
    main()
