"""Rules for NumPy: ``np.fft`` (fft, ifft, their 2-D and n-D forms, real and Hermitian transforms).

Every transform is linear, so the pushforward is the transform of the tangent and the pullback
its adjoint. The adjoint of a complex transform is the inverse transform with the dual norm
(``backward`` and ``forward`` swap, ``ortho`` stays), followed by undoing the padding or
truncation that ``n`` / ``s`` asked for. The real transforms keep only half the spectrum:
``rfft``'s adjoint halves the bins that stand for a conjugate pair (all but DC and, for even
lengths, Nyquist) before an ``irfft``, and ``irfft``'s adjoint doubles them after an ``rfft``.
``hfft`` and ``ihfft`` are conjugated real transforms. ``fftfreq`` and ``rfftfreq`` are
non-differentiable.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(np.fft.rfft, np.ones(4))
>>> pullback(np.array([1.0, 0.0, 0.0]))[1]
array([1., 1., 1., 1.])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.define import non_differentiable
from ...core.linear import linear_rule
from ...core.namespace import array_namespace, numpy_dispatches
from ...core.shapes import normalize_axis

__all__: list[str] = []

_DUAL_NORM = {None: "forward", "backward": "forward", "forward": "backward", "ortho": "ortho"}


def _fft_module(x: Any) -> Any:
    return getattr(array_namespace(x), "fft", np.fft)


def _transform(f: Any, keywords: tuple[str, ...], default_axes: Any = None) -> Any:
    """``f`` on NumPy arrays, the namespace's transform of the same name on other arrays.

    The array API's transforms take their options by keyword, spell NumPy's default norm
    ``"backward"`` and have no 2-D forms: those are its n-D forms over the last two axes.
    """
    name = f.__name__.replace("2", "n")

    def transform(x: Any, *params: Any, **kwargs: Any) -> Any:
        if numpy_dispatches(x):
            return f(x, *params, **kwargs)
        options = {**dict(zip(keywords, params, strict=False)), **kwargs}
        if options.get("norm") is None:
            options["norm"] = "backward"
        if default_axes is not None and options.get("axes") is None and options.get("s") is None:
            options["axes"] = default_axes
        return getattr(_fft_module(x), name)(x, **options)

    transform.__name__ = transform.__qualname__ = f.__name__
    return transform


def _fit(x: Any, axis: int, length: int) -> Any:
    """``x`` truncated or zero-padded to ``length`` along ``axis``: the adjoint of ``n=``."""
    n = x.shape[axis]
    if n == length:
        return x
    if n > length:
        return x[(slice(None),) * axis + (slice(0, length),)]
    xp = array_namespace(x)
    shape = list(x.shape)
    shape[axis] = length - n
    return xp.concat([x, xp.zeros(tuple(shape), dtype=x.dtype)], axis=axis)


def _along(values: np.ndarray, axis: int, ndim: int, like: Any) -> Any:
    """A 1-D weight vector shaped to broadcast along ``axis``."""
    shape = [1] * ndim
    shape[axis] = values.size
    return array_namespace(like).asarray(values.reshape(shape))


def _pair_weights(length: int, bins: int, scale: float) -> np.ndarray:
    """1 on DC (and Nyquist), ``scale`` on the bins that stand for a conjugate pair."""
    weights = np.ones(bins)
    weights[1 : min((length + 1) // 2, bins)] = scale
    return weights


def _transform_axes(ndim: int, s: Any, axes: Any, default: Any = None) -> list[int]:
    if axes is None:
        axes = default
    if axes is None:
        axes = range(ndim) if s is None else range(ndim - len(s), ndim)
    return [normalize_axis(a, ndim) for a in axes]


# ---- complex transforms: the adjoint is the inverse transform with the dual norm ------------


def _complex_adjoint(inverse_name: str, default_axes: Any = None, one_axis: bool = True):
    def one_axis_adjoint(dy: Any, x_shape: tuple, n: Any = None, axis: int = -1, norm=None):
        axis = normalize_axis(axis, len(x_shape))
        inverse = getattr(_fft_module(dy), inverse_name)
        return _fit(inverse(dy, axis=axis, norm=_DUAL_NORM[norm]), axis, x_shape[axis])

    def many_axes_adjoint(dy: Any, x_shape: tuple, s: Any = None, axes: Any = None, norm=None):
        axes = _transform_axes(len(x_shape), s, axes, default_axes)
        inverse = getattr(_fft_module(dy), inverse_name)
        dx = inverse(dy, axes=axes, norm=_DUAL_NORM[norm])
        for a in axes:
            dx = _fit(dx, a, x_shape[a])
        return dx

    adjoint = one_axis_adjoint if one_axis else many_axes_adjoint
    adjoint.__name__ = adjoint.__qualname__ = f"{inverse_name}_adjoint"
    return adjoint


_ONE_AXIS_KEYWORDS = ("n", "axis", "norm")
_MANY_AXES_KEYWORDS = ("s", "axes", "norm")

for _f, _inverse in ((np.fft.fft, "ifft"), (np.fft.ifft, "fft")):
    linear_rule(
        _f,
        _complex_adjoint(_inverse),
        keywords=_ONE_AXIS_KEYWORDS,
        primal=_transform(_f, _ONE_AXIS_KEYWORDS),
    )
for _f, _inverse, _default in (
    (np.fft.fftn, "ifftn", None),
    (np.fft.ifftn, "fftn", None),
    (np.fft.fft2, "ifftn", (-2, -1)),
    (np.fft.ifft2, "fftn", (-2, -1)),
):
    linear_rule(
        _f,
        _complex_adjoint(_inverse, _default, False),
        keywords=_MANY_AXES_KEYWORDS,
        primal=_transform(_f, _MANY_AXES_KEYWORDS, _default),
    )

# ---- real transforms: half spectra, with the conjugate pairs weighted ------------------------


def _rfft_back(dy: Any, axis: int, length: int, norm: Any) -> Any:
    """Adjoint of ``rfft(x, n=length, axis, norm)`` on a (possibly complex) ``dy``: real."""
    weights = _pair_weights(length, dy.shape[axis], 0.5)
    weighted = dy * _along(weights, axis, dy.ndim, dy)
    return _fft_module(dy).irfft(weighted, n=length, axis=axis, norm=_DUAL_NORM[norm])


def _irfft_back(dy: Any, axis: int, length: int, bins: int, norm: Any) -> Any:
    """Adjoint of ``irfft(a, n=length, axis, norm)`` for ``a`` with ``bins`` entries."""
    spectrum = _fft_module(dy).rfft(dy, axis=axis, norm=_DUAL_NORM[norm])
    spectrum = spectrum * _along(
        _pair_weights(length, spectrum.shape[axis], 2.0), axis, dy.ndim, dy
    )
    return _fit(spectrum, axis, bins)


def _rfft_adjoint(dy: Any, x_shape: tuple, n: Any = None, axis: int = -1, norm: Any = None):
    axis = normalize_axis(axis, len(x_shape))
    length = x_shape[axis] if n is None else n
    return _fit(_rfft_back(dy, axis, length, norm), axis, x_shape[axis])


def _irfft_adjoint(dy: Any, x_shape: tuple, n: Any = None, axis: int = -1, norm: Any = None):
    axis = normalize_axis(axis, len(x_shape))
    length = 2 * (x_shape[axis] - 1) if n is None else n
    return _irfft_back(dy, axis, length, x_shape[axis], norm)


def _hfft_adjoint(dy: Any, x_shape: tuple, n: Any = None, axis: int = -1, norm: Any = None):
    # hfft(a) = irfft(conj(a)) with the dual norm.
    dual = _DUAL_NORM[norm]
    return array_namespace(dy).conj(_irfft_adjoint(dy, x_shape, n, axis, dual))


def _ihfft_adjoint(dy: Any, x_shape: tuple, n: Any = None, axis: int = -1, norm: Any = None):
    # ihfft(x) = conj(rfft(x)) with the dual norm.
    dual = _DUAL_NORM[norm]
    return _rfft_adjoint(array_namespace(dy).conj(dy), x_shape, n, axis, dual)


def _real_many_axes(default_axes: Any, inverse: bool):
    def rfftn_adjoint(dy: Any, x_shape: tuple, s: Any = None, axes: Any = None, norm=None):
        axes = _transform_axes(len(x_shape), s, axes, default_axes)
        *others, last = axes
        length = x_shape[last] if s is None else s[-1]
        fft = _fft_module(dy)
        if others:
            dy = fft.ifftn(dy, axes=others, norm=_DUAL_NORM[norm])
        dx = _rfft_back(dy, last, length, norm)
        for a in axes:
            dx = _fit(dx, a, x_shape[a])
        return dx

    def irfftn_adjoint(dy: Any, x_shape: tuple, s: Any = None, axes: Any = None, norm=None):
        axes = _transform_axes(len(x_shape), s, axes, default_axes)
        *others, last = axes
        length = 2 * (x_shape[last] - 1) if s is None else s[-1]
        dx = _irfft_back(dy, last, length, x_shape[last], norm)
        if others:
            dx = _fft_module(dy).fftn(dx, axes=others, norm=_DUAL_NORM[norm])
        for a in others:
            dx = _fit(dx, a, x_shape[a])
        return dx

    return irfftn_adjoint if inverse else rfftn_adjoint


for _f, _adjoint in (
    (np.fft.rfft, _rfft_adjoint),
    (np.fft.irfft, _irfft_adjoint),
    (np.fft.hfft, _hfft_adjoint),
    (np.fft.ihfft, _ihfft_adjoint),
):
    linear_rule(
        _f, _adjoint, keywords=_ONE_AXIS_KEYWORDS, primal=_transform(_f, _ONE_AXIS_KEYWORDS)
    )
for _f, _default, _inverse_flag in (
    (np.fft.rfftn, None, False),
    (np.fft.irfftn, None, True),
    (np.fft.rfft2, (-2, -1), False),
    (np.fft.irfft2, (-2, -1), True),
):
    linear_rule(
        _f,
        _real_many_axes(_default, _inverse_flag),
        keywords=_MANY_AXES_KEYWORDS,
        primal=_transform(_f, _MANY_AXES_KEYWORDS, _default),
    )

# ---- shifts: each is the other's adjoint -----------------------------------------------------


def _fftshift_adjoint(dy: Any, x_shape: tuple, axes: Any = None) -> Any:
    return _fft_module(dy).ifftshift(dy, axes=axes)


def _ifftshift_adjoint(dy: Any, x_shape: tuple, axes: Any = None) -> Any:
    return _fft_module(dy).fftshift(dy, axes=axes)


linear_rule(np.fft.fftshift, _fftshift_adjoint, keywords=("axes",))
linear_rule(np.fft.ifftshift, _ifftshift_adjoint, keywords=("axes",))

# ---- sample frequencies -----------------------------------------------------------------------

non_differentiable(np.fft.fftfreq, np.fft.rfftfreq)
