"""Building blocks of the linear-algebra rules: adjoints, triangles, solvers, output cotangents.

* ``mH`` is the conjugate transpose of a stack of matrices, ``sym`` and ``skew`` its
  Hermitian and skew-Hermitian parts (without the factor one half).
* ``lower_hermitian`` and ``lower_hermitian_cotangent`` describe functions that read one
  triangle of a Hermitian matrix (``cholesky``, ``eigh``): the matrix they see, and the
  cotangent on the triangle they read, given the gradient with respect to that matrix.
* ``Factored`` is a square matrix (or stack) factorized once, by LAPACK's LU for NumPy inputs,
  so that solves with it and with its adjoint cost one pair of triangular solves each; other
  array types (an engine's tracked values) solve through their namespace.
* ``output_fields`` reads the cotangent of a function with several outputs.

>>> a = np.array([[2.0, 1.0], [0.0, 4.0]])
>>> Factored(a).solve(np.array([[1.0], [4.0]]), adjoint=True)
array([[0.5 ],
       [0.875]])
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.linalg as sla

from ..core.namespace import array_namespace
from ..core.tangents import ZERO_TANGENT, AbstractZero, Tangent
from ..core.thunks import unthunk

__all__ = [
    "Factored",
    "as_given",
    "as_matrix",
    "diag_embed",
    "eye_like",
    "is_complex",
    "lower_hermitian",
    "lower_hermitian_cotangent",
    "lower_symmetric",
    "lower_symmetric_cotangent",
    "mH",
    "mT",
    "output_fields",
    "output_tangent",
    "safe_reciprocal",
    "skew",
    "solve_triangular",
    "solve_triangular_right",
    "sym",
    "trailing",
]


def is_complex(x: Any) -> bool:
    """Whether ``x`` holds complex numbers (decided on its dtype, a Python value)."""
    dtype = getattr(x, "dtype", None)
    if isinstance(dtype, np.dtype):
        return dtype.kind == "c"
    if dtype is None:
        return isinstance(x, complex)
    return "complex" in str(dtype)


def mT(a: Any) -> Any:
    """The transpose of the last two axes."""
    return array_namespace(a).matrix_transpose(a)


def mH(a: Any) -> Any:
    """The conjugate transpose of the last two axes; a plain transpose for real ``a``."""
    xp = array_namespace(a)
    at = xp.matrix_transpose(a)
    return xp.conj(at) if is_complex(a) else at


def as_matrix(b: Any, vector: bool) -> Any:
    """``b`` as a stack of matrices: a right-hand side given as a ``vector`` becomes a column.

    >>> import numpy as np
    >>> as_matrix(np.ones(2), vector=True).shape
    (2, 1)
    """
    return b[..., None] if vector else b


def as_given(x: Any, vector: bool) -> Any:
    """The inverse of ``as_matrix``: a column back to the ``vector`` it was given as.

    >>> import numpy as np
    >>> as_given(np.ones((2, 1)), vector=True).shape
    (2,)
    """
    return x[..., 0] if vector else x


def sym(a: Any) -> Any:
    """``a + a^H``."""
    return a + mH(a)


def skew(a: Any) -> Any:
    """``a - a^H``."""
    return a - mH(a)


def eye_like(a: Any, n: int | None = None) -> Any:
    """The ``n x n`` identity (``n`` defaults to ``a``'s last axis) in ``a``'s dtype."""
    xp = array_namespace(a)
    return xp.eye(a.shape[-1] if n is None else n, dtype=a.dtype)


def diag_embed(d: Any) -> Any:
    """Stacks of diagonal matrices with the vectors ``d[..., :]`` on their diagonals."""
    xp = array_namespace(d)
    n = d.shape[-1]
    return d[..., :, None] * xp.eye(n, dtype=d.dtype)


def trailing(d: Any, count: int = 2) -> Any:
    """``d`` (an array, a NumPy or Python scalar, a tracked scalar) with ``count`` trailing
    axes of length one, to scale a stack of matrices (or vectors) by it."""
    xp = array_namespace(d)
    return xp.reshape(d, tuple(getattr(d, "shape", ())) + (1,) * count)


def safe_reciprocal(d: Any, tol: Any) -> Any:
    """``1 / d`` where ``|d| > tol`` and ``0`` elsewhere, with no division by a small ``d``.

    Rules use it to mask the couplings between equal singular values or eigenvalues, and
    null singular values; both branches of the ``where`` stay finite, so an engine
    differentiating the result sees no infinity either.
    """
    xp = array_namespace(d)
    keep = xp.abs(d) > tol
    return xp.where(keep, 1 / xp.where(keep, d, xp.ones_like(d)), xp.zeros_like(d))


def lower_hermitian(a: Any, upper: bool = False) -> Any:
    """The Hermitian matrix that a function reading only one triangle of ``a`` sees.

    Its strict lower (or upper) triangle is ``a``'s, its other triangle the conjugate
    transpose of that, and its diagonal the real part of ``a``'s, as LAPACK reads it.
    """
    xp = array_namespace(a)
    tri = xp.triu(a, k=1) if upper else xp.tril(a, k=-1)
    diagonal = xp.real(xp.linalg.diagonal(a)) if is_complex(a) else xp.linalg.diagonal(a)
    return tri + mH(tri) + diag_embed(xp.astype(diagonal, a.dtype))


def lower_symmetric(a: Any, upper: bool = False) -> Any:
    """The complex-symmetric matrix (``m^T = m``) that a function reading one triangle of
    ``a`` sees: that triangle, transposed onto the other, and ``a``'s diagonal."""
    xp = array_namespace(a)
    tri = xp.triu(a, k=1) if upper else xp.tril(a, k=-1)
    return tri + mT(tri) + diag_embed(xp.linalg.diagonal(a))


def lower_symmetric_cotangent(g: Any, upper: bool = False) -> Any:
    """The adjoint of ``lower_symmetric``: ``tril(g + g^T, -1) + diag(g)``."""
    xp = array_namespace(g)
    both = g + mT(g)
    tri = xp.triu(both, k=1) if upper else xp.tril(both, k=-1)
    return tri + diag_embed(xp.linalg.diagonal(g))


def lower_hermitian_cotangent(g: Any, upper: bool = False) -> Any:
    """The cotangent on the triangle read, from the gradient ``g`` with respect to the
    Hermitian matrix that ``lower_hermitian`` gives: ``tril(g + g^H, -1) + Re diag(g)``.

    >>> lower_hermitian_cotangent(np.array([[1.0, 2.0], [3.0, 4.0]]))
    array([[1., 0.],
           [5., 4.]])
    """
    xp = array_namespace(g)
    both = sym(g)
    tri = xp.triu(both, k=1) if upper else xp.tril(both, k=-1)
    diagonal = xp.linalg.diagonal(g)
    if is_complex(g):
        diagonal = xp.astype(xp.real(diagonal), g.dtype)
    return tri + diag_embed(diagonal)


def solve_triangular(t: Any, b: Any, *, lower: bool, adjoint: bool = False) -> Any:
    """``t^{-1} b`` (``t^{-H} b`` with ``adjoint``) for a triangular ``t``, stacks allowed.

    NumPy inputs go to LAPACK's triangular solver; other array types (an engine's tracked
    values) to their namespace's general ``linalg.solve``, which an engine records.
    """
    if type(t) is np.ndarray and type(b) is np.ndarray:
        # NumPy-only path: SciPy's LAPACK wrappers accept nothing else.
        batch = np.broadcast_shapes(t.shape[:-2], b.shape[:-2])
        t = np.broadcast_to(t, batch + t.shape[-2:])
        b = np.broadcast_to(b, batch + b.shape[-2:])
        return sla.solve_triangular(
            t, b, lower=lower, trans=2 if adjoint else 0, check_finite=False
        )
    xp = array_namespace(t, b)
    t, b = _batch_broadcast(mH(t) if adjoint else t, b)
    return xp.linalg.solve(t, b)


def solve_triangular_right(b: Any, t: Any, *, lower: bool, adjoint: bool = False) -> Any:
    """``b t^{-1}`` (``b t^{-H}`` with ``adjoint``) for a triangular ``t``."""
    return mH(solve_triangular(t, mH(b), lower=lower, adjoint=not adjoint))


def output_fields(dy: Any, names: Sequence[str]) -> tuple[Any, ...]:
    """The cotangents of a multi-output result, one per field name, unthunked.

    ``dy`` may be a zero, a ``Tangent`` of the result's namedtuple (fields by name, missing
    ones zero), a positional ``Tangent`` or a plain tuple.
    """
    dy = unthunk(dy)
    if isinstance(dy, AbstractZero):
        return (ZERO_TANGENT,) * len(names)
    if isinstance(dy, Tangent) and not dy.is_positional:
        return tuple(unthunk(dy[n]) for n in names)
    return tuple(unthunk(d) for d in dy)


def output_tangent(result_type: type, names: Sequence[str], values: Sequence[Any]) -> Any:
    """The frule's tangent of a namedtuple result: a ``Tangent`` with one field per output."""
    return Tangent(result_type, **dict(zip(names, values, strict=True)))


def _batch_broadcast(a: Any, b: Any) -> tuple[Any, Any]:
    """``a`` (..., n, n) and ``b`` (..., n, k) with their batch axes broadcast together."""
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    xp = array_namespace(a, b)
    return (
        xp.broadcast_to(a, batch + tuple(a.shape[-2:])),
        xp.broadcast_to(b, batch + tuple(b.shape[-2:])),
    )


class Factored:
    """A square matrix (or a stack of them), factorized once for repeated solves.

    NumPy inputs are factorized by LAPACK's LU (``scipy.linalg.lu_factor``), and ``solve``
    with ``adjoint=True`` reuses that factorization (``lu_solve`` with ``trans=2``): the
    pullback of a solve then costs one pair of triangular solves. Other array types solve
    with their namespace's ``linalg.solve``, which an engine records.
    """

    __slots__ = ("a", "batch", "lu")

    def __init__(self, a: Any) -> None:
        self.a = a
        self.batch = tuple(a.shape[:-2])
        self.lu: Any = None
        if type(a) is np.ndarray:
            # NumPy-only path: SciPy's LAPACK wrappers accept nothing else. A singular matrix
            # is for the caller to judge (slogdet gives -inf, solve raises).
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", sla.LinAlgWarning)
                self.lu = sla.lu_factor(a, check_finite=False)

    def require_invertible(self) -> Factored:
        """``self``, after raising ``LinAlgError`` as NumPy does if the matrix is singular."""
        if self.lu is not None and np.any(np.linalg.diagonal(self.lu[0]) == 0):
            raise np.linalg.LinAlgError("Singular matrix")
        return self

    def solve(self, b: Any, adjoint: bool = False) -> Any:
        """``a^{-1} b`` (``a^{-H} b`` with ``adjoint``) for ``b`` of shape (..., n, k)."""
        xp = array_namespace(self.a, b)
        if self.lu is not None and type(b) is np.ndarray:
            batch = np.broadcast_shapes(self.batch, b.shape[:-2])
            lu, piv = self.lu
            if batch != self.batch:
                lu = np.broadcast_to(lu, batch + lu.shape[-2:])
                piv = np.broadcast_to(piv, batch + piv.shape[-1:])
            b = np.broadcast_to(b, batch + b.shape[-2:])
            return sla.lu_solve((lu, piv), b, trans=2 if adjoint else 0, check_finite=False)
        a, b = _batch_broadcast(mH(self.a) if adjoint else self.a, b)
        return xp.linalg.solve(a, b)

    def inverse(self) -> Any:
        """``a^{-1}``."""
        return self.solve(eye_like(self.a))

    def logdet(self) -> tuple[Any, Any]:
        """``(sign, log|det a|)`` from the LU factors (NumPy inputs only)."""
        lu, piv = self.lu
        diagonal = np.linalg.diagonal(lu)
        swaps = np.sum(piv != np.arange(piv.shape[-1]), axis=-1)
        magnitude = np.abs(diagonal)
        phase = np.prod(diagonal / magnitude, axis=-1) * (1 - 2 * (swaps % 2))
        return phase, np.sum(np.log(magnitude), axis=-1)
