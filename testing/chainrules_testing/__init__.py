"""chainrules_testing: check differentiation rules against finite differences.

>>> import numpy as np
>>> from chainrules_testing import test_rrule, test_frule, test_scalar
>>> test_rrule(np.sin, np.linspace(0.1, 1.0, 5), seed=1)
>>> test_frule(np.tanh, np.linspace(-1.0, 1.0, 3), seed=1)
>>> test_scalar(np.exp, 0.3, seed=1)

Modules: ``rrule`` / ``frule`` / ``scalar`` (the test functions), ``tangents``
(``rand_tangent``, ``with_tangent``), ``compare`` (``assert_tangents_close``),
``tolerances`` (the default tolerances, per dtype), ``finite_differences``, ``jacobian``,
``second_order``, ``lazy`` (the checks of rules given dask arrays), ``fast_paths`` (a fast
path against the rule it stands in for), ``rounding`` (the sizes
that rounding is relative to), ``failures`` (the ``AssertionError`` subclasses raised),
``strategies`` (hypothesis strategies for rule inputs; imported on its own), ``availability``
(``needs``, which skips tests of functions the installed libraries lack), ``plugin`` (the
pytest plugin) and ``record`` (what the plugin writes for the coverage report).
"""

from .availability import needs as needs
from .compare import assert_tangents_close as assert_tangents_close
from .failures import ComplexConventionError as ComplexConventionError
from .failures import CotangentCountError as CotangentCountError
from .failures import FastPathMismatch as FastPathMismatch
from .failures import FiniteDifferenceMismatch as FiniteDifferenceMismatch
from .failures import InputMutated as InputMutated
from .failures import MissingRuleError as MissingRuleError
from .failures import NondeterministicRule as NondeterministicRule
from .failures import PrimalMismatch as PrimalMismatch
from .failures import RuleDisagreement as RuleDisagreement
from .failures import RuleRaised as RuleRaised
from .failures import RuleTestFailure as RuleTestFailure
from .failures import SecondOrderMismatch as SecondOrderMismatch
from .failures import SecondOrderUnavailable as SecondOrderUnavailable
from .failures import SecondOrderUntraceable as SecondOrderUntraceable
from .failures import TangentMismatch as TangentMismatch
from .failures import TangentSpaceError as TangentSpaceError
from .failures import ThunkMismatch as ThunkMismatch
from .failures import UnstableOutputShape as UnstableOutputShape
from .failures import ZeroTangentForNoTangent as ZeroTangentForNoTangent
from .failures import ZeroTangentInputError as ZeroTangentInputError
from .frule import test_frule as test_frule
from .rrule import test_rrule as test_rrule
from .scalar import test_scalar as test_scalar
from .tangents import WithTangent as WithTangent
from .tangents import rand_tangent as rand_tangent
from .tangents import with_tangent as with_tangent
