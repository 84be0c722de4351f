"""Bit-level primitives of the kernels: powers of two, the exponent, and a float's bits.

Written as numba intrinsics (a few LLVM instructions each, at the width of the float type, so
that loops using them vectorize), with NumPy-scalar twins that run when numba is absent.
Both work for float32 and float64 alike.

>>> import numpy as np
>>> float(pow2_scalar(np.float32(3.0))), [float(v) for v in split_exponent_scalar(np.float64(12.0))]
(8.0, [0.75, 4.0])
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = [
    "COMPILED",
    "float_bits",
    "float_bits_scalar",
    "pow2",
    "pow2_scalar",
    "split_exponent",
    "split_exponent_scalar",
]

# (mantissa bits, exponent bias) per float width
_LAYOUT = {32: (23, 127), 64: (52, 1023)}
# The bit patterns of sqrt(2): mantissas above it are halved so that m lies in [1/sqrt2, sqrt2).
_SQRT2_BITS = {
    32: int(np.float32(np.sqrt(2.0)).view(np.int32)),
    64: int(np.sqrt(2.0).view(np.int64)),
}

# Compiled intrinsics with numba, else the NumPy-scalar versions: callable in kernels only.
float_bits: Any
pow2: Any
split_exponent: Any

try:
    from llvmlite import ir
    from numba.core import types
    from numba.extending import intrinsic

    COMPILED = True
except ImportError:  # numba is an optional extra: the kernels then run as plain Python
    COMPILED = False


def pow2_scalar(k: Any) -> Any:
    """``pow2`` on a NumPy scalar, in Python."""
    width = k.dtype.itemsize * 8
    shift, bias = _LAYOUT[width]
    integer = np.int32 if width == 32 else np.int64
    bits = (integer(k) + integer(bias)) << integer(shift)
    return bits.view(k.dtype)


def split_exponent_scalar(x: Any) -> tuple[Any, Any]:
    """``split_exponent`` on a NumPy scalar, in Python."""
    width = x.dtype.itemsize * 8
    shift, bias = _LAYOUT[width]
    integer = np.int32 if width == 32 else np.int64
    bits = x.view(integer)
    exponent = (bits >> integer(shift)) - integer(bias)
    mantissa = (bits & integer((1 << shift) - 1)) | integer(bias << shift)
    if mantissa > _SQRT2_BITS[width]:
        mantissa = mantissa - integer(1 << shift)
        exponent = exponent + integer(1)
    return mantissa.view(x.dtype), x.dtype.type(exponent)


def float_bits_scalar(x: Any) -> Any:
    """``float_bits`` on a NumPy scalar, in Python."""
    return x.view(np.int32 if x.dtype.itemsize == 4 else np.int64)


if COMPILED:

    def _width(t: Any) -> int:
        return 32 if t == types.float32 else 64

    @intrinsic
    def _pow2(typingctx: Any, k: Any) -> Any:
        """2**k for an integral float k with a normal result (no range check)."""
        if k not in (types.float32, types.float64):
            return None
        width = _width(k)
        shift, bias = _LAYOUT[width]

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            int_type = ir.IntType(width)
            n = builder.fptosi(args[0], int_type)
            n = builder.add(n, ir.Constant(int_type, bias))
            n = builder.shl(n, ir.Constant(int_type, shift))
            return builder.bitcast(n, context.get_value_type(signature.return_type))

        return k(k), codegen

    @intrinsic
    def _split_exponent(typingctx: Any, x: Any) -> Any:
        """(m, e) with x = m * 2**e and m in [1/sqrt2, sqrt2), for a normal positive x."""
        if x not in (types.float32, types.float64):
            return None
        width = _width(x)
        shift, bias = _LAYOUT[width]

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            int_type = ir.IntType(width)
            float_type = context.get_value_type(x)

            def const(v: int) -> Any:
                return ir.Constant(int_type, v)

            bits = builder.bitcast(args[0], int_type)
            exponent = builder.sub(builder.lshr(bits, const(shift)), const(bias))
            mantissa = builder.or_(
                builder.and_(bits, const((1 << shift) - 1)), const(bias << shift)
            )
            big = builder.icmp_signed(">", mantissa, const(_SQRT2_BITS[width]))
            mantissa = builder.select(big, builder.sub(mantissa, const(1 << shift)), mantissa)
            exponent = builder.select(big, builder.add(exponent, const(1)), exponent)
            m = builder.bitcast(mantissa, float_type)
            e = builder.sitofp(exponent, float_type)
            return context.make_tuple(builder, signature.return_type, (m, e))

        return types.UniTuple(x, 2)(x), codegen

    @intrinsic
    def _float_bits(typingctx: Any, x: Any) -> Any:
        """The bits of x as a signed integer of its width: for x >= 0 (and NaN above inf)
        they grow with x, and every negative x gives a negative integer."""
        if x not in (types.float32, types.float64):
            return None
        int_type = types.int32 if x == types.float32 else types.int64

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.bitcast(args[0], context.get_value_type(signature.return_type))

        return int_type(x), codegen

    float_bits, pow2, split_exponent = _float_bits, _pow2, _split_exponent

else:
    float_bits, pow2, split_exponent = float_bits_scalar, pow2_scalar, split_exponent_scalar
