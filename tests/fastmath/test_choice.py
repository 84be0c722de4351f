"""The choice between a kernel and its twin: what decides it, in which order, and that the
functions compute what was chosen."""

import numpy as np
import pytest

from chainrules import _compat, fastmath
from chainrules.fastmath import calibration, choice
from chainrules.fastmath._bits import COMPILED
from chainrules.fastmath.accuracy import axis_keywords, sample
from chainrules.fastmath.functions import EXACT, KERNEL_FUNCTIONS

F32, F64 = np.float32, np.float64
PAIRS = [(name, dtype) for name in choice.NAMES for dtype in (F32, F64)]

# A calibration names its machine by the CPU numba compiles for.
needs_numba = pytest.mark.skipif(not COMPILED, reason="numba is not installed: no calibration")


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """Choices made afresh, as with numba installed (nothing is compiled unless a test
    runs a kernel, which then runs as Python), with calibrations kept in an empty directory."""
    monkeypatch.setenv(calibration.CACHE_VARIABLE, str(tmp_path))
    monkeypatch.delenv(choice.ENVIRONMENT_VARIABLE, raising=False)
    monkeypatch.setattr(choice, "COMPILED", True)
    choice.forget()
    yield tmp_path
    for name, dtype in PAIRS:
        choice.override(name, dtype, None)
    monkeypatch.undo()
    choice.forget()


def _measured_as(monkeypatch, kernel_seconds, twin_seconds):
    """Calibration's measurement replaced by fixed times; returns the list of what it measured."""
    calls = []

    def measure(name, dtype, *args, **kwargs):
        calls.append((name, dtype))
        return calibration.Measured(kernel_seconds, twin_seconds)

    monkeypatch.setattr(calibration, "measure", measure)
    return calls


def _compute(name, dtype, f):
    with np.errstate(all="ignore"):
        return f(*sample(name, dtype, 256), **axis_keywords(name))


@pytest.mark.parametrize(("name", "dtype"), PAIRS, ids=[f"{n}-{d.__name__}" for n, d in PAIRS])
def test_an_override_runs_the_chosen_implementation(name, dtype, fresh):
    public = getattr(fastmath, name)
    choice.override(name, dtype, True)
    assert choice.of(name, dtype) == choice.Choice(True, "override")
    np.testing.assert_array_equal(
        _compute(name, dtype, public), _compute(name, dtype, KERNEL_FUNCTIONS[name])
    )
    choice.override(name, dtype, False)
    assert choice.of(name, dtype) == choice.Choice(False, "override")
    np.testing.assert_array_equal(_compute(name, dtype, public), _compute(name, dtype, EXACT[name]))


@needs_numba
def test_an_override_of_none_gives_the_choice_back(fresh, monkeypatch):
    _measured_as(monkeypatch, 1.0, 3.0)
    choice.override("log", F32, False)
    assert not choice.of("log", F32).kernel
    choice.override("log", F32, None)
    assert choice.of("log", F32) == choice.Choice(True, "calibrated", 3.0)


@pytest.mark.parametrize("mode", ["kernel", "twin"])
def test_the_environment_decides_for_every_function(mode, fresh, monkeypatch):
    calls = _measured_as(monkeypatch, 1.0, 1.0)
    monkeypatch.setenv(choice.ENVIRONMENT_VARIABLE, mode)
    assert {choice.of(n, d) for n, d in PAIRS} == {choice.Choice(mode == "kernel", "environment")}
    assert calls == []


def test_the_instruction_set_mode_times_nothing(fresh, monkeypatch):
    calls = _measured_as(monkeypatch, 1.0, 1.0)
    monkeypatch.setenv(choice.ENVIRONMENT_VARIABLE, "instruction-set")
    features = _compat.numpy_cpu_features()
    for name, dtype in PAIRS:
        expected = choice.instruction_set_choice(name, dtype, features)
        assert choice.of(name, dtype) == choice.Choice(expected, "instruction set")
    assert calls == []


def test_the_instruction_set_rule_keeps_twins_only_where_numpy_has_avx512():
    avx512 = frozenset({"AVX2", "FMA3", "AVX512F", "AVX512_SKX"})
    avx2 = frozenset({"AVX2", "FMA3"})
    kept = {(n, d) for n, d in PAIRS if not choice.instruction_set_choice(n, d, avx512)}
    assert kept == choice.TWINS_WITH_AVX512
    assert all(choice.instruction_set_choice(n, d, avx2) for n, d in PAIRS)
    assert all(choice.instruction_set_choice(n, d, frozenset()) for n, d in PAIRS)


def test_without_numba_the_twin_runs(fresh, monkeypatch):
    monkeypatch.setattr(choice, "COMPILED", False)
    assert choice.of("exp", F32) == choice.Choice(False, "no numba")
    with pytest.raises(RuntimeError, match="numba is not installed"):
        choice.calibrate()


@needs_numba
def test_a_calibration_is_made_once_and_read_by_later_processes(fresh, monkeypatch):
    calls = _measured_as(monkeypatch, 2.0, 1.0)
    assert choice.of("tanh", F32) == choice.Choice(False, "calibrated", 0.5)
    assert calls == [("tanh", F32)]
    choice.forget()  # as a new process would: the choice comes from the cache
    _measured_as(monkeypatch, 1.0, 9.0)
    assert choice.of("tanh", F32) == choice.Choice(False, "calibrated", 0.5)
    files = sorted(p.name for p in calibration.writable_directory().iterdir())
    assert files == ["machine.json", "tanh-float32.json"]


@needs_numba
def test_an_unwritable_cache_falls_back_to_the_instruction_set(fresh, monkeypatch, tmp_path):
    calls = _measured_as(monkeypatch, 1.0, 9.0)
    blocked = tmp_path / "a file where the cache directory would be"
    blocked.write_text("")
    monkeypatch.setenv(calibration.CACHE_VARIABLE, str(blocked))
    expected = choice.instruction_set_choice("exp", F64, _compat.numpy_cpu_features())
    assert choice.of("exp", F64) == choice.Choice(expected, "instruction set")
    assert calls == []
    with pytest.raises(OSError, match="cannot write"):
        choice.calibrate()


@needs_numba
def test_calibrate_measures_what_is_missing_and_refresh_measures_everything(fresh, monkeypatch):
    calls = _measured_as(monkeypatch, 1.0, 2.0)
    choice.of("exp", F32)
    table = choice.calibrate()
    assert len(calls) == len(PAIRS)  # exp float32 was measured once, by of()
    assert all(table[n][d] == choice.Choice(True, "calibrated", 2.0) for n, d in PAIRS)
    calls = _measured_as(monkeypatch, 2.0, 1.0)
    table = choice.calibrate(refresh=True)
    assert len(calls) == len(PAIRS)
    assert all(table[n][d] == choice.Choice(False, "calibrated", 0.5) for n, d in PAIRS)


def test_table_has_every_function_and_dtype(fresh, monkeypatch):
    monkeypatch.setenv(choice.ENVIRONMENT_VARIABLE, "twin")
    table = choice.table()
    assert list(table) == list(choice.NAMES) == list(EXACT)
    assert all(set(by_dtype) == {F32, F64} for by_dtype in table.values())


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: choice.of("cos", F32), ValueError, r"choice\.of: name must be one of exp"),
        (lambda: choice.of("exp", np.int32), ValueError, r"dtype must be float32 or float64"),
        (lambda: choice.of("exp", "complex"), ValueError, r"dtype must be float32 or float64"),
        (lambda: choice.override("exp", F32, 1), TypeError, r"override: kernel must be a bool"),
    ],
)
def test_bad_arguments_are_named(call, error, match, fresh):
    with pytest.raises(error, match=match):
        call()


def test_a_bad_environment_value_names_the_variable(fresh, monkeypatch):
    monkeypatch.setenv(choice.ENVIRONMENT_VARIABLE, "fast")
    with pytest.raises(ValueError, match="CHAINRULES_FASTMATH_CHOICE must be one of calibrate"):
        choice.of("exp", F32)


def test_dtypes_are_accepted_in_any_spelling(fresh, monkeypatch):
    monkeypatch.setenv(choice.ENVIRONMENT_VARIABLE, "kernel")
    assert choice.of("exp", "float32") is choice.of("exp", np.dtype(np.float32))
