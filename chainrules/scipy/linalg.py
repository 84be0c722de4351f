"""``scipy.linalg``'s functions with rules: SciPy's values, and derivatives in every engine.

Each function has SciPy's name, signature and docstring. NumPy arrays go straight to SciPy;
the reference engines' values, torch tensors, JAX arrays and autograd's boxes are
differentiated with the rules (see ``chainrules.scipy``). A function of ``scipy.linalg``
without rules raises ``AttributeError`` saying so; ``dir()`` lists those there.

>>> import numpy as np
>>> from chainrules.engines import forward
>>> from chainrules.scipy import linalg
>>> a = np.array([[4.0, 1.0], [1.0, 3.0]])
>>> forward.jvp(lambda a: linalg.sqrtm(a)[0, 0], (a,), (np.eye(2),))[1]
np.float64(0.2579...)
"""

from typing import Any as _Any

import scipy.linalg as _scipy_linalg

from ._mirror import Mirror as _Mirror

_mirror = _Mirror(__name__, _scipy_linalg)


def __getattr__(name: str) -> _Any:
    if name == "__all__":
        return _mirror.dir()
    return _mirror.getattr(name)


def __dir__() -> list[str]:
    return _mirror.dir()
