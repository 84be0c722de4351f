"""Cost of calling a rule through the registry, against hand-written code doing the same work.

Each row times ``y, pullback = rrule(f, *args); pullback(dy)`` (thunks unthunked) against a
hand-written function that computes the same value and the same cotangents with the same
NumPy calls, and reports the overhead (the difference) and the ratio. Both are timed in the
same run, in turns, best of several rounds, so that load on the machine hits both alike.

The rows: the elementwise rules of ``scalar_rule`` (unary and binary, with broadcasting),
reductions, products, indexing and shape functions, and a ``scipy.special`` function, at
sizes where the Python around the NumPy call is what costs. ``--floor`` times, for seven of
them, a minimal rule written in Python beside the hand-written code and chainrules' rule: what
any Python rule costs at least.

    python benchmarks/dispatch.py            # wall-clock time (a quiet machine)
    python benchmarks/dispatch.py --cpu      # CPU time of this process (a loaded machine)
    python benchmarks/dispatch.py sin sum    # only the rows whose name contains these
    python benchmarks/dispatch.py --large    # arrays of 10^6 elements, 300 x 300 matrices
    python benchmarks/dispatch.py --floor    # a minimal Python rule beside chainrules' rule
    python benchmarks/dispatch.py --torch    # the rules on PyTorch's tensors, against torch

To compare two versions of chainrules in one sitting, run it under each:
``PYTHONPATH=<a checkout of the other commit> python benchmarks/dispatch.py``.
"""

from __future__ import annotations

import os

# One BLAS thread, set before NumPy loads it: a matrix product's time then does not depend on
# what else runs on the machine's cores.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import sys  # noqa: E402
import time  # noqa: E402
import timeit  # noqa: E402

import numpy as np  # noqa: E402
import scipy.special as sc  # noqa: E402

import chainrules as cr  # noqa: E402


def by_rule(f, *args, dy, **kwargs):
    """Value and cotangents through the rule: a function timing them, which unthunks the
    cotangents when the rule gives thunks (as a consumer must, to have the numbers)."""
    _, pullback = cr.rrule(f, *args, **kwargs)
    if any(isinstance(c, cr.Thunk | cr.InplaceableThunk) for c in pullback(dy)):

        def rule_and_unthunk():
            y, pullback = cr.rrule(f, *args, **kwargs)
            return y, tuple(map(cr.unthunk, pullback(dy)))

        return rule_and_unthunk

    def rule():
        y, pullback = cr.rrule(f, *args, **kwargs)
        return y, pullback(dy)

    return rule


def cases(large: bool) -> list[tuple]:
    """(name, input, hand-written, through the rule): each hand-written function computes the
    value and every cotangent the pullback returns, as a rule author would inline them.

    ``large``: the array rows at 10^6 elements and 300 x 300 matrices (where the NumPy work,
    not the Python around it, is what costs), without the rows of numbers.
    """
    n, rows, side = (10**6, 10**5, 300) if large else (1000, 100, 4)
    x0, dy0 = np.array(0.7), np.array(1.3)
    m, v, dm = np.full((rows, 10), 0.5), np.full(10, 0.25), np.ones((rows, 10))
    k, s = np.linspace(0.1, 1.0, n), np.linspace(-1.0, 1.0, n)
    a4, b4, d4 = np.eye(side) + 0.5, np.eye(side) * 2.0, np.ones((side, side))
    idx = np.array([3, 1, 4, 1, 5])
    numbers = [
        (
            "sin",
            "Python float",
            lambda: (np.sin(0.7), 1.3 * np.cos(0.7)),
            by_rule(np.sin, 0.7, dy=1.3),
        ),
        (
            "sin",
            "0-d array",
            lambda: (np.sin(x0), dy0 * np.cos(x0)),
            by_rule(np.sin, x0, dy=dy0),
        ),
        ("exp", "0-d array", lambda: (y := np.exp(x0), dy0 * y), by_rule(np.exp, x0, dy=dy0)),
        (
            "multiply",
            "0-d arrays",
            lambda: (x0 * dy0, dy0 * dy0, dy0 * x0),
            by_rule(np.multiply, x0, dy0, dy=dy0),
        ),
        (
            "gammaln",
            "0-d array",
            lambda: (sc.gammaln(x0), dy0 * sc.digamma(x0)),
            by_rule(sc.gammaln, x0, dy=dy0),
        ),
    ]
    arrays = [
        ("sin", f"{n:,}", lambda: (np.sin(k), s * np.cos(k)), by_rule(np.sin, k, dy=s)),
        (
            "multiply",
            f"({rows},10) * (10,)",
            lambda: (m * v, dm * v, (dm * m).sum(axis=0)),
            by_rule(np.multiply, m, v, dy=dm),
        ),
        (
            "add",
            f"({rows},10) + (10,)",
            lambda: (m + v, dm, dm.sum(axis=0)),
            by_rule(np.add, m, v, dy=dm),
        ),
        (
            "sum",
            f"{n:,}",
            lambda: (np.sum(k), np.broadcast_to(1.0, k.shape)),
            by_rule(np.sum, k, dy=1.0),
        ),
        (
            "sum",
            f"({rows},10), axis=0",
            lambda: (np.sum(m, axis=0), np.broadcast_to(v, m.shape)),
            by_rule(np.sum, m, axis=0, dy=v),
        ),
        (
            "mean",
            f"{n:,}",
            lambda: (np.mean(k), np.broadcast_to(1.0 / k.size, k.shape)),
            by_rule(np.mean, k, dy=1.0),
        ),
        (
            "max",
            f"{n:,}",
            lambda: (y := np.max(k), np.where(k == y, 1.0, 0.0)),
            by_rule(np.max, k, dy=1.0),
        ),
        (
            "matmul",
            f"{side}x{side} @ {side}x{side}",
            lambda: (a4 @ b4, d4 @ b4.T, a4.T @ d4),
            by_rule(np.matmul, a4, b4, dy=d4),
        ),
        (
            "matmul",
            f"({rows},10) @ (10,)",
            lambda: (m @ v, np.multiply.outer(k[:rows], v), m.T @ k[:rows]),
            by_rule(np.matmul, m, v, dy=k[:rows]),
        ),
        (
            "getitem",
            "x[3]",
            lambda: (k[3], np.zeros_like(k).__setitem__(3, 1.0)),
            by_rule(np.ndarray.__getitem__, k, 3, dy=1.0),
        ),
        (
            "getitem",
            "x[idx]",
            lambda: (k[idx], np.add.at(np.zeros_like(k), idx, s[:5])),
            by_rule(np.ndarray.__getitem__, k, idx, dy=s[:5]),
        ),
        (
            "reshape",
            f"({rows},10) -> ({n:,},)",
            lambda: (np.reshape(m, (n,)), np.reshape(s, (rows, 10))),
            by_rule(np.reshape, m, (n,), dy=s),
        ),
        (
            "transpose",
            f"({rows},10)",
            lambda: (np.transpose(m), np.transpose(dm.T)),
            by_rule(np.transpose, m, dy=dm.T),
        ),
    ]
    if large:
        arrays.append(
            (
                "gammaln",
                f"{n:,}",
                lambda: (sc.gammaln(k), s * sc.digamma(k)),
                by_rule(sc.gammaln, k, dy=s),
            )
        )
        return arrays
    return numbers + arrays


# ---- the rules on PyTorch's tensors -------------------------------------------------------
#
# A rule that computes through the array namespace (``np.sin``'s, ``np.multiply``'s) computes on
# tensors in torch: PyTorch's adapter runs it so (``chainrules.adapters.torch``), and so does any
# engine over tensors. Against the same torch calls written by hand.


def torch_cases() -> list[tuple]:
    """(name, input, hand-written in torch, through the rule), float64 tensors."""
    import torch

    torch.set_num_threads(1)

    def tensor(values):
        return torch.as_tensor(values, dtype=torch.float64)

    one, d1 = tensor([0.7]), tensor([1.3])
    k, s = tensor(np.linspace(0.1, 1.0, 1000)), tensor(np.linspace(-1.0, 1.0, 1000))
    m, v = tensor(np.full((100, 10), 0.5)), tensor(np.full(10, 0.25))
    dm = tensor(np.ones((100, 10)))
    a4, b4, d4 = tensor(np.eye(4) + 0.5), tensor(np.eye(4) * 2.0), tensor(np.ones((4, 4)))
    dsum = tensor(1.0)
    return [
        ("sin", "1 element", lambda: (torch.sin(one), d1 * torch.cos(one)),
         by_rule(np.sin, one, dy=d1)),
        ("sin", "1,000", lambda: (torch.sin(k), s * torch.cos(k)), by_rule(np.sin, k, dy=s)),
        ("exp", "1,000", lambda: (y := torch.exp(k), s * y), by_rule(np.exp, k, dy=s)),
        ("multiply", "1,000 * 1,000", lambda: (k * s, s * s, s * k),
         by_rule(np.multiply, k, s, dy=s)),
        ("multiply", "1,000 * 1.01", lambda: (k * 1.01, s * 1.01, torch.sum(s * k)),
         by_rule(np.multiply, k, 1.01, dy=s)),
        ("multiply", "(100,10) * (10,)", lambda: (m * v, dm * v, torch.sum(dm * m, dim=0)),
         by_rule(np.multiply, m, v, dy=dm)),
        ("sum", "1,000", lambda: (torch.sum(k), dsum.expand(k.shape)),
         by_rule(np.sum, k, dy=dsum)),
        ("matmul", "4x4 @ 4x4", lambda: (a4 @ b4, d4 @ b4.T, a4.T @ d4),
         by_rule(np.matmul, a4, b4, dy=d4)),
        ("inv", "4x4", lambda: (y := torch.linalg.inv(a4), -(y.mT @ d4 @ y.mT)),
         by_rule(np.linalg.inv, a4, dy=d4)),
    ]  # fmt: skip


# ---- the floor: a minimal rule in Python ---------------------------------------------------
#
# What any rule written in Python costs at least: a dictionary lookup of the function, a rule
# computing the value and making one slotted pullback object, and the pullback's call with one
# check of the cotangent before the function's own cotangents (as chainrules' CheckedPullback
# is laid out), then the hand-written NumPy work (a 0-d array's cotangent made a 0-d
# array, a float's a float, as projection makes them; 0-d arrays' arithmetic on NumPy's
# scalars, which is faster). No dtypes, complex numbers, zeros or thunks, and of broadcasting
# only what ``multiply`` of (100,10) and (10,) needs (the axes to sum, worked out once per pair
# of shapes): against this, the aim of at most 1 us over the hand-written code.

NO_TANGENT = cr.NoTangent()
_new = object.__new__


class _Minimal:
    __slots__ = ("a", "b", "shape")

    def __call__(self, dy):
        cls = type(dy)
        if not (cls is np.ndarray and dy.shape == self.shape) and not (
            cls is float and self.shape == ()
        ):
            raise TypeError("a cotangent of the wrong type or shape")
        return self.cotangents(dy)


class _SinFloat(_Minimal):
    def cotangents(self, dy):
        return NO_TANGENT, float(dy * np.cos(self.a))


class _Sin0d(_Minimal):
    def cotangents(self, dy):
        return NO_TANGENT, np.array(dy[()] * np.cos(self.a))


class _SinArray(_Minimal):
    def cotangents(self, dy):
        return NO_TANGENT, dy * np.cos(self.a)


class _Multiply0d(_Minimal):
    def cotangents(self, dy):
        dy = dy[()]
        return NO_TANGENT, np.array(dy * self.b), np.array(dy * self.a)


class _MultiplyArrays(_Minimal):  # broadcast: each cotangent summed back to its factor's shape
    def cotangents(self, dy):
        a, b = self.a, self.b
        return NO_TANGENT, _unbroadcast(dy * b, a.shape), _unbroadcast(dy * a, b.shape)


_AXES = {}  # (shape, broadcast shape) -> the axes to sum: worked out once


def _unbroadcast(dx, shape):
    if dx.shape == shape:
        return dx
    key = (shape, dx.shape)
    axes = _AXES.get(key)
    if axes is None:
        lead = dx.ndim - len(shape)
        ones = (lead + i for i, n in enumerate(shape) if n == 1 and dx.shape[lead + i] != 1)
        axes = _AXES[key] = (*range(lead), *ones)
    summed = np.add.reduce(dx, axis=axes)
    return summed if summed.shape == shape else summed.reshape(shape)


class _Matmul(_Minimal):
    def cotangents(self, dy):
        return NO_TANGENT, dy @ self.b.T, self.a.T @ dy


class _Transpose(_Minimal):
    def cotangents(self, dy):
        return NO_TANGENT, np.transpose(dy)


def _sin_rule(x):
    if type(x) is float:
        pullback = _new(_SinFloat)
        pullback.a = x
    elif x.shape:
        pullback = _new(_SinArray)
        pullback.a = x
    else:  # a 0-d array, kept as NumPy's scalar, whose arithmetic is faster
        pullback = _new(_Sin0d)
        pullback.a = x[()]
    pullback.shape = x.shape if type(x) is not float else ()
    return np.sin(x), pullback


def _multiply_rule(a, b):
    if a.shape:
        y = a * b
        pullback = _new(_MultiplyArrays)
        pullback.a, pullback.b, pullback.shape = a, b, y.shape
        return y, pullback
    pullback = _new(_Multiply0d)  # 0-d arrays, kept as NumPy's scalars
    pullback.a, pullback.b, pullback.shape = a[()], b[()], ()
    return a * b, pullback


def _matmul_rule(a, b):
    y = a @ b
    pullback = _new(_Matmul)
    pullback.a, pullback.b, pullback.shape = a, b, y.shape
    return y, pullback


def _transpose_rule(x):
    y = np.transpose(x)
    pullback = _new(_Transpose)
    pullback.shape = y.shape
    return y, pullback


MINIMAL_RULES = {
    np.sin: _sin_rule,
    np.multiply: _multiply_rule,
    np.matmul: _matmul_rule,
    np.transpose: _transpose_rule,
}


def minimal_rrule(f, *args):
    return MINIMAL_RULES[f](*args)


def floor_cases() -> list[tuple]:
    """(name, input, hand-written, minimal rule, chainrules' rule) for the floor's rows."""
    x0, dy0 = np.array(0.7), np.array(1.3)
    a4, b4, d4 = np.eye(4) + 0.5, np.eye(4) * 2.0, np.ones((4, 4))
    m, dm = np.full((100, 10), 0.5), np.ones((10, 100))
    v, dmv = np.full(10, 0.25), np.ones((100, 10))
    k, s = np.linspace(0.1, 1.0, 1000), np.linspace(-1.0, 1.0, 1000)

    def by_minimal(key, *args, dy):
        def rule():
            y, pullback = minimal_rrule(key, *args)
            return y, pullback(dy)

        return rule

    return [
        ("sin", "Python float", lambda: (np.sin(0.7), 1.3 * np.cos(0.7)),
         by_minimal(np.sin, 0.7, dy=1.3), by_rule(np.sin, 0.7, dy=1.3)),
        ("sin", "0-d array", lambda: (np.sin(x0), dy0 * np.cos(x0)),
         by_minimal(np.sin, x0, dy=dy0), by_rule(np.sin, x0, dy=dy0)),
        ("multiply", "0-d arrays", lambda: (x0 * dy0, dy0 * dy0, dy0 * x0),
         by_minimal(np.multiply, x0, dy0, dy=dy0), by_rule(np.multiply, x0, dy0, dy=dy0)),
        ("sin", "1,000", lambda: (np.sin(k), s * np.cos(k)),
         by_minimal(np.sin, k, dy=s), by_rule(np.sin, k, dy=s)),
        ("multiply", "(100,10) * (10,)", lambda: (m * v, dmv * v, (dmv * m).sum(axis=0)),
         by_minimal(np.multiply, m, v, dy=dmv), by_rule(np.multiply, m, v, dy=dmv)),
        ("matmul", "4x4 @ 4x4", lambda: (a4 @ b4, d4 @ b4.T, a4.T @ d4),
         by_minimal(np.matmul, a4, b4, dy=d4), by_rule(np.matmul, a4, b4, dy=d4)),
        ("transpose", "(100,10)", lambda: (np.transpose(m), np.transpose(dm)),
         by_minimal(np.transpose, m, dy=dm), by_rule(np.transpose, m, dy=dm)),
    ]  # fmt: skip


def floor(timer, rounds: int) -> None:
    print("| rule | input | hand-written | minimal rule | chainrules | minimal overhead "
          "| chainrules overhead |")  # fmt: skip
    print("|---|---|---:|---:|---:|---:|---:|")
    for name, what, *contenders in floor_cases():
        base, minimal, timed = (t * 1e6 for t in best_times(contenders, 2000, rounds, timer))
        print(
            f"| {name} | {what} | {base:.2f} us | {minimal:.2f} us | {timed:.2f} us "
            f"| {minimal - base:+.2f} us | {timed - base:+.2f} us |"
        )


def best_times(contenders, number, rounds, timer):
    """The best time per call of each contender, timed in turns."""
    for fn in contenders:
        fn()  # caches warm
    best = [float("inf")] * len(contenders)
    for _ in range(rounds):
        for i, fn in enumerate(contenders):
            best[i] = min(best[i], timeit.timeit(fn, number=number, timer=timer) / number)
    return best


def main(argv: list[str]) -> None:
    cpu, large = "--cpu" in argv, "--large" in argv
    timer = time.process_time if cpu else time.perf_counter
    rounds = 30 if cpu else 9  # the least disturbed of more rounds when loaded
    number = 5 if large else 2000
    only = [a for a in argv if not a.startswith("--")]  # rows whose name contains one of these
    print(f"chainrules from {cr.__file__}; timer: {timer.__name__}")
    if "--floor" in argv:
        floor(timer, rounds)
        return
    print("| rule | input | hand-written | rrule + pullback | overhead | ratio |")
    print("|---|---|---:|---:|---:|---:|")
    for name, what, by_hand, through_rule in torch_cases() if "--torch" in argv else cases(large):
        if only and not any(o in f"{name} {what}" for o in only):
            continue
        base, timed = best_times((by_hand, through_rule), number, rounds, timer)
        print(
            f"| {name} | {what} | {base * 1e6:.2f} us | {timed * 1e6:.2f} us "
            f"| {(timed - base) * 1e6:+.2f} us | {timed / base:.2f} |"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
