"""The reviewed classification of ``scipy.special`` and ``scipy.linalg``.

Special functions are differentiable in their continuous arguments even when some arguments
are integer orders or counts (``jn``, ``bdtr``); the rows below that leave the differentiable
universe are those with no continuous input or an integer-valued output.

>>> from chainrules.coverage.table_scipy import ROWS
>>> sorted({row.category for row in ROWS})
['scipy.linalg', 'scipy.special']
"""

from .classification import DIFFERENTIABLE as D
from .classification import NON_DIFFERENTIABLE as ND
from .classification import OUT_OF_SCOPE as OUT
from .classification import Row

__all__ = ["ROWS"]

# fmt: off
ROWS = (
    # ---- scipy.special ------------------------------------------------------------------------
    Row("scipy.special", D, "scipy.special", """
        agm airy airye bei beip ber berp besselpoly beta betainc betaincc betainccinv betaincinv
        betaln binom boxcox boxcox1p cbrt cosdg cosm1 cotdg dawsn digamma ellipe ellipeinc
        ellipj ellipk ellipkinc ellipkm1 elliprc elliprd elliprf elliprg elliprj entr erf erfc
        erfcinv erfcx erfi erfinv exp1 exp10 exp2 expi expit expm1 expn exprel fresnel gamma
        gammainc gammaincc gammainccinv gammaincinv gammaln loggamma rgamma hankel1 hankel1e
        hankel2 hankel2e huber pseudo_huber hyp0f1 hyp1f1 hyp2f1 hyperu i0 i0e i1 i1e iv ive jv
        jve j0 j1 k0 k0e k1 k1e kn kv kve y0 y1 yn yv yve it2i0k0 it2j0y0 it2struve0 itairy
        iti0k0 itj0y0 itmodstruve0 itstruve0 kei keip kelvin ker kerp kl_div rel_entr kolmogi
        kolmogorov smirnov smirnovi log1p log_expit log_ndtr log_wright_bessel logit lpmv
        mathieu_a mathieu_b mathieu_cem mathieu_modcem1 mathieu_modcem2 mathieu_modsem1
        mathieu_modsem2 mathieu_sem modfresnelm modfresnelp modstruve struve ndtr ndtri
        ndtri_exp owens_t pbdv pbvv pbwa poch powm1 radian obl_ang1 obl_ang1_cv obl_cv obl_rad1
        obl_rad1_cv obl_rad2 obl_rad2_cv pro_ang1 pro_ang1_cv pro_cv pro_rad1 pro_rad1_cv
        pro_rad2 pro_rad2_cv shichi sici sindg tandg spence tklmbda voigt_profile wofz
        wright_bessel wrightomega xlog1py xlogy zetac zeta polygamma lambertw multigammaln
        eval_chebyc eval_chebys eval_chebyt eval_chebyu eval_gegenbauer eval_genlaguerre
        eval_hermite eval_hermitenorm eval_jacobi eval_laguerre eval_legendre eval_sh_chebyt
        eval_sh_chebyu eval_sh_jacobi eval_sh_legendre bdtr bdtrc bdtri bdtrik bdtrin btdtria
        btdtrib chdtr chdtrc chdtri chdtriv chndtr chndtridf chndtrinc chndtrix fdtr fdtrc fdtri
        fdtridfd gdtr gdtrc gdtria gdtrib gdtrix nbdtr nbdtrc nbdtri nbdtrik nbdtrin ncfdtr
        ncfdtri ncfdtridfd ncfdtridfn ncfdtrinc nctdtr nctdtridf nctdtrinc nctdtrit nrdtrimn
        nrdtrisd pdtr pdtrc pdtri pdtrik stdtr stdtridf stdtrit inv_boxcox inv_boxcox1p
        assoc_laguerre assoc_legendre_p assoc_legendre_p_all legendre_p legendre_p_all
        sph_harm_y sph_harm_y_all sph_legendre_p sph_legendre_p_all spherical_in spherical_jn
        spherical_kn spherical_yn h1vp h2vp ivp jvp kvp yvp diric ellip_harm ellip_harm_2
        ellip_normal lmbda lqmn lqn riccati_jn riccati_yn pbdn_seq pbdv_seq pbvv_seq obl_cv_seq
        pro_cv_seq mathieu_even_coef mathieu_odd_coef logsumexp log_softmax softmax softplus
    """),
    Row("scipy.special", ND, "scipy.special", "round gammasgn",
        reason="piecewise constant (rounding, sign): the derivative is zero wherever it exists"),
    Row("scipy.special", ND, "scipy.special", """
        comb perm factorial factorial2 factorialk stirling2 bernoulli euler
    """,
        reason="integer-valued combinatorics and number sequences of integer arguments"),
    Row("scipy.special", ND, "scipy.special", """
        ai_zeros bi_zeros bei_zeros beip_zeros ber_zeros berp_zeros kei_zeros keip_zeros
        ker_zeros kerp_zeros kelvin_zeros erf_zeros fresnel_zeros fresnelc_zeros fresnels_zeros
        jn_zeros jnp_zeros jnjnp_zeros jnyn_zeros yn_zeros ynp_zeros y0_zeros y1_zeros y1p_zeros
    """,
        reason="zeros of a special function, computed from integer orders and counts"),
    Row("scipy.special", ND, "scipy.special", """
        roots_chebyc roots_chebys roots_chebyt roots_chebyu roots_gegenbauer roots_genlaguerre
        roots_hermite roots_hermitenorm roots_jacobi roots_laguerre roots_legendre
        roots_sh_chebyt roots_sh_chebyu roots_sh_jacobi roots_sh_legendre
    """,
        reason=(
            "Gauss quadrature nodes and weights of an n-point rule: n is an integer, and the "
            "shape parameters are configuration in practice"
        )),
    Row("scipy.special", ND, "scipy.special", """
        chebyc chebys chebyt chebyu gegenbauer genlaguerre hermite hermitenorm jacobi laguerre
        legendre sh_chebyt sh_chebyu sh_jacobi sh_legendre
    """,
        reason="constructors of orthogonal-polynomial objects from an integer degree"),
    Row("scipy.special", OUT, "scipy.special", "geterr seterr",
        reason="error-handling configuration"),
    # ---- scipy.linalg -------------------------------------------------------------------------
    Row("scipy.linalg", D, "scipy.linalg", """
        block_diag cdf2rdf cho_factor cho_solve cho_solve_banded cholesky cholesky_banded
        circulant companion convolution_matrix coshm cosm cossin det diagsvd eig eig_banded eigh
        eigh_tridiagonal eigvals eigvals_banded eigvalsh eigvalsh_tridiagonal expm expm_cond
        expm_frechet fiedler fiedler_companion fractional_matrix_power hankel hessenberg inv
        khatri_rao ldl leslie logm lstsq lu lu_factor lu_solve matmul_toeplitz matrix_balance
        norm null_space ordqz orth orthogonal_procrustes pinv pinvh polar qr qr_delete qr_insert
        qr_multiply qr_update qz rq rsf2csf schur signm sinhm sinm solve solve_banded
        solve_circulant solve_continuous_are solve_continuous_lyapunov solve_discrete_are
        solve_discrete_lyapunov solve_lyapunov solve_sylvester solve_toeplitz solve_triangular
        solveh_banded sqrtm subspace_angles svd svdvals tanhm tanm toeplitz
    """),
    Row("scipy.linalg", ND, "scipy.linalg", "bandwidth",
        reason="integer-valued: the bandwidths of a matrix"),
    Row("scipy.linalg", ND, "scipy.linalg", "ishermitian issymmetric",
        reason="boolean-valued: structure predicates"),
    Row("scipy.linalg", ND, "scipy.linalg", """
        dft hadamard helmert hilbert invhilbert pascal invpascal
    """,
        reason="constructors of special matrices from a size"),
    Row("scipy.linalg", OUT, "scipy.linalg", "funm",
        reason=(
            "higher-order: applies a user's scalar function to a matrix through a Schur form;"
            " engines trace into it"
        )),
    Row("scipy.linalg", OUT, "scipy.linalg", "clarkson_woodruff_transform",
        reason="a random sketch: its projection comes from a random generator"),
    Row("scipy.linalg", OUT, "scipy.linalg", "find_best_blas_type get_blas_funcs get_lapack_funcs",
        reason="BLAS and LAPACK plumbing: they return routines, not values"),
)
# fmt: on
