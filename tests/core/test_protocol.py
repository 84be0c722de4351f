"""The protocol registration gives every rule: unthunked cotangents, zeros answered, names."""

import numpy as np
import pytest

from chainrules.core.config import HasReverseMode, RuleConfig
from chainrules.core.errors import RuleDefinitionError
from chainrules.core.names import function_name
from chainrules.core.protocol import is_all_zero, zero_cotangents
from chainrules.core.registry import RuleTable
from chainrules.core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from chainrules.core.thunks import Thunk


def double(x, n=1):
    return 2.0 * x


def indices(x):
    return np.nonzero(x)


def make_tables(seen):
    """An rrule and an frule table with rules for ``double`` and ``indices`` that record what
    their pullbacks and frules receive."""
    r, f = RuleTable("rrule"), RuleTable("frule")

    @r.register(double)
    def _double_rrule(x, n=1):
        def my_own_name(dy):
            seen.append(dy)
            return NO_TANGENT, 2.0 * dy, NO_TANGENT

        return double(x), my_own_name

    @f.register(double)
    def _double_frule(tangents, x, n=1):
        seen.append(tangents)
        return double(x), 2.0 * tangents[1]

    @r.register(indices)
    def _indices_rrule(x):
        return indices(x), lambda dy: pytest.fail("called with a zero")

    return r, f


def test_pullback_is_named_after_the_function_and_gets_unthunked_cotangents():
    seen = []
    r, _ = make_tables(seen)
    _, pullback = r(double, 1.5)
    assert pullback.__name__ == "double_pullback"
    assert function_name(pullback).endswith(".double_pullback")
    assert pullback(Thunk(lambda: 3.0)) == (NO_TANGENT, 6.0)  # one per argument given
    assert seen == [3.0]


def test_cotangents_are_fitted_to_the_positional_arguments_given():
    r = RuleTable("rrule")

    @r.register(double)
    def _double_rrule(x, n=1, weights=None):
        return double(x), lambda dy: (NO_TANGENT, 2.0 * dy)

    assert r(double, 1.0)[1](3.0) == (NO_TANGENT, 6.0)
    assert r(double, 1.0, 2)[1](3.0) == (NO_TANGENT, 6.0, NO_TANGENT)  # no tangent space
    assert r(double, 1.0, n=2)[1](3.0) == (NO_TANGENT, 6.0)  # keywords get none
    with pytest.raises(
        RuleDefinitionError,
        match=r"double returned 2 cotangents for 3 .*"
        r"argument 3, a float",
    ):
        r(double, 1.0, 2, 0.5)[1](3.0)  # a float left out: its derivative would be lost


@pytest.mark.parametrize(
    "zero",
    [ZERO_TANGENT, NO_TANGENT, (ZERO_TANGENT, NO_TANGENT), Tangent(tuple, ZERO_TANGENT)],
    ids=["ZeroTangent", "NoTangent", "tuple of zeros", "Tangent of zeros"],
)
def test_zero_cotangents_are_answered_without_the_pullback(zero):
    seen = []
    r, _ = make_tables(seen)
    _, pullback = r(double, np.array([1.0, 2.0]), 3)
    assert pullback(zero) == (NO_TANGENT, ZERO_TANGENT, NO_TANGENT)  # 3 is an int: no tangent
    assert seen == []


def test_an_output_without_tangent_space_passes_nothing_back():
    r, _ = make_tables([])
    _, pullback = r(indices, np.array([0.0, 1.0]))
    assert pullback(ZERO_TANGENT) == (NO_TANGENT, NO_TANGENT)


def test_frule_gets_unthunked_tangents():
    seen = []
    _, f = make_tables(seen)
    assert f((NO_TANGENT, Thunk(lambda: 1.0)), double, 4.0) == (8.0, 2.0)
    assert seen == [(NO_TANGENT, 1.0)]


def test_rules_that_need_a_config_get_it_first_and_the_protocol_too():
    class Config(RuleConfig, HasReverseMode):
        def rrule_via_ad(self, f, *args, **kwargs):
            raise NotImplementedError

    r = RuleTable("rrule")
    received = []

    @r.register(double, needs=HasReverseMode)
    def _double_rrule(config, x, n=1):
        received.append(config)
        return double(x), lambda dy: (NO_TANGENT, 2.0 * dy)

    config = Config()
    _, pullback = r.lookup(double, (1.0,), config)(1.0)
    assert received == [config]
    assert pullback.__name__ == "double_pullback"
    assert pullback(ZERO_TANGENT) == (NO_TANGENT, ZERO_TANGENT)
    assert pullback(Thunk(lambda: 1.0)) == (NO_TANGENT, 2.0)


def test_what_is_not_a_rule_answer_passes_unchanged():
    r = RuleTable("rrule")
    r.register(double)(lambda x, n=1: None)
    assert r(double, 1.0) is None
    r.register(indices)(lambda x: ("label", 1))  # not (y, pullback): not the protocol's to wrap
    assert r(indices, 1.0) == ("label", 1)


def test_the_decorator_returns_the_rule_as_written_and_the_table_keeps_it():
    r = RuleTable("rrule")

    def _double_rrule(x, n=1):
        return double(x), lambda dy: (NO_TANGENT, dy)

    assert r.register(double)(_double_rrule) is _double_rrule
    (method,) = r.methods(double)
    assert method.rule is _double_rrule and method.fn.__wrapped__ is _double_rrule


def test_is_all_zero_and_zero_cotangents():
    assert is_all_zero(ZERO_TANGENT) and is_all_zero([ZERO_TANGENT, (NO_TANGENT,)])
    assert not is_all_zero(Thunk(lambda: ZERO_TANGENT))  # a thunk is not looked into
    assert not is_all_zero((ZERO_TANGENT, np.zeros(2)))  # zero values are values
    assert zero_cotangents((1.0, "a", np.ones(2, dtype=int)), 1.0) == (
        NO_TANGENT,
        ZERO_TANGENT,
        NO_TANGENT,
        NO_TANGENT,
    )


# ---- what a rule is given: the cotangent must be the output's, the arrays NumPy's ---------------

import warnings  # noqa: E402
from types import FunctionType  # noqa: E402

import scipy.linalg  # noqa: E402

import chainrules as cr  # noqa: E402
from chainrules.core.errors import ArrayTypeError, ProjectionError, TangentTypeError  # noqa: E402

RNG = np.random.default_rng(0)
X3 = RNG.standard_normal(3)
M3 = RNG.standard_normal((3, 3)) + 3 * np.eye(3)
SPD = M3 @ M3.T

# (function, arguments, keywords): rules whose pullbacks would broadcast or sum a cotangent of
# another shape into a number without a word (the examples and their neighbours).
CALLS = [
    (np.sin, (X3,), {}),
    (np.multiply, (X3, 2.0), {}),
    (np.add, (np.ones((2, 3)), X3), {}),
    (np.sum, (np.ones((2, 3)),), {"axis": 0}),
    (np.matmul, (M3, M3), {}),
    (np.linalg.solve, (M3, X3), {}),
    (np.linalg.inv, (M3,), {}),
    (np.linalg.cholesky, (SPD,), {}),
    (scipy.linalg.expm, (M3,), {}),
    (scipy.special.softmax, (X3,), {}),
    (np.fft.fft, (X3,), {}),
    (np.pad, (X3, 2), {}),
    (np.interp, (np.array([0.5, 1.5]), np.arange(3.0), X3), {}),
    (np.convolve, (X3, X3), {}),
    (np.cross, (X3, X3[::-1].copy()), {}),
    (np.clip, (X3, -0.5, 0.5), {}),
    (np.where, (X3 > 0, X3, 2 * X3), {}),
    (scipy.special.gammaln, (np.abs(X3) + 1,), {}),
]
CALL_IDS = [cr.core.names.short_name(f) for f, _, _ in CALLS]


def _output(f, args, kwargs):
    y, pullback = cr.rrule(f, *args, **kwargs)
    return np.asarray(y), pullback


@pytest.mark.parametrize(("f", "args", "kwargs"), CALLS, ids=CALL_IDS)
def test_a_batched_cotangent_is_refused_naming_the_rule_and_both_shapes(f, args, kwargs):
    y, pullback = _output(f, args, kwargs)
    batched = np.ones((2, *y.shape), dtype=y.dtype)
    name = cr.core.names.function_name(f)
    with pytest.raises(ProjectionError, match=rf"{name}.*\(2, {y.shape[0]}"):
        pullback(batched)


@pytest.mark.parametrize(("f", "args", "kwargs"), CALLS, ids=CALL_IDS)
def test_a_shorter_cotangent_is_refused(f, args, kwargs):
    y, pullback = _output(f, args, kwargs)
    shorter = np.ones((y.shape[0] - 1, *y.shape[1:]), dtype=y.dtype)
    with pytest.raises(ProjectionError, match=cr.core.names.function_name(f)):
        pullback(shorter)


@pytest.mark.parametrize(("f", "args", "kwargs"), CALLS, ids=CALL_IDS)
@pytest.mark.parametrize("bad", [None, "list"], ids=["None", "list"])
def test_none_or_a_list_as_cotangent_is_refused_naming_the_rule(f, args, kwargs, bad):
    y, pullback = _output(f, args, kwargs)
    dy = None if bad is None else np.ones(y.shape).tolist()
    with pytest.raises(TangentTypeError, match=cr.core.names.function_name(f)):
        pullback(dy)


@pytest.mark.parametrize(("f", "args", "kwargs"), CALLS, ids=CALL_IDS)
def test_a_cotangent_of_the_output_shape_still_passes(f, args, kwargs):
    y, pullback = _output(f, args, kwargs)
    for dy in (np.ones(y.shape, dtype=y.dtype), cr.ZeroTangent()):
        assert len(pullback(dy)) == len(args) + 1


# The calls above whose rules compute in the arguments' namespace: on PyTorch's tensors too.
TORCH_CALLS = [
    call for call in CALLS if call[0] in (np.sin, np.multiply, np.add, np.sum, np.matmul)
]


@pytest.mark.parametrize(
    ("f", "args", "kwargs"), TORCH_CALLS, ids=[cr.core.names.short_name(c[0]) for c in TORCH_CALLS]
)
def test_a_batched_cotangent_of_a_tensor_output_is_refused(f, args, kwargs):
    torch = pytest.importorskip("torch")
    tensors = [torch.from_numpy(a) if type(a) is np.ndarray else a for a in args]
    y, pullback = cr.rrule(f, *tensors, **kwargs)
    name = cr.core.names.function_name(f)
    with pytest.raises(ProjectionError, match=rf"{name}.*\(2, {y.shape[0]}"):
        pullback(torch.ones((2, *y.shape), dtype=y.dtype))
    assert len(pullback(torch.ones(y.shape, dtype=y.dtype))) == len(args) + 1


def test_a_number_is_a_cotangent_of_a_number_and_of_a_zero_dimensional_array():
    _, pullback = cr.rrule(np.sin, 0.5)
    assert pullback(2.0)[1] == pytest.approx(2 * np.cos(0.5), rel=1e-15)
    _, pullback = cr.rrule(np.sum, X3)
    assert pullback(np.float64(1.0))[1].tolist() == [1.0, 1.0, 1.0]
    _, pullback = cr.rrule(np.sum, X3)
    with pytest.raises(ProjectionError, match=r"numpy.sum.*\(3,\)"):
        pullback(np.ones(3))


def test_structured_outputs_check_each_component():
    _, pullback = cr.rrule(np.linalg.qr, M3)
    with pytest.raises(ProjectionError, match=r"numpy.linalg.qr.*output 1"):
        pullback((np.ones((3, 3)), np.ones((2, 3, 3))))
    assert len(pullback((np.ones((3, 3)), cr.ZeroTangent()))) == 2


def test_a_tangent_of_another_shape_than_its_argument_is_refused():
    with pytest.raises(ProjectionError, match=r"numpy.sin.*\(2, 3\).*argument 1 of shape \(3,\)"):
        cr.frule((cr.NoTangent(), np.ones((2, 3))), np.sin, X3)
    with pytest.raises(ProjectionError, match=r"numpy.cumsum.*argument 1"):
        cr.frule((cr.NoTangent(), np.ones(4)), np.cumsum, X3)


# Arrays whose arithmetic NumPy's functions do not follow: refused at the rule's entry, naming
# the function and the argument, in both rules.
MASKED = np.ma.masked_array([1.0, 2.0, 3.0], mask=[False, True, False])
with warnings.catch_warnings():  # NumPy discourages np.matrix; users still pass it
    warnings.simplefilter("ignore", PendingDeprecationWarning)
    MATRIX = np.asmatrix(M3)
OBJECTS = np.array([1.0, 2.0, 3.0], dtype=object)


@pytest.mark.parametrize(
    ("f", "args", "kind"),
    [
        (np.sum, (MASKED,), "masked array"),
        (np.sin, (MASKED,), "masked array"),
        (np.multiply, (MASKED, 2.0), "masked array"),
        (np.sin, (MATRIX,), "np.matrix"),
        (np.multiply, (MATRIX, MATRIX), "np.matrix"),
        (np.linalg.det, (MATRIX,), "np.matrix"),
        (np.sin, (OBJECTS,), "Python objects"),
        (np.multiply, (2.0, OBJECTS), "Python objects"),
        (np.sum, (OBJECTS,), "Python objects"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_arrays_whose_arithmetic_the_rules_do_not_follow_are_refused(f, args, kind):
    name = cr.core.names.function_name(f)
    position = next(i for i, a in enumerate(args) if isinstance(a, np.ndarray)) + 1
    with pytest.raises(ArrayTypeError, match=rf"{name}: argument {position} is .*{kind}"):
        cr.rrule(f, *args)
    tangents = (cr.NoTangent(), *(np.ones(np.shape(a)) for a in args))
    with pytest.raises(ArrayTypeError, match=rf"{name}: argument {position}"):
        cr.frule(tangents, f, *args)


def test_the_refused_arrays_are_not_changed():
    before = (MASKED.data.copy(), MASKED.mask.copy())
    with pytest.raises(ArrayTypeError):
        cr.rrule(np.sum, MASKED)
    assert (MASKED.data.tolist(), MASKED.mask.tolist()) == (before[0].tolist(), before[1].tolist())


def test_array_subclasses_with_numpy_arithmetic_pass():
    class Plain(np.ndarray):
        pass

    x = X3.view(Plain)
    _, pullback = cr.rrule(np.sin, x)
    np.testing.assert_allclose(pullback(np.ones(3))[1], np.cos(X3), rtol=1e-15)


def test_structured_cotangents_are_checked_by_position_and_by_field():
    _, pullback = cr.rrule(np.linalg.slogdet, M3)
    result_type = type(np.linalg.slogdet(M3))
    for dy in (
        cr.Tangent(tuple, cr.ZeroTangent(), np.ones((2, 3))),
        cr.Tangent(result_type, logabsdet=np.ones((2, 3))),
        [cr.ZeroTangent(), np.ones((2, 3))],
    ):
        with pytest.raises(ProjectionError, match=r"numpy.linalg.slogdet.*\(2, 3\)"):
            pullback(dy)
    assert len(pullback(cr.Tangent(result_type, logabsdet=1.0))) == 2


def test_every_pullback_class_is_made_by_calling_it_without_arguments():
    # Rules make their pullbacks as pullback_class() and set the slots (a third cheaper than
    # object.__new__(pullback_class)): no pullback class may take arguments or run code there.
    from chainrules.core.protocol import NamedPullback
    from chainrules.core.registry import registered_functions

    registered_functions()  # every library's rule modules loaded, their classes made

    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    classes = list(subclasses(NamedPullback))
    assert len(classes) > 100
    for cls in classes:
        assert cls.__init__ is object.__init__ and cls.__new__ is object.__new__, cls


def test_own_code_copies_a_function_with_code_of_its_own():
    from chainrules.core.protocol import own_code

    def scaled(x, c=2.0, *, offset=1.0):
        return x * c + offset + shift

    shift = 0.5
    copy = own_code(scaled, "scaled[copy]")
    assert copy.__code__ is not scaled.__code__
    assert copy.__qualname__ == copy.__code__.co_qualname == "scaled[copy]"
    assert copy.__name__ == copy.__code__.co_name == "scaled"
    assert copy(3.0) == scaled(3.0) == 7.5  # the defaults, the keyword default, the closure
    assert copy(3.0, 1.0, offset=0.0) == 3.5
    assert scaled.__code__.co_qualname.endswith(".scaled")  # the original as it was
    renamed = own_code(scaled, "q", "n")
    assert renamed.__name__ == renamed.__code__.co_name == "n"


def test_a_pullback_class_keeps_what_its_base_resolves_each_name_to():
    # The copies are of what the base's MRO finds: a name a subclass gives a value of another
    # kind (here a staticmethod) keeps it, not a copy of the function further up.
    from chainrules.core.protocol import NamedPullback, named_pullback_class

    class Doubled(NamedPullback):
        __slots__ = ()

        def __call__(self, dy):
            return NO_TANGENT, self.scale(dy)

        def scale(self, dy):
            return 2.0 * dy

    class Tripled(Doubled):
        __slots__ = ()
        scale = staticmethod(lambda dy: 3.0 * dy)

    def fresh(x):
        return x

    assert named_pullback_class(Doubled, fresh)()(1.0) == (NO_TANGENT, 2.0)
    assert named_pullback_class(Tripled, fresh)()(1.0) == (NO_TANGENT, 3.0)


@pytest.mark.parametrize(
    "f, g, args",
    [
        (np.sin, np.cos, (0.5,)),
        (np.sin, np.cos, (np.linspace(0.0, 1.0, 5),)),
        (np.multiply, np.add, (0.5, 2.0)),
        (np.multiply, np.add, (np.ones((3, 4)), np.ones(4))),
        (np.sum, np.mean, (np.ones((3, 4)),)),
        (scipy.linalg.expm, scipy.linalg.sqrtm, (np.eye(2),)),
    ],
    ids=[
        "sin-cos float",
        "sin-cos array",
        "multiply-add float",
        "multiply-add array",
        "sum-mean",
        "expm-sqrtm",
    ],
)
def test_the_rules_and_pullbacks_of_two_functions_share_no_code(f, g, args):
    # CPython specialises each attribute read of a code object for the types it meets there,
    # and gives up while they change: an engine's loop calls sin's, multiply's and add's rules
    # and pullbacks in turn, so the rules and the methods of each function's pullback class
    # are copies with code of their own (own_code), named after the function.
    (rule_f,), (rule_g,) = ([m.fn for m in cr.rrule.methods(h)] for h in (f, g))
    assert rule_f.__code__ is not rule_g.__code__
    _, p = cr.rrule(f, *args)
    _, q = cr.rrule(g, *args)
    P, Q = type(p), type(q)
    assert P.__name__ == f"{f.__name__}_pullback" and Q.__name__ == f"{g.__name__}_pullback"

    def methods(cls):
        return {k for c in cls.__mro__[1:] for k, v in vars(c).items() if type(v) is FunctionType}

    shared = methods(P) & methods(Q)
    assert {"__call__", "needed"} <= shared
    for key in shared:
        code_p, code_q = getattr(P, key).__code__, getattr(Q, key).__code__
        assert code_p is not code_q, key
        assert code_p.co_qualname == (P.__name__ if key == "__call__" else f"{P.__name__}.{key}")
