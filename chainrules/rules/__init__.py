"""The rule library, one package per library of functions, each loaded on first use.

=================  ===========================================  =============================
package            functions                                    loads on the first lookup of
=================  ===========================================  =============================
``numpy``          NumPy's ufuncs and functions, ``np.linalg``,  a NumPy function or method
                   ``np.fft``, ndarray methods
``python``         ``math`` and ``operator``                    a ``math`` or ``operator``
                                                                function
``scipy.special``  ``scipy.special``                            a SciPy ufunc or special
                                                                function
``scipy.linalg``   ``scipy.linalg``                             a ``scipy.linalg`` function
``fastmath``       ``chainrules.fastmath``                      a ``chainrules.fastmath``
                                                                function
=================  ===========================================  =============================

``matrices`` holds the linear-algebra mathematics that the NumPy and SciPy rules share.
Importing this package only declares the libraries (``chainrules.core.libraries``); a lookup
that finds no rule imports the library owning the function, so ``import chainrules`` stays
cheap and the tables answer as if everything had been imported.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from ..core.libraries import declare_library


def _ufunc_of(f: Any) -> Any:
    """The ufunc itself for a ufunc's method (``np.add.reduce``), else ``f``."""
    owner = getattr(f, "__self__", None)
    return owner if isinstance(owner, np.ufunc) else f


def numpy_object(f: Any) -> bool:
    """NumPy's ufuncs and their methods, and ndarray methods: they name no module."""
    f = _ufunc_of(f)
    if isinstance(f, np.ufunc):
        return getattr(np, f.__name__, None) is f
    return getattr(f, "__objclass__", None) is np.ndarray


def scipy_ufunc(f: Any) -> bool:
    """SciPy's ufuncs (any ufunc not NumPy's, once ``scipy.special`` has been imported)."""
    f = _ufunc_of(f)
    return (
        isinstance(f, np.ufunc)
        and "scipy.special" in sys.modules
        and getattr(np, f.__name__, None) is not f
    )


declare_library("numpy", f"{__name__}.numpy", ("numpy",), numpy_object)
declare_library("python", f"{__name__}.python", ("math", "operator", "_operator"))
declare_library(
    "scipy.special",
    f"{__name__}.scipy.special",
    ("scipy.special", f"{__name__}.scipy.special"),  # and derivatives its rules define
    scipy_ufunc,
)
declare_library("scipy.linalg", f"{__name__}.scipy.linalg", ("scipy.linalg",))
declare_library("fastmath", f"{__name__}.fastmath", ("chainrules.fastmath",))
