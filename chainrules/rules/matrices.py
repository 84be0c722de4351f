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

import inspect
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import scipy.linalg as sla

from ..core.dtypes import is_complex
from ..core.errors import ProjectionError
from ..core.lazy import is_lazy
from ..core.names import function_name
from ..core.namespace import array_namespace, is_numpy
from ..core.projection import ProjectTo
from ..core.registry import frule, rrule
from ..core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from ..core.thunks import unthunk
from ..core.zeros import is_zero

__all__ = [
    "Factored",
    "as_given",
    "as_matrix",
    "as_returned",
    "diag_embed",
    "eye_like",
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
    "tangent_like",
    "trailing",
]


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


def cholesky_factor(h: Any, upper: bool = False) -> Any:
    """The Cholesky factor of the Hermitian ``h`` (lower, or upper with ``upper``) in ``h``'s
    namespace: for arrays other than NumPy's (an engine's tracked values, dask arrays).

    Dask's namespace (array-api-compat's) answers ``upper=False`` with the upper factor, a
    silently wrong matrix; dask's own function is asked for the lower one instead.
    """
    if is_lazy(h):
        import dask.array

        low = dask.array.linalg.cholesky(h, lower=True)
        return mH(low) if upper else low
    return array_namespace(h).linalg.cholesky(h, upper=upper)


def solve_triangular(t: Any, b: Any, *, lower: bool, adjoint: bool = False) -> Any:
    """``t^{-1} b`` (``t^{-H} b`` with ``adjoint``) for a triangular ``t``, stacks allowed.

    NumPy inputs go to LAPACK's triangular solver; other array types (an engine's tracked
    values) to their namespace's general ``linalg.solve``, which an engine records.
    """
    if is_numpy(t, b):
        # NumPy-only path: SciPy's LAPACK wrappers accept nothing else.
        batch = np.broadcast_shapes(t.shape[:-2], b.shape[:-2])
        if 0 in batch:  # SciPy refuses empty stacks
            return np.zeros(batch + b.shape[-2:], np.result_type(t, b, np.float64))
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


def output_fields(
    dy: Any, names: Sequence[str], outputs: Sequence[Any] | None = None, f: Any = None
) -> tuple[Any, ...]:
    """The cotangents of a multi-output result, one per field name, unthunked.

    ``dy`` may be a zero, a ``Tangent`` of the result's namedtuple (fields by name, missing
    ones zero), a positional ``Tangent``, a plain tuple or a list. Given the ``outputs``
    (the result's components, in the order of ``names``) and the function ``f`` (or its
    name), an array
    cotangent whose shape is not its component's raises ``ProjectionError`` naming ``f``,
    the component and both shapes: a pullback would otherwise broadcast or sum it silently.

    >>> output_fields((np.ones(2), None), ("w", "v"), (np.zeros(3), np.zeros((3, 3))), np.sin)
    Traceback (most recent call last):
    ...
    chainrules.core.errors.ProjectionError: the pullback of numpy.sin was given a cotangent \
of shape (2,) for its output 'w' of shape (3,)
    """
    dy = unthunk(dy)
    if is_zero(dy):
        return (ZERO_TANGENT,) * len(names)
    if isinstance(dy, Tangent) and not dy.is_positional:
        fields = tuple(unthunk(dy[n]) for n in names)
    else:
        fields = tuple(unthunk(d) for d in dy)
    if outputs is not None:
        for name, y, d in zip(names, outputs, fields, strict=False):
            _check_component(f, name, y, d)
    return fields


def _check_component(f: Any, name: str, y: Any, d: Any) -> None:
    y_shape, d_shape = getattr(y, "shape", None), getattr(d, "shape", None)
    if type(y_shape) is not tuple or type(d_shape) is not tuple or is_zero(d):
        return  # a number, a zero, an output without a tangent (a rank, a flag)
    known = all(type(n) is int for n in (*y_shape, *d_shape))  # dask's unknown are NaN
    if known and d_shape != y_shape:
        raise ProjectionError(
            f"the pullback of {f if isinstance(f, str) else function_name(f)} was given a "
            f"cotangent of shape {d_shape} "
            f"for its output {name!r} of shape {y_shape}"
        )


def as_returned(result: tuple, a: Any) -> tuple | list:
    """``result`` in SciPy's container: a list for a stack of matrices (SciPy applies a
    decomposition matrix by matrix and collects its outputs in a list), else the tuple."""
    return list(result) if a.ndim > 2 else result


def tangent_like(result: Any, *values: Any) -> Tangent:
    """The positional ``Tangent`` of the tuple or list ``result``."""
    return Tangent(type(result), *values)


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
        if is_numpy(a):
            # NumPy-only path: SciPy's LAPACK wrappers accept nothing else. A singular matrix
            # is for the caller to judge (slogdet gives -inf, solve raises).
            if 0 in self.batch:  # SciPy refuses empty stacks; they have nothing to factor
                n = a.shape[-1]
                self.lu = (np.zeros_like(a), np.zeros((*self.batch, n), np.int32))
                return
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
        if self.lu is not None and is_numpy(b):
            batch = np.broadcast_shapes(self.batch, b.shape[:-2])
            lu, piv = self.lu
            if batch != self.batch:
                lu = np.broadcast_to(lu, batch + lu.shape[-2:])
                piv = np.broadcast_to(piv, batch + piv.shape[-1:])
            if 0 in batch:
                return np.zeros(batch + b.shape[-2:], np.result_type(lu, b))
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


# ---- inverses and solves: the mathematics NumPy and SciPy share ------------------------------


def inv_pullback_of(y: Any, dy: Any) -> Any:
    """The cotangent of ``a`` for ``y = inv(a)``: ``-y^H dy y^H`` (stacks of matrices).

    >>> inv_pullback_of(np.array([[0.5]]), np.array([[1.0]]))
    array([[-0.25]])
    """
    xp = array_namespace(y, dy)
    y_h = mH(y)
    return -xp.matmul(xp.matmul(y_h, dy), y_h)


def inv_pushforward_of(y: Any, da: Any) -> Any:
    """The tangent of ``y = inv(a)`` along ``da``: ``-y da y`` (stacks of matrices).

    >>> inv_pushforward_of(np.array([[0.5]]), np.array([[1.0]]))
    array([[-0.25]])
    """
    xp = array_namespace(y, da)
    return -xp.matmul(xp.matmul(y, da), y)


def solve_pullback_of(factored: Any, x: Any, vector: bool, dy: Any) -> tuple[Any, Any]:
    """The cotangents ``(da, db)`` of ``x = a^{-1} b`` (``x`` as a stack of matrices, ``b`` a
    ``vector`` or not), by one solve with ``a^H`` through the forward factors:
    ``db = a^{-H} dy``, ``da = -db x^H``."""
    db = factored.solve(as_matrix(dy, vector), adjoint=True)
    return -array_namespace(db, x).matmul(db, mH(x)), as_given(db, vector)


def solve_pushforward_of(factored: Any, x: Any, vector: bool, da: Any, db: Any) -> Any:
    """The tangent of ``x = a^{-1} b``: ``a^{-1} (db - da x)``, skipping a zero ``da`` or ``db``
    (never both)."""
    xp = array_namespace(x)
    rhs: Any = ZERO_TANGENT if is_zero(db) else as_matrix(db, vector)
    if not is_zero(da):
        rhs = rhs - xp.matmul(da, x)
    dx = factored.solve(xp.broadcast_to(rhs, x.shape))
    return ProjectTo(as_given(x, vector))(as_given(dx, vector))


# ---- matrix_rule: the rules of a matrix function from its mathematics ------------------------


class Reading:
    """How a matrix function reads its matrix argument ``a``: all of it (this class), or, in a
    subclass, a linear map of it (one triangle of a Hermitian matrix, a transpose) with
    ``adjoint`` carrying a cotangent of the matrix read back to ``a``."""

    def read(self, a: Any) -> Any:
        """The matrix the function computes with (also applied to tangents of ``a``)."""
        return a

    def adjoint(self, g: Any) -> Any:
        """The cotangent of ``a`` from the cotangent ``g`` of the matrix read."""
        return g


WHOLE = Reading()


def matrix_rule(
    f: Any,
    *,
    primal: Callable[..., tuple[Any, tuple]],
    pullback: Callable[..., Any],
    pushforward: Callable[..., Any],
    arguments: Sequence[str] = ("a",),
    reads: Callable[..., Reading] | None = None,
    ignores: Sequence[str] = (),
) -> None:
    """Register the rrule and the frule of ``f``, a function of the arrays ``arguments``
    (a matrix first), from its mathematics:

    * ``primal(m, *others) -> (y, saved)``: ``f``'s output from the matrix read ``m`` and the
      other arrays, with the tuple ``saved`` of what the derivatives reuse (factors, the
      output); a primal with a ``reading`` parameter also receives the ``Reading``;
    * ``pullback(*saved, dy)``: the cotangent of ``m`` (of several arrays, a tuple of them);
    * ``pushforward(*saved, dm, *d_others)``: the tangent of ``y`` (with several arrays, any
      zero tangents but not all).

    ``reads``, when given, is a function whose signature declares ``f``'s further arguments
    (positional ones after the arrays, keywords) that decide how ``f`` reads its matrix; it
    returns that ``Reading``. ``ignores`` are keywords ``f`` accepts that change nothing the
    rules compute (``check_finite``): accepted and dropped. Cotangents are projected onto
    the arguments; arguments other than the arrays get ``NoTangent()``.

    >>> from chainrules.core.registry import rrule
    >>> y, pullback = rrule(np.linalg.inv, np.array([[2.0]]))  # matrix_rule(np.linalg.inv, ...)
    >>> pullback(np.array([[1.0]]))
    (NoTangent(), array([[-0.25]]))
    """
    count = len(arguments)
    options = [] if reads is None else list(inspect.signature(reads).parameters.values())
    takes_reading = "reading" in inspect.signature(primal).parameters
    parameters = [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in arguments]
    parameters += options
    parameters += [
        inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=None) for n in ignores
    ]
    signature = inspect.Signature(parameters)

    def forward(args: tuple, kwargs: dict) -> tuple[Any, tuple, Reading, tuple]:
        if kwargs or len(args) != count:
            bound = signature.bind(*args, **kwargs)
            given = bound.arguments
            arrays = tuple(given[n] for n in arguments)
            chosen = {p.name: given[p.name] for p in options if p.name in given}
            reading = WHOLE if reads is None else reads(**chosen)
        else:
            arrays = args
            reading = WHOLE if reads is None else reads()
        extra = {"reading": reading} if takes_reading else {}
        y, saved = primal(reading.read(arrays[0]), *arrays[1:], **extra)
        return y, saved, reading, arrays

    def rule(*args: Any, **kwargs: Any) -> Any:
        y, saved, reading, arrays = forward(args, kwargs)
        projectors = [ProjectTo(x) for x in arrays]
        rest = (NO_TANGENT,) * (len(args) - count)

        def pullback_of_matrix(dy: Any) -> tuple:
            cotangents = pullback(*saved, dy)
            cotangents = (cotangents,) if count == 1 else tuple(cotangents)
            cotangents = (reading.adjoint(cotangents[0]), *cotangents[1:])
            return (NO_TANGENT, *(p(c) for p, c in zip(projectors, cotangents, strict=True)), *rest)

        return y, pullback_of_matrix

    def tangent_rule(tangents: tuple, *args: Any, **kwargs: Any) -> Any:
        y, saved, reading, _ = forward(args, kwargs)
        d = tuple(tangents[1 : 1 + count])
        if all(is_zero(t) for t in d):
            return y, d[0] if count == 1 and d[0] is not None else ZERO_TANGENT
        dm = d[0] if is_zero(d[0]) else reading.read(d[0])
        return y, pushforward(*saved, dm, *d[1:])

    tangents = inspect.Parameter("tangents", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    for generated, table, sig in (
        (rule, rrule, signature),
        (tangent_rule, frule, signature.replace(parameters=[tangents, *parameters])),
    ):
        generated.__signature__ = sig  # type: ignore[union-attr]
        # One qualname per generated rule, so that the registry's descriptions tell them apart.
        table.register(f)(generated)
