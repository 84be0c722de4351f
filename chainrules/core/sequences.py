"""Tangents of lists and tuples: arguments that NumPy takes as (nested) sequences, and outputs
that are sequences of arrays.

A NumPy function accepts a nested list where it takes an array; the cotangent of such an
argument is a ``Tangent`` of the list, laid out like it (``nest_like``, ``argument_projector``).
A function returning a list or tuple of arrays receives a cotangent per output, any of which
may be a zero (``output_cotangents`` makes them dense); its tangent is a ``Tangent`` of the
sequence (``sequence_tangent``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .namespace import array_namespace
from .projection import ProjectTo, projector, unbroadcast_axes
from .shapes import shape_of
from .tangents import ZERO_TANGENT, NoTangent, Tangent
from .thunks import unthunk
from .zeros import densify, is_zero

__all__ = [
    "argument_projector",
    "dense_nested",
    "dense_tangents",
    "nest_like",
    "output_cotangents",
    "sequence_tangent",
    "tangent_value",
]


def tangent_value(t: Any, primal: Any) -> Any:
    """A tangent as a value a NumPy function takes: unthunked; for a list primal, nested lists.

    Zeros stay zeros for an array primal (rules skip them); inside a list they become arrays.

    >>> tangent_value(ZERO_TANGENT, [1.0, 2.0])
    [array(0.), array(0.)]
    """
    t = unthunk(t)
    if isinstance(primal, list | tuple) and not isinstance(t, NoTangent):
        return dense_nested(t, primal)
    return t


def argument_projector(x: Any) -> Any:
    """``ProjectTo(x)``, also taking an array cotangent for a (nested) list or tuple ``x``.

    NumPy functions accept lists where they take arrays; the cotangent of such an argument is
    a ``Tangent`` of the list, laid out by ``nest_like``.

    >>> argument_projector([1.0, 2.0])(np.array([3.0, 4.0]))
    MutableTangent[list](3.0, 4.0)
    """
    if not isinstance(x, list | tuple):
        return projector(x)
    project = ProjectTo(x)

    def project_nested(dx: Any) -> Any:
        return project(nest_like(unthunk(dx), x))

    return project_nested


def nest_like(dx: Any, primal: Any) -> Any:
    """An array cotangent laid out like a nested list or tuple primal, for projection onto it.

    Arrays and scalars are left alone; a list primal gets a list of ``dx[i]``, recursively.

    >>> nest_like(np.array([[1.0, 2.0]]), [(3.0, 4.0)])
    [(np.float64(1.0), np.float64(2.0))]
    """
    if not isinstance(primal, list | tuple) or is_zero(dx):
        return dx
    shape = np.shape(primal)
    if shape_of(dx) != shape:  # broadcast against other arguments: sum back first
        xp = array_namespace(dx)
        dx = xp.reshape(xp.sum(dx, axis=unbroadcast_axes(shape, shape_of(dx))), shape)
    return type(primal)(nest_like(dx[i], p) for i, p in enumerate(primal))


def dense_nested(t: Any, primal: Any) -> Any:
    """The tangent of a nested list of numbers and arrays as nested lists, zeros made dense.

    >>> dense_nested(ZERO_TANGENT, [1.0, np.ones(2)])
    [array(0.), array([0., 0.])]
    """
    t = unthunk(t)
    if isinstance(primal, list | tuple):
        zero = is_zero(t)
        items = [ZERO_TANGENT] * len(primal) if zero else list(t)
        return [dense_nested(ti, p) for ti, p in zip(items, primal, strict=True)]
    if is_zero(t):
        return np.zeros(np.shape(primal), dtype=np.result_type(primal, np.float64))
    return t


def output_cotangents(dy: Any, outputs: Any) -> list[Any]:
    """The cotangent of each output of a function returning a sequence, zeros made dense.

    ``dy`` is a ``Tangent`` of the sequence, a list or tuple, or a zero; an element that is a
    zero becomes an array of zeros shaped like its output.

    >>> output_cotangents(ZERO_TANGENT, [np.ones(2)])
    [array([0., 0.])]
    """
    items = [ZERO_TANGENT] * len(outputs) if is_zero(dy) else list(dy)
    return [densify(unthunk(t), y) for t, y in zip(items, outputs, strict=True)]


def dense_tangents(tangent: Any, primals: Any) -> list[Any]:
    """The tangents of a sequence argument as a list of arrays, zeros made dense.

    >>> dense_tangents(Tangent(list, ZERO_TANGENT, np.ones(1)), [np.ones(2), np.ones(1)])
    [array([0., 0.]), array([1.])]
    """
    return output_cotangents(unthunk(tangent), list(primals))


def sequence_tangent(pieces: list[Any], outputs: Any) -> Any:
    """The tangent of a list or tuple output: a ``Tangent`` of its type.

    >>> sequence_tangent([1.0, 2.0], (0.0, 0.0))
    Tangent[tuple](1.0, 2.0)
    """
    return Tangent(type(outputs), *pieces) if isinstance(outputs, list | tuple) else pieces
