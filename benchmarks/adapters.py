"""Per-call cost of the adapters: a function with rules against the framework's own op.

In one run, float64, each case's functions taking turns over several rounds (the best CPU
time of the process per call, which a shared machine's load moves less than the wall clock),
one thread for BLAS, PyTorch and XLA, against the op of the same framework:

* PyTorch 2.13: ``cr_torch.wrap(f)`` and the routed ``chainrules.scipy`` function for ``sin``
  (``np.sin``: its rule runs on the tensors), ``lgamma`` (``scipy.special.gammaln``: on NumPy
  copies), ``matrix_exp`` (``scipy.linalg.expm``, n = 64) and ``inv`` (``np.linalg.inv``,
  n = 4: its rule runs on the tensors), forward (the graph recorded) and forward + backward
  (``torch.autograd.grad`` of the sum);
* JAX with x64 on, under ``jit``: ``jit(f)``, ``jit(grad(sum of f))`` (where ``jit`` drops
  the value) and ``jit(value_and_grad(sum of f))`` for ``gammaln`` (a host callback) and
  ``sin`` (traced natively);
* autograd: ``make_vjp`` (the forward, recorded) and ``grad`` of the sum for ``sin`` and
  ``gammaln``; autograd has no matrix exponential.

Elementwise functions at 1 and 10^6 elements. Each row gives the peer's time, the wrapped
function's, their ratio and difference (the overhead per call); where the rule runs on NumPy,
beside the last mode, the time of ``rrule`` and its pullback on the NumPy values alone: the
rule's own cost within the wrapped function's. A library that is not installed is left out.
JAX's rows are timed by the wall clock: XLA runs a compiled program on threads of its own, and
the process's CPU time counts their waiting as well (at 10^6 elements, 1.2 to 2x the wall time
of JAX's own ``sin`` and ``gammaln``), which the host callback of a wrapped function does not.

    python benchmarks/adapters.py            # every library installed
    python benchmarks/adapters.py torch      # only these of torch, jax, autograd
"""

from __future__ import annotations

import os

# One thread for every library, set before NumPy loads its BLAS and JAX its XLA: the CPU time
# of the process is then the time a call takes on an idle core.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")
os.environ.setdefault(
    "XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
)

import importlib.util  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402
import scipy.linalg as sl  # noqa: E402
import scipy.special as sc  # noqa: E402
from timing import best_times_taking_turns, library_versions  # noqa: E402

import chainrules as cr  # noqa: E402
from chainrules.scipy import linalg, special  # noqa: E402

SIZES = (1, 10**6)
MATRIX_N = 64
ROUNDS = 9

# A row: (engine, function, size, mode, peer time, wrap time, namespace time, rule time)
Row = tuple[str, str, str, str, float, float, float | None, float | None]


def _number(size: int) -> int:
    """Calls per timing: enough for a millisecond or more at size 1, one at 10^6."""
    return 300 if size == 1 else 1


def _case_rows(
    engine: str,
    name: str,
    size: str,
    fns: tuple,
    modes: tuple[tuple[str, Callable], ...],
    number: int,
    rule: Any = None,
    timer: Callable[[], float] = time.process_time,
) -> list[Row]:
    """One row per mode: the peer, the wrapped function and (when given) the namespace's,
    ``modes[k][1](g)`` being the call timed for function ``g``; the rule on NumPy beside the
    last mode."""
    rows = []
    for k, (mode, timed) in enumerate(modes):
        last = k == len(modes) - 1
        calls = [timed(g) for g in fns if g is not None]
        extra = [rule] if last and rule is not None else []
        times = iter(best_times_taking_turns(calls + extra, number, ROUNDS, timer))
        peer, wrapped = next(times), next(times)
        namespace = next(times) if fns[2] is not None else None
        rule_time = next(times) if extra else None
        rows.append((engine, name, size, mode, peer, wrapped, namespace, rule_time))
    return rows


def _rule_on_numpy(f: Callable, x: np.ndarray) -> Callable[[], Any]:
    """``rrule`` and the pullback of a ones cotangent, on NumPy values: the rule's own cost."""

    def rule_and_pullback() -> Any:
        y, pullback = cr.rrule(f, x)
        return pullback(np.ones_like(y))

    return rule_and_pullback


def torch_rows() -> list[Row]:
    import torch

    from chainrules.adapters import torch as cr_torch

    torch.set_num_threads(1)
    cases: list[tuple] = [
        ("sin", torch.sin, np.sin, None, SIZES),
        ("lgamma", torch.lgamma, sc.gammaln, special.gammaln, SIZES),
        ("matrix_exp", torch.linalg.matrix_exp, sl.expm, linalg.expm, (MATRIX_N,)),
        # a rule that runs on the tensors and multiplies matrices in its pullback
        ("inv", torch.linalg.inv, np.linalg.inv, None, (4,)),
    ]
    rows = []
    for name, peer, f, routed, sizes in cases:
        for size in sizes:
            if name in ("matrix_exp", "inv"):
                gen = torch.Generator().manual_seed(0)
                x = torch.randn(size, size, dtype=torch.float64, generator=gen) / size
                if name == "inv":
                    x += torch.eye(size, dtype=torch.float64)  # well away from singular
                label, number = f"{size} x {size}", 20 if size == MATRIX_N else 300
            else:
                x = torch.linspace(0.5, 4.0, size, dtype=torch.float64)
                label, number = f"{size:,}", _number(size)
            x.requires_grad_()
            modes = (
                ("forward", lambda g, x=x: lambda: g(x)),
                ("forward + backward", lambda g, x=x: lambda: torch.autograd.grad(g(x).sum(), x)),
            )
            on_tensors = name in ("sin", "inv")  # the rule's own cost is in the wrapped time
            rule = None if on_tensors else _rule_on_numpy(f, x.detach().numpy())
            fns = (peer, cr_torch.wrap(f), routed)
            rows += _case_rows("PyTorch", name, label, fns, modes, number, rule)
    return rows


def jax_rows() -> list[Row]:
    import jax
    import jax.numpy as jnp
    import jax.scipy.special as jsp

    from chainrules.adapters import jax as cr_jax

    jax.config.update("jax_enable_x64", True)
    cases = [("gammaln", jsp.gammaln, sc.gammaln, special.gammaln), ("sin", jnp.sin, np.sin, None)]
    rows = []
    for name, peer, f, routed in cases:
        for size in SIZES:
            x = jnp.linspace(0.5, 4.0, size)

            def jitted(g: Callable, x: Any = x) -> Callable[[], Any]:
                compiled = jax.jit(g)
                return lambda: compiled(x).block_until_ready()

            def gradient(g: Callable, x: Any = x) -> Callable[[], Any]:
                compiled = jax.jit(jax.grad(lambda v: g(v).sum()))
                return lambda: compiled(x).block_until_ready()

            def value_and_gradient(g: Callable, x: Any = x) -> Callable[[], Any]:
                compiled = jax.jit(jax.value_and_grad(lambda v: g(v).sum()))
                return lambda: compiled(x)[1].block_until_ready()

            modes = (
                ("forward", jitted),
                ("gradient", gradient),
                ("value and gradient", value_and_gradient),
            )
            rule = None if name == "sin" else _rule_on_numpy(f, np.asarray(x))
            fns = (peer, cr_jax.wrap(f), routed)
            rows += _case_rows(
                "JAX jit", name, f"{size:,}", fns, modes, _number(size), rule, time.perf_counter
            )
    return rows


def autograd_rows() -> list[Row]:
    import autograd
    import autograd.numpy as anp
    import autograd.scipy.special as asp

    from chainrules.adapters import autograd as cr_autograd

    cases = [("sin", anp.sin, np.sin, None), ("gammaln", asp.gammaln, sc.gammaln, special.gammaln)]
    rows = []
    for name, peer, f, routed in cases:
        for size in SIZES:
            x = np.linspace(0.5, 4.0, size)
            modes = (
                ("forward", lambda g, x=x: lambda: autograd.make_vjp(lambda v: g(v).sum())(x)),
                (
                    "forward + backward",
                    lambda g, x=x: lambda: autograd.grad(lambda v: g(v).sum())(x),
                ),
            )
            rule = None if name == "sin" else _rule_on_numpy(f, x)
            fns = (peer, cr_autograd.wrap(f), routed)
            rows += _case_rows("autograd", name, f"{size:,}", fns, modes, _number(size), rule)
    return rows


def _us(t: float | None) -> str:
    if t is None:
        return "-"
    return f"{t * 1e6:,.1f} us" if t < 1e-2 else f"{t * 1e3:,.2f} ms"


def main(only: list[str]) -> None:
    versions = library_versions("numpy", "scipy", "torch", "jax", "autograd")
    print(f"{versions}; one thread; CPU time (JAX: wall clock), best of {ROUNDS} rounds in turns")
    rows: list[Row] = []
    for library, make in (("torch", torch_rows), ("jax", jax_rows), ("autograd", autograd_rows)):
        if importlib.util.find_spec(library) and (not only or library in only):
            rows += make()
    print()
    print(
        "| engine | function | size | mode | peer | wrap(f) | ratio | overhead "
        "| namespace | ratio | rule on NumPy |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for engine, name, size, mode, peer, wrapped, routed, rule in rows:
        routed_ratio = "-" if routed is None else f"{routed / peer:.2f}"
        print(
            f"| {engine} | {name} | {size} | {mode} | {_us(peer)} | {_us(wrapped)} "
            f"| {wrapped / peer:.2f} | {_us(wrapped - peer)} | {_us(routed)} | {routed_ratio} "
            f"| {_us(rule)} |"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
