"""Rules for ``scipy.special``: the table of contents of the families, one module each.

=================  ==========================================================================
module             functions
=================  ==========================================================================
gamma              gamma gammaln loggamma digamma psi polygamma rgamma gammasgn multigammaln
                   beta betaln poch
incomplete         gammainc gammaincc betainc betaincc (in every argument, by quadrature)
error              erf erfc erfcx erfi dawsn wofz erfinv erfcinv ndtr ndtri log_ndtr owens_t
information        expit logit log_expit xlogy xlog1py entr rel_entr kl_div boxcox boxcox1p
softmax            logsumexp softmax log_softmax
bessel             j0 j1 jv y0 y1 yv i0 i0e i1 i1e iv ive kv kve (order derivatives by
                   quadrature or series for real arguments)
integrals          expi exp1 expn sici spence zeta ellipk ellipe
hypergeometric     hyp1f1 hyp2f1
=================  ==========================================================================

``scipy.special`` computes on NumPy arrays only, so these rules serve NumPy inputs, and the
arrays of engines that dispatch NumPy ufuncs (``__array_ufunc__``). Partials are written
through other functions of the table, so pullbacks differentiate again. Which parameter
derivatives are ``NotImplementedTangent``, and why, is listed in the docs (special.md).

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.expit, 0.0)
>>> float(y), pullback(1.0)
(0.5, (NoTangent(), 0.25))
"""

from . import bessel as bessel
from . import error as error
from . import gamma as gamma
from . import hypergeometric as hypergeometric
from . import incomplete as incomplete
from . import information as information
from . import integrals as integrals
from . import softmax as softmax
