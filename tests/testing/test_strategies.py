"""The hypothesis strategies keep their promises: domains and matrix structure."""

from __future__ import annotations

import math

import numpy as np
from chainrules_testing import strategies as cst
from hypothesis import given, settings
from hypothesis import strategies as st

FEW = settings(max_examples=25, deadline=None)


@FEW
@given(cst.positive(), cst.open_unit_interval(0.1), cst.reals(-1.0, 1.0))
def test_scalar_domains(p, u, r):
    assert 0.1 <= p <= 10.0 and 0.1 <= u <= 0.9 and -1.0 <= r <= 1.0


@FEW
@given(cst.away_from([math.pi / 2], period=math.pi, margin=0.2))
def test_away_from_periodic_poles(x):
    assert abs(math.cos(x)) >= math.sin(0.2) - 1e-12


@FEW
@given(cst.arrays((2, 3), cst.positive(), dtype=np.float32), cst.arrays(4, dtype=np.complex128))
def test_arrays_have_their_dtype_shape_and_domain(a, z):
    assert a.dtype == np.float32 and a.shape == (2, 3) and np.all(a > 0)
    assert z.dtype == np.complex128 and z.shape == (4,)


@FEW
@given(cst.well_conditioned(st.integers(1, 4), condition=20.0))
def test_well_conditioned_matrices(a):
    assert np.linalg.cond(a) <= 20.0 * (1 + 1e-8)


@FEW
@given(cst.spd(3), cst.spd(2, dtype=np.complex128))
def test_spd_matrices(a, h):
    for m in (a, h):
        assert np.allclose(m, m.conj().T) and np.all(np.linalg.eigvalsh(m) > 0.4)


@FEW
@given(cst.distinct_eigenvalues(4, gap=0.3))
def test_distinct_eigenvalues(a):
    assert np.allclose(a, a.T) and np.min(np.diff(np.linalg.eigvalsh(a))) >= 0.3 - 1e-9


@FEW
@given(cst.distinct_singular_values(3, 5, gap=0.2))
def test_distinct_singular_values(a):
    s = np.linalg.svd(a, compute_uv=False)
    assert a.shape == (3, 5) and np.min(-np.diff(s)) >= 0.2 - 1e-9 and s[-1] >= 0.2 - 1e-9
