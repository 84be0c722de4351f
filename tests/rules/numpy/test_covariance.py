"""Tests of the rules for cov and corrcoef."""

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule
from samples import uniform as sample

import chainrules as cr
from chainrules import NoTangent, ZeroTangent

M = sample((3, 6), seed=2)
Y = sample((2, 6), seed=3)
COVARIANCES = [
    # args, keywords
    ((M,), {}),
    ((M, Y), {}),
    ((M.T,), {"rowvar": False}),
    ((M[0], M[1]), {}),
    ((M[0],), {}),
    ((M.T, Y.T, False), {}),
]


@pytest.mark.parametrize("f", [np.cov, np.corrcoef], ids=lambda f: f.__name__)
@pytest.mark.parametrize("args, kwargs", COVARIANCES, ids=range(len(COVARIANCES)))
def test_covariance(f, args, kwargs):
    test_rrule(f, *args, fkwargs=kwargs)
    test_frule(f, *args, fkwargs=kwargs)


@pytest.mark.parametrize(
    "kwargs", [{"bias": True}, {"ddof": 0}, {"ddof": 2}, {"dtype": np.float64}]
)
def test_cov_keywords(kwargs):
    m = M.astype(np.float32) if "dtype" in kwargs else M
    test_rrule(np.cov, m, fkwargs=kwargs)
    test_frule(np.cov, m, fkwargs=kwargs)


FREQUENCIES = np.array([1, 2, 1, 3, 1, 2])
ANALYTIC = sample(6, seed=6, low=0.5, high=1.5)
WEIGHTED_COVARIANCES = [
    # positional arguments after the data, keywords; aweights by position get a cotangent
    ((None, True, False, None, FREQUENCIES), {}),
    ((None, True, False, None, None, ANALYTIC), {}),
    ((None, True, False, None, FREQUENCIES, ANALYTIC), {}),
    ((None, True, False, 0, FREQUENCIES, ANALYTIC), {}),
    ((None, True, True, None, None, ANALYTIC), {}),
    ((None, True, False, 2, FREQUENCIES, ANALYTIC), {}),
    ((Y,), {"fweights": FREQUENCIES, "aweights": ANALYTIC}),
    ((), {"aweights": ANALYTIC, "ddof": 0}),
]


@pytest.mark.parametrize("args, kwargs", WEIGHTED_COVARIANCES, ids=range(len(WEIGHTED_COVARIANCES)))
@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=lambda d: np.dtype(d).name)
def test_cov_weights(args, kwargs, dtype):
    m = M if dtype == np.float64 else M + 1j * sample((3, 6), seed=7)
    test_rrule(np.cov, m, *args, fkwargs=kwargs)
    test_frule(np.cov, m, *args, fkwargs=kwargs)


def test_cov_frequency_weights_repeat_observations():
    # A frequency weight of k counts an observation k times.
    repeated = np.repeat(M, FREQUENCIES, axis=1)
    dc = sample((3, 3), seed=8)
    c, pullback = cr.rrule(np.cov, M, fweights=FREQUENCIES)
    c_repeated, pullback_repeated = cr.rrule(np.cov, repeated)
    np.testing.assert_allclose(c, c_repeated)
    dm = pullback_repeated(dc)[1]
    summed = np.add.reduceat(dm, np.cumsum(FREQUENCIES) - FREQUENCIES, axis=1)
    np.testing.assert_allclose(pullback(dc)[1], summed)


def test_cov_analytic_weights_values():
    # One variable, ddof=0: C = sum(v (x - mu)^2) / sum(v) with mu = sum(v x) / sum(v).
    x, v = np.array([0.0, 2.0]), np.array([1.0, 3.0])
    c, pullback = cr.rrule(np.cov, x, None, True, False, 0, None, v)
    assert c == 0.75  # mu = 1.5
    cotangents = pullback(1.0)
    # dC/dx_k = 2 v_k (x_k - mu) / sum(v); dC/dv_k = ((x_k - mu)^2 - C) / sum(v).
    np.testing.assert_allclose(cotangents[1], [-0.75, 0.75])
    np.testing.assert_allclose(cotangents[7], [(2.25 - 0.75) / 4, (0.25 - 0.75) / 4])
    assert cotangents[2:7] == (NoTangent(),) * 5


@pytest.mark.parametrize("f", [np.cov, np.corrcoef], ids=lambda f: f.__name__)
def test_covariance_complex(f):
    z = M + 1j * sample((3, 6), seed=4)
    test_rrule(f, z)
    test_frule(f, z)


def test_corrcoef_single_variable_is_constant():
    _, pullback = cr.rrule(np.corrcoef, M[0])
    assert pullback(1.0) == (NoTangent(), ZeroTangent())


SECOND_ORDER = [
    (np.cov, (M,), {}),
    (np.corrcoef, (M, Y), {}),
    (np.cov, (M, None, True, False, 1, FREQUENCIES, ANALYTIC), {}),
]


@pytest.mark.parametrize("f, args, kwargs", SECOND_ORDER, ids=lambda v: getattr(v, "__name__", ""))
def test_second_order(f, args, kwargs):
    test_rrule(f, *args, fkwargs=kwargs, check_second_order=True)
    test_frule(f, *args, fkwargs=kwargs, check_second_order=True)


def test_float32_analytic_weights_keep_float64_precision():
    # NumPy computes with the weights as float64; so do the rules (float32 weights once cost
    # the derivatives with respect to m their last eight digits).
    m = np.random.default_rng(4).uniform(-1.0, 1.0, (2, 3))
    w = np.array([0.5, 1.0, 2.0], dtype=np.float32)
    for kwargs in ({"aweights": w}, {"aweights": w, "ddof": 0}):
        test_rrule(np.cov, m, fkwargs=kwargs)
        test_frule(np.cov, m, fkwargs=kwargs)
    test_rrule(np.cov, m, None, True, False, None, None, w)
