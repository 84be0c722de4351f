"""Calibration: whether a kernel outruns its twin on this machine, measured once and kept.

``measure(name, dtype)`` times the kernel and the twin on the same 2**20 points of the
function's domain (``accuracy.sample``; rows of 1024 for the reductions), alternately, and
keeps the best of seven calls of each (three, where one is more than twice as fast as the
other), timed by the CPU time of the thread (``clock``), which other work on the machine hardly
moves while it stretches the wall clock: the kernel runs where it is at least 10% faster.
Arrays of that size outgrow a CPU's second-level cache, as the large arrays that fast kernels
are for do. A measurement takes from a few milliseconds to a few tenths of a second (the
slowest twins), once per function and dtype on a machine.

Results are kept per machine in ``cache_root()`` (``$CHAINRULES_CACHE_DIR``, else the user's
cache directory), in a folder named by a hash of ``machine()``: the CPU that numba compiles
for and its features, the CPU features NumPy dispatches on, and the versions of chainrules,
NumPy, SciPy, numba, llvmlite and of the kernels' source. A new CPU, a new release or a changed
kernel is calibrated afresh. Each function and dtype is one small JSON file, published
atomically: the first process to publish one wins, and a process that measured at the same
time adopts the published result, so every process on a machine makes the same choice. A
directory that cannot be written is not used (``writable_directory()`` is None); a file that
cannot be read is measured again and replaced.

>>> measured = Measured(kernel_seconds=1e-4, twin_seconds=3e-4)
>>> measured.kernel, round(measured.speedup, 6)
(True, 3.0)
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
import platform
import sys
import threading
import time
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from .. import _compat

__all__ = [
    "CACHE_VARIABLE",
    "SAMPLE_SIZE",
    "THRESHOLD",
    "Measured",
    "cache_root",
    "calibrated",
    "machine",
    "machine_directory",
    "measure",
    "publish",
    "writable_directory",
]

CACHE_VARIABLE = "CHAINRULES_CACHE_DIR"
SAMPLE_SIZE = 2**20
ROW = 1024  # the reductions' row length
ROUNDS = 7
CLEAR = 2.0  # a ratio of times beyond which three rounds decide

# The time the calling thread computes, which other processes' load does not inflate as it
# inflates the wall clock; where the thread's clock ticks coarsely (Windows), the wall clock.
clock = time.thread_time if sys.platform.startswith(("linux", "darwin")) else time.perf_counter
THRESHOLD = 1.1
"""The kernel runs where the twin takes at least this many times the kernel's time."""

FORMAT = 1
_KERNEL_SOURCES = ("_kernels.py", "_bits.py", "_coefficients.py", "exact.py")


class Measured(NamedTuple):
    """Best times of a kernel and its twin on the calibration sample, and the verdict."""

    kernel_seconds: float
    twin_seconds: float

    @property
    def speedup(self) -> float:
        """The twin's time over the kernel's."""
        return self.twin_seconds / self.kernel_seconds

    @property
    def kernel(self) -> bool:
        """Whether the kernel runs: at least ``THRESHOLD`` times faster than the twin."""
        return self.twin_seconds >= THRESHOLD * self.kernel_seconds


def measure(name: str, dtype: type, n: int = SAMPLE_SIZE, rounds: int = ROUNDS) -> Measured:
    """Time ``name``'s kernel against its twin on ``n`` points in ``dtype``."""
    from .accuracy import axis_keywords, sample
    from .functions import EXACT, KERNEL_FUNCTIONS

    args, kwargs = sample(name, dtype, n), axis_keywords(name)
    if kwargs:  # the reductions: rows of ROW (or one row), not the accuracy sample's rows of 64
        values = args[0].reshape(-1)
        rows = max(values.size // ROW, 1)
        args = (values[: rows * min(ROW, values.size)].reshape(rows, -1),)
    kernel, twin = KERNEL_FUNCTIONS[name], EXACT[name]
    best_kernel = best_twin = math.inf
    with np.errstate(all="ignore"):
        kernel(*args, **kwargs)  # compiles the kernel, or loads it from numba's cache
        twin(*args, **kwargs)
        for done in range(1, rounds + 1):
            start = clock()
            kernel(*args, **kwargs)
            middle = clock()
            twin(*args, **kwargs)
            best_kernel = min(best_kernel, middle - start)
            best_twin = min(best_twin, clock() - middle)
            if done >= 3 and not 1 / CLEAR < best_twin / best_kernel < CLEAR:
                break  # no later round would change the verdict
    return Measured(best_kernel, best_twin)


def calibrated(directory: Path, name: str, dtype: type, refresh: bool = False) -> Measured:
    """The published measurement of ``name`` for ``dtype`` in ``directory``, measuring and
    publishing it first where there is none (``refresh``: measuring again, replacing it)."""
    path = directory / f"{name}-{np.dtype(dtype).name}.json"
    if not refresh:
        found = _read(path)
        if found is not None:
            return found
    measured = measure(name, dtype)
    return publish(path, measured, replace=refresh)


def publish(path: Path, measured: Measured, replace: bool = False) -> Measured:
    """Write ``measured`` to ``path`` atomically, unless another process published first (then
    its measurement is returned); ``replace``: overwrite whatever is there."""
    text = json.dumps({"kernel_seconds": measured[0], "twin_seconds": measured[1]})
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    temporary.write_text(text)
    try:
        if replace:
            os.replace(temporary, path)
            return measured
        try:
            os.link(temporary, path)  # fails if the file exists: the first publisher wins
        except FileExistsError:
            found = _read(path)
            if found is not None:
                return found
            os.replace(temporary, path)  # unreadable: ours replaces it
        except OSError:  # no hard links on this file system: the last publisher wins
            os.replace(temporary, path)
        return measured
    finally:
        temporary.unlink(missing_ok=True)


def _read(path: Path) -> Measured | None:
    try:
        data = json.loads(path.read_text())
        found = Measured(float(data["kernel_seconds"]), float(data["twin_seconds"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return found if found.kernel_seconds > 0 and found.twin_seconds > 0 else None


def cache_root() -> Path:
    """Where calibrations are kept: ``$CHAINRULES_CACHE_DIR``, else the platform's user cache
    directory (``$XDG_CACHE_HOME`` or ``~/.cache`` on Linux), each with ``chainrules``."""
    configured = os.environ.get(CACHE_VARIABLE)
    if configured:
        return Path(configured).expanduser() / "fastmath"
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "chainrules" / "fastmath"


def machine() -> dict[str, Any]:
    """What a calibration depends on, as JSON-ready values."""
    from llvmlite import binding
    from numba.core import config

    import chainrules

    # The CPU numba compiles the kernels for: NUMBA_CPU_NAME and NUMBA_CPU_FEATURES, else the host
    features = config.CPU_FEATURES
    if features is None:
        features = binding.get_host_cpu_features().flatten()
    versions = {"chainrules": chainrules.__version__, "numpy": np.__version__}
    for library in ("scipy", "numba", "llvmlite"):
        versions[library] = sys.modules[library].__version__
    return {
        "format": FORMAT,
        "machine": platform.machine(),
        "cpu": config.CPU_NAME or binding.get_host_cpu_name(),
        "cpu_features": features,
        "numpy_features": sorted(_compat.numpy_cpu_features()),
        "versions": versions,
        "kernel_source": _kernel_source_hash(),
    }


def machine_directory() -> Path:
    """This machine's folder in ``cache_root()``."""
    digest = hashlib.sha256(json.dumps(machine(), sort_keys=True).encode()).hexdigest()
    return cache_root() / digest[:16]


def writable_directory() -> Path | None:
    """``machine_directory()``, created with its ``machine.json``; None if it cannot be written.

    Decided once per process and directory.
    """
    return _writable(machine_directory())


@functools.cache
def _writable(directory: Path) -> Path | None:
    try:
        directory.mkdir(parents=True, exist_ok=True)
        described = directory / "machine.json"
        if not described.exists():
            temporary = directory / f".machine.json.{os.getpid()}.{threading.get_ident()}"
            temporary.write_text(json.dumps(machine(), indent=1, sort_keys=True))
            os.replace(temporary, described)
        probe = directory / f".probe.{os.getpid()}.{threading.get_ident()}"
        probe.write_text("")
        probe.unlink()
    except OSError:
        return None
    return directory


def _kernel_source_hash() -> str:
    digest = hashlib.sha256()
    for name in _KERNEL_SOURCES:
        digest.update((Path(__file__).parent / name).read_bytes())
    return digest.hexdigest()[:16]
