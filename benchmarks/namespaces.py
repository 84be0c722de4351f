"""Cost of ``chainrules.scipy.special`` and ``.linalg`` against SciPy, PyTorch and JAX themselves.

In one run, float64, best of 9 rounds in which the functions take turns (27 for NumPy):

* NumPy: the namespace's function against the SciPy function it routes to, on the same
  arguments (``gammaln``, ``betainc`` and ``expm``), at size 1 (a Python float and a
  1-element array) and 10^4 (``expm``: n = 8); the overhead is the difference of the two
  best times, per call;
* PyTorch (one thread): forward and backward (``torch.autograd.grad`` of the sum) of
  ``special.gammaln`` against ``torch.lgamma`` at 1 and 10^4 elements, and of ``linalg.expm``
  against ``torch.linalg.matrix_exp`` at n = 64;
* JAX (x64 on): ``jax.jit(jax.grad(...))`` of the sum of ``special.gammaln`` against
  ``jax.scipy.special.gammaln``, at 1 and 10^4 elements.

Where the time goes: each framework row gives the time of ``rrule`` and its pullback on the
arguments' NumPy values, timed alone in the same run (SciPy's value and derivative: the
rule's own cost), and the rest: the routing, the framework's custom function, the copies to
NumPy and back, and in JAX the host callbacks. A library that is not installed is left out.

    python benchmarks/namespaces.py
"""

from __future__ import annotations

import os

# One thread for every library, set before NumPy loads its BLAS: a shared machine's load then
# moves both sides of a ratio alike.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import importlib.metadata  # noqa: E402
import importlib.util  # noqa: E402
import timeit  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402
import scipy.linalg as sl  # noqa: E402
import scipy.special as sc  # noqa: E402

import chainrules as cr  # noqa: E402
from chainrules.scipy import linalg, special  # noqa: E402

SIZES = (1, 10**4)
EXPM_NUMPY_N = 8
EXPM_TORCH_N = 64
ROUNDS = 9


def best_times(fns: Sequence[Callable[[], Any]], number: int, rounds: int = ROUNDS) -> list[float]:
    """Best time per call of each function, the functions taking turns in every round.

    The order alternates from round to round, so that no function always runs first or last.
    """
    for fn in fns:
        fn()  # warm: caches, lazy imports, compilation
    best = [float("inf")] * len(fns)
    order = list(range(len(fns)))
    for _ in range(rounds):
        for i in order:
            best[i] = min(best[i], timeit.timeit(fns[i], number=number) / number)
        order.reverse()
    return best


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
        base, mine = best_times(
            [lambda peer=peer, args=args: peer(*args), lambda ours=ours, args=args: ours(*args)],
            number,
            rounds=3 * ROUNDS,  # a difference of tenths of a microsecond: more rounds
        )
        rows.append((name, label, base, mine))
    return rows


def torch_rows() -> list[tuple]:
    """(case, size, peer time, namespace time, rule-on-NumPy time), PyTorch."""
    import torch

    torch.set_num_threads(1)
    rows = []
    for size in SIZES:
        x = torch.linspace(0.5, 4.0, size, dtype=torch.float64, requires_grad=True)
        pieces = best_times(
            [
                lambda x=x: torch.autograd.grad(torch.lgamma(x).sum(), x),
                lambda x=x: torch.autograd.grad(special.gammaln(x).sum(), x),
                _rule_on_numpy(sc.gammaln, (x.detach().numpy(),)),
            ],
            2000 if size == 1 else 200,
        )
        rows.append(("gammaln against torch.lgamma", f"{size:,}", *pieces))
    n = EXPM_TORCH_N
    a = torch.randn(n, n, dtype=torch.float64, generator=torch.Generator().manual_seed(0)) / n
    a.requires_grad_()
    pieces = best_times(
        [
            lambda: torch.autograd.grad(torch.linalg.matrix_exp(a).sum(), a),
            lambda: torch.autograd.grad(linalg.expm(a).sum(), a),
            _rule_on_numpy(sl.expm, (a.detach().numpy(),)),
        ],
        50,
    )
    rows.append(("expm against torch.linalg.matrix_exp", f"{n} x {n}", *pieces))
    return rows


def jax_rows() -> list[tuple]:
    """(case, size, peer time, namespace time, rule-on-NumPy time), JAX ``jit(grad)``."""
    import jax
    import jax.numpy as jnp
    import jax.scipy.special as jsp

    jax.config.update("jax_enable_x64", True)
    rows = []
    for size in SIZES:
        x = jnp.linspace(0.5, 4.0, size)
        ours = jax.jit(jax.grad(lambda x: special.gammaln(x).sum()))
        peer = jax.jit(jax.grad(lambda x: jsp.gammaln(x).sum()))
        pieces = best_times(
            [
                lambda f=peer, x=x: f(x).block_until_ready(),
                lambda f=ours, x=x: f(x).block_until_ready(),
                _rule_on_numpy(sc.gammaln, (np.asarray(x),)),
            ],
            2000 if size == 1 else 200,
        )
        rows.append(("gammaln against jax.scipy.special.gammaln", f"{size:,}", *pieces))
    return rows


def _rule_on_numpy(f: Callable, args: tuple) -> Callable[[], Any]:
    """``rrule`` and the pullback of a ones cotangent, on NumPy values: the rule's own cost."""

    def rule_and_pullback() -> Any:
        y, pullback = cr.rrule(f, *args)
        return pullback(np.ones_like(y))

    return rule_and_pullback


def _us(t: float) -> str:
    return f"{t * 1e6:,.2f} us" if t < 1e-4 else f"{t * 1e6:,.1f} us"


def versions() -> str:
    """The versions of the libraries measured, those installed."""
    names = ("numpy", "scipy", "torch", "jax")
    found = [n for n in names if importlib.util.find_spec(n)]
    return ", ".join(f"{n} {importlib.metadata.version(n)}" for n in found)


def main() -> None:
    print(f"{versions()}; one BLAS and PyTorch thread; best of {ROUNDS} rounds taking turns")
    print()
    print("NumPy values: the namespace against SciPy itself")
    print("| function | input | SciPy | namespace | overhead per call | ratio |")
    print("|---|---|---|---|---|---|")
    for name, kind, base, mine in numpy_rows():
        print(
            f"| {name} | {kind} | {_us(base)} | {_us(mine)} | {(mine - base) * 1e6:.3f} us "
            f"| {mine / base:.3f} |"
        )
    framework_rows = []
    if importlib.util.find_spec("torch"):
        framework_rows += [("PyTorch forward + backward", *row) for row in torch_rows()]
    if importlib.util.find_spec("jax"):
        framework_rows += [("JAX jit(grad)", *row) for row in jax_rows()]
    if not framework_rows:
        return
    print()
    print("| engine | case | size | peer | namespace | ratio | rule on NumPy | the rest |")
    print("|---|---|---|---|---|---|---|---|")
    for engine, case, size, peer, ours, rule in framework_rows:
        print(
            f"| {engine} | {case} | {size} | {_us(peer)} | {_us(ours)} | {ours / peer:.2f} "
            f"| {_us(rule)} | {_us(ours - rule)} |"
        )


if __name__ == "__main__":
    main()
