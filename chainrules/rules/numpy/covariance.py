"""Rules for NumPy's covariance and correlation matrices: cov and corrcoef.

``cov`` and ``corrcoef`` take ``y``, ``rowvar``, ``bias``, ``ddof`` and ``dtype``; ``cov`` also
takes ``fweights`` (integer counts, without a tangent) and ``aweights``, differentiated like the
data when passed by position. ``corrcoef`` clips its result to ``[-1, 1]`` as NumPy does; the
derivative is that of the unclipped quotient.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> c, pullback = rrule(np.cov, np.array([0.0, 2.0]))
>>> c, pullback(1.0)[1]
(array(2.), array([-2.,  2.]))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.arguments import given_options
from ...core.namespace import array_namespace
from ...core.projection import ProjectTo
from ...core.registry import frule, rrule
from ...core.shapes import shape_of
from ...core.tangents import NO_TANGENT, ZERO_TANGENT
from ...core.thunks import unthunk
from ...core.zeros import is_zero

__all__: list[str] = []


# ---- cov and corrcoef -----------------------------------------------------------------------


class _Observations:
    """The variables-by-observations matrix that cov builds from ``m`` and ``y``, centred.

    With frequency weights ``f`` and analytic weights ``v``, observation ``k`` weighs ``w_k =
    f_k v_k``: the centre is the weighted mean and ``C = Xc diag(w) Xc^H / factor``, with
    NumPy's ``factor`` (``W - ddof``, or ``W - ddof sum(w v) / W`` with analytic weights, ``W =
    sum(w)``). Since ``Xc w = 0``, moving the centre changes ``C`` only to second order: the
    centring drops out of every first derivative.
    """

    __slots__ = ("analytic", "centred", "ddof", "factor", "frequency", "parts", "total", "weights")

    def __init__(self, m, y, rowvar, bias, ddof, dtype, fweights=None, aweights=None):
        xp = array_namespace(m, y, aweights)
        self.parts = []  # for each input: (shape, transposed, number of rows)
        rows = []
        for v in (m, y):
            if v is None:
                continue
            v2 = xp.asarray(v) if dtype is None else xp.astype(xp.asarray(v), dtype)
            shape = shape_of(v2)
            v2 = xp.reshape(v2, (1, -1)) if v2.ndim < 2 else v2
            transposed = not rowvar and v2.shape[0] != 1
            v2 = xp.matrix_transpose(v2) if transposed else v2
            self.parts.append((shape, transposed, v2.shape[0]))
            rows.append(v2)
        x = rows[0] if len(rows) == 1 else xp.concat(rows, axis=0)
        self.ddof = (0 if bias else 1) if ddof is None else ddof
        # Frequency weights are counts: integers, without a tangent.
        frequency = None if fweights is None else np.asarray(fweights, dtype=float)
        if aweights is not None:
            # NumPy computes with the weights as float64: float32 weights would cost the
            # derivatives their precision.
            aweights = xp.asarray(aweights)
            if aweights.dtype in (xp.float16, xp.float32):
                aweights = xp.astype(aweights, xp.float64)
        self.frequency = frequency
        self.analytic = aweights
        self.weights: Any = None
        self.total: Any = None
        if fweights is None and aweights is None:
            self.centred = x - xp.mean(x, axis=1, keepdims=True)
            self.factor = x.shape[1] - self.ddof
            return
        w = None if aweights is None else xp.asarray(aweights)
        if frequency is not None:
            w = frequency if w is None else frequency * w
        self.weights, self.total = w, xp.sum(w)
        self.centred = x - xp.sum(x * w, axis=1, keepdims=True) / self.total
        self.factor = self.total - (
            self.ddof if aweights is None else self.ddof * xp.sum(w * aweights) / self.total
        )

    def _weighted(self) -> Any:
        return self.centred if self.weights is None else self.centred * self.weights

    def _square(self, dc: Any) -> Any:
        xp = array_namespace(dc, self.centred)
        p = self.centred.shape[0]
        return xp.reshape(xp.asarray(dc), (p, p))

    def pullback(self, dc: Any) -> tuple[Any, ...]:
        """The cotangents of ``m`` (and ``y``) given the covariance matrix's cotangent ``dc``."""
        xp = array_namespace(dc, self.centred)
        dc = self._square(dc)
        # The centring is a projection that (dC + dC^H) Xc W already lies in: rows sum to zero.
        dx = xp.matmul(dc + xp.conj(xp.matrix_transpose(dc)), self._weighted()) / self.factor
        cotangents, start = [], 0
        for shape, transposed, n in self.parts:
            part = dx[start : start + n, :]
            start += n
            part = xp.matrix_transpose(part) if transposed else part
            cotangents.append(xp.reshape(part, shape))
        return tuple(cotangents)

    def analytic_pullback(self, dc: Any) -> Any:
        """The cotangent of the analytic weights given the covariance matrix's cotangent."""
        xp = array_namespace(dc, self.centred, self.analytic)
        dc, xc, v = self._square(dc), self.centred, self.analytic
        # d C / d w_k = (xc_k xc_k^H - C d factor / d w_k) / factor, xc_k the k-th column.
        through_sum = xp.real(xp.sum(xc * xp.conj(xp.matmul(dc, xc)), axis=0))
        cov = xp.matmul(self._weighted(), xp.conj(xp.matrix_transpose(xc))) / self.factor
        through_factor = xp.real(xp.sum(xp.conj(dc) * cov))
        spread = 2 * v / self.total - xp.sum(self.weights * v) / self.total**2
        dv = (through_sum - through_factor * (1 - self.ddof * spread)) / self.factor
        return dv if self.frequency is None else self.frequency * dv

    def pushforward(self, dm: Any, dy: Any, dv: Any = ZERO_TANGENT) -> Any:
        """The tangent of the covariance matrix given those of ``m``, ``y`` and ``aweights``."""
        xp = array_namespace(self.centred, dm, dy)
        rows = []
        for (shape, transposed, n), d in zip(self.parts, (dm, dy), strict=False):
            if is_zero(d):
                d = xp.zeros((n, self.centred.shape[1]), dtype=self.centred.dtype)
            else:
                d = xp.reshape(xp.asarray(d), (1, -1)) if len(shape) < 2 else xp.asarray(d)
                d = xp.matrix_transpose(d) if transposed else d
            rows.append(d)
        dx = rows[0] if len(rows) == 1 else xp.concat(rows, axis=0)
        dxc = dx - xp.mean(dx, axis=1, keepdims=True)
        weighted, xh = self._weighted(), xp.conj(xp.matrix_transpose(self.centred))
        dc = xp.matmul(dxc, xp.conj(xp.matrix_transpose(weighted)))
        dc = (dc + xp.matmul(weighted, xp.conj(xp.matrix_transpose(dxc)))) / self.factor
        if is_zero(dv) or self.analytic is None:
            return dc
        dw = dv if self.frequency is None else self.frequency * dv
        w, total = self.weights, self.total
        d_sum = xp.sum(dw)
        d_factor = d_sum - self.ddof * (
            2 * xp.sum(w * dv) / total - xp.sum(w * self.analytic) * d_sum / total**2
        )
        cov = xp.matmul(weighted, xh) / self.factor
        return dc + (xp.matmul(self.centred * dw, xh) - cov * d_factor) / self.factor


def _tangent_list(tangents: tuple, count: int) -> list[Any]:
    found = [unthunk(t) for t in tangents[1 : 1 + count]]
    return found + [ZERO_TANGENT] * (count - len(found))


@rrule.register(np.cov)
def _cov_rrule(
    m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *, dtype=None
):
    c = np.cov(m, y, rowvar, bias, ddof, fweights, aweights, **given_options(dtype=dtype))
    observations = _Observations(m, y, rowvar, bias, ddof, dtype, fweights, aweights)
    projectors = [ProjectTo(v) for v in (m, y) if v is not None]
    project_v = None if aweights is None else ProjectTo(aweights)

    def cov_pullback(dc):
        pulled = observations.pullback(dc)
        cotangents = [p(d) for p, d in zip(projectors, pulled, strict=True)]
        if project_v is None:
            return (NO_TANGENT, *cotangents)
        dv = project_v(observations.analytic_pullback(dc))
        # After m and y: rowvar, bias, ddof and fweights, without tangents, then aweights.
        cotangents += [NO_TANGENT] * (6 - len(cotangents))
        return (NO_TANGENT, *cotangents, dv)

    return c, cov_pullback


@frule.register(np.cov)
def _cov_frule(
    tangents,
    m,
    y=None,
    rowvar=True,
    bias=False,
    ddof=None,
    fweights=None,
    aweights=None,
    *,
    dtype=None,
):
    c = np.cov(m, y, rowvar, bias, ddof, fweights, aweights, **given_options(dtype=dtype))
    dm, dy, *_, dv = _tangent_list(tangents, 7)
    if is_zero(dm) and is_zero(dy) and is_zero(dv):
        return c, ZERO_TANGENT
    observations = _Observations(m, y, rowvar, bias, ddof, dtype, fweights, aweights)
    dc = observations.pushforward(dm, dy, dv)
    return c, ProjectTo(c)(array_namespace(dc).reshape(dc, shape_of(c)))


class _Correlation:
    """corrcoef as ``R = C / (s s^T)`` with ``s = sqrt(diag C)``, differentiated through cov."""

    __slots__ = ("correlation", "observations", "scale")

    def __init__(self, x, y, rowvar, dtype):
        self.observations = _Observations(x, y, rowvar, False, None, dtype)
        xp = array_namespace(self.observations.centred)
        centred = self.observations.centred
        cov = xp.matmul(centred, xp.conj(xp.matrix_transpose(centred))) / self.observations.factor
        p = cov.shape[0]
        self.scale = xp.sqrt(xp.real(xp.reshape(cov, (-1,))[:: p + 1]))
        self.correlation = cov / (self.scale[:, None] * self.scale[None, :])

    def pullback(self, dr: Any) -> tuple[Any, ...]:
        xp = array_namespace(dr, self.correlation)
        s, r = self.scale, self.correlation
        p = r.shape[0]
        dr = xp.reshape(xp.asarray(dr), (p, p))
        outer = s[:, None] * s[None, :]
        weighted = xp.real(xp.conj(r) * dr)
        ds = -(xp.sum(weighted, axis=1) + xp.sum(weighted, axis=0)) / s
        dc = dr / outer + xp.where(np.eye(p, dtype=bool), (ds / (2 * s))[:, None], 0)
        return self.observations.pullback(dc)

    def pushforward(self, dm: Any, dy: Any) -> Any:
        s, r = self.scale, self.correlation
        dc = self.observations.pushforward(dm, dy)
        xp = array_namespace(dc)
        p = r.shape[0]
        ds = xp.real(xp.reshape(dc, (-1,))[:: p + 1]) / (2 * s)
        return dc / (s[:, None] * s[None, :]) - r * (ds[:, None] / s[:, None] + ds[None, :] / s)


@rrule.register(np.corrcoef)
def _corrcoef_rrule(x, y=None, rowvar=True, *, dtype=None):
    r = np.corrcoef(x, y, rowvar, **given_options(dtype=dtype))
    projectors = [ProjectTo(v) for v in (x, y) if v is not None]
    correlation = _Correlation(x, y, rowvar, dtype) if np.ndim(r) else None

    def corrcoef_pullback(dr):
        if correlation is None:  # one variable: R = C / C is constant
            return (NO_TANGENT, *(p(ZERO_TANGENT) for p in projectors))
        cotangents = correlation.pullback(dr)
        return (NO_TANGENT, *(p(d) for p, d in zip(projectors, cotangents, strict=True)))

    return r, corrcoef_pullback


@frule.register(np.corrcoef)
def _corrcoef_frule(tangents, x, y=None, rowvar=True, *, dtype=None):
    r = np.corrcoef(x, y, rowvar, **given_options(dtype=dtype))
    dm, dy = _tangent_list(tangents, 2)
    if (is_zero(dm) and is_zero(dy)) or not np.ndim(r):
        return r, ZERO_TANGENT
    return r, ProjectTo(r)(_Correlation(x, y, rowvar, dtype).pushforward(dm, dy))
