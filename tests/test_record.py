"""The record proves itself, on SQLite and PostgreSQL: every way of changing the store behind the
engine's back — a document's text, a finding, a review, the chain's entries — is refused or detected."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citationgate.audit import GENESIS, entry_hash
from citationgate.cli import app
from citationgate.store import Store
from tests.databases import run_sql

pytestmark = pytest.mark.usefixtures("db_url")

runner = CliRunner()

CONTRACT = (
    "1. Term\n"
    "The Supplier shall provide the Services during the first twelve (12) months of the Term.\n"
    "2. Payment\n"
    "The Customer must pay each undisputed invoice within thirty (30) days of receipt.\n"
)
PROPOSALS = {
    "proposals": [
        {
            "id": "p1",
            "claim": "Services for a year.",
            "citations": [{"quote": "during the first twelve (12) months of the Term"}],
        },
        {
            "id": "p2",
            "claim": "Invoices due in 30 days.",
            "citations": [{"quote": "pay each undisputed invoice within thirty (30) days"}],
        },
    ]
}


def _verify(tmp_path: Path) -> tuple[Path, Path, dict[str, object]]:
    doc = tmp_path / "msa.txt"
    doc.write_text(CONTRACT, encoding="utf-8")
    props = tmp_path / "proposals.json"
    props.write_text(json.dumps(PROPOSALS), encoding="utf-8")
    out = runner.invoke(app, ["verify", str(props), "--doc", str(doc), "--format", "json"])
    assert out.exit_code == 0, out.output
    return doc, props, json.loads(out.stdout)


def _check(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["audit", "--check", *args])
    return result.exit_code, result.stderr if result.exit_code else result.stdout


def test_an_altered_stored_text_is_refused_on_reuse_and_by_the_check(tmp_path: Path, db_url: str) -> None:
    """The issue's attack: the stored text says sixty months; `verify` must not call that verified."""
    doc, props, _ = _verify(tmp_path)
    run_sql(
        db_url,
        "UPDATE document_versions SET payload = replace(payload, 'first twelve (12) months', "
        "'first sixty (60) months')",
    )
    props.write_text(
        json.dumps(
            {"proposals": [{"id": "x", "claim": "5 years", "citations": [{"quote": "sixty (60) months"}]}]}
        )
    )
    again = runner.invoke(app, ["verify", str(props), "--doc", str(doc)])
    assert again.exit_code == 7
    assert "VERIFIED" not in again.stdout
    (line,) = again.stderr.splitlines()
    assert line.startswith("Error: document version 1 (msa.txt): its stored text hashes to ")
    assert "not to the recorded text_sha256" in line
    code, err = _check()
    assert code == 7 and "review 1 (its findings, summary or document text) no longer matches" in err


def test_a_text_rewritten_with_its_hashes_still_breaks_the_chain(tmp_path: Path, db_url: str) -> None:
    """Changing the text and every hash column beside it is caught by what the audit entries committed to."""
    from ingest.document import Document

    _verify(tmp_path)
    (payload,) = run_sql(db_url, "SELECT payload FROM document_versions")[0]
    data = json.loads(str(payload))
    data["text"] = data["text"].replace("twelve (12)", "sixty (60)")
    forged = Document.from_dict({**data, "text_sha256": ""}).text_sha256
    data["text_sha256"] = forged
    run_sql(
        db_url,
        "UPDATE document_versions SET payload = :p, text_sha256 = :h",
        p=json.dumps(data, ensure_ascii=False),
        h=forged,
    )
    code, err = _check()
    assert code == 7 and "Error: audit chain broken at entry 1: review 1" in err


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE findings SET payload = replace(payload, 'thirty (30)', 'ninety (90)')",
        "UPDATE findings SET status = 'rejected' WHERE key = 'F2'",
        "DELETE FROM findings WHERE key = 'F2'",
        "UPDATE reviews SET summary = '{}'",
    ],
    ids=["edit-quote", "edit-status", "delete-finding", "edit-summary"],
)
def test_an_edited_or_deleted_finding_is_refused_and_detected(
    tmp_path: Path, db_url: str, statement: str
) -> None:
    """`findings` refuses the altered review instead of showing it as verified; the check names it."""
    _verify(tmp_path)
    run_sql(db_url, statement)
    shown = runner.invoke(app, ["findings", "1"])
    assert shown.exit_code == 7 and "✓" not in shown.stdout
    assert shown.stderr.startswith("Error: review 1: its findings, summary or document text no longer match")
    code, err = _check()
    assert code == 7 and "review 1 (its findings, summary or document text) no longer matches" in err


def test_a_deleted_review_is_detected(tmp_path: Path, db_url: str) -> None:
    _verify(tmp_path)
    run_sql(db_url, "DELETE FROM findings")
    run_sql(db_url, "DELETE FROM reviews")
    code, err = _check()
    assert code == 7 and "the review it records (review 1) is missing" in err


@pytest.mark.parametrize(
    ("statement", "message"),
    [
        ("DELETE FROM audit WHERE id = (SELECT max(id) FROM audit)", "which the chain no longer has"),
        ("DELETE FROM audit WHERE id > 1", "which the chain no longer has"),
        ("DELETE FROM audit", "review 1 is not recorded in the audit chain"),
        ("UPDATE audit SET id = id + 100", "it is numbered 101 where 1 belongs"),
    ],
    ids=["last-entry", "all-but-one", "all-entries", "renumbered"],
)
def test_truncating_or_renumbering_the_chain_is_detected(
    tmp_path: Path, db_url: str, statement: str, message: str
) -> None:
    """Every review remembers the head it was written under; a chain cut back past it fails."""
    doc, props, _ = _verify(tmp_path)
    assert runner.invoke(app, ["verify", str(props), "--doc", str(doc)]).exit_code == 0
    run_sql(db_url, statement)
    code, err = _check()
    assert code == 7 and message in err


def test_audit_head_and_expect(tmp_path: Path, db_url: str) -> None:
    """`audit head` prints HASH:COUNT; `--check --expect` passes while that head is in the chain (even
    after it has grown) and fails once the chain is rewritten from an earlier entry, hashes recomputed."""
    doc, props, first = _verify(tmp_path)
    head = runner.invoke(app, ["audit", "head"]).stdout.strip()
    review = first["review"]
    assert isinstance(review, dict)
    assert head == f"{review['audit_head']['hash']}:{review['audit_head']['entries']}"
    assert (
        json.loads(runner.invoke(app, ["audit", "head", "--format", "json"]).stdout) == review["audit_head"]
    )
    assert _check("--expect", head) == (0, f"audit chain intact: {head.split(':')[1]} entries\n")
    assert runner.invoke(app, ["verify", str(props), "--doc", str(doc)]).exit_code == 0
    assert _check("--expect", head)[0] == 0

    # an attacker with write access edits entry 1 and recomputes every hash after it, and the heads
    # the reviews remember: the chain checks again, but not against the head exported earlier
    store = Store.open(db_url)
    entries = store.audit_entries()
    prev = GENESIS
    for e in entries:
        fields = {k: e[k] for k in ("at", "action", "result", "actor", "document_sha256", "rule", "reason")}
        fields["payload"] = e["payload"]
        if e["id"] == 1:
            fields["result"] = "failed"
        h = entry_hash(prev, fields, seq=e["id"])
        run_sql(
            db_url,
            "UPDATE audit SET result = :r, prev_hash = :p, hash = :h WHERE id = :i",
            r=fields["result"],
            p=prev,
            h="x" + h[1:],  # first a placeholder, so the unique constraint on hash never sees two rows equal
            i=e["id"],
        )
        run_sql(db_url, "UPDATE audit SET hash = :h WHERE id = :i", h=h, i=e["id"])
        prev = h
    for rid, n in run_sql(db_url, "SELECT id, audit_entries FROM reviews"):
        new = next(e for e in store.audit_entries() if e["id"] == n)["hash"]
        run_sql(db_url, "UPDATE reviews SET audit_head = :h WHERE id = :i", h=new, i=rid)
    assert _check()[0] == 0  # what no unkeyed chain can prove on its own
    code, err = _check("--expect", head)
    assert code == 7
    assert err.startswith("Error: audit chain broken: the expected head ")
    assert "entries after it were removed, or the chain was rewritten" in err


def test_expect_needs_check() -> None:
    result = runner.invoke(app, ["audit", "--expect", "abc"])
    assert result.exit_code == 2 and "--expect needs --check" in result.output


def test_a_keyed_chain_cannot_be_recomputed_without_the_key(
    tmp_path: Path, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With CITATIONGATE_AUDIT_KEY every hash is an HMAC: checked with the key it holds, and an entry
    rewritten with a plain hash (all an attacker without the key can compute) fails."""
    monkeypatch.setenv("CITATIONGATE_AUDIT_KEY", "a secret the database's users do not have")
    _verify(tmp_path)
    assert _check()[0] == 0
    (fields,) = [
        {k: e[k] for k in ("at", "action", "result", "actor", "document_sha256", "rule", "reason", "payload")}
        for e in Store.open(db_url).audit_entries()
        if e["id"] == 1
    ]
    run_sql(db_url, "UPDATE audit SET hash = :h WHERE id = 1", h=entry_hash(GENESIS, fields, seq=1))
    code, err = _check()
    assert code == 7 and "entry 1: its contents do not match its hash" in err
    monkeypatch.delenv("CITATIONGATE_AUDIT_KEY")
    run_sql(db_url, "DELETE FROM audit WHERE id > 1")
    code, err = _check()
    assert code == 7  # and checked without the key, the keyed entries do not check either
