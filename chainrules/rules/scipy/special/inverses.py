"""Rules for the inverses of distribution functions in one of their arguments (``gdtria``, ...).

Each of these SciPy functions solves ``F(theta) = p`` for one argument ``theta_s`` of a
distribution function ``F`` and takes ``F``'s other arguments in their places, with ``p`` in
place of ``theta_s``: ``gdtria(p, b, x)`` is the ``a`` with ``gdtr(a, b, x) = p``. By the
implicit function theorem, at the solution ``x``::

    dx/dp = 1 / F_s        dx/dtheta_i = -F_i / F_s        (F_i = dF/dtheta_i at theta_s = x)

``inverse_rule`` builds the rules from ``F``'s partials, so each inverse below is one line
naming its forward function and the argument it solves for. Where ``F_s`` is 0 the result is
infinite or NaN, as the mathematics says: at p = 0 or 1 the solution is often at an end of the
domain (``gdtrix(a, b, 0) = 0``, where dx/dp = inf for b > 1; ``gdtrix(a, b, 1) = inf``, where
the density's formula is NaN and so are the derivatives). Where SciPy's result does not solve
``F = p`` (no solution in SciPy's search range, when it returns an end of that range or
another sentinel), every derivative is NaN rather than a number of no meaning; a result counts
as a solution when ``|F(x) - p| <= 1e-4`` (SciPy's noncentral F inverses search a function
that differs from ``ncfdtr`` by up to about 1e-5) or within the rounding of ``x``.

The counts of the discrete laws are continued to real values as SciPy's inverses continue
them: ``bdtrik``/``bdtrin`` solve ``betainc(n - k, k + 1, 1 - p) = y``, ``nbdtrik``/``nbdtrin``
solve ``betainc(n, k + 1, p) = y`` and ``pdtrik`` solves ``gammaincc(k + 1, m) = p``.
``smirnovi``'s ``n`` is an integer (no tangent). Derivatives in shape parameters and degrees of
freedom come from quadrature (``incomplete``, ``distributions``, ``noncentral``) on NumPy values
only and are thunked; when the solved-for argument is such a parameter (``btdtria``,
``chndtridf``, ...), every derivative is, and none is differentiable again.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> mean, pullback = rrule(sc.nrdtrimn, 0.975, 2.0, 1.0)  # x - std ndtri(p)
>>> _, dp, dstd, dx = pullback(1.0)
>>> round(float(dstd), 9), round(float(dx), 12)  # -ndtri(p), 1
(-1.959963985, 1.0)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.special as sc

from ....core.define import ignore_derivatives
from ....core.parametric import SharedPartial, parametric_rule
from ....core.registry import function_name
from .distributions import (
    beta_density,
    chi2_density,
    f_density,
    fdtr_ddf,
    gamma_density,
    stdtr_ddf,
    student_density,
)
from .incomplete import betainc_da_db, gammainc_da
from .kolmogorov import kolmogorov_dx, smirnov_dd
from .noncentral import (
    chndtr_ddf,
    chndtr_dnc,
    ncfdtr_ddfn_ddfd,
    ncfdtr_dnc,
    nctdtr_ddf,
    nctdtr_dnc,
    noncentral_chi2_density,
    noncentral_f_density,
    noncentral_t_density,
)

__all__ = ["inverse_rule"]

# |F(x) - p| below which SciPy's result is taken as a solution (see the module doc)
_SOLVED = 1e-4


def inverse_rule(
    inverse: Any,
    forward: Callable[..., Any],
    *partials: Any,
    solves: int,
    costly: Sequence[int] = (),
) -> None:
    """Register the rules of ``inverse``, the solution of ``forward(*theta) = p`` for one theta.

    ``inverse`` takes ``forward``'s arguments with ``p`` in place of ``theta[solves]``.
    ``partials`` are ``forward``'s partial derivatives, one per argument: a function
    ``(*theta, p) -> dF/dtheta_i``, a ``SharedPartial`` of such, or ``None`` for an argument
    without tangent. ``costly`` lists those computed numerically: their cotangents are thunked
    and computed on NumPy values only (every cotangent, when the partial in the solved-for
    argument is one of them). ``forward`` itself checks that the result is a solution.

    >>> import scipy.special as sc
    >>> from chainrules.core.registry import rrule
    >>> x, pullback = rrule(sc.gdtrix, 1.0, 1.0, 0.5)  # -log(1 - p), dx/dp = 1 / (1 - p)
    >>> round(float(pullback(1.0)[3]), 12)
    2.0
    """
    if partials[solves] is None:
        raise ValueError(f"{function_name(inverse)} solves for an argument without a partial")
    problem = _Inverse(forward, partials, solves)

    def implicit_partials(*args: Any) -> _Solution:
        return _Solution(problem, args[:-1], args[-1])

    implicit_partials.__qualname__ = f"implicit_partials[{function_name(inverse)}]"
    shared = [
        None if d is None else SharedPartial(implicit_partials, i) for i, d in enumerate(partials)
    ]
    parametric_rule(
        inverse, *shared, costly=range(len(partials)) if solves in costly else tuple(costly)
    )


@dataclass(frozen=True)
class _Inverse:
    forward: Callable[..., Any]
    partials: tuple
    solves: int


class _Solution:
    """The derivatives of an inverse at one point, each computed when first asked for."""

    def __init__(self, problem: _Inverse, args: tuple, x: Any) -> None:
        theta = list(args)
        self.p = theta[problem.solves]
        theta[problem.solves] = x
        self.theta = tuple(theta)
        self.problem = problem
        self.memo: dict[Any, Any] = {}
        self.slope: Any = None  # dx/dp

    def __getitem__(self, i: int) -> Any:
        solves = self.problem.solves
        if self.slope is None:
            self.slope = self._slope()
        if i == solves:
            return self.slope
        with np.errstate(invalid="ignore"):
            return -self._forward_partial(i) * self.slope

    def _forward_partial(self, i: int) -> Any:
        partial = self.problem.partials[i]
        shared = isinstance(partial, SharedPartial)
        key = partial.fn if shared else partial
        if key not in self.memo:
            with np.errstate(divide="ignore", invalid="ignore"):
                self.memo[key] = key(*self.theta, self.p)
        return self.memo[key][partial.index] if shared else self.memo[key]

    def _slope(self) -> Any:
        ds = self._forward_partial(self.problem.solves)
        with np.errstate(divide="ignore"):
            slope = 1 / ds
        return np.where(self._solved(ds), slope, np.nan)

    def _solved(self, ds: Any) -> Any:
        """Where the result solves ``F = p``: within ``_SOLVED``, or within its own rounding."""
        theta = [_plain(v) for v in self.theta]
        x = ignore_derivatives(self.theta[self.problem.solves])
        eps = np.finfo(np.result_type(x, np.float32)).eps
        with np.errstate(all="ignore"):
            residual = np.abs(self.problem.forward(*theta) - _plain(self.p))
            rounding = 4 * eps * np.abs(theta[self.problem.solves] * _plain(ds))
            return (residual <= _SOLVED) | (np.isfinite(rounding) & (residual <= rounding))


def _plain(v: Any) -> Any:
    """NumPy values of ``v`` without derivatives, floats in double precision."""
    v = np.asarray(ignore_derivatives(v))
    return v if v.dtype.kind in "biu" else v.astype(np.float64)


# ---- forward functions continued to real counts, and partials not in a rule of their own --


def _bdtr_continued(k: Any, n: Any, p: Any) -> Any:
    return sc.betainc(np.subtract(n, k), np.add(k, 1), np.subtract(1, p))


def _bdtr_dk_dn(k: Any, n: Any, p: Any, y: Any) -> tuple[Any, Any]:
    da, db = betainc_da_db(np.subtract(n, k), np.add(k, 1), np.subtract(1, p))
    return db - da, da


def _nbdtr_continued(k: Any, n: Any, p: Any) -> Any:
    return sc.betainc(n, np.add(k, 1), p)


def _nbdtr_dk_dn(k: Any, n: Any, p: Any, y: Any) -> tuple[Any, Any]:
    da, db = betainc_da_db(n, np.add(k, 1), p)
    return db, da


def _chdtr_dv(v: Any, x: Any, p: Any) -> Any:
    """d/dv chdtr(v, x), with its limit -E1(x/2)/2 at v = 0 (1 - chdtr ~ v E1(x/2)/2 there),
    where ``chdtriv`` puts its solution for p = 1."""
    zero = np.equal(v, 0)
    half = np.where(zero, 1.0, np.divide(v, 2))
    return np.where(zero, -sc.exp1(np.divide(x, 2)), gammainc_da(half, np.divide(x, 2))) / 2


def _pdtr_continued(k: Any, m: Any) -> Any:
    return sc.gammaincc(np.add(k, 1), m)


def _betainc_da_db(a: Any, b: Any, x: Any, p: Any) -> tuple[Any, Any]:
    return betainc_da_db(a, b, x)


def _ncfdtr_ddf(dfn: Any, dfd: Any, nc: Any, f: Any, p: Any) -> tuple[Any, Any]:
    return ncfdtr_ddfn_ddfd(dfn, dfd, nc, f)


# ---- normal: the mean and the standard deviation, in closed form ---------------------------
# nrdtrimn(p, std, x) = x - std ndtri(p) and nrdtrisd(mn, p, x) = (x - mn) / ndtri(p), also at
# std = 0 (x = mn), where the implicit function's normal density is degenerate (NaN there);
# NaN where SciPy's value is


def _ndtri_slope(p: Any) -> Any:
    """d ndtri / dp = sqrt(2 pi) exp(ndtri(p)^2 / 2)."""
    return np.sqrt(2 * np.pi) * np.exp(sc.ndtri(p) ** 2 / 2)


def _where_found(y: Any, partial: Any) -> Any:
    return np.where(np.isnan(y), np.nan, partial)


parametric_rule(
    sc.nrdtrimn,
    lambda p, std, x, y: _where_found(y, -std * _ndtri_slope(p)),
    lambda p, std, x, y: _where_found(y, -sc.ndtri(p)),
    lambda p, std, x, y: _where_found(y, 1.0),
)
parametric_rule(
    sc.nrdtrisd,
    lambda mn, p, x, y: _where_found(y, -1 / sc.ndtri(p)),
    lambda mn, p, x, y: _where_found(y, -y * _ndtri_slope(p) / sc.ndtri(p)),
    lambda mn, p, x, y: _where_found(y, 1 / sc.ndtri(p)),
)

# ---- gamma, chi-squared and Poisson ---------------------------------------------------------

_GDTR = (
    sc.gdtr,
    lambda a, b, x, p: x * gamma_density(b, np.multiply(a, x)),
    lambda a, b, x, p: gammainc_da(b, np.multiply(a, x)),
    lambda a, b, x, p: a * gamma_density(b, np.multiply(a, x)),
)
inverse_rule(sc.gdtria, *_GDTR, solves=0, costly=(1,))
inverse_rule(sc.gdtrib, *_GDTR, solves=1, costly=(1,))
inverse_rule(sc.gdtrix, *_GDTR, solves=2, costly=(1,))
inverse_rule(
    sc.chdtriv,
    sc.chdtr,
    _chdtr_dv,
    lambda v, x, p: chi2_density(v, x),
    solves=0,
    costly=(0,),
)
inverse_rule(
    sc.pdtrik,
    _pdtr_continued,
    lambda k, m, p: -gammainc_da(np.add(k, 1), m),
    lambda k, m, p: -gamma_density(np.add(k, 1), m),
    solves=0,
    costly=(0,),
)

# ---- beta, binomial and negative binomial ---------------------------------------------------

_BETAINC = (
    sc.betainc,
    SharedPartial(_betainc_da_db, 0),
    SharedPartial(_betainc_da_db, 1),
    lambda a, b, x, p: beta_density(a, b, x),
)
inverse_rule(sc.btdtria, *_BETAINC, solves=0, costly=(0, 1))
inverse_rule(sc.btdtrib, *_BETAINC, solves=1, costly=(0, 1))
_BDTR = (
    _bdtr_continued,
    SharedPartial(_bdtr_dk_dn, 0),
    SharedPartial(_bdtr_dk_dn, 1),
    lambda k, n, p, y: -beta_density(np.subtract(n, k), np.add(k, 1), np.subtract(1, p)),
)
inverse_rule(sc.bdtrik, *_BDTR, solves=0, costly=(0, 1))
inverse_rule(sc.bdtrin, *_BDTR, solves=1, costly=(0, 1))
_NBDTR = (
    _nbdtr_continued,
    SharedPartial(_nbdtr_dk_dn, 0),
    SharedPartial(_nbdtr_dk_dn, 1),
    lambda k, n, p, y: beta_density(n, np.add(k, 1), p),
)
inverse_rule(sc.nbdtrik, *_NBDTR, solves=0, costly=(0, 1))
inverse_rule(sc.nbdtrin, *_NBDTR, solves=1, costly=(0, 1))

# ---- F and Student's t: degrees of freedom --------------------------------------------------

inverse_rule(
    sc.fdtridfd,
    sc.fdtr,
    SharedPartial(fdtr_ddf, 0),
    SharedPartial(fdtr_ddf, 1),
    lambda dfn, dfd, x, p: f_density(dfn, dfd, x),
    solves=1,
    costly=(0, 1),
)
inverse_rule(
    sc.stdtridf,
    sc.stdtr,
    stdtr_ddf,
    lambda df, t, p: student_density(df, t),
    solves=0,
    costly=(0,),
)

# ---- Kolmogorov-Smirnov: inverses of the survival functions ---------------------------------

inverse_rule(sc.kolmogi, sc.kolmogorov, kolmogorov_dx, solves=0)
inverse_rule(sc.smirnovi, sc.smirnov, None, smirnov_dd, solves=1)

# ---- noncentral chi-squared, F and t --------------------------------------------------------

_CHNDTR = (
    sc.chndtr,
    lambda x, df, nc, p: noncentral_chi2_density(x, df, nc),
    lambda x, df, nc, p: chndtr_ddf(x, df, nc),
    chndtr_dnc,
)
inverse_rule(sc.chndtrix, *_CHNDTR, solves=0, costly=(1,))
inverse_rule(sc.chndtridf, *_CHNDTR, solves=1, costly=(1,))
inverse_rule(sc.chndtrinc, *_CHNDTR, solves=2, costly=(1,))
_NCFDTR = (
    sc.ncfdtr,
    SharedPartial(_ncfdtr_ddf, 0),
    SharedPartial(_ncfdtr_ddf, 1),
    ncfdtr_dnc,
    lambda dfn, dfd, nc, f, p: noncentral_f_density(dfn, dfd, nc, f),
)
inverse_rule(sc.ncfdtridfn, *_NCFDTR, solves=0, costly=(0, 1))
inverse_rule(sc.ncfdtridfd, *_NCFDTR, solves=1, costly=(0, 1))
inverse_rule(sc.ncfdtrinc, *_NCFDTR, solves=2, costly=(0, 1))
inverse_rule(sc.ncfdtri, *_NCFDTR, solves=3, costly=(0, 1))
_NCTDTR = (
    sc.nctdtr,
    lambda df, nc, t, p: nctdtr_ddf(df, nc, t),
    lambda df, nc, t, p: nctdtr_dnc(df, nc, t),
    lambda df, nc, t, p: noncentral_t_density(df, nc, t),
)
inverse_rule(sc.nctdtridf, *_NCTDTR, solves=0, costly=(0,))
inverse_rule(sc.nctdtrinc, *_NCTDTR, solves=1, costly=(0,))
inverse_rule(sc.nctdtrit, *_NCTDTR, solves=2, costly=(0,))
