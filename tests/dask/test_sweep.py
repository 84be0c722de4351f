"""The whole rule table on dask arrays: each rule runs lazily, or refuses naming the function.

Every function of ``sweep.swept_functions()`` is called through ``cr.rrule`` and ``cr.frule``
on its sample with the differentiated arrays as chunked dask arrays, while any computation
fails (``lazy_sweep.nothing_computes``). A rule then either

* runs lazily: its value, its pullback's cotangents and its frule's tangent are dask arrays,
  the cotangents with their primals' chunks, and once computed they equal the NumPy rule's on
  the same data; recorded for the coverage report's dask column as order 1; or
* refuses with a ``ChainRulesError`` (``ArrayTypeError``, ``LazyArrayError``) whose message
  names the function; recorded as an error, with the message as the reason.

Anything else (a computation, another exception, a wrong value) fails. The synchronous
scheduler computes here: the values do not depend on the scheduler, and the cluster tests
(``test_engines``) compute on a ``dask.distributed`` cluster. Costs about a minute.
"""

import warnings

import numpy as np
import pytest

pytest.importorskip("dask.array")

import dask.array as da
from chainrules_testing import rand_tangent
from chainrules_testing.compare import assert_tangents_close
from chainrules_testing.record import note_engine
from lazy_sweep import chunked, computed, lazy_leaves, map_arrays, nothing_computes
from sweep import SAMPLES, differentiated, swept_functions

import chainrules as cr
from chainrules.core.names import function_name

ENGINE = "dask"
SWEPT = [f for f in swept_functions() if f in SAMPLES]

# dask sums chunk by chunk, NumPy pairwise: sums of the samples' few elements differ in the
# last bits, and a cancellation (a pullback's difference of products) can lift that to 1e-12
# of the largest term; linear algebra through dask's blocked algorithms differs more.
RTOL, ATOL = 1e-9, 1e-11


def _inexact(value):
    return np.asarray(value).dtype.kind in "fc"


def _like(y, value):
    """``value`` (a NumPy array) as a dask array with ``y``'s chunks when ``y`` is one."""
    return da.from_array(value, chunks=y.chunks) if isinstance(y, da.Array) else value


def _cotangent(y_numpy, y, rng):
    """A random cotangent of the NumPy rule's output, laid out as the dask rule's output."""
    dy = rand_tangent(y_numpy, rng)
    if isinstance(y, da.Array):
        return dy, _like(y, dy)
    return dy, dy


def _check_chunks(name, primals, cotangents):
    for i, (x, dx) in enumerate(zip(primals, cotangents, strict=True)):
        if isinstance(x, da.Array) and isinstance(dx, da.Array):
            assert dx.chunks == x.chunks, (
                f"{name}: the cotangent of argument {i + 1} has chunks {dx.chunks}, its "
                f"primal {x.chunks}"
            )


def _names_a_function(f, message):
    """Whether a refusal names ``f``, or the function whose rule ``f``'s uses (an alias:
    ``scipy.linalg.cholesky`` computes with ``numpy.linalg.cholesky``'s rule)."""
    return function_name(f) in message or any(
        f"the {what} for " in message for what in ("rule", "pullback", "frule")
    )


def _refusal(f, error):
    name = function_name(f)
    message = str(error)
    assert _names_a_function(f, message), f"{name} refused dask arrays unnamed: {message}"
    # The function's name left out, so that refusals for one reason share one note.
    reason = f"{type(error).__name__}: {error}".split("\n")[0].replace(name, "the function")
    note_engine(name, ENGINE, 0, reason[:300])


# Known defects on dask arrays, each failing now; strict, so a fix makes its entry fail.
KNOWN = {
    "numpy.block": "the rule's pullback takes the NumPy cotangent for a dask one (.chunks)",
    "numpy.extract": "the rule slices with a lazy count (the condition's sum), an unknown size",
    "numpy.gradient": "a 1-d dask array's gradient comes back of shape (1, n), NumPy's (n,)",
    "operator.concat": "the rule's pullback takes the NumPy cotangent for a dask one (.chunks)",
    "operator.getitem": "the rule is registered for NumPy's arrays only: dask's get none",
    "scipy.linalg.cholesky_banded": "silently wrong on dask arrays: the band's factor misses "
    "its off-diagonal",
    "scipy.linalg.companion": "the rule assigns a dask row into a NumPy array",
    "scipy.special.ellipj": "its pullback computes (a branch on the data)",
    "scipy.special.itairy": "the derivative calls scipy.special.airy, which dask does not "
    "apply: an unnamed TypeError",
}


@pytest.fixture(autouse=True)
def known(request):
    f = request.node.callspec.params["f"] if hasattr(request.node, "callspec") else None
    reason = KNOWN.get(function_name(f)) if f is not None else None
    if reason is not None:
        request.applymarker(pytest.mark.xfail(reason=reason, strict=True))


@pytest.fixture(autouse=True)
def quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the samples' domain warnings, as in the other sweeps
        yield


@pytest.mark.parametrize("f", SWEPT, ids=function_name)
def test_lazy_or_refused(f):
    name = function_name(f)
    sample = SAMPLES[f]
    drawn = sample.args(np.random.default_rng(0))
    leaves, rebuild = differentiated(drawn)
    lazy_args = rebuild([chunked(a) for a in leaves])
    # SciPy's functions of scalars take NumPy's numbers, not 0-d arrays
    args = rebuild([a[()] if a.ndim == 0 else a for a in leaves])
    y_numpy, pullback_numpy = cr.rrule(f, *args, **sample.kwargs)
    rng = np.random.default_rng(1)
    (dy_numpy,) = map_arrays(lambda a: a, (rand_tangent(y_numpy, rng),))
    tangents_numpy = tuple(rand_tangent(a, rng) for a in args)
    try:
        with nothing_computes():
            result = cr.rrule(f, *lazy_args, **sample.kwargs)
            assert result is not None, f"{name} has no rule for dask arrays"
            y, pullback = result
            dy = _like(y, dy_numpy) if isinstance(dy_numpy, np.ndarray) else dy_numpy
            cotangents = pullback(dy)
            tangents = tuple(
                _like(a, t) if isinstance(a, da.Array) else t
                for a, t in zip(lazy_args, tangents_numpy, strict=True)
            )
            y_forward, dy_forward = cr.frule(
                (cr.NoTangent(), *tangents), f, *lazy_args, **sample.kwargs
            )
    except cr.ChainRulesError as error:
        _refusal(f, error)
        return
    refused = [t for t in (*cotangents, dy_forward) if isinstance(t, cr.NotImplementedTangent)]
    if refused:  # a derivative computed numerically on NumPy values only
        _refusal(f, cr.ChainRulesError(f"the rule for {name}: {refused[0].info}"))
        return
    assert lazy_leaves((y, cotangents[1:], dy_forward)), f"{name}: nothing lazy came back"
    _check_chunks(name, lazy_args, cotangents[1:])
    expected_cotangents = pullback_numpy(dy_numpy)
    _, expected_dy = cr.frule((cr.NoTangent(), *tangents_numpy), f, *args, **sample.kwargs)
    kw = {"rtol": RTOL, "atol": ATOL}
    assert_tangents_close(computed(y), y_numpy, path=f"{name}(...)", **kw)
    assert_tangents_close(computed(y_forward), y_numpy, path=f"{name}(...) of the frule", **kw)
    for i, (actual, expected) in enumerate(
        zip(computed(cotangents), expected_cotangents, strict=True)
    ):
        assert_tangents_close(actual, expected, path=f"cotangent {i}", **kw)
    assert_tangents_close(computed(dy_forward), expected_dy, path="tangent", **kw)
    note_engine(name, ENGINE, 1)
