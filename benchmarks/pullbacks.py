"""A rule's value and cotangents against the same written by hand in NumPy, for 45 rules at
64 x 256 elements (64 x 64 matrices), where the NumPy work inside the pullback is what costs.

Each row times ``y, pullback = rrule(f, *args); pullback(dy)`` with the cotangents of the
array arguments unthunked (an engine asks for those alone) against a hand-written function
computing the value and those cotangents in the plainest NumPy: ``dy * (1 - y * y)`` for
``tanh``, ``dy * x / y`` for ``hypot``. The hand-written code is the peer and the least any
rule does; it is not always right at the hard points the rules handle (``1 - y * y`` is 0 from
|x| = 19, ``x / y`` NaN at the origin), so a ratio somewhat above 1 can be the price of being
right. Both take turns in every round, best of nine, on one BLAS thread.

    python benchmarks/pullbacks.py            # every row
    python benchmarks/pullbacks.py tanh norm  # the rows whose name contains one of these
    python benchmarks/pullbacks.py --cpu      # CPU time of this process (a loaded machine)

To compare two versions of chainrules in one sitting, run it under each:
``PYTHONPATH=<a checkout of the other commit> python benchmarks/pullbacks.py``.
"""

from __future__ import annotations

import os

for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
import scipy.special as sc  # noqa: E402
from timing import best_times_taking_turns, library_versions  # noqa: E402

import chainrules as cr  # noqa: E402

RNG = np.random.default_rng(0)
X, X2, DY = (RNG.standard_normal((64, 256)) for _ in range(3))
POSITIVE = np.abs(X) + 0.1
A = RNG.standard_normal((64, 64)) + 8 * np.eye(64)
DA, B = RNG.standard_normal((64, 64)), RNG.standard_normal(64)
SQUARE = RNG.standard_normal((256, 256))
EVEN = np.arange(0, 256, 2)


def through_rule(f, args, dy, **kwargs):
    """Value and the array arguments' cotangents through the rule."""
    arrays = [type(a) is np.ndarray or type(a) is list for a in args]

    def rule():
        y, pullback = cr.rrule(f, *args, **kwargs)
        cotangents = pullback(dy)[1:]
        return y, [cr.unthunk(c) for c, array in zip(cotangents, arrays, strict=True) if array]

    return rule


def softmax_rows(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def logsumexp_rows(x, dy):
    m = x.max(-1, keepdims=True)
    e = np.exp(x - m)
    s = e.sum(-1, keepdims=True)
    return m[:, 0] + np.log(s[:, 0]), dy[:, None] * e / s


def scatter(dy, x_shape, where):
    dx = np.zeros(x_shape)
    dx[where] = dy
    return dx


def cases():
    """(name, hand-written, through the rule)."""
    x, x2, dy, pos = X, X2, DY, POSITIVE
    rows, row = DY[:, 0], DY[0]
    both = (x, x2)
    unary = [
        ("exp", np.exp, x, lambda: (lambda y: (y, dy * y))(np.exp(x))),
        ("log", np.log, pos, lambda: (np.log(pos), dy / pos)),
        ("sqrt", np.sqrt, pos, lambda: (lambda y: (y, dy / (2 * y)))(np.sqrt(pos))),
        ("exp2", np.exp2, x, lambda: (lambda y: (y, dy * y * np.log(2)))(np.exp2(x))),
        ("log1p", np.log1p, pos, lambda: (np.log1p(pos), dy / (1 + pos))),
        ("sin", np.sin, x, lambda: (np.sin(x), dy * np.cos(x))),
        ("tanh", np.tanh, x, lambda: (lambda y: (y, dy * (1 - y * y)))(np.tanh(x))),
        ("arctan", np.arctan, x, lambda: (np.arctan(x), dy / (1 + x * x))),
        ("abs", np.abs, x, lambda: (np.abs(x), dy * np.sign(x))),
        ("square", np.square, x, lambda: (np.square(x), dy * 2 * x)),
        ("expit", sc.expit, x, lambda: (lambda y: (y, dy * y * (1 - y)))(sc.expit(x))),
        ("softplus", sc.softplus, x, lambda: (sc.softplus(x), dy * sc.expit(x))),
        ("erf", sc.erf, x, lambda: (sc.erf(x), dy * (2 / np.sqrt(np.pi)) * np.exp(-x * x))),
        ("gammaln", sc.gammaln, pos, lambda: (sc.gammaln(pos), dy * sc.digamma(pos))),
    ]
    binary = [
        ("multiply", np.multiply, both, lambda: (x * x2, dy * x2, dy * x)),
        ("divide", np.divide, (x, pos), lambda: (lambda y: (y, dy / pos, -dy * y / pos))(x / pos)),
        (
            "maximum",
            np.maximum,
            both,
            lambda: (lambda m: (np.maximum(x, x2), dy * m, dy * ~m))(x > x2),
        ),
        ("maximum(x, 0.0)", np.maximum, (x, 0.0), lambda: (np.maximum(x, 0.0), dy * (x > 0))),
        (
            "clip(x, -1.0, 1.0)",
            np.clip,
            (x, -1.0, 1.0),
            lambda: (np.clip(x, -1, 1), dy * (np.abs(x) <= 1)),
        ),
        ("x ** 3", np.power, (x, 3), lambda: (x**3, dy * 3 * x * x)),
        (
            "hypot",
            np.hypot,
            both,
            lambda: (lambda y: (y, dy * x / y, dy * x2 / y))(np.hypot(x, x2)),
        ),
        (
            "arctan2",
            np.arctan2,
            both,
            lambda: (lambda r: (np.arctan2(x, x2), dy * x2 / r, -dy * x / r))(x * x + x2 * x2),
        ),
        (
            "logaddexp",
            np.logaddexp,
            both,
            lambda: (lambda y: (y, dy * np.exp(x - y), dy * np.exp(x2 - y)))(np.logaddexp(x, x2)),
        ),
        ("xlogy", sc.xlogy, (x, pos), lambda: (sc.xlogy(x, pos), dy * np.log(pos), dy * x / pos)),
    ]
    found = [(name, hand, through_rule(f, (a,), dy)) for name, f, a, hand in unary]
    found += [(name, hand, through_rule(f, args, dy)) for name, f, args, hand in binary]
    found += [
        (
            "sum",
            lambda: (np.sum(x), np.broadcast_to(1.3, x.shape)),
            through_rule(np.sum, (x,), 1.3),
        ),
        (
            "mean, axis=0",
            lambda: (x.mean(0), np.broadcast_to(row / 64, x.shape)),
            through_rule(np.mean, (x,), row, axis=0),
        ),
        (
            "std",
            lambda: (lambda m, s: (s, 1.3 * (x - m) / (x.size * s)))(x.mean(), x.std()),
            through_rule(np.std, (x,), 1.3),
        ),
        (
            "var, axis=0",
            lambda: (lambda m: (x.var(0), row * 2 * (x - m) / 64))(x.mean(0)),
            through_rule(np.var, (x,), row, axis=0),
        ),
        (
            "prod, axis=1",
            lambda: (lambda p: (p, rows[:, None] * p[:, None] / x))(np.prod(x, 1)),
            through_rule(np.prod, (x,), rows, axis=1),
        ),
        (
            "cumsum, axis=1",
            lambda: (np.cumsum(x, 1), np.cumsum(dy[:, ::-1], 1)[:, ::-1]),
            through_rule(np.cumsum, (x,), dy, axis=1),
        ),
        (
            "linalg.norm",
            lambda: (lambda n: (n, 1.3 * x / n))(np.linalg.norm(x)),
            through_rule(np.linalg.norm, (x,), 1.3),
        ),
        (
            "logsumexp, axis=-1",
            lambda: logsumexp_rows(x, rows),
            through_rule(sc.logsumexp, (x,), rows, axis=-1),
        ),
        (
            "softmax, axis=-1",
            lambda: (lambda s: (s, s * (dy - (dy * s).sum(-1, keepdims=True))))(softmax_rows(x)),
            through_rule(sc.softmax, (x,), dy, axis=-1),
        ),
        ("trace", lambda: (np.trace(A), 1.3 * np.eye(64)), through_rule(np.trace, (A,), 1.3)),
        (
            "sort, axis=1",
            lambda: (
                lambda i: (
                    np.take_along_axis(x, i, 1),
                    np.put_along_axis(np.zeros_like(x), i, dy, 1),
                )
            )(np.argsort(x, 1)),
            through_rule(np.sort, (x,), dy, axis=1),
        ),
        (
            "take, axis=1",
            lambda: (x[:, ::2], scatter(dy[:, :128], x.shape, (slice(None), EVEN))),
            through_rule(np.take, (x, EVEN), dy[:, :128], axis=1),
        ),
        (
            "concatenate",
            lambda: (np.concatenate([x, x2], 1), dy[:, :256], dy[:, 256:]),
            through_rule(np.concatenate, ([x, x2],), np.concatenate([dy, dy], 1), axis=1),
        ),
        (
            "stack",
            lambda: (np.stack([x, x2]), dy, dy),
            through_rule(np.stack, ([x, x2],), np.stack([dy, dy])),
        ),
        (
            "matmul",
            lambda: (x.T @ x2, SQUARE @ x2.T, x @ SQUARE),
            through_rule(np.matmul, (x.T, x2), SQUARE),
        ),
        (
            "einsum ij,kj->ik",
            lambda: (x @ x2.T, dy[:, :64] @ x2, dy[:, :64].T @ x),
            through_rule(np.einsum, ("ij,kj->ik", x, x2), dy[:, :64]),
        ),
        (
            "linalg.solve",
            lambda: (lambda z: (lambda g: (z, -np.outer(g, z), g))(np.linalg.solve(A.T, B)))(
                np.linalg.solve(A, B)
            ),
            through_rule(np.linalg.solve, (A, B), B),
        ),
        (
            "linalg.inv",
            lambda: (lambda ai: (ai, -ai.T @ DA @ ai.T))(np.linalg.inv(A)),
            through_rule(np.linalg.inv, (A,), DA),
        ),
        (
            "linalg.det",
            lambda: (lambda d: (d, 1.3 * d * np.linalg.inv(A).T))(np.linalg.det(A)),
            through_rule(np.linalg.det, (A,), 1.3),
        ),
        (
            "linalg.slogdet",
            lambda: (np.linalg.slogdet(A), 1.3 * np.linalg.inv(A).T),
            through_rule(np.linalg.slogdet, (A,), (0.0, 1.3)),
        ),
    ]
    return found


def main(argv: list[str]) -> None:
    timer = time.process_time if "--cpu" in argv else time.perf_counter
    only = [a for a in argv if not a.startswith("--")]
    print(f"chainrules from {cr.__file__}; {library_versions('numpy', 'scipy')}")
    print("| rule | hand-written | chainrules | ratio |")
    print("|---|---:|---:|---:|")
    for name, hand, rule in cases():
        if only and not any(o in name for o in only):
            continue
        by_hand, by_rule = best_times_taking_turns([hand, rule], number=10, timer=timer)
        ratio = by_rule / by_hand
        print(f"| {name} | {by_hand * 1e6:.1f} us | {by_rule * 1e6:.1f} us | {ratio:.2f} |")


if __name__ == "__main__":
    main(sys.argv[1:])
