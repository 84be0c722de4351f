"""Rules for NumPy: one-dimensional ``convolve`` and ``correlate``.

Both are linear in each factor. A ``same`` or ``valid`` result is a slice of the ``full`` one,
so the pullback first embeds the cotangent in zeros of the full length; the cotangent of
``a`` in ``convolve(a, v)`` is then ``correlate(dy_full, v, "valid")`` (correlate conjugates
its second argument, as the holomorphic convention asks), and symmetrically for ``v``.
``correlate(a, v)`` is ``convolve(a, conj(v[::-1]))``, whose reversal and conjugation the
pullback undoes.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> from chainrules.core.thunks import unthunk
>>> y, pullback = rrule(np.convolve, np.array([1.0, 2.0]), np.array([1.0, 1.0, 1.0]))
>>> unthunk(pullback(np.ones(4))[1])
array([3., 3.])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.linear import register_rules
from ...core.namespace import array_namespace
from ...core.sequences import argument_projector
from ...core.shapes import shape_of
from ...core.tangents import NO_TANGENT
from ...core.thunks import Thunk
from .products import conj, multilinear_frule

__all__: list[str] = []


def _full_offset(n: int, m: int, mode: str, reverse: bool) -> int:
    """Where a ``mode`` result starts inside the full convolution (``reverse``: correlation)
    of lengths ``n`` and ``m``.

    ``correlate`` with the longer array second centres "same" the other way for an even
    shorter length (NumPy swaps the arguments and reverses the result).
    """
    shorter = min(n, m)
    centre = shorter // 2 if reverse and n < m else (shorter - 1) // 2
    return {"full": 0, "same": centre, "valid": shorter - 1}[mode]


def _embed(dy: Any, offset: int, length: int) -> Any:
    """``dy`` placed at ``offset`` in zeros of ``length``: the adjoint of taking that slice."""
    xp = array_namespace(dy)
    before = xp.zeros((offset,), dtype=dy.dtype)
    after = xp.zeros((length - offset - dy.shape[0],), dtype=dy.dtype)
    return xp.concat([before, dy, after])


def _convolution_rrule(f: Any) -> Any:
    reverse = f is np.correlate

    def convolution_rrule(a: Any, v: Any, *args: Any, **kwargs: Any) -> Any:
        mode = args[0] if args else kwargs.get("mode", "valid" if reverse else "full")
        y = f(a, v, mode)
        project_a, project_v = argument_projector(a), argument_projector(v)
        # NumPy takes a 0-d argument as a sequence of one element.
        a_shape, v_shape = shape_of(a), shape_of(v)
        n, m = (shape[0] if shape else 1 for shape in (a_shape, v_shape))
        offset = _full_offset(n, m, mode, reverse)
        rest = (NO_TANGENT,) * len(args)

        def convolution_pullback(dy: Any) -> tuple[Any, ...]:
            xp = array_namespace(dy, a, v)
            full = _embed(xp.asarray(dy), offset, n + m - 1)
            a_line, v_line = xp.reshape(xp.asarray(a), (n,)), xp.reshape(xp.asarray(v), (m,))
            # correlate(a, v) = convolve(a, w) with w = conj(v[::-1]).
            w = conj(xp, xp.flip(v_line)) if reverse else v_line

            def d_v() -> Any:
                d_w = np.correlate(full, a_line, "valid")
                d_v = conj(xp, xp.flip(d_w)) if reverse else d_w
                return project_v(xp.reshape(d_v, v_shape))

            d_a = Thunk(lambda: project_a(xp.reshape(np.correlate(full, w, "valid"), a_shape)))
            return NO_TANGENT, d_a, Thunk(d_v), *rest

        return y, convolution_pullback

    def convolution_frule(tangents: tuple, a: Any, v: Any, *args: Any, **kwargs: Any) -> Any:
        mode = args[0] if args else kwargs.get("mode", "valid" if reverse else "full")

        def product(x: Any, w: Any) -> Any:
            return f(x, w, mode)

        return multilinear_frule(product, tangents, a, v)

    register_rules(f, convolution_rrule, convolution_frule, keywords=("mode",))


_convolution_rrule(np.convolve)
_convolution_rrule(np.correlate)
