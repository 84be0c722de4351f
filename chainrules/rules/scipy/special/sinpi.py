"""sin(pi x) and cos(pi x) from ``x`` less its nearest integer, which is exact: each is exactly
0 at its zeros (sin at the integers, cos at the half-integers) and keeps its relative accuracy
beside them, where ``np.sin(np.pi * x)`` has the rounding of ``pi x`` as an absolute error
(``np.sin(np.pi * 1e6)`` is -2.2e-10, not 0).

They are written through functions with rules, so an engine differentiates them to any order:
the nearest integer is constant, and cos(pi r) is sin(pi (1/2 - r)) for r >= 0 and
sin(pi (1/2 + r)) for r < 0, each the same analytic function, where ``1/2 -+ r`` is exact
beside the half-integers.

>>> s, c = sin_cos_pi(np.array([1e6, 2.5, -0.5]))
>>> s.tolist(), c.tolist()
([0.0, 1.0, -1.0], [1.0, 0.0, 0.0])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ....core.define import ignore_derivatives

__all__ = ["sin_cos_pi"]


def sin_cos_pi(x: Any) -> tuple[Any, Any]:
    """sin(pi x) and cos(pi x), exact at their zeros (see the module)."""
    n = ignore_derivatives(np.rint(x))
    r = x - n
    parity = np.where(np.remainder(n, 2) == 0, 1.0, -1.0)
    quarter_turn = np.where(r < 0, 0.5 + r, 0.5 - r)
    return parity * np.sin(np.pi * r), parity * np.sin(np.pi * quarter_turn)
