"""Reference AD engines built only on the rule table: reverse, forward, and their nesting.

Modules, one concept each:

* ``reverse``    grad, value_and_grad, vjp, jacobian; ``reverse.CONFIG``
* ``forward``    jvp, jacobian; ``forward.CONFIG``
* ``nested``     hessian (forward over reverse)
* ``tracked``    the tracked array type and how NumPy's calls reach the engine; ``call``
* ``tape``       the reverse engine's tape and backward pass
* ``levels``     what keeps nested differentiations apart
* ``arguments``  structured arguments and results, aliasing, cycles
* ``tripwires``  the errors raised instead of silently wrong derivatives
* ``derived``    integers computed from tracked floats, whose bits cannot be read as floats
* ``lazy_values`` dask arrays as values: tracked lazily, never computed by a rule

>>> import numpy as np
>>> from chainrules.engines import hessian, reverse
>>> reverse.grad(np.sin)(0.0)
1.0
"""

from . import forward as forward
from . import reverse as reverse
from .nested import hessian as hessian
from .tracked import call as call
from .tripwires import EscapedValueError as EscapedValueError
from .tripwires import NoRuleError as NoRuleError
from .tripwires import TrackingError as TrackingError
