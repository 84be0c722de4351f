"""Rules for the parabolic cylinder functions ``pbdv pbvv pbwa``: value and derivative.

Each returns ``(w, w')``; ``w'' = (x^2/4 - v - 1/2) w`` (``a - x^2/4`` for ``pbwa``, DLMF
12.2.2, 12.14.1). The derivative in the order has no closed form: ``NotImplementedTangent``.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> (w, wp), pullback = rrule(sc.pbdv, 0.0, 1.0)
>>> bool(pullback((1.0, 0.0))[2] == wp)
True
"""

from __future__ import annotations

from typing import Any

import scipy.special as sc

from ....core.define import fit_to_output
from ....core.names import short_name
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.structure import is_differentiable_leaf
from ....core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent, not_implemented
from ....core.thunks import unthunk
from ....core.zeros import is_zero, vanishes

# ---- parabolic cylinder functions: value and derivative ---------------------------------------


def _weber_rules(f: Any, coefficient: Any) -> None:
    """Rules for ``f(v, x) = (w, w')``, where ``w'' = coefficient(v, x) w`` (Weber's equation).

    The derivative in the order ``v`` has no closed form: ``NotImplementedTangent``.
    """
    name = short_name(f)
    reason = f"derivative of {name} in its order: no closed form, not implemented"

    def weber_rrule(v: Any, x: Any) -> tuple[Any, Any]:
        y = f(v, x)
        project = ProjectTo(x)
        order = not_implemented(reason) if is_differentiable_leaf(v) else NO_TANGENT

        def weber_pullback(dy: Any) -> tuple[Any, Any, Any]:
            dw, dwp = (unthunk(d) for d in dy)
            total: Any = ZERO_TANGENT
            if not is_zero(dw):
                total = total + y[1] * dw
            if not is_zero(dwp):
                total = total + coefficient(v, x) * y[0] * dwp
            return NO_TANGENT, order, project(total)

        return y, weber_pullback

    def weber_frule(tangents: tuple, v: Any, x: Any) -> tuple[Any, Any]:
        y = f(v, x)
        dv, dx = tangents[1:3]
        if is_differentiable_leaf(v) and not vanishes(dv):
            return y, not_implemented(reason)
        if is_zero(dx):
            return y, Tangent(tuple, ZERO_TANGENT, ZERO_TANGENT)
        dw = fit_to_output(y[1] * dx, y[0])
        dwp = fit_to_output(coefficient(v, x) * y[0] * dx, y[1])
        return y, Tangent(tuple, dw, dwp)

    rrule.register(f)(weber_rrule)
    frule.register(f)(weber_frule)


_weber_rules(sc.pbdv, lambda v, x: x * x / 4 - v - 0.5)
_weber_rules(sc.pbvv, lambda v, x: x * x / 4 - v - 0.5)
_weber_rules(sc.pbwa, lambda a, x: a - x * x / 4)
