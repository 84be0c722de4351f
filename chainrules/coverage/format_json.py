"""The report as JSON, for machines, with its schema and a small validator for that schema.

The document follows ``SCHEMA``, a JSON Schema (draft 2020-12) that uses only ``type``,
``properties``, ``required``, ``additionalProperties``, ``items``, ``enum``, ``const``,
``minimum`` and ``maximum``; ``validate`` checks exactly that subset, so no dependency is
needed, and any JSON Schema validator accepts the same schema. Percentages are numbers from 0
to 100; ``null`` means unknown (no test results were read) or undefined (no differentiable
function in the category).

Each function has ``engines``, an object with one entry per engine of ``ENGINES``:
``{"state": ..., "order": ..., "reason": ...}``, ``state`` one of
``chainrules.coverage.reach.STATES``, ``order`` 1 or 2 exactly when ``state`` is ``tested``
(else ``null``), ``reason`` why a first-order check stops there (else ``""``). Each totals
object has ``engines`` too: per engine ``{"second_order": ..., "first_order": ...,
"reached": ...}``, counts of the differentiable functions tested there to order 2, to order 1
only (both ``null`` when unknown), and reached. ``partials`` counts partial derivatives of
the elementwise functions (``chainrules.coverage.partials``): ``{"total", "given",
"not_implemented"}``, a function's with the ``reasons`` of those not implemented; ``null``
where none was counted.

>>> from chainrules.coverage.report import Report, totals
>>> report = Report(rows=(), categories=(), total=totals("total", [], False), record=None)
>>> document = to_document(report)
>>> document["schema"], document["total"]["coverage"], validate(document)
('chainrules-coverage/3', None, [])
"""

from __future__ import annotations

import json
from typing import Any

from .classification import STATUSES
from .partials import Partials
from .reach import ENGINES, STATES
from .report import FunctionRow, Report, Totals

__all__ = ["JSON_SCHEMA_ID", "SCHEMA", "render_json", "to_document", "validate"]

JSON_SCHEMA_ID = "chainrules-coverage/3"

_COUNT = {"type": "integer", "minimum": 0}
_MAYBE_COUNT = {"type": ["integer", "null"], "minimum": 0}
_PERCENT = {"type": ["number", "null"], "minimum": 0, "maximum": 100}
_MAYBE_BOOL = {"type": ["boolean", "null"]}
_STRINGS = {"type": "array", "items": {"type": "string"}}


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _per_engine(entry: dict[str, Any]) -> dict[str, Any]:
    return _object({engine: entry for engine in ENGINES})


_ENGINE_TOTALS = _per_engine(
    _object({"second_order": _MAYBE_COUNT, "first_order": _MAYBE_COUNT, "reached": _COUNT})
)
_ENGINE_REACH = _per_engine(
    _object(
        {
            "state": {"type": "string", "enum": list(STATES)},
            "order": {"type": ["integer", "null"], "minimum": 1, "maximum": 2},
            "reason": {"type": "string"},
        }
    )
)

_PARTIALS_FIELDS = {"total": _COUNT, "given": _COUNT, "not_implemented": _COUNT}
_PARTIALS = {**_object(_PARTIALS_FIELDS), "type": ["object", "null"]}
_FUNCTION_PARTIALS = {
    **_object({**_PARTIALS_FIELDS, "reasons": _STRINGS}),
    "type": ["object", "null"],
}

_TOTALS = _object(
    {
        "category": {"type": "string"},
        "functions": _COUNT,
        "differentiable": _COUNT,
        "non_differentiable": _COUNT,
        "out_of_scope": _COUNT,
        "unclassified": _COUNT,
        "with_rrule": _COUNT,
        "with_frule": _COUNT,
        "with_both_rules": _COUNT,
        "declared_non_differentiable": _COUNT,
        "tested": _MAYBE_COUNT,
        "tested_second_order": _MAYBE_COUNT,
        "coverage": _PERCENT,
        "rule_coverage": _PERCENT,
        "engines": _ENGINE_TOTALS,
        "partials": _PARTIALS,
    }
)

_FUNCTION = _object(
    {
        "name": {"type": "string"},
        "aliases": _STRINGS,
        "category": {"type": "string"},
        "status": {"type": "string", "enum": list(STATUSES)},
        "reason": {"type": "string"},
        "rrule": {"type": "boolean"},
        "frule": {"type": "boolean"},
        "non_differentiable": {"type": "boolean"},
        "opted_out": {"type": "boolean"},
        "tested": _object(
            {"rrule": _MAYBE_BOOL, "frule": _MAYBE_BOOL, "second_order": _MAYBE_BOOL}
        ),
        "covered": _MAYBE_BOOL,
        "engines": _ENGINE_REACH,
        "partials": _FUNCTION_PARTIALS,
    }
)

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "chainrules coverage report",
    **_object(
        {
            "schema": {"const": JSON_SCHEMA_ID},
            "environment": {"type": "object", "additionalProperties": {"type": "string"}},
            "results": _object(
                {
                    "known": {"type": "boolean"},
                    "path": {"type": ["string", "null"]},
                    "seed": {"type": ["integer", "null"]},
                }
            ),
            "filter": _STRINGS,
            "sources": {
                "type": "array",
                "items": _object(
                    {
                        "name": {"type": "string"},
                        "available": {"type": "boolean"},
                        "enumerated": _COUNT,
                        "note": {"type": "string"},
                    }
                ),
            },
            "total": _TOTALS,
            "categories": {"type": "array", "items": _TOTALS},
            "functions": {"type": "array", "items": _FUNCTION},
            "outside_universe": {
                "type": "array",
                "items": _object(
                    {
                        "name": {"type": "string"},
                        "rrule": {"type": "boolean"},
                        "frule": {"type": "boolean"},
                        "non_differentiable": {"type": "boolean"},
                        "opted_out": {"type": "boolean"},
                    }
                ),
            },
            "notes": _object(
                {
                    "conflicts": _STRINGS,
                    "stale": _STRINGS,
                    "unavailable": _STRINGS,
                    "disagreements": _STRINGS,
                }
            ),
        }
    ),
}


def _percent(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _totals(t: Totals) -> dict[str, Any]:
    return {
        "category": t.category,
        "functions": t.functions,
        "differentiable": t.differentiable,
        "non_differentiable": t.non_differentiable,
        "out_of_scope": t.out_of_scope,
        "unclassified": t.unclassified,
        "with_rrule": t.with_rrule,
        "with_frule": t.with_frule,
        "with_both_rules": t.with_both_rules,
        "declared_non_differentiable": t.declared_non_differentiable,
        "tested": t.tested,
        "tested_second_order": t.tested_second_order,
        "coverage": _percent(t.coverage),
        "rule_coverage": _percent(t.rule_coverage),
        "engines": {
            e.engine: {
                "second_order": e.second_order,
                "first_order": e.first_order,
                "reached": e.reached,
            }
            for e in t.engines
        },
        "partials": _partials(t.partials, reasons=False),
    }


def _partials(p: Partials | None, reasons: bool) -> dict[str, Any] | None:
    if p is None:
        return None
    found: dict[str, Any] = {
        "total": p.total,
        "given": p.given,
        "not_implemented": p.not_implemented,
    }
    if reasons:
        found["reasons"] = list(p.reasons)
    return found


def _function(r: FunctionRow) -> dict[str, Any]:
    return {
        "name": r.name,
        "aliases": list(r.aliases),
        "category": r.category,
        "status": r.status,
        "reason": r.reason,
        "rrule": r.rrule,
        "frule": r.frule,
        "non_differentiable": r.non_differentiable,
        "opted_out": r.opted_out,
        "tested": {
            "rrule": r.tested_rrule,
            "frule": r.tested_frule,
            "second_order": r.tested_second_order,
        },
        "covered": r.covered,
        "engines": {
            e.engine: {"state": e.state, "order": e.order, "reason": e.reason} for e in r.engines
        },
        "partials": _partials(r.partials, reasons=True),
    }


def to_document(report: Report) -> dict[str, Any]:
    """The report as a JSON-ready dict following ``SCHEMA``."""
    record = report.record
    return {
        "schema": JSON_SCHEMA_ID,
        "environment": dict(report.environment),
        "results": {
            "known": record is not None,
            "path": record.path if record is not None else None,
            "seed": record.seed if record is not None else None,
        },
        "filter": list(report.selected),
        "sources": [
            {"name": s.name, "available": s.available, "enumerated": s.enumerated, "note": s.note}
            for s in report.sources
        ],
        "total": _totals(report.total),
        "categories": [_totals(t) for t in report.categories],
        "functions": [_function(r) for r in report.rows],
        "outside_universe": [
            {
                "name": o.name,
                "rrule": o.rrule,
                "frule": o.frule,
                "non_differentiable": o.non_differentiable,
                "opted_out": o.opted_out,
            }
            for o in report.outside
        ],
        "notes": {
            "conflicts": list(report.conflicts),
            "stale": list(report.stale),
            "unavailable": list(report.unavailable),
            "disagreements": [r.name for r in report.disagreements],
        },
    }


def render_json(report: Report) -> str:
    return json.dumps(to_document(report), indent=2) + "\n"


# ---- a validator for the subset of JSON Schema that SCHEMA uses ----------------------------

_TYPES: dict[str, Any] = {
    "object": dict,
    "array": list,
    "string": str,
    "boolean": bool,
    "null": type(None),
    "integer": int,
    "number": (int, float),
}


def _is_type(value: Any, name: str) -> bool:
    if name in ("integer", "number") and isinstance(value, bool):
        return False
    return isinstance(value, _TYPES[name])


def validate(document: Any, schema: dict[str, Any] = SCHEMA, path: str = "$") -> list[str]:
    """The ways ``document`` breaks ``schema``, one message each; empty when it conforms."""
    errors: list[str] = []
    if "const" in schema and document != schema["const"]:
        errors.append(f"{path}: expected {schema['const']!r}, found {document!r}")
    if "enum" in schema and document not in schema["enum"]:
        errors.append(f"{path}: {document!r} is not one of {schema['enum']}")
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_is_type(document, n) for n in names):
            return [*errors, f"{path}: expected {' or '.join(names)}, found {document!r:.60}"]
    if isinstance(document, int | float) and not isinstance(document, bool):
        if "minimum" in schema and document < schema["minimum"]:
            errors.append(f"{path}: {document} is below {schema['minimum']}")
        if "maximum" in schema and document > schema["maximum"]:
            errors.append(f"{path}: {document} is above {schema['maximum']}")
    if isinstance(document, dict):
        properties = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in document:
                errors.append(f"{path}: missing {key!r}")
        extra = schema.get("additionalProperties", True)
        for key, value in document.items():
            if key in properties:
                errors.extend(validate(value, properties[key], f"{path}.{key}"))
            elif extra is False:
                errors.append(f"{path}: unexpected {key!r}")
            elif isinstance(extra, dict):
                errors.extend(validate(value, extra, f"{path}.{key}"))
    if isinstance(document, list) and "items" in schema:
        for i, item in enumerate(document):
            errors.extend(validate(item, schema["items"], f"{path}[{i}]"))
    return errors
