"""The whole rule table on dask arrays: each rule runs lazily, or refuses naming the function.

Every function of ``sweep.swept_functions()`` is checked on its sample with the differentiated
arrays as dask arrays of two chunks per axis, by the harness's lazy checks
(``chainrules_testing.lazy``): nothing computes while the rrule, its pullback and the frule
run; outputs, cotangents and tangents are dask arrays, the cotangents with their primals'
chunks; computed, they equal the NumPy rule's on the same values. A rule then either

* runs lazily: recorded for the coverage report's dask column as order 1; or
* refuses with a ``ChainRulesError`` (``ArrayTypeError``, ``LazyArrayError``, a
  ``NotImplementedTangent`` where NumPy's values get a derivative) whose message names the
  function, or the function whose rule it uses; recorded as an error, with its reason.

Anything else (a computation, another exception, a wrong value) fails, except the known
defects of ``KNOWN``, strict expected failures. The synchronous scheduler computes here: the
values do not depend on the scheduler, and ``test_engines`` computes on a cluster.
"""

import warnings

import numpy as np
import pytest

pytest.importorskip("dask.array")

import dask.array as da
from chainrules_testing.failures import RuleRaised
from chainrules_testing.lazy import check_lazy_frule, check_lazy_rrule
from chainrules_testing.record import note_engine
from sweep import SAMPLES, differentiated, swept_functions

import chainrules as cr
from chainrules.core.names import function_name

ENGINE = "dask"
SWEPT = [f for f in swept_functions() if f in SAMPLES]

# dask sums chunk by chunk, NumPy pairwise: sums of the samples' few elements differ in the
# last bits, and a cancellation (a pullback's difference of products) can lift that to 1e-12
# of the largest term; linear algebra through dask's blocked algorithms differs more.
RTOL, ATOL = 1e-9, 1e-11

# Known defects on dask arrays, each failing now; strict, so a fix makes its entry fail.
KNOWN: dict[str, str] = {}


def chunked(a):
    """``a`` as a dask array of two chunks along every axis longer than one."""
    return da.from_array(a, chunks=tuple(max(1, (n + 1) // 2) for n in a.shape))


def _names_a_function(f, message):
    """Whether a refusal names ``f``, or the function whose rule ``f``'s uses (an alias:
    ``scipy.linalg.cholesky`` computes with ``numpy.linalg.cholesky``'s rule)."""
    return function_name(f) in message or any(
        f"the {what} for " in message for what in ("rule", "pullback", "frule")
    )


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
    leaves, rebuild = differentiated(sample.args(np.random.default_rng(0)))
    lazy_args = rebuild([chunked(a) for a in leaves])
    try:
        check_lazy_rrule(f, lazy_args, sample.kwargs, 0, RTOL, ATOL)
        check_lazy_frule(f, lazy_args, sample.kwargs, 0, RTOL, ATOL)
    except RuleRaised as failure:
        refusal = failure.__cause__
        if not isinstance(refusal, cr.ChainRulesError):
            raise
        message = str(refusal)
        assert _names_a_function(f, message), f"{name} refused dask arrays unnamed: {message}"
        # The function's name left out, so that refusals for one reason share one note.
        reason = f"{type(refusal).__name__}: {message}".split("\n")[0]
        note_engine(name, ENGINE, 0, reason.replace(name, "the function")[:300])
        return
    note_engine(name, ENGINE, 1)
