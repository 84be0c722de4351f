"""Rules for NumPy's functions that return one of their arguments, element by element:
``maximum``, ``minimum``, ``fmax``, ``fmin``, ``clip`` and ``where``. The cotangent goes to the
argument returned. Hard points, each a documented choice:

* ``maximum``, ``minimum``, ``fmax``, ``fmin``: at a tie the cotangent is split equally
  between the two arguments (the frule agrees: the tangent is the mean). A NaN that
  ``maximum`` propagates gets the cotangent; a NaN that ``fmax`` ignores gets none.
* ``clip(a, lo, hi)`` is ``minimum(maximum(a, lo), hi)``: each element of the result is
  one of ``a``, ``lo`` or ``hi``, and the cotangent goes to the one returned. At exactly a
  bound it goes to ``a`` (as PyTorch's ``clamp``); where ``lo > hi`` the result is ``hi``.
  Array or float bounds are differentiable (summed over their broadcast, like any argument);
  integer bounds, and bounds given by keyword, get no tangent.
* ``where(condition, x, y)``: the condition has no tangent.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(np.maximum, np.array([1.0, 2.0]), np.array([1.0, 0.0]))
>>> pullback(np.ones(2))[1:]
(array([0.5, 1. ]), array([0.5, 0. ]))
"""

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ...core.define import scalar_rule
from ...core.fast_paths import FastPullback, onto, register_fast_path
from ...core.namespace import array_namespace
from ...core.primals import FLOAT64
from ...core.projection import ProjectTo, projector
from ...core.registry import frule, rrule
from ...core.tangents import NO_TANGENT, ZERO_TANGENT
from ...core.thunks import Thunk, unthunk
from ...core.zeros import is_zero

# ---- selection: maximum, minimum, fmax, fmin ------------------------------------------------


def _selection_partials(first_wins, wins):
    """The partials of a function that returns one of its two arguments.

    ``first_wins(xp, x1, x2)`` says where the first argument is returned; at a tie both
    partials are 1/2, so the cotangent is split equally. ``wins(x1, x2)`` says the same of
    NumPy's real numbers without a NaN (``np.greater`` for ``maximum``): real NumPy arrays
    without one take it, with the same values in a third of the time (NumPy's ``where`` of
    numbers is slower than a cast). Float64 arrays beside an array of their shape or a number
    (a ReLU's ``maximum(x, 0.0)``) take the fast path below, which shares one comparison
    between the two partials.
    """

    def first(x1, x2, y):
        if _real_without_nan(x1, x2):
            return _weights(wins(x1, x2), x1 == x2)
        xp = array_namespace(x1, x2)
        return xp.where(x1 == x2, 0.5, xp.where(first_wins(xp, x1, x2), 1.0, 0.0))

    def second(x1, x2, y):
        if _real_without_nan(x1, x2):
            return _weights(wins(x2, x1), x1 == x2)
        return 1.0 - first(x1, x2, y)

    return first, second


def _weights(won, tie):
    """1.0 where ``won``, 0.5 at a ``tie``, 0.0 elsewhere (boolean arrays of one shape; None:
    no tie)."""
    weights = won.astype(np.float64)
    if tie is not None and tie.any():
        np.copyto(weights, 0.5, where=tie)
    return weights


def _real_without_nan(x1, x2):
    """Whether ``x1`` and ``x2`` are real NumPy arrays or numbers, one an array (not 0-d), and
    neither holds a NaN."""
    arrays = 0
    for x in (x1, x2):
        cls = type(x)
        if cls is np.ndarray:
            if x.dtype.kind != "f":
                return False
            arrays += x.ndim > 0
            if np.isnan(x).any():
                return False
        elif cls is float or cls is int:
            if cls is float and math.isnan(x):
                return False
        else:
            return False
    return arrays > 0


def _winners(wins, x1, x2):
    """Where each of two float arrays or numbers without a NaN wins (``wins``), and their ties
    (None without any), for ``_weights``; None where there is a NaN.

    An element that neither argument wins is a tie or a NaN: counting them tells whether
    there is any of either, so that arrays without (the frequent case) take one comparison
    each way, and no test of their own.
    """
    won, lost = wins(x1, x2), wins(x2, x1)
    settled = np.count_nonzero(won) + np.count_nonzero(lost)
    if settled == won.size:
        return won, lost, None
    tie = x1 == x2
    if settled + np.count_nonzero(tie) != won.size:
        return None
    return won, lost, tie


class _SelectionPullback(FastPullback):
    """The pullback of ``maximum``, ``minimum``, ``fmax`` or ``fmin`` at a float64 array beside
    a float64 array of its shape or a real number: the rule's partials, from one comparison of
    the arguments each way shared by the two (``_winners``) for a float64 cotangent, by
    the partials themselves for any other and where there is a NaN. A number's cotangent, a
    sum, is a thunk, as is the cotangent of an argument an engine said it will not ask for:
    their weights are made when asked for."""

    __slots__ = ("args", "wanted")
    args: tuple
    wanted: tuple[int, ...]  # the positions (from 1) of the cotangents computed at once
    partials: tuple  # on the subclass: the rule's two partials, and what wins for it
    wins: Callable[[Any, Any], Any]

    def needed(self, positions):
        self.wanted = positions

    def zeros(self):
        return NO_TANGENT, *(projector(x)(ZERO_TANGENT) for x in self.args)

    def cotangents(self, dy):
        winners = None
        if type(dy) is np.ndarray and dy.dtype is FLOAT64:
            winners = _winners(self.wins, *self.args)
        return NO_TANGENT, self.cotangent(0, winners, dy), self.cotangent(1, winners, dy)

    def cotangent(self, i, winners, dy):
        x = self.args[i]
        project = projector(x)
        if not project.has_tangent_space:
            return NO_TANGENT
        if type(x) is np.ndarray and i + 1 in self.wanted:
            if winners is None:
                return self.product(i, dy)
            weight = _weights(winners[i], winners[2])
            weight *= dy  # weight * dy, in the array made for it
            return weight
        if winners is None:
            return Thunk(lambda: project(self.product(i, dy)))
        return Thunk(lambda: project(_weights(winners[i], winners[2]) * dy))

    def product(self, i, dy):
        """The partial of argument ``i`` times ``dy``, of the output's shape and dtype."""
        return onto(self.shape, FLOAT64, self.partials[i](*self.args, None) * dy)


def _fast_selection(general, pullback_class):
    """The fast path of ``maximum``, ``minimum``, ``fmax`` and ``fmin``: a float64 array (not
    0-d) beside a float64 array of its shape or a Python or NumPy real number."""
    f = pullback_class.f

    def selection_rrule(x1, x2, *rest, **kwargs):
        if rest or kwargs or not _array_beside_like(x1, x2):
            return general(x1, x2, *rest, **kwargs)
        pullback = pullback_class()
        pullback.args, pullback.wanted, pullback.rest = (x1, x2), (1, 2), ()
        y = f(x1, x2)
        pullback.shape = y.shape
        return y, pullback

    return selection_rrule


def _array_beside_like(x1, x2):
    """Whether one of ``x1``, ``x2`` is a float64 array (not 0-d) and the other a float64
    array of its shape or a real number of Python or NumPy."""
    first, second = type(x1), type(x2)
    if first is np.ndarray:
        if x1.dtype is not FLOAT64 or not x1.ndim:
            return False
        if second is np.ndarray:
            return x2.dtype is FLOAT64 and x2.shape == x1.shape
        return second in _REAL_NUMBERS
    return second is np.ndarray and x2.dtype is FLOAT64 and x2.ndim > 0 and first in _REAL_NUMBERS


_REAL_NUMBERS = frozenset({float, int, np.float64})

# maximum and minimum propagate a NaN, fmax and fmin return the other argument.
for _f, _first_wins, _wins in [
    (np.maximum, lambda xp, a, b: (a > b) | xp.isnan(a), np.greater),
    (np.minimum, lambda xp, a, b: (a < b) | xp.isnan(a), np.less),
    (np.fmax, lambda xp, a, b: (a > b) | xp.isnan(b), np.greater),
    (np.fmin, lambda xp, a, b: (a < b) | xp.isnan(b), np.less),
]:
    _partials = _selection_partials(_first_wins, _wins)
    scalar_rule(_f, *_partials)
    register_fast_path(_f, _fast_selection, _SelectionPullback, partials=_partials, wins=_wins)
del _f, _first_wins, _wins, _partials


# ---- clip -----------------------------------------------------------------------------------


def _clip_bounds(bounds, min, max):
    """lo and hi from clip's positional bounds (a_min, a_max) or its keywords min and max."""
    a_min, a_max = (*bounds, None, None)[:2]
    return (min if a_min is None else a_min), (max if a_max is None else a_max)


def _clip_sources(xp, a, lo, hi):
    """Where clip returns ``hi``, and where it returns ``lo`` (None for an absent bound).

    A NaN in ``a`` compares false with both, so it is returned and keeps its cotangent.
    Between two numbers ``lo <= hi`` (the frequent ``clip(x, -1.0, 1.0)``) a NumPy array is
    above ``hi`` or below ``lo`` where it compares so: two passes, not five.
    """
    if type(a) is np.ndarray and type(lo) in _NUMBERS and type(hi) in _NUMBERS and lo <= hi:
        return a > hi, a < lo
    # A Python bound as an array: array-api-compat before 1.13 takes none in torch's maximum.
    raised = a if lo is None else xp.maximum(a, lo if hasattr(lo, "shape") else xp.asarray(lo))
    to_hi = None if hi is None else raised > hi
    to_lo = None if lo is None else a < lo
    if to_lo is not None and to_hi is not None:
        to_lo = to_lo & ~to_hi
    return to_hi, to_lo


_NUMBERS = (float, int, np.float64)


def _select(xp, mask, chosen, other):
    return other if mask is None else xp.where(mask, chosen, other)


def _passed_back(xp, dy, to_lo, to_hi):
    """``dy`` where clip returned ``a``, 0 elsewhere: as ``_select`` twice, or, for a finite
    NumPy array of the masks' shape, ``dy`` times where ``a`` was returned (NumPy's ``where``
    on a scattered mask takes twice a product's time; the product's zeros are signed), the
    mask cast to ``dy``'s dtype and multiplied in place (a product with the boolean mask casts
    it on the way, slower)."""
    if type(dy) is np.ndarray and dy.dtype.kind == "f" and to_lo is not None and to_hi is not None:
        if dy.shape == to_lo.shape == to_hi.shape and np.isfinite(dy).all():
            returned = np.logical_or(to_lo, to_hi)
            np.logical_not(returned, out=returned)
            product = returned.astype(dy.dtype)
            product *= dy
            return product
    return _select(xp, to_lo, 0.0, _select(xp, to_hi, 0.0, dy))


def _bound_cotangent(xp, project, mask, dy):
    """A bound's cotangent: the sum of ``dy`` where clip returned it, as a thunk."""
    return Thunk(lambda: project(xp.where(mask, dy, 0.0)))


@rrule.register(np.clip)
def _clip_rrule(a, *bounds, min=None, max=None):
    """clip(a, lo, hi): the cotangent goes to whichever of ``a``, ``lo``, ``hi`` is returned."""
    if len(bounds) > 2:
        return None  # an ``out`` array, given by position: a write no rule can describe
    lo, hi = _clip_bounds(bounds, min, max)
    xp = array_namespace(a, lo, hi)
    projectors = [ProjectTo(a), *(ProjectTo(b) for b in bounds)]
    to_hi, to_lo = _clip_sources(xp, a, lo, hi)
    masks = (to_lo, to_hi)

    def clip_pullback(dy):
        cotangents = [projectors[0](_passed_back(xp, dy, to_lo, to_hi))]
        for bound, mask, project in zip(bounds, masks, projectors[1:], strict=False):
            if bound is None or not project.has_tangent_space:
                cotangents.append(project(ZERO_TANGENT))
            else:  # computed when asked for: an engine never asks for a constant's
                cotangents.append(_bound_cotangent(xp, project, mask, dy))
        return NO_TANGENT, *cotangents

    return np.clip(a, lo, hi), clip_pullback


@frule.register(np.clip)
def _clip_frule(tangents, a, *bounds, min=None, max=None):
    if len(bounds) > 2:
        return None
    lo, hi = _clip_bounds(bounds, min, max)
    xp = array_namespace(a, lo, hi)
    y = np.clip(a, lo, hi)
    to_hi, to_lo = _clip_sources(xp, a, lo, hi)
    da, *dbounds = (_value_or_zero(t) for t in tangents[1 : 2 + len(bounds)])
    dlo, dhi = (*dbounds, 0.0, 0.0)[:2]
    return y, _fit(xp, _select(xp, to_hi, dhi, _select(xp, to_lo, dlo, da)), y)


# ---- where ----------------------------------------------------------------------------------


@rrule.register(np.where)
def _where_rrule(condition, x=None, y=None):
    """where(condition, x, y): the cotangent goes to x where condition holds, else to y.

    The condition has no tangent. With the condition alone, ``where`` returns indices, which
    have no tangent either.
    """
    if x is None and y is None:
        out = np.where(condition)
        return out, lambda dy: (NO_TANGENT, NO_TANGENT)
    xp = array_namespace(x, y)
    condition = xp.asarray(condition)  # a NumPy mask selects in other namespaces too
    project_x, project_y = ProjectTo(x), ProjectTo(y)

    def where_pullback(dy):
        dx = project_x(xp.where(condition, dy, 0.0))
        return NO_TANGENT, NO_TANGENT, dx, project_y(xp.where(condition, 0.0, dy))

    return xp.where(condition, x, y), where_pullback


@frule.register(np.where)
def _where_frule(tangents, condition, x=None, y=None):
    if x is None and y is None:
        return np.where(condition), NO_TANGENT
    xp = array_namespace(x, y)
    out = xp.where(condition, x, y)
    dx, dy = (_value_or_zero(t) for t in tangents[2:4])
    return out, _fit(xp, xp.where(condition, dx, dy), out)


def _value_or_zero(t):
    """A tangent as a value that ``where`` can select from: zeros (and None) become 0.0."""
    t = unthunk(t)
    return 0.0 if is_zero(t) else t


def _fit(xp, dy, y):
    """``dy`` broadcast to the shape of ``y`` and projected onto its tangent space."""
    shape = tuple(getattr(y, "shape", ()))
    if tuple(getattr(dy, "shape", ())) != shape:
        dy = xp.broadcast_to(xp.asarray(dy), shape)
    return ProjectTo(y)(dy)
