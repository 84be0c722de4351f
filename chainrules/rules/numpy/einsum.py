"""Rules for NumPy: ``einsum``, for any subscripts (repeated, summed-out and broadcast indices).

``einsum`` is linear in each operand. The cotangent of operand ``k`` is the ``einsum`` of the
output's cotangent with the other operands, conjugated, onto operand ``k``'s indices; an index
that only operand ``k`` carries (summed within it) spreads the cotangent along that axis, and an
index repeated within operand ``k`` (a diagonal) puts it back on the diagonal. ``...`` is
spelled out as letters first. The interleaved form ``einsum(op0, sublist0, op1, sublist1, ...,
[sublist_out])`` is rewritten as a subscripts string (labels 0-25 as ``A-Z``, 26-51 as ``a-z``,
as NumPy reads them) and takes the same rule; its sublists get ``NoTangent()``.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> from chainrules.core.thunks import unthunk
>>> y, pullback = rrule(np.einsum, "ii->", np.ones((2, 2)))
>>> unthunk(pullback(3.0)[2])
array([[3., 0.],
       [0., 3.]])
"""

from __future__ import annotations

import functools
import string
from typing import Any

import numpy as np

from ...core.linear import register_rules
from ...core.namespace import array_namespace
from ...core.sequences import argument_projector
from ...core.shapes import shape_of
from ...core.tangents import NO_TANGENT, ZERO_TANGENT
from ...core.thunks import Thunk
from .products import conj, multilinear_frule

__all__: list[str] = []

# ---- einsum ------------------------------------------------------------------------------------


def _einsum_terms(subscripts: str, shapes: list[tuple[int, ...]]) -> tuple[list[str], str]:
    """Input and output terms with ``...`` spelled out as letters, and the implicit output."""
    spec = subscripts.replace(" ", "")
    inputs_part, arrow, output = spec.partition("->")
    inputs = inputs_part.split(",")
    if len(inputs) != len(shapes):
        raise ValueError(f"einsum: {len(inputs)} terms for {len(shapes)} operands")
    spare = [c for c in string.ascii_letters if c not in spec]
    widths = [len(s) - (len(t) - 3) for t, s in zip(inputs, shapes, strict=True) if "..." in t]
    ellipsis = "".join(spare[: max(widths, default=0)])
    terms = []
    for term, shape in zip(inputs, shapes, strict=True):
        if "..." in term:
            width = len(shape) - (len(term) - 3)
            term = term.replace("...", ellipsis[len(ellipsis) - width :])
        terms.append(term)
    if not arrow:
        letters = "".join(inputs).replace(".", "")
        once = sorted(c for c in set(letters) if letters.count(c) == 1)
        output = ellipsis + "".join(once)
    else:
        output = output.replace("...", ellipsis)
    return terms, output


def _einsum_sizes(terms: list[str], shapes: list[tuple[int, ...]]) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for term, shape in zip(terms, shapes, strict=True):
        for c, n in zip(term, shape, strict=True):
            # A length of 1 broadcasts against any other, 0 (an empty axis) among them.
            if sizes.get(c, 1) == 1:
                sizes[c] = n
    return sizes


def _projected_cotangent(project: Any, *args: Any) -> Any:
    """``project(_einsum_cotangent(*args))``: one operand's cotangent, for a thunk."""
    return project(_einsum_cotangent(*args))


def _einsum_cotangent(
    xp: Any, k: int, terms: list[str], output: str, operands: tuple, dy: Any, sizes: dict
) -> Any:
    """The cotangent of operand ``k``: contract ``dy`` with the other operands, conjugated."""
    term = terms[k]
    others = [
        (t, conj(xp, op)) for j, (t, op) in enumerate(zip(terms, operands, strict=True)) if j != k
    ]
    others.append((output, dy))
    available = set("".join(t for t, _ in others))
    unique = "".join(dict.fromkeys(term))
    present = "".join(c for c in unique if c in available)
    spec = ",".join(t for t, _ in others) + "->" + present
    # A greedy contraction order reaches BLAS (tensordot) wherever einsum's planner can.
    g = np.einsum(spec, *(op for _, op in others), optimize="greedy")
    if present != unique:
        # Letters summed within this operand alone: every element shares the cotangent.
        for i, c in enumerate(unique):
            if c not in available:
                g = xp.expand_dims(g, axis=i)
        g = xp.broadcast_to(g, tuple(sizes[c] for c in unique))
    if unique != term:
        # Repeated letters read a diagonal: put the cotangent back on it.
        spare = [c for c in string.ascii_letters if c not in "".join(terms) + output]
        renamed, eyes, seen = "", [], set()
        for c in term:
            if c in seen:
                new = spare.pop()
                eyes.append((c + new, np.eye(sizes[c], dtype=bool)))
                renamed += new
            else:
                seen.add(c)
                renamed += c
        spec = ",".join([unique, *(s for s, _ in eyes)]) + "->" + renamed
        g = np.einsum(spec, g, *(e for _, e in eyes))
    return g


def _sublist_labels(sublist: Any) -> str:
    """A sublist of ints (and ``Ellipsis``) as subscript letters, in NumPy's own labelling."""
    letters = []
    for label in sublist:
        if label is Ellipsis:
            letters.append("...")
        elif 0 <= int(label) < 26:
            letters.append(chr(ord("A") + int(label)))
        elif 26 <= int(label) < 52:
            letters.append(chr(ord("a") + int(label) - 26))
        else:
            raise ValueError(f"einsum: sublist label {label} is not in range(52)")
    return "".join(letters)


def _interleaved_subscripts(args: tuple) -> str:
    """The subscripts string of ``einsum(op0, sublist0, op1, sublist1, ..., [sublist_out])``.

    >>> _interleaved_subscripts((None, [0, 1], None, [1, Ellipsis], [0, Ellipsis]))
    'AB,B...->A...'
    """
    inputs = ",".join(_sublist_labels(s) for s in args[1::2])
    if len(args) % 2:
        return inputs + "->" + _sublist_labels(args[-1])
    return inputs


def _einsum_rrule(subscripts: Any, *operands: Any, optimize: Any = False) -> Any:
    if isinstance(subscripts, str):
        return _subscripts_rrule(subscripts, *operands, optimize=optimize)
    args = (subscripts, *operands)
    count = len(args) // 2
    y, pullback = _subscripts_rrule(
        _interleaved_subscripts(args), *args[0::2][:count], optimize=optimize
    )

    def einsum_interleaved_pullback(dy: Any) -> tuple[Any, ...]:
        cotangents = [NO_TANGENT] * (1 + len(args))
        cotangents[1 : 2 * count : 2] = pullback(dy)[2:]
        return tuple(cotangents)

    return y, einsum_interleaved_pullback


def _subscripts_rrule(subscripts: str, *operands: Any, optimize: Any) -> Any:
    xp = array_namespace(*operands)
    y = np.einsum(subscripts, *operands, optimize=optimize)
    projects = [argument_projector(op) for op in operands]
    shapes = [shape_of(op) for op in operands]
    terms, output = _einsum_terms(subscripts, shapes)
    sizes = _einsum_sizes(terms, shapes)

    def einsum_pullback(dy: Any) -> tuple[Any, ...]:
        cotangents = []
        for k, project in enumerate(projects):
            if project(ZERO_TANGENT) is NO_TANGENT:
                cotangents.append(NO_TANGENT)
                continue
            cotangents.append(
                Thunk(
                    functools.partial(
                        _projected_cotangent, project, xp, k, terms, output, operands, dy, sizes
                    )
                )
            )
        return NO_TANGENT, NO_TANGENT, *cotangents

    return y, einsum_pullback


def _einsum_frule(tangents: tuple, subscripts: Any, *operands: Any, optimize: Any = False):
    if not isinstance(subscripts, str):
        args = (subscripts, *operands)
        count = len(args) // 2
        subscripts, operands = _interleaved_subscripts(args), args[0::2][:count]
        tangents = (tangents[0], NO_TANGENT, *tuple(tangents[1::2])[:count])

    def product(*factors: Any) -> Any:
        return np.einsum(subscripts, *factors, optimize=optimize)

    return multilinear_frule(product, (tangents[0], *tangents[2:]), *operands)


register_rules(np.einsum, _einsum_rrule, _einsum_frule)
