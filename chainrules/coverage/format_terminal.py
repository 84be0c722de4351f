"""The report as a terminal table, coloured when the terminal has colour.

``render_terminal`` prints the environment, where the test results came from, one line per
category and the total, the same lines per engine (tested to 2nd order / to 1st / reached),
then what needs attention (unclassified functions, sources that could not be read,
classification conflicts); with ``functions=True`` it adds one line per function, with a
column per engine, and the numbered reasons why some checks stop at first order.
``render_summary`` is the short form: one line per category and the total, without the tested
and coverage columns when no test results were read (they would be ``?`` on every line);
``render_terminal_summary`` puts where the results came from above it and the headline below
(``chainrules coverage --summary``).

>>> from chainrules.coverage.report import Report, totals
>>> report = Report(rows=(), categories=(), total=totals("total", [], False), record=None)
>>> print(render_summary(report))
category  functions  differentiable  rrule  frule  with rules
total             0               0      0      0           -
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import IO, Any

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
from .report import Report, Totals

__all__ = ["render_summary", "render_terminal", "render_terminal_summary", "wants_color"]

_BOLD, _DIM, _RED, _YELLOW, _GREEN, _RESET = (
    "\033[1m",
    "\033[2m",
    "\033[31m",
    "\033[33m",
    "\033[32m",
    "\033[0m",
)
_SUMMARY = (
    "category",
    "functions",
    "differentiable",
    "rrule",
    "frule",
    "tested",
    "coverage",
    "with rules",
)


def wants_color(stream: IO[Any], choice: str = "auto") -> bool:
    """Whether to colour output on ``stream``: ``always``, ``never``, or ``auto`` (a terminal,
    no ``NO_COLOR``, not ``TERM=dumb``)."""
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return bool(getattr(stream, "isatty", lambda: False)())


def _paint(text: str, code: str, color: bool) -> str:
    return f"{code}{text}{_RESET}" if color and code else text


def _level(value: float | None) -> str:
    if value is None:
        return _DIM
    return _GREEN if value >= 80 else _YELLOW if value >= 40 else _RED


def _table(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    color: bool,
    styles: Sequence[Callable[[int, int], str]] = (),
) -> list[str]:
    """Aligned columns: the first left-aligned, the rest right-aligned (text after numbers)."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    numeric = [all(_looks_numeric(r[i]) for r in rows) for i in range(len(headers))]

    def line(cells: Sequence[str], row: int) -> str:
        out = []
        for i, cell in enumerate(cells):
            text = cell.rjust(widths[i]) if numeric[i] and i else cell.ljust(widths[i])
            code = next((s for style in styles if (s := style(row, i))), "")
            out.append(_paint(text, code, color))
        return "  ".join(out).rstrip()

    return [_paint(line(headers, -1), _BOLD, color)] + [line(r, n) for n, r in enumerate(rows)]


def _looks_numeric(cell: str) -> bool:
    return cell in ("?", "-") or cell.rstrip("%").replace(".", "").split(" ")[0].isdigit()


def _totals_lines(report: Report, headers: Sequence[str], color: bool) -> list[str]:
    columns = [c for c in TOTALS_COLUMNS if c[0] in headers]
    all_totals: list[Totals] = [*report.categories, report.total]
    cells = [[text(t) for _, text in columns] for t in all_totals]
    names = [name for name, _ in columns]
    coverage_at = names.index("coverage") if "coverage" in names else -1
    last = len(all_totals) - 1

    def style(row: int, column: int) -> str:
        if column == coverage_at and row >= 0:
            return _level(all_totals[row].coverage)
        return _BOLD if row == last else ""

    return _table([name for name, _ in columns], cells, color, [style])


def _engine_lines(report: Report, color: bool) -> list[str]:
    all_totals: list[Totals] = [*report.categories, report.total]
    cells = [[text(t) for _, text in ENGINE_TOTALS_COLUMNS] for t in all_totals]
    last = len(all_totals) - 1

    def style(row: int, column: int) -> str:
        return _BOLD if row == last else ""

    headers = [name for name, _ in ENGINE_TOTALS_COLUMNS]
    return [ENGINE_TOTALS_LEGEND, *_table(headers, cells, color, [style])]


_NEED_RESULTS = ("tested", "coverage")


def render_summary(report: Report, color: bool = False) -> str:
    """One line per category and the total; the tested columns only when results were read."""
    headers = _SUMMARY if report.known else [h for h in _SUMMARY if h not in _NEED_RESULTS]
    return "\n".join(_totals_lines(report, headers, color))


def render_terminal_summary(report: Report, color: bool = False) -> str:
    """Where the results came from, ``render_summary``, and the headline."""
    lines = [results_line(report), "", render_summary(report, color)]
    return "\n".join([*lines, "", _paint(headline(report.total), _BOLD, color)])


def render_terminal(report: Report, color: bool = False, functions: bool = False) -> str:
    """The full terminal report (see the module docstring)."""
    env = "  ".join(f"{name} {version}" for name, version in report.environment)
    lines = [_paint("chainrules coverage", _BOLD, color) + (f"  ({env})" if env else "")]
    lines.append(results_line(report))
    if report.selected:
        lines.append("categories: " + ", ".join(report.selected))
    lines.append("")
    lines += _totals_lines(report, [name for name, _ in TOTALS_COLUMNS], color)
    lines += ["", *_engine_lines(report, color)]
    lines += ["", _paint(headline(report.total), _BOLD, color)]
    notes = needs_attention(report)
    lines += ["", *notes] if notes else []
    if functions and report.rows:
        cells, reasons = function_cells(report.rows)
        lines += ["", REACH_LEGEND]
        lines += _table([name for name, _ in FUNCTION_COLUMNS], cells, color)
        lines += ["", "why some checks stop at 1st order or refuse:", *reasons] if reasons else []
    elif report.rows:
        lines += ["", "one line per function: add --functions (or filter with --category NAME)"]
    return "\n".join(lines)
