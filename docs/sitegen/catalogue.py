"""The rule catalogue: one entry per function with rules, generated when the site is built.

Every fact comes from where the project keeps it, never from a copy: which functions have an
rrule, an frule or a non-differentiable declaration, to which order the test run checked
them and through which engines, from the coverage report's data (``to_document`` of
``chainrules.coverage``: the registry and, when the build reads one, the test record); what
the pages say about a function's hard points, non-differentiable points, parameter derivatives
and accuracy, from the pages themselves (``statements``); and the first paragraph of its rules'
docstrings, from the registry.

``catalogue_pages`` returns ``{path: Markdown}``: ``catalogue/index.md`` (a table of the
categories), a page per category (``catalogue/<category>.md``, an entry per function, each a
heading whose anchor is the function's name, so search finds it and links can name it), and
``catalogue/outside-the-universe.md`` for rules of functions the coverage report does not
enumerate. Engine columns are read from the data, so an engine added to the report appears
here without an edit, as does any further field of a function with a number, a string or a
truth value.

>>> document = {
...     "results": {"known": False, "path": None, "seed": None},
...     "environment": {"numpy": "2.4"},
...     "total": {"category": "total", "functions": 1, "differentiable": 1,
...               "with_both_rules": 1, "tested_second_order": None},
...     "categories": [{"category": "numpy.elementwise", "functions": 1, "differentiable": 1,
...                     "with_both_rules": 1, "tested_second_order": None}],
...     "functions": [{"name": "numpy.absolute", "aliases": ["numpy.abs"],
...         "category": "numpy.elementwise", "status": "differentiable", "reason": "",
...         "rrule": True, "frule": True, "non_differentiable": False, "opted_out": False,
...         "tested": {"rrule": None, "frule": None, "second_order": None}, "covered": None,
...         "engines": {"reference": {"state": "unknown", "order": None, "reason": ""}}}],
...     "outside_universe": [],
... }
>>> pages = catalogue_pages(document, statements={}, notes={})
>>> sorted(pages)
['catalogue/index.md', 'catalogue/numpy.elementwise.md', 'catalogue/outside-the-universe.md']
>>> print(pages["catalogue/numpy.elementwise.md"].split("## ")[1].splitlines()[0])
numpy.absolute { #numpy.absolute }
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .statements import ACCURACY, KINDS, Statement

__all__ = [
    "CATALOGUE",
    "catalogue_pages",
    "category_page",
    "entry",
    "find_object",
    "has_rules",
    "heading",
    "locations",
    "names_of",
    "rule_notes",
]

CATALOGUE = "catalogue"
OUTSIDE = f"{CATALOGUE}/outside-the-universe.md"

# The keys of a function's entry in the report's data that the catalogue shows in its own way;
# any other key with a plain value is shown as it is, under its own name.
_KNOWN_KEYS = {
    "name",
    "aliases",
    "category",
    "status",
    "reason",
    "rrule",
    "frule",
    "non_differentiable",
    "opted_out",
    "tested",
    "covered",
    "engines",
}

_ENGINE_STATE = {
    "reached": "reached, not checked in the recorded run",
    "unknown": "reached",
    "unreachable": "not reached (no rule)",
    "non-differentiable": "n/a",
}


def names_of(document: Mapping[str, Any]) -> dict[str, str]:
    """Every name and alias of the functions in the report's data -> the function's name."""
    names = {}
    for function in document["functions"]:
        for name in (function["name"], *function["aliases"]):
            names[name] = function["name"]
    for function in document["outside_universe"]:
        names.setdefault(function["name"], function["name"])
    return names


def locations(document: Mapping[str, Any]) -> dict[str, str]:
    """Every name and alias of a function with rules -> its entry, ``path#anchor``."""
    found = {}
    for function in document["functions"]:
        if has_rules(function):
            where = f"{CATALOGUE}/{function['category']}.md#{function['name']}"
            for name in (function["name"], *function["aliases"]):
                found[name] = where
    for function in document["outside_universe"]:
        found.setdefault(function["name"], f"{OUTSIDE}#{function['name']}")
    return found


def has_rules(function: Mapping[str, Any]) -> bool:
    """An rrule, an frule or a non-differentiable declaration is registered for it."""
    return bool(function["rrule"] or function["frule"] or function["non_differentiable"])


def find_object(name: str) -> Any:
    """The object a qualified name names (``numpy.ndarray.sum``), or None.

    >>> find_object("numpy.linalg.det").__name__, find_object("numpy.no_such_name")
    ('det', None)
    """
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:]:
            target = getattr(target, part, None)
        return target
    return None


def rule_notes(function: Any) -> list[str]:
    """The first paragraph of each docstring of ``function``'s rules, in the registry."""
    from chainrules.core.registry import frule, rrule

    notes = []
    for table in (rrule, frule):
        for method in table.methods(function):
            doc = inspect.getdoc(method.fn) or ""
            first = " ".join(doc.split("\n\n")[0].split())
            if first and first not in notes:
                notes.append(first)
    return notes


def _rules(function: Mapping[str, Any]) -> str:
    if function["non_differentiable"]:
        return "declared non-differentiable: every tangent is `NoTangent()`"
    kinds = [kind for kind in ("rrule", "frule") if function[kind]]
    text = " and ".join(f"`{kind}`" for kind in kinds)
    return text + (" (opted out for some argument types)" if function["opted_out"] else "")


def _tested(function: Mapping[str, Any]) -> str | None:
    tested = function["tested"]
    if tested["rrule"] is None:
        return None
    checked = [f"`test_{kind}`" for kind in ("rrule", "frule") if tested[kind]]
    if not checked:
        return "not checked by the recorded test run"
    order = "to second order" if tested["second_order"] else "to first order"
    return f"{' and '.join(checked)}, {order}"


def _engines(function: Mapping[str, Any]) -> str:
    """Each engine's order or state, then once per reason the engines that stop for it."""
    cells = []
    stopping: dict[str, list[str]] = {}
    for engine, reach in function["engines"].items():
        if reach["state"] == "tested":
            cells.append(f"{engine} **{reach['order']}**")
            if reach["reason"]:
                stopping.setdefault(reach["reason"], []).append(engine)
        else:
            cells.append(f"{engine}: {_ENGINE_STATE.get(reach['state'], reach['state'])}")
    why = [
        f"{', '.join(engines)} {'stops' if len(engines) == 1 else 'stop'} at 1st order: {reason}"
        for reason, engines in stopping.items()
    ]
    return "; ".join([" · ".join(cells), *why])


def _source(statement: Statement, depth: int) -> str:
    up = "../" * depth
    return f"[{statement.page}: {statement.section}]({up}{statement.page}#{statement.anchor})"


def _relinked(text: str, statement: Statement, depth: int) -> str:
    """``text`` from ``statement``'s page with its relative links made to work from a page
    ``depth`` folders down: ``(#anchor)`` to ``(../page.md#anchor)``, ``(other.md)`` to
    ``(../other.md)``.

    >>> s = Statement("hard points", "", "special.md", "a", "A")
    >>> _relinked("see [B](#b) and [C](testing.md#c), [D](https://d.org)", s, 1)
    'see [B](../special.md#b) and [C](../testing.md#c), [D](https://d.org)'
    """
    up = "../" * depth
    text = text.replace("](#", f"]({up}{statement.page}#")
    return re.sub(r"\]\((?![a-z]+:|/|\.\./)([^)#]+\.md)", rf"]({up}\1", text)


def _escape(text: str) -> str:
    """Text from a docstring, safe in a Markdown list item: no HTML, no stray emphasis."""
    return text.replace("<", "&lt;").replace("*", "\\*")


def entry(
    function: Mapping[str, Any], statements: Sequence[Statement], notes: Sequence[str]
) -> list[str]:
    """The Markdown lines of one function's entry (its heading and a list of facts)."""
    lines = [heading(function["name"]), ""]
    facts = []
    if function.get("aliases"):
        facts.append(("also", ", ".join(f"`{a}`" for a in function["aliases"])))
    facts.append(("rules", _rules(function)))
    tested = _tested(function) if "tested" in function else None
    if tested is not None:
        facts.append(("tested", tested))
    if function.get("engines"):
        checked = "" if tested is not None else " (orders not known in this build)"
        facts.append((f"engines{checked}", _engines(function)))
    for key, value in function.items():
        if key not in _KNOWN_KEYS and isinstance(value, (bool, int, float, str)):
            facts.append((key.replace("_", " "), f"{value}"))
    tables: dict[tuple, list[Statement]] = {}
    for kind in KINDS:
        for statement in statements:
            if statement.kind != kind:
                continue
            if kind == ACCURACY and statement.columns:
                key = (statement.page, statement.anchor, statement.columns)
                tables.setdefault(key, []).append(statement)
            else:
                text = _relinked(statement.text, statement, 1)
                facts.append((kind, f"{text} ({_source(statement, 1)})"))
    facts += [("rule", _escape(note)) for note in notes]
    lines += [f"* **{label}**: {text}" for label, text in facts]
    for rows in tables.values():
        lines += ["", f"Accuracy ({_source(rows[0], 1)}):", "", *_accuracy_table(rows)]
    return [*lines, ""]


def _accuracy_table(rows: Sequence[Statement]) -> list[str]:
    """The rows a page's accuracy table has for one function, as a table of their own."""
    with_case = any(row.case for row in rows)
    header = (["case"] if with_case else []) + list(rows[0].columns)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in rows:
        cells = [_relinked(c, row, 1).replace("|", "\\|") for c in row.cells]
        cells = ([row.case] if with_case else []) + cells
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def heading(name: str, level: int = 2) -> str:
    """A heading of ``name`` whose anchor is ``name`` itself.

    Markdown reads a double underscore as bold, in an attribute list too: a name with one
    (``__matmul__``) is escaped in the heading, and its anchor is an element of its own
    before it (single underscores, within words, are text).

    >>> print(heading("scipy.special.gammainc_da"))
    ## scipy.special.gammainc_da { #scipy.special.gammainc_da }
    >>> print(heading("numpy.ndarray.__matmul__", level=3))
    <a id="numpy.ndarray.__matmul__"></a>
    <BLANKLINE>
    ### numpy.ndarray.\\_\\_matmul\\_\\_
    """
    if "__" not in name:
        return f"{'#' * level} {name} {{ #{name} }}"
    escaped = name.replace("_", "\\_")
    return f'<a id="{name}"></a>\n\n{"#" * level} {escaped}'


def _count(value: Any) -> str:
    return "?" if value is None else str(value)


def category_page(
    category: Mapping[str, Any],
    functions: Sequence[Mapping[str, Any]],
    statements: Mapping[str, Sequence[Statement]],
    notes: Mapping[str, Sequence[str]],
    known: bool,
) -> str:
    """The Markdown page of one category."""
    name = category["category"]
    with_rules = [f for f in functions if has_rules(f)]
    declared = sum(f["non_differentiable"] for f in with_rules)
    lines = [f"# {name}", ""]
    lines.append(
        f"{len(with_rules)} of the category's {category['functions']} functions have rules: "
        f"{category['with_both_rules']} of its {category['differentiable']} differentiable "
        f"functions have an rrule and an frule, and {declared} are declared non-differentiable."
        + (
            ""
            if known
            else " This build read no test results, so it does not say what the "
            "tests checked: see [the catalogue](index.md)."
        )
    )
    lines.append("")
    for function in with_rules:
        lines += entry(
            function, statements.get(function["name"], ()), notes.get(function["name"], ())
        )
    return "\n".join(lines).rstrip() + "\n"


def _index_page(document: Mapping[str, Any], pages: Iterable[tuple[str, str]]) -> str:
    results = document["results"]
    env = ", ".join(f"{k} {v}" for k, v in document.get("environment", {}).items())
    lines = [
        "# Rule catalogue",
        "",
        "Every function that has rules, one entry each: its `rrule` and `frule` (or its "
        "declaration as non-differentiable), how far each engine goes with it, and what these "
        "pages state about its hard points, non-differentiable points, derivatives in its "
        "parameters and accuracy, with a link to where. The catalogue is generated from the "
        "rule registry and the coverage report's data each time the site is built; search "
        "finds a function by any part of its name.",
        "",
    ]
    if results["known"]:
        seed = "" if results["seed"] is None else f", seed {results['seed']}"
        lines.append(
            f"Test results: `{results['path']}`{seed}. An engine's **2** or **1** is the "
            "derivative order that a recorded check passed through it."
        )
    else:
        lines.append(
            "This build read no test results, so it says which engines reach each function "
            "but not to which order they were checked: build the site after "
            "`python -m pytest --chainrules-record=test-record.json` to see that."
        )
    lines += ["", f"Built with {env}." if env else "", ""]
    lines += [
        "| category | functions | with rules (rrule and frule) | differentiable | "
        "checked to 2nd order |",
        "|---|---:|---:|---:|---:|",
    ]
    categories = {c["category"]: c for c in document["categories"]}
    for page, category in pages:
        c = categories.get(category)
        if c is None:
            continue
        lines.append(
            f"| [{category}]({page.removeprefix(CATALOGUE + '/')}) | {c['functions']} | "
            f"{c['with_both_rules']} | {c['differentiable']} | "
            f"{_count(c['tested_second_order'])} |"
        )
    total = document["total"]
    lines.append(
        f"| **total** | {total['functions']} | {total['with_both_rules']} | "
        f"{total['differentiable']} | {_count(total['tested_second_order'])} |"
    )
    outside = len(document["outside_universe"])
    lines += [
        "",
        f"[Rules outside the universe]({OUTSIDE.removeprefix(CATALOGUE + '/')}): {outside} "
        "functions with rules that the coverage report does not enumerate (private stand-ins "
        "that SciPy's wrappers call, the exact twins of the fast kernels, the derivative "
        "functions of the incomplete gamma and beta functions).",
        "",
    ]
    return "\n".join(lines)


def _outside_page(
    document: Mapping[str, Any],
    statements: Mapping[str, Sequence[Statement]],
    notes: Mapping[str, Sequence[str]],
) -> str:
    lines = [
        "# Rules outside the universe",
        "",
        "Functions that have rules but are not among the functions the coverage report "
        "enumerates: no engine column, since the report does not follow them.",
        "",
    ]
    for function in document["outside_universe"]:
        entry_data = {**function, "aliases": []}
        name = function["name"]
        lines += entry(entry_data, statements.get(name, ()), notes.get(name, ()))
    return "\n".join(lines).rstrip() + "\n"


def catalogue_pages(
    document: Mapping[str, Any],
    statements: Mapping[str, Sequence[Statement]],
    notes: Mapping[str, Sequence[str]],
) -> dict[str, str]:
    """``{path: Markdown}`` of the catalogue (see the module docstring).

    ``document`` is the coverage report's data; ``statements`` and ``notes`` map a function's
    name to what the pages state about it and to its rules' docstrings.
    """
    known = bool(document["results"]["known"])
    by_category: dict[str, list[Mapping[str, Any]]] = {}
    for function in document["functions"]:
        by_category.setdefault(function["category"], []).append(function)
    pages: dict[str, str] = {}
    listed = []
    for category in document["categories"]:
        functions = by_category.get(category["category"], [])
        if not any(has_rules(f) for f in functions):
            continue
        path = f"{CATALOGUE}/{category['category']}.md"
        pages[path] = category_page(category, functions, statements, notes, known)
        listed.append((path, category["category"]))
    pages[f"{CATALOGUE}/index.md"] = _index_page(document, listed)
    pages[OUTSIDE] = _outside_page(document, statements, notes)
    return dict(sorted(pages.items()))
