"""Rules for ``np.linalg``'s aliases of ``np`` functions.

``np.linalg.matmul``, ``outer``, ``cross``, ``matrix_transpose``, ``tensordot``, ``trace``
and ``diagonal`` are distinct objects from their ``np`` namesakes; their rules call those of
the ``np`` functions (``trace`` and ``diagonal`` on the last two axes).

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(np.linalg.trace, np.eye(2))
>>> pullback(1.0)[1]
array([[1., 0.],
       [0., 1.]])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ....core.registry import frule, rrule

__all__: list[str] = []


# ---- aliases of np functions --------------------------------------------------------------


def _register_alias(f: Any, target: Any, keywords: dict[str, Any], fixed: dict[str, Any]) -> None:
    """Rules for ``f`` that call ``target``'s, passing ``f``'s keywords and ``fixed`` ones."""

    def alias_rrule(*args: Any, **kwargs: Any) -> Any:
        return rrule(target, *args, **{**keywords, **kwargs, **fixed})

    def alias_frule(tangents: tuple, *args: Any, **kwargs: Any) -> Any:
        return frule(tangents, target, *args, **{**keywords, **kwargs, **fixed})

    for rule, table in ((alias_rrule, rrule), (alias_frule, frule)):
        table.register(f, keywords=keywords)(rule)


_register_alias(np.linalg.matmul, np.matmul, {}, {})
_register_alias(np.linalg.outer, np.outer, {}, {})
_register_alias(np.linalg.cross, np.cross, {"axis": -1}, {})
_register_alias(np.linalg.matrix_transpose, np.matrix_transpose, {}, {})
_register_alias(np.linalg.tensordot, np.tensordot, {"axes": 2}, {})
_register_alias(np.linalg.trace, np.trace, {"offset": 0, "dtype": None}, {"axis1": -2, "axis2": -1})
_register_alias(np.linalg.diagonal, np.diagonal, {"offset": 0}, {"axis1": -2, "axis2": -1})
