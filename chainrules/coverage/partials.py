"""Partial derivatives: of an elementwise function's arguments, which its rules differentiate.

The report counts functions; a function with rules may still leave some of its partial
derivatives out (``NotImplementedTangent``: the order of ``jv`` at complex ``z``). For every
ufunc with an rrule, ``probe_partials`` calls the rule at a point of each kind of argument its
loops take, all real and, where it has complex loops, complex, and reads the pullback's
cotangents (thunks unthunked: a rule may know only then that it has no derivative): an
argument whose cotangent is ``NoTangent()`` at real values has no partial derivative (an
integer order); one that is a ``NotImplementedTangent`` at any probe is *not implemented* (with
its reason); the others are *given*. Only the form of the cotangents is read, not their
values, so the probe points are generic (0.5 and 0.5 + 0.5j; the integer 1 where a loop takes
only integers).

>>> import numpy as np
>>> import scipy.special as sc
>>> import chainrules  # registers the rules
>>> partials = probe_partials(sc.gammainc)
>>> partials.total, partials.given, partials.not_implemented
(2, 2, 0)
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.registry import rrule
from ..core.tangents import NoTangent, NotImplementedTangent
from ..core.thunks import unthunk

__all__ = ["Partials", "probe_partials", "sum_partials"]

_REAL = 0.5
_COMPLEX = 0.5 + 0.5j
_INTEGER_CODES = frozenset("bBhHiIlLqQpP?")
_COMPLEX_CODES = frozenset("FDG")


@dataclass(frozen=True)
class Partials:
    """A function's partial derivatives: how many its arguments have (``total``), how many its
    rules give, and which are ``NotImplementedTangent`` (``"argument i: reason"`` each)."""

    total: int
    given: int
    not_implemented: int
    reasons: tuple[str, ...] = ()


def _loops(f: Any) -> list[tuple[str, ...]]:
    """The argument kinds ("real", "complex", "integer") of each loop of a ufunc, without
    repeats: the probes that tell its partials apart."""
    seen: list[tuple[str, ...]] = []
    for signature in getattr(f, "types", ()):
        codes = signature.split("->")[0]
        kinds = tuple(
            "integer" if c in _INTEGER_CODES else "complex" if c in _COMPLEX_CODES else "real"
            for c in codes
        )
        if "O" not in codes and kinds not in seen:
            seen.append(kinds)
    return seen


def _value(kind: str) -> Any:
    return {"real": _REAL, "complex": _COMPLEX, "integer": 1}[kind]


def _cotangents(f: Any, kinds: tuple[str, ...]) -> tuple | None:
    args = [_value(k) for k in kinds]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # casts and integration warnings at the probe point
        try:
            found = rrule(f, *args)
            if found is None:
                return None
            y, pullback = found
            seed = tuple(np.ones_like(v) for v in y) if isinstance(y, tuple) else np.ones_like(y)
            return tuple(unthunk(g) for g in pullback(seed)[1:])
        except (TypeError, ValueError):  # a rule that refuses a loop (complex maximum)
            return None


def probe_partials(f: Any) -> Partials | None:
    """The partial derivatives of the ufunc ``f`` as its rrule gives them (module doc), or
    ``None`` when ``f`` is not a ufunc with an rrule or no probe runs."""
    loops = _loops(f)
    if not loops or getattr(f, "signature", None) is not None:
        return None  # not a ufunc, or a generalized one (matmul) that scalars do not probe
    real = [k for k in loops if all(kind != "complex" for kind in k)]
    floats = [k for k in real if all(kind == "real" for kind in k)]
    probes = floats[:1] or real[:1]
    probes += [k for k in loops if "complex" in k][:2]
    results = [r for r in (_cotangents(f, kinds) for kinds in probes) if r is not None]
    if not results:
        return None
    first = results[0]
    reasons: list[str] = []
    total = given = missing = 0
    for i, cotangent in enumerate(first):
        if isinstance(cotangent, NoTangent):
            continue  # an argument without tangent space (an integer order): no partial
        total += 1
        found = [r[i] for r in results if isinstance(r[i], NotImplementedTangent)]
        if found:
            missing += 1
            reasons.append(f"argument {i}: {found[0].info}")
        else:
            given += 1
    return Partials(total, given, missing, tuple(reasons))


def sum_partials(found: Iterable[Partials | None]) -> Partials | None:
    """The partials of several functions together (``None`` when none was probed)."""
    known = [p for p in found if p is not None]
    if not known:
        return None
    return Partials(
        sum(p.total for p in known),
        sum(p.given for p in known),
        sum(p.not_implemented for p in known),
    )
