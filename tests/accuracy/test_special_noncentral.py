"""Accuracy of the noncentral distribution functions' derivatives in their argument, against mpmath.

Degrees of freedom and noncentrality at representative values; the references are the
densities as Poisson mixtures of the central densities (chi-squared, F) and the noncentral t
density's closed form, all summed at 50 digits. Each row states the relative accuracy of the
first and second derivative reached through every engine route (``reference.measure``); the
docs' accuracy table is built from ``ROWS``.
"""

from __future__ import annotations

import functools

import mpmath
import pytest
import scipy.special as sc
from reference import Sweep, failures


@functools.cache
def _poisson_weights(mean, digits):
    # for mean 1, the weights beyond j = 80 are below 1e-118; kept per mean and working
    # precision (each sweep asks for the same weights at every argument)
    return [mpmath.exp(j * mpmath.log(mean) - mean - mpmath.loggamma(j + 1)) for j in range(80)]


def _poisson_mixture(mean, term):
    # summed term by term: nsum's extrapolation is wrong in the 6th digit where 1 - w is tiny
    return mpmath.fsum(
        w * term(j) for j, w in enumerate(_poisson_weights(mpmath.mpf(mean), mpmath.mp.dps))
    )


@functools.cache
def _log_gamma(a, digits):
    # per working precision, as the weights
    return mpmath.loggamma(a)


def _chi2_density(df, x, order):
    # d^order/dx^order of the chi-squared density with df degrees of freedom
    def density(t):
        return (
            mpmath.exp((df / 2 - 1) * mpmath.log(t / 2) - t / 2 - _log_gamma(df / 2, mpmath.mp.dps))
            / 2
        )

    if order == 0:
        return density(x)
    return density(x) * ((df / 2 - 1) / x - mpmath.mpf(1) / 2)


def _ncx2(df, nc, x, order):
    return _poisson_mixture(nc / 2, lambda j: _chi2_density(df + 2 * j, x, order))


@functools.cache
def _log_beta(a, b, digits):
    # per working precision, as the weights
    return mpmath.log(mpmath.beta(a, b))


def _beta_density(a, b, w, v, order):
    # v = 1 - w, formed apart: at f = 1e300, 1 - w is below 50 digits' resolution
    density = mpmath.exp(
        (a - 1) * mpmath.log(w) + (b - 1) * mpmath.log(v) - _log_beta(a, b, mpmath.mp.dps)
    )
    return density if order == 0 else density * ((a - 1) / w - (b - 1) / v)


def _ncf(dfn, dfd, nc, f, order):
    # betainc(dfn/2 + j, dfd/2, w) mixed, w = dfn f / (dfn f + dfd), dw/df = dfn dfd / s**2
    s = dfn * f + dfd
    w, v, dw, d2w = dfn * f / s, dfd / s, dfn * dfd / s**2, -2 * dfn * dfn * dfd / s**3

    def term(j):
        a, b = dfn / 2 + j, dfd / 2
        if order == 1:
            return _beta_density(a, b, w, v, 0) * dw
        return _beta_density(a, b, w, v, 1) * dw * dw + _beta_density(a, b, w, v, 0) * d2w

    return _poisson_mixture(nc / 2, term)


def _nct_density(df, nc, t):
    s = df + t * t
    z = nc * nc * t * t / (2 * s)
    scale = mpmath.exp(
        df / 2 * mpmath.log(df)
        + mpmath.loggamma(df + 1)
        - nc * nc / 2
        - df * mpmath.log(2)
        - (df + 1) / 2 * mpmath.log(s)
        - mpmath.loggamma(df / 2)
    )
    odd = mpmath.sqrt(2) * nc * t / mpmath.sqrt(s) * mpmath.hyp1f1(df / 2 + 1, 1.5, z)
    odd = odd / mpmath.gamma((df + 1) / 2)
    even = mpmath.hyp1f1((df + 1) / 2, 0.5, z) / mpmath.gamma(df / 2 + 1)
    return scale * (odd + even)


def _diff(f, x):
    # the density is smooth through 0: a step relative to max(|x|, 1) keeps 35 digits
    return mpmath.diff(f, x, h=max(abs(x), 1) * mpmath.mpf(10) ** -15)


ROWS = [
    Sweep(
        "chndtr (in x, df = 3, nc = 2)",
        lambda x: sc.chndtr(x, 3.0, 2.0),
        lambda x: _poisson_mixture(
            1, lambda j: mpmath.gammainc(1.5 + j, 0, x / 2, regularized=True)
        ),
        points=(1.0, 3.0, 1e-300),
        ranges=((1e-300, 1e4),),
        per_decade=0.3,
        mp1=lambda x: _ncx2(3, 2, x, 0),
        mp2=lambda x: _ncx2(3, 2, x, 1),
        rtol=(5e-13, 5e-13),
    ),
    Sweep(
        "ncfdtr (in f, dfn = 3, dfd = 5, nc = 2)",
        lambda f: sc.ncfdtr(3.0, 5.0, 2.0, f),
        lambda f: _poisson_mixture(
            1, lambda j: mpmath.betainc(1.5 + j, 2.5, 0, 3 * f / (3 * f + 5), regularized=True)
        ),
        points=(1.0, 0.5, 1e-300),
        ranges=((1e-300, 1e300),),
        per_decade=0.3,
        mp1=lambda f: _ncf(3, 5, 2, f, 1),
        mp2=lambda f: _ncf(3, 5, 2, f, 2),
        rtol=(1e-12, 1e-12),
    ),
    Sweep(
        "nctdtr (in t, df = 3, nc = 1)",
        lambda t: sc.nctdtr(3.0, 1.0, t),
        lambda t: mpmath.quad(lambda u: _nct_density(3, 1, u), [-mpmath.inf, t]),
        points=(0.0, 1.0, -1.0),
        ranges=((-1e10, -1e-300), (1e-300, 1e10)),
        per_decade=0.3,
        mp1=lambda t: _nct_density(3, 1, t),
        rtol=(7e-14, 6e-14),
        mp2=lambda t: _diff(lambda u: _nct_density(3, 1, u), t),
    ),
]


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_accuracy(row):
    assert failures(row) == []
