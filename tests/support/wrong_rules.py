"""Wrong rules for the mutation tests: wrappers that break a correct rule, and broken rules.

The wrappers take a correct rule in the ``rrule_f`` / ``frule_f`` convention and return one
with a single defect; the rules below them are wrong in ways specific to one function.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from chainrules_testing.primals import iter_leaves
from harness_cases import CASES, Case, _chain_weighted_sum

import chainrules as cr
from chainrules import InplaceableThunk, NoTangent, Tangent, Thunk, ZeroTangent, unthunk
from chainrules.core.tangents import AbstractZero

# ---- generic defects of an rrule ------------------------------------------------------------


def _replace(cotangents: tuple, k: int, value: Any) -> tuple:
    return (*cotangents[:k], value, *cotangents[k + 1 :])


def scaled_partial(rule: Callable, k: int, defect: float = 1e-6) -> Callable:
    def wrong_rrule(f, *args, **kwargs):
        y, pullback = rule(f, *args, **kwargs)
        return y, lambda dy: _replace(pullback(dy), k, unthunk(pullback(dy)[k]) * (1 + defect))

    return wrong_rrule


def dropped_cotangent(rule: Callable) -> Callable:
    def wrong_rrule(f, *args, **kwargs):
        y, pullback = rule(f, *args, **kwargs)
        return y, lambda dy: pullback(dy)[1:]

    return wrong_rrule


def _first_array(x: Any) -> np.ndarray | None:
    return next((leaf for _, leaf in iter_leaves(x) if isinstance(leaf, np.ndarray)), None)


def mutating_input(rule: Callable) -> Callable:
    def wrong_rrule(f, *args, **kwargs):
        y, pullback = rule(f, *args, **kwargs)

        def mutating_pullback(dy):
            cotangents = pullback(dy)
            target = _first_array(args)
            target *= 2.0
            return cotangents

        return y, mutating_pullback

    return wrong_rrule


def mutating_dy(rule: Callable) -> Callable:
    def wrong_rrule(f, *args, **kwargs):
        y, pullback = rule(f, *args, **kwargs)

        def mutating_pullback(dy):
            cotangents = tuple(unthunk(c) for c in pullback(dy))
            value = unthunk(dy)
            if isinstance(value, np.ndarray):
                value *= 2.0
            return cotangents

        return y, mutating_pullback

    return wrong_rrule


def hidden_state(rule: Callable, k: int) -> Callable:
    calls = [0]

    def wrong_rrule(f, *args, **kwargs):
        y, pullback = rule(f, *args, **kwargs)

        def stateful_pullback(dy):
            calls[0] += 1
            return _replace(pullback(dy), k, unthunk(pullback(dy)[k]) * calls[0])

        return y, stateful_pullback

    return wrong_rrule


def no_rule(rule: Callable) -> Callable:
    return lambda f, *args, **kwargs: None


def _nudged(y: Any, defect: float) -> Any:
    if hasattr(y, "_fields"):
        return y._replace(**{y._fields[0]: getattr(y, y._fields[0]) * (1 + defect)})
    return y * (1 + defect)


def wrong_primal(rule: Callable, defect: float) -> Callable:
    def wrong_rrule(f, *args, **kwargs):
        y, pullback = rule(f, *args, **kwargs)
        return _nudged(y, defect), pullback

    return wrong_rrule


def ignored_keywords(rule: Callable) -> Callable:
    return lambda f, *args, **kwargs: rule(f, *args)


def nonzero_for_zero(rule: Callable) -> Callable:
    def wrong_rrule(f, *args, **kwargs):
        y, pullback = rule(f, *args, **kwargs)
        seen = []

        def forgetful_pullback(dy):
            if isinstance(dy, AbstractZero) and seen:
                return pullback(seen[0])
            seen.append(dy)
            return pullback(dy)

        return y, forgetful_pullback

    return wrong_rrule


def needs_plain_dy(rule: Callable) -> Callable:
    def wrong_rrule(f, *args, **kwargs):
        y, pullback = rule(f, *args, **kwargs)

        def plain_pullback(dy):
            if isinstance(dy, Thunk):
                raise TypeError("dy must be a value")  # forgot to unthunk
            return pullback(dy)

        return y, plain_pullback

    return wrong_rrule


# ---- generic defects of an frule ------------------------------------------------------------


def scaled_pushforward(rule: Callable, defect: float) -> Callable:
    def wrong_frule(tangents, f, *args, **kwargs):
        y, dy = rule(tangents, f, *args, **kwargs)
        return y, unthunk(dy) * (1 + defect)

    return wrong_frule


def stateful_pushforward(rule: Callable) -> Callable:
    calls = [0]

    def wrong_frule(tangents, f, *args, **kwargs):
        calls[0] += 1
        y, dy = rule(tangents, f, *args, **kwargs)
        return y, unthunk(dy) * calls[0]

    return wrong_frule


def no_frule(rule: Callable) -> Callable:
    return lambda tangents, f, *args, **kwargs: None


def wrong_frule_primal(rule: Callable, defect: float) -> Callable:
    def wrong_frule(tangents, f, *args, **kwargs):
        y, dy = rule(tangents, f, *args, **kwargs)
        return _nudged(y, defect), dy

    return wrong_frule


def mutating_tangent(rule: Callable) -> Callable:
    def wrong_frule(tangents, f, *args, **kwargs):
        result = rule(tangents, f, *args, **kwargs)
        for t in tangents:
            t = unthunk(t)
            if isinstance(t, np.ndarray):
                t *= 2.0
                break
        return result

    return wrong_frule


def nonzero_pushforward(rule: Callable) -> Callable:
    seen = []

    def wrong_frule(tangents, f, *args, **kwargs):
        if all(isinstance(t, AbstractZero) for t in tangents) and seen:
            tangents = seen[0]
        else:
            seen.append(tangents)
        return rule(tangents, f, *args, **kwargs)

    return wrong_frule


# ---- defects specific to one rule -----------------------------------------------------------


def _case(name: str) -> Case:
    return next(c for c in CASES if c.name == name)


def _sin_without_conj(f, x):
    return np.sin(x), lambda dy: (NoTangent(), np.cos(x) * unthunk(dy))


def _matmul_transposed(f, a, b):
    return a @ b, lambda dy: (NoTangent(), (unthunk(dy) @ b.T).T, a.T @ unthunk(dy))


def _mul_not_unbroadcast(f, x, y):
    return x * y, lambda dz: (NoTangent(), unthunk(dz) * y, unthunk(dz) * x)


def _exp32_in_float64(f, x):
    y = np.exp(x)
    return y, lambda dy: (NoTangent(), y.astype(np.float64) * unthunk(dy))


def _exp32_frule_in_float64(tangents, f, x):
    y = np.exp(x)
    return y, y.astype(np.float64) * unthunk(tangents[1])


def _power_zero_for_int(f, x, n):
    return x**n, lambda dy: (NoTangent(), n * x ** (n - 1) * unthunk(dy), ZeroTangent())


def _sin_complex_for_real(f, x):
    return np.sin(x), lambda dy: (NoTangent(), (np.cos(x) * unthunk(dy)).astype(complex))


def _affine_plain_dict(f, params, x):
    w = params.weights["w"]

    def affine_pullback(dy):
        dy = unthunk(dy)
        return NoTangent(), {"weights": {"w": np.outer(dy, x), "b": dy}}, w.T @ dy

    return f(params, x), affine_pullback


def _affine_b_scaled(f, params, x):
    w = params.weights["w"]

    def affine_pullback(dy):
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero):
            return NoTangent(), dy, dy
        weights = Tangent(dict, {"w": np.outer(dy, x), "b": dy * 1.000001})
        return NoTangent(), Tangent(type(params), weights=weights), w.T @ dy

    return f(params, x), affine_pullback


def _dot_bad_inplace(f, a, b):
    def dot_pullback(dy):
        dy = unthunk(dy)
        da = InplaceableThunk(lambda acc: np.add(acc, 2 * dy * b, out=acc), Thunk(lambda: dy * b))
        return NoTangent(), da, Thunk(lambda: dy * a)

    return a @ b, dot_pullback


def _polar_ignores_theta(f, x):
    y = f(x)

    def polar_pullback(dy):
        dy = unthunk(dy)
        return NoTangent(), unthunk(dy.r) * x / y.r

    return y, polar_pullback


def _scaler_without_f(f, x):
    y, pullback = _case("closure").rrule(f, x)
    return y, lambda dy: (NoTangent(), pullback(dy)[1])


def _hypot_array_for_float(f, x, y):
    r = f(x, y)
    return r, lambda dr: (NoTangent(), np.array([dr * x / r]), dr * y / r)


def _sin_detached_pullback(f, x):
    def sin_pullback(dy):
        return NoTangent(), cr.ignore_derivatives(np.cos(x)) * unthunk(dy)

    return np.sin(x), sin_pullback


def _csquare_noconj(z):
    return z * z


@cr.rrule.register(_csquare_noconj)
def _csquare_noconj_rrule(z):
    return z * z, lambda dy: (NoTangent(), 2 * z * unthunk(dy))


@cr.frule.register(_csquare_noconj)
def _csquare_noconj_frule(tangents, z):
    return z * z, 2 * z * unthunk(tangents[1])


def _cube(x):
    return x**3


@cr.rrule.register(_cube)
def _cube_wrong_rrule(x):
    return x**3, lambda dy: (NoTangent(), 3.1 * x**2 * unthunk(dy))


@cr.frule.register(_cube)
def _cube_frule(tangents, x):
    return x**3, 3 * x**2 * unthunk(tangents[1])


def _chain_one_link_off(f, node, x):
    """The rrule of ``_chain_weighted_sum`` with the cotangent of one value, deep in the list,
    off by a relative 1e-3."""
    y, pullback = cr.rrule(_chain_weighted_sum, node, x)

    def chain_pullback(dy):
        df, dnode, dx = pullback(dy)
        link = dnode
        for _ in range(700):
            link = link.next
        object.__setattr__(link, "_backing", {**link._backing, "value": link.value * 1.001})
        return df, dnode, dx

    return y, chain_pullback


def _pullback_calls_float(f, x):
    """A correct first derivative through ``float``: the engine cannot differentiate it."""
    return float(np.sin(x)), lambda dy: (NoTangent(), math.cos(float(x)) * unthunk(dy))


def _pullback_calls_asarray(f, x):
    def sin_pullback(dy):
        return NoTangent(), np.cos(np.asarray(x)) * unthunk(dy)

    return np.sin(x), sin_pullback


def _mul_second_order_wrong_in_y(f, x, y):
    """``x * y`` with right cotangents whose derivative in ``y`` the engine cannot see."""

    def mul_pullback(dz):
        dz = unthunk(dz)
        return NoTangent(), dz * cr.ignore_derivatives(y), dz * x

    return x * y, mul_pullback
