"""Value-and-pullback time over value time for the linear-algebra rules, at n = 200 and 800.

For solve, cholesky, slogdet, inv, eigh, svd and expm: ``y, pullback = rrule(f, a, ...);
pullback(dy)`` against ``f(a, ...)`` alone, with PyTorch's autograd as the peer measured in the
same run (forward with ``requires_grad`` then ``backward``, over its forward alone), when it is
installed. For solve also: the pullback alone against the forward, and against a pullback that
refactorizes (``np.linalg.solve(a.T, dy)``, the obvious way to write it), which the rule
avoids by reusing the forward's LU factors (aim: the pullback under half the forward's time
at n = 800). Best of three repeats, one BLAS thread for both (set before NumPy loads, unless
the environment already says otherwise), so that a shared machine's load does not decide.

    python benchmarks/linalg.py
"""

from __future__ import annotations

import os

for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import numpy as np  # noqa: E402
import scipy.linalg  # noqa: E402
from timing import best_time  # noqa: E402

import chainrules as cr  # noqa: E402

SIZES = (200, 800)


def best_of_three(fn):
    """The best of three timed calls of ``fn``, after one untimed call."""
    return best_time(fn, repeat=3, warm=True)


def problems(n, rng):
    """The inputs of each case: a function, its arguments, keywords, PyTorch's counterpart."""
    a = rng.standard_normal((n, n)) + n**0.5 * np.eye(n)
    s = rng.standard_normal((n, n))
    spd = s @ s.T / n + np.eye(n)
    b = rng.standard_normal(n)
    return [
        ("solve", np.linalg.solve, (a, b), {}, "linalg.solve"),
        ("cholesky", np.linalg.cholesky, (spd,), {}, "linalg.cholesky"),
        ("slogdet", np.linalg.slogdet, (a,), {}, "linalg.slogdet"),
        ("inv", np.linalg.inv, (a,), {}, "linalg.inv"),
        ("eigh", np.linalg.eigh, (spd,), {}, "linalg.eigh"),
        ("svd", np.linalg.svd, (a,), {"full_matrices": False}, "linalg.svd"),
        ("expm", scipy.linalg.expm, (a / n,), {}, "linalg.matrix_exp"),
    ]


def cotangent(y, rng):
    """A random cotangent with the layout of ``y`` (a namedtuple's fields by name)."""
    if isinstance(y, tuple):
        fields = {k: rng.standard_normal(np.shape(v)) for k, v in zip(y._fields, y, strict=True)}
        return cr.Tangent(type(y), **fields)
    return rng.standard_normal(np.shape(y))


def torch_ratio(name, args, kwargs):
    """PyTorch's value-and-backward time over its value time, or None without PyTorch."""
    try:
        import torch
    except ImportError:
        return None
    f = torch
    for part in name.split("."):
        f = getattr(f, part)
    tensors = [torch.from_numpy(np.asarray(x)) for x in args]

    def value():
        with torch.no_grad():
            return f(*tensors, **kwargs)

    def value_and_gradient():
        inputs = [t.detach().requires_grad_() for t in tensors]
        y = f(*inputs, **kwargs)
        outputs = [y] if isinstance(y, torch.Tensor) else list(y)
        total = sum(o.abs().sum() if o.is_complex() else o.sum() for o in outputs)
        total.backward()
        return [t.grad for t in inputs]

    return best_of_three(value_and_gradient) / best_of_three(value)


def rule_ratio(f, args, kwargs, rng):
    y = f(*args, **kwargs)
    dy = cotangent(y, rng)

    def value_and_pullback():
        _, pullback = cr.rrule(f, *args, **kwargs)
        return pullback(dy)

    value = best_of_three(lambda: f(*args, **kwargs))
    return value, best_of_three(value_and_pullback)


def solve_pullback_times(n, rng):
    """(forward, reusing pullback, refactorizing pullback) times of solve at size n."""
    a = rng.standard_normal((n, n)) + n**0.5 * np.eye(n)
    b, dy = rng.standard_normal(n), rng.standard_normal(n)
    x, pullback = cr.rrule(np.linalg.solve, a, b)

    def refactorizing():
        db = np.linalg.solve(a.T, dy)
        return -np.outer(db, x), db

    forward = best_of_three(lambda: np.linalg.solve(a, b))
    return forward, best_of_three(lambda: pullback(dy)), best_of_three(refactorizing)


def main() -> None:
    try:
        import torch

        torch.set_num_threads(1)
    except ImportError:
        pass
    rng = np.random.default_rng(0)
    print("ratios are (value and pullback) / value; best of 3")
    print(f"{'case':<16}{'value':>11}{'rule':>12}{'rule ratio':>12}{'PyTorch':>9}")
    for n in SIZES:
        for name, f, args, kwargs, torch_name in problems(n, rng):
            value, rule = rule_ratio(f, args, kwargs, rng)
            peer = torch_ratio(torch_name, args, kwargs)
            peer_text = "-" if peer is None else f"{peer:.2f}"
            print(
                f"{name + f' n={n}':<16}{value * 1e3:>8.2f} ms{rule * 1e3:>9.2f} ms"
                f"{rule / value:>12.2f}{peer_text:>9}"
            )
    print()
    print(f"{'solve pullback':<16}{'forward':>11}{'pullback':>12}{'refactorizing':>15}")
    for n in SIZES:
        forward, reuse, refactor = solve_pullback_times(n, rng)
        print(
            f"{f'n={n}':<16}{forward * 1e3:>8.2f} ms{reuse * 1e3:>9.2f} ms"
            f"{refactor * 1e3:>12.2f} ms   pullback/forward {reuse / forward:.2f},"
            f" refactorizing/forward {refactor / forward:.2f}"
        )


if __name__ == "__main__":
    main()
