"""The ``chainrules coverage`` command line (also ``python -m chainrules coverage``).

Exit codes: 0 when the report was written (and met ``--fail-under``), 1 when coverage is below
``--fail-under``, 2 for a usage error: a bad option, an unknown category, an unreadable
results file, ``--fail-under`` without ``--results`` (coverage counts tested rules, so it
cannot be known without them), or ``--summary`` with a format that has no short form.

>>> import io
>>> out, err = io.StringIO(), io.StringIO()
>>> main(["--format", "json", "--category", "python.math"], stdout=out, stderr=err)
0
>>> '"schema": "chainrules-coverage/3"' in out.getvalue()
True
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

from .record import RecordError, read_test_record
from .report import Report, current_report

__all__ = [
    "EXIT_BELOW",
    "EXIT_OK",
    "EXIT_USAGE",
    "EXAMPLES",
    "FORMATS",
    "SUMMARY_FORMATS",
    "add_arguments",
    "main",
]

EXIT_OK, EXIT_BELOW, EXIT_USAGE = 0, 1, 2


def _terminal(report: Report, args: argparse.Namespace, stream: IO[Any]) -> str:
    from .format_terminal import render_terminal, render_terminal_summary, wants_color

    color = args.output is None and wants_color(stream, args.color)
    if args.summary:
        return render_terminal_summary(report, color=color) + "\n"
    return render_terminal(report, color=color, functions=args.functions) + "\n"


def _markdown(report: Report, args: argparse.Namespace, stream: IO[Any]) -> str:
    from .format_markdown import render_markdown

    return render_markdown(report, summary=args.summary)


def _json(report: Report, args: argparse.Namespace, stream: IO[Any]) -> str:
    from .format_json import render_json

    return render_json(report)


def _html(report: Report, args: argparse.Namespace, stream: IO[Any]) -> str:
    from .format_html import render_html

    return render_html(report)


FORMATS: dict[str, Callable[[Report, argparse.Namespace, IO[Any]], str]] = {
    "terminal": _terminal,
    "markdown": _markdown,
    "json": _json,
    "html": _html,
}
SUMMARY_FORMATS = ("terminal", "markdown")  # the formats that have a short form

EXAMPLES = """\
examples:
  python -m pytest --chainrules-record=test-record.json   # record what the tests check
  chainrules coverage --results test-record.json          # a table per category
  chainrules coverage --results test-record.json --fail-under 100
  chainrules coverage --results test-record.json --format markdown --summary
  chainrules coverage --results test-record.json --format html -o coverage.html
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``chainrules coverage``."""
    parser.add_argument(
        "--format",
        choices=list(FORMATS),
        default="terminal",
        help="terminal (the default), markdown (a CI summary), json (for machines), html (one "
        "searchable page of every function)",
    )
    parser.add_argument(
        "--results",
        metavar="PATH",
        help="the JSON that `pytest --chainrules-record=PATH` wrote; without it, tested "
        "counts and coverage are reported as unknown",
    )
    parser.add_argument(
        "--fail-under",
        metavar="PCT",
        type=float,
        help="exit 1 when coverage (percent, of the selected categories) is below PCT",
    )
    parser.add_argument(
        "--category",
        metavar="NAME",
        action="append",
        default=[],
        help="only this category, or every category under a prefix (numpy); repeatable",
    )
    parser.add_argument(
        "--functions", action="store_true", help="terminal: one line per function as well"
    )
    parser.add_argument(
        "--summary",
        action="store_true",
        help="terminal and markdown: the table of categories only (markdown: a few KB, where "
        "the whole report is too long for a pull-request comment)",
    )
    parser.add_argument(
        "--color",
        choices=["auto", "always", "never"],
        default="auto",
        help="terminal: colour (auto: on a terminal, unless NO_COLOR is set)",
    )
    parser.add_argument("-o", "--output", metavar="PATH", help="write to PATH, not stdout")


def main(
    argv: Sequence[str] | None = None, stdout: IO[Any] | None = None, stderr: IO[Any] | None = None
) -> int:
    """Run ``chainrules coverage`` with ``argv`` (the arguments after ``coverage``)."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    parser = argparse.ArgumentParser(
        prog="chainrules coverage",
        description="Which functions have rules, and which are tested.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_arguments(parser)
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            args = parser.parse_args(argv)
    except SystemExit as stop:  # argparse has printed the usage or the help
        return int(stop.code or 0)
    return run(args, stdout, stderr)


def run(args: argparse.Namespace, stdout: IO[Any], stderr: IO[Any]) -> int:
    """The report for parsed options: render it, write it, apply the gate."""

    def usage_error(message: str) -> int:
        print(f"chainrules coverage: {message}", file=stderr)
        return EXIT_USAGE

    if args.fail_under is not None and args.results is None:
        return usage_error("--fail-under needs --results: coverage counts tested rules")
    if args.summary and args.format not in SUMMARY_FORMATS:
        return usage_error(f"--summary is for --format {' or '.join(SUMMARY_FORMATS)}")
    if args.summary and args.functions:
        return usage_error("--summary and --functions exclude each other")
    record = None
    if args.results is not None:
        try:
            record = read_test_record(args.results)
        except RecordError as error:
            return usage_error(str(error))
    report = current_report(record)
    if args.category:
        try:
            report = report.select(args.category)
        except ValueError as error:
            return usage_error(str(error))

    text = FORMATS[args.format](report, args, stdout)
    if args.output is None:
        stdout.write(text)
    else:
        Path(args.output).write_text(text, encoding="utf-8")

    if args.fail_under is None:
        return EXIT_OK
    coverage = report.total.coverage
    if coverage is None:
        return usage_error("the selected categories have no differentiable function to gate on")
    if coverage < args.fail_under:
        print(
            f"chainrules coverage: {coverage:.2f}% is below --fail-under {args.fail_under:g}%",
            file=stderr,
        )
        return EXIT_BELOW
    print(
        f"chainrules coverage: {coverage:.2f}% meets --fail-under {args.fail_under:g}%", file=stderr
    )
    return EXIT_OK
