"""SciPy's functions that have rules, differentiable wherever their arguments live.

``chainrules.scipy.special`` and ``chainrules.scipy.linalg`` mirror ``scipy.special`` and
``scipy.linalg``: the same names, signatures and docstrings, for every function of them that
has rules. A call with NumPy arrays or Python numbers is SciPy's own; with the values of the
reference engines, torch tensors, JAX arrays or tracers, or autograd's boxes, the rules
differentiate it there (see ``chainrules.adapters.routing``).

>>> import numpy as np
>>> from chainrules.engines import reverse
>>> from chainrules.scipy import linalg
>>> a = np.array([[0.0, 1.0], [0.0, 0.0]])
>>> reverse.grad(lambda a: linalg.expm(a).sum())(a)
array([[1.5       , 1.        ],
       [2.16666667, 1.5       ]])
"""

from . import linalg as linalg
from . import special as special
