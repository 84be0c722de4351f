"""The test-results file: which rules the harness exercised, as its pytest plugin records it.

``pytest --chainrules-record=PATH`` writes::

    {"schema": "chainrules-test-record/2",
     "seed": 1234,                      # or null
     "results": [{"function": "numpy.sin", "kind": "rrule", "second_order": false}, ...],
     "engines": [{"function": "numpy.sin", "engine": "torch", "order": 1,
                  "reason": "why it stops at first order"}, ...]}

A function is tested for a kind (``rrule``, ``frule``) when some result names it with that
kind; it is tested to second order when some result for it has ``second_order`` true.

An ``engines`` entry is a passing check of the function through one engine (``ENGINES``) to
derivative ``order`` 1 or 2; ``reason`` says why it stops at 1 (empty at 2). Order 0
(``REFUSED``) is a passing check that the engine refuses the function with a clear error, the
error being the ``reason`` (the ``dask`` column: rules that cannot run lazily say so). A ``results``
entry is a check through the reference engines as well: it counts as ``"reference"`` to order
2 when ``second_order`` is true, else 1, so that files of schema ``chainrules-test-record/1``
(``results`` only, still read) give the reference column too. Several entries for one function
and engine give the highest order; at order 1, their distinct reasons joined by ``"; "``.

>>> record = parse_test_record({"schema": RECORD_SCHEMA, "seed": 1, "results": [
...     {"function": "numpy.sin", "kind": "rrule", "second_order": True}], "engines": [
...     {"function": "numpy.sin", "engine": "jax", "order": 1, "reason": "host callback"}]})
>>> record.kinds("numpy.sin"), record.second_order("numpy.sin"), record.kinds("numpy.cos")
(frozenset({'rrule'}), True, frozenset())
>>> record.engine_check("numpy.sin", "reference"), record.engine_check("numpy.sin", "jax")
(EngineCheck(order=2, reasons=()), EngineCheck(order=1, reasons=('host callback',)))
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "ENGINES",
    "ORDERS",
    "REFUSED",
    "READABLE_SCHEMAS",
    "RECORD_SCHEMA",
    "EngineCheck",
    "RecordError",
    "TestRecord",
    "parse_test_record",
    "read_test_record",
]

RECORD_SCHEMA = "chainrules-test-record/2"
READABLE_SCHEMAS = ("chainrules-test-record/1", RECORD_SCHEMA)
KINDS = ("rrule", "frule")
ENGINES = ("reference", "torch", "jax", "autograd", "dask")
REFUSED = 0  # the order of a check that the engine refuses the function, naming it
ORDERS = (REFUSED, 1, 2)


class RecordError(ValueError):
    """The test-results file is missing, unreadable or not of the expected schema."""


@dataclass(frozen=True)
class EngineCheck:
    """The highest derivative order checked through one engine, and why it stops at 1."""

    order: int
    reasons: tuple[str, ...] = ()  # distinct, sorted; empty at order 2

    @property
    def reason(self) -> str:
        """The reasons as one text, ``"; "`` between them."""
        return "; ".join(self.reasons)

    @property
    def refused(self) -> bool:
        """Whether the check found the engine refusing the function (``REFUSED``)."""
        return self.order == REFUSED

    def merge(self, other: EngineCheck | None) -> EngineCheck:
        """The check that ``self`` and ``other`` make together: the higher order wins."""
        if other is None or self.order > other.order:
            return self
        if other.order > self.order:
            return other
        return EngineCheck(self.order, tuple(sorted({*self.reasons, *other.reasons})))


@dataclass(frozen=True)
class TestRecord:
    """What the recorded test run exercised, by qualified function name."""

    __test__ = False  # a data class, not a pytest test class

    seed: int | None
    tested: dict[str, frozenset[str]] = field(default_factory=dict)  # name -> kinds
    tested_second_order: frozenset[str] = frozenset()
    path: str | None = None
    engines: dict[str, dict[str, EngineCheck]] = field(default_factory=dict)  # name -> engine ->

    def kinds(self, name: str) -> frozenset[str]:
        return self.tested.get(name, frozenset())

    def kinds_of_any(self, names: Iterable[str]) -> frozenset[str]:
        """The kinds tested under any of ``names`` (a function and its aliases)."""
        return frozenset().union(*(self.kinds(n) for n in names))

    def second_order(self, name: str) -> bool:
        return name in self.tested_second_order

    def engine_check(self, name: str, engine: str) -> EngineCheck | None:
        """What was checked of ``name`` through ``engine``; ``None`` when nothing was.

        The harness's results count for the reference engine (see the module docstring).
        """
        check = self.engines.get(name, {}).get(engine)
        if engine == "reference" and self.kinds(name):
            check = EngineCheck(2 if self.second_order(name) else 1).merge(check)
        return check

    def engine_check_of_any(self, names: Iterable[str], engine: str) -> EngineCheck | None:
        """What was checked through ``engine`` under any of ``names`` (a function, its aliases)."""
        merged: EngineCheck | None = None
        for name in names:
            check = self.engine_check(name, engine)
            merged = check.merge(merged) if check is not None else merged
        return merged


def parse_test_record(document: Any, path: str | None = None) -> TestRecord:
    """A ``TestRecord`` from the decoded JSON document; ``RecordError`` if it does not fit."""
    where = path or "test record"
    if not isinstance(document, dict) or document.get("schema") not in READABLE_SCHEMAS:
        found = document.get("schema") if isinstance(document, dict) else type(document).__name__
        expected = " or ".join(map(repr, READABLE_SCHEMAS))
        raise RecordError(f"{where}: expected schema {expected}, found {found!r}")
    seed = document.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RecordError(f"{where}: 'seed' must be an integer or null, not {seed!r}")
    results = document.get("results")
    if not isinstance(results, list):
        raise RecordError(f"{where}: 'results' must be a list")
    tested: dict[str, set[str]] = {}
    second: set[str] = set()
    for i, result in enumerate(results):
        if not isinstance(result, dict):
            raise RecordError(f"{where}: results[{i}] must be an object")
        name, kind = result.get("function"), result.get("kind")
        second_order = result.get("second_order", False)
        if not isinstance(name, str) or kind not in KINDS or not isinstance(second_order, bool):
            raise RecordError(
                f"{where}: results[{i}] needs 'function' (a string), 'kind' (rrule or frule) "
                f"and 'second_order' (true or false); got {result!r}"
            )
        tested.setdefault(name, set()).add(kind)
        if second_order:
            second.add(name)
    return TestRecord(
        seed=seed,
        tested={name: frozenset(kinds) for name, kinds in tested.items()},
        tested_second_order=frozenset(second),
        path=path,
        engines=_parse_engines(document, where),
    )


def _parse_engines(document: dict[str, Any], where: str) -> dict[str, dict[str, EngineCheck]]:
    """The ``engines`` entries by function and engine (none in a ``/1`` file)."""
    if document["schema"] != RECORD_SCHEMA:
        return {}
    entries = document.get("engines")
    if not isinstance(entries, list):
        raise RecordError(f"{where}: 'engines' must be a list")
    checks: dict[str, dict[str, EngineCheck]] = {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise RecordError(f"{where}: engines[{i}] must be an object")
        name, engine = entry.get("function"), entry.get("engine")
        order, reason = entry.get("order"), entry.get("reason", "")
        if (
            not isinstance(name, str)
            or engine not in ENGINES
            or isinstance(order, bool)
            or order not in ORDERS
            or not isinstance(reason, str)
        ):
            raise RecordError(
                f"{where}: engines[{i}] needs 'function' (a string), 'engine' "
                f"({', '.join(ENGINES)}), 'order' (0, 1 or 2) and 'reason' (a string); got "
                f"{entry!r}"
            )
        if order == REFUSED and not reason:
            raise RecordError(f"{where}: engines[{i}] refuses (order 0) without the error")
        if order == 2 and reason:
            raise RecordError(
                f"{where}: engines[{i}] gives a reason at order 2; a reason says why a check "
                f"stops at order 1; got {entry!r}"
            )
        by_engine = checks.setdefault(name, {})
        check = EngineCheck(order, (reason,) if reason else ())
        by_engine[engine] = check.merge(by_engine.get(engine))
    return checks


def read_test_record(path: str | Path) -> TestRecord:
    """Read the file ``pytest --chainrules-record=PATH`` wrote."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise RecordError(f"cannot read the test record {path}: {error.strerror}") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"{path} is not JSON: {error}") from None
    return parse_test_record(document, str(path))
