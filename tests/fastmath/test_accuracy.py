"""The stated accuracy table: every kernel meets it on every x86-64 CPU, whether or not it runs
on this one, and every function has an exact twin."""

import inspect
import os
import platform
import subprocess
import sys

import numpy as np
import pytest

from chainrules import fastmath
from chainrules.fastmath import functions
from chainrules.fastmath._bits import COMPILED
from chainrules.fastmath.accuracy import (
    ACCURACY,
    CASES,
    DOMAINS,
    TWINS,
    axis_keywords,
    measure,
    sample,
)


@pytest.mark.parametrize(("name", "dtype"), CASES, ids=[f"{n}-{d.__name__}" for n, d in CASES])
def test_kernel_meets_its_stated_accuracy(name, dtype):
    stated = ACCURACY[name][dtype]
    measured = measure(name, dtype, n=2 * 10**4)
    assert measured.max_relative <= stated.max_relative
    assert measured.max_ulps <= stated.max_ulps


def test_every_public_function_has_one_exact_twin():
    public = {
        f
        for name, f in vars(fastmath).items()
        if inspect.isfunction(f) and f.__module__ == functions.__name__ and not name.startswith("_")
    }
    assert public == set(TWINS) == set(fastmath.FUNCTIONS)
    assert len(set(TWINS.values())) == len(TWINS)
    assert set(ACCURACY) == set(DOMAINS) == {f.__name__ for f in TWINS}


def test_every_function_and_dtype_has_a_kernel_and_a_bound():
    assert set(CASES) == {(f.__name__, d) for f in TWINS for d in (np.float32, np.float64)}
    assert set(functions.KERNEL_FUNCTIONS) == set(functions.EXACT) == set(fastmath.choice.NAMES)
    for name, dtype in CASES:
        assert ACCURACY[name][dtype].max_ulps > 0  # a kernel's, never a twin's 0


# ---- the same bounds compiled for other CPUs ------------------------------------------------

# What a kernel's result can depend on: whether multiply-adds are fused. These targets compile
# the kernels without FMA (the x86-64 baseline) and with it.
TARGETS = {
    "x86-64": ("sse2",),
    "haswell": ("avx", "avx2", "fma", "bmi", "bmi2", "f16c", "lzcnt", "movbe", "popcnt"),
}
N = 2 * 10**4

# Writes the outputs of every kernel, compiled for the target, on ``sample``'s points.
_COMPILED_FOR = """
import sys
import numpy as np
from chainrules.fastmath.accuracy import CASES, axis_keywords, sample
from chainrules.fastmath.functions import KERNEL_FUNCTIONS
outputs = {}
for name, dtype in CASES:
    args = sample(name, dtype, int(sys.argv[2]))
    outputs[f"{name}-{dtype.__name__}"] = KERNEL_FUNCTIONS[name](*args, **axis_keywords(name))
np.savez(sys.argv[1], **outputs)
"""


def _host_features() -> set[str]:
    from llvmlite import binding

    return {name for name, on in binding.get_host_cpu_features().items() if on}


def _runnable(target: str) -> str | None:
    """Why this machine cannot run kernels compiled for ``target``, or None."""
    if not COMPILED:
        return "numba is not installed: the kernels run as Python, on no CPU target"
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return f"the targets are x86-64 CPUs; this machine is {platform.machine()}"
    missing = set(TARGETS[target]) - _host_features()
    return f"this CPU lacks {', '.join(sorted(missing))}" if missing else None


@pytest.fixture(scope="module")
def compiled_for(tmp_path_factory):
    """For each runnable target: the outputs of every kernel compiled for it."""
    results = {}
    for target in TARGETS:
        if _runnable(target) is not None:
            continue
        directory = tmp_path_factory.mktemp(f"numba-{target}")
        env = {
            **os.environ,
            "NUMBA_CPU_NAME": target,
            "NUMBA_CPU_FEATURES": "",
            "NUMBA_CACHE_DIR": str(directory),
        }
        outputs = directory / "outputs.npz"
        subprocess.run(
            [sys.executable, "-c", _COMPILED_FOR, str(outputs), str(N)],
            env=env,
            capture_output=True,
            timeout=600,
            check=True,
        )
        results[target] = dict(np.load(outputs))
    return results


def _returning(values):
    """A stand-in for a kernel: the values it gave (``measure`` then compares them)."""
    return lambda *args, **kwargs: values


@pytest.mark.parametrize("target", list(TARGETS))
def test_kernels_compiled_for_other_cpus_meet_their_stated_accuracy(target, compiled_for):
    reason = _runnable(target)
    if reason is not None:
        pytest.skip(reason)
    outputs = compiled_for[target]
    assert set(outputs) == {f"{n}-{d.__name__}" for n, d in CASES}
    for name, dtype in CASES:
        got = measure(name, dtype, N, f=_returning(outputs[f"{name}-{dtype.__name__}"]))
        stated = ACCURACY[name][dtype]
        assert got.max_relative <= stated.max_relative, (target, name, dtype, got)
        assert got.max_ulps <= stated.max_ulps, (target, name, dtype, got)


def test_kernels_here_match_a_measured_target_bit_for_bit(compiled_for):
    """The premise of measuring two targets: results depend on FMA alone, not on the CPU.

    The kernels compiled here (for this CPU, or the one ``NUMBA_CPU_NAME`` names) must give,
    for every function, the results of one of the measured targets, the same one for all.
    """
    if not compiled_for:
        pytest.skip(_runnable("x86-64"))
    here = {
        f"{name}-{dtype.__name__}": functions.KERNEL_FUNCTIONS[name](
            *sample(name, dtype, N), **axis_keywords(name)
        )
        for name, dtype in CASES
    }
    matching = [
        target
        for target, outputs in compiled_for.items()
        if all(np.array_equal(here[k], outputs[k], equal_nan=True) for k in here)
    ]
    differing = {
        target: sorted(k for k in here if not np.array_equal(here[k], outputs[k], equal_nan=True))
        for target, outputs in compiled_for.items()
    }
    assert matching, f"the kernels here match no measured target bit for bit: {differing}"


def test_every_float32_between_two_floats_is_enumerated():
    from chainrules.fastmath.accuracy import _floats_between

    def every(lo, hi):
        chunks = _floats_between(np.float32(lo), np.float32(hi), chunk=1000)
        return np.concatenate(list(chunks))

    x = every(1.0, 1.001)
    step = np.spacing(np.float32(1.0))
    assert x[0] == 1.0 and x[-1] == np.float32(1.001) and np.all(np.diff(x) == step)
    y = every(-1.001, -1.0)
    np.testing.assert_array_equal(np.sort(y), -x[::-1])
    tiny = every(-3e-45, 3e-45)  # subnormals and both zeros
    assert sorted(set(tiny.tolist())) == [
        -2.802596928649634e-45,
        -1.401298464324817e-45,
        0.0,
        1.401298464324817e-45,
        2.802596928649634e-45,
    ]


# The float32 bounds hold on every float32 of the domain, with FMA and without
# (measure_every_float32, recorded in docs/fastmath.md); here they are checked on the 2**20
# floats around the worst input found there (2**12 where numba is absent and the kernels run
# as Python loops).
HALF_WINDOW = 2**19 if COMPILED else 2**11
WORST_FLOAT32 = {
    "exp": 81.44722747802734,
    "exp2": -0.49792784452438354,
    "expm1": 0.34702810645103455,
    "log": 1.132228970527649,
    "log2": 1.0901316404342651,
    "log1p": 0.1322290003299713,
    "sqrt": 4.701977123029457e-38,
    "rsqrt": 3.8382945604098495e-06,
    "tanh": -0.060610003769397736,
    "sigmoid": -16.635704040527344,
    "softplus": -2.0232200622558594,
    "gelu": -7.995390892028809,
    "erf": -0.992591917514801,
}


@pytest.mark.parametrize("name", list(WORST_FLOAT32))
def test_float32_bound_holds_on_every_float_near_the_worst_input(name):
    from chainrules.fastmath.accuracy import measure_every_float32

    at = np.float32(WORST_FLOAT32[name])
    bits = int(at.view(np.int32))
    ends = [bits - HALF_WINDOW, bits + HALF_WINDOW]
    ends = sorted(np.array(ends, np.int32).view(np.float32).tolist())
    lo, hi = max(ends[0], DOMAINS[name][0]), min(ends[1], DOMAINS[name][1])
    got = measure_every_float32(name, lo, hi)
    stated = ACCURACY[name][np.float32]
    assert got.max_relative <= stated.max_relative and got.max_ulps <= stated.max_ulps
