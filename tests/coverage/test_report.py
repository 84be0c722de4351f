"""The report's numbers, against a small registry and universe built here."""

import math
import operator

import pytest

import chainrules as cr
from chainrules.core.registry import RuleInfo, registered_functions
from chainrules.coverage.classification import (
    DIFFERENTIABLE as D,
)
from chainrules.coverage.classification import (
    NON_DIFFERENTIABLE as ND,
)
from chainrules.coverage.classification import (
    OUT_OF_SCOPE as OUT,
)
from chainrules.coverage.classification import (
    UNCLASSIFIED as UN,
)
from chainrules.coverage.reach import (
    NOT_DIFFERENTIABLE,
    REACHED,
    REFUSED,
    TESTED,
    UNKNOWN,
    UNREACHABLE,
)
from chainrules.coverage.record import EngineCheck, TestRecord
from chainrules.coverage.report import build_report, current_report
from chainrules.coverage.universe import UniverseFunction


def renamed_sin(x):
    return math.sin(x)


# function, category, status: a universe of eight functions in three categories
UNIVERSE = [
    UniverseFunction("math.sin", math.sin, (), "math", "python.math", D, ""),
    UniverseFunction("math.cos", math.cos, (), "math", "python.math", D, ""),
    UniverseFunction("math.exp", math.exp, (), "math", "python.math", D, ""),
    UniverseFunction("math.floor", math.floor, (), "math", "python.math", ND, "steps"),
    UniverseFunction("math.isnan", math.isnan, (), "math", "python.math", ND, "predicate"),
    UniverseFunction(
        "operator.add", operator.add, ("operator.plus",), "operator", "python.operator", D, ""
    ),
    UniverseFunction(
        "operator.setitem", operator.setitem, (), "operator", "python.operator", OUT, "mutates"
    ),
    UniverseFunction("math.newfunc", renamed_sin, (), "math", "unclassified", UN, "new"),
]

# the registry: function, name, rrule, frule, non_differentiable, opted_out
REGISTRY = [
    RuleInfo(math.sin, "math.sin", True, True, False, False),
    RuleInfo(math.cos, "math.cos", True, False, False, False),
    RuleInfo(math.exp, "math.exp", True, True, False, True),
    RuleInfo(math.floor, "math.floor", True, True, True, False),
    RuleInfo(lambda a, b: a + b, "operator.plus", True, True, False, False),  # matched by name
    RuleInfo(abs, "abs", True, True, False, False),  # outside the universe
]

RECORD = TestRecord(
    seed=3,
    tested={
        "math.sin": frozenset({"rrule", "frule"}),
        "math.cos": frozenset({"rrule"}),
        "math.exp": frozenset({"rrule"}),
        "operator.plus": frozenset({"rrule", "frule"}),  # an alias counts
    },
    tested_second_order=frozenset({"math.sin"}),
    engines={
        "operator.plus": {"torch": EngineCheck(1, ("no double backward",))},  # an alias counts
        "math.sin": {"jax": EngineCheck(2), "autograd": EngineCheck(1), "dask": EngineCheck(1)},
        "math.exp": {"dask": EngineCheck(0, ("LazyArrayError: math.exp computed a dask array",))},
    },
)


@pytest.fixture
def report():
    return build_report(UNIVERSE, REGISTRY, RECORD)


@pytest.mark.parametrize(
    ("name", "rrule", "frule", "declared", "opted", "tested", "second", "covered"),
    [
        ("math.sin", True, True, False, False, (True, True), True, True),
        ("math.cos", True, False, False, False, (True, False), False, False),
        ("math.exp", True, True, False, True, (True, False), False, False),
        ("math.floor", True, True, True, False, (False, False), False, False),
        ("math.isnan", False, False, False, False, (False, False), False, False),
        ("operator.add", True, True, False, False, (True, True), False, True),
        ("operator.setitem", False, False, False, False, (False, False), False, False),
        ("math.newfunc", False, False, False, False, (False, False), False, False),
    ],
)
def test_rows(report, name, rrule, frule, declared, opted, tested, second, covered):
    row = next(r for r in report.rows if r.name == name)
    assert (row.rrule, row.frule, row.non_differentiable, row.opted_out) == (
        rrule,
        frule,
        declared,
        opted,
    )
    assert (row.tested_rrule, row.tested_frule) == tested
    assert (row.tested_second_order, row.covered) == (second, covered)


def test_totals(report):
    by_category = {t.category: t for t in report.categories}
    assert list(by_category) == ["python.math", "python.operator", "unclassified"]
    m = by_category["python.math"]
    assert (m.functions, m.differentiable, m.non_differentiable, m.out_of_scope) == (5, 3, 2, 0)
    assert (m.with_rrule, m.with_frule, m.with_both_rules) == (3, 2, 2)
    assert (m.declared_non_differentiable, m.tested, m.tested_second_order) == (1, 1, 1)
    assert m.coverage == pytest.approx(100 / 3)
    assert m.rule_coverage == pytest.approx(200 / 3)
    o = by_category["python.operator"]
    assert (o.differentiable, o.out_of_scope, o.tested, o.coverage) == (1, 1, 1, 100.0)
    u = by_category["unclassified"]
    assert (u.unclassified, u.differentiable, u.coverage, u.rule_coverage) == (1, 0, None, None)
    t = report.total
    assert (t.functions, t.differentiable, t.tested, t.coverage) == (8, 4, 2, 50.0)


def test_functions_outside_the_universe_are_listed(report):
    assert [o.name for o in report.outside] == ["abs"]


def test_without_results_the_tested_numbers_are_unknown():
    report = build_report(UNIVERSE, REGISTRY, None)
    assert not report.known
    assert all(r.tested_rrule is None and r.tested_second_order is None for r in report.rows)
    sin = next(r for r in report.rows if r.name == "math.sin")
    assert sin.covered is None
    assert (report.total.tested, report.total.coverage) == (None, None)
    assert report.total.rule_coverage == 75.0  # sin, exp, add have both rules


def test_a_differentiable_function_declared_non_differentiable_disagrees():
    infos = [RuleInfo(math.sin, "math.sin", True, True, True, False)]
    record = TestRecord(seed=None, tested={"math.sin": frozenset({"rrule", "frule"})})
    report = build_report(UNIVERSE[:1], infos, record)
    assert [r.name for r in report.disagreements] == ["math.sin"]
    assert (report.total.with_both_rules, report.total.tested) == (0, 0)


@pytest.mark.parametrize(
    ("select", "categories", "functions"),
    [
        (["python.math"], ["python.math"], 5),
        (["python"], ["python.math", "python.operator"], 7),
        (["unclassified", "python.operator"], ["python.operator", "unclassified"], 3),
    ],
)
def test_select_categories(report, select, categories, functions):
    selected = report.select(select)
    assert [t.category for t in selected.categories] == categories
    assert selected.total.functions == len(selected.rows) == functions
    assert selected.selected == tuple(select)


def test_select_an_unknown_category_names_the_known_ones(report):
    with pytest.raises(ValueError, match=r"no category 'pyth'; categories: python\.math"):
        report.select(["pyth"])


def test_a_rule_registered_for_a_new_function_is_counted():
    def softclip(x):
        return x / (1 + abs(x))

    cr.scalar_rule(softclip, lambda x, y: (1 - abs(y)) ** 2)
    info = next(i for i in registered_functions() if i.function is softclip)
    universe = [UniverseFunction("mine.softclip", softclip, (), "mine", "mine", D, "")]
    report = build_report(universe, [info], None)
    assert (report.total.with_rrule, report.total.with_frule) == (1, 1)
    assert info.name != "mine.softclip"  # matched by identity, whatever its name
    assert report.outside == ()


def test_the_current_report_sees_the_loaded_rules():
    report = current_report()
    sin = next(r for r in report.rows if r.name == "numpy.sin")
    assert sin.rrule and sin.frule and sin.status == D
    assert dict(report.environment)["numpy"]
    assert report.total.functions == len(report.rows) > 900


def test_table_functions_the_installed_libraries_lack_are_listed_as_not_available(monkeypatch):
    from dataclasses import replace

    from chainrules import _compat
    from chainrules.coverage import universe as universe_module
    from chainrules.coverage.columns import needs_attention

    # As if the installed NumPy lacked numpy.sinc, which the reviewed table lists (as NumPy
    # 2.1 lacks numpy.matvec).
    missing = _compat.Unavailable("numpy.sinc", "needs NumPy >= 9.0; 2.1.0 is installed")
    real, before = universe_module.load_universe(), current_report()
    without = tuple(f for f in real.functions if f.name != "numpy.sinc")
    stale = (*real.stale, "numpy.sinc")
    monkeypatch.setattr(
        universe_module, "load_universe", lambda: replace(real, functions=without, stale=stale)
    )
    monkeypatch.setitem(_compat.UNAVAILABLE, "numpy.sinc", missing)
    report = current_report()
    assert "numpy.sinc: needs NumPy >= 9.0; 2.1.0 is installed" in report.unavailable
    assert "numpy.sinc: needs NumPy >= 9.0; 2.1.0 is installed" not in before.unavailable
    assert all(r.name != "numpy.sinc" for r in report.rows)
    assert report.total.differentiable == before.total.differentiable - 1  # not counted
    assert any(
        "numpy.sinc: needs NumPy >= 9.0" in n and n.startswith("Not available in the installed")
        for n in needs_attention(report)
    )


# engine cells (reference, torch, jax, autograd, dask) of each row, with RECORD
ENGINE_CELLS = {
    "math.sin": ["2", "reached", "2", "1", "1"],
    "math.cos": ["1", "reached", "reached", "reached", "reached"],  # an rrule alone is reached
    "math.exp": ["1", "reached", "reached", "reached", "error"],  # refused, naming itself
    "math.floor": ["n/a"] * 5,  # declared non-differentiable
    "math.isnan": ["n/a"] * 5,  # classified non-differentiable
    "operator.add": ["1", "1", "reached", "reached", "reached"],
    "operator.setitem": ["-"] * 5,
    "math.newfunc": ["-"] * 5,
}


@pytest.mark.parametrize(("name", "cells"), ENGINE_CELLS.items())
def test_each_engine_reaches_the_functions_with_rules(report, name, cells):
    row = next(r for r in report.rows if r.name == name)
    assert [e.engine for e in row.engines] == ["reference", "torch", "jax", "autograd", "dask"]
    assert [e.text for e in row.engines] == cells
    for reach in row.engines:
        assert (reach.order is not None) is (reach.state == TESTED)
        assert reach.reached is (reach.state in (TESTED, REACHED))


def test_a_first_order_check_keeps_its_reason(report):
    add = next(r for r in report.rows if r.name == "operator.add")
    assert add.reach("torch").reason == "no double backward"
    assert add.reach("reference").reason == "" and add.reach("jax").reason == ""


def test_a_refusal_keeps_its_error(report):
    exp = next(r for r in report.rows if r.name == "math.exp")
    assert exp.reach("dask").state == REFUSED
    assert exp.reach("dask").reason == "LazyArrayError: math.exp computed a dask array"


def test_engine_totals_count_the_differentiable_functions(report):
    by_category = {t.category: t for t in report.categories}
    math_totals = {e.engine: e for e in by_category["python.math"].engines}
    # sin, cos, exp are differentiable and have rules; floor and isnan are not counted
    assert [(e.second_order, e.first_order, e.reached) for e in math_totals.values()] == [
        (1, 2, 3),
        (0, 0, 3),
        (1, 0, 3),
        (0, 1, 3),
        (0, 1, 2),  # exp refused: not reached
    ]
    assert [e.text for e in report.total.engines] == [
        "1 / 3 / 4",
        "0 / 1 / 4",
        "1 / 0 / 4",
        "0 / 1 / 4",
        "0 / 1 / 3",
    ]


def test_without_results_reach_is_known_and_testing_is_not():
    report = build_report(UNIVERSE, REGISTRY, None)
    states = {r.name: {e.state for e in r.engines} for r in report.rows}
    assert states["math.sin"] == states["math.cos"] == {UNKNOWN}
    assert states["math.floor"] == {NOT_DIFFERENTIABLE}
    assert states["operator.setitem"] == {UNREACHABLE}
    assert [e.text for e in report.total.engines] == ["? / ? / 4"] * 5
