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
import math
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
    # A letter of length 1 in every other term (broadcast against this operand's length) also
    # gives every element along it the same cotangent.
    own = dict(zip(term, shape_of(operands[k]), strict=True))
    target = tuple(own[c] if n == 1 else n for c, n in zip(unique, shape_of(g), strict=True))
    if target != shape_of(g):
        g = xp.broadcast_to(g, target)
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
    pair = _matrix_product_terms(subscripts, operands)
    if pair is not None:
        return _pair_rrule(pair, *operands)
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


# ---- two operands: one matrix product ----------------------------------------------------------

# The dtypes NumPy's matmul multiplies with BLAS.
_BLAS_DTYPES = frozenset(map(np.dtype, (np.float32, np.float64, np.complex64, np.complex128)))


def _matrix_product_terms(subscripts: str, operands: tuple) -> tuple[str, str, str] | None:
    """The terms ``(a, b, output)`` of an einsum that ``_contract_pair`` computes: two NumPy
    arrays of a BLAS dtype whose subscripts ``_product_terms`` accepts; ``None`` for any other
    call, which the general rule takes (and NumPy checks)."""
    if len(operands) != 2:
        return None
    a, b = operands
    if type(a) is not np.ndarray or type(b) is not np.ndarray:
        return None
    if a.dtype not in _BLAS_DTYPES or b.dtype not in _BLAS_DTYPES:
        return None
    return _product_terms(subscripts, a.shape, b.shape)


@functools.lru_cache(maxsize=256)
def _product_terms(
    subscripts: str, a_shape: tuple[int, ...], b_shape: tuple[int, ...]
) -> tuple[str, str, str] | None:
    """The terms ``(a, b, output)`` of subscripts that make one product of matrices (or of a
    matrix and a vector) for operands of these shapes: no letter repeated within a term, each
    letter in two or three of the terms, one length for each letter the operands share, a
    letter summed over and another that only one operand and the output carry. Cached: a
    program calls einsum with the same subscripts and shapes again and again."""
    if subscripts.count(",") != 1:
        return None
    (ta, tb), out = _einsum_terms(subscripts, [a_shape, b_shape])
    if not out or len(ta) != len(a_shape) or len(tb) != len(b_shape):
        return None
    letters = ta + tb + out
    if not letters.isascii() or not letters.isalpha():
        return None
    if len(set(ta)) != len(ta) or len(set(tb)) != len(tb) or len(set(out)) != len(out):
        return None
    if any(letters.count(c) < 2 for c in letters):
        return None
    if all(c in out for c in ta) or not (set(out) - set(tb) or set(out) - set(ta)):
        return None  # no letter summed, or no rows or columns: no product for BLAS to make
    if any(n != b_shape[tb.index(c)] for c, n in zip(ta, a_shape, strict=True) if c in tb):
        return None
    return ta, tb, out


def _contract_pair(a: np.ndarray, ta: str, b: np.ndarray, tb: str, out: str) -> np.ndarray:
    """``np.einsum(f"{ta},{tb}->{out}", a, b)`` as one ``matmul``, which multiplies with BLAS
    (einsum does not, unless asked to plan a contraction order, which costs as much again on
    small arrays). The terms are as ``_product_terms`` accepts them."""
    a_axes, a_shape, b_axes, b_shape, y_shape, y_axes = _pair_plan(ta, tb, out, a.shape, b.shape)
    y = np.matmul(a.transpose(a_axes).reshape(a_shape), b.transpose(b_axes).reshape(b_shape))
    return y.reshape(y_shape).transpose(y_axes)


@functools.lru_cache(maxsize=256)
def _pair_plan(
    ta: str, tb: str, out: str, a_shape: tuple[int, ...], b_shape: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    """How ``_contract_pair`` lays out its operands and result: letters in both operands and
    the output index a stack of products, letters in both operands only are summed over, the
    others are each operand's rows or columns."""
    batch = [c for c in out if c in ta and c in tb]
    rows = [c for c in out if c not in tb]
    columns = [c for c in out if c not in ta]
    summed = [c for c in ta if c not in out]
    size = dict(zip(ta, a_shape, strict=True)) | dict(zip(tb, b_shape, strict=True))
    nb, nr, nc, ns = (math.prod(size[c] for c in g) for g in (batch, rows, columns, summed))
    lead = (nb,) if batch else ()
    order = batch + rows + columns
    return (
        tuple(ta.index(c) for c in batch + rows + summed),
        (*lead, nr, ns),
        tuple(tb.index(c) for c in batch + summed + columns),
        (*lead, ns, nc),
        tuple(size[c] for c in order),
        tuple(order.index(c) for c in out),
    )


def _pair_rrule(pair: tuple[str, str, str], a: np.ndarray, b: np.ndarray) -> Any:
    """The rrule of a two-operand einsum that is one matrix product: the value and each
    cotangent (``dy`` contracted with the other operand, conjugated) with ``_contract_pair``."""
    ta, tb, out = pair
    y = _contract_pair(a, ta, b, tb, out)
    project_a, project_b = argument_projector(a), argument_projector(b)
    y_shape = y.shape

    def einsum_pullback(dy: Any) -> tuple[Any, ...]:
        if type(dy) is np.ndarray and dy.dtype in _BLAS_DTYPES and dy.shape == y_shape:
            da = Thunk(functools.partial(_pair_cotangent, project_a, dy, out, b, tb, ta))
            db = Thunk(functools.partial(_pair_cotangent, project_b, dy, out, a, ta, tb))
            return NO_TANGENT, NO_TANGENT, da, db
        # Any other cotangent (an engine's tracked array, a number) takes einsum itself.
        terms, operands = [ta, tb], (a, b)
        sizes = _einsum_sizes(terms, [a.shape, b.shape])
        cotangents = (
            Thunk(
                functools.partial(
                    _projected_cotangent, project, np, k, terms, out, operands, dy, sizes
                )
            )
            for k, project in enumerate((project_a, project_b))
        )
        return NO_TANGENT, NO_TANGENT, *cotangents

    return y, einsum_pullback


def _pair_cotangent(
    project: Any, dy: np.ndarray, out: str, other: np.ndarray, t_other: str, term: str
) -> Any:
    """One operand's cotangent in ``_pair_rrule``, projected onto it (for a thunk)."""
    return project(_contract_pair(dy, out, conj(np, other), t_other, term))


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
