"""Rules for NumPy: piecewise-linear interpolation (``interp``) and phase unwrapping (``unwrap``).

* ``interp(x, xp, fp)`` is, on the segment ``xp[j] <= x <= xp[j + 1]``,
  ``fp[j] + s (x - xp[j])`` with slope ``s = (fp[j+1] - fp[j]) / (xp[j+1] - xp[j])``: its
  derivative in ``x`` is ``s`` inside ``[xp[0], xp[-1]]`` and 0 outside (where the result is
  ``left``/``right`` or an end value), it is linear in ``fp`` (weights ``1 - t`` and ``t``,
  ``t = (x - xp[j]) / (xp[j+1] - xp[j])``) and its derivatives in the knots are ``s (t - 1)`` and
  ``-s t``. At a knot the segment is the one NumPy takes, the one to its right (the last one for
  ``xp[-1]``). Positional ``left`` and ``right`` receive the cotangents of the points they fill.
  ``period=`` has no rule. Complex ``fp`` follows the convention: ``x``'s cotangent is
  ``Re(conj(s) dy)``.
* ``unwrap(p)`` adds multiples of the period that are constant between jumps: its derivative is
  the identity.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(np.interp, 0.25, np.array([0.0, 1.0]), np.array([1.0, 3.0]))
>>> pullback(1.0)[1:]
(2.0, array([-1.5, -0.5]), array([0.75, 0.25]))
"""

from __future__ import annotations

import numpy as np

from ...core.linear import accumulate
from ...core.namespace import array_namespace
from ...core.projection import ProjectTo
from ...core.registry import frule, rrule
from ...core.shapes import shape_of
from ...core.tangents import NO_TANGENT, ZERO_TANGENT
from ...core.thunks import unthunk
from ...core.zeros import is_zero

__all__: list[str] = []


# ---- interp ---------------------------------------------------------------------------------


class _Segments:
    """Where each point of ``x`` falls among the knots ``xp``, and the local linear weights.

    ``j`` (flat NumPy integers) is the segment's left knot; ``t`` the position within it,
    ``s`` its slope; ``below`` and ``above`` mark points left and right of all knots.
    """

    def __init__(self, xq, x, knots, values):
        n = shape_of(knots)[0]
        self.n, self.shape = n, shape_of(x)
        # Segment indices are integers: searchsorted has no tangent, on any array type.
        segment = np.searchsorted(knots, x, side="right") - 1
        self.j = np.clip(np.reshape(segment, (-1,)), 0, n - 2)
        flat_x = xq.reshape(xq.asarray(x), (-1,))
        x0, x1 = xq.take(knots, self.j), xq.take(knots, self.j + 1)
        f0, f1 = xq.take(values, self.j), xq.take(values, self.j + 1)
        h = x1 - x0
        # Repeated knots make an empty segment: no point falls strictly inside it.
        safe_h = xq.where(h == 0, 1.0, h)
        self.below = flat_x < knots[0]
        self.above = flat_x > knots[n - 1]
        self.inside = ~(self.below | self.above)
        self.t = xq.where(self.inside, (flat_x - x0) / safe_h, 0.0)
        self.s = xq.where(self.inside & (h != 0), (f1 - f0) / safe_h, 0.0)

    def weights(self, xq, left, right):
        """The weights of ``fp[j]`` and ``fp[j + 1]`` in each result."""
        outside_left = 1.0 if left is None else 0.0
        outside_right = 1.0 if right is None else 0.0
        w0 = xq.where(self.below, outside_left, xq.where(self.above, 0.0, 1.0 - self.t))
        w1 = xq.where(self.above, outside_right, xq.where(self.below, 0.0, self.t))
        return w0, w1

    def scatter(self, v0, v1):
        """Values at ``j`` and ``j + 1`` summed into an array shaped like the knots."""
        return accumulate(self.j, v0, self.n) + accumulate(self.j + 1, v1, self.n)


def _bounds(bounds, left, right):
    b_left, b_right = (*bounds, None, None)[:2]
    return (left if b_left is None else b_left), (right if b_right is None else b_right)


@rrule.register(np.interp)
def _interp_rrule(x, xp, fp, *bounds, left=None, right=None):
    if shape_of(xp)[0] < 2 or len(bounds) > 2:
        # a single knot has no segment; a period (given by position) is not handled here:
        # no rule, so an engine traces into interp (and says so, naming it)
        return None
    left, right = _bounds(bounds, left, right)
    xq = array_namespace(x, xp, fp)
    y = np.interp(x, xp, fp, left, right)
    project_x, project_xp, project_fp = ProjectTo(x), ProjectTo(xp), ProjectTo(fp)
    project_bounds = [ProjectTo(b) for b in bounds]
    seg = _Segments(xq, x, xp, fp)
    w0, w1 = seg.weights(xq, left, right)

    def interp_pullback(dy):
        flat_dy = xq.reshape(xq.asarray(dy), (-1,))
        sdy = xq.conj(seg.s) * flat_dy
        dx = xq.reshape(sdy, seg.shape)
        dxp = seg.scatter(sdy * (seg.t - 1.0), -sdy * seg.t)
        dfp = seg.scatter(w0 * flat_dy, w1 * flat_dy)
        outside = (seg.below, seg.above)
        dbounds = (
            p(xq.sum(xq.where(mask, flat_dy, 0.0)))
            for p, mask in zip(project_bounds, outside, strict=False)
        )
        return NO_TANGENT, project_x(dx), project_xp(dxp), project_fp(dfp), *dbounds

    return y, interp_pullback


@frule.register(np.interp)
def _interp_frule(tangents, x, xp, fp, *bounds, left=None, right=None):
    if shape_of(xp)[0] < 2 or len(bounds) > 2:
        return None
    left, right = _bounds(bounds, left, right)
    xq = array_namespace(x, xp, fp)
    y = np.interp(x, xp, fp, left, right)
    seg = _Segments(xq, x, xp, fp)
    dx, dxp, dfp, *dbounds = (unthunk(t) for t in tangents[1:])
    dy = ZERO_TANGENT
    if not is_zero(dx):
        dy = dy + seg.s * xq.reshape(xq.asarray(dx), (-1,))
    if not is_zero(dxp):
        dy = dy + seg.s * ((seg.t - 1.0) * xq.take(dxp, seg.j) - seg.t * xq.take(dxp, seg.j + 1))
    if not is_zero(dfp):
        w0, w1 = seg.weights(xq, left, right)
        dy = dy + w0 * xq.take(dfp, seg.j) + w1 * xq.take(dfp, seg.j + 1)
    for mask, db in zip((seg.below, seg.above), dbounds, strict=False):
        if not is_zero(db):
            dy = dy + xq.where(mask, db, 0.0)
    if is_zero(dy):
        return y, ProjectTo(y)(dy)
    return y, ProjectTo(y)(xq.reshape(dy, seg.shape))


# ---- unwrap ---------------------------------------------------------------------------------


@rrule.register(np.unwrap)
def _unwrap_rrule(p, *args, discont=None, axis=-1, period=2 * np.pi):
    """unwrap(p): p plus locally constant multiples of the period; the pullback is dy."""
    project_p = ProjectTo(p)
    no_tangents = (NO_TANGENT,) * len(args)

    def unwrap_pullback(dy):
        return NO_TANGENT, project_p(dy), *no_tangents

    kwargs = {"discont": discont, "axis": axis, "period": period}
    positional = dict(zip(("discont", "axis"), args, strict=False))
    return np.unwrap(p, **(kwargs | positional)), unwrap_pullback


@frule.register(np.unwrap)
def _unwrap_frule(tangents, p, *args, discont=None, axis=-1, period=2 * np.pi):
    kwargs = {"discont": discont, "axis": axis, "period": period}
    positional = dict(zip(("discont", "axis"), args, strict=False))
    y = np.unwrap(p, **(kwargs | positional))
    dp = tangents[1]
    return y, ProjectTo(y)(ZERO_TANGENT if is_zero(dp) else dp)
