"""The catalogue's entries, from report data as the coverage report writes it."""

from __future__ import annotations

from sitegen.catalogue import catalogue_pages, entry, locations
from sitegen.statements import ACCURACY, HARD_POINTS, Statement


def function(**changes):
    data = {
        "name": "scipy.special.betainc",
        "aliases": [],
        "category": "scipy.special",
        "status": "differentiable",
        "reason": "",
        "rrule": True,
        "frule": True,
        "non_differentiable": False,
        "opted_out": False,
        "tested": {"rrule": True, "frule": True, "second_order": True},
        "covered": True,
        "engines": {
            "reference": {"state": "tested", "order": 2, "reason": ""},
            "torch": {"state": "tested", "order": 1, "reason": "a host callback"},
            "jax": {"state": "reached", "order": None, "reason": ""},
        },
    }
    return {**data, **changes}


def test_an_entry_says_what_was_tested_and_how_far_each_engine_goes():
    text = "\n".join(entry(function(), (), ()))
    assert "* **tested**: `test_rrule` and `test_frule`, to second order" in text
    engines = "reference **2** · torch **1** · jax: reached, not checked in the recorded run"
    assert f"* **engines**: {engines}; torch stops at 1st order: a host callback" in text
    assert "orders not known" not in text


def test_engines_and_fields_the_report_adds_appear_without_an_edit():
    engines = {**function()["engines"], "dask": {"state": "tested", "order": 1, "reason": ""}}
    text = "\n".join(entry(function(engines=engines, partials=3), (), ()))
    assert "dask **1**" in text
    assert "* **partials**: 3" in text


def test_without_results_an_entry_does_not_guess():
    unknown = {"rrule": None, "frule": None, "second_order": None}
    engines = {"reference": {"state": "unknown", "order": None, "reason": ""}}
    text = "\n".join(entry(function(tested=unknown, engines=engines), (), ()))
    assert "tested" not in text
    assert "* **engines (orders not known in this build)**: reference: reached" in text


def test_statements_link_to_where_the_page_says_them():
    hard = Statement(HARD_POINTS, "at x = 0: 1", "special.md", "hard-points", "Hard points")
    rows = [
        Statement(ACCURACY, "t", "accuracy.md", "a", "A", case=f"in x, a = {a}",
                  columns=("first derivative",), cells=(f"{a}e-15",))
        for a in (1, 2)
    ]  # fmt: skip
    text = "\n".join(entry(function(), [hard, *rows], ["the cotangent goes to x"]))
    assert (
        "* **hard points**: at x = 0: 1 ([special.md: Hard points](../special.md#hard-points))"
        in text
    )
    assert "| case | first derivative |" in text and "| in x, a = 2 | 2e-15 |" in text
    assert "* **rule**: the cotangent goes to x" in text


def test_pages_put_each_function_on_its_category_page_and_declared_ones_too():
    declared = function(
        name="numpy.argmax", category="numpy.sorting", rrule=True, frule=True,
        non_differentiable=True, status="non-differentiable",
    )  # fmt: skip
    no_rules = function(name="numpy.save", category="numpy.io", rrule=False, frule=False)
    document = {
        "results": {"known": True, "path": "test-record.json", "seed": 0},
        "total": {"functions": 3, "differentiable": 1, "with_both_rules": 1,
                  "tested_second_order": 1},
        "categories": [
            {"category": c, "functions": 1, "differentiable": d, "with_both_rules": d,
             "tested_second_order": d}
            for c, d in (("numpy.io", 0), ("numpy.sorting", 0), ("scipy.special", 1))
        ],
        "functions": [no_rules, declared, function(aliases=["scipy.special.btinc"])],
        "outside_universe": [],
    }  # fmt: skip
    pages = catalogue_pages(document, {}, {})
    assert "catalogue/numpy.io.md" not in pages  # no function with rules there
    assert "declared non-differentiable" in pages["catalogue/numpy.sorting.md"]
    assert "Test results: `test-record.json`, seed 0" in pages["catalogue/index.md"]
    where = locations(document)
    assert where["scipy.special.btinc"] == "catalogue/scipy.special.md#scipy.special.betainc"
    assert "numpy.save" not in where
