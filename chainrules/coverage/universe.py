"""The function universe: every public callable of the libraries rules are written for.

The universe is enumerated from the installed libraries themselves, so a new release shows
up here without anyone editing a list: the modules' public names (their ``__all__``, else every
name without a leading underscore), kept when the object is callable and neither a class nor a
module, plus the public methods and properties of ``numpy.ndarray`` and its indexing operators
``__getitem__`` and ``__setitem__``. An object reachable under several names
(``numpy.abs`` and ``numpy.absolute``) is one function with aliases, named as it names itself.

Each function is then classified by the reviewed table (``table_numpy``, ``table_scipy``,
``table_python``); a function the table does not list is ``unclassified``, never dropped.
``chainrules.fastmath`` is part of the universe when it can be imported, and the universe says
so when it cannot.

Classes (dtypes, ``ndarray``, error types, ``numpy.vectorize``) and submodules (``numpy.random``,
``numpy.polynomial``, ``numpy.strings``, ``numpy.ma``, ``numpy.char``, ``numpy.rec``, ``cmath``)
are not enumerated: see ``NOT_ENUMERATED``.

>>> universe = load_universe()
>>> universe.find("numpy.abs").name, universe.find("numpy.abs").category
('numpy.absolute', 'numpy.elementwise')
>>> len(universe.functions) == universe.enumerated_names - universe.duplicate_names
True
"""

from __future__ import annotations

import importlib
import inspect
import types
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from . import table_numpy, table_python, table_scipy
from .classification import UNCLASSIFIED, ClassificationTable, Row

__all__ = [
    "NOT_ENUMERATED",
    "REVIEWED_TABLE",
    "SOURCES",
    "Source",
    "SourceStatus",
    "Universe",
    "UniverseFunction",
    "load_universe",
]

INDEXING_OPERATORS = ("__getitem__", "__setitem__")  # no NumPy function stands behind them

REVIEWED_TABLE = ClassificationTable(table_numpy.ROWS + table_scipy.ROWS + table_python.ROWS)


@dataclass(frozen=True)
class Source:
    """Where functions are enumerated from: a module, or the methods of a class in it."""

    name: str  # the prefix of qualified names: "numpy.linalg", "numpy.ndarray"
    module: str
    methods_of: str | None = None  # enumerate this class's methods and properties instead
    optional: bool = False
    operators: tuple[str, ...] = ()  # dunder methods enumerated as well


SOURCES = (
    Source("numpy", "numpy"),
    Source("numpy.linalg", "numpy.linalg"),
    Source("numpy.fft", "numpy.fft"),
    Source("numpy.ndarray", "numpy", methods_of="ndarray", operators=INDEXING_OPERATORS),
    Source("scipy.special", "scipy.special"),
    Source("scipy.linalg", "scipy.linalg"),
    Source("math", "math"),
    Source("operator", "operator"),
    Source("chainrules.fastmath", "chainrules.fastmath", optional=True),
)

# Left out of the enumeration, by a written reason.
NOT_ENUMERATED = {
    "other operators of ndarray (__add__, __matmul__, ...)": (
        "they dispatch to ufuncs (numpy.add, numpy.matmul), whose rules apply"
    ),
    "classes": "types are not functions: dtypes, ndarray, error classes, numpy.vectorize",
    "numpy.random": "random generators",
    "numpy.polynomial": "polynomial classes; numpy's poly* functions are enumerated",
    "numpy.ma": "masked arrays, a container the rules do not support",
    "numpy.char / numpy.strings / numpy.rec": "string and record arrays have no tangent space",
    "numpy.lib, numpy.testing, numpy.typing, numpy.ctypeslib": "utilities and tooling",
    "ufunc methods (numpy.add.reduce, ...)": "reached through their ufunc; rules register them",
    "cmath": "outside the universe named by the design (complex math goes through numpy)",
}


@dataclass(frozen=True)
class SourceStatus:
    """What enumerating one source gave: how many names, or why it could not be read."""

    name: str
    available: bool
    enumerated: int
    note: str = ""


@dataclass(frozen=True)
class UniverseFunction:
    """One function of the universe, its names and its classification."""

    name: str
    function: Any
    aliases: tuple[str, ...]
    source: str
    category: str
    status: str
    reason: str

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)


@dataclass(frozen=True)
class Universe:
    """The classified functions, with how they were enumerated.

    ``enumerated_names`` counts every (source, name) pair read; ``duplicate_names`` counts
    those that were another name of a function already read, so that
    ``len(functions) == enumerated_names - duplicate_names``. ``conflicts`` lists functions
    that two table rows classify under different names; ``stale`` lists table names that no
    installed function has (a renamed function, or one from another Python version).
    """

    functions: tuple[UniverseFunction, ...]
    sources: tuple[SourceStatus, ...]
    enumerated_names: int
    duplicate_names: int
    conflicts: tuple[str, ...]
    stale: tuple[str, ...]

    def find(self, name: str) -> UniverseFunction | None:
        """The function named ``name`` or one of its aliases."""
        for function in self.functions:
            if name in function.names:
                return function
        return None

    def categories(self) -> tuple[str, ...]:
        return tuple(sorted({f.category for f in self.functions}))


def public_functions(source: Source) -> list[tuple[str, Any]]:
    """The public callables of one source as ``(attribute name, object)`` pairs.

    For a class, its properties count too (``ndarray.T`` computes a transpose).
    """
    module = importlib.import_module(source.module)
    if source.methods_of is not None:
        owner = getattr(module, source.methods_of)
        names: Iterable[str] = dir(owner)
    else:
        owner = module
        names = getattr(module, "__all__", None) or dir(module)
    found = []
    for attr in dict.fromkeys([*names, *source.operators]):  # __all__ may repeat a name
        if attr.startswith("_") and attr not in source.operators:
            continue
        obj = getattr(owner, attr, None)
        computes = callable(obj) or (owner is not module and inspect.isdatadescriptor(obj))
        if obj is None or not computes or isinstance(obj, type | types.ModuleType):
            continue
        found.append((attr, obj))
    return found


def load_universe(
    sources: Sequence[Source] = SOURCES, table: ClassificationTable = REVIEWED_TABLE
) -> Universe:
    """Enumerate ``sources`` and classify every function found with ``table``."""
    statuses = []
    by_id: dict[int, list[tuple[str, str, Any, str]]] = {}  # id -> [(qualified, attr, obj, src)]
    enumerated = 0
    for source in sources:
        try:
            found = public_functions(source)
        except ImportError as error:
            if not source.optional:
                raise
            statuses.append(SourceStatus(source.name, False, 0, f"not importable: {error}"))
            continue
        statuses.append(SourceStatus(source.name, True, len(found)))
        enumerated += len(found)
        for attr, obj in found:
            by_id.setdefault(id(obj), []).append((f"{source.name}.{attr}", attr, obj, source.name))

    functions = []
    conflicts = []
    listed: set[str] = set()
    for entries in by_id.values():
        obj = entries[0][2]
        own_name = getattr(obj, "__name__", None)
        canonical = next((e for e in entries if e[1] == own_name), entries[0])
        names = [canonical[0], *(e[0] for e in entries if e is not canonical)]
        rows = {name: row for name in names if (row := table.lookup(name)) is not None}
        listed.update(rows)
        distinct: list[Row] = list({id(r): r for r in rows.values()}.values())
        if len(distinct) > 1:
            conflicts.append(f"{canonical[0]}: classified as " + ", ".join(rows))
        row = distinct[0] if distinct else table.lookup(canonical[0], module=canonical[3])
        functions.append(
            UniverseFunction(
                name=canonical[0],
                function=obj,
                aliases=tuple(names[1:]),
                source=canonical[3],
                category=row.category if row else UNCLASSIFIED,
                status=row.status if row else UNCLASSIFIED,
                reason=row.reason if row else "not in the reviewed table yet",
            )
        )
    functions.sort(key=lambda f: (f.category, f.name))
    stale = tuple(sorted(table.names() - listed))
    return Universe(
        functions=tuple(functions),
        sources=tuple(statuses),
        enumerated_names=enumerated,
        duplicate_names=enumerated - len(functions),
        conflicts=tuple(conflicts),
        stale=stale,
    )
