"""Tripwires: conversions, bit reinterpretation and in-place writes raise, naming the call."""

import cmath
import math
import struct

import numpy as np
import pytest

from chainrules.engines import TrackingError, call, forward, reverse


def bit_trick_exp(x):
    """A fast exp in the style of Schraudolph: builds the float's bits as an integer."""
    bits = np.int64(1512775 * x + 1072632447) << 32
    return np.frombuffer(bits.tobytes(), dtype=np.float64)[0]


def schraudolph_exp(x):
    """Schraudolph's exp: a scaled, shifted float cast to int, its bits read as a float."""
    scale, bias = np.float32(2**23 / np.log(2)), np.float32(127 * 2**23)
    return (scale * x + bias).astype(np.int32).view(np.float32)


def bit_trick_through_view(x):
    bits = x.view(np.int64)
    return (bits >> 1).astype(np.float64)


@pytest.mark.parametrize(
    ("name", "f", "x", "message"),
    [
        ("float()", lambda x: float(x) * 2.0, 1.0, r"float\(\) was called on a tracked value"),
        ("int()", lambda x: x * int(x), 1.0, r"int\(\) was called"),
        ("complex()", lambda x: complex(x), 1.0, r"complex\(\) was called"),
        (".item()", lambda x: x.item(), np.ones(1), r"\.item\(\) was called"),
        (".tolist()", lambda x: x.tolist(), np.ones(1), r"\.tolist\(\) was called"),
        ("math", lambda x: math.sin(x), 1.0, r"float\(\) was called"),
        ("asarray", lambda x: np.asarray(x).sum(), np.ones(2), "converted to a plain NumPy"),
        (".view", bit_trick_through_view, np.ones(2), r"\.view\(int64\).*reinterprets the bits"),
        (".tobytes", lambda x: x.tobytes(), np.ones(2), r"\.tobytes\(\).*reinterprets"),
        ("bit-trick exp", bit_trick_exp, 0.5, r"plain NumPy array in .*bit_trick_exp"),
        (
            "Schraudolph exp",
            schraudolph_exp,
            np.array([0.5, 1.0], np.float32),
            r"\.view\(float32\).* in .*schraudolph_exp .*integers computed from a tracked float",
        ),
        (
            "int bits to bytes",
            lambda x: np.frombuffer((x * 2.0**20).astype(np.int64).tobytes(), np.float64),
            np.ones(2),
            r"\.tobytes\(\) in .* on integers computed from a tracked float",
        ),
        ("x[i] = v", lambda x: x.__setitem__(0, 1.0), np.ones(2), "tracked arrays are immutable"),
        ("out=", lambda x: np.sin(x, out=np.empty(2)), np.ones(2), "out= given to numpy.sin"),
        ("plain += tracked", lambda x: np.zeros(2).__iadd__(x), np.ones(2), "out= given"),
        ("ufunc.at", lambda x: np.add.at(x, [0], 1.0), np.ones(2), r"numpy.add.at"),
        ("x.sort()", lambda x: x.sort(), np.ones(2), "use np.sort"),
        ("x.fill()", lambda x: x.fill(0.0), np.ones(2), "tracked arrays are immutable"),
        ("fill_diagonal", lambda x: np.fill_diagonal(x, 0.0), np.ones((2, 2)), r"x\.flat"),
    ],
)
def test_tripwire_raises_naming_the_call(name, f, x, message):
    with pytest.raises(TrackingError, match=message):
        reverse.grad(lambda t: np.sum(f(t)))(x)


def test_message_says_where_the_call_was_made():
    def user_code(x):
        return float(x)

    with pytest.raises(TrackingError, match=r"in .*user_code \(line \d+\)"):
        reverse.grad(user_code)(1.0)


def test_struct_pack_fails_instead_of_returning_zero():
    # struct replaces the engine's message with its own, but it does fail.
    with pytest.raises(struct.error):
        reverse.grad(lambda x: struct.unpack("q", struct.pack("d", x))[0] * 1.0)(1.0)


def test_frombuffer_of_a_tracked_value_fails():
    with pytest.raises(TypeError):
        reverse.grad(lambda x: np.frombuffer(x, dtype=np.int64).sum())(np.ones(2))


def test_integers_computed_from_tracked_floats_stay_usable_as_integers():
    def f(x):
        i = np.argmax(x)
        k = (x * 2.0).astype(np.int64)
        return x[i] * k.sum() + x[k.view(np.int64)[0]]

    assert np.allclose(reverse.grad(f)(np.array([0.2, 1.4])), [1.0, 2.0])  # x[1] * 2 + x[0]


def test_view_to_the_same_dtype_is_allowed():
    assert np.allclose(reverse.grad(lambda x: np.sum(x.view(np.float64)))(np.ones(2)), 1.0)


def test_augmented_assignment_rebinds_the_name():
    def f(x):
        y = x
        y += 1.0  # a new tracked value; x is unchanged, as for immutable arrays
        return y * x

    assert reverse.grad(f)(2.0) == 5.0


def test_bool_of_a_tracked_value_is_control_flow():
    assert reverse.grad(lambda x: x * x if x > 0 else -x)(3.0) == 6.0


def write_into_plain_array(x):
    a = np.zeros(3)
    a[1] = x
    return np.sum(a * a)


def write_following_the_advice(x):
    a = np.zeros(3)
    a = np.where(np.arange(a.size) == 1, x, a)
    return np.sum(a * a)


@pytest.mark.parametrize("mode", ["reverse", "forward"])
def test_writing_into_a_plain_array_says_what_happened_and_what_to_do(mode):
    with pytest.raises(TrackingError, match=r"written into a plain NumPy array \(a\[i\] = x\)"):
        if mode == "reverse":
            reverse.grad(write_into_plain_array)(2.0)
        else:
            forward.jvp(write_into_plain_array, (2.0,), (1.0,))
    # the advice works
    assert reverse.grad(write_following_the_advice)(2.0) == 4.0
    assert forward.jvp(write_following_the_advice, (2.0,), (1.0,)) == (4.0, 4.0)


def test_a_compiled_function_with_a_rule_is_named_with_advice_that_works():
    with pytest.raises(TrackingError, match=r"by math\.exp .*chainrules\.engines\.call\(math\.exp"):
        reverse.grad(lambda x: math.exp(x))(1.0)
    assert reverse.grad(lambda x: call(math.exp, x))(1.0) == math.exp(1.0)
    assert forward.jvp(lambda x: call(math.exp, x), (1.0,), (1.0,))[1] == math.exp(1.0)
    assert reverse.grad(reverse.grad(lambda x: call(math.exp, x)))(1.0) == math.exp(1.0)


def test_a_compiled_function_without_a_rule_gets_advice_to_register_and_call_it():
    with pytest.raises(TrackingError, match=r"give cmath\.exp a rule .*engines\.call\(cmath\.exp"):
        reverse.grad(lambda x: cmath.exp(x).real)(1.0)  # cmath has no rules
