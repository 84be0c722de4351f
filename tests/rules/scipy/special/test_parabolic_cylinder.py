"""Tests of the rules for the parabolic cylinder functions pbdv, pbvv and pbwa."""

import pytest
import scipy.special as sc
from samples import Row, cases, table_tests

import chainrules as cr
from chainrules import NoTangent, NotImplementedTangent, ZeroTangent

XI = (0.5, 4.5)
ORDER = (-1.7, 2.6)
WEBER = "the derivative in the order is NotImplementedTangent; second order on integer orders"

ROWS = [
    # SciPy's float32 loops of pbdv and pbvv are NaN at negative orders: float64 only there.
    *(
        Row(f, (ORDER, XI), float32=False, second_order=False, reason=WEBER)
        for f in (sc.pbdv, sc.pbvv)
    ),
    *(Row(f, ((0, 3), XI), integer=(0,)) for f in (sc.pbdv, sc.pbvv)),
    Row(sc.pbwa, ((-2.0, 2.0), (-3.0, 3.0)), second_order=False, reason=WEBER),
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
    assert isinstance(pullback((1.0, 0.0))[1], NotImplementedTangent)
    assert cr.rrule(sc.pbdv, 2, x)[1]((1.0, 0.0))[1] is NoTangent()
    assert isinstance(cr.frule((None, 1.0, 0.0), sc.pbwa, 0.5, x)[1], NotImplementedTangent)
