"""`audit --migrate`: a chain written by the first releases (entries unnumbered, `sha256(prev \\n fields)`,
no content hashes on reviews) is verified under that rule and re-sealed, recorded in the chain itself;
a chain already broken under its own rule is refused and left exactly as it was.

The old database is built here the old way: real reviews stored, then their audit entries rewritten as
the first releases wrote them (the old hash formula spelled out below, not the code under test; ids with
the gap a PostgreSQL sequence leaves after a rolled-back insert) and the review columns those releases
did not have left empty.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citationgate.cli import app
from tests.databases import run_sql

pytestmark = pytest.mark.usefixtures("db_url")
runner = CliRunner()

CONTRACT = (
    "1. Term\nThis Agreement runs for twelve (12) months from the Effective Date.\n\n"
    "2. Fees\nThe Customer shall pay the fees within thirty (30) days of invoice.\n"
)


def _verify(tmp_path: Path, name: str, quote: str) -> int:
    doc = tmp_path / name
    doc.write_text(CONTRACT, encoding="utf-8")
    props = tmp_path / f"{name}.json"
    props.write_text(json.dumps({"proposals": [{"id": "p1", "claim": "c", "citations": [{"quote": quote}]}]}))
    done = runner.invoke(app, ["verify", str(props), "--doc", str(doc), "--format", "json"])
    assert done.exit_code == 0, done.output
    return int(json.loads(done.stdout)["review"]["id"])


def _old_hash(prev: str, fields: dict[str, object]) -> str:
    body = json.dumps(fields, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(f"{prev}\n{body}".encode()).hexdigest()


def _as_first_releases_wrote_it(url: str) -> list[int]:
    """Rewrite the stored chain and reviews as the first releases left them; returns the entry ids."""
    rows = run_sql(
        url,
        "SELECT id, at, action, result, actor, document_sha256, rule, reason, payload FROM audit ORDER BY id",
    )
    run_sql(url, "DROP TABLE audit")  # the first releases' table: no unique index on the links
    run_sql(
        url,
        "CREATE TABLE audit (id INTEGER PRIMARY KEY, at VARCHAR NOT NULL, action VARCHAR NOT NULL, "
        "result VARCHAR NOT NULL, actor VARCHAR NOT NULL, document_sha256 VARCHAR NOT NULL, rule VARCHAR, "
        "reason VARCHAR NOT NULL, payload VARCHAR NOT NULL, prev_hash VARCHAR NOT NULL, "
        "hash VARCHAR NOT NULL)",
    )
    prev, ids = "0" * 64, []
    for n, (_id, at, action, result, actor, doc_sha, rule, reason, payload) in enumerate(rows, start=1):
        data = json.loads(str(payload))
        data.pop("review_sha256", None)  # the old entries named the review, not its content
        fields = {
            "at": at,
            "action": action,
            "result": result,
            "actor": actor,
            "document_sha256": doc_sha,
            "rule": rule,
            "reason": reason,
            "payload": data,
        }
        entry_id = n if n < 3 else n + 1  # a gap after entry 2
        h = _old_hash(prev, fields)
        run_sql(
            url,
            "INSERT INTO audit (id, at, action, result, actor, document_sha256, rule, reason, payload, "
            "prev_hash, hash) VALUES (:id, :at, :action, :result, :actor, :doc, :rule, :reason, :payload, "
            ":prev, :hash)",
            id=entry_id,
            at=at,
            action=action,
            result=result,
            actor=actor,
            doc=doc_sha,
            rule=rule,
            reason=reason,
            payload=json.dumps(data, ensure_ascii=False),
            prev=prev,
            hash=h,
        )
        prev = h
        ids.append(entry_id)
    run_sql(url, "UPDATE reviews SET content_sha256 = '', audit_head = '', audit_entries = 0")
    return ids


def _hashes(url: str) -> list[tuple[object, ...]]:
    return run_sql(url, "SELECT id, prev_hash, hash FROM audit ORDER BY id")


def test_an_old_chain_is_verified_then_resealed(tmp_path: Path, db_url: str) -> None:
    first = _verify(tmp_path, "a.txt", "twelve (12) months")
    _verify(tmp_path, "b.txt", "within thirty (30) days")
    ids = _as_first_releases_wrote_it(db_url)
    check = runner.invoke(app, ["audit", "--check"])
    assert check.exit_code == 7
    assert check.stderr == (
        "Error: audit chain broken at entry 1: it was sealed under the rule of the first releases (entries "
        "unnumbered); `citationgate audit --migrate` verifies the chain under that rule and re-seals it\n"
    )
    migrated = runner.invoke(app, ["audit", "--migrate", "--format", "json"])
    assert migrated.exit_code == 0, migrated.output
    done = json.loads(migrated.stdout)
    assert done["resealed"] == done["legacy_entries"] == len(ids)
    assert done["sealed_reviews"] == 2 and done["head"]["entries"] == len(ids) + 1
    assert done["head_before"]["entries"] == ids[-1]
    assert runner.invoke(app, ["audit", "--check"]).stdout == f"audit chain intact: {len(ids) + 1} entries\n"
    last = json.loads(runner.invoke(app, ["audit", "--format", "json", "--limit", "1"]).stdout)["entries"][0]
    assert (last["action"], last["result"]) == ("migrate", "resealed")
    assert last["payload"]["head_before"] == done["head_before"]
    with pytest.raises(Exception, match=r"(?i)unique|duplicate"):  # the links are unique from now on
        run_sql(
            db_url,
            "INSERT INTO audit (id, at, action, result, actor, document_sha256, reason, payload, prev_hash, "
            "hash) SELECT 999, at, action, result, actor, document_sha256, reason, payload, prev_hash, 'x' "
            "FROM audit WHERE id = 2",
        )
    again = runner.invoke(app, ["audit", "--migrate"])
    assert again.exit_code == 0 and "nothing to do" in again.stdout
    # from now on the old reviews are sealed: an edited finding of one is detected
    run_sql(
        db_url,
        "UPDATE findings SET payload = replace(payload, 'twelve', 'sixty') WHERE review_id = :r",
        r=first,
    )
    broken = runner.invoke(app, ["audit", "--check"])
    assert broken.exit_code == 7 and f"review {first}" in broken.stderr


@pytest.mark.parametrize("tamper", ["edited", "forked", "renumbered"])
def test_an_old_chain_broken_under_its_own_rule_is_not_blessed(
    tmp_path: Path, db_url: str, tamper: str
) -> None:
    _verify(tmp_path, "a.txt", "twelve (12) months")
    ids = _as_first_releases_wrote_it(db_url)
    if tamper == "edited":  # an entry changed without its hash
        run_sql(db_url, "UPDATE audit SET result = 'verified', reason = 'fine' WHERE id = :i", i=ids[1])
    elif tamper == "forked":  # two writers appended to the same entry (the PostgreSQL race of the old lock)
        row = run_sql(db_url, "SELECT prev_hash, hash FROM audit WHERE id = :i", i=ids[-1])[0]
        run_sql(
            db_url,
            "INSERT INTO audit (id, at, action, result, actor, document_sha256, reason, payload, prev_hash, "
            "hash) VALUES (:id, 'now', 'citation', 'verified', 'outside-agent', '', '', '{}', :prev, :hash)",
            id=ids[-1] + 1,
            prev=row[0],
            hash=_old_hash(str(row[0]), {"x": 1}),
        )
    else:  # two entries swapped
        run_sql(db_url, "UPDATE audit SET id = 1000 WHERE id = :i", i=ids[0])
    before = _hashes(db_url)
    result = runner.invoke(app, ["audit", "--migrate"])
    assert result.exit_code == 7
    (line,) = result.stderr.splitlines()
    assert line.startswith("Error: audit chain broken at entry ")
    assert " under the rule it was written with (" in line
    assert line.endswith("): not migrated, nothing was changed")
    assert _hashes(db_url) == before  # not a byte changed


def test_entries_appended_after_an_old_chain_are_resealed_with_it(tmp_path: Path, db_url: str) -> None:
    """The current release appended a review to an old chain (numbered, linked to the old head): the
    migration accepts both rules in that order, and that review's remembered head follows the re-seal."""
    _verify(tmp_path, "a.txt", "twelve (12) months")
    ids = _as_first_releases_wrote_it(db_url)
    newer = _verify(tmp_path, "b.txt", "within thirty (30) days")
    assert runner.invoke(app, ["audit", "--check"]).exit_code == 7
    migrated = runner.invoke(app, ["audit", "--migrate", "--format", "json"])
    assert migrated.exit_code == 0, migrated.output
    done = json.loads(migrated.stdout)
    assert done["legacy_entries"] == len(ids) and done["resealed"] > len(ids)
    assert done["sealed_reviews"] == 1  # the newer review had its content hash already
    check = runner.invoke(app, ["audit", "--check"])
    assert check.exit_code == 0, check.output
    head = run_sql(db_url, "SELECT audit_entries, audit_head FROM reviews WHERE id = :r", r=newer)[0]
    assert head == run_sql(db_url, "SELECT id, hash FROM audit WHERE id = :i", i=head[0])[0]
