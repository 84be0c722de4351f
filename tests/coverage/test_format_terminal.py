"""The terminal table: its lines, its colour, and what it never hides."""

import io
import re

import pytest

from chainrules.coverage.columns import headline
from chainrules.coverage.format_terminal import (
    render_summary,
    render_terminal,
    render_terminal_summary,
    wants_color,
)

ANSI = re.compile(r"\033\[[0-9;]*m")


def test_summary_has_a_line_per_category_and_the_total(small_report):
    lines = render_summary(small_report).splitlines()
    assert [line.split()[0] for line in lines] == [
        "category",
        "python.math",
        "python.operator",
        "unclassified",
        "total",
    ]
    header, total = lines[0].split(), lines[-1].split()
    if small_report.known:
        assert header[-4:] == ["tested", "coverage", "with", "rules"]
        assert total[-2:] == ["50.0%", "100.0%"]  # coverage, with rules
    else:  # columns that would be "?" on every line are left out
        assert header == "category functions differentiable rrule frule with rules".split()
        assert total == ["total", "5", "2", "2", "2", "100.0%"]
        assert "?" not in render_summary(small_report)


def test_terminal_summary_says_where_results_came_from_first(small_report):
    lines = render_terminal_summary(small_report).splitlines()
    assert lines[0].startswith("test results: ")
    assert lines[2].split()[0] == "category" and lines[-1] == headline(small_report.total)
    assert ("--results PATH" in lines[0]) is (not small_report.known)


def test_colour_only_when_asked(small_report):
    plain = render_terminal(small_report, color=False)
    coloured = render_terminal(small_report, color=True)
    assert not ANSI.search(plain)
    assert ANSI.search(coloured)
    assert ANSI.sub("", coloured) == plain


def test_full_report_lists_what_needs_attention(small_report):
    text = render_terminal(small_report)
    assert "Unclassified (1): math.tricky" in text
    assert "chainrules.fastmath: not importable: none yet" in text
    assert "Rules outside the universe (1): abs" in text
    assert "math.sin" not in text
    with_functions = render_terminal(small_report, functions=True)
    assert all(name in with_functions for name in ("math.sin", "math.floor", "a | step"))


def test_engines_have_their_own_totals_table(small_report, engine_totals):
    lines = render_terminal(small_report).splitlines()
    header = ["category", "reference", "torch", "jax", "autograd", "dask"]
    at = next(i for i, line in enumerate(lines) if line.split() == header)
    assert lines[at - 1].startswith("per engine, of the differentiable functions: tested to 2nd")
    shown = {
        line.split()[0]: re.findall(r"[0-9?]+ / [0-9?]+ / [0-9]+", line)
        for line in lines[at + 1 : at + 1 + len(engine_totals)]
    }
    assert shown == engine_totals


def test_function_lines_show_each_engine_and_why_it_stops_at_first_order(
    small_report, engine_cells
):
    lines = render_terminal(small_report, functions=True).splitlines()
    header = next(line for line in lines if line.startswith("function "))
    names = header.split()
    assert names[names.index("2nd") + 2 : names.index("reason")] == [
        "reference",
        "torch",
        "jax",
        "autograd",
        "dask",
    ]
    start = header.index("reference")
    end = header.index("reason")
    rows = lines[lines.index(header) + 1 : lines.index(header) + 1 + len(small_report.rows)]
    shown = {row.split()[0]: re.split(r"\s{2,}", row[start:end].strip()) for row in rows}
    expected = dict(engine_cells)
    if small_report.known:
        expected["math.sin"] = ["2", "2", "1 [1]", "reached", "reached"]
        assert lines[-2:] == [
            "why some checks stop at 1st order or refuse:",
            "[1] the host callback | has no 2nd derivative",
        ]
    assert shown == expected


class FakeTerminal(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize(
    ("stream", "choice", "env", "expected"),
    [
        (FakeTerminal(), "auto", {}, True),
        (io.StringIO(), "auto", {}, False),
        (FakeTerminal(), "auto", {"NO_COLOR": "1"}, False),
        (FakeTerminal(), "auto", {"TERM": "dumb"}, False),
        (io.StringIO(), "always", {}, True),
        (FakeTerminal(), "never", {}, False),
    ],
)
def test_wants_color(monkeypatch, stream, choice, env, expected):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert wants_color(stream, choice) is expected


def test_many_rules_outside_the_universe_are_counted_and_say_where_they_are_named(small_report):
    from dataclasses import replace

    from chainrules.coverage.report import OutsideRow

    many = tuple(OutsideRow(f"stand_in_{i}", True, True, False, False) for i in range(25))
    text = render_terminal(replace(small_report, outside=many))
    assert "Rules outside the universe (25): named by --format json and --format html" in text
    assert "stand_in_0" not in text
