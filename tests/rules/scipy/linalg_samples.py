"""Sampling and checks shared by the tests of the ``scipy.linalg`` rules: dtypes, their ids,
matrices, and the pair of rule checks with their second-order exceptions."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from chainrules_testing import test_frule, test_rrule

DTYPES = [np.float64, np.complex128]


def ids(dtype: Any) -> str:
    """The test id of a dtype: its name."""
    return np.dtype(dtype).name


def sample(shape: tuple[int, ...], dtype: Any = np.float64, seed: int = 0) -> Any:
    """A standard normal array of ``shape`` (complex dtypes: independent parts), by ``seed``."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def draw(shape: tuple[int, ...], dtype: Any = np.float64, seed: int = 0) -> Any:
    """``sample`` at seeds from 1000 on: the inputs of the decomposition tests."""
    return sample(shape, dtype, 1000 + seed)


def check_both(f: Any, *args: Any, **kwargs: Any) -> None:
    """``test_rrule`` and ``test_frule`` of ``f`` with the same arguments and options."""
    test_rrule(f, *args, **kwargs)
    test_frule(f, *args, **kwargs)


def check_factors(f: Any, *args: Any, **kwargs: Any) -> None:
    """``check_both`` without second order unless asked: LAPACK computes the factors of
    hessenberg, qz, ordqz and rsf2csf, and tracked values cannot pass through it."""
    kwargs.setdefault("check_second_order", False)
    check_both(f, *args, **kwargs)


def rule_checker(no_second_order: Mapping[Any, str]) -> Callable[..., None]:
    """``check_rules(f, *args, **kwargs)``: ``test_rrule`` and ``test_frule`` of ``f``, the
    second-order checks included unless ``no_second_order`` gives the reason they are not
    available for ``f``."""

    def check_rules(f: Any, *args: Any, **kwargs: Any) -> None:
        check_both(f, *args, check_second_order=f not in no_second_order, **kwargs)

    return check_rules
