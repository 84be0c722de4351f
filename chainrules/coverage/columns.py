"""The columns every human-readable format shows, so that all of them say the same thing.

A column is a header and a function from a ``Totals`` (or a ``FunctionRow``) to text; unknown
values (no test results read) show as ``?``, undefined percentages as ``-``.

Each engine of ``ENGINES`` has a column in the function table (its cells are explained by
``REACH_LEGEND``; see ``chainrules.coverage.reach``) and one in the engine table of the totals
(``ENGINE_TOTALS_COLUMNS``, cells ``2nd / 1st / reached``). A check that stops at first order
for a stated reason shows as ``1 [n]``, ``n`` numbering the reasons listed under the table
(``function_cells``).

The ``partials given`` column counts partial derivatives of the elementwise functions
(``chainrules.coverage.partials``): given of all, and how many are ``NotImplementedTangent``.

>>> percent(12.345), percent(None), count(None)
('12.3%', '-', '?')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .partials import Partials
from .reach import ENGINES
from .report import FunctionRow, Report, Totals

__all__ = [
    "ENGINE_TOTALS_COLUMNS",
    "ENGINE_TOTALS_LEGEND",
    "FUNCTION_COLUMNS",
    "REACH_LEGEND",
    "TOTALS_COLUMNS",
    "count",
    "flag",
    "function_cells",
    "headline",
    "needs_attention",
    "partials_text",
    "percent",
    "results_line",
]

UNKNOWN = "?"
UNDEFINED = "-"


def percent(value: float | None) -> str:
    return UNDEFINED if value is None else f"{value:.1f}%"


def count(value: int | None) -> str:
    return UNKNOWN if value is None else str(value)


def flag(value: bool | None, yes: str = "yes", no: str = "-") -> str:
    return UNKNOWN if value is None else (yes if value else no)


def partials_text(p: Partials | None) -> str:
    """``given / all (n not implemented)`` of some partial derivatives, ``-`` when none."""
    if p is None:
        return UNDEFINED
    return f"{p.given} / {p.total} ({p.not_implemented} not impl.)"


def _coverage(t: Totals) -> str:
    if t.tested is None and t.differentiable:
        return UNKNOWN
    return percent(t.coverage)


TOTALS_COLUMNS: tuple[tuple[str, Callable[[Totals], str]], ...] = (
    ("category", lambda t: t.category),
    ("functions", lambda t: str(t.functions)),
    ("differentiable", lambda t: str(t.differentiable)),
    ("rrule", lambda t: str(t.with_rrule)),
    ("frule", lambda t: str(t.with_frule)),
    ("tested", lambda t: count(t.tested)),
    ("2nd order", lambda t: count(t.tested_second_order)),
    ("coverage", _coverage),
    ("with rules", lambda t: percent(t.rule_coverage)),
    ("partials given", lambda t: partials_text(t.partials)),
    ("non-diff (declared)", lambda t: f"{t.non_differentiable} ({t.declared_non_differentiable})"),
    ("out of scope", lambda t: str(t.out_of_scope)),
    ("unclassified", lambda t: str(t.unclassified)),
)

FUNCTION_COLUMNS: tuple[tuple[str, Callable[[FunctionRow], str]], ...] = (
    ("function", lambda r: r.name),
    ("category", lambda r: r.category),
    ("status", lambda r: r.status),
    ("rrule", lambda r: flag(r.rrule)),
    ("frule", lambda r: flag(r.frule)),
    ("declared non-diff", lambda r: flag(r.non_differentiable)),
    ("opted out", lambda r: flag(r.opted_out)),
    ("tested rrule", lambda r: flag(r.tested_rrule)),
    ("tested frule", lambda r: flag(r.tested_frule)),
    ("2nd order", lambda r: flag(r.tested_second_order)),
    *((engine, lambda r, e=engine: r.reach(e).text) for engine in ENGINES),
    ("reason", lambda r: r.reason),
)

ENGINE_TOTALS_COLUMNS: tuple[tuple[str, Callable[[Totals], str]], ...] = (
    ("category", lambda t: t.category),
    *((engine, lambda t, i=i: t.engines[i].text) for i, engine in enumerate(ENGINES)),
)

REACH_LEGEND = (
    "per engine: 2 / 1 = tested there to 2nd / 1st order ([n]: why it stops at 1st, listed "
    "below); reached = has rules the engine reaches, not tested there; - = no rule; "
    "n/a = non-differentiable; ? = no test results"
)
ENGINE_TOTALS_LEGEND = (
    "per engine, of the differentiable functions: tested to 2nd order / tested to 1st order "
    "only / reached (has rules the engine reaches)"
)


def function_cells(
    rows: Sequence[FunctionRow],
    columns: Sequence[tuple[str, Callable[[FunctionRow], str]]] = FUNCTION_COLUMNS,
) -> tuple[list[list[str]], list[str]]:
    """The cells of ``columns`` for ``rows``, and the reasons their ``[n]`` marks refer to.

    An engine cell whose check stops at first order with a reason gets `` [n]``; the same
    reason keeps its number throughout; the second list holds ``"[n] reason"`` lines.
    """
    numbers: dict[str, int] = {}
    cells = []
    for row in rows:
        line = []
        for name, text in columns:
            cell = text(row)
            reason = row.reach(name).reason if name in ENGINES else ""
            if reason:
                cell += f" [{numbers.setdefault(reason, len(numbers) + 1)}]"
            line.append(cell)
        cells.append(line)
    return cells, [f"[{n}] {reason}" for reason, n in numbers.items()]


def headline(t: Totals) -> str:
    """One sentence for a ``Totals``: coverage, or why it is unknown."""
    rules = f"{t.with_both_rules} of {t.differentiable} differentiable functions have both rules"
    if t.tested is None:
        return f"coverage unknown (no test results); {rules} ({percent(t.rule_coverage)})"
    return (
        f"coverage {percent(t.coverage)}: {t.tested} of {t.differentiable} differentiable "
        f"functions have both rules tested; {t.with_both_rules} have both rules "
        f"({percent(t.rule_coverage)})"
    )


def results_line(report: Report) -> str:
    """Where the tested counts came from, or what could not be known without them."""
    record = report.record
    if record is None:
        return (
            "test results: none given (--results PATH), so tested, second-order and coverage "
            "are unknown"
        )
    seed = "" if record.seed is None else f", seed {record.seed}"
    return f"test results: {record.path or 'given'} ({len(record.tested)} functions{seed})"


def needs_attention(report: Report, listed: int | None = 10) -> list[str]:
    """What a reader must not miss: unclassified functions, sources that could not be read,
    functions of the reviewed table that the installed libraries lack, contradictions, and
    rules for functions outside the universe (named when at most ``listed``, always when
    ``listed`` is ``None``; otherwise counted, with the formats that name them)."""
    notes: list[str] = []
    unclassified = [r.name for r in report.rows if r.status == "unclassified"]
    if unclassified:
        notes.append(f"Unclassified ({len(unclassified)}): " + ", ".join(unclassified))
    notes += [f"{s.name}: {s.note}" for s in report.sources if not s.available]
    if report.unavailable:
        notes.append(
            f"Not available in the installed libraries ({len(report.unavailable)}): "
            + "; ".join(report.unavailable)
        )
    if report.disagreements:
        disagreeing = ", ".join(r.name for r in report.disagreements)
        notes.append(f"Classified differentiable but declared non-differentiable: {disagreeing}")
    notes += [f"Conflicting classification: {c}" for c in report.conflicts]
    if report.outside:
        outside = [o.name for o in report.outside]
        named = listed is None or len(outside) <= listed
        shown = ", ".join(outside) if named else "named by --format json and --format html"
        notes.append(f"Rules outside the universe ({len(outside)}): {shown}")
    return notes
