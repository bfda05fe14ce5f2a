"""Hostile input costs nothing: each is one `Error:` line naming the limit (or read correctly), never a
crash, a hang or gigabytes of memory. The sizes here are small: limits are lowered where a test needs
to cross one, and `benchmarks/hostile.py` measures the real ones."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citationgate import untrusted
from citationgate.cli import app
from ingest import load_document, plain
from ingest.errors import CorruptFileError
from ingest.word import package as word_package
from tests.docx_fixtures import build_docx, p

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
CONTRACT = "1. Term\nThe Supplier shall provide the Services for twelve (12) months.\n"

BOMB = (
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
    "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
    "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
    "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
    "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
    "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
)


def _contract(tmp_path: Path) -> Path:
    doc = tmp_path / "msa.txt"
    doc.write_text(CONTRACT, encoding="utf-8")
    return doc


@pytest.mark.parametrize(
    ("yaml_text", "message"),
    [
        (BOMB, "line 2, column 8: invalid YAML: aliases (*name) are not allowed here: write the value out"),
        (
            "a: " + "[" * 5000 + "]" * 5000,
            "line 1, column 53: invalid YAML: nested deeper than the limit of 50 levels",
        ),
    ],
    ids=["alias-bomb", "deep-nesting"],
)
def test_hostile_playbook_yaml_is_one_error(tmp_path: Path, yaml_text: str, message: str) -> None:
    playbook = tmp_path / "bomb.yaml"
    playbook.write_text(yaml_text, encoding="utf-8")
    result = runner.invoke(app, ["review", str(_contract(tmp_path)), "--playbook", str(playbook)])
    assert result.exit_code == 4
    assert result.stderr == f"Error: bomb.yaml: {message}\n"


def test_a_catastrophic_playbook_regex_is_refused_by_name(tmp_path: Path) -> None:
    """`(\\w+\\s?)+X$` would hang `review`; it is refused when the playbook loads, named in the error."""
    text = (ROOT / "tests" / "playbook_fixtures" / "illustrative.yaml").read_text(encoding="utf-8")
    playbook = tmp_path / "custom.yaml"
    playbook.write_text(text.replace('"shall not exceed"', r'"(\\w+\\s?)+X$"', 1), encoding="utf-8")
    result = runner.invoke(app, ["review", str(_contract(tmp_path)), "--playbook", str(playbook)])
    assert result.exit_code == 4
    (line,) = result.stderr.splitlines()
    assert line.startswith("Error: custom.yaml: line 14: clauses[0].locate.patterns[0]: regular expression ")
    assert r"'(\\w+\\s?)+X$' can backtrack catastrophically" in line


def _answer(tmp_path: Path) -> Path:
    answer = tmp_path / "answer.md"
    answer.write_text('The Supplier provides the Services "for twelve (12) months".', encoding="utf-8")
    return answer


def _deep(depth: int) -> str:
    return '{"proposals": [{"id": "p1", "claim": "c", "x": ' + "[" * depth + "]" * depth + "}]}"


@pytest.mark.parametrize("depth", [100, 100_000], ids=["past-the-limit", "past-the-recursion-limit"])
def test_deep_json_is_one_error(tmp_path: Path, depth: int) -> None:
    props = tmp_path / "p.json"
    props.write_text(_deep(depth), encoding="utf-8")
    result = runner.invoke(app, ["verify", str(props), "--doc", str(_contract(tmp_path))])
    assert (result.exit_code, result.stderr) == (
        4,
        "Error: p.json: nested deeper than the limit of 64 levels\n",
    )
    findings = tmp_path / "f.json"
    findings.write_text("[" * depth + "]" * depth, encoding="utf-8")
    for args in (
        ["reverify", "--findings", str(findings), str(_contract(tmp_path))],
        ["check-answer", str(_answer(tmp_path)), "--findings", str(findings)],
    ):
        out = runner.invoke(app, args)
        assert (out.exit_code, out.stderr) == (
            4,
            "Error: f.json: nested deeper than the limit of 64 levels\n",
        )


def test_proposals_limits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The file's size, the number of proposals and a quote's length: each an Error line with the limit."""
    doc = _contract(tmp_path)
    props = tmp_path / "p.json"
    many = [
        {"id": f"p{i}", "claim": "c", "citations": [{"quote": "provide the Services"}]} for i in range(5001)
    ]
    props.write_text(json.dumps({"proposals": many}), encoding="utf-8")
    result = runner.invoke(app, ["verify", str(props), "--doc", str(doc)])
    assert result.exit_code == 4
    assert (
        result.stderr == "Error: p.json: proposals: 5,001 proposals is over the limit of 5,000 in one file\n"
    )

    long_quote = [{"id": "p1", "claim": "c", "citations": [{"quote": "x" * 20_001}]}]
    props.write_text(json.dumps({"proposals": long_quote}), encoding="utf-8")
    result = runner.invoke(app, ["verify", str(props), "--doc", str(doc)])
    assert result.exit_code == 4
    assert result.stderr == (
        "Error: p.json: proposals[0].citations[0].quote: string should have at most 20000 characters\n"
    )

    monkeypatch.setattr(untrusted, "MAX_JSON_BYTES", 100)
    result = runner.invoke(app, ["verify", str(props), "--doc", str(doc)])
    assert result.exit_code == 4
    assert (
        result.stderr.startswith("Error: p.json: 20,")
        and "over the limit of 100 bytes for a JSON file" in result.stderr
    )


@pytest.mark.parametrize(
    ("data", "how"),
    [
        (("\ufeff" + CONTRACT).encode("utf-16-le"), "read as UTF-16 (byte-order mark dropped"),
        (("\ufeff" + CONTRACT).encode("utf-16-be"), "read as UTF-16 (byte-order mark dropped"),
        (CONTRACT.encode("utf-16-le"), "read as UTF-16 little-endian (no byte-order mark)"),
        (CONTRACT.encode("utf-16-be"), "read as UTF-16 big-endian (no byte-order mark)"),
    ],
    ids=["bom-le", "bom-be", "le", "be"],
)
def test_utf16_text_is_read(tmp_path: Path, data: bytes, how: str) -> None:
    f = tmp_path / "c.txt"
    f.write_bytes(data)
    doc = load_document(f)
    assert doc.text == CONTRACT
    assert any(n.startswith(how) for n in doc.notes)


def test_nul_anywhere_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "c.txt"
    f.write_text(CONTRACT * 100 + "tail\x00end", encoding="utf-8")
    with pytest.raises(CorruptFileError) as exc:
        load_document(f)
    at = len(CONTRACT) * 100 + 4
    assert (
        str(exc.value)
        == f"c.txt: a NUL character at offset {at}: not a text file (a contract's text has none)"
    )


def test_a_text_past_the_size_limit_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plain, "MAX_TEXT_BYTES", 50)
    result = runner.invoke(app, ["ingest", str(_contract(tmp_path))])
    assert result.exit_code == 3
    assert (
        result.stderr == f"Error: msa.txt: {len(CONTRACT.encode())} bytes is over the limit of 50 bytes "
        "for a text contract\n"
    )


def test_a_docx_part_that_inflates_past_the_budget_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The inflated size is counted as the part streams out, whatever the ZIP directory declares."""
    path = tmp_path / "big.docx"
    build_docx(path, p("1. Term") + p("The Supplier shall provide the Services. " * 200))
    monkeypatch.setattr(word_package, "MAX_PART_BYTES", 2000)
    with pytest.raises(CorruptFileError) as exc:
        load_document(path)
    assert "word/document.xml inflates to" in str(exc.value) and "(limit 2000)" in str(exc.value)


def test_a_docx_whose_zip_lies_about_its_sizes_is_refused(tmp_path: Path) -> None:
    """A member declaring a small size but inflating to more is corrupt, not read past its declaration."""
    good = tmp_path / "good.docx"
    build_docx(good, p("1. Term") + p("The Supplier shall provide the Services."))
    raw = bytearray(good.read_bytes())
    with zipfile.ZipFile(good) as z:
        info = z.getinfo("word/document.xml")
    # shrink the declared size in the central directory and the local header
    small = (16).to_bytes(4, "little")
    declared = info.file_size.to_bytes(4, "little")
    assert raw.count(declared) >= 1
    raw = raw.replace(declared, small)
    liar = tmp_path / "liar.docx"
    liar.write_bytes(bytes(raw))
    with pytest.raises(CorruptFileError):
        load_document(liar)


@pytest.mark.parametrize("user_password", ["", "secret"], ids=["aes-open", "aes-locked"])
def test_aes_encrypted_pdfs_are_read_or_refused_clearly(tmp_path: Path, user_password: str) -> None:
    from fpdf import FPDF
    from fpdf.enums import EncryptionMethod

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=12)
    pdf.multi_cell(0, 8, "1. Term\nThis Agreement runs for twelve (12) months from the Effective Date.")
    pdf.set_encryption(
        owner_password="owner", user_password=user_password, encryption_method=EncryptionMethod.AES_128
    )
    path = tmp_path / "aes.pdf"
    pdf.output(str(path))
    result = runner.invoke(app, ["ingest", str(path), "--format", "json"])
    if user_password:
        assert result.exit_code == 3
        assert (
            result.stderr
            == "Error: aes.pdf: the PDF is password-protected; remove the password and try again\n"
        )
    else:
        assert result.exit_code == 0, result.output
        assert "twelve (12) months" in json.loads(result.stdout)["text"]
