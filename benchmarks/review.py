"""Benchmark: a full review (ingest + playbook + gate + store) of a generated 50-page MSA.

    python benchmarks/review.py [--pages 50] [--repeat 3]

The contract is the Northwind sample agreement (sample_contracts/src/northwind_msa.md) followed by
generated statements of work built from its own sentences (seeded shuffle), until it reaches about
`--pages` pages at 3,000 characters a page; it is written as a DOCX with automatic numbering and as plain
text. Each run uses a fresh SQLite database, so the ingest is real, not a reuse by hash.

Baseline, measured in the same run: ingesting the same file alone (`load_document`). The ratio says what
the playbook, the gate and the store add on top of reading the document. Goal: a full review under 2 s.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from citationgate.review import review  # noqa: E402
from citationgate.store import Store  # noqa: E402
from citationgate.versions import ingest_file  # noqa: E402
from ingest.load import load_document  # noqa: E402
from playbooks import load_playbook  # noqa: E402

CHARS_PER_PAGE = 3000
GOAL_SECONDS = 2.0


def _build_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("sample_build", ROOT / "sample_contracts" / "build.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules["sample_build"] = mod
    spec.loader.exec_module(mod)
    return mod


def make_contract(pages: int, out_dir: Path) -> tuple[Path, Path]:
    """Write a ~`pages`-page MSA as DOCX and TXT; returns both paths."""
    build = _build_module()
    blocks = build.prepare("northwind_msa.md")
    sentences = [
        s.strip()
        for b in blocks
        if b.kind in ("num", "para")
        for s in re.split(r"(?<=[.;])\s+", build.view_text(b.text, "original"))
        if len(s) > 60
    ]
    rng = random.Random(20250303)
    extra = []
    sow = 1
    size = len(build.render_text(blocks))
    while size < pages * CHARS_PER_PAGE:
        extra.append(build.Block(kind="heading", text=f"SCHEDULE {sow + 1} - STATEMENT OF WORK {sow}"))
        for _ in range(25):
            text = " ".join(rng.sample(sentences, 3))
            extra.append(build.Block(kind="para", text=text))
            size += len(text) + 2
        sow += 1
    blocks = blocks + extra
    docx = out_dir / f"msa_{pages}p.docx"
    txt = out_dir / f"msa_{pages}p.txt"
    build.render_docx(blocks, docx, tracked=False)
    txt.write_text(build.render_text(blocks), encoding="utf-8")
    return docx, txt


def _time(fn: object, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--pages", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    playbook = load_playbook("msa-customer")
    with tempfile.TemporaryDirectory() as tmp:
        tmpdir = Path(tmp)
        files = make_contract(args.pages, tmpdir)
        runs = 0
        for path in files:
            doc = load_document(path)
            print(
                f"{path.name}: {len(doc.text):,} characters (~{len(doc.text) // CHARS_PER_PAGE} pages), "
                f"{len(doc.sections)} sections, status {doc.status}"
            )

            def ingest_only(path: Path = path) -> None:
                load_document(path)

            def full_review(path: Path = path) -> None:
                nonlocal runs
                runs += 1
                store = Store.open(str(tmpdir / f"bench-{runs}.db"))
                version, _ = ingest_file(store, path)
                review(version.document, playbook, store=store, version_id=version.id)

            full_review()  # warm-up: imports, compiled patterns
            base = _time(ingest_only, args.repeat)
            full = _time(full_review, args.repeat)
            result = review(doc, playbook)
            verdict = "within" if full < GOAL_SECONDS else "OVER"
            print(f"  baseline (ingest only)                 {base * 1000:8.1f} ms")
            n = len(result.findings)
            print(f"  full review (ingest+playbook+gate+store) {full * 1000:6.1f} ms  ({n} findings)")
            print(f"  ratio full/baseline {full / base:.2f}x; {verdict} the {GOAL_SECONDS:.0f} s goal")


if __name__ == "__main__":
    main()
