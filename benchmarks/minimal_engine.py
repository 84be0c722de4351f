"""The least a Python reverse engine over NumPy can do for the recurrences of ``engines.py``.

A value wrapped in ``Traced`` records each operation on a tape of two lists (the pullback and
the index of its argument's call), through NumPy's own hooks (``__array_ufunc__`` for
``np.sin``, ``__array_function__`` for ``np.sum``) and the operators, as an engine that runs
unchanged NumPy code must; the pullbacks are written by hand for the four functions the
recurrence calls, with no registry, no checks and no projection; the backward pass walks the
tape once. It is the floor under any engine of that kind: what is left when everything
chainrules adds for generality and safety is gone (the rule's lookup, its checks of the
cotangent, projection, the tape's handling of structures, keywords and nested levels).

``engines.py --floor`` times it beside chainrules, PyTorch and the same arithmetic written by
hand in NumPy.

>>> import numpy as np
>>> value, grad = value_and_grad(lambda x: np.sum(np.sin(x) * 2.0 + 1.0), np.zeros(3))
>>> float(value), grad
(3.0, array([2., 2., 2.]))
"""

from __future__ import annotations

import numpy as np

_new = object.__new__


class _Tape:
    __slots__ = ("parents", "pullbacks")

    def __init__(self) -> None:
        self.pullbacks: list = [None]  # index 0: the input
        self.parents: list = [None]


class Traced:
    """A value on ``tape``, produced by its call number ``index``."""

    __slots__ = ("index", "tape", "value")

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if ufunc is np.sin and method == "__call__" and not kwargs:
            pullback = _new(_Sin)
            pullback.x = self.value
            return _record(self, np.sin(self.value), pullback)
        return NotImplemented

    def __array_function__(self, func, types, args, kwargs):
        if func is np.sum and len(args) == 1 and not kwargs:
            pullback = _new(_Sum)
            pullback.shape = np.shape(self.value)
            return _record(self, np.sum(self.value), pullback)
        return NotImplemented

    def __mul__(self, other):
        if type(other) is not float:
            return NotImplemented
        pullback = _new(_Scale)
        pullback.c = other
        return _record(self, self.value * other, pullback)

    def __add__(self, other):
        if type(other) is not float:
            return NotImplemented
        return _record(self, self.value + other, _PASS)


def _record(parent: Traced, value, pullback) -> Traced:
    tape = parent.tape
    traced = _new(Traced)
    traced.value, traced.tape, traced.index = value, tape, len(tape.pullbacks)
    tape.pullbacks.append(pullback)
    tape.parents.append(parent.index)
    return traced


class _Sin:
    __slots__ = ("x",)

    def __call__(self, dy):
        return dy * np.cos(self.x)


class _Scale:
    __slots__ = ("c",)

    def __call__(self, dy):
        return dy * self.c


class _Pass:
    __slots__ = ()

    def __call__(self, dy):
        return dy


class _Sum:
    __slots__ = ("shape",)

    def __call__(self, dy):
        return np.full(self.shape, dy) if self.shape else dy


_PASS = _Pass()


def vjp(f, x):
    """``(f(x), pullback)`` for an ``f`` of one argument made of the four functions above."""
    x_traced = _new(Traced)
    x_traced.value, x_traced.tape, x_traced.index = x, _Tape(), 0
    y = f(x_traced)
    tape, last = y.tape, y.index

    def pullback(dy):
        pullbacks, parents = tape.pullbacks, tape.parents
        cotangents = [None] * (last + 1)
        cotangents[last] = dy
        for index in range(last, 0, -1):
            ct = cotangents[index]
            if ct is None:
                continue
            g = pullbacks[index](ct)
            j = parents[index]
            existing = cotangents[j]
            cotangents[j] = g if existing is None else existing + g
        return cotangents[0]

    return y.value, pullback


def value_and_grad(f, x):
    """``(f(x), its gradient)`` for a scalar-valued ``f``."""
    value, pullback = vjp(f, x)
    return value, pullback(1.0)
