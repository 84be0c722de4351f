"""What the documentation shows runs: Python examples are doctests, command lines parse.

The pages' doctests themselves run with the suite (``--doctest-glob=docs/*.md``); this checks
that no Python example escapes them, that every ``chainrules coverage`` command line of a shell
block in the README, the contributing guide and the pages parses as written (with the
coverage floor that CI applies), and that ``--chainrules-record=PATH`` is written with ``=``
everywhere.
"""

import argparse
import re
import shlex
from pathlib import Path

import pytest

from chainrules.coverage.cli import add_arguments

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "docs").glob("*.md"))
GUIDES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *PAGES]
FLOOR = (ROOT / ".ci" / "coverage-floor").read_text().strip()

_FENCE = re.compile(r"^([ \t]*)```(\w*)\n(.*?)^\1```", re.S | re.M)


def fenced_blocks(path):
    """``(language, body, line)`` of each fenced block of ``path``, bodies dedented."""
    text = path.read_text(encoding="utf-8")
    for match in _FENCE.finditer(text):
        indent, language, body = match.groups()
        lines = [line.removeprefix(indent) for line in body.splitlines()]
        yield language, "\n".join(lines), text[: match.start()].count("\n") + 1


def command_lines(path):
    """``(line, command)`` for each line of ``path``'s shell blocks."""
    found = []
    for language, body, line in fenced_blocks(path):
        if language in ("sh", "bash", "console", ""):
            found += [(line, cmd) for cmd in body.splitlines() if cmd.strip()]
    return found


def coverage_parser():
    parser = argparse.ArgumentParser(prog="chainrules coverage", exit_on_error=False)
    add_arguments(parser)
    return parser


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_python_example_of_a_page_is_a_doctest(page):
    for language, body, line in fenced_blocks(page):
        if language in ("python", "py", "pycon"):
            first = next(code for code in body.splitlines() if code.strip())
            assert first.startswith(">>> "), f"{page.name}:{line}: a Python block that never runs"


@pytest.mark.parametrize("guide", GUIDES, ids=lambda p: p.name)
def test_every_coverage_command_shown_parses(guide):
    parser = coverage_parser()
    for line, command in command_lines(guide):
        command = re.sub(r'"?\$\(cat \.ci/coverage-floor\)"?', FLOOR, command)
        command = re.split(r"\s(?:>>?|\||#)\s", command)[0]  # no redirection, pipe, comment
        if not re.match(r"(chainrules|python -m chainrules) coverage\b", command.strip()):
            continue
        words = shlex.split(command)
        if words[:1] not in (["chainrules"], ["python"]):
            continue
        options = [w for w in words[words.index("coverage") + 1 :] if w not in ("-h", "--help")]
        try:
            args = parser.parse_args(options)
        except (argparse.ArgumentError, SystemExit) as error:
            pytest.fail(f"{guide.name}:{line}: `{command}` does not parse: {error}")
        if args.fail_under is not None:
            assert f"{args.fail_under:g}" == FLOOR, f"{guide.name}:{line}: the floor is {FLOOR}"


@pytest.mark.parametrize("guide", GUIDES, ids=lambda p: p.name)
def test_the_record_option_is_always_written_with_an_equals_sign(guide):
    text = guide.read_text(encoding="utf-8")
    spaced = re.findall(r"--chainrules-record[ \t]+\S+", text)
    assert spaced == [], f"{guide.name}: pytest takes a separate PATH for a test path"
    assert "--chainrules-record=" in text or "--chainrules-record" not in text


def test_the_checks_catch_what_they_are_for(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "```python\nimport numpy\n```\n\n"
        "```sh\nchainrules coverage --results r.json --fail-under 12.5\n"
        "chainrules coverage --no-such-option\n```\n"
        "`pytest --chainrules-record PATH`\n"
    )
    with pytest.raises(AssertionError, match="a Python block that never runs"):
        test_every_python_example_of_a_page_is_a_doctest(page)
    with pytest.raises(AssertionError, match="the floor is"):
        test_every_coverage_command_shown_parses(page)
    page.write_text("```sh\nchainrules coverage --no-such-option\n```\n")
    with pytest.raises(pytest.fail.Exception, match="does not parse"):
        test_every_coverage_command_shown_parses(page)
    page.write_text("`pytest --chainrules-record PATH`\n")
    with pytest.raises(AssertionError, match="separate PATH"):
        test_the_record_option_is_always_written_with_an_equals_sign(page)
