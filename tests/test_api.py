"""The one-call library API and the published schemas: the same values the CLI prints as JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

import citationgate
from citationgate.cli import app
from citationgate.errors import ProposalError
from citationgate.schemas import SCHEMAS, schema_json

ROOT = Path(__file__).resolve().parent.parent
CONTRACT = ROOT / "sample_contracts" / "northwind_msa.docx"
REDLINE = ROOT / "sample_contracts" / "northwind_msa_redline.docx"
EXAMPLE = ROOT / "examples" / "llm_proposals.json"
runner = CliRunner()


def cli_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, [*args, "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def _without_run_ids(data: Any) -> Any:
    """The same value apart from what names one run: review ids, creation times, the audit link."""
    run_keys = {
        "id",
        "created_at",
        "review_id",
        "parent_review_id",
        "previous_review",
        "version_id",
        "audit_head",
    }
    if isinstance(data, dict):
        # a finding's id ("F3") is part of the value; a review's or version's number is not
        return {
            k: _without_run_ids(v)
            for k, v in data.items()
            if k != "audit_head"  # the chain's head after this run's entries
            and (k not in run_keys or isinstance(v, dict | list) or (k == "id" and isinstance(v, str)))
        }
    if isinstance(data, list):
        return [_without_run_ids(v) for v in data]
    return data


def test_the_root_package_exports_the_verbs() -> None:
    for name in ("review", "verify", "reverify", "check_answer", "load_document"):
        assert callable(getattr(citationgate, name)), name
        assert name in citationgate.__all__
    import importlib

    importlib.import_module("citationgate.review")  # importing the submodules keeps the verbs bound
    importlib.import_module("citationgate.reverify")
    assert callable(citationgate.review) and callable(citationgate.reverify)


def test_verify_returns_what_the_cli_prints(db_path: Path) -> None:
    proposals = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    from_library = citationgate.verify(CONTRACT, proposals, store=str(db_path))
    from_cli = cli_json("verify", str(EXAMPLE), "--doc", str(CONTRACT))
    assert _without_run_ids(from_library) == _without_run_ids(from_cli)
    assert [(f["proposal_id"], f["status"]) for f in from_library["findings"]] == [
        ("pay-30", "verified"),
        ("price-lock", "verified"),
        ("pay-60", "rejected"),
    ]
    strict = runner.invoke(app, ["verify", str(EXAMPLE), "--doc", str(CONTRACT), "--strict"])
    assert strict.exit_code == 1  # the README's worked example: the made-up quote stops the pipeline


def test_review_reverify_and_check_answer_return_what_the_cli_prints(db_path: Path) -> None:
    reviewed = citationgate.review(CONTRACT, playbook="msa-customer", store=str(db_path))
    assert _without_run_ids(reviewed) == _without_run_ids(cli_json("review", str(CONTRACT)))

    rid = reviewed["review"]["id"]
    after = citationgate.reverify(rid, REDLINE, store=str(db_path))
    assert _without_run_ids(after) == _without_run_ids(cli_json("reverify", str(rid), str(REDLINE)))

    f = next(f for f in reviewed["findings"] if f["evidence"] == "quote")
    quote = f["citations"][0]["text"][:80]
    answer = f"The contract says “{quote}” [{f['id']}] and “{quote} and nothing else” [{f['id']}]."
    checked = citationgate.check_answer(answer, rid, store=str(db_path), name="answer.md")
    memo = db_path.parent / "answer.md"
    memo.write_text(answer, encoding="utf-8")
    assert _without_run_ids(checked) == _without_run_ids(
        cli_json("check-answer", str(memo), "--review", str(rid))
    )
    assert checked["verdict"] == "withheld" and checked["failures"] == 1


def test_the_library_raises_the_cli_errors_without_printing(
    db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(ProposalError, match=r"^proposals: proposals\[0\]\.claim: field required$") as err:
        citationgate.verify(CONTRACT, [{"id": "p1", "citations": []}], store=str(db_path))
    assert err.value.exit_code == 4
    assert capsys.readouterr() == ("", "")


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_schema_command_prints_the_models_json_schema(name: str) -> None:
    result = runner.invoke(app, ["schema", name])
    assert result.exit_code == 0
    printed = json.loads(result.stdout)
    assert printed == schema_json(name)
    jsonschema.Draft202012Validator.check_schema(printed)


def test_the_worked_example_and_real_outputs_match_the_published_schemas(db_path: Path) -> None:
    """The schema is generated from the models the code validates with, and real runs satisfy it."""
    example = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    jsonschema.validate(example, schema_json("proposals"))
    with pytest.raises(jsonschema.ValidationError):
        bad = {"proposals": [{"id": "x", "claim": "c", "quotes": []}]}
        jsonschema.validate(bad, schema_json("proposals"))
    verified = citationgate.verify(CONTRACT, example, store=str(db_path))
    jsonschema.validate(verified, schema_json("verify"))
    stored = citationgate.findings(verified["review"]["id"], store=str(db_path))
    jsonschema.validate(stored, schema_json("findings"))
    reviewed = citationgate.review(CONTRACT, store=str(db_path))
    jsonschema.validate(reviewed, schema_json("review"))
    after = citationgate.reverify(reviewed["review"]["id"], REDLINE, store=str(db_path))
    jsonschema.validate(after, schema_json("reverify"))
