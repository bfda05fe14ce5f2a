"""Benchmark: what a hostile input costs, against an honest input of the same size, in the same run.

    python benchmarks/hostile.py

Each case runs one real `citationgate` command in a fresh process on a hostile file and on an honest
file of the same size (the same bytes count, give or take a few), into a throw-away database, and
reports wall time and the process's peak resident memory (its own `VmHWM`). The goal: a hostile
input within 2× of its honest twin's cost, and never above 1 GB. Both include the process's start (about
a second of imports), which is what a user waits for.

Cases: a YAML alias bomb and a 5,000-deep YAML as the playbook; a playbook whose regex backtracks
catastrophically (`(\\w+\\s?)+X$`); proposals JSON nested 100,000 deep; a 1 MB DOCX whose document.xml
inflates to 250 MB; a DOCX whose ZIP directory lies about a part's size; a 5 MB text with a NUL at its
end; a UTF-16 text.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.docx_fixtures import build_docx, p  # noqa: E402

CLAUSE = "The Supplier shall provide the Services with reasonable skill and care within thirty (30) days.\n"
WORDS = [
    "supplier",
    "customer",
    "services",
    "agreement",
    "liability",
    "term",
    "notice",
    "payment",
    "invoice",
    "party",
]


@dataclass(frozen=True)
class Cost:
    seconds: float
    peak_mb: float
    exit_code: int


_CHILD = """
import atexit, sys
def _peak():  # this process's own high-water mark (VmHWM), not the forking parent's
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            sys.stderr.write("PEAK_KB " + line.split()[1] + "\\n")
atexit.register(_peak)
from citationgate.cli import main
main()
"""


def run(argv: list[str], db: Path) -> Cost:
    env = {**os.environ, "CITATIONGATE_DB": str(db), "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    proc = subprocess.run(  # noqa: S603 — our own CLI, our own files
        [sys.executable, "-c", _CHILD, *argv],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - start
    peak = [int(line.split()[1]) for line in proc.stderr.splitlines() if line.startswith("PEAK_KB ")]
    return Cost(seconds=seconds, peak_mb=(peak[-1] if peak else 0) / 1024, exit_code=proc.returncode)


def _contract(d: Path) -> Path:
    f = d / "contract.txt"
    f.write_text("".join(f"{i}. Clause {i}\n{CLAUSE}" for i in range(1, 30)), encoding="utf-8")
    return f


def _same_size(text: str, size: int) -> str:
    rnd = random.Random(7)
    out = []
    while sum(map(len, out)) < size:
        out.append(f"key_{len(out)}: {' '.join(rnd.choice(WORDS) for _ in range(6))}\n")
    return "".join(out)[:size]


def case_alias_bomb(d: Path) -> tuple[list[str], list[str]]:
    bomb = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + "".join(
        f"{c}: &{c} [{','.join(['*' + prev] * 9)}]\n" for prev, c in zip("abcdefgh", "bcdefghi", strict=True)
    )
    (d / "bomb.yaml").write_text(bomb)
    (d / "honest.yaml").write_text(_same_size(bomb, len(bomb)))
    c = str(_contract(d))
    return ["review", c, "--playbook", str(d / "bomb.yaml")], [
        "review",
        c,
        "--playbook",
        str(d / "honest.yaml"),
    ]


def case_deep_yaml(d: Path) -> tuple[list[str], list[str]]:
    deep = "a: " + "[" * 5000 + "]" * 5000 + "\n"
    (d / "deep.yaml").write_text(deep)
    (d / "flat.yaml").write_text(_same_size(deep, len(deep)))
    c = str(_contract(d))
    return ["review", c, "--playbook", str(d / "deep.yaml")], [
        "review",
        c,
        "--playbook",
        str(d / "flat.yaml"),
    ]


def case_catastrophic_regex(d: Path) -> tuple[list[str], list[str]]:
    text = (ROOT / "tests" / "playbook_fixtures" / "illustrative.yaml").read_text(encoding="utf-8")
    (d / "evil.yaml").write_text(text.replace('"shall not exceed"', r'"(\\w+\\s?)+X$"', 1))
    (d / "good.yaml").write_text(text.replace('"shall not exceed"', r'"(\\w+) shall not X"', 1))
    c = str(_contract(d))
    return ["review", c, "--playbook", str(d / "evil.yaml")], [
        "review",
        c,
        "--playbook",
        str(d / "good.yaml"),
    ]


def case_deep_json(d: Path) -> tuple[list[str], list[str]]:
    deep = '{"proposals": [{"id": "p1", "claim": "c", "x": ' + "[" * 100_000 + "]" * 100_000 + "}]}"
    (d / "deep.json").write_text(deep)
    quote = "provide the Services with reasonable skill and care"
    proposals, size = [], 0
    while size < len(deep):
        item = {"id": f"p{len(proposals)}", "claim": "care", "citations": [{"quote": quote}]}
        proposals.append(item)
        size += len(json.dumps(item)) + 2
    (d / "flat.json").write_text(json.dumps({"proposals": proposals}))
    c = str(_contract(d))
    return ["verify", str(d / "deep.json"), "--doc", c], ["verify", str(d / "flat.json"), "--doc", c]


def _docx_with_document_xml(path: Path, document_xml: bytes) -> None:
    build_docx(path, p("1. Term") + p(CLAUSE))
    with zipfile.ZipFile(path) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    parts["word/document.xml"] = document_xml
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for n, data in parts.items():
            z.writestr(n, data)


def case_docx_bomb(d: Path) -> tuple[list[str], list[str]]:
    build_docx(d / "seed.docx", p("1. Term") + p(CLAUSE))
    with zipfile.ZipFile(d / "seed.docx") as z:
        seed = z.read("word/document.xml").decode()
    head, tail = seed.split("<w:body>", 1)
    para = p(CLAUSE)
    reps = (250 << 20) // len(para)
    bomb = (
        head + "<w:body>" + para * reps + tail.split("</w:body>", 1)[0] + "</w:body></w:document>"
    ).encode()
    _docx_with_document_xml(d / "bomb.docx", bomb)
    target = (d / "bomb.docx").stat().st_size
    rnd = random.Random(3)
    body, n = [], 0
    honest = d / "honest.docx"
    while True:  # an honest contract whose DOCX is as large: clauses of varied words
        body.extend(
            p(f"{n + i}. " + " ".join(rnd.choice(WORDS + CLAUSE.split()) for _ in range(40)))
            for i in range(200)
        )
        n += 200
        build_docx(honest, "".join(body))
        if honest.stat().st_size >= target:
            break
    return ["ingest", str(d / "bomb.docx")], ["ingest", str(honest)]


def case_lying_zip(d: Path) -> tuple[list[str], list[str]]:
    build_docx(d / "good.docx", "".join(p(f"{i}. {CLAUSE}") for i in range(2000)))
    raw = bytearray((d / "good.docx").read_bytes())
    with zipfile.ZipFile(d / "good.docx") as z:
        size = z.getinfo("word/document.xml").file_size
    raw = raw.replace(size.to_bytes(4, "little"), (64).to_bytes(4, "little"))
    (d / "liar.docx").write_bytes(bytes(raw))
    return ["ingest", str(d / "liar.docx")], ["ingest", str(d / "good.docx")]


def case_nul_text(d: Path) -> tuple[list[str], list[str]]:
    body = "".join(f"{i}. Clause {i}\n{CLAUSE}" for i in range(1, 50_000))[: 5 << 20]
    (d / "nul.txt").write_text(body[:-1] + "\x00")
    (d / "honest.txt").write_text(body)
    return ["ingest", str(d / "nul.txt")], ["ingest", str(d / "honest.txt")]


def case_utf16(d: Path) -> tuple[list[str], list[str]]:
    body = "".join(f"{i}. Clause {i}\n{CLAUSE}" for i in range(1, 3000))
    (d / "utf16.txt").write_bytes(body.encode("utf-16-le"))
    (d / "utf8.txt").write_bytes((body + " " * len(body)).encode("utf-8")[: len(body) * 2])
    return ["ingest", str(d / "utf16.txt")], ["ingest", str(d / "utf8.txt")]


CASES: dict[str, Callable[[Path], tuple[list[str], list[str]]]] = {
    "yaml alias bomb": case_alias_bomb,
    "yaml 5,000 deep": case_deep_yaml,
    "catastrophic regex": case_catastrophic_regex,
    "json 100,000 deep": case_deep_json,
    "docx 250 MB xml": case_docx_bomb,
    "docx lying sizes": case_lying_zip,
    "text NUL at end": case_nul_text,
    "text UTF-16": case_utf16,
}


def main() -> None:
    print(f"{'case':<20} {'hostile':>22} {'honest':>22} {'time ×':>7} {'mem ×':>6}  verdict")
    worst = 0.0
    for name, build in CASES.items():
        with tempfile.TemporaryDirectory() as tmp:
            d = Path(tmp)
            hostile_argv, honest_argv = build(d)
            hostile = run(hostile_argv, d / "h.db")
            honest = run(honest_argv, d / "o.db")
        t, m = hostile.seconds / honest.seconds, hostile.peak_mb / honest.peak_mb
        worst = max(worst, t, m)
        ok = t <= 2 and m <= 2 and hostile.peak_mb < 1024
        print(
            f"{name:<20} {hostile.seconds:>6.2f} s {hostile.peak_mb:>6.0f} MB (exit {hostile.exit_code:>2})"
            f" {honest.seconds:>6.2f} s {honest.peak_mb:>6.0f} MB (exit {honest.exit_code:>2})"
            f" {t:>6.2f}× {m:>5.2f}×  {'ok' if ok else 'OVER'}"
        )
    print(f"worst ratio against the honest twin: {worst:.2f}× (goal ≤ 2×, and never above 1 GB)")


if __name__ == "__main__":
    main()
