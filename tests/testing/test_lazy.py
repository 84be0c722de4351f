"""test_rrule and test_frule given dask arguments: lazy rules pass, the others fail by name."""

import numpy as np
import pytest

da = pytest.importorskip("dask.array")

from chainrules_testing import RuleRaised, TangentMismatch, test_frule, test_rrule  # noqa: E402
from chainrules_testing.lazy import LazyComputation, NotLazy, computed, has_lazy  # noqa: E402

import chainrules as cr  # noqa: E402


@pytest.fixture
def x():
    return da.from_array(np.linspace(-1.0, 1.0, 8).reshape(4, 2), chunks=(2, 1))


def test_lazy_rules_pass_and_are_checked_on_their_values_too(x):
    test_rrule(np.tanh, x, seed=1)
    test_frule(np.tanh, x, seed=1)
    test_rrule(np.sum, x, fkwargs={"axis": 0}, seed=1)
    test_rrule(np.matmul, x, np.array([0.5, -1.0]), seed=1)
    test_frule(np.mean, x, fkwargs={"axis": 1}, seed=1)


def _sin_rrule(compute=False, eager_cotangent=False, wrong=False):
    def rule(f, x):
        y = np.sin(np.asarray(x) if compute else x)

        def pullback(dy):
            dx = dy * np.cos(x)
            if eager_cotangent:
                dx = np.asarray(dx)
            return cr.NoTangent(), 2 * dx if wrong and not isinstance(x, np.ndarray) else dx

        return y, pullback

    return rule


@pytest.mark.parametrize(
    ("rule", "failure", "message"),
    [
        (_sin_rrule(compute=True), LazyComputation, "computed a dask array while it ran"),
        (_sin_rrule(eager_cotangent=True), LazyComputation, "computed a dask array"),
        (_sin_rrule(wrong=True), TangentMismatch, "differs from the rule's on NumPy arrays"),
    ],
    ids=["computes", "pulls the cotangent in", "wrong on dask"],
)
def test_a_rule_that_is_not_lazy_fails_saying_how(x, rule, failure, message):
    with pytest.raises(failure, match=message):
        test_rrule(np.sin, x, rrule_f=rule, seed=1)


def test_a_numpy_output_for_dask_arguments_is_not_lazy(x):
    def eager(f, x):
        return np.zeros(3), lambda dy: (cr.NoTangent(), cr.ZeroTangent())

    with pytest.raises(NotLazy, match="the output is a ndarray, not a dask array"):
        test_rrule(np.sin, x, rrule_f=eager, seed=1)


def test_a_refusal_is_the_rules_error_chained(x):
    a = da.eye(4, chunks=2) + 0.1
    with pytest.raises(RuleRaised, match=r"numpy\.linalg\.svd") as failure:
        test_rrule(np.linalg.svd, a, fkwargs={"compute_uv": False}, seed=1)
    assert isinstance(failure.value.__cause__, cr.LazyArrayError)


def test_dask_arrays_are_found_inside_lists_and_computed_in_place(x):
    assert has_lazy([1.0, (x,)]) and not has_lazy([1.0, (np.ones(2),)])
    values = computed([1.0, (x,)])
    assert values[0] == 1.0 and isinstance(values[1][0], np.ndarray)
