"""Parameter derivatives of ``hyp2f1`` and ``hyp1f1``: time and accuracy against JAX's.

JAX differentiates its own ``hyp2f1`` in ``a``, ``b``, ``c`` and ``hyp1f1``; this compares,
in the same run, the gradient in ``a`` over 100 arguments (``hyp2f1(0.5, 1, 1.5, z)`` for ``z``
from -5 to 0.999 in three groups, ``hyp1f1(0.7, 2.2, x)`` for ``x`` from -20 to 20): the time of
``rrule(...)`` and its thunked cotangent against ``jax.grad`` (jit-compiled, vmapped, 64-bit,
compiled before timing), best of 5, and the worst relative error of each against mpmath's
numerical derivative at 30 digits.

    python benchmarks/parameter_derivatives.py
"""

from __future__ import annotations

import timeit

import mpmath
import numpy as np
import scipy.special as sc

import chainrules as cr

CASES = {
    "hyp2f1, z in [-5, 0)": ("hyp2f1", np.linspace(-5.0, -0.05, 100)),
    "hyp2f1, z in [0.01, 1/2]": ("hyp2f1", np.linspace(0.01, 0.5, 100)),
    "hyp2f1, z in (1/2, 0.999]": ("hyp2f1", np.linspace(0.51, 0.999, 100)),
    "hyp1f1, x in [-20, 20]": ("hyp1f1", np.linspace(-20.0, 20.0, 100)),
}
PARAMETERS = {"hyp2f1": (0.5, 1.0, 1.5), "hyp1f1": (0.7, 2.2)}


def ours(name: str, z: np.ndarray) -> np.ndarray:
    """d/da through the rule: the cotangent of ``a`` for the cotangent 1 of every output."""
    a, *rest = PARAMETERS[name]
    f = getattr(sc, name)
    values = np.full_like(z, a)
    _, pullback = cr.rrule(f, values, *rest, z)
    return cr.unthunk(pullback(np.ones_like(z))[1])


def jax_gradient(name: str):
    """JAX's d/da, vmapped over the argument and compiled; None without JAX."""
    try:
        import jax
        import jax.scipy.special as jsc
    except ImportError:
        return None
    jax.config.update("jax_enable_x64", True)
    a, *rest = PARAMETERS[name]
    f = getattr(jsc, name)
    grad = jax.vmap(jax.grad(lambda p, z: f(p, *rest, z)), in_axes=(None, 0))
    compiled = jax.jit(grad)
    return lambda z: np.asarray(compiled(a, z))


def exact(name: str, z: np.ndarray) -> np.ndarray:
    a, *rest = PARAMETERS[name]
    twin = getattr(mpmath, name)
    with mpmath.workdps(30):
        return np.array([float(mpmath.diff(lambda p, x=x: twin(p, *rest, x), a)) for x in z])


def worst(found: np.ndarray, reference: np.ndarray) -> float:
    return float(np.max(np.abs(found - reference) / np.abs(reference)))


def best(fn, repeat: int = 5) -> float:
    return min(timeit.repeat(fn, number=1, repeat=repeat))


def main() -> None:
    print("| case | ours | JAX | ours / JAX | ours: worst error | JAX: worst error |")
    print("|---|---|---|---|---|---|")
    for label, (name, z) in CASES.items():
        reference = exact(name, z)
        mine = ours(name, z)
        theirs = jax_gradient(name)
        t_ours = best(lambda name=name, z=z: ours(name, z))
        if theirs is None:
            print(f"| {label} | {t_ours * 1e3:.1f} ms | - | - | {worst(mine, reference):.1e} | - |")
            continue
        jax_values = theirs(z)  # compiles
        t_jax = best(lambda z=z, theirs=theirs: theirs(z))
        print(
            f"| {label} | {t_ours * 1e3:.1f} ms | {t_jax * 1e3:.2f} ms | {t_ours / t_jax:.0f} "
            f"| {worst(mine, reference):.1e} | {worst(jax_values, reference):.1e} |"
        )


if __name__ == "__main__":
    main()
