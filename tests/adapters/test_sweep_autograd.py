"""The whole rule table through autograd: ``check_grads`` of every swept function, to second order.

Each function of ``sweep.swept_functions()`` is wrapped by ``chainrules.adapters.autograd.wrap``
(a primitive whose VJP and JVP run the rules on the host, so functions autograd itself does not
know are reached too) and checked by autograd's own ``check_grads`` on its float64 sample, in
reverse and forward mode. A ``Limit`` for autograd is checked strictly: the order after it must
fail. Integer and boolean outputs (pivots, ranks, flags) have no derivative and are left out.
What passed is noted for the coverage report's autograd column.
"""

import numpy as np
import pytest
import scipy.special as sc

autograd = pytest.importorskip("autograd")

from autograd import test_util  # noqa: E402
from autograd.builtins import tuple as ag_tuple  # noqa: E402
from autograd.test_util import check_grads  # noqa: E402
from autograd.tracer import getval  # noqa: E402
from sweep import SAMPLES, check_to_limit, sample_call, swept_functions  # noqa: E402

from chainrules.adapters import autograd as cr_autograd  # noqa: E402
from chainrules.core.names import function_name  # noqa: E402

ENGINE = "autograd"
SWEPT = swept_functions()

# SciPy's own quadratures in ellip_harm_2 and ellip_normal warn of roundoff at 1e-10 or so.
pytestmark = pytest.mark.filterwarnings("ignore::scipy.integrate.IntegrationWarning")

# check_grads compares with central differences of step 1e-6 at a relative tolerance of 1e-6:
# steep functions (derivatives in the hundreds at their samples, or SciPy values accurate to
# 1e-9 only, as the spheroidal functions' are) need 1e-4.
STEEP = 1e-4
TOLERANCES = {
    sc.ncfdtrinc: STEEP,
    sc.obl_rad2_cv: STEEP,
    sc.pro_rad2_cv: STEEP,
    sc.ncfdtridfd: STEEP,
}


@pytest.fixture(autouse=True)
def seeded(request, monkeypatch):
    """check_grads draws its directions from NumPy's global generator: a fixed seed per test,
    the caller's state restored afterwards; and the tolerance of the function swept."""
    state = np.random.get_state()
    np.random.seed(0)
    f = request.node.callspec.params.get("f") if hasattr(request.node, "callspec") else None
    tolerance = TOLERANCES.get(f)
    if tolerance is not None:
        monkeypatch.setattr(test_util, "TOL", tolerance)
        monkeypatch.setattr(test_util, "RTOL", tolerance)
    yield
    np.random.set_state(state)


def autograd_call(f):
    """The sample of ``f`` as a function of its differentiated arrays, and those arrays."""
    call, leaves = sample_call(f, cr_autograd.wrap)

    def run(*arrays):
        y = call(*arrays)
        if isinstance(getval(y), tuple | list):  # the float and complex results (not flags)
            return ag_tuple(y[i] for i, o in enumerate(getval(y)) if _inexact(o))
        return y

    # autograd hands a function the numbers it was given: SciPy's functions of scalars take
    # NumPy's float64, not the 0-d arrays that the other engines' values become.
    return run, tuple(a[()] if a.ndim == 0 else a for a in leaves)


def _inexact(value) -> bool:
    return np.asarray(value).dtype.kind in "fc"


def test_every_swept_function_has_a_sample():
    missing = [function_name(f) for f in SWEPT if f not in SAMPLES]
    assert not missing, f"functions with rules but no sweep sample: {', '.join(missing)}"


@pytest.mark.parametrize("f", SWEPT, ids=function_name)
def test_second_order(f):
    if f not in SAMPLES:
        pytest.fail(f"{function_name(f)} has no sweep sample")
    run, arrays = autograd_call(f)

    def check(order):  # in every differentiated argument at once (argnum is 0 by default)
        every = tuple(range(len(arrays)))
        check_grads(run, argnum=every, modes=["fwd", "rev"], order=order)(*arrays)

    def reaches(order):
        try:
            check(order)
        except Exception:  # an error of the rules, of SciPy or of autograd, or other values
            return False
        return True

    check_to_limit(f, ENGINE, check, reaches)
