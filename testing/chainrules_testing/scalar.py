"""``test_scalar``: both rules of a scalar function, at a real point and a complex one.

>>> import numpy as np
>>> test_scalar(np.sin, 0.7, seed=0)
"""

from __future__ import annotations

import cmath
from typing import Any

import numpy as np

import chainrules
from chainrules.core.names import function_name
from chainrules.core.tangents import AbstractZero
from chainrules.core.thunks import unthunk

from .failures import ComplexConventionError, MissingRuleError
from .finite_differences import FDEstimate, directional_derivative, step_scale
from .frule import test_frule
from .report import Context, errors_line
from .rrule import test_rrule
from .seeds import resolve_seed
from .tolerances import FD_ERROR_FACTOR, agree, tolerance_for

__all__ = ["test_scalar"]

# How far from the real axis the complex point lies: far enough that branch cuts on the
# negative real axis (log, sqrt) are not straddled by the finite differences' steps.
COMPLEX_OFFSET = 0.5j
# The cheap estimate of f'(z) is used when it is certain to this relative accuracy, far
# inside both comparisons it feeds (holomorphy to 1e-6, the conj to float64's rtol of 1e-7);
# otherwise numdifftools' adaptive estimate is.
_CERTAIN_RTOL = 1e-9


def test_scalar(
    f: Any,
    x: Any,
    *,
    fkwargs: dict | None = None,
    rtol: float | None = None,
    atol: float | None = None,
    fdm: Any = None,
    check_second_order: bool = True,
    complex_point: Any = None,
    seed: int | None = None,
) -> None:
    """Run ``test_frule`` and ``test_rrule`` for a scalar function of one argument.

    A real ``x`` is tested at ``x`` and, when ``f`` accepts complex input, at the complex
    point ``x + 0.5j`` (or ``complex_point``; ``complex_point=False`` skips it); a complex
    ``x`` only at ``x``. At a complex point where ``f`` is holomorphic (finite differences
    along 1 and along i agree: ``df/d(iy) = i df/dx``) the pullback must follow the
    convention of ``chainrules``: ``pullback(dy) = conj(f'(z)) * dy``, checked on its own so
    that a missing ``conj`` is named as such.
    """
    seed = resolve_seed(seed)
    fkwargs = dict(fkwargs or {})
    points = [x]
    if not isinstance(x, complex) and complex_point is not False:
        z = complex(x) + COMPLEX_OFFSET if complex_point is None else complex(complex_point)
        if _accepts_complex(f, z, fkwargs):
            points.append(z)
    options = dict(fkwargs=fkwargs, rtol=rtol, atol=atol, fdm=fdm, seed=seed)
    for point in points:
        if isinstance(point, complex):
            _check_holomorphic_convention(f, point, fkwargs, seed, rtol, atol)
        test_frule(f, point, check_second_order=check_second_order, **options)
        test_rrule(f, point, check_second_order=check_second_order, **options)


test_scalar.__test__ = False  # type: ignore[attr-defined]


def _accepts_complex(f: Any, z: complex, fkwargs: dict) -> bool:
    try:
        with np.errstate(all="ignore"):
            y = f(z, **fkwargs)
    except (TypeError, ValueError, ArithmeticError):
        return False
    try:
        return bool(np.all(np.isfinite(y)))
    except TypeError:
        return False


def _complex_derivative(f: Any, z: complex, direction: complex, fkwargs: dict) -> tuple:
    # Steps relative to |z| where it is tiny or huge: a step of 1 is rounded away from 1e300.
    size = float(step_scale(z))
    direction = direction * size

    def g(t: float) -> np.ndarray:
        value = complex(f(z + t * direction, **fkwargs))
        return np.array([value.real, value.imag])

    estimate = directional_derivative(g, settles=_certain)
    value = complex(estimate.value[0], estimate.value[1]) / size
    return value, float(np.hypot(*estimate.error)) / size


def _certain(estimate: FDEstimate) -> bool:
    error, value = np.hypot(*estimate.error), np.hypot(*estimate.value)
    return bool(FD_ERROR_FACTOR * error <= _CERTAIN_RTOL * value)


def _check_holomorphic_convention(
    f: Any, z: complex, fkwargs: dict, seed: int, rtol: Any, atol: Any
) -> None:
    ctx = Context("test_scalar", function_name(f), seed)
    along_real, error_real = _complex_derivative(f, z, 1.0, fkwargs)
    along_imag, error_imag = _complex_derivative(f, z, 1j, fkwargs)
    if not abs(along_imag - 1j * along_real) <= 1e-6 * abs(along_real) + error_real + error_imag:
        return  # not holomorphic here: the general checks cover the convention
    result = chainrules.rrule(f, z, **fkwargs)
    if result is None:
        ctx.fail(MissingRuleError, f"no rrule applies at the complex point {z!r}")
    y, pullback = result
    raw = unthunk(pullback(complex(1.0))[1])
    cotangent = 0j if isinstance(raw, AbstractZero) else complex(raw)
    expected = along_real.conjugate()
    tol = tolerance_for(z, y, rtol=rtol, atol=atol)
    allowed = tol.atol + tol.floor + tol.rtol * max(abs(cotangent), abs(expected)) + error_real
    if agree(cotangent, expected, allowed):
        return
    hint = (
        "the pullback returns f'(z) * dy: the conj is missing"
        if cmath.isclose(cotangent, along_real, rel_tol=1e-6)
        else "the pullback of a holomorphic function must return conj(f'(z)) * dy"
    )
    ctx.fail(
        ComplexConventionError,
        f"pullback(1) at the complex point {z!r} is {cotangent!r}, expected conj(f'(z)) = "
        f"{expected!r}",
        f"f'(z) = {along_real!r} by finite differences; {hint}",
        f"{errors_line(cotangent, expected)}; allowed {allowed:.3e} ({tol.describe()})",
    )
