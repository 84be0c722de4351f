"""chainrules: differentiation rules for NumPy and SciPy, written once for every AD engine.

>>> import numpy as np
>>> import chainrules as cr
>>> y, pullback = cr.rrule(np.sin, 0.0)
>>> pullback(1.0)
(NoTangent(), 1.0)
"""

from . import rules as rules
from .adapters.routing import with_rules as with_rules
from .core.algebra import add as add
from .core.algebra import add_ as add_
from .core.config import HasForwardMode as HasForwardMode
from .core.config import HasReverseMode as HasReverseMode
from .core.config import RuleConfig as RuleConfig
from .core.define import ignore_derivatives as ignore_derivatives
from .core.define import non_differentiable as non_differentiable
from .core.define import scalar_rule as scalar_rule
from .core.errors import AmbiguousRuleError as AmbiguousRuleError
from .core.errors import ArrayTypeError as ArrayTypeError
from .core.errors import ChainRulesError as ChainRulesError
from .core.errors import LazyArrayError as LazyArrayError
from .core.errors import MissingCapabilityError as MissingCapabilityError
from .core.errors import ProjectionError as ProjectionError
from .core.errors import RuleDefinitionError as RuleDefinitionError
from .core.errors import RuleKeywordError as RuleKeywordError
from .core.errors import TangentTypeError as TangentTypeError
from .core.namespace import array_namespace as array_namespace
from .core.projection import ProjectTo as ProjectTo
from .core.registry import RuleInfo as RuleInfo
from .core.registry import frule as frule
from .core.registry import opt_out as opt_out
from .core.registry import registered_functions as registered_functions
from .core.registry import rrule as rrule
from .core.tangents import MutableTangent as MutableTangent
from .core.tangents import NoTangent as NoTangent
from .core.tangents import NotImplementedTangent as NotImplementedTangent
from .core.tangents import Tangent as Tangent
from .core.tangents import ZeroTangent as ZeroTangent
from .core.tangents import not_implemented as not_implemented
from .core.thunks import InplaceableThunk as InplaceableThunk
from .core.thunks import Thunk as Thunk
from .core.thunks import unthunk as unthunk
from .core.zeros import zero_tangent as zero_tangent

__version__ = "0.1.0"
