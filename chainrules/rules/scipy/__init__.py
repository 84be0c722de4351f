"""Rules for SciPy functions."""

from . import linalg as linalg
from . import linalg_banded as linalg_banded
from . import linalg_banded_eig as linalg_banded_eig
from . import linalg_conditioning as linalg_conditioning
from . import linalg_constructors as linalg_constructors
from . import linalg_decomp as linalg_decomp
from . import linalg_equations as linalg_equations
from . import linalg_lu as linalg_lu
from . import linalg_matfun as linalg_matfun
from . import linalg_more as linalg_more
from . import linalg_qr_updates as linalg_qr_updates
from . import linalg_qz as linalg_qz
from . import linalg_reductions as linalg_reductions
from . import linalg_riccati as linalg_riccati
from . import linalg_structured as linalg_structured
from . import linalg_subspaces as linalg_subspaces
from . import linalg_toeplitz as linalg_toeplitz
from . import special as special
