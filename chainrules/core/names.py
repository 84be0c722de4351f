"""``function_name``: the public, qualified name of a function, for messages and reports.

Functions are named by where users reach them (``scipy.special.gammaln``, not the private
module that defines it): the public modules already imported are searched once for the object.

>>> import numpy as np
>>> function_name(np.sin), function_name(np.linalg.solve), function_name(np.add.reduce)
('numpy.sin', 'numpy.linalg.solve', 'numpy.add.reduce')
"""

from __future__ import annotations

import sys
import threading
from typing import Any

__all__ = ["PUBLIC_MODULES", "function_name", "short_name"]

# Where users reach the functions this project has rules for, in order of preference.
PUBLIC_MODULES = (
    "numpy",
    "numpy.linalg",
    "numpy.fft",
    "scipy.special",
    "scipy.linalg",
    "math",
    "cmath",
    "operator",
    "chainrules.fastmath",
)

_names: dict[int, tuple[Any, str]] = {}  # id -> (object kept alive, name)
_scanned: set[str] = set()
_lock = threading.Lock()


def _scan_imported_modules() -> None:
    for module_name in PUBLIC_MODULES:
        if module_name in _scanned or module_name not in sys.modules:
            continue
        module = sys.modules[module_name]
        with _lock:
            _scanned.add(module_name)
            for attr in dir(module):
                if attr.startswith("_"):
                    continue
                obj = getattr(module, attr, None)
                if not callable(obj) or isinstance(obj, type):
                    continue
                # Aliases (jn and jv) resolve to the name the object gives itself, in the
                # first module that has it (numpy.sinc, not its re-export scipy.special.sinc).
                own = getattr(obj, "__name__", None)
                known = _names.get(id(obj))
                if known is None or (attr == own and not known[1].endswith(f".{own}")):
                    _names[id(obj)] = (obj, f"{module_name}.{attr}")


def function_name(f: Any) -> str:
    """A readable, qualified name for ``f``: ``numpy.sin``, ``scipy.special.gammaln``."""
    hit = _names.get(id(f))
    if hit is not None and hit[0] is f:
        return hit[1]
    _scan_imported_modules()
    hit = _names.get(id(f))
    if hit is not None and hit[0] is f:
        return hit[1]
    owner = getattr(f, "__self__", None)
    name = getattr(f, "__qualname__", None) or getattr(f, "__name__", None) or repr(f)
    if owner is not None and not isinstance(owner, type) and hasattr(owner, "__name__"):
        return f"{function_name(owner)}.{getattr(f, '__name__', name)}"
    objclass = getattr(f, "__objclass__", None)  # method descriptors: ndarray.sum
    if objclass is not None:
        return f"{objclass.__module__}.{name}".replace("numpy._core.multiarray", "numpy")
    module = getattr(f, "__module__", None) or ""
    return f"{module}.{name}" if module and module != "builtins" else name


def short_name(f: Any) -> str:
    """The last part of ``function_name(f)``: ``gammaln`` for ``scipy.special.gammaln``.

    Unlike ``f.__name__``, it exists for every function (SciPy 1.15's and 1.16's ``MultiUFunc``
    objects, ``sph_harm_y`` among them, have no ``__name__``).
    """
    return function_name(f).rpartition(".")[2]
