"""Tensors as NumPy values and back, for the rules the torch adapter runs on the host.

A tensor reaches a rule as a NumPy array of its values (a view of a CPU tensor's memory,
unwrapped from torch.func's transforms), a 0-d tensor as a NumPy scalar; results come back as
tensors that torch owns, in the dtype torch's own functions would give.

>>> import pytest
>>> torch = pytest.importorskip("torch")
>>> to_numpy(torch.tensor(2.5, dtype=torch.float64))
np.float64(2.5)
>>> to_tensor(2.5, None, torch.float32)
tensor(2.5000)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._compat import torch_unwrapped, torch_unwrapped_numpy
from ..core.tangents import AbstractZero
from ..core.thunks import unthunk

__all__ = ["dense_tensor", "is_flag", "result_dtype", "to_numpy", "to_tensor", "transformed"]


def to_numpy(a: Any) -> Any:
    """A tensor's values as NumPy's (a 0-d tensor as a NumPy scalar); anything else as it is."""
    import torch

    if isinstance(a, torch.Tensor):
        # torch.func's transforms hand custom functions wrapped tensors; the values are inside.
        values = torch_unwrapped_numpy(a)
        # A 0-d tensor is torch's scalar: NumPy's is a scalar too, which SciPy's functions
        # that take scalars only (pbdv_seq, lmbda) accept where they refuse 0-d arrays.
        return values[()] if values.ndim == 0 else values
    return a


def is_flag(y: Any) -> bool:
    """Whether a host result is a Python flag or label (``cho_factor``'s ``lower``), returned
    as it is: as a tensor, torch's checks would subtract it from itself."""
    return isinstance(y, bool | str) or y is None


def to_tensor(y: Any, like: Any, dtype: Any = None) -> Any:
    """A host result as a tensor torch owns (a copy: the rule may keep ``y``), in ``dtype``'s
    precision and of the result's kind, on ``like``'s device."""
    import torch

    out = torch.from_numpy(np.array(y, copy=True, ndmin=0))
    if dtype is not None and (out.is_floating_point() or out.is_complex()):
        kind = _same_kind(dtype, out.is_complex())
        if out.dtype != kind:
            out = out.to(kind)
    return out if like is None or like.is_cpu else out.to(like.device)


def result_dtype(args: tuple) -> Any:
    """The float dtype torch's own functions give for these arguments: that of the float and
    complex tensors promoted together (float16 stays float16), else torch's default dtype
    (integer tensors and Python numbers compute in it)."""
    import torch

    inexact = [
        a.dtype
        for a in args
        if isinstance(a, torch.Tensor) and (a.is_floating_point() or a.is_complex())
    ]
    if not inexact:
        return torch.get_default_dtype()
    dtype = inexact[0]
    for other in inexact[1:]:
        dtype = torch.promote_types(dtype, other)
    return dtype


def _same_kind(dtype: Any, complex_result: bool) -> Any:
    """``dtype``'s precision in the kind of the result (a complex result of float32 input is
    complex64; a real result of complex128 input is float64)."""
    import torch

    if complex_result:
        return torch.promote_types(dtype, torch.complex64) if not dtype.is_complex else dtype
    if dtype.is_complex:
        return torch.empty((), dtype=dtype).real.dtype
    return dtype


def transformed(tensors: tuple) -> bool:
    """Whether any of ``tensors`` is wrapped by one of torch.func's transforms."""
    import torch

    return any(isinstance(t, torch.Tensor) and torch_unwrapped(t) is not t for t in tensors)


def dense_tensor(t: Any, like: Any) -> Any:
    """A cotangent for torch: ``None`` for a zero, a tensor on ``like``'s device otherwise."""
    import torch

    t = unthunk(t)
    if t is None or isinstance(t, AbstractZero):
        return None
    if not isinstance(t, torch.Tensor):
        # A copy that torch owns (pullbacks may return arrays they keep); from_numpy of it
        # costs a tenth of as_tensor.
        t = torch.from_numpy(np.array(t, copy=True))
        if not like.is_cpu:
            t = t.to(like.device)
    return t
