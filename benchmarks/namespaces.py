"""Cost of ``chainrules.scipy.special`` and ``.linalg`` on NumPy values, against SciPy itself.

In one run, float64, best of 27 rounds in which the functions take turns: the namespace's
function against the SciPy function it routes to, on the same arguments (``gammaln``,
``betainc`` and ``expm``), at size 1 (a Python float and a 1-element array) and 10^4
(``expm``: n = 8); the overhead is the difference of the two best times, per call. The same
functions on PyTorch's, JAX's and autograd's values are measured by ``benchmarks/adapters.py``.

    python benchmarks/namespaces.py
"""

from __future__ import annotations

import os

# One thread for every library, set before NumPy loads its BLAS: a shared machine's load then
# moves both sides of a ratio alike.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

from typing import Any  # noqa: E402

import numpy as np  # noqa: E402
import scipy.linalg as sl  # noqa: E402
import scipy.special as sc  # noqa: E402
from timing import best_times_taking_turns, library_versions  # noqa: E402

from chainrules.scipy import linalg, special  # noqa: E402

SIZES = (1, 10**4)
EXPM_NUMPY_N = 8
ROUNDS = 27  # a difference of tenths of a microsecond: many rounds


def numpy_rows() -> list[tuple]:
    """(function, input, SciPy time, namespace time) on NumPy values."""
    rng = np.random.default_rng(0)
    inputs: list[tuple[str, Any]] = [("Python float", 2.5)]
    inputs += [(f"{n:,}-element array", rng.uniform(0.5, 4.0, n)) for n in SIZES]
    a = rng.standard_normal((EXPM_NUMPY_N, EXPM_NUMPY_N)) / EXPM_NUMPY_N
    cases = []
    for label, x in inputs:
        number = 100_000 if np.size(x) == 1 else 200
        cases.append(("gammaln", sc.gammaln, special.gammaln, (x,), label, number))
        cases.append(("betainc", sc.betainc, special.betainc, (x, 2.0, 0.3), label, number))
    n = EXPM_NUMPY_N
    cases.append(("expm", sl.expm, linalg.expm, (a,), f"{n} x {n}", 2000))
    rows = []
    for name, peer, ours, args, label, number in cases:
        base, mine = best_times_taking_turns(
            [lambda peer=peer, args=args: peer(*args), lambda ours=ours, args=args: ours(*args)],
            number,
            rounds=ROUNDS,
        )
        rows.append((name, label, base, mine))
    return rows


def _us(t: float) -> str:
    return f"{t * 1e6:,.2f} us" if t < 1e-4 else f"{t * 1e6:,.1f} us"


def main() -> None:
    versions = library_versions("numpy", "scipy")
    print(f"{versions}; one BLAS thread; best of {ROUNDS} rounds taking turns")
    print()
    print("NumPy values: the namespace against SciPy itself")
    print("| function | input | SciPy | namespace | overhead per call | ratio |")
    print("|---|---|---|---|---|---|")
    for name, kind, base, mine in numpy_rows():
        print(
            f"| {name} | {kind} | {_us(base)} | {_us(mine)} | {(mine - base) * 1e6:.3f} us "
            f"| {mine / base:.3f} |"
        )


if __name__ == "__main__":
    main()
