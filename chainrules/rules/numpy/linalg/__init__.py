"""Rules for ``np.linalg``, one module per family.

=================  ====================================================================
module             functions
=================  ====================================================================
solve              solve inv tensorinv tensorsolve
products           matrix_power multi_dot vecdot
aliases            matmul outer cross matrix_transpose tensordot trace diagonal
determinants       det slogdet
pseudoinverse      pinv lstsq
decompositions     cholesky qr
spectral           svd svdvals eig eigvals eigh eigvalsh; matrix_rank (no derivative)
norms              norm matrix_norm vector_norm cond
ties               (no rules) the gaps of a spectrum, shared by spectral and SciPy's
=================  ====================================================================

The building blocks these rules share with SciPy's (adjoints, triangles, ``Factored``, the
mathematics of inv, det and solve, ``matrix_rule``) live in ``chainrules.rules.matrices``.
"""

from . import aliases as aliases
from . import decompositions as decompositions
from . import determinants as determinants
from . import norms as norms
from . import products as products
from . import pseudoinverse as pseudoinverse
from . import solve as solve
from . import spectral as spectral
from . import ties as ties
