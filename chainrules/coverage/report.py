"""The coverage numbers: for each function of the universe, what the registry and the tests say.

For each function: whether it has an rrule, an frule, is declared non-differentiable or opted
out (from ``registered_functions()``, matched by object identity first and by name second),
whether the recorded test run exercised its rrule, its frule and a second derivative, and
how far each engine goes with it (``chainrules.coverage.reach``).

Per category and overall::

    coverage      = differentiable functions with both rules, both tested / differentiable
    rule coverage = differentiable functions with both rules registered   / differentiable
    partials      = partial derivatives the rules give / all, of the elementwise functions,
                    and how many are NotImplementedTangent (``chainrules.coverage.partials``)

Without a test record the tested counts, second-order counts and coverage are ``None``
(unknown), never zero.

>>> import math
>>> from chainrules.core.registry import RuleInfo
>>> from chainrules.coverage.universe import UniverseFunction
>>> sin = UniverseFunction("math.sin", math.sin, (), "math", "python.math", "differentiable", "")
>>> cos = UniverseFunction("math.cos", math.cos, (), "math", "python.math", "differentiable", "")
>>> info = RuleInfo(math.sin, "math.sin", True, True, False, False)
>>> record = TestRecord(seed=0, tested={"math.sin": frozenset({"rrule", "frule"})})
>>> report = build_report([sin, cos], [info], record)
>>> report.total.tested, report.total.differentiable, report.total.coverage
(1, 2, 50.0)
>>> [(t.engine, t.text) for t in report.total.engines][:2]
[('reference', '0 / 1 / 1'), ('torch', '0 / 0 / 1')]
"""

from __future__ import annotations

import platform
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .classification import DIFFERENTIABLE, NON_DIFFERENTIABLE, OUT_OF_SCOPE, UNCLASSIFIED
from .partials import Partials, probe_partials, sum_partials
from .reach import EngineReach, EngineTotals, engine_reaches, engine_totals
from .record import TestRecord
from .universe import SourceStatus, UniverseFunction

__all__ = [
    "FunctionRow",
    "OutsideRow",
    "Report",
    "Totals",
    "build_report",
    "current_report",
    "environment",
]


@dataclass(frozen=True)
class FunctionRow:
    """One function's line of the report. ``None`` in a tested field means unknown."""

    name: str
    aliases: tuple[str, ...]
    category: str
    status: str
    reason: str
    rrule: bool
    frule: bool
    non_differentiable: bool
    opted_out: bool
    tested_rrule: bool | None
    tested_frule: bool | None
    tested_second_order: bool | None
    engines: tuple[EngineReach, ...]  # one per engine, in the order of ``ENGINES``
    partials: Partials | None = None  # of an elementwise function with an rrule; else None

    def reach(self, engine: str) -> EngineReach:
        """How far ``engine`` goes with this function."""
        return next(r for r in self.engines if r.engine == engine)

    @property
    def has_rules(self) -> bool:
        """Both rules registered, and not merely as a non-differentiable declaration."""
        return self.rrule and self.frule and not self.non_differentiable

    @property
    def disagrees(self) -> bool:
        """Classified differentiable, yet declared non-differentiable in the registry."""
        return self.status == DIFFERENTIABLE and self.non_differentiable

    @property
    def covered(self) -> bool | None:
        """Differentiable, both rules registered and both tested (``None``: not known)."""
        if self.status != DIFFERENTIABLE or not self.has_rules:
            return False
        if self.tested_rrule is None or self.tested_frule is None:
            return None
        return self.tested_rrule and self.tested_frule


@dataclass(frozen=True)
class OutsideRow:
    """A function with rules that is not in the universe (a user's function, a ufunc method)."""

    name: str
    rrule: bool
    frule: bool
    non_differentiable: bool
    opted_out: bool


@dataclass(frozen=True)
class Totals:
    """Counts for one category, or for all (``category == "total"``)."""

    category: str
    functions: int
    differentiable: int
    non_differentiable: int
    out_of_scope: int
    unclassified: int
    with_rrule: int
    with_frule: int
    with_both_rules: int
    declared_non_differentiable: int
    tested: int | None
    tested_second_order: int | None
    engines: tuple[EngineTotals, ...]  # one per engine, over the differentiable functions
    partials: Partials | None = None  # summed over the differentiable elementwise functions

    @property
    def coverage(self) -> float | None:
        """Percent of the differentiable functions with both rules tested, or None."""
        if self.tested is None or not self.differentiable:
            return None
        return 100.0 * self.tested / self.differentiable

    @property
    def rule_coverage(self) -> float | None:
        """Percent of the differentiable functions with both rules registered, or None."""
        if not self.differentiable:
            return None
        return 100.0 * self.with_both_rules / self.differentiable


def totals(category: str, rows: Sequence[FunctionRow], known: bool) -> Totals:
    """Sum ``rows`` into a ``Totals``; ``known`` says whether test results were read."""
    diff = [r for r in rows if r.status == DIFFERENTIABLE]
    by_nature = [r for r in rows if r.status == NON_DIFFERENTIABLE]
    return Totals(
        category=category,
        functions=len(rows),
        differentiable=len(diff),
        non_differentiable=len(by_nature),
        out_of_scope=sum(r.status == OUT_OF_SCOPE for r in rows),
        unclassified=sum(r.status == UNCLASSIFIED for r in rows),
        with_rrule=sum(r.rrule and not r.non_differentiable for r in diff),
        with_frule=sum(r.frule and not r.non_differentiable for r in diff),
        with_both_rules=sum(r.has_rules for r in diff),
        declared_non_differentiable=sum(r.non_differentiable for r in by_nature),
        tested=sum(bool(r.covered) for r in diff) if known else None,
        tested_second_order=sum(bool(r.tested_second_order) for r in diff) if known else None,
        engines=engine_totals([r.engines for r in diff], known),
        partials=sum_partials(r.partials for r in diff),
    )


@dataclass(frozen=True)
class Report:
    """The whole report: rows, totals per category and overall, and what it was made from."""

    rows: tuple[FunctionRow, ...]
    categories: tuple[Totals, ...]
    total: Totals
    record: TestRecord | None
    outside: tuple[OutsideRow, ...] = ()
    sources: tuple[SourceStatus, ...] = ()
    conflicts: tuple[str, ...] = ()
    stale: tuple[str, ...] = ()
    unavailable: tuple[str, ...] = ()  # "name: reason" of table functions not installed
    environment: tuple[tuple[str, str], ...] = ()
    selected: tuple[str, ...] = ()  # the --category filters applied, if any

    @property
    def disagreements(self) -> tuple[FunctionRow, ...]:
        """Functions classified differentiable that the registry declares non-differentiable."""
        return tuple(r for r in self.rows if r.disagrees)

    @property
    def known(self) -> bool:
        """Whether test results were read, so that tested counts and coverage are known."""
        return self.record is not None

    def select(self, names: Iterable[str]) -> Report:
        """The report restricted to categories named exactly or by prefix (``numpy``).

        Raises ``ValueError`` naming the categories when a name matches none.
        """
        names = tuple(names)
        known = [t.category for t in self.categories]
        chosen: set[str] = set()
        for name in names:
            hits = {c for c in known if c == name or c.startswith(name + ".")}
            if not hits:
                raise ValueError(f"no category {name!r}; categories: {', '.join(known)}")
            chosen |= hits
        rows = tuple(r for r in self.rows if r.category in chosen)
        return replace(
            self,
            rows=rows,
            categories=tuple(t for t in self.categories if t.category in chosen),
            total=totals("total", rows, self.known),
            selected=names,
        )


def _match(function: UniverseFunction, by_id: dict[int, Any], by_name: dict[str, Any]) -> Any:
    info = by_id.get(id(function.function))
    if info is not None and info.function is function.function:
        return info
    return next((by_name[n] for n in function.names if n in by_name), None)


def build_report(
    functions: Iterable[UniverseFunction],
    infos: Iterable[Any],
    record: TestRecord | None = None,
    partials: Mapping[str, Partials] | None = None,
    **context: Any,
) -> Report:
    """The report of ``functions`` (the universe) against ``infos`` (``RuleInfo``\\s).

    ``partials`` holds the probed partial derivatives of functions by name (``None``: not
    counted); ``context`` fills the descriptive fields of ``Report`` (sources, conflicts,
    stale, unavailable, environment).
    """
    infos = list(infos)
    by_id = {id(info.function): info for info in infos}
    by_name = {info.name: info for info in infos}
    matched: set[int] = set()
    rows = []
    for function in functions:
        info = _match(function, by_id, by_name)
        if info is not None:
            matched.add(id(info))
        names = function.names + ((info.name,) if info is not None else ())
        kinds = record.kinds_of_any(names) if record is not None else None
        second = any(record.second_order(n) for n in names) if record is not None else None
        non_differentiable = bool(info and info.non_differentiable)
        differentiating = bool(info and (info.rrule or info.frule)) and not non_differentiable
        rows.append(
            FunctionRow(
                name=function.name,
                aliases=function.aliases,
                category=function.category,
                status=function.status,
                reason=function.reason,
                rrule=bool(info and info.rrule),
                frule=bool(info and info.frule),
                non_differentiable=non_differentiable,
                opted_out=bool(info and info.opted_out),
                tested_rrule=None if kinds is None else "rrule" in kinds,
                tested_frule=None if kinds is None else "frule" in kinds,
                tested_second_order=second,
                engines=engine_reaches(
                    names,
                    differentiating,
                    non_differentiable or function.status == NON_DIFFERENTIABLE,
                    record,
                ),
                partials=None if partials is None else partials.get(function.name),
            )
        )
    rows.sort(key=lambda r: (r.category, r.name))
    known = record is not None
    categories = tuple(
        totals(c, [r for r in rows if r.category == c], known)
        for c in sorted({r.category for r in rows})
    )
    outside = tuple(
        OutsideRow(i.name, i.rrule, i.frule, i.non_differentiable, i.opted_out)
        for i in infos
        if id(i) not in matched
    )
    return Report(
        rows=tuple(rows),
        categories=categories,
        total=totals("total", rows, known),
        record=record,
        outside=outside,
        **context,
    )


def environment() -> tuple[tuple[str, str], ...]:
    """The versions the universe was read from."""
    import numpy
    import scipy

    from .. import __version__

    return (
        ("chainrules", __version__),
        ("numpy", numpy.__version__),
        ("scipy", scipy.__version__),
        ("python", platform.python_version()),
    )


def current_report(record: TestRecord | None = None) -> Report:
    """The report of this installation: its universe against the registry of loaded rules."""
    from .._compat import UNAVAILABLE
    from ..core.registry import registered_functions
    from .universe import load_universe

    universe = load_universe()
    missing = [UNAVAILABLE[name] for name in universe.stale if name in UNAVAILABLE]
    infos = registered_functions()
    with_rrule = {id(i.function) for i in infos if i.rrule and not i.non_differentiable}
    probed = {
        f.name: found
        for f in universe.functions
        if id(f.function) in with_rrule and (found := probe_partials(f.function)) is not None
    }
    return build_report(
        universe.functions,
        infos,
        record,
        probed,
        sources=universe.sources,
        conflicts=universe.conflicts,
        stale=universe.stale,
        unavailable=tuple(f"{f.name}: {f.reason}" for f in missing),
        environment=environment(),
    )
