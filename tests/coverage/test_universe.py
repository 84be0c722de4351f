"""The function universe, enumerated from the installed libraries and classified."""

import sys
import types

import numpy as np
import pytest
import scipy.special

from chainrules.core.names import function_name
from chainrules.coverage.classification import (
    DIFFERENTIABLE,
    NON_DIFFERENTIABLE,
    STATUSES,
    UNCLASSIFIED,
    ClassificationTable,
    Row,
)
from chainrules.coverage.universe import SOURCES, Source, load_universe, public_functions


@pytest.fixture(scope="module")
def universe():
    return load_universe()


def test_no_function_is_silently_dropped(universe):
    enumerated = {
        f"{source.name}.{attr}"
        for source in SOURCES
        if any(s.name == source.name and s.available for s in universe.sources)
        for attr, _ in public_functions(source)
    }
    named = [name for f in universe.functions for name in f.names]
    assert len(named) == len(set(named)) == len(enumerated) == universe.enumerated_names
    assert set(named) == enumerated
    assert universe.enumerated_names == sum(s.enumerated for s in universe.sources)
    classified = [f for f in universe.functions if f.status != UNCLASSIFIED]
    unclassified = [f for f in universe.functions if f.status == UNCLASSIFIED]
    assert len(classified) + len(unclassified) + universe.duplicate_names == len(enumerated)


def test_every_function_is_classified_consistently(universe):
    assert universe.conflicts == ()
    for f in universe.functions:
        assert f.status in STATUSES
        if f.status == UNCLASSIFIED:
            assert f.category == UNCLASSIFIED
        elif f.status != DIFFERENTIABLE:
            assert f.reason, f.name


def test_sources_are_read(universe):
    available = {s.name: s for s in universe.sources}
    for name in ("numpy", "numpy.linalg", "numpy.fft", "numpy.ndarray", "scipy.special"):
        assert available[name].available and available[name].enumerated > 10
    fastmath = available["chainrules.fastmath"]
    if fastmath.available:
        assert any(f.category == "fastmath" for f in universe.functions)
    else:
        assert fastmath.note.startswith("not importable")


@pytest.mark.parametrize(
    ("name", "canonical", "category", "status"),
    [
        ("numpy.abs", "numpy.absolute", "numpy.elementwise", DIFFERENTIABLE),
        ("numpy.concat", "numpy.concatenate", "numpy.shape", DIFFERENTIABLE),
        ("numpy.argmax", "numpy.argmax", "numpy.sorting", NON_DIFFERENTIABLE),
        ("numpy.ndarray.sum", "numpy.ndarray.sum", "numpy.reductions", DIFFERENTIABLE),
        ("numpy.ndarray.T", "numpy.ndarray.T", "numpy.shape", DIFFERENTIABLE),
        (
            "numpy.ndarray.__getitem__",
            "numpy.ndarray.__getitem__",
            "numpy.indexing",
            DIFFERENTIABLE,
        ),
        (
            "numpy.ndarray.__setitem__",
            "numpy.ndarray.__setitem__",
            "numpy.indexing",
            "out-of-scope",
        ),
        ("numpy.linalg.solve", "numpy.linalg.solve", "numpy.linalg", DIFFERENTIABLE),
        ("numpy.fft.rfft", "numpy.fft.rfft", "numpy.fft", DIFFERENTIABLE),
        ("scipy.special.jn", "scipy.special.jv", "scipy.special", DIFFERENTIABLE),
        ("scipy.special.sinc", "numpy.sinc", "numpy.elementwise", DIFFERENTIABLE),
        ("scipy.linalg.expm", "scipy.linalg.expm", "scipy.linalg", DIFFERENTIABLE),
        ("math.lgamma", "math.lgamma", "python.math", DIFFERENTIABLE),
        ("operator.lt", "operator.lt", "python.operator", NON_DIFFERENTIABLE),
        ("numpy.save", "numpy.save", "numpy.io", "out-of-scope"),
    ],
)
def test_functions_are_found_by_any_name(universe, name, canonical, category, status):
    f = universe.find(name)
    assert (f.name, f.category, f.status) == (canonical, category, status)


def test_operators_that_dispatch_to_ufuncs_are_not_enumerated(universe):
    assert universe.find("numpy.ndarray.__add__") is None
    assert universe.find("numpy.ndarray.__matmul__") is None


def test_names_agree_with_the_registry_names(universe):
    samples = [np.abs, np.ndarray.sum, np.ndarray.T, scipy.special.psi, np.sinc, np.linalg.norm]
    for obj in samples:
        f = next(f for f in universe.functions if f.function is obj)
        assert f.name == function_name(obj)


@pytest.fixture
def fake_library(monkeypatch):
    module = types.ModuleType("fakelib")

    def soft(x):
        return x

    def hard(x):
        return x

    class Widget:
        pass

    module.soft, module.alias_of_soft, module.hard = soft, soft, hard
    module.Widget, module.sub, module._private, module.constant = Widget, types, soft, 3.0
    monkeypatch.setitem(sys.modules, "fakelib", module)
    return module


def test_a_function_the_table_does_not_know_is_unclassified(fake_library):
    table = ClassificationTable(
        [
            Row("fake.smooth", DIFFERENTIABLE, "fakelib", "soft"),
            Row("fake.smooth", DIFFERENTIABLE, "fakelib", "removed_in_this_version"),
        ]
    )
    universe = load_universe([Source("fakelib", "fakelib")], table)
    by_name = {f.name: f for f in universe.functions}
    assert set(by_name) == {"fakelib.soft", "fakelib.hard"}
    assert by_name["fakelib.soft"].aliases == ("fakelib.alias_of_soft",)
    assert by_name["fakelib.hard"].status == UNCLASSIFIED
    assert (universe.enumerated_names, universe.duplicate_names) == (3, 1)
    assert universe.stale == ("fakelib.removed_in_this_version",)


def test_two_rows_for_one_function_are_a_conflict(fake_library):
    table = ClassificationTable(
        [
            Row("fake.smooth", DIFFERENTIABLE, "fakelib", "soft"),
            Row("fake.rough", NON_DIFFERENTIABLE, "fakelib", "alias_of_soft", reason="clash"),
        ]
    )
    universe = load_universe([Source("fakelib", "fakelib")], table)
    assert universe.conflicts == (
        "fakelib.soft: classified as fakelib.soft, fakelib.alias_of_soft",
    )


def test_an_optional_source_that_cannot_be_imported_is_reported():
    sources = [Source("no.such.module", "no_such_module_here", optional=True)]
    universe = load_universe(sources, ClassificationTable([]))
    (status,) = universe.sources
    assert (status.available, status.enumerated, universe.functions) == (False, 0, ())
    assert "not importable" in status.note
    with pytest.raises(ImportError):
        load_universe([Source("no.such.module", "no_such_module_here")])
