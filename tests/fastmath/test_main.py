"""``python -m chainrules.fastmath``: the table of choices."""

import numpy as np
import pytest

from chainrules.fastmath import __main__ as command
from chainrules.fastmath import calibration, choice
from chainrules.fastmath._bits import COMPILED


def test_it_prints_one_row_per_function_and_dtype(monkeypatch, capsys):
    monkeypatch.setattr(choice, "COMPILED", True)  # as with numba: the environment decides
    monkeypatch.setenv(choice.ENVIRONMENT_VARIABLE, "twin")
    choice.forget()
    try:
        assert command.main([]) == 0
    finally:
        monkeypatch.undo()
        choice.forget()
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 * len(choice.NAMES)
    assert lines[0] == "exp float32 twin environment" and lines[-1].startswith("logsumexp float64")


@pytest.mark.skipif(not COMPILED, reason="numba is not installed: no calibration")
def test_calibrating_where_the_cache_cannot_be_written_is_an_error(monkeypatch, tmp_path, capsys):
    blocked = tmp_path / "file"
    blocked.write_text("")
    monkeypatch.setenv(calibration.CACHE_VARIABLE, str(blocked))
    assert command.main(["--calibrate"]) == 1
    assert "cannot write" in capsys.readouterr().err


def test_rows_state_the_speedup_of_calibrated_choices():
    table = {
        "log": {
            np.float32: choice.Choice(True, "calibrated", 1.5),
            np.float64: choice.Choice(False, "override"),
        }
    }
    assert command.rows(table) == [
        "log float32 kernel calibrated (twin time / kernel time 1.50)",
        "log float64 twin override",
    ]
