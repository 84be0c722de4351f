"""``needs``: skip a test of a function that the installed release of its library lacks.

A function that only newer releases of NumPy or SciPy have is an ``Unavailable`` of
``chainrules._compat`` where it is missing; a test of it carries ``needs(f)``, a pytest mark
that skips it there with the reason (the release it needs and the one installed).

>>> import numpy as np
>>> from chainrules._compat import Unavailable
>>> needs(np.sin).kwargs["condition"]
False
>>> needs(Unavailable("numpy.f", "needs NumPy >= 9.0")).kwargs["reason"]
'numpy.f needs NumPy >= 9.0'
"""

from __future__ import annotations

from typing import Any

from chainrules._compat import Unavailable

__all__ = ["needs"]


def needs(*functions: Any) -> Any:
    """A pytest mark: skip unless every one of ``functions`` is in the installed libraries."""
    import pytest

    missing = [f for f in functions if isinstance(f, Unavailable)]
    reason = "; ".join(f"{f.name} {f.reason}" for f in missing)
    return pytest.mark.skipif(
        condition=bool(missing), reason=reason or "every function is available"
    )
