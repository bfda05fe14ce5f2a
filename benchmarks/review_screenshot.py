"""Write the README's screenshot of the HTML review of a bundled sample, taken in headless Chromium.

    python benchmarks/review_screenshot.py [--sample FILE] [--out docs/review.png]

Reviews the sample into a temporary database, writes the HTML review, opens it in Debian's chromium
(driven by Playwright with `executable_path`; never `playwright install`), clicks the first critical
finding so its highlight is in view, and saves a PNG. Prints what it wrote, or why it could not.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from typer.testing import CliRunner

from citationgate.cli import app
from citationgate.reports.html import CHROMIUM_FLAGS

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=Path, default=ROOT / "sample_contracts" / "northwind_msa.docx")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "review.png")
    args = parser.parse_args()
    if not CHROMIUM.is_file():
        print(f"{CHROMIUM} not found: apt-get install chromium (.ci/run does)", file=sys.stderr)
        return 3
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        html = Path(tmp) / "review.html"
        result = CliRunner().invoke(
            app, ["review", str(args.sample), "--out", str(html), "--db", str(Path(tmp) / "r.db")]
        )
        if result.exit_code != 0:
            print(result.output, file=sys.stderr)
            return result.exit_code
        with sync_playwright() as pw:
            ctx = pw.chromium.launch_persistent_context(
                str(Path(tmp) / "profile"),
                executable_path=str(CHROMIUM),
                headless=True,
                args=list(CHROMIUM_FLAGS),
                viewport={"width": 1400, "height": 900},
            )
            page = ctx.new_page()
            page.goto(html.as_uri())
            page.locator("li.finding.sev-critical button.goto").first.click()
            args.out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(args.out))
            ctx.close()
    print(f"wrote {args.out} (the HTML review of {args.sample.name})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
