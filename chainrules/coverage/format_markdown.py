"""The report as Markdown: fits a CI job summary or a pull-request comment.

A headline, the table of categories with the total in bold, what needs attention, then one
collapsed ``<details>`` section per category with a row per function. Table cells escape
``|`` so that every table parses back cell for cell.

>>> from chainrules.coverage.report import Report, totals
>>> report = Report(rows=(), categories=(), total=totals("total", [], False), record=None)
>>> print(render_markdown(report).splitlines()[0])
## chainrules coverage
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .columns import FUNCTION_COLUMNS, TOTALS_COLUMNS, headline, needs_attention, results_line
from .report import Report

__all__ = ["escape_cell", "render_markdown", "table"]


def escape_cell(text: str) -> str:
    """Text safe inside a table cell: pipes escaped, line breaks flattened."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def table(headers: Sequence[str], rows: Sequence[Sequence[str]], numeric: Sequence[bool]) -> str:
    """A GitHub-flavoured Markdown table; ``numeric`` columns are right-aligned."""
    align = ["---:" if n else "---" for n in numeric]
    lines = [headers, align, *rows]
    return "\n".join("| " + " | ".join(escape_cell(c) for c in line) + " |" for line in lines)


_TEXT_COLUMNS = ("category", "function", "status", "reason")


def _columns_table(
    columns: Sequence[tuple[str, Callable]], items: Sequence, bold_last: bool = False
) -> str:
    rows = [[text(item) for _, text in columns] for item in items]
    if bold_last and rows:
        rows[-1] = [f"**{cell}**" for cell in rows[-1]]
    numeric = [name not in _TEXT_COLUMNS for name, _ in columns]
    return table([name for name, _ in columns], rows, numeric)


def render_markdown(report: Report) -> str:
    """The Markdown report (see the module docstring)."""
    env = ", ".join(f"{name} {version}" for name, version in report.environment)
    parts = ["## chainrules coverage", ""]
    parts.append(f"**{headline(report.total)}**")
    parts.append("")
    selected = f"; categories: {', '.join(report.selected)}" if report.selected else ""
    parts.append(results_line(report) + (f"; {env}" if env else "") + selected)
    parts += ["", _columns_table(TOTALS_COLUMNS, [*report.categories, report.total], True), ""]

    parts += [note for line in needs_attention(report) for note in (f"**{line}**", "")]

    function_columns = [c for c in FUNCTION_COLUMNS if c[0] != "category"]
    for totals in report.categories:
        rows = [r for r in report.rows if r.category == totals.category]
        summary = (
            f"{totals.category}: {totals.functions} functions, "
            f"{totals.differentiable} differentiable"
        )
        parts += [
            f"<details><summary>{summary}</summary>",
            "",
            _columns_table(function_columns, rows),
            "",
            "</details>",
            "",
        ]
    return "\n".join(parts).rstrip("\n") + "\n"
