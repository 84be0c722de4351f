"""Tests for chainrules.core.namespace: array_namespace and register_array_namespace."""

import types

import numpy as np
import pytest

from chainrules.core.namespace import array_namespace, register_array_namespace
from chainrules.core.tangents import NoTangent, Tangent, ZeroTangent, not_implemented
from chainrules.core.thunks import Thunk

FAKE_XP = types.SimpleNamespace(__name__="fake_xp")
OTHER_XP = types.SimpleNamespace(__name__="other_xp")


class AnswersNamespace:
    """An array type of another library that answers ``__array_namespace__``."""

    shape, dtype, ndim = (2,), np.dtype("f8"), 1

    def __array_namespace__(self, api_version=None):
        return FAKE_XP


class Registered:
    """An array type with no ``__array_namespace__``, registered by hand (like a tracer box)."""


class RegisteredChild(Registered):
    pass


register_array_namespace(Registered, lambda x: OTHER_XP)


@pytest.mark.parametrize(
    "inputs",
    [
        (),
        (np.ones(2),),
        (1.0, 2, True, 1j, None),
        (np.float32(1), np.int64(2), np.bool_(True), np.float16(1), np.uint8(3)),
        (np.ones(2), ZeroTangent(), NoTangent(), Thunk(lambda: 1.0), not_implemented("x")),
        ("text", (1.0, 2.0), Tangent(tuple, 1.0)),
    ],
    ids=["nothing", "array", "python scalars", "numpy scalars", "tangent markers", "others"],
)
def test_numpy_and_python_values_give_numpy(inputs):
    assert array_namespace(*inputs) is np


def test_foreign_array_gives_its_own_namespace():
    assert array_namespace(AnswersNamespace()) is FAKE_XP
    assert array_namespace(np.ones(2), 3.0, AnswersNamespace()) is FAKE_XP
    assert array_namespace(AnswersNamespace(), AnswersNamespace()) is FAKE_XP


def test_registered_namespace_applies_to_subclasses():
    assert array_namespace(Registered()) is OTHER_XP
    assert array_namespace(1.0, RegisteredChild()) is OTHER_XP


def test_two_foreign_libraries_are_an_error_naming_both():
    with pytest.raises(TypeError, match="fake_xp and other_xp"):
        array_namespace(AnswersNamespace(), Registered())


def test_is_numpy():
    from chainrules.core.namespace import is_numpy

    assert is_numpy(np.ones(2), 1.0, np.float32(2), 3, True)
    assert not is_numpy(np.ones(2), [1.0])


def test_numpy_dispatches_on_what_it_computes_with_or_hands_on():
    from chainrules.core.errors import ArrayTypeError
    from chainrules.core.namespace import numpy_dispatches, require_numpy

    class OwnUfuncs:  # an engine's tracked value: NumPy hands it its calls
        def __array_ufunc__(self, *args, **kwargs):
            return NotImplemented

    class Foreign:  # an array of another library, with its own namespace
        def __array_namespace__(self, api_version=None):
            return types.SimpleNamespace()

    assert numpy_dispatches(np.float32(1)) and numpy_dispatches(OwnUfuncs())
    assert not numpy_dispatches(Foreign())
    require_numpy(np.sin, np.ones(2), 1.0, OwnUfuncs())  # nothing to say
    with pytest.raises(ArrayTypeError, match=r"numpy\.sin .*Foreign"):
        require_numpy(np.sin, np.ones(2), 1.0, Foreign())


def test_array_api_compat_is_asked_once_per_type_and_a_registration_comes_first(monkeypatch):
    import array_api_compat

    from chainrules.core.namespace import is_compat_array_type

    class CompatArray:  # an array type array_api_compat knows (as it knows torch's)
        shape, dtype, ndim = (2,), np.dtype("f8"), 1

    asked = []

    def compat_namespace(*arrays, **options):
        asked.append(arrays)
        return FAKE_XP

    monkeypatch.setattr(array_api_compat, "array_namespace", compat_namespace)
    assert not is_compat_array_type(CompatArray)
    assert array_namespace(CompatArray()) is FAKE_XP
    assert array_namespace(1.0, CompatArray()) is FAKE_XP
    assert len(asked) == 1 and is_compat_array_type(CompatArray)
    # A namespace registered afterwards for the type is its namespace from then on.
    register_array_namespace(CompatArray, lambda x: OTHER_XP)
    assert array_namespace(CompatArray()) is OTHER_XP and not is_compat_array_type(CompatArray)
    assert len(asked) == 1
