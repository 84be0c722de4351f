"""Overhead of a wrapped function against the engine's own op, in PyTorch and in JAX.

For ``np.sin`` at 10 and 10^6 float64 elements, in one run, best of several repeats:

* PyTorch: forward and backward of ``torch.sin(x).sum()`` against ``wrap(np.sin)(x).sum()``;
* JAX: ``jax.jit(jax.grad(lambda x: jnp.sin(x).sum()))`` against the same with
  ``wrap(np.sin)`` (a host callback under ``jit``), and both without ``jit``.

A library that is not installed is left out of the table.

    python benchmarks/adapters.py
"""

from __future__ import annotations

import importlib.util

import numpy as np
from timing import best_time

SIZES = (10, 10**6)


def number_for(n: int) -> int:
    return 200 if n <= 10_000 else 5


def torch_rows() -> list[tuple]:
    import torch

    from chainrules.adapters import torch as cr_torch

    torch.set_num_threads(1)
    wrapped = cr_torch.wrap(np.sin)
    rows = []
    for n in SIZES:
        x = torch.linspace(0.0, 1.0, n, dtype=torch.float64, requires_grad=True)

        def native(x=x):
            torch.autograd.grad(torch.sin(x).sum(), x)

        def ours(x=x):
            torch.autograd.grad(wrapped(x).sum(), x)

        base = best_time(native, number_for(n), repeat=5, warm=True)
        rule = best_time(ours, number_for(n), repeat=5, warm=True)
        rows.append(("PyTorch forward + backward", "torch.sin", n, base, rule))
    return rows


def jax_rows() -> list[tuple]:
    import jax
    import jax.numpy as jnp

    from chainrules.adapters import jax as cr_jax

    jax.config.update("jax_enable_x64", True)
    wrapped = cr_jax.wrap(np.sin)
    rows = []
    for n in SIZES:
        x = jnp.linspace(0.0, 1.0, n)
        for label, transform in (("JAX jit(grad)", jax.jit), ("JAX grad, eager", lambda f: f)):
            native = transform(jax.grad(lambda x: jnp.sin(x).sum()))
            ours = transform(jax.grad(lambda x: wrapped(x).sum()))
            base = best_time(
                lambda f=native, x=x: f(x).block_until_ready(), number_for(n), repeat=5, warm=True
            )
            rule = best_time(
                lambda f=ours, x=x: f(x).block_until_ready(), number_for(n), repeat=5, warm=True
            )
            rows.append((label, "jnp.sin", n, base, rule))
    return rows


def main() -> None:
    rows = []
    if importlib.util.find_spec("torch"):
        rows += torch_rows()
    if importlib.util.find_spec("jax"):
        rows += jax_rows()
    print("| engine | peer | elements | peer time | wrap(np.sin) time | ratio |")
    print("|---|---|---|---|---|---|")
    for label, peer, n, base, rule in rows:
        print(
            f"| {label} | {peer} | {n:,} | {base * 1e6:.1f} us | {rule * 1e6:.1f} us "
            f"| {rule / base:.2f} |"
        )


if __name__ == "__main__":
    main()
