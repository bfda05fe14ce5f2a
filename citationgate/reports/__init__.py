"""Deliverables of a review: every format renders one review value (the `review --format json` shape)."""

from __future__ import annotations

from citationgate.reports.findings import ABSENCE_DISCLOSURE, one_line_summary, record_data
from citationgate.reports.markdown import render_markdown
from citationgate.reports.table import render_table

__all__ = ["ABSENCE_DISCLOSURE", "one_line_summary", "record_data", "render_markdown", "render_table"]
