"""Rules for ``scipy.linalg.norm``: the rule of ``np.linalg.norm`` (``rules.numpy.norms``,
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
from typing import Any
from ....core.arguments import positional_cotangents
from ....core.calls import call
from ....core.dtypes import is_complex
from ....core.namespace import array_namespace
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero, Tangent
from ....core.thunks import unthunk
from ...matrices import mH, output_fields
from ...numpy.linalg_decomp import qr_pullback_of, qr_pushforward_of
from ...numpy.linalg_spectral import svd_pullback_of, svd_pushforward_of
from .matrix_functions import frechet, frechet_adjoint

__all__: list[str] = []


# ---- norm, pinvh --------------------------------------------------------------------------


@rrule.register(sla.norm)
@positional_cotangents
def _norm_rrule(a, ord=None, axis=None, keepdims=False, *, check_finite=True):
    return rrule(np.linalg.norm, a, ord=ord, axis=axis, keepdims=keepdims)



@frule.register(sla.norm)
def _norm_frule(tangents, a, ord=None, axis=None, keepdims=False, *, check_finite=True):
    return frule(tangents, np.linalg.norm, a, ord=ord, axis=axis, keepdims=keepdims)
