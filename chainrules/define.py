"""Everything a rule author writes rules with, in one import.

The rule library itself is written with these names, each from its home in ``chainrules.core``
(listed below); a rule for another library's functions imports them from here::

    from chainrules.define import rrule, frule, ProjectTo, array_namespace, NO_TANGENT

    @rrule.register(mylib.cumsum)
    def _cumsum_rrule(x, axis=None):
        xp = array_namespace(x)
        project_x = ProjectTo(x)

        def cumsum_pullback(dy):  # dy: unthunked, never a zero (registration answers those)
            dx = xp.flip(xp.cumulative_sum(xp.flip(dy, axis=axis), axis=axis), axis=axis)
            return NO_TANGENT, project_x(dx)

        return xp.cumulative_sum(x, axis=axis), cumsum_pullback

Registration (``rrule.register``, ``frule.register``, ``scalar_rule``) carries the protocol
every rule follows (``chainrules.core.protocol``): cotangents and tangents arrive unthunked, a
zero cotangent is answered without calling the pullback, the pullback is named after its
function, and ``keywords=`` declares the keywords of a rule that passes ``**kwargs`` on.

=====================  ==================================================================
home                   names
=====================  ==================================================================
core.registry          rrule frule opt_out (register: needs=, keywords=)
core.define            scalar_rule scalar_rule_like constant non_differentiable
                       ignore_derivatives fit_to_output
core.parametric        parametric_rule SharedPartial numpy_only (special functions of
                       parameters, costly partials thunked)
core.linear            linear_rule linear_pushforward register_rules call_method
                       gather_adjoint source_map scatter_add accumulate (maps linear in
                       their array argument)
core.tangents          NO_TANGENT ZERO_TANGENT NoTangent ZeroTangent Tangent
                       MutableTangent not_implemented
core.thunks            Thunk InplaceableThunk unthunk
core.projection        ProjectTo projector unbroadcast_axes
core.zeros             zero_tangent is_zero vanishes densify float_zeros
core.dtypes            is_complex is_complex_dtype conj has_tangent cast value_dtype
core.shapes            shape_of normalize_axis normalize_axes reduced_shape count_reduced
                       expand_reduced
core.namespace         array_namespace is_numpy require_numpy
core.arguments         given_options
core.sequences         argument_projector nest_like tangent_value dense_nested
                       output_cotangents dense_tangents sequence_tangent
core.calls             call (a compiled routine an engine's values reach as f's rule)
core.fast_paths        register_fast_path FastPullback general_rule float_array
                       plain_parameters no_tangents onto (a rule's twin for plain NumPy
                       calls)
core.errors            ArrayTypeError RuleDefinitionError TangentTypeError
=====================  ==================================================================

>>> import numpy as np
>>> def softsign(x): return x / (1 + abs(x))
>>> scalar_rule(softsign, lambda x, y: (1 - abs(y)) ** 2)
>>> y, pullback = rrule(softsign, np.array([1.0, -3.0]))
>>> pullback.__name__, pullback(ZERO_TANGENT), pullback(np.ones(2))[1]
('softsign_pullback', (NoTangent(), ZeroTangent()), array([0.25  , 0.0625]))
"""

from .core.arguments import given_options as given_options
from .core.calls import call as call
from .core.define import constant as constant
from .core.define import fit_to_output as fit_to_output
from .core.define import ignore_derivatives as ignore_derivatives
from .core.define import non_differentiable as non_differentiable
from .core.define import scalar_rule as scalar_rule
from .core.define import scalar_rule_like as scalar_rule_like
from .core.dtypes import cast as cast
from .core.dtypes import conj as conj
from .core.dtypes import has_tangent as has_tangent
from .core.dtypes import is_complex as is_complex
from .core.dtypes import is_complex_dtype as is_complex_dtype
from .core.dtypes import value_dtype as value_dtype
from .core.errors import ArrayTypeError as ArrayTypeError
from .core.errors import RuleDefinitionError as RuleDefinitionError
from .core.errors import TangentTypeError as TangentTypeError
from .core.fast_paths import FastPullback as FastPullback
from .core.fast_paths import float_array as float_array
from .core.fast_paths import general_rule as general_rule
from .core.fast_paths import no_tangents as no_tangents
from .core.fast_paths import onto as onto
from .core.fast_paths import plain_parameters as plain_parameters
from .core.fast_paths import register_fast_path as register_fast_path
from .core.linear import accumulate as accumulate
from .core.linear import call_method as call_method
from .core.linear import gather_adjoint as gather_adjoint
from .core.linear import linear_pushforward as linear_pushforward
from .core.linear import linear_rule as linear_rule
from .core.linear import register_rules as register_rules
from .core.linear import scatter_add as scatter_add
from .core.linear import source_map as source_map
from .core.namespace import array_namespace as array_namespace
from .core.namespace import is_numpy as is_numpy
from .core.namespace import require_numpy as require_numpy
from .core.parametric import SharedPartial as SharedPartial
from .core.parametric import numpy_only as numpy_only
from .core.parametric import parametric_rule as parametric_rule
from .core.projection import ProjectTo as ProjectTo
from .core.projection import projector as projector
from .core.projection import unbroadcast_axes as unbroadcast_axes
from .core.registry import frule as frule
from .core.registry import opt_out as opt_out
from .core.registry import rrule as rrule
from .core.sequences import argument_projector as argument_projector
from .core.sequences import dense_nested as dense_nested
from .core.sequences import dense_tangents as dense_tangents
from .core.sequences import nest_like as nest_like
from .core.sequences import output_cotangents as output_cotangents
from .core.sequences import sequence_tangent as sequence_tangent
from .core.sequences import tangent_value as tangent_value
from .core.shapes import count_reduced as count_reduced
from .core.shapes import expand_reduced as expand_reduced
from .core.shapes import normalize_axes as normalize_axes
from .core.shapes import normalize_axis as normalize_axis
from .core.shapes import reduced_shape as reduced_shape
from .core.shapes import shape_of as shape_of
from .core.tangents import NO_TANGENT as NO_TANGENT
from .core.tangents import ZERO_TANGENT as ZERO_TANGENT
from .core.tangents import MutableTangent as MutableTangent
from .core.tangents import NoTangent as NoTangent
from .core.tangents import Tangent as Tangent
from .core.tangents import ZeroTangent as ZeroTangent
from .core.tangents import not_implemented as not_implemented
from .core.thunks import InplaceableThunk as InplaceableThunk
from .core.thunks import Thunk as Thunk
from .core.thunks import unthunk as unthunk
from .core.zeros import densify as densify
from .core.zeros import float_zeros as float_zeros
from .core.zeros import is_zero as is_zero
from .core.zeros import vanishes as vanishes
from .core.zeros import zero_tangent as zero_tangent
