"""``chainrules._compat``: functions some releases lack, changed behaviour, private names."""

import types

import numpy as np
import pytest

from chainrules import _compat as compat
from chainrules.core.define import non_differentiable, scalar_rule
from chainrules.core.registry import frule, registered_functions, rrule


def test_release_reads_the_numeric_part():
    assert compat.release("2.1.0") == (2, 1, 0)
    assert compat.release("1.16.0rc2") == (1, 16, 0)
    assert compat.release("2.3.0.dev0+git20250101") == (2, 3, 0)
    assert compat.NUMPY_VERSION == compat.release(np.__version__)


def test_a_missing_function_is_unavailable_with_its_reason(monkeypatch):
    monkeypatch.setattr(compat, "UNAVAILABLE", {})
    library = types.ModuleType("numpy")
    library.present = np.sin
    assert compat.newer(library, "present", since="2.2") is np.sin
    missing = compat.newer(library, "absent", since="9.1")
    assert not missing and not compat.available(missing) and compat.available(np.sin)
    assert missing.__name__ == "absent" and missing.name == "numpy.absent"
    assert missing.reason == f"needs NumPy >= 9.1; {np.__version__} is installed"
    assert compat.UNAVAILABLE == {"numpy.absent": missing}
    with pytest.raises(AttributeError, match=r"numpy.absent is not available: needs NumPy >= 9.1"):
        missing(1.0)


def test_rules_for_an_unavailable_function_are_not_registered():
    missing = compat.Unavailable("numpy.absent", "needs NumPy >= 9.1; 2.1.0 is installed")

    @rrule.register(missing)
    def _absent_rrule(x):
        raise AssertionError("never called")

    @frule.register(missing)
    def _absent_frule(tangents, x):
        raise AssertionError("never called")

    scalar_rule(missing, lambda x, y: y)
    non_differentiable(missing)
    assert not rrule.has_rule(missing) and not frule.has_rule(missing)
    assert rrule(missing, 1.0) is None
    assert all(info.function is not missing for info in registered_functions())


def test_numpy_functions_of_newer_releases_are_there_when_installed():
    for name in ("matvec", "vecmat"):
        f = getattr(compat, name)
        assert compat.available(f) == hasattr(np, name)
        if compat.available(f):
            assert f is getattr(np, name) and rrule.has_rule(f) and frule.has_rule(f)


def test_numdifftools_results_of_both_forms():
    new = types.SimpleNamespace(estimate=1.5, error_estimate=1e-12, final_step=0.25)
    old = (1.5, types.SimpleNamespace(error_estimate=1e-12, final_step=0.25))
    both = compat.derivative_and_error(new), compat.derivative_and_error(old)
    assert both[0] == both[1] == (1.5, 1e-12, 0.25)


def test_private_names_are_found():
    assert compat.scipy_private_ufunc("_zeta") is not None
    assert compat.scipy_private_ufunc("_no_such_ufunc") is None
    assert compat.scipy_lambertw_ufunc() is not None
    assert compat.NUMPY_NO_VALUE is np._NoValue


def test_numpy_cpu_features_are_what_numpy_dispatches_on():
    features = compat.numpy_cpu_features()
    assert features and all(isinstance(name, str) and name.isupper() for name in features)
    # every baseline feature NumPy was built for is there, and only features it reports
    from numpy._core import _multiarray_umath

    assert set(_multiarray_umath.__cpu_baseline__) <= features
    assert features <= set(_multiarray_umath.__cpu_features__)


def test_the_torch_namespace_multiplies_tensors_of_one_dtype_without_converting_them(monkeypatch):
    torch = pytest.importorskip("torch")
    import array_api_compat.torch as compat_torch

    from chainrules.core.namespace import array_namespace

    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64)
    b = torch.tensor([[0.5, -1.0], [2.0, 0.25]], dtype=torch.float64)
    v32 = torch.tensor([1.0, -2.0], dtype=torch.float32)
    xp = array_namespace(a)
    assert xp.__name__ == "array_api_compat.torch"
    assert xp.sin is compat_torch.sin and xp.linalg is compat_torch.linalg
    expected = {  # array_api_compat's own products, before any conversion is watched
        "a @ b": compat_torch.matmul(a, b),
        "v @ a": compat_torch.matmul(a[0], a),
        "a @ v32": compat_torch.matmul(a, v32),
    }
    converted = []
    to = torch.Tensor.to

    def watched_to(self, *args, **kwargs):
        converted.append(args)
        return to(self, *args, **kwargs)

    monkeypatch.setattr(torch.Tensor, "to", watched_to)
    # One dtype: torch's product itself, with no conversion.
    assert torch.equal(xp.matmul(a, b), expected["a @ b"])
    assert torch.equal(xp.matmul(a[0], a), expected["v @ a"])
    assert converted == []
    # Two dtypes: promoted as array_api_compat promotes them (float32 to float64).
    mixed = xp.matmul(a, v32)
    assert mixed.dtype == torch.float64 and torch.equal(mixed, expected["a @ v32"])
    assert converted
    assert compat.compat_namespace(np) is np  # any other namespace as it is
