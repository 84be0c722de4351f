"""Correct rules for private functions, the inputs to test them at: the harness's test bed.

Each ``Case`` is a function, its arguments and keywords, and its correct rrule and frule in
the ``rrule_f`` / ``frule_f`` calling convention (the function object first). The rules are
also registered, so the harness finds them by itself.
"""

from __future__ import annotations

import math
import types
from collections import namedtuple
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule

import chainrules as cr
from chainrules import InplaceableThunk, NoTangent, ProjectTo, Tangent, Thunk, unthunk
from chainrules.core.tangents import AbstractZero

# ---- elementwise ---------------------------------------------------------------------------


def _sin(x):
    return np.sin(x)


@cr.rrule.register(_sin)
def _sin_rrule(x):
    project_x = ProjectTo(x)

    def sin_pullback(dy):
        return NoTangent(), project_x(np.conj(np.cos(x)) * unthunk(dy))

    return np.sin(x), sin_pullback


@cr.frule.register(_sin)
def _sin_frule(tangents, x):
    return np.sin(x), np.cos(x) * unthunk(tangents[1])


def _exp(x):
    return np.exp(x)


@cr.rrule.register(_exp)
def _exp_rrule(x):
    y = np.exp(x)
    project_x = ProjectTo(x)

    def exp_pullback(dy):
        return NoTangent(), project_x(np.conj(y) * unthunk(dy))

    return y, exp_pullback


@cr.frule.register(_exp)
def _exp_frule(tangents, x):
    y = np.exp(x)
    return y, y * unthunk(tangents[1])


# ---- broadcasting binary -------------------------------------------------------------------


def _mul(x, y):
    return x * y


@cr.rrule.register(_mul)
def _mul_rrule(x, y):
    project_x, project_y = ProjectTo(x), ProjectTo(y)

    def mul_pullback(dz):
        dz = unthunk(dz)
        return NoTangent(), project_x(dz * y), project_y(dz * x)

    return x * y, mul_pullback


@cr.frule.register(_mul)
def _mul_frule(tangents, x, y):
    _, dx, dy = tangents
    return x * y, unthunk(dx) * y + x * unthunk(dy)


# ---- reduction with an axis ----------------------------------------------------------------


def _sum(x, axis=None):
    return np.sum(x, axis=axis)


@cr.rrule.register(_sum)
def _sum_rrule(x, axis=None):
    shape = x.shape

    def sum_pullback(dy):
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero):
            return NoTangent(), dy
        if axis is not None:
            dy = np.expand_dims(dy, axis)
        return NoTangent(), np.copy(np.broadcast_to(dy, shape))

    return np.sum(x, axis=axis), sum_pullback


@cr.frule.register(_sum)
def _sum_frule(tangents, x, axis=None):
    dx = unthunk(tangents[1])
    dy = dx if isinstance(dx, AbstractZero) else np.sum(dx, axis=axis)
    return np.sum(x, axis=axis), dy


# ---- matrix product ------------------------------------------------------------------------


def _matmul(a, b):
    return a @ b


@cr.rrule.register(_matmul)
def _matmul_rrule(a, b):
    def matmul_pullback(dy):
        dy = unthunk(dy)
        return NoTangent(), dy @ b.T, a.T @ dy

    return a @ b, matmul_pullback


@cr.frule.register(_matmul)
def _matmul_frule(tangents, a, b):
    _, da, db = tangents
    return a @ b, unthunk(da) @ b + a @ unthunk(db)


# ---- complex, holomorphic ------------------------------------------------------------------


def _csquare(z):
    return z * z


@cr.rrule.register(_csquare)
def _csquare_rrule(z):
    project_z = ProjectTo(z)

    def csquare_pullback(dy):
        return NoTangent(), project_z(np.conj(2 * z) * unthunk(dy))

    return z * z, csquare_pullback


@cr.frule.register(_csquare)
def _csquare_frule(tangents, z):
    return z * z, 2 * z * unthunk(tangents[1])


# ---- structure-valued ----------------------------------------------------------------------

Polar = namedtuple("Polar", "r theta")


def _polar(x):
    return Polar(np.hypot(x[0], x[1]), np.arctan2(x[1], x[0]))


@cr.rrule.register(_polar)
def _polar_rrule(x):
    y = _polar(x)
    r2 = y.r * y.r

    def polar_pullback(dy):
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero):
            return NoTangent(), dy
        dr, dtheta = unthunk(dy.r), unthunk(dy.theta)
        dx = dr * x / y.r + dtheta * np.stack([-x[1], x[0]]) / r2
        return NoTangent(), dx

    return y, polar_pullback


@cr.frule.register(_polar)
def _polar_frule(tangents, x):
    y = _polar(x)
    dx = unthunk(tangents[1])
    if isinstance(dx, AbstractZero):
        return y, dx
    dr = (x[0] * dx[0] + x[1] * dx[1]) / y.r
    dtheta = (x[0] * dx[1] - x[1] * dx[0]) / (y.r * y.r)
    return y, Tangent(Polar, r=dr, theta=dtheta)


# ---- an integer argument -------------------------------------------------------------------


def _power(x, n):
    return x**n


@cr.rrule.register(_power)
def _power_rrule(x, n: int):
    project_x = ProjectTo(x)

    def power_pullback(dy):
        return NoTangent(), project_x(n * x ** (n - 1) * unthunk(dy)), NoTangent()

    return x**n, power_pullback


@cr.frule.register(_power)
def _power_frule(tangents, x, n: int):
    return x**n, n * x ** (n - 1) * unthunk(tangents[1])


# ---- a structured argument -----------------------------------------------------------------


@dataclass
class Params:
    weights: dict = field(default_factory=dict)


def _affine(params, x):
    return params.weights["w"] @ x + params.weights["b"]


@cr.rrule.register(_affine)
def _affine_rrule(params, x):
    w = params.weights["w"]

    def affine_pullback(dy):
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero):
            return NoTangent(), dy, dy
        dweights = Tangent(dict, {"w": np.outer(dy, x), "b": dy.copy()})
        return NoTangent(), Tangent(Params, weights=dweights), w.T @ dy

    return _affine(params, x), affine_pullback


@cr.frule.register(_affine)
def _affine_frule(tangents, params, x):
    _, dparams, dx = (unthunk(t) for t in tangents)
    dy = params.weights["w"] @ dx if not isinstance(dx, AbstractZero) else dx
    if not isinstance(dparams, AbstractZero):
        dweights = dparams.weights
        dy = dy + dweights["w"] @ x + dweights["b"]
    return _affine(params, x), dy


# ---- a closure with a differentiable free variable -----------------------------------------


def make_scaler(a):
    def scale(x):
        return a * x

    return scale


def _cell(f, name):
    return f.__closure__[f.__code__.co_freevars.index(name)].cell_contents


def scaler_rrule(f, x):
    a = _cell(f, "a")

    def scale_pullback(dy):
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero):
            return dy, dy
        return Tangent(types.FunctionType, a=np.real(np.vdot(x, dy))), a * dy

    return f(x), scale_pullback


def scaler_frule(tangents, f, x):
    df, dx = (unthunk(t) for t in tangents)
    a = _cell(f, "a")
    dy = a * dx
    if not isinstance(df, AbstractZero):
        dy = dy + df.a * x
    return f(x), dy


# ---- thunked cotangents --------------------------------------------------------------------


def _dot(a, b):
    return a @ b


@cr.rrule.register(_dot)
def _dot_rrule(a, b):
    def dot_pullback(dy):
        dy = unthunk(dy)
        da = InplaceableThunk(lambda acc: np.add(acc, dy * b, out=acc), Thunk(lambda: dy * b))
        return NoTangent(), da, Thunk(lambda: dy * a)

    return a @ b, dot_pullback


@cr.frule.register(_dot)
def _dot_frule(tangents, a, b):
    _, da, db = tangents
    return a @ b, unthunk(da) @ b + a @ unthunk(db)


# ---- Python scalars ------------------------------------------------------------------------


def _hypot(x, y):
    return math.hypot(x, y)


@cr.rrule.register(_hypot)
def _hypot_rrule(x, y):
    r = math.hypot(x, y)

    def hypot_pullback(dr):
        dr = unthunk(dr)
        return NoTangent(), dr * x / r, dr * y / r

    return r, hypot_pullback


@cr.frule.register(_hypot)
def _hypot_frule(tangents, x, y):
    _, dx, dy = (unthunk(t) for t in tangents)
    r = math.hypot(x, y)
    return r, (x * dx + y * dy) / r


# ---- the table -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """A function, where to test it, and its correct rules."""

    name: str
    f: Callable
    args: Callable[[], tuple]  # fresh arguments on each call
    rrule: Callable
    frule: Callable
    fkwargs: dict = field(default_factory=dict)
    scaled: int = 1  # the input whose partial the "scaled" variant scales
    defect: float = 1e-6  # the relative error of the "scaled" and "wrong primal" variants
    second_order: bool = True  # False where the rules cannot run on an engine's tracked values

    def check_rrule(self, **options) -> None:
        """test_rrule on this case's correct rrule; ``options`` go to the harness as they are."""
        # The registered rule is left to the harness to find, as a user's would be.
        rule = None if self.rrule is cr.rrule else self.rrule
        self._check(test_rrule, rrule_f=rule, **options)

    def check_frule(self, **options) -> None:
        """test_frule on this case's correct frule; ``options`` go to the harness as they are."""
        rule = None if self.frule is cr.frule else self.frule
        self._check(test_frule, frule_f=rule, **options)

    def _check(self, harness: Callable, **options) -> None:
        harness(
            self.f,
            *self.args(),
            fkwargs=self.fkwargs,
            check_second_order=self.second_order,
            **options,
        )


def _registered(f: Callable) -> tuple[Callable, Callable]:
    """The rules the tables hold for ``f`` (they are looked up by ``f`` on each call)."""
    return cr.rrule, cr.frule


def correct_rule_tests(check: Callable[..., None]) -> tuple[Callable, Callable]:
    """The two tests of ``check`` (``Case.check_rrule`` or ``Case.check_frule``) on every case:
    it passes for 25 seeds, and with the full Jacobian. A test module names them::

        test_many_seeds, test_full_jacobian = correct_rule_tests(Case.check_rrule)
    """
    each_case = pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)

    @each_case
    def for_many_seeds(case: Case) -> None:
        for seed in range(25):
            check(case, seed=seed)

    @each_case
    def with_the_full_jacobian(case: Case) -> None:
        check(case, full_jacobian=True)

    return for_many_seeds, with_the_full_jacobian


_rng = np.random.default_rng(2024)
X5 = _rng.uniform(0.2, 1.5, 5)
X34 = _rng.standard_normal((3, 4))
A33, B33 = _rng.standard_normal((3, 3)), _rng.standard_normal((3, 3))
Z4 = _rng.standard_normal(4) + 1j * _rng.standard_normal(4)
W23, B2, V3 = _rng.standard_normal((2, 3)), _rng.standard_normal(2), _rng.standard_normal(3)

CASES = [
    Case("elementwise", _sin, lambda: (X5.copy(),), *_registered(_sin)),
    Case(
        "broadcasting binary",
        _mul,
        lambda: (X34[:, :1].copy(), X34[0].copy()),
        *_registered(_mul),
    ),
    Case(
        "reduction with axis", _sum, lambda: (X34.copy(),), *_registered(_sum), fkwargs={"axis": 1}
    ),
    Case("matrix product", _matmul, lambda: (A33.copy(), B33.copy()), *_registered(_matmul)),
    Case("complex", _csquare, lambda: (Z4.copy(),), *_registered(_csquare)),
    Case("structure-valued", _polar, lambda: (np.array([0.6, -0.8]),), *_registered(_polar)),
    Case("integer argument", _power, lambda: (X5.copy(), 3), *_registered(_power)),
    Case(
        "structured argument",
        _affine,
        lambda: (Params({"w": W23.copy(), "b": B2.copy()}), V3.copy()),
        *_registered(_affine),
    ),
    Case("closure", make_scaler(1.7), lambda: (X5.copy(),), scaler_rrule, scaler_frule, scaled=0),
    # float32: the elementwise rules of _exp (conj leaves real values as they are)
    Case("float32", _exp, lambda: (X5.astype(np.float32),), *_registered(_exp), defect=1e-2),
    Case("thunked cotangents", _dot, lambda: (V3.copy(), V3[::-1].copy()), *_registered(_dot)),
    # math.hypot converts its arguments with float(): no engine can trace through it.
    Case("python scalars", _hypot, lambda: (0.3, -1.2), *_registered(_hypot), second_order=False),
]


# ---- a linked list a thousand long ---------------------------------------------------------


@dataclass
class Node:
    """One link of a linked list: walkers of object graphs must not recurse along it."""

    value: float
    next: Node | None = None


def linked_list(n: int, shared: np.ndarray | None = None) -> Node:
    """``n`` nodes with values 0.5, 1.5, ...; ``shared``, when given, is held by the first
    and the last node (aliasing that the walkers must keep)."""
    head = None
    for k in reversed(range(n)):
        head = Node(k + 0.5, head)
    if shared is not None:
        last = head
        while last.next is not None:
            last = last.next
        head.value = last.value = shared
    return head


def _chain_weighted_sum(node, x):
    """``x * sum(node values)`` over the whole list."""
    total = 0.0
    while node is not None:
        total = total + node.value
        node = node.next
    return x * total


@cr.rrule.register(_chain_weighted_sum)
def _chain_weighted_sum_rrule(node, x):
    links = []
    while node is not None:
        links.append(node)
        node = node.next
    total = sum(link.value for link in links)

    def chain_pullback(dy):
        dy = unthunk(dy)
        # The tangent of the list is built from the tail up, with a loop: no recursion.
        dnode: object = NoTangent()
        for link in reversed(links):
            dvalue = dy * x if np.ndim(link.value) else np.sum(dy * x)
            dnode = Tangent(Node, value=dvalue, next=dnode)
        dx = dy * total if np.ndim(x) else np.sum(dy * total)
        return NoTangent(), dnode, dx

    return x * total, chain_pullback
