"""Dask arrays in the core: recognised, never computed by a rule, refused by name."""

import numpy as np
import pytest

da = pytest.importorskip("dask.array")

import dask  # noqa: E402
import scipy.linalg  # noqa: E402
from chainrules_testing.lazy import nothing_computes  # noqa: E402

import chainrules as cr  # noqa: E402
from chainrules.core.calls import call  # noqa: E402
from chainrules.core.lazy import (  # noqa: E402
    computation_refused,
    is_lazy,
    lazily,
    lazy_like,
    per_chunk,
)
from chainrules.core.namespace import array_namespace, require_numpy  # noqa: E402


@pytest.fixture
def x():
    return da.from_array(np.linspace(0.1, 1.2, 12).reshape(6, 2), chunks=(2, 2))


def test_dask_arrays_are_lazy_and_nothing_else_is(x):
    assert is_lazy(x) and is_lazy(x.sum())
    assert not any(map(is_lazy, (np.ones(2), 1.0, [x], np.float64(1.0))))


def test_require_numpy_refuses_dask_arrays_naming_the_function(x):
    with pytest.raises(cr.ArrayTypeError, match=r"scipy\.linalg\._matfuncs\.expm|expm.*dask"):
        require_numpy(scipy.linalg.expm, x)


def test_call_runs_what_dask_implements_lazily_and_refuses_the_rest(x):
    with nothing_computes():
        total = call(np.sum, x, 0)
        with pytest.raises(cr.LazyArrayError, match=r"expm computed a dask array"):
            call(scipy.linalg.expm, x[:2])
    assert is_lazy(total)
    # dask adds the chunks' sums, NumPy the elements: the last bit may differ
    np.testing.assert_allclose(total.compute(), np.sum(x.compute(), 0), rtol=1e-15)


def test_a_refused_computation_names_the_culprit_and_the_users_own_runs(x):
    culprit = {"name": "the rule for numpy.median"}
    before = dask.config.get("scheduler", None)  # a cluster's client may be the default
    with computation_refused(lambda: culprit["name"]):
        with pytest.raises(cr.LazyArrayError, match=r"^the rule for numpy\.median computed"):
            x.sum().compute()
        culprit["name"] = None  # the user's own computation: the scheduler in force runs it
        assert float(x.sum().compute()) == pytest.approx(float(np.sum(x.compute())))
    assert dask.config.get("scheduler", None) == before  # left as it was


def test_lazily_names_the_function_for_a_failure_of_dasks_namespace(x):
    def rule(a):
        raise AttributeError("module has no attribute 'cumulative_sum'")

    with pytest.raises(cr.LazyArrayError, match=r"the rule for numpy\.cumsum cannot run on dask"):
        lazily(np.cumsum, rule, (x,), {})


def test_rules_given_dask_arrays_raise_rather_than_compute(x):
    with nothing_computes(), pytest.raises(cr.ChainRulesError, match=r"numpy\.linalg\.svd"):
        cr.rrule(np.linalg.svd, x[:4].rechunk((2, 1)), compute_uv=False)


def test_a_numpy_cotangent_of_a_dask_output_becomes_lazy(x):
    with nothing_computes():
        _, pullback = cr.rrule(np.sum, x)
        _, dx = pullback(2.0)
    assert is_lazy(dx) and dx.chunks == x.chunks
    np.testing.assert_array_equal(dx.compute(), np.full(x.shape, 2.0))
    assert lazy_like(x, np.ones(x.shape)).chunks == x.chunks
    assert lazy_like(np.ones(2), np.ones(2)).__class__ is np.ndarray


def test_ufuncs_of_several_outputs_run_chunk_by_chunk_exactly(x):
    with nothing_computes():
        si, ci = per_chunk(scipy.special.sici, (x,), {})
    assert si.chunks == ci.chunks == x.chunks
    expected = scipy.special.sici(x.compute())
    np.testing.assert_array_equal(si.compute(), expected[0])  # the same kernel, chunk by chunk
    np.testing.assert_array_equal(ci.compute(), expected[1])


def test_projection_gives_a_cotangent_the_primals_chunks(x):
    dx = cr.ProjectTo(x)(da.ones(x.shape, chunks=x.shape))
    assert dx.chunks == x.chunks


def test_the_rules_projectors_of_dask_arrays_keep_each_arrays_chunks(x):
    from chainrules.core.projection import projector

    other = da.from_array(np.ones(x.shape), chunks=(3, 1))  # x's shape and dtype, not its chunks
    for _ in range(2):  # the second time, the namespace of dask arrays is known
        array_namespace(x, other)
        assert projector(x)(da.ones(x.shape, chunks=x.shape)).chunks == x.chunks
        assert projector(other)(da.ones(x.shape, chunks=x.shape)).chunks == other.chunks


def test_the_engines_namespace_computes_with_dask_arrays():
    from chainrules.engines.tracked import NAMESPACE

    y = da.ones(3, chunks=1)
    assert array_namespace(y).__name__.startswith("array_api_compat.dask")
    with pytest.raises(TypeError, match="arrays of two libraries meet"):
        array_namespace(y, _Torchlike())
    assert NAMESPACE.takes_dask_arrays


class _Torchlike:
    shape, dtype = (3,), np.float64

    def __array_namespace__(self):
        import types

        return types.SimpleNamespace(__name__="torchlike")
