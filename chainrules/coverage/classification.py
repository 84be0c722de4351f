"""The classification of functions: statuses, table rows, and the lookup over a reviewed table.

Every function of the universe is classified by one row of the reviewed table
(``table_numpy``, ``table_scipy``, ``table_python``): a category such as ``numpy.linalg``
and a status,

* ``differentiable``: counted in the denominator of coverage;
* ``non-differentiable``: non-differentiable by nature (integer- or boolean-valued,
  predicates, constructors from shapes); the report checks it is declared as such;
* ``out-of-scope``: no rule belongs here (I/O, printing, dtype and memory utilities,
  random generators, in-place mutation, higher-order plumbing);
* ``unclassified``: a function the table does not know yet (a new NumPy or SciPy release).

A row that leaves a function out of the differentiable universe must say why.

>>> row = Row("numpy.logic", NON_DIFFERENTIABLE, "numpy", "isnan isinf", reason="predicates")
>>> table = ClassificationTable([row])
>>> table.lookup("numpy.isnan").category, table.lookup("numpy.sin") is None
('numpy.logic', True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

__all__ = [
    "DIFFERENTIABLE",
    "NON_DIFFERENTIABLE",
    "OUT_OF_SCOPE",
    "STATUSES",
    "UNCLASSIFIED",
    "ClassificationTable",
    "Row",
]

DIFFERENTIABLE = "differentiable"
NON_DIFFERENTIABLE = "non-differentiable"
OUT_OF_SCOPE = "out-of-scope"
UNCLASSIFIED = "unclassified"
STATUSES = (DIFFERENTIABLE, NON_DIFFERENTIABLE, OUT_OF_SCOPE, UNCLASSIFIED)

WILDCARD = "*"  # a row for every function of its module that no other row names


@dataclass(frozen=True)
class Row:
    """One row of the reviewed table: functions of ``module`` sharing a category and status.

    ``names`` is a whitespace-separated string of names inside ``module`` (any alias of a
    function will do), or ``"*"`` for every function of the module that no other row names.
    """

    category: str
    status: str
    module: str
    names: str
    reason: str = ""
    qualified: tuple[str, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.status not in (DIFFERENTIABLE, NON_DIFFERENTIABLE, OUT_OF_SCOPE):
            raise ValueError(f"row {self.category}: unknown status {self.status!r}")
        if self.status != DIFFERENTIABLE and not self.reason.strip():
            raise ValueError(
                f"row {self.category} ({self.status}) leaves functions out of the "
                "differentiable universe, so it needs a reason"
            )
        qualified = tuple(f"{self.module}.{name}" for name in self.names.split())
        object.__setattr__(self, "qualified", qualified)


class ClassificationTable:
    """The reviewed rows, indexed by qualified name; a name listed twice is an error."""

    def __init__(self, rows: Iterable[Row]) -> None:
        self.rows = tuple(rows)
        self._by_name: dict[str, Row] = {}
        self._wildcards: dict[str, Row] = {}
        for row in self.rows:
            if row.names.strip() == WILDCARD:
                self._wildcards[row.module] = row
                continue
            for name in row.qualified:
                if name in self._by_name:
                    raise ValueError(f"{name} is classified twice in the reviewed table")
                self._by_name[name] = row

    def lookup(self, name: str, module: str | None = None) -> Row | None:
        """The row naming ``name``, else the wildcard row of ``module``, else None."""
        row = self._by_name.get(name)
        if row is None and module is not None:
            row = self._wildcards.get(module)
        return row

    def names(self) -> frozenset[str]:
        """Every qualified name the table lists (wildcards aside)."""
        return frozenset(self._by_name)
