"""The second-order sweep: one small float64 call of every function of the rule table.

The adapters' sweep tests (``tests/adapters/test_sweep_*.py``) run each sample through an
engine to first and second order. What is swept is not a hand list: ``swept_functions()`` reads
the registry, so a new rule without a sample fails the completeness test that names it.

* ``Sample(f, args, kwargs, note)``: ``f(*args(rng), **kwargs)`` with arrays of at most four
  elements (2x2 or 3x3 matrices). The float and complex arrays among the arguments, also inside
  lists and tuples, are differentiated; everything else (axes, integer orders, index arrays,
  Python numbers) is a constant.
* ``Limit(order, reason, engines)``: the highest order those engines reach for a function, and
  why. A sweep test checks that the next order indeed fails, so a limit cannot outlive its
  reason.
* ``SAMPLES`` and ``LIMITS`` merge the tables of ``sweep_numpy`` (NumPy, ``numpy.linalg``,
  ``numpy.fft``, ndarray methods, ``math``, ``operator``, ``chainrules.fastmath``) and
  ``sweep_scipy`` (``scipy.special``, ``scipy.linalg``).
* ``sample_call(f, wrap)`` is a sample through an adapter, as a function of the differentiated
  arrays; ``check_to_limit`` checks it order by order up to its limit and records what passed
  (``chainrules_testing.record.note_engine``).

>>> import numpy as np
>>> s = Sample(np.concatenate, lambda rng: ([rng.standard_normal(2), np.ones(2)],))
>>> leaves, rebuild = differentiated(s.args(np.random.default_rng(0)))
>>> len(leaves), [a.shape for a in rebuild([2 * x for x in leaves])[0]]
(2, [(2,), (2,)])
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from chainrules_testing.record import note_engine

import chainrules as cr
from chainrules.core.names import function_name

ENGINES = ("torch", "jax", "autograd")


@dataclass(frozen=True)
class Sample:
    """One small float64 call ``f(*args(rng), **kwargs)``; ``note`` says why it looks so."""

    f: Callable
    args: Callable[[np.random.Generator], tuple]
    kwargs: dict = field(default_factory=dict)
    note: str = ""

    def __str__(self) -> str:
        return function_name(self.f)


@dataclass(frozen=True)
class Limit:
    """The highest derivative order ``engines`` reach for a function, and why not one more.

    ``order`` 1: the first derivative is checked and the second must fail; ``order`` 0: the
    engine cannot run the function at all (allowed only with its reason).
    """

    order: int
    reason: str
    engines: tuple[str, ...] = ENGINES

    def __post_init__(self) -> None:
        if self.order not in (0, 1) or not self.reason:
            raise ValueError(f"a Limit is of order 0 or 1 and says why: {self!r}")
        unknown = set(self.engines) - set(ENGINES)
        if unknown:
            raise ValueError(f"unknown engines {sorted(unknown)} in {self!r}")


def swept_functions() -> list[Any]:
    """Every function with a coverage row that has a differentiable rrule, sorted by name.

    The rows are the registry's (``rrule`` true, neither non-differentiable nor opted out)
    among the functions the installed libraries have (the coverage universe). Private helpers
    that rules register for themselves (``scipy.special._lambertw``, the quadratures of
    ``betainc``) have no row of their own: they are swept through the public functions whose
    derivatives call them.
    """
    from chainrules.coverage.universe import load_universe

    public = {id(u.function) for u in load_universe().functions}
    return [
        info.function
        for info in cr.registered_functions()
        if info.rrule
        and not info.non_differentiable
        and not info.opted_out
        and id(info.function) in public
    ]


def is_differentiated(value: Any) -> bool:
    """Whether a sample's argument is differentiated: a float or complex NumPy array."""
    return isinstance(value, np.ndarray) and value.dtype.kind in "fc"


def differentiated(args: tuple) -> tuple[list[Any], Callable[[list[Any]], tuple]]:
    """The differentiated arrays of ``args`` (also inside lists and tuples), and a function
    putting others (an engine's arrays) in their places."""
    leaves: list[Any] = []

    def walk(value: Any) -> Any:
        if is_differentiated(value):
            leaves.append(value)
            return len(leaves) - 1
        if isinstance(value, list | tuple):
            return type(value)(walk(v) for v in value)
        return _Constant(value)

    template = walk(tuple(args))

    def rebuild(values: list[Any]) -> tuple:
        def fill(node: Any) -> Any:
            if isinstance(node, int):
                return values[node]
            if isinstance(node, _Constant):
                return node.value
            return type(node)(fill(n) for n in node)

        return fill(template)

    return leaves, rebuild


@dataclass(frozen=True)
class _Constant:
    value: Any


def sample_call(f: Any, wrap: Callable[[Any], Callable]) -> tuple[Callable, list[Any]]:
    """``f``'s sample as a function of its differentiated arrays, through ``wrap(f)`` (an
    adapter's), and those arrays (NumPy's: the engine converts them)."""
    sample = _tables()[0][f]
    leaves, rebuild = differentiated(sample.args(np.random.default_rng(0)))
    wrapped = wrap(f)

    def run(*values: Any) -> Any:
        return wrapped(*rebuild(list(values)), **sample.kwargs)

    return run, leaves


def check_to_limit(
    f: Any, engine: str, check: Callable[[int], None], reaches: Callable[[int], bool]
) -> None:
    """The sweep's check of ``f`` through ``engine``, and its record for the coverage report.

    ``check(order)`` asserts that derivatives of that order are right; ``reaches(order)`` says
    whether they are (``False`` also when the engine refuses the order with an error). Order
    1, then order 2, unless ``f``'s limit stops the engine earlier: then the order after the
    limit must fail, so that a limit cannot outlive its reason.
    """
    name = function_name(f)
    stop = limit(f, engine)
    if stop is not None and stop.order == 0:
        assert not reaches(1), f"{name} runs through {engine}: stale limit ({stop.reason})"
        return
    check(1)
    if stop is not None:
        assert not reaches(2), (
            f"{name} goes to second order through {engine}: its limit ({stop.reason}) no "
            "longer holds"
        )
        note_engine(name, engine, 1, stop.reason)
        return
    check(2)
    note_engine(name, engine, 2)


def limit(f: Any, engine: str) -> Limit | None:
    """The limit of ``f`` through ``engine``, ``None`` when it goes to second order. A table
    entry is one ``Limit`` or a tuple of them, for engines that stop at different orders."""
    found = _tables()[1].get(f, ())
    limits = found if isinstance(found, tuple) else (found,)
    return next((one for one in limits if engine in one.engines), None)


# ---- the merged tables ---------------------------------------------------------------------
# Merged at first use, not at import: the family modules import this one for Sample and Limit.


@functools.cache
def _tables() -> tuple[dict[Any, Sample], dict[Any, Limit]]:
    from sweep_numpy import LIMITS as NUMPY_LIMITS
    from sweep_numpy import SAMPLES as NUMPY_SAMPLES
    from sweep_scipy import LIMITS as SCIPY_LIMITS
    from sweep_scipy import SAMPLES as SCIPY_SAMPLES

    return {**NUMPY_SAMPLES, **SCIPY_SAMPLES}, {**NUMPY_LIMITS, **SCIPY_LIMITS}


def __getattr__(name: str) -> Any:
    """``SAMPLES`` and ``LIMITS``: the merged tables, ``dict[function, Sample]`` and
    ``dict[function, Limit]``."""
    if name == "SAMPLES":
        return _tables()[0]
    if name == "LIMITS":
        return _tables()[1]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
