"""The rules of the ufuncs of one and two inputs at the edges of the floats.

At every combination of ``edge_sweep.EDGES`` (tiny, huge, zero and infinite arguments of
either sign) each rule must give its cotangents without an exception, and no NaN cotangent
where the function's value and a central difference in that argument are finite (see
``tests/support/edge_sweep.py``, which also runs as a script and times each call). The
functions below are left out, each with its reason; a NaN that is settled as right, or an
open one, is allowed for the functions of ``OPEN`` only, and the test fails when such a
function has none left, so that the list only shrinks.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.special as sc
from edge_sweep import findings, registered_ufuncs, sweepable

import chainrules as cr

# SciPy's own values take seconds at the grid's huge orders and degrees (yn(1e8, x) about
# 1 s, its neighbours n +- 1 with it; Mathieu's characteristic values minutes): the sweep
# of each would take minutes. They are swept by the script.
SLOW_IN_SCIPY = frozenset(
    "mathieu_a mathieu_b yn yv yve struve modstruve stdtr stdtrit eval_laguerre".split()
)

# NaN cotangents classified and left, each with where and why.
_ORDER_AT_NEGATIVE_X = (
    "the order derivative at x < 0 or at x = 0 with a huge order: the function is real there "
    "at integer orders only (NaN or infinite between them), so no real derivative in the order"
)
_TINY_DEGREE = (
    "a tiny degree that is not an integer, at x < -1 (x < 0 for the shifted ones): the "
    "function is complex there (SciPy's value 1 is its real part), so NaN, as documented"
)
OPEN: dict[str, str] = {
    "jv": _ORDER_AT_NEGATIVE_X,
    "jve": _ORDER_AT_NEGATIVE_X,
    "iv": _ORDER_AT_NEGATIVE_X,
    "ive": _ORDER_AT_NEGATIVE_X,
    **dict.fromkeys(
        "eval_chebyt eval_chebyu eval_chebyc eval_chebys eval_legendre eval_sh_chebyt "
        "eval_sh_chebyu eval_sh_legendre".split(),
        _TINY_DEGREE,
    ),
    "poch": "z a non-positive integer: poch(z, m) is 0 at every non-integer m and not at the "
    "integers, so no derivative in m",
    "powm1": "x < 0 at a huge (even integer) exponent: real only at integer exponents",
    "owens_t": "h = 0 at a = +-inf, where T(h, inf) = erfc(|h| / sqrt 2) / 4 has a corner",
    "pdtrik": "SciPy's bound 0 for k where no k solves pdtr(k, m) = p",
    "stdtridf": "SciPy's bounds of its search for df (1e10, -1e100), not solutions",
    "inv_boxcox1p": "lambda = 1e-300: SciPy's value is y itself (inv_boxcox1p(-2.5, 1e-300) "
    "= -2.5, where the limit is expm1(-2.5))",
    **dict.fromkeys(
        ["chdtri", "gammainccinv"],
        "shape 0, a point mass at 0: SciPy's value 0 for every p, the p-derivative divides by "
        "a density that is 0 there",
    ),
    "chdtriv": "p = 1 at x >= 1e4: the x-derivative of v = 0, where chdtr's v-derivative "
    "-E1(x/2)/2 underflows",
}


def _swept(inputs: int) -> list[Any]:
    return [
        f
        for f in registered_ufuncs()
        if f.nin == inputs and sweepable(f) and f.__name__ not in SLOW_IN_SCIPY
    ]


def _check(f: Any) -> None:
    found = [line for line in findings(f) if not line.startswith("SLOW")]
    if f.__name__ in OPEN:
        assert any(line.startswith("NAN") for line in found), (
            f"{f.__name__} has no NaN left at the edges: take it out of OPEN"
        )
        found = [line for line in found if not line.startswith("NAN")]
    assert found == []


@pytest.mark.parametrize("f", _swept(1), ids=lambda f: f.__name__)
def test_one_input(f: Any) -> None:
    _check(f)


# SciPy's hyp0f1 reports a ZeroDivisionError of its own asymptotic form, which it catches
# (Python's "Exception ignored"), at some points of the grid, in its own calls too
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize("f", _swept(2), ids=lambda f: f.__name__)
def test_two_inputs(f: Any) -> None:
    _check(f)


# ---- the comparison with central differences: what it flags and what it leaves --------------


def _scaled_rule(factor: float) -> Any:
    """``chainrules.rrule`` with its cotangents scaled by ``factor``: a wrong rule."""

    def rule(f: Any, *args: Any) -> Any:
        y, pullback = cr.rrule(f, *args)
        return y, lambda dy: tuple(c if i == 0 else factor * c for i, c in enumerate(pullback(dy)))

    return rule


def test_comparison_flags_a_derivative_two_percent_off():
    found = list(findings(np.sin, [0.3, 30.0], compare=True, rule=_scaled_rule(1.02)))
    assert [line.split()[:2] for line in found] == [
        ["WRONG", "sin(0.3,)"],
        ["WRONG", "sin(30.0,)"],
    ]
    assert list(findings(np.sin, [0.3, 30.0], compare=True)) == []


def test_comparison_leaves_differences_not_to_be_trusted():
    # jv's order derivative at v = 1e-300 is -690.9 at x = 1e-300, but a step of v there is
    # below the value's rounding (the difference is 0); abs has a kink at 0; floor jumps at 1
    assert [line for line in findings(sc.jv, [1e-300], compare=True)] == []
    assert list(findings(np.abs, [0.0], compare=True, rule=_scaled_rule(3.0))) == []
    assert list(findings(np.floor, [1.0], compare=True, rule=_scaled_rule(3.0))) == []
