"""The record of rules that passing ``test_rrule``/``test_frule`` calls exercised.

Every passing call adds ``(function name, "rrule" or "frule", second order or not)``; the
pytest plugin writes the set as JSON with ``--chainrules-record PATH``, for the coverage
report::

    {"schema": "chainrules-test-record/1", "seed": 1234,
     "results": [{"function": "numpy.sin", "kind": "rrule", "second_order": false}, ...]}

>>> note_passed("numpy.sin", "rrule", False)
>>> {"function": "numpy.sin", "kind": "rrule", "second_order": False} in recorded()
True
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

__all__ = ["SCHEMA", "clear_record", "note_passed", "recorded", "write_record"]

SCHEMA = "chainrules-test-record/1"

_passed: set[tuple[str, str, bool]] = set()
_lock = threading.Lock()


def note_passed(function: str, kind: str, second_order: bool) -> None:
    """Record that a test of ``function``'s ``kind`` rule passed."""
    with _lock:
        _passed.add((function, kind, bool(second_order)))


def recorded() -> list[dict[str, Any]]:
    """The recorded results, sorted, one dict per (function, kind, second order)."""
    with _lock:
        entries = sorted(_passed)
    return [{"function": f, "kind": k, "second_order": s} for f, k, s in entries]


def clear_record() -> None:
    """Forget everything recorded so far."""
    with _lock:
        _passed.clear()


def write_record(path: str | Path, seed: int | None) -> None:
    """Write the record as JSON (schema ``chainrules-test-record/1``) to ``path``."""
    document = {"schema": SCHEMA, "seed": seed, "results": recorded()}
    Path(path).write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
