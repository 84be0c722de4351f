"""The record of rule checks that passed, for the coverage report.

Two kinds of entries are kept:

* a passing ``test_rrule`` / ``test_frule`` call adds ``(function, "rrule" or "frule",
  second order or not)`` through ``note_passed``; such a check runs through the reference
  engines, so it also counts as the ``"reference"`` engine, to order 2 when the second
  derivative was checked and to order 1 otherwise;
* a passing check of a function through one engine (the reference engines, or the torch,
  JAX and autograd adapters) adds ``(function, engine, order, reason)`` through
  ``note_engine``; ``reason`` says why the check stops at first order.

The pytest plugin writes both as JSON with ``--chainrules-record PATH``::

    {"schema": "chainrules-test-record/2", "seed": 1234,
     "results": [{"function": "numpy.sin", "kind": "rrule", "second_order": false}, ...],
     "engines": [{"function": "numpy.sin", "engine": "torch", "order": 2, "reason": ""}, ...]}

``results`` is as in schema ``chainrules-test-record/1``; ``engines`` is new in ``/2`` and
already holds the ``"reference"`` entries that ``results`` implies.

A user's function (not in the coverage report's universe, so this example changes no row of
the report when a session records it):

>>> note_passed("mymodule.softplus", "rrule", False)
>>> {"function": "mymodule.softplus", "kind": "rrule", "second_order": False} in recorded()
True
>>> note_engine("mymodule.softplus", "jax", 1, "the rule's pullback calls SciPy on the host")
>>> {"function": "mymodule.softplus", "engine": "reference", "order": 1, "reason": ""} in (
...     recorded_engines())
True
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from chainrules.coverage.record import ENGINES, ORDERS
from chainrules.coverage.record import RECORD_SCHEMA as SCHEMA

__all__ = [
    "ENGINES",
    "SCHEMA",
    "clear_record",
    "note_engine",
    "note_passed",
    "recorded",
    "recorded_engines",
    "write_record",
]

_passed: set[tuple[str, str, bool]] = set()
_engines: set[tuple[str, str, int, str]] = set()
_lock = threading.Lock()


def note_passed(function: str, kind: str, second_order: bool) -> None:
    """Record that a test of ``function``'s ``kind`` rule passed (through the reference engines)."""
    with _lock:
        _passed.add((function, kind, bool(second_order)))
    note_engine(function, "reference", 2 if second_order else 1)


def note_engine(function: str, engine: str, order: int, reason: str = "") -> None:
    """Record a passing check of ``function`` through ``engine`` up to derivative ``order``.

    ``function`` is the qualified name ``chainrules.core.names.function_name`` gives;
    ``engine`` is one of ``ENGINES``; ``order`` is 1 or 2; ``reason`` says why the check
    stops at first order and is empty at order 2. Order 0 records that the engine refuses the
    function with a clear error, given as ``reason``. ``ValueError`` names a value out of
    range.

    >>> note_engine("numpy.cos", "numba", 1)
    Traceback (most recent call last):
    ValueError: note_engine('numpy.cos'): engine must be one of 'reference', 'torch', 'jax', \
'autograd', 'dask', not 'numba'
    """
    where = f"note_engine({function!r})"
    if engine not in ENGINES:
        raise ValueError(
            f"{where}: engine must be one of {', '.join(map(repr, ENGINES))}, not {engine!r}"
        )
    if isinstance(order, bool) or order not in ORDERS:
        raise ValueError(f"{where}: order must be 0, 1 or 2, not {order!r}")
    if order == 0 and not reason:
        raise ValueError(f"{where}: order 0 (refused) needs the error as its reason")
    if order == 2 and reason:
        raise ValueError(f"{where}: a reason is for order 1 only (why it stops there)")
    with _lock:
        _engines.add((function, engine, order, reason))


def recorded() -> list[dict[str, Any]]:
    """The recorded rule tests, sorted, one dict per (function, kind, second order)."""
    with _lock:
        entries = sorted(_passed)
    return [{"function": f, "kind": k, "second_order": s} for f, k, s in entries]


def recorded_engines() -> list[dict[str, Any]]:
    """The recorded engine checks, sorted, one dict per (function, engine, order, reason)."""
    with _lock:
        entries = sorted(_engines)
    return [{"function": f, "engine": e, "order": o, "reason": r} for f, e, o, r in entries]


def clear_record() -> None:
    """Forget everything recorded so far."""
    with _lock:
        _passed.clear()
        _engines.clear()


def write_record(path: str | Path, seed: int | None) -> None:
    """Write the record as JSON (schema ``chainrules-test-record/2``) to ``path``."""
    document = {
        "schema": SCHEMA,
        "seed": seed,
        "results": recorded(),
        "engines": recorded_engines(),
    }
    Path(path).write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
