"""Regenerate the golden review findings of the sample contracts — deliberately, never from a test.

    python tests/golden/regenerate.py            # rewrite tests/golden/<sample>.json
    python tests/golden/regenerate.py --check    # exit 1 if any golden differs (prints what changed)

Run it after a deliberate change to the built-in playbook, the engine or a sample contract, then read the
diff (`git diff tests/golden`) before committing it: every changed line is a changed legal judgment.
Each golden lists, in the review's order, every surfaced finding's rule → outcome, severity, evidence and
gate status, and the rules the review could not conclude on.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent
PLAYBOOK = "msa-customer"

#: sample file → the DOCX view it is reviewed in (the redline's accepted view is the negotiated text).
SAMPLES: dict[str, str] = {
    "northwind_msa.docx": "accepted",
    "northwind_msa_redline.docx": "accepted",
    "harbor_msa.pdf": "accepted",
    "meridian_msa.txt": "accepted",
}


def project(data: dict[str, Any]) -> dict[str, Any]:
    """The part of a review's JSON the golden pins down."""
    return {
        "findings": [
            {
                "rule": f["rule"],
                "outcome": f["outcome"],
                "severity": f["severity"],
                "evidence": f["evidence"],
                "status": f["status"],
            }
            for f in data["findings"]
        ],
        "not_concluded": [n["rule"] for n in data["summary"].get("not_concluded", [])],
    }


def golden_path(sample: str) -> Path:
    return GOLDEN / f"{Path(sample).stem}.json"


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    from citationgate.review import review
    from ingest.load import load_document
    from playbooks import load_playbook

    playbook = load_playbook(PLAYBOOK)
    check = "--check" in argv
    changed = 0
    for sample, view in SAMPLES.items():
        doc = load_document(ROOT / "sample_contracts" / sample, view=view)
        data = review(doc, playbook).to_dict()
        golden = {
            "sample": sample,
            "view": view,
            "playbook": {"id": playbook.id, "version": playbook.version},
            **project(data),
        }
        path = golden_path(sample)
        text = json.dumps(golden, indent=2, ensure_ascii=False) + "\n"
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        if old != text:
            changed += 1
            print(f"{'differs' if check else 'wrote'}: {path.relative_to(ROOT)}")
            if not check:
                path.write_text(text, encoding="utf-8")
    if not changed:
        print("goldens up to date")
    return 1 if check and changed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
