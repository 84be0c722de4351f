"""Tests of the rules for scipy.linalg.qr_multiply, qr_update, qr_insert and qr_delete.

The factorization updates read ``Q`` as unitary and ``R`` as upper triangular, so their
checks move ``Q`` and ``R`` along tangents of factorizations (``Q S`` with ``S``
skew-Hermitian, plus ``(I - Q Q^H) Z`` for an economic ``Q``; upper triangular ``dR``).
Complex updates leave phases on ``R1``'s diagonal that the rules hold fixed: they are checked
on a loss that does not see those phases."""

import numpy as np
import pytest
import scipy.linalg
from chainrules_testing import test_frule, test_rrule, with_tangent
from fdm import central_fdm
from samples import DTYPES, ids, sample

import chainrules as cr

# ---- qr_multiply --------------------------------------------------------------------------

MULTIPLY = [
    ((4, 3), (2, 4), {}),
    ((3, 4), (2, 3), {}),
    ((4, 3), (4,), {}),
    ((4, 3), (3, 2), {"mode": "left"}),
    ((3, 4), (3,), {"mode": "left"}),
    ((4, 3), (2, 4), {"conjugate": True}),
    ((4, 3), (3, 2), {"mode": "left", "conjugate": True}),
    ((4, 3), (2, 4), {"pivoting": True}),
]


@pytest.mark.parametrize("a_shape, c_shape, kwargs", MULTIPLY, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_qr_multiply(dtype, a_shape, c_shape, kwargs):
    a, c = sample(a_shape, dtype), sample(c_shape, dtype, 1)
    test_rrule(scipy.linalg.qr_multiply, a, c, fkwargs=kwargs)
    test_frule(scipy.linalg.qr_multiply, a, c, fkwargs=kwargs)


def test_qr_multiply_left_overwrite_of_a_tall_matrix_has_no_rule():
    with pytest.raises(ValueError, match="complete Q"):
        cr.rrule(scipy.linalg.qr_multiply, sample((4, 2)), sample((4, 1)), "left", overwrite_c=True)


def test_qr_multiply_rules_never_overwrite():
    # SciPy's overwrite_a and overwrite_c let it consume the inputs; the rules never do.
    a, c = sample((3, 3)), sample((2, 3), seed=1)
    a0, c0 = a.copy(), c.copy()
    flags = {"overwrite_a": True, "overwrite_c": True}
    (cq, r), pullback = cr.rrule(scipy.linalg.qr_multiply, a, c, **flags)
    d_cq = cr.frule((cr.NoTangent(), a0, c0), scipy.linalg.qr_multiply, a, c, **flags)[1][0]
    d_cq0 = cr.frule((cr.NoTangent(), a0, c0), scipy.linalg.qr_multiply, a0, c0)[1][0]
    pullback(cr.Tangent(tuple, cq, r))
    np.testing.assert_array_equal(a, a0)
    np.testing.assert_array_equal(c, c0)
    np.testing.assert_allclose(cq, scipy.linalg.qr_multiply(a0, c0)[0])
    np.testing.assert_allclose(d_cq, d_cq0)


def test_qr_multiply_is_the_product_with_q():
    a, c = sample((4, 3)), sample((2, 4), seed=1)
    _, pullback = cr.rrule(scipy.linalg.qr_multiply, a, c)
    g = sample((2, 3), seed=2)
    q = scipy.linalg.qr(a, mode="economic")[0]
    np.testing.assert_allclose(pullback(cr.Tangent(tuple, g, np.zeros((3, 3))))[2], g @ q.T)


# ---- qr_update, qr_insert, qr_delete ------------------------------------------------------


def factorization(shape, dtype, economic, seed=0):
    """``(Q, R)`` of a random matrix, with tangents that keep them a factorization."""
    q, r = scipy.linalg.qr(sample(shape, dtype, seed), mode="economic" if economic else "full")
    s = sample((q.shape[1], q.shape[1]), dtype, seed + 10)
    dq = q @ (s - np.conj(s.T))
    if q.shape[0] > q.shape[1]:
        z = sample(q.shape, dtype, seed + 11)
        dq = dq + z - q @ (np.conj(q.T) @ z)
    dr = np.triu(sample(r.shape, dtype, seed + 12))
    return q, r, dq, dr


# (name, A's shape, economic, the other arguments as functions of the dtype)
CASES = [
    ("update", (4, 4), False, lambda t: (sample((4,), t, 1), sample((4,), t, 2))),
    ("update", (3, 5), False, lambda t: (sample((3,), t, 1), sample((5,), t, 2))),
    ("update", (5, 3), True, lambda t: (sample((5,), t, 1), sample((3,), t, 2))),
    ("update", (4, 4), False, lambda t: (sample((4, 2), t, 1), sample((4, 2), t, 2))),
    ("insert", (3, 5), False, lambda t: (sample((5,), t, 1), 1)),
    ("insert", (2, 5), False, lambda t: (sample((2, 5), t, 1), 0)),
    ("insert", (5, 3), True, lambda t: (sample((3,), t, 1), -1)),
    ("insert", (3, 4), False, lambda t: (sample((3,), t, 1), 2, "col")),
    ("insert", (5, 2), True, lambda t: (sample((5, 2), t, 1), 1, "col")),
    ("delete", (4, 3), False, lambda t: (1,)),
    ("delete", (3, 5), False, lambda t: (0, 2)),
    ("delete", (5, 3), True, lambda t: (4,)),
    ("delete", (3, 5), False, lambda t: (1, 2, "col")),
    ("delete", (5, 3), True, lambda t: (0, 1, "col")),
]

FUNCTIONS = {
    "update": scipy.linalg.qr_update,
    "insert": scipy.linalg.qr_insert,
    "delete": scipy.linalg.qr_delete,
}


def case_id(case):
    name, shape, economic, rest = case
    which = "-col" if any(isinstance(x, str) for x in rest(np.float64)) else ""
    return f"{name}{which}-{shape[0]}x{shape[1]}{'-economic' if economic else ''}"


def arguments(case, dtype):
    name, shape, economic, rest = case
    q, r, dq, dr = factorization(shape, dtype, economic)
    return FUNCTIONS[name], (q, r, *rest(dtype)), (dq, dr)


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_real_factorization_updates(case):
    f, (q, r, *rest), (dq, dr) = arguments(case, np.float64)
    args = (with_tangent(q, dq), with_tangent(r, dr), *rest)
    test_rrule(f, *args)
    test_frule(f, *args)


def test_full_updates_of_tall_matrices_take_no_cotangent_for_the_last_columns():
    q, r, dq, dr = factorization((3, 3), np.float64, False)
    u = sample((3,), seed=1)
    g = cr.Tangent(tuple, np.hstack([sample((4, 3), seed=2), np.zeros((4, 1))]), sample((4, 3)))
    test_rrule(
        scipy.linalg.qr_insert,
        with_tangent(q, dq),
        with_tangent(r, dr),
        u,
        1,
        output_tangent=g,
    )
    _, pullback = cr.rrule(scipy.linalg.qr_insert, q, r, u, 1)
    with pytest.raises(ValueError, match="not determined"):
        pullback(cr.Tangent(tuple, np.ones((4, 4)), np.zeros((4, 3))))
    with pytest.raises(ValueError, match="not determined"):
        cr.frule((cr.NoTangent(), dq, dr, u, cr.NoTangent()), scipy.linalg.qr_insert, q, r, u, 1)


def gauge_free_loss(q1, r1, w, z):
    """``Re <w, Q1[:, j] (R1 z)_j>``: unchanged by ``Q1 -> Q1 D``, ``R1 -> D^H R1``."""
    k = w.shape[1]
    return np.real(np.sum(np.conj(w) * q1[:, :k] * (r1[:k] @ z)[None, :]))


def gauge_free_cotangent(q1, r1, w, z):
    k = w.shape[1]
    g_q, g_r = np.zeros_like(q1), np.zeros_like(r1)
    g_q[:, :k] = w * np.conj(r1[:k] @ z)[None, :]
    g_r[:k] = np.sum(np.conj(q1[:, :k]) * w, axis=0)[:, None] * np.conj(z)[None, :]
    return cr.Tangent(tuple, g_q, g_r)


def inner(a, b):
    return np.real(np.sum(np.conj(a) * b))


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_updates_on_a_gauge_free_loss(case, dtype):
    f, args, (dq, dr) = arguments(case, dtype)
    tangents = [dq, dr] + [
        sample(np.shape(x), dtype, 20 + i) if isinstance(x, np.ndarray) else None
        for i, x in enumerate(args[2:])
    ]
    (q1, r1), pullback = cr.rrule(f, *args)
    k = min(q1.shape[0], r1.shape[1])
    w, z = sample((q1.shape[0], k), dtype, 30), sample((r1.shape[1],), dtype, 31)

    def along(t):
        moved = [x + t * dx if dx is not None else x for x, dx in zip(args, tangents, strict=True)]
        return gauge_free_loss(*f(*moved), w, z)

    expected = central_fdm(5, 1)(along, 0.0)
    cotangents = pullback(gauge_free_cotangent(q1, r1, w, z))[1:]
    actual = sum(inner(c, t) for c, t in zip(cotangents, tangents, strict=True) if t is not None)
    np.testing.assert_allclose(actual, expected, rtol=1e-7)
    if q1.shape[1] == k:
        frule_tangents = [cr.NoTangent()] + [
            t if t is not None else cr.NoTangent() for t in tangents
        ]
        _, (dq1, dr1) = cr.frule(tuple(frule_tangents), f, *args)
        g = gauge_free_cotangent(q1, r1, w, z)
        np.testing.assert_allclose(inner(g[0], dq1) + inner(g[1], dr1), expected, rtol=1e-7)
