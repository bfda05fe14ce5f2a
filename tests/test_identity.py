"""One identity for a finding everywhere: the proposer's id survives into every surface, and a
playbook finding has one id (no F/P drift)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from citationgate.cli import app
from citationgate.store import Store

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "sample_contracts"

V1 = (
    "1. Payment\n1.1 The Customer shall pay all invoices within 30 days of receipt.\n\n"
    "2. Liability\n2.1 The Supplier's total liability is capped at ₦50,000,000 in aggregate.\n"
)
V2 = "0. Preamble\n0.1 This paragraph is new.\n\n" + V1.replace("₦50,000,000", "₦500,000,000")


def invoke_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, [*args, "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def _verified(tmp_path: Path) -> tuple[Path, Path, dict[str, Any]]:
    v1, v2 = tmp_path / "v1.txt", tmp_path / "v2.txt"
    v1.write_text(V1, encoding="utf-8")
    v2.write_text(V2, encoding="utf-8")
    props = tmp_path / "p.json"
    props.write_text(
        json.dumps(
            {
                "proposals": [
                    {
                        "id": "pay-30",
                        "claim": "Invoices are paid within 30 days.",
                        "citations": [{"quote": "The Customer shall pay all invoices within 30 days"}],
                    },
                    {
                        "id": "cap-50m",
                        "claim": "Liability is capped at ₦50,000,000.",
                        "citations": [{"quote": "total liability is capped at ₦50,000,000"}],
                    },
                ]
            }
        ),
        encoding="utf-8",
    )
    return v1, v2, invoke_json("verify", str(props), "--doc", str(v1))


def test_the_proposers_id_survives_into_every_surface(tmp_path: Path, db_path: Path) -> None:
    v1, v2, verified = _verified(tmp_path)
    rid = verified["review"]["id"]
    assert [f["proposal_id"] for f in verified["findings"]] == ["pay-30", "cap-50m"]

    table = runner.invoke(app, ["verify", str(tmp_path / "p.json"), "--doc", str(v1)]).stdout
    assert "F1 (pay-30)  VERIFIED" in table and "F2 (cap-50m)  VERIFIED" in table
    assert "F1 (pay-30)" in runner.invoke(app, ["findings", str(rid)]).stdout

    after = invoke_json("reverify", str(rid), str(v2))
    assert [(f["proposal_id"], f["status"]) for f in after["findings"]] == [
        ("pay-30", "verified"),
        ("cap-50m", "stale"),
    ]
    stored = invoke_json("findings", str(after["review"]["id"]))
    assert [f["proposal_id"] for f in stored["findings"]] == ["pay-30", "cap-50m"]

    ledger = invoke_json("ledger", str(rid))
    assert {r["proposal_id"] for r in ledger["rows"]} == {"pay-30", "cap-50m"}

    entries = Store.open(str(db_path)).audit_entries()
    reverify_entries = [e for e in entries if e["action"].startswith("reverify")]
    assert reverify_entries
    assert {e["payload"]["proposal_id"] for e in reverify_entries} == {"pay-30", "cap-50m"}
    assert {e["payload"]["finding_id"] for e in reverify_entries} == {"F1", "F2"}
    gate_entries = [e for e in entries if e["action"] == "finding"]
    assert {e["payload"]["proposal_id"] for e in gate_entries} == {"pay-30", "cap-50m"}


def test_reverify_names_the_new_location_as_verify_does(tmp_path: Path) -> None:
    """Top-level start/end/text/section of the current version, `previous` for the old, `shift`."""
    _v1, v2, verified = _verified(tmp_path)
    after = invoke_json("reverify", str(verified["review"]["id"]), str(v2))
    pay = after["findings"][0]["citations"][0]
    was = verified["findings"][0]["citations"][0]
    assert pay["text"] == V2[pay["start"] : pay["end"]] == was["text"]
    assert pay["previous"] == {
        "text": was["text"],
        "start": was["start"],
        "end": was["end"],
        "section": "1.1",
    }
    assert pay["section"] == "1.1" and pay["shift"] == len("0. Preamble\n0.1 This paragraph is new.\n\n")
    assert after["findings"][0]["status"] == "verified"  # a paragraph above came: not "moved"
    assert "offsets shifted by" in after["findings"][0]["reason"]
    cap = after["findings"][1]["citations"][0]
    assert cap["start"] is None and cap["text"] is None and cap["shift"] is None  # stale: nowhere now
    assert cap["previous"]["text"] == verified["findings"][1]["citations"][0]["text"]


def test_a_playbook_finding_has_one_id(db_path: Path) -> None:
    """The proposal is numbered as the gate numbers its finding: id == proposal_id, in the audit too."""
    reviewed = invoke_json("review", str(SAMPLES / "northwind_msa.docx"))
    findings = reviewed["findings"]
    assert findings and all(f["id"] == f["proposal_id"] for f in findings)
    entries = Store.open(str(db_path)).audit_entries()
    named = {(e["payload"].get("finding_id"), e["payload"].get("proposal_id")) for e in entries}
    assert all(fid == pid for fid, pid in named if fid is not None)
