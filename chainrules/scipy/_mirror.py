"""What ``chainrules.scipy.special`` and ``chainrules.scipy.linalg`` share: a mirror of a module.

``Mirror(name, module)`` gives a module's ``__getattr__`` and ``__dir__``: an attribute is the
routed function (``chainrules.adapters.routing.routed``) of the SciPy function of the same
name, built at its first use and kept in the module; a SciPy name without rules raises
``AttributeError`` saying so, and ``dir()`` lists the functions that have rules.

>>> import types, scipy.special
>>> mirror = Mirror("demo", scipy.special)
>>> mirror.getattr("gammaln").__name__
'gammaln'
>>> "gammaln" in mirror.dir()
True
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

from .. import rules as _rules  # noqa: F401  (the rules registered before any lookup)
from ..adapters.routing import routed
from ..core.registry import frule, rrule

__all__ = ["Mirror"]


def _has_rules(f: Any) -> bool:
    return callable(f) and (rrule.has_rule(f) or frule.has_rule(f))


class Mirror:
    """The functions with rules of ``module``, as the attributes of the module ``name``."""

    def __init__(self, name: str, module: ModuleType) -> None:
        self.name = name
        self.module = module
        self._names: list[str] | None = None

    def getattr(self, name: str) -> Callable:
        """The routed ``module.<name>``; ``AttributeError`` when it has no rules."""
        source = self.module.__name__
        if name.startswith("__"):
            raise AttributeError(f"module {self.name!r} has no attribute {name!r}")
        f = getattr(self.module, name, None)
        if f is None:
            raise AttributeError(
                f"module {self.name!r} has no attribute {name!r}: {source} has none"
            )
        if not _has_rules(f):
            raise AttributeError(
                f"{self.name}.{name}: {source}.{name} has no rules, so it is not mirrored here; "
                f"call {source}.{name} itself (see `chainrules coverage` for what has rules)"
            )
        mirrored = routed(f, module=source)  # SciPy's name, module, signature and docstring
        if not hasattr(f, "__name__"):  # SciPy 1.16's MultiUFunc objects have none
            mirrored.__name__ = mirrored.__qualname__ = name
        target = sys.modules.get(self.name)
        if target is not None:
            setattr(target, name, mirrored)  # later lookups find it without __getattr__
        return mirrored

    def dir(self) -> list[str]:
        """The names of ``module``'s public functions that have rules, sorted."""
        if self._names is None:
            public = getattr(self.module, "__all__", None) or [
                n for n in vars(self.module) if not n.startswith("_")
            ]
            self._names = sorted(n for n in public if _has_rules(getattr(self.module, n, None)))
        return self._names
