"""Rules for NumPy's polynomial functions on coefficient arrays (highest power first).

* ``polyadd``, ``polysub``, ``polyder`` and ``polyint`` are linear in their coefficients
  (``polyint`` also in its integration constants ``k``). Their coefficient arrays are short,
  so the rules apply the map's matrix, read off the function itself on unit vectors: the
  pushforward is ``M @ dp`` and the pullback ``M.T @ dy``.
* ``polymul`` is ``convolve`` and has its rule. ``polyval(p, x)`` is ``vander(x) @ p`` in
  ``p`` and ``p'(x)`` in ``x``. ``vander``'s derivative is ``k x^(k-1)`` column by column.
* ``roots``: a simple root ``z`` of ``p`` moves by ``-dp(z) / p'(z)`` (infinite at a multiple
  root, honestly); ``poly(r)``: the coefficient vector of ``prod(x - r_i)`` moves by
  ``-poly(r without r_i)`` per unit of ``r_i``. Both are holomorphic in complex inputs.
* ``polydiv(u, v) = (q, r)`` with ``u = q v + r``: differentiating, ``(dq, dr)`` is the
  untrimmed division of ``du - q dv`` by ``v``.
* ``polyfit(x, y, deg)`` is the least-squares solution ``c`` of ``V c = y`` with ``V =
  vander(x, deg + 1)``; with the residual ``res = y - V c`` and ``z = (V^T V)^-1 dc``, its
  pullback is ``dy = V z`` and ``dV = res z^T - V z c^T``, chained through ``vander``.

``poly1d`` arguments have no rule here (the rules return ``None``), and neither have the
options that change what is returned (``polyfit``'s ``full``, ``cov``, ``w``).

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(np.polyval, np.array([1.0, 0.0, -1.0]), 2.0)
>>> y, pullback(1.0)[1:]
(np.float64(3.0), (array([4., 2., 1.]), 4.0))
"""

from __future__ import annotations

import numpy as np

from ...core.namespace import array_namespace
from ...core.projection import ProjectTo
from ...core.registry import frule, rrule
from ...core.shapes import shape_of
from ...core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from ...core.thunks import unthunk
from ...core.zeros import is_zero

__all__: list[str] = []


def _has_poly1d(*args):
    return any(isinstance(a, np.poly1d) for a in args)


def _sum_terms(terms):
    """The sum of the tangent terms that are not None, ZeroTangent() when there are none."""
    total = ZERO_TANGENT
    for term in terms:
        if term is not None:
            total = total + term
    return total


# ---- linear maps of coefficient arrays: polyadd, polysub, polyder, polyint -----------------


def _map_matrices(f, args, kwargs, active):
    """The matrix of ``f`` in each active argument, the other active ones held at zero.

    Column ``j`` of the matrix for argument ``a`` is ``f`` at the ``j``-th unit vector minus
    ``f`` at zero (keyword constants make the map affine); computed on NumPy values, the
    coefficient arrays being short.
    """
    base = [np.zeros(shape_of(a)) if on else a for a, on in zip(args, active, strict=True)]
    offset = np.ravel(f(*base, **kwargs))
    matrices: list = []
    for i, a in enumerate(args):
        if not active[i]:
            matrices.append(None)
            continue
        size = int(np.prod(shape_of(a)))
        matrix = np.zeros((offset.shape[0], size))
        for j in range(size):
            unit = np.zeros(size)
            unit[j] = 1.0
            point = [*base[:i], unit.reshape(shape_of(a)), *base[i + 1 :]]
            matrix[:, j] = np.ravel(f(*point, **kwargs)) - offset
        matrices.append(matrix)
    return matrices


def _linear_rules(f, active_positions, keywords=()):
    """Register both rules of ``f``, linear in the arguments at ``active_positions``."""

    def linear_rrule(*args, **kwargs):
        if _has_poly1d(*args):
            return None
        active = [i in active_positions for i in range(len(args))]
        y = f(*args, **kwargs)
        xq = array_namespace(*args)
        projectors = [ProjectTo(a) for a in args]
        matrices = _map_matrices(f, args, kwargs, active)

        def polynomial_pullback(dy):
            cotangents = []
            for a, project, matrix in zip(args, projectors, matrices, strict=True):
                if matrix is None:
                    cotangents.append(NO_TANGENT)
                else:
                    da = xq.matmul(xq.reshape(dy, (-1,)), xq.asarray(matrix))
                    cotangents.append(project(xq.reshape(da, shape_of(a))))
            return NO_TANGENT, *cotangents

        return y, polynomial_pullback

    def linear_frule(tangents, *args, **kwargs):
        if _has_poly1d(*args):
            return None
        active = [i in active_positions for i in range(len(args))]
        y = f(*args, **kwargs)
        xq = array_namespace(*args)
        matrices = _map_matrices(f, args, kwargs, active)
        terms = []
        for t, matrix in zip(tangents[1:], matrices, strict=False):
            t = unthunk(t)
            if matrix is not None and not is_zero(t):
                terms.append(xq.matmul(xq.asarray(matrix), xq.reshape(xq.asarray(t), (-1,))))
        dy = _sum_terms(terms)
        if is_zero(dy):
            return y, ProjectTo(y)(dy)
        return y, ProjectTo(y)(xq.reshape(dy, shape_of(y)))

    for rule, table in ((linear_rrule, rrule), (linear_frule, frule)):
        table.register(f, keywords=keywords)(rule)


_linear_rules(np.polyadd, (0, 1))
_linear_rules(np.polysub, (0, 1))
_linear_rules(np.polyder, (0,), keywords=("m",))
# polyint(p, m, k): linear in p and in the constants k jointly; m is an integer.
_linear_rules(np.polyint, (0, 2), keywords=("m", "k"))


# ---- polymul: a convolution -----------------------------------------------------------------


@rrule.register(np.polymul)
def _polymul_rrule(a1, a2):
    if _has_poly1d(a1, a2):
        return None
    xq = array_namespace(a1, a2)
    y, convolve_pullback = rrule(np.convolve, xq.reshape(a1, (-1,)), xq.reshape(a2, (-1,)))
    project_1, project_2 = ProjectTo(a1), ProjectTo(a2)

    def polymul_pullback(dy):
        _, d1, d2 = convolve_pullback(dy)
        d1, d2 = unthunk(d1), unthunk(d2)
        if not is_zero(d1):
            d1, d2 = xq.reshape(d1, shape_of(a1)), xq.reshape(d2, shape_of(a2))
        return NO_TANGENT, project_1(d1), project_2(d2)

    return y, polymul_pullback


@frule.register(np.polymul)
def _polymul_frule(tangents, a1, a2):
    if _has_poly1d(a1, a2):
        return None
    xq = array_namespace(a1, a2)
    flat = [None if is_zero(unthunk(t)) else xq.reshape(unthunk(t), (-1,)) for t in tangents[1:]]
    flat = [ZERO_TANGENT if t is None else t for t in flat]
    return frule((NO_TANGENT, *flat), np.convolve, xq.reshape(a1, (-1,)), xq.reshape(a2, (-1,)))


# ---- vander and polyval ---------------------------------------------------------------------


def _exponents(n, increasing):
    powers = np.arange(n, dtype=np.float64)
    return powers if increasing else powers[::-1].copy()


def _powers(xq, x, exponents):
    """``x[..., None] ** exponents``, exact at ``x = 0`` (where ``0 ** 0 = 1``)."""
    base = xq.expand_dims(xq.asarray(x), axis=-1)
    return base ** xq.asarray(exponents)


def _power_derivatives(xq, x, exponents):
    """``k x^(k - 1)`` for each exponent ``k``: 0 for ``k = 0``, even at ``x = 0``."""
    lowered = np.maximum(exponents - 1.0, 0.0)
    return xq.asarray(exponents) * _powers(xq, x, lowered)


def _vander_options(args, N, increasing):
    """N and increasing, given by position or by keyword."""
    given = dict(zip(("N", "increasing"), args, strict=False))
    return given.get("N", N), given.get("increasing", increasing)


@rrule.register(np.vander)
def _vander_rrule(x, *args, N=None, increasing=False):
    xq = array_namespace(x)
    N, increasing = _vander_options(args, N, increasing)
    y = np.vander(x, N, increasing)
    no_tangents = (NO_TANGENT,) * len(args)
    exponents = _exponents(shape_of(y)[1], increasing)
    project_x = ProjectTo(x)

    def vander_pullback(dy):
        slopes = xq.conj(_power_derivatives(xq, x, exponents))
        return NO_TANGENT, project_x(xq.sum(slopes * dy, axis=-1)), *no_tangents

    return y, vander_pullback


@frule.register(np.vander)
def _vander_frule(tangents, x, *args, N=None, increasing=False):
    xq = array_namespace(x)
    N, increasing = _vander_options(args, N, increasing)
    y = np.vander(x, N, increasing)
    dx = tangents[1]
    if is_zero(dx):
        return y, ProjectTo(y)(ZERO_TANGENT)
    exponents = _exponents(shape_of(y)[1], increasing)
    slopes = _power_derivatives(xq, x, exponents)
    return y, ProjectTo(y)(slopes * xq.expand_dims(xq.asarray(dx), axis=-1))


def _polyval_parts(xq, p, x):
    """The powers of ``x`` (one column per coefficient) and the derivative ``p'(x)``."""
    exponents = _exponents(shape_of(p)[0], increasing=False)
    powers = _powers(xq, x, exponents)
    slope = xq.sum(_power_derivatives(xq, x, exponents) * p, axis=-1)
    return powers, slope


@rrule.register(np.polyval)
def _polyval_rrule(p, x):
    if _has_poly1d(p, x):
        return None
    xq = array_namespace(p, x)
    y = np.polyval(p, x)
    project_p, project_x = ProjectTo(p), ProjectTo(x)
    powers, slope = _polyval_parts(xq, p, x)

    def polyval_pullback(dy):
        dy_column = xq.expand_dims(xq.asarray(dy), axis=-1)
        axes = tuple(range(len(shape_of(x))))
        dp = xq.sum(xq.conj(powers) * dy_column, axis=axes) if axes else xq.conj(powers) * dy
        return NO_TANGENT, project_p(dp), project_x(xq.conj(slope) * dy)

    return y, polyval_pullback


@frule.register(np.polyval)
def _polyval_frule(tangents, p, x):
    if _has_poly1d(p, x):
        return None
    xq = array_namespace(p, x)
    y = np.polyval(p, x)
    powers, slope = _polyval_parts(xq, p, x)
    dp, dx = unthunk(tangents[1]), unthunk(tangents[2])
    terms = [
        None if is_zero(dp) else xq.sum(powers * dp, axis=-1),
        None if is_zero(dx) else slope * dx,
    ]
    return y, ProjectTo(y)(_sum_terms(terms))


# ---- roots and poly -------------------------------------------------------------------------


@rrule.register(np.roots)
def _roots_rrule(p):
    """roots(p): each simple root ``z`` moves by ``-dp(z) / p'(z)``."""
    if _has_poly1d(p):
        return None
    xq = array_namespace(p)
    z = np.roots(p)
    project_p = ProjectTo(p)
    exponents = _exponents(shape_of(p)[0], increasing=False)
    # The untrimmed coefficients: a leading zero of p still moves the finite roots.
    powers = _powers(xq, z, exponents)
    slopes = xq.sum(_power_derivatives(xq, z, exponents) * p, axis=-1)
    # Infinite at a multiple root, where p'(z) = 0: the roots are not differentiable there.
    sensitivities = -powers / xq.expand_dims(slopes, axis=-1)

    def roots_pullback(dz):
        dp = xq.sum(xq.conj(sensitivities) * xq.expand_dims(dz, axis=-1), axis=0)
        return NO_TANGENT, project_p(dp)

    return z, roots_pullback


@frule.register(np.roots)
def _roots_frule(tangents, p):
    if _has_poly1d(p):
        return None
    xq = array_namespace(p)
    z = np.roots(p)
    dp = tangents[1]
    if is_zero(dp):
        return z, ProjectTo(z)(ZERO_TANGENT)
    exponents = _exponents(shape_of(p)[0], increasing=False)
    moved = xq.sum(_powers(xq, z, exponents) * dp, axis=-1)
    slopes = xq.sum(_power_derivatives(xq, z, exponents) * p, axis=-1)
    return z, ProjectTo(z)(-moved / slopes)


def _poly_without_each(xq, r):
    """``poly(r without r_i)`` for each ``i``, as the rows of an array."""
    n = shape_of(r)[0]
    rows = [np.poly(xq.take(r, np.delete(np.arange(n), i))) for i in range(n)]
    # poly of no roots is the 0-d 1.0: each row has n coefficients.
    return xq.stack([xq.reshape(xq.asarray(row), (n,)) for row in rows], axis=0)


@rrule.register(np.poly)
def _poly_rrule(seq_of_zeros):
    """poly(r) for a 1-d ``r``: ``d c[1:] / d r_i = -poly(r without r_i)``."""
    r = seq_of_zeros
    if _has_poly1d(r) or len(shape_of(r)) != 1 or shape_of(r)[0] == 0:
        return None  # poly of a matrix is poly of its eigenvalues: engines trace into it
    xq = array_namespace(r)
    c = np.poly(r)
    project_r = ProjectTo(r)
    partials = -_poly_without_each(xq, r)

    def poly_pullback(dc):
        return NO_TANGENT, project_r(xq.matmul(xq.conj(partials), dc[1:]))

    return c, poly_pullback


@frule.register(np.poly)
def _poly_frule(tangents, seq_of_zeros):
    r = seq_of_zeros
    if _has_poly1d(r) or len(shape_of(r)) != 1 or shape_of(r)[0] == 0:
        return None
    xq = array_namespace(r)
    c = np.poly(r)
    dr = tangents[1]
    if is_zero(dr):
        return c, ProjectTo(c)(ZERO_TANGENT)
    moved = xq.matmul(dr, -_poly_without_each(xq, r))
    return c, ProjectTo(c)(xq.concat([xq.zeros_like(moved[:1]), moved]))


# ---- polydiv --------------------------------------------------------------------------------
# With n_q = len(u) - len(v) + 1 quotient coefficients, the division of w by v is linear in w:
# q = T^-1 w[:n_q], where T (lower-triangular Toeplitz, T[i, j] = v[i - j]) is the top of the
# matrix C of q -> convolve(q, v), and the full-length remainder is w - C q. NumPy trims the
# remainder's leading zeros; its cotangent is padded back to full length.


def _toeplitz(xq, v, n_q):
    """``T`` with ``T[i, j] = v[i - j]`` (0 above the diagonal), built from ``v`` linearly."""
    count = min(shape_of(v)[0], n_q)
    shifts = np.stack([np.eye(n_q, k=-j) for j in range(count)])
    return xq.sum(xq.reshape(v[:count], (count, 1, 1)) * xq.asarray(shifts), axis=0)


def _divide(xq, w, v, n_q):
    """The untrimmed quotient and full-length remainder of ``w`` divided by ``v``."""
    q = xq.linalg.solve(_toeplitz(xq, v, n_q), w[:n_q])
    return q, w - np.convolve(q, v)


@rrule.register(np.polydiv)
def _polydiv_rrule(u, v):
    if _has_poly1d(u, v) or len(shape_of(u)) != 1 or len(shape_of(v)) != 1:
        return None
    xq = array_namespace(u, v)
    q, r = np.polydiv(u, v)
    project_u, project_v = ProjectTo(u), ProjectTo(v)
    n_u, n_q = shape_of(u)[0], shape_of(u)[0] - shape_of(v)[0] + 1

    def polydiv_pullback(dy):
        dq, dr = (unthunk(d) for d in dy)
        dr_full = xq.zeros(n_u, dtype=q.dtype) if is_zero(dr) else dr
        if not is_zero(dr) and shape_of(dr)[0] < n_u:
            pad = xq.zeros(n_u - shape_of(dr)[0], dtype=dr.dtype)
            dr_full = xq.concat([pad, dr])
        if n_q <= 0:  # deg u < deg v: q = 0 and r = u
            return NO_TANGENT, project_u(dr_full), project_v(ZERO_TANGENT)
        g = np.correlate(dr_full, v, "valid")
        g = -g if is_zero(dq) else dq - g
        t_adjoint = xq.conj(xq.matrix_transpose(_toeplitz(xq, v, n_q)))
        head = xq.linalg.solve(t_adjoint, g)
        dw = dr_full + xq.concat([head, xq.zeros(n_u - n_q, dtype=head.dtype)])
        return NO_TANGENT, project_u(dw), project_v(-np.correlate(dw, q, "valid"))

    return (q, r), polydiv_pullback


@frule.register(np.polydiv)
def _polydiv_frule(tangents, u, v):
    if _has_poly1d(u, v) or len(shape_of(u)) != 1 or len(shape_of(v)) != 1:
        return None
    xq = array_namespace(u, v)
    q, r = np.polydiv(u, v)
    du, dv = unthunk(tangents[1]), unthunk(tangents[2])
    n_u, n_q = shape_of(u)[0], shape_of(u)[0] - shape_of(v)[0] + 1
    w = xq.zeros(n_u, dtype=np.result_type(q, r)) if is_zero(du) else du
    if n_q <= 0:
        dq, dr = xq.zeros_like(q), w
    else:
        if not is_zero(dv):
            w = w - np.convolve(q, dv)
        dq, dr = _divide(xq, w, v, n_q)
    dr = dr[n_u - shape_of(r)[0] :]
    return (q, r), Tangent(tuple, ProjectTo(q)(dq), ProjectTo(r)(dr))


# ---- polyfit --------------------------------------------------------------------------------


def _as_columns(xq, a):
    return xq.expand_dims(a, axis=-1) if len(shape_of(a)) == 1 else a


@rrule.register(np.polyfit)
def _polyfit_rrule(x, y, deg):
    """polyfit(x, y, deg): the least-squares ``c``; ``dy = V z``, ``dV = res z^H - V z c^H``."""
    xq = array_namespace(x, y)
    c = np.polyfit(x, y, deg)
    project_x, project_y = ProjectTo(x), ProjectTo(y)
    exponents = _exponents(deg + 1, increasing=False)
    vander = _powers(xq, x, exponents)
    residual = _as_columns(xq, y) - xq.matmul(vander, _as_columns(xq, c))
    gram = xq.matmul(xq.matrix_transpose(vander), vander)

    def polyfit_pullback(dc):
        z = xq.linalg.solve(gram, _as_columns(xq, dc))
        vz = xq.matmul(vander, z)
        dy = vz if len(shape_of(y)) == 2 else vz[:, 0]
        d_vander = xq.matmul(residual, xq.conj(xq.matrix_transpose(z))) - xq.matmul(
            vz, xq.conj(xq.matrix_transpose(_as_columns(xq, c)))
        )
        dx = xq.sum(d_vander * _power_derivatives(xq, x, exponents), axis=-1)
        return NO_TANGENT, project_x(dx), project_y(dy), NO_TANGENT

    return c, polyfit_pullback


@frule.register(np.polyfit)
def _polyfit_frule(tangents, x, y, deg):
    """dc = (V^T V)^-1 (dV^T res + V^T (dy - dV c))."""
    xq = array_namespace(x, y)
    c = np.polyfit(x, y, deg)
    dx, dy = unthunk(tangents[1]), unthunk(tangents[2])
    exponents = _exponents(deg + 1, increasing=False)
    vander = _powers(xq, x, exponents)
    c2 = _as_columns(xq, c)
    residual = _as_columns(xq, y) - xq.matmul(vander, c2)
    rhs = ZERO_TANGENT
    if not is_zero(dy):
        rhs = rhs + xq.matmul(xq.matrix_transpose(vander), _as_columns(xq, dy))
    if not is_zero(dx):
        d_vander = _power_derivatives(xq, x, exponents) * xq.expand_dims(dx, axis=-1)
        rhs = rhs + xq.matmul(xq.matrix_transpose(d_vander), residual)
        rhs = rhs - xq.matmul(xq.matrix_transpose(vander), xq.matmul(d_vander, c2))
    if is_zero(rhs):
        return c, ProjectTo(c)(rhs)
    gram = xq.matmul(xq.matrix_transpose(vander), vander)
    dc = xq.linalg.solve(gram, rhs)
    return c, ProjectTo(c)(dc if len(shape_of(c)) == 2 else dc[:, 0])
