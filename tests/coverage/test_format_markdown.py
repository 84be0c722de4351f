"""The Markdown format, parsed back table by table."""

import re

from chainrules.coverage.columns import ENGINE_TOTALS_COLUMNS, FUNCTION_COLUMNS, TOTALS_COLUMNS
from chainrules.coverage.format_markdown import SUMMARY_POINTER, render_markdown, table


def parse_tables(text):
    """Every pipe table in ``text``: a list of (header, rows), cells unescaped."""
    tables, current = [], None
    for line in text.splitlines():
        if not line.startswith("|"):
            current = None
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip()[1:-1])]
        cells = [re.sub(r"\\(.)", r"\1", c) for c in cells]
        if current is None:
            current = (cells, [])
            tables.append(current)
        elif not all(re.fullmatch(r"-+:?", c) for c in cells):
            assert len(cells) == len(current[0]), line
            current[1].append(cells)
    return tables


def test_tables_parse_back(small_report):
    text = render_markdown(small_report)
    tables = parse_tables(text)
    (header, rows), engines, *per_category = tables
    assert header == [name for name, _ in TOTALS_COLUMNS]
    expected = [*small_report.categories, small_report.total]
    assert [r[0] for r in rows] == [t.category for t in small_report.categories] + ["**total**"]
    for cells, totals in zip(rows, expected, strict=True):
        assert [c.strip("*") for c in cells] == [text(totals) for _, text in TOTALS_COLUMNS]
    assert engines[0] == [name for name, _ in ENGINE_TOTALS_COLUMNS]
    assert [[c.strip("*") for c in cells] for cells in engines[1]] == [
        [text(totals) for _, text in ENGINE_TOTALS_COLUMNS] for totals in expected
    ]
    assert len(per_category) == len(small_report.categories)
    names = [cells[0] for _, rows in per_category for cells in rows]
    assert names == [r.name for r in small_report.rows]
    assert per_category[0][0] == [n for n, _ in FUNCTION_COLUMNS if n != "category"]


def test_pipes_in_a_reason_survive(small_report):
    tables = parse_tables(render_markdown(small_report))
    reasons = [cells[-1] for _, rows in tables[2:] for cells in rows]
    assert "a | step" in reasons


def test_what_is_unknown_and_unclassified_is_said(small_report):
    text = render_markdown(small_report)
    assert "**Unclassified (1): math.tricky**" in text
    assert "**chainrules.fastmath: not importable: none yet**" in text
    assert "**Rules outside the universe (1): abs**" in text
    if small_report.known:
        assert "coverage 50.0%" in text and "results.json" in text
    else:
        assert "coverage unknown" in text and "none given (--results PATH)" in text


def test_table_aligns_numbers_right():
    assert table(["a", "b"], [["x", "1"]], [False, True]).splitlines()[1] == "| --- | ---: |"


def test_every_function_shows_its_engines_and_why_it_stops_at_first_order(
    small_report, engine_cells, engine_totals
):
    text = render_markdown(small_report)
    _, (_, totals), *per_category = parse_tables(text)
    assert {cells[0].strip("*"): [c.strip("*") for c in cells[1:]] for cells in totals} == (
        engine_totals
    )
    header = per_category[0][0]
    at = [header.index(engine) for engine in ("reference", "torch", "jax", "autograd", "dask")]
    shown = {cells[0]: [cells[i] for i in at] for _, rows in per_category for cells in rows}
    expected = dict(engine_cells)
    if small_report.known:
        expected["math.sin"] = ["2", "2", "1 [1]", "reached", "reached"]
        assert "* [1] the host callback \\| has no 2nd derivative" in text.splitlines()
    else:
        assert "[1]" not in text
    assert shown == expected


def test_the_summary_is_the_category_table_and_where_the_rest_is(small_report):
    summary = render_markdown(small_report, summary=True)
    whole = render_markdown(small_report)
    ((header, rows),) = parse_tables(summary)
    assert (header, rows) == parse_tables(whole)[0]
    assert summary.startswith(whole.split("\n\n| ")[0])  # the same heading and headline
    assert summary.rstrip().endswith(SUMMARY_POINTER)
    assert "<details>" not in summary and "math.sin" not in summary
