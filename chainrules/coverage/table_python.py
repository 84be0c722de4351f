"""The reviewed classification of Python's ``math`` and ``operator`` and of
``chainrules.fastmath``.

``math.sumprod`` and ``math.fma`` are listed for the Python versions that have them.

>>> from chainrules.coverage.table_python import ROWS
>>> sorted({row.category for row in ROWS})
['fastmath', 'python.math', 'python.operator']
"""

from .classification import DIFFERENTIABLE as D
from .classification import NON_DIFFERENTIABLE as ND
from .classification import OUT_OF_SCOPE as OUT
from .classification import WILDCARD, Row

__all__ = ["ROWS"]

# fmt: off
ROWS = (
    # ---- math ---------------------------------------------------------------------------------
    Row("python.math", D, "math", """
        acos acosh asin asinh atan atan2 atanh cbrt copysign cos cosh degrees dist erf erfc exp
        exp2 expm1 fabs fmod frexp fsum gamma hypot ldexp lgamma log log10 log1p log2 modf pow
        prod radians remainder sin sinh sqrt tan tanh sumprod fma
    """),
    Row("python.math", ND, "math", "ceil floor trunc nextafter ulp",
        reason="piecewise constant or floating-point bookkeeping: no useful derivative"),
    Row("python.math", ND, "math", "comb factorial gcd lcm isqrt perm",
        reason="integer-valued functions of integers"),
    Row("python.math", ND, "math", "isclose isfinite isinf isnan",
        reason="boolean-valued predicates"),
    # ---- operator -----------------------------------------------------------------------------
    Row("python.operator", D, "operator", """
        abs add sub mul truediv mod pow neg pos matmul getitem concat
    """),
    Row("python.operator", ND, "operator", "floordiv",
        reason="piecewise constant: the derivative is zero wherever it exists"),
    Row("python.operator", ND, "operator", "and_ or_ xor inv invert lshift rshift index",
        reason="integer-valued: bitwise operations and integer conversion"),
    Row("python.operator", ND, "operator", """
        eq ne lt le gt ge not_ truth is_ is_not contains countOf indexOf length_hint
    """,
        reason="boolean- or integer-valued: comparisons, identity and membership"),
    Row("python.operator", OUT, "operator", """
        iadd isub imul itruediv ifloordiv imod ipow imatmul iand ior ixor ilshift irshift
        iconcat
    """,
        reason=(
            "augmented assignment: mutates a mutable argument in place; on immutable values "
            "Python falls back to the plain operator, which has the rule"
        )),
    Row("python.operator", OUT, "operator", "setitem delitem",
        reason="mutates a container in place and returns nothing"),
    Row("python.operator", OUT, "operator", "call",
        reason="higher-order: calls a user's function, which engines trace into"),
    # ---- chainrules.fastmath: every kernel is there to have rules ---------------------------
    Row("fastmath", D, "chainrules.fastmath", WILDCARD),
)
# fmt: on
