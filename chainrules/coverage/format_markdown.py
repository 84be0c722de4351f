"""The report as Markdown: for a CI job summary or a pull-request comment.

A headline, the table of categories with the total in bold, the same per engine (tested to
2nd order / to 1st / reached), what needs attention, then one collapsed ``<details>`` section
per category with a row per function, a column per engine, and the numbered reasons why some
checks stop at first order. Table cells escape ``|`` so that every table parses back cell for
cell.

The whole report is over 100 KB, more than a pull-request comment holds (65,536 characters);
``summary=True`` (``chainrules coverage --format markdown --summary``) is the headline and
the table of categories only, a few kilobytes whatever the number of functions.

>>> from chainrules.coverage.report import Report, totals
>>> report = Report(rows=(), categories=(), total=totals("total", [], False), record=None)
>>> print(render_markdown(report).splitlines()[0])
## chainrules coverage
>>> print(render_markdown(report, summary=True).splitlines()[-1])
Per function and per engine: the same command without `--summary`, or `--format html`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .columns import (
    ENGINE_TOTALS_COLUMNS,
    ENGINE_TOTALS_LEGEND,
    FUNCTION_COLUMNS,
    REACH_LEGEND,
    TOTALS_COLUMNS,
    function_cells,
    headline,
    needs_attention,
    results_line,
)
from .report import Report

__all__ = ["SUMMARY_POINTER", "escape_cell", "render_markdown", "table"]


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
    columns: Sequence[tuple[str, Callable]],
    items: Sequence,
    bold_last: bool = False,
    cells: list[list[str]] | None = None,
) -> str:
    """A table of ``columns`` over ``items``, or of ``cells`` already made from them."""
    rows = [[text(item) for _, text in columns] for item in items] if cells is None else cells
    if bold_last and rows:
        rows[-1] = [f"**{cell}**" for cell in rows[-1]]
    numeric = [name not in _TEXT_COLUMNS for name, _ in columns]
    return table([name for name, _ in columns], rows, numeric)


SUMMARY_POINTER = (
    "Per function and per engine: the same command without `--summary`, or `--format html`."
)


def render_markdown(report: Report, summary: bool = False) -> str:
    """The Markdown report, or with ``summary`` its category table only (module docstring)."""
    env = ", ".join(f"{name} {version}" for name, version in report.environment)
    parts = ["## chainrules coverage", ""]
    parts.append(f"**{headline(report.total)}**")
    parts.append("")
    selected = f"; categories: {', '.join(report.selected)}" if report.selected else ""
    parts.append(results_line(report) + (f"; {env}" if env else "") + selected)
    all_totals = [*report.categories, report.total]
    parts += ["", _columns_table(TOTALS_COLUMNS, all_totals, True), ""]
    if summary:
        return "\n".join([*parts, SUMMARY_POINTER, ""])
    parts += [ENGINE_TOTALS_LEGEND, "", _columns_table(ENGINE_TOTALS_COLUMNS, all_totals, True), ""]

    parts += [note for line in needs_attention(report) for note in (f"**{line}**", "")]

    function_columns = [c for c in FUNCTION_COLUMNS if c[0] != "category"]
    parts += [f"Functions, {REACH_LEGEND}.", ""] if report.categories else []
    for totals in report.categories:
        rows = [r for r in report.rows if r.category == totals.category]
        heading = (
            f"{totals.category}: {totals.functions} functions, "
            f"{totals.differentiable} differentiable"
        )
        cells, reasons = function_cells(rows, function_columns)
        parts += [
            f"<details><summary>{heading}</summary>",
            "",
            _columns_table(function_columns, rows, cells=cells),
            "",
        ]
        if reasons:
            why = ["Why some checks stop at 1st order or refuse:", ""]
            parts += [*why, *(f"* {escape_cell(line)}" for line in reasons), ""]
        parts += ["</details>", ""]
    return "\n".join(parts).rstrip("\n") + "\n"
