"""Rules for ``scipy.special``: the table of contents of the families, one module each.

==================  =========================================================================
module              functions
==================  =========================================================================
gamma               gamma gammaln loggamma digamma psi polygamma rgamma gammasgn multigammaln
                    beta betaln binom poch
incomplete          gammainc gammaincc betainc betaincc (in every argument, by quadrature;
                    large shapes in large_shapes)
                    and their inverses gammaincinv gammainccinv betaincinv betainccinv
error               erf erfc erfcx erfi dawsn wofz erfinv erfcinv ndtr ndtri ndtri_exp
                    log_ndtr owens_t voigt_profile
information         expit logit log_expit xlogy xlog1py entr rel_entr kl_div boxcox boxcox1p
                    inv_boxcox inv_boxcox1p softplus
softmax             logsumexp softmax log_softmax
convenience         cbrt exp2 exp10 expm1 log1p cosm1 exprel powm1 sindg cosdg tandg cotdg
                    radian huber pseudo_huber lambertw wrightomega diric
bessel              j0 j1 jv y0 y1 yn yv i0 i0e i1 i1e iv ive k0 k0e k1 k1e kn kv kve jve yve
bessel_order        (the order derivatives of jv yv iv ive kv kve, first and second: series,
                    quadrature, Chebyshev interpolation at complex z; jv_dv ... as functions)
bessel_derivatives  jvp yvp ivp kvp h1vp h2vp
hankel              hankel1 hankel2 hankel1e hankel2e
spherical_bessel    spherical_jn spherical_yn spherical_in spherical_kn
bessel_integrals    itj0y0 it2j0y0 iti0k0 it2i0k0 besselpoly
kelvin              ber bei ker kei berp beip kerp keip kelvin
airy                airy airye itairy
struve              struve modstruve itstruve0 it2struve0 itmodstruve0
integrals           expi exp1 expn sici shichi fresnel modfresnelp modfresnelm spence zeta
                    zetac ellipk ellipe
hypergeometric      hyp0f1 hyp1f1 hyp2f1 (parameters on jets: hypergeometric_jets)
confluent_u         hyperu
wright              wright_bessel log_wright_bessel
elliptic            ellipkinc ellipeinc ellipkm1 ellipj elliprc elliprd elliprf elliprg agm
                    elliprj
distributions       chdtr chdtrc gdtr gdtrc pdtr pdtrc stdtr fdtr fdtrc tklmbda and the
                    inverses pdtri fdtri stdtrit chdtri
binomial            bdtr bdtrc nbdtr nbdtrc and the inverses bdtri nbdtri
noncentral          chndtr ncfdtr nctdtr (the F and t laws at a huge degree of freedom:
                    large_degrees)
kolmogorov          smirnov kolmogorov
inverses            bdtrik bdtrin nbdtrik nbdtrin pdtrik btdtria btdtrib gdtria gdtrib gdtrix
                    chdtriv fdtridfd stdtridf kolmogi smirnovi nrdtrimn nrdtrisd chndtrix
                    chndtridf chndtrinc ncfdtri ncfdtridfd ncfdtridfn ncfdtrinc nctdtrit
                    nctdtridf nctdtrinc (implicit function theorem at SciPy's result)
orthogonal          eval_legendre eval_chebyt eval_chebyu eval_chebyc eval_chebys eval_jacobi
                    eval_gegenbauer eval_laguerre eval_genlaguerre eval_hermite
                    eval_hermitenorm eval_sh_legendre eval_sh_chebyt eval_sh_chebyu
                    eval_sh_jacobi (derivative in x) assoc_laguerre
legendre            lpmv legendre_p assoc_legendre_p sph_legendre_p (derivatives in x;
                    diff_n 0-2, third derivatives exact)
harmonics           sph_harm_y sph_harm_y_all legendre_p_all assoc_legendre_p_all
                    sph_legendre_p_all (diff_n 0-2, third derivatives exact)
sequences           lqn lqmn pbdn_seq pbdv_seq pbvv_seq riccati_jn riccati_yn lmbda (values
                    and derivatives over degrees or orders; second derivatives from the
                    equations they solve)
parabolic_cylinder  pbdv pbvv pbwa
mathieu             mathieu_a mathieu_b mathieu_even_coef mathieu_odd_coef mathieu_cem
                    mathieu_sem mathieu_modcem1 mathieu_modcem2 mathieu_modsem1 mathieu_modsem2
                    (in q by eigenvector perturbation of the Fourier coefficients)
spheroidal          pro_cv obl_cv pro_cv_seq obl_cv_seq pro_ang1 obl_ang1 pro_rad1 obl_rad1
                    pro_rad2 obl_rad2 and their *_cv variants (in c for cv and the first kind)
ellipsoidal         ellip_harm ellip_harm_2 ellip_normal (in s, h2 and k2)
lame                (no rules: the Lame polynomials behind ellipsoidal, rebuilt from their
                    recurrences)
jets, moments,      (no rules: values with their derivatives in parameters; log-moments by
parameter_gradients quadrature; the rules of parameter derivatives as functions of their own)
==================  =========================================================================

``scipy.special`` computes on NumPy arrays only, so these rules serve NumPy inputs, and the
arrays of engines that dispatch NumPy ufuncs (``__array_ufunc__``). Partials are written
through other functions of the table, so pullbacks differentiate again. How parameter
derivatives are computed, how accurately, and the few that are ``NotImplementedTangent`` and
why, are listed in the docs (special.md).

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.expit, 0.0)
>>> float(y), pullback(1.0)
(0.5, (NoTangent(), 0.25))
"""

from . import airy as airy
from . import bessel as bessel
from . import bessel_derivatives as bessel_derivatives
from . import bessel_integrals as bessel_integrals
from . import binomial as binomial
from . import confluent_u as confluent_u
from . import convenience as convenience
from . import distributions as distributions
from . import ellipsoidal as ellipsoidal
from . import elliptic as elliptic
from . import error as error
from . import gamma as gamma
from . import hankel as hankel
from . import harmonics as harmonics
from . import hypergeometric as hypergeometric
from . import incomplete as incomplete
from . import information as information
from . import integrals as integrals
from . import inverses as inverses
from . import kelvin as kelvin
from . import kolmogorov as kolmogorov
from . import lame as lame
from . import legendre as legendre
from . import mathieu as mathieu
from . import noncentral as noncentral
from . import orthogonal as orthogonal
from . import parabolic_cylinder as parabolic_cylinder
from . import sequences as sequences
from . import softmax as softmax
from . import spherical_bessel as spherical_bessel
from . import spheroidal as spheroidal
from . import struve as struve
from . import wright as wright
