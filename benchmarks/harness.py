"""Cost of checking a rule: ``test_rrule`` against a full Jacobian and against torch's gradcheck.

For ``np.matmul`` with two 300x300 inputs and ``np.sin`` with 10^5 elements (float64), one
run measures wall time (best of five, one thread) and the number of calls of ``f`` for:

* ``test_rrule`` with its default dot-product check (one directional derivative per
  argument, by numdifftools);
* ``torch.autograd.gradcheck(fast_mode=True)`` on the same function and sizes, the named peer;
* ``test_rrule(full_jacobian=True)`` and ``gradcheck(fast_mode=False)`` at sizes where a full
  Jacobian is feasible (8x8 matrices, 200 elements), with the default check at that size too.

Every row states its ratio against the gradcheck mode it compares with, measured in the same
run. Needs the ``torch`` extra (``torch==2.13.0``).

    python benchmarks/harness.py
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
import torch
from chainrules_testing import test_rrule

import chainrules as cr

# The counter lives in a module global: a counting closure or object would be a structure
# that the harness walks, copies and checks for mutation like any other primal.
CALLS = {"f": 0}
TARGET: dict[str, Callable] = {}


def counted(*args: Any) -> Any:
    CALLS["f"] += 1
    return TARGET["f"](*args)


REPEATS = 5


def best_of(run: Callable[[], None], f: Callable) -> tuple[float, int]:
    """The best wall time of ``REPEATS`` runs, and the calls of ``f`` in one run."""
    times = []
    for _ in range(REPEATS):
        TARGET["f"], CALLS["f"] = f, 0
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times), CALLS["f"]


def time_harness(f: Callable, args: tuple, **options: Any) -> tuple[float, int]:
    def registered_rule(_: Any, *a: Any, **k: Any) -> Any:
        return cr.rrule(f, *a, **k)

    return best_of(
        lambda: test_rrule(counted, *args, rrule_f=registered_rule, seed=0, **options), f
    )


def time_gradcheck(f: Callable, args: tuple, fast_mode: bool) -> tuple[float, int]:
    inputs = tuple(torch.tensor(a, dtype=torch.float64, requires_grad=True) for a in args)

    def run() -> None:
        assert torch.autograd.gradcheck(counted, inputs, fast_mode=fast_mode)

    return best_of(run, f)


def main() -> None:
    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    cases = [
        ("np.matmul 300x300", np.matmul, torch.matmul, (300, 300), (8, 8), 2),
        ("np.sin 10^5", np.sin, torch.sin, (100_000,), (200,), 1),
    ]
    rows = []
    for name, f, torch_f, big, small, arity in cases:
        large = tuple(rng.standard_normal(big) for _ in range(arity))
        little = tuple(rng.standard_normal(small) for _ in range(arity))
        peer_fast = time_gradcheck(torch_f, large, fast_mode=True)
        ours = time_harness(f, large)
        peer_full = time_gradcheck(torch_f, little, fast_mode=False)
        ours_full = time_harness(f, little, full_jacobian=True)
        ours_small = time_harness(f, little)
        at = f"{name} at {' x '.join(str(s) for s in small)}"
        rows += [
            (name, "test_rrule (dot product)", ours, "gradcheck fast", peer_fast),
            (name, "gradcheck fast_mode=True", peer_fast, "gradcheck fast", peer_fast),
            (at, "test_rrule full_jacobian", ours_full, "gradcheck full", peer_full),
            (at, "test_rrule (dot product)", ours_small, "gradcheck full", peer_full),
            (at, "gradcheck fast_mode=False", peer_full, "gradcheck full", peer_full),
        ]
    print("| function | check | wall time (s) | calls of f | time ratio | calls ratio | against |")
    print("|---|---|---:|---:|---:|---:|---|")
    for name, check, (seconds, calls), peer, (peer_seconds, peer_calls) in rows:
        print(
            f"| {name} | {check} | {seconds:.3f} | {calls} | {seconds / peer_seconds:.2f} | "
            f"{calls / peer_calls:.2f} | {peer} |"
        )


if __name__ == "__main__":
    main()
