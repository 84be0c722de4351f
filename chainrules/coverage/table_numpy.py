"""The reviewed classification of NumPy: ufuncs, functions, ``numpy.linalg``, ``numpy.fft``
and the methods of ``numpy.ndarray``.

Each row is a category, a status and, for what leaves the differentiable universe, the reason.
Names are those NumPy gives the function itself (``absolute``, not its alias ``abs``).

>>> from chainrules.coverage.table_numpy import ROWS
>>> sorted({row.category for row in ROWS})[:3]
['numpy.arithmetic', 'numpy.calculus', 'numpy.constructors']
"""

from .classification import DIFFERENTIABLE as D
from .classification import NON_DIFFERENTIABLE as ND
from .classification import OUT_OF_SCOPE as OUT
from .classification import Row

__all__ = ["ROWS"]

INDICES = (
    "integer-valued: the result is indices, counts or positions, not a point in a tangent space"
)
PIECEWISE_CONSTANT = (
    "piecewise constant (rounding, sign, steps): the derivative is zero wherever it exists"
)
PREDICATE = "boolean-valued: a predicate or comparison has no tangent"
BITS = "integer-valued: bitwise and integer arithmetic on integer inputs"
FROM_SHAPE = "a constructor from shapes, lengths or dtypes: nothing continuous goes in"
IN_PLACE = (
    "mutates its argument in place and returns nothing; rules are for functions that "
    "return their results"
)
HIGHER_ORDER = (
    "higher-order plumbing: applies a user's function, and engines trace into that function "
    "instead of needing a rule"
)
SHAPE_ARITHMETIC = "shape arithmetic on Python integers"
SET_MEMBERSHIP = "set operations decide membership by exact equality of values, a discrete choice"

# fmt: off
ROWS = (
    # ---- ufuncs and their functional relatives ------------------------------------------------
    Row("numpy.arithmetic", D, "numpy", """
        add subtract multiply divide negative positive power float_power reciprocal square fmod
        remainder divmod
    """),
    Row("numpy.arithmetic", ND, "numpy", "floor_divide", reason=PIECEWISE_CONSTANT),
    Row("numpy.elementwise", D, "numpy", """
        sin cos tan arcsin arccos arctan arctan2 sinh cosh tanh arcsinh arccosh arctanh exp exp2
        expm1 log log10 log2 log1p logaddexp logaddexp2 sqrt cbrt absolute fabs conjugate angle
        real imag deg2rad degrees rad2deg radians hypot maximum minimum fmax fmin copysign ldexp
        frexp modf clip nan_to_num sinc i0 real_if_close
    """),
    Row("numpy.elementwise", ND, "numpy", """
        ceil floor trunc rint sign signbit heaviside fix round around spacing nextafter
    """,
        reason=PIECEWISE_CONSTANT),
    Row("numpy.logic", ND, "numpy", """
        equal not_equal less less_equal greater greater_equal logical_and logical_or logical_xor
        logical_not isfinite isinf isnan isnat isneginf isposinf iscomplex isreal isclose
        allclose array_equal array_equiv all any
    """,
        reason=PREDICATE),
    Row("numpy.logic", ND, "numpy", """
        bitwise_and bitwise_or bitwise_xor invert left_shift right_shift bitwise_count gcd lcm
        packbits unpackbits
    """,
        reason=BITS),
    Row("numpy.logic", ND, "numpy", "isin intersect1d union1d setdiff1d setxor1d",
        reason=SET_MEMBERSHIP),
    # ---- reductions, statistics, calculus -----------------------------------------------------
    Row("numpy.reductions", D, "numpy", """
        sum prod max min amax amin ptp cumsum cumprod cumulative_sum cumulative_prod nansum
        nanprod nanmax nanmin nancumsum nancumprod trace
    """),
    Row("numpy.reductions", ND, "numpy", "count_nonzero", reason=INDICES),
    Row("numpy.statistics", D, "numpy", """
        mean average median std var nanmean nanmedian nanstd nanvar percentile nanpercentile
        quantile nanquantile cov corrcoef bincount histogram histogram2d histogramdd
        histogram_bin_edges
    """),
    Row("numpy.calculus", D, "numpy", "diff ediff1d gradient trapezoid interp unwrap"),
    Row("numpy.polynomial", D, "numpy", """
        poly polyadd polyder polydiv polyfit polyint polymul polysub polyval roots vander
    """),
    # ---- products -----------------------------------------------------------------------------
    Row("numpy.products", D, "numpy", """
        matmul vecdot matvec vecmat dot vdot inner outer tensordot einsum kron cross convolve
        correlate
    """),
    Row("numpy.products", OUT, "numpy", "einsum_path",
        reason="a planning utility: returns a contraction order, not a value"),
    # ---- shape --------------------------------------------------------------------------------
    Row("numpy.shape", D, "numpy", """
        reshape ravel squeeze expand_dims transpose matrix_transpose moveaxis rollaxis swapaxes
        atleast_1d atleast_2d atleast_3d broadcast_to broadcast_arrays flip fliplr flipud rot90
        roll tile repeat resize pad trim_zeros concatenate stack hstack vstack dstack
        column_stack row_stack block append insert delete split array_split hsplit vsplit dsplit
        unstack meshgrid
    """),
    Row("numpy.shape", ND, "numpy", "shape size ndim broadcast_shapes", reason=SHAPE_ARITHMETIC),
    # ---- indexing -----------------------------------------------------------------------------
    Row("numpy.indexing", D, "numpy", """
        take take_along_axis choose compress extract select where diag diagonal diagflat tril
        triu
    """),
    Row("numpy.indexing", ND, "numpy", """
        nonzero flatnonzero argwhere indices ix_ ravel_multi_index unravel_index diag_indices
        diag_indices_from tril_indices tril_indices_from triu_indices triu_indices_from
        mask_indices
    """,
        reason=INDICES),
    Row("numpy.indexing", OUT, "numpy", "put put_along_axis putmask place copyto fill_diagonal",
        reason=IN_PLACE),
    # ---- sorting ------------------------------------------------------------------------------
    Row("numpy.sorting", D, "numpy", """
        sort partition sort_complex unique unique_all unique_counts unique_inverse unique_values
    """),
    Row("numpy.sorting", ND, "numpy", """
        argsort argpartition lexsort searchsorted digitize argmax argmin nanargmax nanargmin
    """,
        reason=INDICES),
    # ---- constructors -------------------------------------------------------------------------
    Row("numpy.constructors", D, "numpy", """
        array asarray asanyarray ascontiguousarray asfortranarray asarray_chkfinite require copy
        astype full full_like linspace logspace geomspace
    """),
    Row("numpy.constructors", ND, "numpy", """
        empty empty_like zeros zeros_like ones ones_like eye identity tri bartlett blackman
        hamming hanning kaiser
    """,
        reason=FROM_SHAPE),
    Row("numpy.constructors", ND, "numpy", "arange",
        reason="a range whose length depends on its arguments; start and step are static in use"),
    Row("numpy.constructors", OUT, "numpy", "asmatrix bmat",
        reason="returns numpy.matrix, a legacy class the rules do not support"),
    Row("numpy.constructors", OUT, "numpy", "from_dlpack",
        reason="array interchange: differentiate in the library the array comes from"),
    Row("numpy.constructors", OUT, "numpy", "fromiter frombuffer",
        reason="builds an array from a Python iterator or raw bytes, outside any tangent space"),
    Row("numpy.functional", OUT, "numpy", """
        apply_along_axis apply_over_axes piecewise fromfunction frompyfunc
    """,
        reason=HIGHER_ORDER),
    # ---- out of scope: I/O, printing, dtypes, memory, configuration ---------------------------
    Row("numpy.io", OUT, "numpy", """
        load save savez savez_compressed loadtxt savetxt genfromtxt fromfile fromregex
        fromstring
    """,
        reason="file and text I/O"),
    Row("numpy.io", OUT, "numpy", """
        array2string array_repr array_str base_repr binary_repr format_float_positional
        format_float_scientific set_printoptions get_printoptions printoptions info show_config
        show_runtime typename
    """,
        reason="printing and formatting"),
    Row("numpy.utilities", OUT, "numpy", """
        can_cast common_type min_scalar_type mintypecode promote_types result_type isdtype
        issubdtype iscomplexobj isrealobj isscalar iterable
    """,
        reason="dtype and type utilities: they inspect types, not values"),
    Row("numpy.utilities", OUT, "numpy", "may_share_memory shares_memory isfortran",
        reason="memory-layout utilities"),
    Row("numpy.utilities", OUT, "numpy", """
        geterr seterr geterrcall seterrcall getbufsize setbufsize get_include test nested_iters
    """,
        reason="configuration, build and test utilities"),
    Row("numpy.utilities", OUT, "numpy", """
        busday_count busday_offset is_busday datetime_as_string datetime_data
    """,
        reason="calendar and datetime utilities"),
    # ---- numpy.linalg -------------------------------------------------------------------------
    Row("numpy.linalg", D, "numpy.linalg", """
        cholesky cond cross det diagonal eig eigh eigvals eigvalsh inv lstsq matmul matrix_norm
        matrix_power multi_dot norm outer pinv qr slogdet solve svd svdvals tensordot tensorinv
        tensorsolve trace vecdot vector_norm matrix_transpose
    """),
    Row("numpy.linalg", ND, "numpy.linalg", "matrix_rank", reason=INDICES),
    # ---- numpy.fft ----------------------------------------------------------------------------
    Row("numpy.fft", D, "numpy.fft", """
        fft ifft fft2 ifft2 fftn ifftn rfft irfft rfft2 irfft2 rfftn irfftn hfft ihfft fftshift
        ifftshift
    """),
    Row("numpy.fft", ND, "numpy.fft", "fftfreq rfftfreq", reason=FROM_SHAPE),
    # ---- numpy.ndarray methods that compute ---------------------------------------------------
    Row("numpy.reductions", D, "numpy.ndarray", "sum prod max min cumsum cumprod trace"),
    Row("numpy.statistics", D, "numpy.ndarray", "mean std var"),
    Row("numpy.products", D, "numpy.ndarray", "dot"),
    Row("numpy.shape", D, "numpy.ndarray", """
        reshape ravel flatten squeeze swapaxes transpose repeat
    """),
    Row("numpy.indexing", D, "numpy.ndarray", "take choose compress diagonal item"),
    Row("numpy.elementwise", D, "numpy.ndarray", "clip conj conjugate"),
    Row("numpy.elementwise", ND, "numpy.ndarray", "round", reason=PIECEWISE_CONSTANT),
    Row("numpy.constructors", D, "numpy.ndarray", "astype copy to_device"),
    Row("numpy.logic", ND, "numpy.ndarray", "all any", reason=PREDICATE),
    Row("numpy.sorting", ND, "numpy.ndarray", "argmax argmin argsort argpartition searchsorted",
        reason=INDICES),
    Row("numpy.indexing", ND, "numpy.ndarray", "nonzero", reason=INDICES),
    Row("numpy.indexing", OUT, "numpy.ndarray", "put fill setfield setflags", reason=IN_PLACE),
    Row("numpy.sorting", OUT, "numpy.ndarray", "sort partition", reason=IN_PLACE),
    Row("numpy.shape", OUT, "numpy.ndarray", "resize", reason=IN_PLACE),
    Row("numpy.utilities", OUT, "numpy.ndarray", "view getfield byteswap",
        reason="reinterprets memory or bytes; the reference engines refuse a change of dtype"),
    Row("numpy.shape", D, "numpy.ndarray", "T mT"),
    Row("numpy.elementwise", D, "numpy.ndarray", "real imag"),
    Row("numpy.indexing", D, "numpy.ndarray", "__getitem__"),
    Row("numpy.indexing", OUT, "numpy.ndarray", "__setitem__", reason=IN_PLACE),
    Row("numpy.indexing", OUT, "numpy.ndarray", "flat",
        reason="an iterator object over the elements; index the array instead"),
    Row("numpy.utilities", OUT, "numpy.ndarray", """
        base ctypes data device dtype flags itemsize nbytes ndim shape size strides
    """,
        reason="attributes describing shape, memory, dtype and device"),
    Row("numpy.io", OUT, "numpy.ndarray", "dump dumps tofile tobytes tolist",
        reason="serialisation and conversion to Python objects"),
)
# fmt: on
