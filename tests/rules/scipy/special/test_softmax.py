"""Tests of the rules for logsumexp, softmax and log_softmax: axes, weights, signs, keepdims."""

import numpy as np
import pytest
import scipy.special as sc
from chainrules_testing import test_frule, test_rrule, with_tangent

import chainrules as cr
from chainrules import NoTangent, ZeroTangent

RNG = np.random.default_rng(7)
A = RNG.standard_normal((2, 3))
A32 = A.astype(np.float32)
Z = A + 1j * RNG.standard_normal((2, 3))
W = np.array([0.5, 0.0, 2.0])  # a zero weight

# (function, positional arguments, keywords); None marks an argument without tangent.
CASES = [
    (sc.logsumexp, (A,), {}),
    (sc.logsumexp, (A,), {"axis": 1}),
    (sc.logsumexp, (A,), {"axis": 0, "keepdims": True}),
    (sc.logsumexp, (A,), {"axis": (0, 1)}),
    (sc.logsumexp, (A32,), {"axis": 1}),
    (sc.logsumexp, (Z,), {"axis": 1}),
    (sc.logsumexp, (A[0, 0],), {}),
    (sc.logsumexp, (A, 1, W), {}),
    (sc.logsumexp, (A, None, np.array([[0.5], [3.0]])), {}),
    (sc.logsumexp, (A, 1, np.array([1.0, -3.0, 0.5])), {"return_sign": True}),
    (sc.logsumexp, (A, -1, W, True), {}),
    (sc.softmax, (A,), {}),
    (sc.softmax, (A,), {"axis": 1}),
    (sc.softmax, (A32,), {"axis": 0}),
    (sc.log_softmax, (A,), {}),
    (sc.log_softmax, (A,), {"axis": 1}),
    (sc.log_softmax, (A32,), {"axis": 0}),
]


def arguments(args):
    # axis and keepdims passed positionally have no tangent
    return [
        a if isinstance(a, np.ndarray | np.generic) else with_tangent(a, NoTangent()) for a in args
    ]


def case_id(case):
    f, args, kwargs = case
    dtypes = "-".join(np.asarray(a).dtype.name for a in args if isinstance(a, np.ndarray))
    return f"{f.__name__}-{dtypes}-{len(args)}-{'-'.join(f'{k}={v}' for k, v in kwargs.items())}"


def second_order(args):
    """Second derivatives through the reference engine, for the float64 arrays."""
    return all(np.asarray(a).dtype == np.float64 for a in args if isinstance(a, np.ndarray))


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_rrule_softmax(case):
    f, args, kwargs = case
    test_rrule(f, *arguments(args), fkwargs=kwargs, check_second_order=second_order(args))


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_frule_softmax(case):
    f, args, kwargs = case
    test_frule(f, *arguments(args), fkwargs=kwargs, check_second_order=second_order(args))


# ---- hard points ----------------------------------------------------------------------------


def test_logsumexp_gradient_is_softmax():
    a = np.log(np.array([1.0, 3.0]))
    np.testing.assert_allclose(cr.rrule(sc.logsumexp, a)[1](1.0)[1], [0.25, 0.75])


def test_logsumexp_zero_weights():
    a = np.array([[0.3, -1.0, 2.0]])
    w = np.array([0.5, 0.0, 2.0])
    y, pullback = cr.rrule(sc.logsumexp, a, 1, w)
    _, da, _, db = pullback(np.ones(1))
    assert da[0, 1] == 0.0
    np.testing.assert_allclose(db, np.exp(a[0] - y[0]))
    # Every weight zero: y = -inf, no term depends on a.
    with np.errstate(divide="ignore"):
        y, pullback = cr.rrule(sc.logsumexp, a, 1, np.zeros(3))
    assert y[0] == -np.inf
    np.testing.assert_array_equal(pullback(np.ones(1))[1], np.zeros((1, 3)))


def test_logsumexp_keyword_weights_get_no_cotangent():
    _, pullback = cr.rrule(sc.logsumexp, A, b=W, axis=1)
    cotangents = pullback(np.ones(2))
    assert len(cotangents) == 2
    y = sc.logsumexp(A, axis=1, b=W)
    np.testing.assert_allclose(cotangents[1], W * np.exp(A - y[:, None]))


def test_logsumexp_return_sign():
    w = np.array([1.0, -3.0, 0.5])
    (y, sign), pullback = cr.rrule(sc.logsumexp, A, 1, w, False, True)
    _, da, _, db, _, _ = pullback((np.ones(2), np.ones(2)))
    np.testing.assert_allclose(da, sign[:, None] * w * np.exp(A - y[:, None]))
    np.testing.assert_allclose(db, np.sum(sign[:, None] * np.exp(A - y[:, None]), axis=0))
    _, tangent = cr.frule((NoTangent(), np.ones_like(A)), sc.logsumexp, A, return_sign=True)
    assert tangent[1] is ZeroTangent()


def test_zero_cotangents():
    assert cr.rrule(sc.logsumexp, A)[1](ZeroTangent())[1] is ZeroTangent()
    assert cr.rrule(sc.softmax, A)[1](ZeroTangent())[1] is ZeroTangent()
    assert cr.rrule(sc.log_softmax, A)[1](ZeroTangent())[1] is ZeroTangent()


def test_unsupported_keyword_is_named():
    with pytest.raises(cr.RuleKeywordError, match=r"logsumexp.*axes"):
        cr.rrule(sc.logsumexp, A, axes=0)
