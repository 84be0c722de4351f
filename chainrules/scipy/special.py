"""``scipy.special``'s functions with rules: SciPy's values, and derivatives in every engine.

Each function has SciPy's name, signature and docstring. NumPy arrays and Python numbers go
straight to SciPy; the reference engines' values, torch tensors, JAX arrays and autograd's
boxes are differentiated with the rules (see ``chainrules.scipy``). A function of
``scipy.special`` without rules raises ``AttributeError`` saying so; ``dir()`` lists those there.

>>> from chainrules.engines import reverse
>>> from chainrules.scipy import special
>>> float(reverse.grad(lambda a: special.betainc(a, 2.0, 0.3))(1.5))  # in a, as no peer has
-0.2905...
"""

from typing import Any as _Any

import scipy.special as _scipy_special

from ._mirror import Mirror as _Mirror

_mirror = _Mirror(__name__, _scipy_special)


def __getattr__(name: str) -> _Any:
    if name == "__all__":
        return _mirror.dir()
    return _mirror.getattr(name)


def __dir__() -> list[str]:
    return _mirror.dir()
