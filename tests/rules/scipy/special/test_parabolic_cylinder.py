"""Tests of the rules for the parabolic cylinder functions pbdv, pbvv and pbwa."""

import mpmath
import pytest
import scipy.special as sc
from samples import Row, cases, table_tests

import chainrules as cr
from chainrules import NoTangent, ZeroTangent
from chainrules.engines import reverse

XI = (0.5, 4.5)
ORDER = (-1.7, 2.6)

ROWS = [
    # SciPy's float32 loops of pbdv and pbvv are NaN at negative orders: float64 only there.
    *(Row(f, (ORDER, XI), float32=False) for f in (sc.pbdv, sc.pbvv)),
    Row(sc.pbdv, (ORDER, (-3.0, -0.5)), float32=False, shapes=(((3,), (3,)),)),
    *(Row(f, ((0, 3), XI), integer=(0,)) for f in (sc.pbdv, sc.pbvv)),
    Row(sc.pbwa, ((-2.0, 2.0), (-3.0, 3.0))),
]
CASES = cases(ROWS)

test_rrule_special_more, test_frule_special_more = table_tests(CASES)


# ---- hard points and exact values -----------------------------------------------------------


def test_weber_equation():
    # (w, w') = pbdv(v, x): w' is SciPy's second output, w'' = (x^2/4 - v - 1/2) w.
    v, x = 1.3, 0.8
    (w, wp), pullback = cr.rrule(sc.pbdv, v, x)
    assert pullback((1.0, ZeroTangent()))[2] == wp
    assert pullback((ZeroTangent(), 1.0))[2] == pytest.approx((x * x / 4 - v - 0.5) * w)
    assert isinstance(pullback((1.0, 0.0))[1], cr.Thunk)
    assert cr.rrule(sc.pbdv, 2, x)[1]((1.0, 0.0))[1] is NoTangent()


TWINS = {
    sc.pbdv: lambda v, x: mpmath.pcfd(v, x),
    sc.pbvv: lambda v, x: mpmath.pcfv(-v - 0.5, x),
    sc.pbwa: lambda a, x: mpmath.pcfw(a, x),
}


# (function, order, x): the integral (v < 0) and the recurrence (v >= 0) of D, the series of
# V and W, both signs of x; mpmath at 30 digits, computed here
@pytest.mark.parametrize(
    "f, v, x",
    [(sc.pbdv, -1.7, -0.8), (sc.pbdv, 2.5, 3.0), (sc.pbvv, 4.2, -3.0), (sc.pbwa, -1.7, 2.5)],
)
def test_order_derivatives(f, v, x):
    twin = TWINS[f]
    dv = cr.unthunk(cr.rrule(f, v, x)[1]((1.0, ZeroTangent()))[1])
    dvp = cr.unthunk(cr.rrule(f, v, x)[1]((ZeroTangent(), 1.0))[1])
    second = reverse.grad(reverse.grad(lambda v: f(v, x)[0]))(v)
    with mpmath.workdps(30):
        g = lambda a: twin(a, x)
        slope = lambda a: mpmath.diff(lambda t: twin(a, t), x)
        # measured 2e-11 at worst (the recurrence of D at x = -3)
        assert dv == pytest.approx(float(mpmath.diff(g, v)), rel=1e-9)
        assert dvp == pytest.approx(float(mpmath.diff(slope, v)), rel=1e-9)
        assert second == pytest.approx(float(mpmath.diff(g, v, 2)), rel=1e-9)
