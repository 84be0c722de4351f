"""Rules for ``scipy.linalg.norm``: the rule of ``np.linalg.norm`` (``rules.numpy.linalg.norms``,
whose docstring states the conventions at zero and at ties), with SciPy's keywords.

>>> import numpy as np
>>> import scipy.linalg
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(scipy.linalg.norm, np.array([3.0, 4.0]))
>>> pullback(1.0)[1]
array([0.6, 0.8])
"""

from __future__ import annotations

import numpy as np
import scipy.linalg as sla

from ....core.registry import frule, rrule

__all__: list[str] = []


# ---- norm, pinvh --------------------------------------------------------------------------


@rrule.register(sla.norm)
def _norm_rrule(a, ord=None, axis=None, keepdims=False, *, check_finite=True):
    return rrule(np.linalg.norm, a, ord=ord, axis=axis, keepdims=keepdims)


@frule.register(sla.norm)
def _norm_frule(tangents, a, ord=None, axis=None, keepdims=False, *, check_finite=True):
    return frule(tangents, np.linalg.norm, a, ord=ord, axis=axis, keepdims=keepdims)
