"""Rules for SciPy functions."""

from . import linalg as linalg
from . import linalg_decomp as linalg_decomp
from . import linalg_equations as linalg_equations
from . import linalg_lu as linalg_lu
from . import linalg_matfun as linalg_matfun
from . import linalg_structured as linalg_structured
from . import special as special
