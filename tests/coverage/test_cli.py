"""``chainrules coverage``: options, outputs and the gate's exit codes."""

import argparse
import io
import json
from pathlib import Path

import pytest

from chainrules.coverage.cli import (
    EXAMPLES,
    EXIT_BELOW,
    EXIT_OK,
    EXIT_USAGE,
    add_arguments,
    main,
)
from chainrules.coverage.format_json import validate
from chainrules.coverage.record import RECORD_SCHEMA
from chainrules.coverage.report import current_report


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def tested_function():
    """A differentiable function of this installation that has both rules."""
    report = current_report()
    return next(r for r in report.rows if r.status == "differentiable" and r.has_rules)


WHY = "a reason why it stops at first order"


@pytest.fixture(params=[RECORD_SCHEMA, "chainrules-test-record/1"])
def results(request, tmp_path, tested_function):
    """A results file of either schema; the current one also has engine checks."""
    path = tmp_path / "results.json"
    kinds = [
        {"function": tested_function.name, "kind": k, "second_order": False}
        for k in ("rrule", "frule")
    ]
    document = {"schema": request.param, "seed": 5, "results": kinds}
    if request.param == RECORD_SCHEMA:
        document["engines"] = [
            {"function": tested_function.name, "engine": "torch", "order": 2, "reason": ""},
            {"function": tested_function.name, "engine": "jax", "order": 1, "reason": WHY},
        ]
    path.write_text(json.dumps(document))
    return str(path)


def coverage_of(category, results):
    code, out, _ = run("--format", "json", "--results", results, "--category", category)
    assert code == EXIT_OK
    return json.loads(out)["total"]["coverage"]


def test_gate_exit_codes(results, tested_function):
    category = tested_function.category
    coverage = coverage_of(category, results)
    assert 0 < coverage <= 100
    table = [
        (["--fail-under", str(coverage - 0.01)], EXIT_OK, "meets --fail-under"),
        (["--fail-under", "0"], EXIT_OK, "meets --fail-under"),
        (["--fail-under", str(coverage + 0.01)], EXIT_BELOW, "is below --fail-under"),
    ]
    for extra, expected, message in table:
        code, _, err = run("--results", results, "--category", category, *extra)
        assert (code, message in err) == (expected, True), (extra, err)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--fail-under", "10"], "--fail-under needs --results"),
        (["--results", "no/such/file.json"], "cannot read the test record"),
        (["--category", "no.such.category"], "no category 'no.such.category'"),
        (["--format", "yaml"], "invalid choice"),
        (["--fail-under", "ten"], "invalid float value"),
    ],
)
def test_usage_errors_exit_2(argv, message):
    code, _, err = run(*argv)
    assert code == EXIT_USAGE
    assert message in err


def test_gate_on_categories_without_differentiable_functions_is_refused(results):
    code, _, err = run("--results", results, "--category", "numpy.io", "--fail-under", "1")
    assert code == EXIT_USAGE and "no differentiable function" in err


@pytest.mark.parametrize("fmt", ["terminal", "markdown", "json", "html"])
def test_every_format_renders(fmt, results):
    code, out, err = run("--format", fmt, "--results", results, "--category", "python")
    assert (code, err) == (EXIT_OK, "")
    assert "python.math" in out and "numpy.sin" not in out
    if fmt == "json":
        document = json.loads(out)
        assert validate(document) == []
        assert document["filter"] == ["python"] and document["results"]["seed"] == 5


@pytest.mark.parametrize("fmt", ["terminal", "markdown", "json", "html"])
def test_every_format_shows_the_engines(fmt, results, tested_function):
    category = tested_function.category
    code, out, _ = run("--format", fmt, "--results", results, "--category", category, "--functions")
    assert code == EXIT_OK
    engines_known = json.loads(Path(results).read_text())["schema"] == RECORD_SCHEMA
    if fmt == "json":
        row = next(f for f in json.loads(out)["functions"] if f["name"] == tested_function.name)
        assert row["engines"]["reference"] == {"state": "tested", "order": 1, "reason": ""}
        if engines_known:
            assert row["engines"]["torch"] == {"state": "tested", "order": 2, "reason": ""}
            assert row["engines"]["jax"] == {"state": "tested", "order": 1, "reason": WHY}
        else:
            assert row["engines"]["torch"]["state"] == "reached"
        return
    assert all(engine in out for engine in ("reference", "torch", "jax", "autograd", "dask"))
    assert "tested to 2nd order / tested to 1st order only / reached" in out
    assert (f"[1] {WHY}" in out) is engines_known


def test_output_file(tmp_path):
    path = tmp_path / "coverage.html"
    code, out, _ = run("--format", "html", "-o", str(path))
    assert (code, out) == (EXIT_OK, "")
    assert path.read_text().startswith("<!DOCTYPE html>")


def test_without_results_the_report_says_what_it_cannot_know():
    code, out, _ = run("--color", "never")
    assert code == EXIT_OK
    assert "coverage unknown" in out and "--results PATH" in out


def test_functions_lists_rows():
    code, out, _ = run("--category", "numpy.fft", "--functions", "--color", "never")
    assert code == EXIT_OK and "numpy.fft.rfftfreq" in out


# A pull-request comment holds 65,536 characters; the summary must leave room for others.
PULL_REQUEST_ROOM = 60_000


def test_the_markdown_summary_fits_a_pull_request_comment(results):
    code, whole, _ = run("--format", "markdown", "--results", results)
    assert code == EXIT_OK and len(whole) > 65_536  # why the summary exists
    code, summary, err = run("--format", "markdown", "--summary", "--results", results)
    assert (code, err) == (EXIT_OK, "")
    assert len(summary) < PULL_REQUEST_ROOM
    categories = [t.category for t in current_report().categories]
    rows = [line.split("|")[1].strip() for line in summary.splitlines() if line.startswith("| ")]
    assert rows[2:] == [*categories, "**total**"]  # after the header and the alignment row
    assert "<details>" not in summary


def test_the_terminal_summary_is_one_line_per_category():
    code, out, _ = run("--summary", "--color", "never")
    assert code == EXIT_OK
    lines = out.strip().splitlines()
    categories = [t.category for t in current_report().categories]
    table = [line.split()[0] for line in lines[2:-2]]
    assert table == ["category", *categories, "total"]
    assert lines[0].startswith("test results: none given") and "?" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--summary", "--format", "json"], "--summary is for --format terminal or markdown"),
        (["--summary", "--format", "html"], "--summary is for --format terminal or markdown"),
        (["--summary", "--functions"], "--summary and --functions exclude each other"),
    ],
)
def test_summary_usage_errors(argv, message):
    code, out, err = run(*argv)
    assert (code, out) == (EXIT_USAGE, "") and message in err


def test_help_lists_the_options_and_examples_that_work():
    code, out, _ = run("--help")
    assert code == EXIT_OK
    for option in ("--results", "--format", "--summary", "--fail-under", "--category"):
        assert option in out
    examples = [line.split("#")[0].split() for line in EXAMPLES.splitlines()[1:]]
    assert out.rstrip().endswith(EXAMPLES.rstrip())
    assert examples[0][:3] == ["python", "-m", "pytest"]
    parser = argparse.ArgumentParser(exit_on_error=False)
    add_arguments(parser)
    for words in examples[1:]:
        assert words[:2] == ["chainrules", "coverage"]
        parser.parse_args(words[2:])  # raises on an option the command does not have
