"""Timing helpers the benchmarks share: best-of-n times and PyTorch's autograd as a peer.

The benchmarks run as scripts (``python benchmarks/elementwise.py``), so they import this
module by its plain name, from the folder they stand in.

>>> best_time(lambda: None, number=2, repeat=3) >= 0.0
True
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import timeit
from collections.abc import Callable, Sequence
from typing import Any


def best_time(fn: Callable[[], Any], number: int = 1, repeat: int = 7, warm: bool = False) -> float:
    """The time of one call of ``fn``: the best of ``repeat`` rounds of ``number`` calls.

    ``warm``: call ``fn`` once first, untimed (caches, lazy imports, compilation).
    """
    if warm:
        fn()
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def best_times_taking_turns(
    fns: Sequence[Callable[[], Any]],
    number: int,
    rounds: int = 9,
    timer: Callable[[], float] = timeit.default_timer,
) -> list[float]:
    """Best time per call of each function, the functions taking turns in every round.

    Each function is called once first, untimed (caches, lazy imports, compilation). The order
    alternates from round to round, so that no function always runs first or last, and a
    shared machine's load moves every function's time alike. ``timer``: the clock, by default
    the wall clock (``time.process_time`` counts the CPU time of the process's threads alone).
    """
    for fn in fns:
        fn()
    best = [float("inf")] * len(fns)
    order = list(range(len(fns)))
    for _ in range(rounds):
        for i in order:
            best[i] = min(best[i], timeit.timeit(fns[i], number=number, timer=timer) / number)
        order.reverse()
    return best


def torch_on_one_thread() -> Any:
    """The ``torch`` module set to one thread, or None when PyTorch is not installed."""
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(1)
    return torch


def gradient_ratio(
    value: Callable[[], Any], value_and_gradient: Callable[[], Any], number: int = 1
) -> float:
    """The best time of ``value_and_gradient`` over that of ``value``, after one warm-up call."""
    value_and_gradient()
    return best_time(value_and_gradient, number) / best_time(value, number)


def library_versions(*names: str) -> str:
    """The versions of the libraries named that are installed: ``numpy 2.4.6, scipy 1.17.1``."""
    found = [n for n in names if importlib.util.find_spec(n)]
    return ", ".join(f"{n} {importlib.metadata.version(n)}" for n in found)
