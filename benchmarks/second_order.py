"""Hessian-vector products through SciPy's matrix functions, against PyTorch in the same run.

``L(A) = sum(W * expm(A))`` (and ``sqrtm`` of a positive definite matrix): the directional
second derivative ``d/dt grad L(A + t V)`` at ``t = 0``, by the reference engines (forward over
reverse: the pullback of ``expm`` calls ``expm`` of a block matrix through
``chainrules.core.calls.call``, and the forward engine differentiates that call with ``expm``'s
rule again), against PyTorch's double backward of ``torch.linalg.matrix_exp`` (PyTorch has no
matrix square root). Both values are checked against each other before timing. Best of five,
one thread each.

    python benchmarks/second_order.py
"""

from __future__ import annotations

import os

for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import numpy as np  # noqa: E402
import scipy.linalg as sla  # noqa: E402
from timing import best_time, torch_on_one_thread  # noqa: E402

from chainrules.engines import call, forward, reverse  # noqa: E402

SIZES = (8, 32, 64)


def hvp(f, a, v):
    """``d/dt grad f(a + t v)`` at 0: forward mode over the reverse engine's gradient."""
    return forward.jvp(reverse.grad(f), (a,), (v,))[1]


def torch_hvp(torch, a, w, v):
    ta = torch.tensor(a, requires_grad=True)
    (g,) = torch.autograd.grad(
        (torch.tensor(w) * torch.linalg.matrix_exp(ta)).sum(), ta, create_graph=True
    )
    (h,) = torch.autograd.grad(g, ta, grad_outputs=torch.tensor(v))
    return h.numpy()


def row(name, loss, point, value, v, peer=None):
    """One table row: the HVP's time over the value's, and the peer's own ratio if given."""
    ours = best_time(lambda: hvp(loss, point, v), repeat=5, warm=True)
    base = best_time(value, repeat=5, warm=True)
    peer_time, peer_ratio = "-", "-"
    if peer is not None:
        peer_hvp, peer_value = peer
        np.testing.assert_allclose(hvp(loss, point, v), peer_hvp(), rtol=1e-8, atol=1e-10)
        t, t_value = best_time(peer_hvp, repeat=5, warm=True), best_time(peer_value, repeat=5)
        peer_time, peer_ratio = f"{t * 1e3:.2f} ms", f"{t / t_value:.1f}"
    n = point.shape[0]
    print(
        f"| {name} n={n} | {base * 1e3:.2f} ms | {ours * 1e3:.2f} ms | {ours / base:.1f} "
        f"| {peer_time} | {peer_ratio} |"
    )


def size(n, rng, torch):
    a = 0.3 * rng.standard_normal((n, n))
    w, v = rng.standard_normal((n, n)), rng.standard_normal((n, n))
    s = rng.standard_normal((n, n))
    spd = s @ s.T / n + np.eye(n)

    def exp_loss(x):
        return np.sum(w * call(sla.expm, x))

    def sqrt_loss(x):
        return np.sum(w * call(sla.sqrtm, x))

    peer = None
    if torch is not None:
        peer = (lambda: torch_hvp(torch, a, w, v), lambda: torch.linalg.matrix_exp(torch.tensor(a)))
    row("expm", exp_loss, a, lambda: sla.expm(a), v, peer)
    row("sqrtm", sqrt_loss, spd, lambda: sla.sqrtm(spd), v)


def main() -> None:
    torch = torch_on_one_thread()
    rng = np.random.default_rng(0)
    print("| case | value | Hessian-vector product | ratio | PyTorch HVP | PyTorch ratio |")
    print("|---|---|---|---|---|---|")
    for n in SIZES:
        size(n, rng, torch)


if __name__ == "__main__":
    main()
