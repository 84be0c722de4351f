"""Timing helpers the benchmarks share: best-of-n times and PyTorch's autograd as a peer.

The benchmarks run as scripts (``python benchmarks/elementwise.py``), so they import this
module by its plain name, from the folder they stand in.

>>> best_time(lambda: None, number=2, repeat=3) >= 0.0
True
"""

from __future__ import annotations

import timeit
from collections.abc import Callable
from typing import Any


def best_time(fn: Callable[[], Any], number: int = 1, repeat: int = 7, warm: bool = False) -> float:
    """The time of one call of ``fn``: the best of ``repeat`` rounds of ``number`` calls.

    ``warm``: call ``fn`` once first, untimed (caches, lazy imports, compilation).
    """
    if warm:
        fn()
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


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
