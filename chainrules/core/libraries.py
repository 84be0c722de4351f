"""Rule libraries that load on first use: the rules of NumPy load when a NumPy function is
first looked up, those of ``scipy.linalg`` when a ``scipy.linalg`` function is, and so on.

A library is a package of rule modules and a test of which functions it owns. The rule
tables ask ``load_owner(f)`` when a lookup of ``f`` finds nothing; it imports the package of
the pending library that owns ``f`` (if any) and says whether it did, so the lookup tries
again. Everything that asks about all functions at once (``registered_functions()``, the
coverage report, installing every rule into autograd) calls ``load_all()`` first. Either
way the tables end up answering exactly as if every library had been imported at once: a
function's rules all live in its owner's package (a test checks that every registered
function is owned by the library that registers it), and a rule a user registers for a
function of a pending library loads that library first, so that the user's rule comes after
the library's, as it would have.

>>> import math
>>> _ = load_owner(math.exp)       # imports the rules of math and operator, unless loaded
>>> load_owner(math.exp), "python" in pending()
(False, False)
"""

from __future__ import annotations

import importlib
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["Library", "declare_library", "libraries", "load_all", "load_owner", "pending"]


@dataclass(frozen=True)
class Library:
    """A package of rule modules and the functions that are its to register: those defined in
    ``modules`` (a module path or its prefix, ``"numpy"`` covering ``numpy.linalg``), and
    the objects ``owns`` accepts among those that name no module (ufuncs, methods)."""

    name: str
    package: str
    modules: tuple[str, ...]
    owns: Callable[[Any], bool] | None = None

    def defines(self, module: str) -> bool:
        return any(module == m or module.startswith(m + ".") for m in self.modules)


_declared: list[Library] = []
_pending: list[Library] = []  # declared and not yet imported; empty once everything loaded
_by_module: dict[str, Library | None] = {}  # a module's owner, once asked
_lock = threading.RLock()


def declare_library(
    name: str, package: str, modules: tuple[str, ...], owns: Callable[[Any], bool] | None = None
) -> None:
    """Declare the rule library ``package`` (a module path), owner of the functions defined in
    ``modules`` and of the objects without a module that ``owns`` accepts; it is imported on
    the first lookup of such a function."""
    library = Library(name, package, modules, owns)
    with _lock:
        _declared.append(library)
        _by_module.clear()
        if package not in sys.modules:
            _pending.append(library)


def libraries() -> tuple[Library, ...]:
    """Every declared library, loaded or not, in the order of declaration."""
    return tuple(_declared)


def pending() -> tuple[str, ...]:
    """The names of the libraries not loaded yet."""
    return tuple(library.name for library in _pending)


def owner(f: Any) -> Library | None:
    """The declared library that owns ``f``, or None.

    >>> import math
    >>> owner(math.exp).name, owner(lambda x: x)
    ('python', None)
    """
    module = getattr(f, "__module__", None)
    if type(module) is str:
        try:
            return _by_module[module]
        except KeyError:
            found = next((lib for lib in _declared if lib.defines(module)), None)
            _by_module[module] = found
            return found
    return next((lib for lib in _declared if lib.owns is not None and lib.owns(f)), None)


def load_owner(f: Any) -> bool:
    """Import the pending library that owns ``f``; whether one was imported.

    Cheap when nothing is pending (one test of an empty list), and for the functions of a
    program (one lookup of their module): the common lookups that find no rule.
    """
    if not _pending:
        return False
    library = owner(f)
    if library is None or library not in _pending:
        return False
    _load(library)
    return True


def load_owner_before_registering(f: Any) -> None:
    """Before a rule for ``f`` is registered: load ``f``'s library unless its import has
    begun, so a user's rule replaces the library's as it would had the library been imported
    at once (a library's own modules, registering while it imports, load nothing more)."""
    if not _pending:
        return
    library = owner(f)
    if library is not None and library in _pending and library.package not in sys.modules:
        _load(library)


def load_all() -> None:
    """Import every pending library."""
    for library in list(_pending):
        _load(library)


def _load(library: Library) -> None:
    with _lock:
        module = importlib.import_module(library.package)
        # A lookup made while the package imports (by its own modules) finds it half done:
        # it stays pending until its import has finished.
        if getattr(module.__spec__, "_initializing", False):
            return
        if library in _pending:
            _pending.remove(library)
