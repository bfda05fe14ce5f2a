"""`citationgate train locator`: fit the clause locator on CUAD-layout data and write its weights."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from citationgate.cli.app import Format, app, emit_json, fail, info, sub_app
from citationgate.evaluation.data import default_data_dir

train_app = sub_app(
    name="train",
    help="Train the models that ship in the package (needs the `train` extra: scikit-learn).",
    no_args_is_help=True,
)
app.add_typer(train_app, name="train")


@train_app.command("locator")
def train_locator_cmd(
    data: Annotated[
        Path | None,
        typer.Option("--data", help="CUAD folder (annotations.jsonl, texts/). Default: ../shared/data/cuad."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Weights file to write. Default: the package's own weights file."),
    ] = None,
    cv_dir: Annotated[
        Path | None,
        typer.Option("--cv-dir", help="Also write the cross-validation fold models here (for eval clauses)."),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Random seed (default: the fixed training seed).")] = None,
    fmt: Annotated[Format, typer.Option("--format", help="table or json.")] = Format.table,
) -> None:
    """Fit the clause locator (grouped cross-validation, then all contracts) and write its weights."""
    try:
        import sklearn  # noqa: F401
    except ImportError:
        fail("training needs scikit-learn: pip install 'citationgate[train]'", code=2)
    from playbooks.locator.model import WEIGHTS
    from playbooks.locator.train import SEED, train_locator

    folder = data or default_data_dir() / "cuad"
    if not (folder / "annotations.jsonl").is_file():
        fail(f"{folder}: no annotations.jsonl (expected a CUAD folder)", code=3)
    report = train_locator(
        folder, out or WEIGHTS, seed=SEED if seed is None else seed, cv_dir=cv_dir, progress=info
    )
    if fmt is Format.json:
        emit_json(report)
        return
    typer.echo(
        f"locator {report['version']}: {report['contracts']} contracts, {report['units']} units, "
        f"{report['features']} features, {report['bytes'] / 1e6:.2f} MB, {report['seconds']} s\n"
        f"data sha256 {report['data_sha256']}"
    )
    typer.echo("| category | present | precision | recall | F1 | threshold |\n|---|---:|---:|---:|---:|---:|")
    for cat, m in report["cv"].items():
        typer.echo(
            f"| {cat} | {m['present']} | {m['precision']:.3f} | {m['recall']:.3f} | {m['f1']:.3f} | "
            f"{m['threshold']} |"
        )
