"""The built site holds what it promises: every function with rules, every public name, every
page, each reachable from the navigation and the search index; and the generators read the
pages as they are written.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path

import pytest
from sitegen import api, catalogue, navigation
from sitegen.statements import (
    ACCURACY,
    HARD_POINTS,
    NON_DIFFERENTIABLE_POINTS,
    PAGE_LIBRARIES,
    PARAMETER_DERIVATIVES,
    Resolver,
    statements_of_page,
)

DOCS = Path(__file__).resolve().parents[1]


class Ids(HTMLParser):
    """The ``id`` of every element of a page, and the text of its ``h2`` headings."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.h2: list[str] = []
        self._in_h2 = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "h2":
            self._in_h2 = True
            self.h2.append(attrs.get("id", ""))

    def handle_endtag(self, tag):
        if tag == "h2":
            self._in_h2 = False


def page_ids(path: Path) -> Ids:
    reader = Ids()
    reader.feed(path.read_text(encoding="utf-8"))
    return reader


@pytest.fixture(scope="module")
def document():
    from chainrules.coverage.format_json import to_document
    from chainrules.coverage.report import current_report

    return to_document(current_report())


@pytest.fixture(scope="module")
def statements(document):
    resolver = Resolver(catalogue.names_of(document))
    found = defaultdict(list)
    for page in sorted(DOCS.glob("*.md")):
        text = page.read_text(encoding="utf-8")
        for name, s in statements_of_page(
            page.name, text, resolver, PAGE_LIBRARIES.get(page.name, ())
        ):
            found[name].append(s)
    return found


def test_the_catalogue_has_an_entry_for_every_function_with_rules(site, document):
    expected = {f["name"] for f in document["functions"] if catalogue.has_rules(f)}
    expected |= {f["name"] for f in document["outside_universe"]}
    entries = set()
    for page in (site / "catalogue").glob("*/index.html"):
        entries |= page_ids(page).ids & expected  # headings, and anchors before dunder ones
    assert entries == expected
    headings = len([i for p in (site / "catalogue").glob("*/index.html") for i in page_ids(p).h2])
    assert headings == len(expected)  # one entry each
    # among them the hard cases: an alias's function, a declared non-differentiable function
    assert {"scipy.special.betainc", "numpy.absolute", "numpy.argmax"} <= entries


def test_an_entry_shows_rules_engines_hard_points_parameters_and_accuracy(site):
    page = (site / "catalogue" / "scipy.special" / "index.html").read_text(encoding="utf-8")
    start = page.index('id="scipy.special.betainc"')
    entry = page[start : page.index("<h2", start + 10)]
    text = re.sub(r"<[^>]+>", "", entry)
    for shown in ("rules", "rrule", "frule", "engines", "reference", "torch", "jax", "autograd"):
        assert shown in text
    assert "hard points" in text and "x = 0, a = 1" in text
    assert "parameter derivatives" in text and "Accuracy" in text and "7e-15" in text
    assert 'href="../../special/#hard-points"' in entry
    assert 'href="../../accuracy/#' in entry


def test_what_the_pages_state_reaches_the_right_functions(statements):
    def kinds(name):
        return {s.kind for s in statements[name]}

    assert {HARD_POINTS, PARAMETER_DERIVATIVES, ACCURACY} <= kinds("scipy.special.betainc")
    assert NON_DIFFERENTIABLE_POINTS in kinds("numpy.absolute")  # `abs'(0) = 0`, as numpy.abs
    assert {s.text for s in statements["numpy.absolute"]} >= {"`abs'(0) = 0`"}
    assert ACCURACY in kinds("chainrules.fastmath.exp")  # the fast kernels' own table
    # a range of names (`jvp` ... `h2vp`) stays within its ends
    integer_order = "derivative order `n`: none: an integer"
    having = {name for name, found in statements.items() for s in found if s.text == integer_order}
    assert having == {f"scipy.special.{n}" for n in ("jvp", "yvp", "ivp", "kvp", "h1vp", "h2vp")}
    # `bei''(0) = 1/2` is a clause of a "Hard points:" paragraph
    assert any(s.text == "`bei''(0) = 1/2`" for s in statements["scipy.special.bei"])


def test_every_public_name_has_its_place_in_the_api_reference(site):
    import importlib

    for module, _ in api.API_MODULES:
        ids = page_ids(site / "api" / module / "index.html").ids
        names = api.public_names(importlib.import_module(module))
        if module in ("chainrules.scipy.special", "chainrules.scipy.linalg"):
            continue  # listed with links to the catalogue, checked by the strict build
        missing = [n for n in names if f"{module}.{n}" not in ids and not _documented(ids, n)]
        assert missing == [], module


def _documented(ids: set[str], name: str) -> bool:
    return any(i.endswith(f".{name}") for i in ids)


def test_no_example_in_a_public_docstring_is_skipped():
    import importlib
    import inspect

    for module, _ in api.API_MODULES:
        mod = importlib.import_module(module)
        for name in api.public_names(mod):
            value = getattr(mod, name)
            doc = inspect.getdoc(value) if callable(value) or inspect.ismodule(value) else ""
            assert "+SKIP" not in (doc or ""), f"{module}.{name}: an example that never runs"


def test_every_page_is_in_the_navigation_and_the_index_files_them_by_reader():
    pages = sorted(p.name for p in DOCS.glob("*.md"))
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    nav = navigation.build_nav(index, pages, {})
    placed = json.dumps(nav)
    assert all(f'"{page}"' in placed for page in pages)
    readers = [reader for reader, _ in navigation.reader_sections(index)]
    for reader in ("Users of PyTorch, JAX, autograd and dask", "Rule authors", "CI users"):
        assert reader in readers
    assert "AD-engine authors" in readers and "The maths" in readers


def test_the_search_index_holds_the_catalogue_entries(site):
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    locations = {doc["location"] for doc in index["docs"]}
    assert "catalogue/scipy.special/#scipy.special.betainc" in locations
    assert "api/chainrules/#chainrules.ZeroTangent" in locations
    separator = index["config"]["separator"]
    assert re.split(separator, "scipy.special.betainc") == ["scipy", "special", "betainc"]


def test_the_search_index_gives_each_entry_its_name_as_one_word(site):
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert index["config"]["fields"]["name"]["boost"] >= index["config"]["fields"]["title"]["boost"]
    assert index["config"]["pipeline"] == []  # `where`, `all` and `not` are names, not stop words
    names = {doc["location"]: doc.get("name") for doc in index["docs"]}
    assert names["catalogue/scipy.special/#scipy.special.betainc"] == "betainc"
    assert names["catalogue/numpy.constructors/#numpy.ones_like"] == "oneslike"
    assert names["api/chainrules/#chainrules.ZeroTangent"] == "zerotangent"
    assert names["catalogue/scipy.special/"] is None
    script = "javascripts/search-exact-names.js"
    assert (site / script).is_file() and script in (site / "index.html").read_text(encoding="utf-8")
