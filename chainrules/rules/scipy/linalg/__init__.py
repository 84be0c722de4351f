"""Rules for ``scipy.linalg``, one module per family:

====================  =====================================================================
module                functions
====================  =====================================================================
solve                 solve solve_triangular; the table of functions without derivatives
cholesky              cholesky cho_factor cho_solve cholesky_banded cho_solve_banded
banded                solve_banded solveh_banded
banded_eigen          eig_banded eigvals_banded eigh_tridiagonal eigvalsh_tridiagonal
lu                    lu lu_factor lu_solve
qr                    qr rq
qr_updates            qr_multiply qr_update qr_insert qr_delete
svd                   svd svdvals orth
eigen                 eigh eig eigvals eigvalsh
inverses              det inv pinv pinvh lstsq
polar                 polar orthogonal_procrustes
norms                 norm
matrix_functions      expm logm sqrtm cosm sinm tanm coshm sinhm tanhm
                      fractional_matrix_power expm_frechet signm
conditioning          expm_cond
equations             solve_sylvester solve_continuous_lyapunov solve_discrete_lyapunov schur
riccati               solve_continuous_are solve_discrete_are
qz                    qz ordqz
condensed_forms       hessenberg matrix_balance cdf2rdf rsf2csf
ldl                   ldl
cossin                cossin
subspaces             null_space subspace_angles
structured            block_diag toeplitz circulant
constructors          hankel convolution_matrix leslie khatri_rao companion fiedler
                      fiedler_companion diagsvd
toeplitz              solve_toeplitz matmul_toeplitz solve_circulant
====================  =====================================================================
"""

from . import banded as banded
from . import banded_eigen as banded_eigen
from . import cholesky as cholesky
from . import condensed_forms as condensed_forms
from . import conditioning as conditioning
from . import constructors as constructors
from . import cossin as cossin
from . import eigen as eigen
from . import equations as equations
from . import inverses as inverses
from . import ldl as ldl
from . import lu as lu
from . import matrix_functions as matrix_functions
from . import norms as norms
from . import polar as polar
from . import qr as qr
from . import qr_updates as qr_updates
from . import qz as qz
from . import riccati as riccati
from . import solve as solve
from . import structured as structured
from . import subspaces as subspaces
from . import svd as svd
from . import toeplitz as toeplitz
