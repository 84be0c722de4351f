"""Which implementation of a fast function runs on this machine: its compiled kernel or its twin.

Both compute the same function within the stated accuracy (``ACCURACY`` bounds the kernel; the
twin is the reference), so the choice is one of speed, and speed belongs to the machine: a
kernel that NumPy's AVX-512 loops outrun can be many times faster than NumPy's AVX2 or scalar
code on another CPU. For each function and dtype (float32, float64) the choice is made once
per process, the first time it is needed, by the first of these that applies:

1. ``override(name, dtype, kernel)``: the user's choice, for this process.
2. Without numba the twin runs: the kernels would run as Python loops.
3. ``CHAINRULES_FASTMATH_CHOICE`` set to ``kernel`` or ``twin``: that, for every function.
4. A calibration of this machine (the default, ``CHAINRULES_FASTMATH_CHOICE=calibrate``): the
   kernel runs where it measured at least 10% faster than its twin (``calibration``). Each
   function and dtype is measured once per CPU and set of library versions, when first
   needed (from a few milliseconds to a few tenths of a second; all of them in about 3 s of
   CPU time), and the result is kept in the user's cache directory, where every later process
   reads it: the choice does not change from run to run.
5. Where the cache directory cannot be written (or with
   ``CHAINRULES_FASTMATH_CHOICE=instruction-set``): a rule from the instruction set, which
   times nothing. The twin runs only where NumPy computes it with its AVX-512 loops and the
   kernel measured no faster than those (``TWINS_WITH_AVX512``); everywhere else the kernel.

``of(name, dtype)`` says what runs and what decided it; ``table()`` says it for every function
(calibrating what is not yet decided); ``calibrate()`` measures every function now.

>>> import numpy as np
>>> override("exp", np.float64, kernel=False)
>>> of("exp", np.float64)
Choice(kernel=False, source='override', speedup=None)
>>> override("exp", np.float64, kernel=None)  # back to the machine's choice
"""

from __future__ import annotations

import os
import threading
from typing import Any, NamedTuple

import numpy as np

from .. import _compat
from ._bits import COMPILED

__all__ = [
    "CHOSEN",
    "ENVIRONMENT_VARIABLE",
    "NAMES",
    "TWINS_WITH_AVX512",
    "Choice",
    "calibrate",
    "forget",
    "instruction_set_choice",
    "of",
    "override",
    "table",
]

NAMES = (
    "exp exp2 expm1 log log2 log1p sqrt rsqrt tanh sigmoid softplus gelu erf pow "
    "softmax log_softmax logsumexp"
).split()
"""Every fast function, by name."""

DTYPES = (np.float32, np.float64)

ENVIRONMENT_VARIABLE = "CHAINRULES_FASTMATH_CHOICE"
MODES = ("calibrate", "instruction-set", "kernel", "twin")

# Where NumPy's AVX-512 loops (SVML) compute the twin at least as fast as the kernel
# (benchmarks/fastmath.py on an AVX-512 CPU; RESULTS.md). Without AVX-512, NumPy computes
# these twins with AVX2 or scalar code, which every kernel outruns.
TWINS_WITH_AVX512: frozenset[tuple[str, type]] = frozenset(
    {
        ("exp", np.float64),
        ("exp2", np.float64),
        ("expm1", np.float32),
        ("log2", np.float32),
        ("tanh", np.float32),
        ("pow", np.float32),
        ("pow", np.float64),
    }
)


class Choice(NamedTuple):
    """What computes a fast function for one dtype here, and what decided it.

    ``kernel``: the compiled kernel (else the exact twin). ``source``: ``"override"``, ``"no
    numba"``, ``"environment"``, ``"calibrated"`` or ``"instruction set"``. ``speedup``: the
    twin's time over the kernel's, where calibrated.
    """

    kernel: bool
    source: str
    speedup: float | None = None


CHOSEN: dict[tuple[str, type], bool] = {}
"""Whether the kernel runs, by (name, dtype): the functions' lookup, filled as choices are made."""

_CHOICES: dict[tuple[str, type], Choice] = {}
_OVERRIDES: dict[tuple[str, type], bool] = {}
_LOCK = threading.RLock()


def of(name: str, dtype: Any) -> Choice:
    """What computes ``name`` for ``dtype`` on this machine, deciding it now if not yet done."""
    key = _key(name, dtype, "of")
    with _LOCK:
        found = _CHOICES.get(key)
        if found is None:
            found = _decide(*key)
            _CHOICES[key] = found
            CHOSEN[key] = found.kernel
        return found


def table() -> dict[str, dict[type, Choice]]:
    """``of(name, dtype)`` for every function and dtype: ``table()["exp"][np.float32]``."""
    return {name: {dtype: of(name, dtype) for dtype in DTYPES} for name in NAMES}


def override(name: str, dtype: Any, kernel: bool | None) -> None:
    """Run ``name``'s kernel (``kernel=True``) or its twin (``False``) for ``dtype`` in this
    process, whatever the machine's choice; ``kernel=None`` gives the choice back."""
    key = _key(name, dtype, "override")
    if kernel is not None and not isinstance(kernel, bool):
        raise TypeError(
            f"chainrules.fastmath.choice.override: kernel must be a bool or None, not {kernel!r}"
        )
    with _LOCK:
        if kernel is None:
            _OVERRIDES.pop(key, None)
        else:
            _OVERRIDES[key] = kernel
        _forget(key)


def forget() -> None:
    """Forget the choices made in this process (overrides stay): each is made again when next
    needed, after a change of ``CHAINRULES_FASTMATH_CHOICE`` for instance."""
    with _LOCK:
        _CHOICES.clear()
        CHOSEN.clear()


def calibrate(refresh: bool = False) -> dict[str, dict[type, Choice]]:
    """Measure every function and dtype not yet in this machine's cache (``refresh``: all of
    them, again), keep the results there, and return ``table()``.

    Raises ``OSError`` where the cache directory cannot be written, and ``RuntimeError``
    without numba (there is no kernel to measure).
    """
    if not COMPILED:
        raise RuntimeError("chainrules.fastmath.choice.calibrate: numba is not installed")
    from . import calibration

    directory = calibration.writable_directory()
    if directory is None:
        raise OSError(
            f"chainrules.fastmath.choice.calibrate: cannot write {calibration.cache_root()}"
        )
    with _LOCK:
        for name in NAMES:
            for dtype in DTYPES:
                calibration.calibrated(directory, name, dtype, refresh=refresh)
                _forget((name, dtype))
    return table()


def instruction_set_choice(name: str, dtype: Any, features: frozenset[str]) -> bool:
    """Whether the kernel runs under the instruction-set rule, for NumPy's CPU ``features``."""
    key = _key(name, dtype, "instruction_set_choice")
    return not ("AVX512_SKX" in features and key in TWINS_WITH_AVX512)


def _decide(name: str, dtype: type) -> Choice:
    if (name, dtype) in _OVERRIDES:
        return Choice(_OVERRIDES[name, dtype], "override")
    if not COMPILED:
        return Choice(False, "no numba")
    mode = os.environ.get(ENVIRONMENT_VARIABLE, "calibrate")
    if mode not in MODES:
        raise ValueError(
            f"chainrules.fastmath: {ENVIRONMENT_VARIABLE} must be one of {', '.join(MODES)}, "
            f"not {mode!r}"
        )
    if mode in ("kernel", "twin"):
        return Choice(mode == "kernel", "environment")
    if mode == "calibrate":
        from . import calibration

        directory = calibration.writable_directory()
        if directory is not None:
            measured = calibration.calibrated(directory, name, dtype)
            return Choice(measured.kernel, "calibrated", measured.speedup)
    features = _compat.numpy_cpu_features()
    return Choice(instruction_set_choice(name, dtype, features), "instruction set")


def _forget(key: tuple[str, type]) -> None:
    _CHOICES.pop(key, None)
    CHOSEN.pop(key, None)


def _key(name: str, dtype: Any, caller: str) -> tuple[str, type]:
    if name not in NAMES:
        raise ValueError(
            f"chainrules.fastmath.choice.{caller}: name must be one of {', '.join(NAMES)}, "
            f"not {name!r}"
        )
    try:
        scalar_type = np.dtype(dtype).type
    except TypeError:
        scalar_type = None
    if scalar_type not in DTYPES:
        raise ValueError(
            f"chainrules.fastmath.choice.{caller}: dtype must be float32 or float64, not {dtype!r}"
        )
    return name, scalar_type
