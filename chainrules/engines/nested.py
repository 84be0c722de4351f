"""Second derivatives: ``hessian``, forward over reverse.

>>> import numpy as np
>>> hessian(lambda x: (x ** 3).sum())(np.array([1.0, 2.0]))
array([[ 6.,  0.],
       [ 0., 12.]])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import forward, reverse

__all__ = ["hessian"]


def hessian(f: Callable, argnums: int = 0) -> Callable:
    """The Hessian of a real scalar ``f``: the forward-mode Jacobian of its reverse gradient.

    The result has shape ``x.shape + x.shape``. Reverse over reverse gives the same
    (``reverse.jacobian(reverse.grad(f))``), as does forward over forward.
    """

    def hessian_f(*args: Any, **kwargs: Any) -> Any:
        return forward.jacobian(reverse.grad(f, argnums), argnums)(*args, **kwargs)

    return hessian_f
