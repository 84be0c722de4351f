"""Cost of checking a rule: ``test_rrule`` against torch's fast gradcheck and JAX's check_grads.

For ``np.sin`` (10^4 elements), ``np.matmul`` (two 300x300 matrices), ``np.linalg.solve``
(a 50x50 matrix and a vector) and ``scipy.special.gammaln`` (10^4 elements), all float64,
one run measures wall time (best of five, one thread) and counts the calls of ``f`` for:

* ``test_rrule``'s first-order check as it is by default: a cheap sixth-order stencil that
  settles the check when it agrees with the rule and is certain, numdifftools otherwise;
* the same check with numdifftools' adaptive estimate alone (passed as ``fdm=``), which is
  what the default did before the cheap estimate;
* ``torch.autograd.gradcheck(fast_mode=True)`` and
  ``jax.test_util.check_grads(order=1, modes=["rev"])`` on the same function and inputs, the
  named peers;
* ``test_rrule`` with its default second-order check as well (time only: that check calls
  the rule, not ``f``).

Each row states its time and calls ratios against gradcheck's fast mode, measured in the
same run. Needs the ``torch`` and ``jax`` extras.

    python benchmarks/harness.py
"""

from __future__ import annotations

import os

# One thread for NumPy's BLAS and for XLA, set before either is imported.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false")

import time
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import jax.scipy.special as jsp
import numpy as np
import scipy.special
import torch
from chainrules_testing import test_rrule
from chainrules_testing.finite_differences import directional_derivative
from jax.test_util import check_grads

import chainrules as cr

jax.config.update("jax_enable_x64", True)

# The counter lives in a module global: a counting closure or object would be a structure
# that the harness walks, copies and checks for mutation like any other primal.
CALLS = {"f": 0}
TARGET: dict[str, Callable] = {}
REPEATS = 5


def counted(*args: Any) -> Any:
    CALLS["f"] += 1
    return TARGET["f"](*args)


def best_of(run: Callable[[], None], f: Callable) -> tuple[float, int]:
    """The best wall time of ``REPEATS`` runs, and the calls of ``f`` in one run."""
    times = []
    for _ in range(REPEATS):
        TARGET["f"], CALLS["f"] = f, 0
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times), CALLS["f"]


def adaptive(g: Callable[[float], Any], t0: float) -> Any:
    """numdifftools' adaptive estimate alone, as an ``fdm=`` method (its error as ``acc``)."""
    estimate = directional_derivative(lambda t: g(t0 + t))
    adaptive.acc = estimate.error  # type: ignore[attr-defined]
    return estimate.value


def time_harness(f: Callable, args: tuple, **options: Any) -> tuple[float, int]:
    def registered_rule(_: Any, *a: Any, **k: Any) -> Any:
        return cr.rrule(f, *a, **k)

    def run() -> None:
        test_rrule(counted, *args, rrule_f=registered_rule, seed=0, **options)

    return best_of(run, f)


def time_gradcheck(f: Callable, args: tuple) -> tuple[float, int]:
    inputs = tuple(torch.tensor(a, dtype=torch.float64, requires_grad=True) for a in args)

    def run() -> None:
        assert torch.autograd.gradcheck(counted, inputs, fast_mode=True)

    return best_of(run, f)


def time_check_grads(f: Callable, args: tuple) -> tuple[float, int]:
    inputs = tuple(jnp.asarray(a) for a in args)
    return best_of(lambda: check_grads(counted, inputs, order=1, modes=["rev"]), f)


def cases(rng: np.random.Generator) -> list[tuple]:
    """(name, NumPy/SciPy function, torch's, JAX's, arguments)."""
    square = rng.standard_normal((50, 50)) + 10 * np.eye(50)  # well conditioned
    return [
        ("np.sin 10^4", np.sin, torch.sin, jnp.sin, (rng.standard_normal(10_000),)),
        (
            "np.matmul 300x300",
            np.matmul,
            torch.matmul,
            jnp.matmul,
            (rng.standard_normal((300, 300)), rng.standard_normal((300, 300))),
        ),
        (
            "np.linalg.solve 50x50",
            np.linalg.solve,
            torch.linalg.solve,
            jnp.linalg.solve,
            (square, rng.standard_normal(50)),
        ),
        (
            "scipy.special.gammaln 10^4",
            scipy.special.gammaln,
            torch.special.gammaln,
            jsp.gammaln,
            (rng.uniform(0.5, 5.0, 10_000),),
        ),
    ]


def main() -> None:
    torch.set_num_threads(1)
    rows = []
    for name, f, torch_f, jax_f, args in cases(np.random.default_rng(0)):
        peer = time_gradcheck(torch_f, args)
        measured = [
            ("test_rrule first order", time_harness(f, args, check_second_order=False)),
            (
                "test_rrule first order, numdifftools alone",
                time_harness(f, args, check_second_order=False, fdm=adaptive),
            ),
            ("gradcheck fast_mode=True", peer),
            ('check_grads(order=1, modes=["rev"])', time_check_grads(jax_f, args)),
            ("test_rrule with second order", time_harness(f, args)),
        ]
        rows += [(name, len(args), check, result, peer) for check, result in measured]
    print(
        "| function | check | wall time (s) | calls of f | per argument | time ratio | "
        "calls ratio |"
    )
    print("|---|---|---:|---:|---:|---:|---:|")
    for name, arity, check, (seconds, calls), (peer_seconds, peer_calls) in rows:
        print(
            f"| {name} | {check} | {seconds:.4f} | {calls} | {calls / arity:.1f} | "
            f"{seconds / peer_seconds:.2f} | {calls / peer_calls:.2f} |"
        )


if __name__ == "__main__":
    main()
