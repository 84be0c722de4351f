"""The test-results file: which rules the harness exercised, as its pytest plugin records it.

``pytest --chainrules-record=PATH`` writes::

    {"schema": "chainrules-test-record/1",
     "seed": 1234,                      # or null
     "results": [{"function": "numpy.sin", "kind": "rrule", "second_order": false}, ...]}

A function is tested for a kind (``rrule``, ``frule``) when some result names it with that
kind; it is tested to second order when some result for it has ``second_order`` true.

>>> record = parse_test_record({"schema": RECORD_SCHEMA, "seed": 1, "results": [
...     {"function": "numpy.sin", "kind": "rrule", "second_order": True}]})
>>> record.kinds("numpy.sin"), record.second_order("numpy.sin"), record.kinds("numpy.cos")
(frozenset({'rrule'}), True, frozenset())
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["RECORD_SCHEMA", "RecordError", "TestRecord", "parse_test_record", "read_test_record"]

RECORD_SCHEMA = "chainrules-test-record/1"
KINDS = ("rrule", "frule")


class RecordError(ValueError):
    """The test-results file is missing, unreadable or not of the expected schema."""


@dataclass(frozen=True)
class TestRecord:
    """What the recorded test run exercised, by qualified function name."""

    __test__ = False  # a data class, not a pytest test class

    seed: int | None
    tested: dict[str, frozenset[str]] = field(default_factory=dict)  # name -> kinds
    tested_second_order: frozenset[str] = frozenset()
    path: str | None = None

    def kinds(self, name: str) -> frozenset[str]:
        return self.tested.get(name, frozenset())

    def kinds_of_any(self, names: Iterable[str]) -> frozenset[str]:
        """The kinds tested under any of ``names`` (a function and its aliases)."""
        return frozenset().union(*(self.kinds(n) for n in names))

    def second_order(self, name: str) -> bool:
        return name in self.tested_second_order


def parse_test_record(document: Any, path: str | None = None) -> TestRecord:
    """A ``TestRecord`` from the decoded JSON document; ``RecordError`` if it does not fit."""
    where = path or "test record"
    if not isinstance(document, dict) or document.get("schema") != RECORD_SCHEMA:
        found = document.get("schema") if isinstance(document, dict) else type(document).__name__
        raise RecordError(f"{where}: expected schema {RECORD_SCHEMA!r}, found {found!r}")
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
    )


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
