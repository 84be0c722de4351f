"""The one place for names that depend on the installed versions of NumPy, SciPy, PyTorch, JAX
and autograd, and for the private names of those libraries that the project uses.

**Functions only some releases have.** A function that a newer release added is looked up here
once, by ``newer(module, name, since)``; where the installed release lacks it, an
``Unavailable`` stands in for it. Registering a rule for an ``Unavailable`` does nothing,
calling one raises ``AttributeError`` naming the function and the release it needs, and the
coverage report lists it as not available, with that reason (``UNAVAILABLE``).

**Behaviour that changed.** Where a library's behaviour differs across the releases the project
supports, the function here that reads it says which releases do what (numdifftools 0.10
changed the type of its results).

**Private names.** Each is read through a function or constant here, so that a release that
moves it breaks one line, with the versions known to have it written beside it.

>>> import numpy as np
>>> absent = Unavailable("numpy.future_function", "needs NumPy >= 9.0; 2.4.0 is installed")
>>> bool(absent), absent.__name__, available(absent), available(np.sin)
(False, 'future_function', False, True)
"""

from __future__ import annotations

import contextlib
import functools
import re
import types
from typing import Any

import numpy as np
import scipy

__all__ = [
    "NUMPY_VERSION",
    "NUMPY_NO_VALUE",
    "SCIPY_VERSION",
    "UNAVAILABLE",
    "Unavailable",
    "autograd_internals",
    "available",
    "compat_namespace",
    "cumulative_prod",
    "derivative_and_error",
    "matvec",
    "newer",
    "numpy_cpu_features",
    "release",
    "scipy_lambertw_ufunc",
    "scipy_private_ufunc",
    "torch_outside_transforms",
    "torch_transforms_active",
    "torch_unwrapped",
    "torch_unwrapped_numpy",
    "vecmat",
]


def release(version: str) -> tuple[int, ...]:
    """The numeric release of a version string: ``"2.0.0rc1"`` -> ``(2, 0, 0)``.

    >>> release("1.15.3"), release("2.1.0.dev0+git1234")
    ((1, 15, 3), (2, 1, 0))
    """
    parts = []
    for part in version.split(".")[:3]:
        match = re.match(r"\d+", part)
        if match is None:
            break
        parts.append(int(match.group()))
    return tuple(parts)


NUMPY_VERSION = release(np.__version__)
SCIPY_VERSION = release(scipy.__version__)

_LIBRARIES = {"numpy": ("NumPy", np.__version__), "scipy": ("SciPy", scipy.__version__)}


# ---- functions only newer releases have ----------------------------------------------------


class Unavailable:
    """Stands for a function that the installed release of its library does not have.

    It is falsy; calling it raises ``AttributeError`` with ``reason``. Rule registration
    skips it, and the coverage report lists ``name`` as not available.
    """

    def __init__(self, name: str, reason: str) -> None:
        self.name = name
        self.reason = reason
        self.__module__, _, self.__name__ = name.rpartition(".")
        self.__qualname__ = self.__name__

    def __bool__(self) -> bool:
        return False

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise AttributeError(f"{self.name} is not available: {self.reason}")

    def __repr__(self) -> str:
        return f"<unavailable {self.name}: {self.reason}>"


UNAVAILABLE: dict[str, Unavailable] = {}


def newer(module: types.ModuleType, name: str, since: str) -> Any:
    """``module.name``, or an ``Unavailable`` saying it needs the library's release ``since``."""
    found = getattr(module, name, None)
    if found is not None:
        return found
    library, installed = _LIBRARIES.get(module.__name__.partition(".")[0], (module.__name__, "?"))
    qualified = f"{module.__name__}.{name}"
    missing = Unavailable(qualified, f"needs {library} >= {since}; {installed} is installed")
    UNAVAILABLE[qualified] = missing
    return missing


def available(f: Any) -> bool:
    """Whether ``f`` is a function of the installed libraries (not an ``Unavailable``)."""
    return not isinstance(f, Unavailable)


# NumPy 2.2
matvec = newer(np, "matvec", since="2.2")
vecmat = newer(np, "vecmat", since="2.2")


# ---- private names -------------------------------------------------------------------------

# numpy._NoValue: the default of keywords such as keepdims= (NumPy 1.x and 2.x).
NUMPY_NO_VALUE: Any = np._NoValue


def numpy_cpu_features() -> frozenset[str]:
    """The CPU features NumPy dispatches its SIMD loops on here (``"AVX2"``, ``"AVX512_SKX"``,
    ...): those the CPU has, less those ``NPY_DISABLE_CPU_FEATURES`` turns off.

    Read from ``numpy._core._multiarray_umath.__cpu_features__`` (NumPy 2.0 to 2.4).
    """
    from numpy._core import _multiarray_umath

    return frozenset(name for name, on in _multiarray_umath.__cpu_features__.items() if on)


def scipy_private_ufunc(name: str) -> Any:
    """A ufunc of ``scipy.special._ufuncs`` (SciPy 1.13 to 1.17 have ``_smirnovp``,
    ``_kolmogp``, ``_zeta``, ``_riemann_zeta`` and the ``_spherical_*`` ufuncs), else None."""
    import scipy.special._ufuncs as ufuncs

    return getattr(ufuncs, name, None)


def scipy_lambertw_ufunc() -> Any:
    """The ufunc behind ``scipy.special.lambertw`` (``scipy.special._lambertw._lambertw``,
    SciPy 1.13 to 1.17), else None."""
    try:
        from scipy.special._lambertw import _lambertw
    except ImportError:
        return None
    return _lambertw


def torch_unwrapped(tensor: Any) -> Any:
    """``tensor`` unwrapped from torch.func's transforms: the plain tensor holding its values.

    ``torch._C._functorch`` is private (PyTorch 2.13, the release the ``torch`` extra pins,
    has it).
    """
    import torch

    functorch = torch._C._functorch
    while functorch.is_functorch_wrapped_tensor(tensor):
        tensor = functorch.get_unwrapped(tensor)
    return tensor


def torch_unwrapped_numpy(tensor: Any) -> Any:
    """A NumPy array of ``tensor``'s values, unwrapped from torch.func's transforms (a view of
    a CPU tensor's memory, a copy of any other).

    ``torch._C._DisableFuncTorch`` is private (PyTorch 2.13 has it).
    """
    import torch

    tensor = torch_unwrapped(tensor)
    if not torch_transforms_active():
        return _numpy_values(tensor)
    with torch._C._DisableFuncTorch():
        return _numpy_values(tensor)


def _numpy_values(tensor: Any) -> Any:
    # Each step only where it does something: ``cpu()`` of a CPU tensor alone costs several
    # times ``numpy()``.
    tensor = tensor.detach()
    if not tensor.is_cpu:
        tensor = tensor.cpu()
    if tensor.is_conj():
        tensor = tensor.resolve_conj()
    if tensor.is_neg():
        tensor = tensor.resolve_neg()
    return tensor.numpy()


def torch_transforms_active() -> bool:
    """Whether one of torch.func's transforms (``vmap``, ``grad``, ``jvp``...) is active, the
    test ``torch.autograd.Function.apply`` makes itself.

    ``torch._C._are_functorch_transforms_active`` is private (PyTorch 2.13 has it).
    """
    import torch

    return torch._C._are_functorch_transforms_active()


def torch_outside_transforms() -> contextlib.AbstractContextManager[Any]:
    """A context in which no torch.func transform is active, so that plain tensors may
    require grad (PyTorch refuses ``requires_grad_()`` inside one).

    ``torch._functorch.pyfunctorch.temporarily_clear_interpreter_stack`` is private (PyTorch
    2.13 has it).
    """
    from torch._functorch.pyfunctorch import temporarily_clear_interpreter_stack

    return temporarily_clear_interpreter_stack()


def compat_namespace(xp: Any) -> Any:
    """The namespace ``xp`` that array_api_compat gave, as rules compute with it: its PyTorch
    namespace with ``matmul`` taken straight to ``torch.matmul`` for two tensors of one dtype;
    any other namespace as it is.

    array_api_compat's ``matmul`` for PyTorch (1.12 and later) converts both operands to their
    promoted dtype before every product, two ``Tensor.to`` calls that cost more than a small
    product (3.95 against 1.06 us for two 4 x 4 float64 tensors); operands of one dtype have
    nothing to promote. Operands of two dtypes, or anything but two tensors, take its
    ``matmul`` as before.
    """
    if getattr(xp, "__name__", None) != "array_api_compat.torch":
        return xp
    return _torch_compat_namespace(xp)


@functools.cache
def _torch_compat_namespace(xp: types.ModuleType) -> types.ModuleType:
    import torch

    promoting, direct, tensor = xp.matmul, torch.matmul, torch.Tensor

    def matmul(x1: Any, x2: Any, /, **kwargs: Any) -> Any:
        if isinstance(x1, tensor) and isinstance(x2, tensor) and x1.dtype == x2.dtype:
            return direct(x1, x2, **kwargs)
        return promoting(x1, x2, **kwargs)

    namespace = types.ModuleType(xp.__name__, xp.__doc__)
    namespace.__dict__.update(vars(xp))
    namespace.matmul = matmul  # type: ignore[attr-defined]
    return namespace


def derivative_and_error(result: Any) -> tuple[Any, Any, Any]:
    """The estimate, its error estimate and the step it came from, from
    ``numdifftools.Derivative(..., full_output=True)(x)``: an ``EstimateResult`` from
    numdifftools 0.10 on, a pair ``(value, info)`` in 0.9 (``info`` holds the error estimate and
    the final step)."""
    if hasattr(result, "estimate"):
        return result.estimate, result.error_estimate, result.final_step
    value, info = result
    return value, info.error_estimate, info.final_step


@functools.cache
def autograd_internals() -> types.SimpleNamespace:
    """The names of autograd outside its public ``autograd.extend`` that the adapter uses.

    ``primitive_vjps`` and ``primitive_jvps`` (``autograd.core``), ``trace_primitives_map``,
    ``getval`` and ``isbox`` (``autograd.tracer``), ``ArrayBox``
    (``autograd.numpy.numpy_boxes``): autograd 1.9 has them there (1.7 and 1.8 lack
    ``trace_primitives_map``).
    """
    from autograd.core import primitive_jvps, primitive_vjps
    from autograd.numpy.numpy_boxes import ArrayBox
    from autograd.tracer import getval, isbox, trace_primitives_map

    return types.SimpleNamespace(
        primitive_vjps=primitive_vjps,
        primitive_jvps=primitive_jvps,
        trace_primitives_map=trace_primitives_map,
        getval=getval,
        isbox=isbox,
        ArrayBox=ArrayBox,
    )


def cumulative_prod(
    xp: Any, x: Any, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False
) -> Any:
    """``xp.cumulative_prod(x, ...)`` of the array API; from ``xp.cumprod`` for a namespace
    without it (``jax.numpy`` of JAX 0.4.35 has only ``cumprod``).

    >>> import numpy as np
    >>> cumulative_prod(np, np.array([2.0, 3.0]), include_initial=True)
    array([1., 2., 6.])
    """
    own = getattr(xp, "cumulative_prod", None)
    if own is not None:
        return own(x, axis=axis, dtype=dtype, include_initial=include_initial)
    y = xp.cumprod(x, axis=axis, dtype=dtype)
    if not include_initial:
        return y
    at = (0 if axis is None else axis) % y.ndim
    ones = xp.ones((*y.shape[:at], 1, *y.shape[at + 1 :]), dtype=y.dtype)
    return xp.concatenate((ones, y), axis=at)
