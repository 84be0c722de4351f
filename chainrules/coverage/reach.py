"""How far each engine goes with a function: tested to order 2 or 1, reached, or not at all.

One rule table serves five engines, each reaching a function's rules by its own route:

* ``reference``: the reverse and forward engines, through NumPy's ``__array_ufunc__`` /
  ``__array_function__`` protocols, the ``chainrules.scipy`` namespaces and
  ``chainrules.engines.call``;
* ``torch`` and ``jax``: ``chainrules.adapters.torch.wrap`` / ``jax.wrap`` and the
  ``chainrules.scipy`` namespaces;
* ``autograd``: ``chainrules.adapters.autograd.install()`` for the functions autograd has a
  primitive for, ``chainrules.adapters.autograd.wrap`` for the others;
* ``dask``: the reference engines and ``rrule``/``frule`` given dask arrays, where a rule either
  computes lazily or refuses with an error naming the function.

So whether an engine *reaches* a function follows from the registry alone: every engine
reaches every function with a differentiating rule (an rrule or an frule that is not a
non-differentiable declaration). Whether it was *tested* there, and to which derivative order,
comes from the test record. One function's state in one engine is one of ``STATES``:

* ``tested``, shown ``2`` or ``1``: a recorded check passed through the engine up to that
  derivative order; at 1 the record may say why it stops there (``reason``);
* ``refused``, shown ``error``: a recorded check found the engine refusing the function with a
  clear error (``reason``), as the dask column does for rules that cannot run lazily;
* ``reached``, shown ``reached``: the engine reaches the rules, no recorded check ran there;
* ``unknown``, shown ``?``: the engine reaches the rules, no test record was read;
* ``unreachable``, shown ``-``: no rule, so the engine cannot differentiate the function;
* ``non-differentiable``, shown ``n/a``: classified or declared non-differentiable, so there
  is no derivative to reach.

>>> from chainrules.coverage.record import EngineCheck, TestRecord
>>> record = TestRecord(seed=None, engines={"numpy.sin": {"torch": EngineCheck(1, ("why",))}})
>>> [reach.text for reach in engine_reaches(("numpy.sin",), True, False, record)]
['reached', '1', 'reached', 'reached', 'reached']
>>> [reach.text for reach in engine_reaches(("numpy.sin",), True, False, None)]
['?', '?', '?', '?', '?']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .record import ENGINES, TestRecord

__all__ = [
    "ENGINES",
    "NOT_DIFFERENTIABLE",
    "REACHED",
    "REFUSED",
    "STATES",
    "TESTED",
    "UNKNOWN",
    "UNREACHABLE",
    "EngineReach",
    "EngineTotals",
    "engine_reaches",
    "engine_totals",
]

TESTED, REACHED, UNKNOWN = "tested", "reached", "unknown"
UNREACHABLE, NOT_DIFFERENTIABLE, REFUSED = "unreachable", "non-differentiable", "refused"
STATES = (TESTED, REACHED, UNKNOWN, UNREACHABLE, NOT_DIFFERENTIABLE, REFUSED)
_SHOWN = {
    REACHED: "reached",
    UNKNOWN: "?",
    UNREACHABLE: "-",
    NOT_DIFFERENTIABLE: "n/a",
    REFUSED: "error",
}


@dataclass(frozen=True)
class EngineReach:
    """One function in one engine: its state, the order tested (1 or 2), why it stops at 1."""

    engine: str
    state: str
    order: int | None = None  # set exactly when state is TESTED
    reason: str = ""

    @property
    def text(self) -> str:
        """The cell every human-readable format shows (see the module docstring)."""
        return str(self.order) if self.state == TESTED else _SHOWN[self.state]

    @property
    def reached(self) -> bool:
        return self.state in (TESTED, REACHED, UNKNOWN)


def engine_reaches(
    names: Sequence[str],
    differentiating: bool,
    non_differentiable: bool,
    record: TestRecord | None,
) -> tuple[EngineReach, ...]:
    """One ``EngineReach`` per engine of ``ENGINES``, in that order, for a function.

    ``names`` are the function's names (its aliases and its registry name), under any of which
    the record may list checks; ``differentiating`` says it has an rrule or an frule that is
    not a non-differentiable declaration; ``non_differentiable`` that it is classified or
    declared non-differentiable; ``record`` is ``None`` when no test results were read.
    """
    reaches = []
    for engine in ENGINES:
        check = record.engine_check_of_any(names, engine) if record is not None else None
        if non_differentiable:
            reaches.append(EngineReach(engine, NOT_DIFFERENTIABLE))
        elif check is not None and check.refused:
            reaches.append(EngineReach(engine, REFUSED, None, check.reason))
        elif check is not None:
            reaches.append(EngineReach(engine, TESTED, check.order, check.reason))
        elif differentiating:
            reaches.append(EngineReach(engine, REACHED if record is not None else UNKNOWN))
        else:
            reaches.append(EngineReach(engine, UNREACHABLE))
    return tuple(reaches)


@dataclass(frozen=True)
class EngineTotals:
    """Counts for one engine over a category's differentiable functions (``None``: unknown)."""

    engine: str
    second_order: int | None  # tested to order 2
    first_order: int | None  # tested to order 1 only
    reached: int  # reached, tested or not

    @property
    def text(self) -> str:
        """``2nd / 1st / reached``, each count or ``?``."""
        known = ["?" if n is None else str(n) for n in (self.second_order, self.first_order)]
        return f"{known[0]} / {known[1]} / {self.reached}"


def engine_totals(
    reaches: Sequence[Sequence[EngineReach]], known: bool
) -> tuple[EngineTotals, ...]:
    """The ``EngineTotals`` per engine of the rows whose reaches are ``reaches``."""
    totals = []
    for i, engine in enumerate(ENGINES):
        column = [row[i] for row in reaches]
        orders = [r.order for r in column if r.state == TESTED]
        totals.append(
            EngineTotals(
                engine=engine,
                second_order=orders.count(2) if known else None,
                first_order=orders.count(1) if known else None,
                reached=sum(r.reached for r in column),
            )
        )
    return tuple(totals)
