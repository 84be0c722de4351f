"""Rules of chainrules.fastmath: harness checks, hard points, sharing, and the engines."""

import math

import numpy as np
import pytest
import scipy.special as sc
from chainrules_testing import test_frule, test_rrule
from chainrules_testing.tolerances import DEFAULT_RTOL

from chainrules import fastmath
from chainrules.core.registry import frule, rrule
from chainrules.core.tangents import NoTangent, ZeroTangent
from chainrules.engines import TrackingError, call, forward, reverse
from chainrules.fastmath import ACCURACY, TWINS
from chainrules.rules.fastmath import (
    make_log_softmax_rules,
    make_logsumexp_rules,
    make_softmax_rules,
)

F32, F64 = np.float32, np.float64
N = NoTangent()
REDUCTIONS = (fastmath.softmax, fastmath.log_softmax, fastmath.logsumexp)


def grid(lo, hi):
    return lambda dtype: (np.linspace(lo, hi, 7).astype(dtype),)


# function, sampler(dtype) -> args, keyword arguments
TABLE = [
    (fastmath.exp, grid(-3.0, 3.0), {}),
    (fastmath.exp2, grid(-3.0, 3.0), {}),
    (fastmath.expm1, grid(-3.0, 3.0), {}),
    (fastmath.log, grid(0.1, 5.0), {}),
    (fastmath.log2, grid(0.1, 5.0), {}),
    (fastmath.log1p, grid(-0.5, 5.0), {}),
    (fastmath.sqrt, grid(0.1, 5.0), {}),
    (fastmath.rsqrt, grid(0.1, 5.0), {}),
    (fastmath.tanh, grid(-3.0, 3.0), {}),
    (fastmath.sigmoid, grid(-5.0, 5.0), {}),
    (fastmath.softplus, grid(-5.0, 5.0), {}),
    (fastmath.gelu, grid(-4.0, 4.0), {}),
    (fastmath.erf, grid(-2.5, 2.5), {}),
    (
        fastmath.pow,
        lambda d: (np.linspace(0.2, 3, 5).astype(d), np.linspace(-2, 2, 5).astype(d)),
        {},
    ),
    (fastmath.softmax, lambda d: (np.linspace(-2, 2, 6).reshape(2, 3).astype(d),), {"axis": 1}),
    (fastmath.softmax, lambda d: (np.linspace(-2, 2, 6).reshape(2, 3).astype(d),), {}),
    (fastmath.log_softmax, lambda d: (np.linspace(-2, 2, 6).reshape(2, 3).astype(d),), {"axis": 0}),
    (fastmath.logsumexp, lambda d: (np.linspace(-2, 2, 6).reshape(2, 3).astype(d),), {"axis": -1}),
    (
        fastmath.logsumexp,
        lambda d: (np.linspace(-2, 2, 6).reshape(2, 3).astype(d),),
        {"axis": 0, "keepdims": True},
    ),
    (fastmath.logsumexp, lambda d: (np.linspace(-2, 2, 6).astype(d),), {}),
]
IDS = [f"{f.__name__}{'-' + str(kw) if kw else ''}" for f, _, kw in TABLE]


def rtol_for(f, dtype):
    """Finite differences (in float64) of a function with relative noise eps err by ~sqrt(eps)."""
    noise = ACCURACY[f.__name__][F64].max_relative
    return max(DEFAULT_RTOL[np.dtype(dtype)], 4 * math.sqrt(noise))


def test_every_public_function_has_both_rules_and_a_twin():
    for f in fastmath.FUNCTIONS:
        assert rrule.has_rule(f) and frule.has_rule(f), f.__name__
        assert f in TWINS and rrule.has_rule(TWINS[f]) and frule.has_rule(TWINS[f]), f.__name__


@pytest.mark.parametrize("dtype", [F32, F64], ids=["float32", "float64"])
@pytest.mark.parametrize(("f", "sampler", "kwargs"), TABLE, ids=IDS)
def test_rrule_and_frule(f, sampler, kwargs, dtype):
    args = sampler(dtype)
    rtol = rtol_for(f, dtype)
    test_rrule(f, *args, fkwargs=kwargs, rtol=rtol, seed=0)
    test_frule(f, *args, fkwargs=kwargs, rtol=rtol, seed=0)


ELEMENTWISE = [f for f in fastmath.FUNCTIONS if f not in REDUCTIONS and f is not fastmath.pow]


@pytest.mark.parametrize("dtype", [F32, F64], ids=["float32", "float64"])
@pytest.mark.parametrize("f", ELEMENTWISE, ids=lambda f: f.__name__)
def test_derivative_is_the_twins_rule_on_the_fast_output(f, dtype):
    x = np.linspace(0.2, 2.0, 5).astype(dtype)
    y, pullback = rrule(f, x)
    np.testing.assert_array_equal(y, f(x))
    dx = pullback(np.ones_like(x))[1]
    assert dx.dtype == dtype
    _, twin_pullback = rrule(TWINS[f], x)
    stated = ACCURACY[f.__name__][dtype].max_relative
    np.testing.assert_allclose(dx, twin_pullback(np.ones_like(x))[1], rtol=8 * stated + 1e-15)


@pytest.mark.parametrize(
    ("f", "kwargs"),
    [
        (fastmath.exp, {}),
        (fastmath.log, {}),
        (fastmath.softplus, {}),
        (fastmath.gelu, {}),
        (fastmath.erf, {}),
        (fastmath.softmax, {"axis": 1}),
        (fastmath.log_softmax, {"axis": 0}),
        (fastmath.logsumexp, {"axis": 1}),
    ],
    ids=lambda v: getattr(v, "__name__", str(v)),
)
def test_second_order_through_the_reverse_engine(f, kwargs):
    x = np.linspace(0.2, 2.0, 6).reshape(2, 3).astype(F32)
    test_rrule(f, x, fkwargs=kwargs, check_second_order=True, rtol=rtol_for(f, F32), seed=0)


@pytest.mark.parametrize(
    ("f", "x", "expected"),
    [
        (fastmath.exp, 0.0, 1.0),
        (fastmath.expm1, 0.0, 1.0),
        (fastmath.tanh, 0.0, 1.0),
        (fastmath.tanh, 40.0, 4 * math.exp(-80)),  # saturated, yet representable: not 0
        (fastmath.sigmoid, 0.0, 0.25),
        (fastmath.sigmoid, -800.0, 0.0),
        (fastmath.erf, 0.0, 2 / math.sqrt(math.pi)),
        (fastmath.gelu, 0.0, 0.5),
        (fastmath.rsqrt, 1.0, -0.5),
        (fastmath.sqrt, 0.0, np.inf),
        (fastmath.softplus, -800.0, 0.0),
        (fastmath.softplus, 800.0, 1.0),
    ],
)
def test_hard_points_of_derivatives(f, x, expected):
    for dtype in (F32, F64):
        with np.errstate(divide="ignore"):
            _, pullback = rrule(f, np.array([x], dtype))
            got = pullback(np.ones(1, dtype))[1][0]
            # exact where the value is (0, 1, 0.5, inf); within a few roundings elsewhere
            rel = 4 * float(np.finfo(dtype).eps)
            assert got == pytest.approx(np.array(expected, dtype), rel=rel)


def test_zero_cotangent_gives_zero_cotangents():
    x = np.ones((2, 3))
    for f in (fastmath.exp, *REDUCTIONS):
        _, pullback = rrule(f, x)
        assert pullback(ZeroTangent()) in ((N, ZeroTangent()), (N, np.zeros_like(x)))


def test_unsupported_keyword_names_function_and_keyword():
    with pytest.raises(TypeError, match=r"logsumexp.*'b'"):
        rrule(fastmath.logsumexp, np.ones(2), b=np.ones(2))


# ---- the factories serve the exact twins as well --------------------------------------------


def twin_softmax(x, axis=None):
    return sc.softmax(x, axis=axis)


def twin_log_softmax(x, axis=None):
    return sc.log_softmax(x, axis=axis)


def twin_logsumexp(x, axis=None, keepdims=False):
    return sc.logsumexp(x, axis=axis, keepdims=keepdims)


# SciPy's functions convert their input to NumPy; through engines.call, the second-order check's
# tracked values reach SciPy's own rules instead, and the factories' pullbacks are recorded.
make_softmax_rules(twin_softmax, lambda x, axis: call(sc.softmax, x, axis=axis))
make_log_softmax_rules(twin_log_softmax, lambda x, axis: call(sc.log_softmax, x, axis=axis))
make_logsumexp_rules(
    twin_logsumexp, lambda x, axis, keepdims: call(sc.logsumexp, x, axis, keepdims=keepdims)
)


@pytest.mark.parametrize("f", [twin_softmax, twin_log_softmax, twin_logsumexp])
def test_factories_instantiate_the_twins_rules(f):
    x = np.linspace(-1, 1, 6).reshape(2, 3)
    test_rrule(f, x, fkwargs={"axis": 1}, seed=0)
    test_frule(f, x, fkwargs={"axis": 1}, seed=0)


# ---- the engines: rules instead of bit tricks -----------------------------------------------


def bit_trick_exp(x):
    """exp as people write it fast: a polynomial for 2**f and the exponent added to its bits."""
    t = x * np.float32(1 / math.log(2))
    k = np.rint(t)
    f = (t - k) * np.float32(math.log(2))
    p = 1 + f * (1 + f * (0.5 + f * (1 / 6 + f / 24)))
    bits = p.view(np.int32) + (k.astype(np.int32) << 23)
    return bits.view(np.float32)


def schraudolph_exp(x):
    """Schraudolph's exp: a scaled and shifted float cast to int, its bits read as a float."""
    return (
        (np.float32(2**23 / math.log(2)) * x + np.float32(127 * 2**23))
        .astype(np.int32)
        .view(np.float32)
    )


X32 = np.array([0.5, 1.0, -0.25], F32)


def test_bit_trick_exp_works_and_the_reverse_engine_refuses_it():
    np.testing.assert_allclose(bit_trick_exp(X32), np.exp(X32), rtol=1e-3)
    with pytest.raises(TrackingError, match=r"reinterprets the bits of a float"):
        reverse.grad(lambda x: np.sum(bit_trick_exp(x)))(X32)


def test_bit_trick_exp_and_the_forward_engine_refuses_it():
    with pytest.raises(TrackingError, match=r"reinterprets the bits of a float"):
        forward.jvp(bit_trick_exp, (X32,), (np.ones(3, F32),))


@pytest.mark.parametrize("engine", ["reverse", "forward"])
def test_schraudolph_exp_is_refused_by_the_engines(engine):
    np.testing.assert_allclose(schraudolph_exp(X32), np.exp(X32), rtol=0.07)
    with pytest.raises(TrackingError, match=r"as the bits of a float"):
        if engine == "reverse":
            reverse.grad(lambda x: np.sum(schraudolph_exp(x)))(X32)
        else:
            forward.jvp(schraudolph_exp, (X32,), (np.ones(3, F32),))


def first_of_softmax(x):
    e = fastmath.exp(x - np.max(x))
    return (e / np.sum(e))[0]


@pytest.mark.parametrize("dtype", [F32, F64], ids=["float32", "float64"])
def test_first_of_softmax_through_fastmath_exp_matches_the_exact_gradient(dtype):
    x = np.array([0.3, -1.2, 2.0, 0.5], dtype)
    s = sc.softmax(x.astype(F64))
    exact = s[0] * ((np.arange(4) == 0) - s)
    stated = max(ACCURACY["exp"][dtype].max_relative, np.finfo(dtype).eps)
    by_reverse = reverse.grad(first_of_softmax)(x)
    by_forward = np.array(
        [forward.jvp(first_of_softmax, (x,), (e,))[1] for e in np.eye(4, dtype=dtype)]
    )
    for g in (by_reverse, by_forward):
        assert g.dtype == dtype
        # softmax's gradient is a few products of exp's outputs: a few times exp's error
        np.testing.assert_allclose(g, exact, rtol=0, atol=8 * stated * np.max(np.abs(exact)))
    h = 1e-6
    fd = [
        (first_of_softmax(x.astype(F64) + h * e) - first_of_softmax(x.astype(F64) - h * e))
        / (2 * h)
        for e in np.eye(4)
    ]
    np.testing.assert_allclose(by_reverse, fd, rtol=0, atol=1e-3 if dtype is F32 else 1e-8)


def test_fastmath_softmax_and_logsumexp_through_the_engines():
    x = np.array([0.3, -1.2, 2.0, 0.5])
    s = sc.softmax(x)
    np.testing.assert_allclose(
        reverse.grad(lambda v: fastmath.softmax(v)[0])(x),
        s[0] * ((np.arange(4) == 0) - s),
        rtol=1e-13,
    )
    np.testing.assert_allclose(reverse.grad(fastmath.logsumexp)(x), s, rtol=1e-13)
    np.testing.assert_allclose(
        forward.jvp(fastmath.logsumexp, (x,), (np.ones(4),))[1], 1.0, rtol=1e-13
    )
