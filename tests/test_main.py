"""``python -m chainrules`` and the ``chainrules`` console script."""

import io
import subprocess
import sys

import pytest

import chainrules.__main__ as entry


def test_demo_calls_a_rule_and_ends_with_the_coverage_summary(capsys):
    assert entry.main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("rrule(np.sin, x) with x = [0.  0.5 1. ]")
    assert "pullback(ones) = (NoTangent(), [1.       0.877583 0.540302])" in out
    assert "d/da chainrules.scipy.special.betainc(a, b, x) at a, b, x = 2, 3, 0.4" in out
    lines = out.rstrip().splitlines()
    assert lines[-2].startswith("total")
    assert "numpy.elementwise" in out and lines[-1].startswith("coverage unknown")


def _betainc_rows(text):
    """The step's (label, value) rows: 'name: value' lines below its heading."""
    rows = {}
    for line in text.splitlines()[1:]:
        label, _, value = line.strip().rpartition(":")
        if label and not label.startswith("skipped"):
            rows[label] = float(value)
    return rows


def test_demo_differentiates_betainc_in_a_in_every_installed_framework():
    import importlib.util

    out = io.StringIO()
    entry.demo_betainc_everywhere(out)
    rows = _betainc_rows(out.getvalue())
    central = rows.pop("central difference")
    installed = [name for name, module, _ in entry.FRAMEWORKS if importlib.util.find_spec(module)]
    assert list(rows) == installed and "chainrules reverse engine" in rows
    # Printed to 7 decimals; the rule's quadrature and the central difference (h = 1e-5) are
    # good to about 1e-10, JAX with x64 off (float32) to about 1e-7 relative.
    for name, value in rows.items():
        assert value == pytest.approx(central, rel=1e-6), name
    assert central == pytest.approx(-0.24086938, abs=1e-7)  # printed to 7 decimals


def test_demo_names_the_frameworks_it_skipped(monkeypatch):
    import importlib.util

    found = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name in ("torch", "jax", "autograd") else found(name, *a),
    )
    out = io.StringIO()
    entry.demo_betainc_everywhere(out)
    lines = out.getvalue().splitlines()
    assert [line.split(":")[0].strip() for line in lines[1:3]] == [
        "central difference",
        "chainrules reverse engine",
    ]
    assert lines[3] == (
        "  skipped, not installed: PyTorch, JAX, autograd"
        ' (pip install "chainrules[torch,jax,autograd]")'
    )
    assert len(lines) == 4


def test_demo_steps_are_a_list_to_extend(monkeypatch, capsys):
    def extra_step(out):
        print("an engine gradient goes here", file=out)

    monkeypatch.setattr(entry, "DEMO_STEPS", [entry.demo_rrule, extra_step])
    assert entry.main(["demo"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("an engine gradient goes here")


def test_demo_rrule_writes_to_the_stream_it_is_given():
    out = io.StringIO()
    entry.demo_rrule(out)
    assert "y      = [0.       0.479426 0.841471]" in out.getvalue()


@pytest.mark.parametrize(
    ("argv", "code", "stream", "text"),
    [
        (
            ["coverage", "--category", "python.math", "--format", "markdown"],
            0,
            "out",
            "| **total** |",
        ),
        (["coverage", "--fail-under", "5"], 2, "err", "--fail-under needs --results"),
        (["--help"], 0, "out", "chainrules coverage"),
        (["frobnicate"], 2, "err", "unknown command 'frobnicate'"),
    ],
)
def test_commands(capsys, argv, code, stream, text):
    assert entry.main(argv) == code
    captured = capsys.readouterr()
    assert text in (captured.out if stream == "out" else captured.err)


def test_python_dash_m_runs_the_same_cli():
    done = subprocess.run(
        [sys.executable, "-m", "chainrules", "coverage", "--category", "python.operator"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "python.operator" in done.stdout and "total" in done.stdout


def test_version():
    from chainrules import __version__

    done = subprocess.run(
        [sys.executable, "-m", "chainrules", "--version"], capture_output=True, text=True
    )
    assert (done.returncode, done.stdout) == (0, f"chainrules {__version__}\n")


def test_a_reader_that_stops_early_ends_the_command_quietly():
    # `chainrules coverage --functions | head -1`: the pipe closes after one line.
    command = [sys.executable, "-m", "chainrules", "coverage", "--functions"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        first = process.stdout.readline()
        process.stdout.close()
        stderr = process.stderr.read().decode()
        code = process.wait(timeout=60)
    assert first.startswith(b"chainrules coverage")
    assert (code, stderr) == (0, "")


def test_demo_without_the_testing_extra_says_what_it_adds(monkeypatch):
    import importlib.util

    found = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "numdifftools" else found(name, *a),
    )
    out = io.StringIO()
    entry.demo_test_rrule(out)
    assert out.getvalue() == entry.TESTING_EXTRA + "\n"
    assert "pip install chainrules[testing]" in entry.TESTING_EXTRA


def test_the_coverage_summary_says_what_it_shows_before_its_table():
    out = io.StringIO()
    entry.demo_coverage_summary(out)
    lines = out.getvalue().splitlines()
    table = next(i for i, line in enumerate(lines) if line.startswith("category"))
    before = "\n".join(lines[:table])
    assert before.strip() == entry.COVERAGE_INTRODUCTION.strip()
    # the commands it names are the ones that give the full report and the tested counts
    assert "python -m pytest --chainrules-record=test-record.json" in before
    assert "chainrules coverage --results test-record.json" in before
    assert "--help for the full report" not in out.getvalue()
    assert (
        lines[table].split() == "category functions differentiable rrule frule with rules".split()
    )
    assert all("?" not in line for line in lines[table:-1])  # no column of unknowns
