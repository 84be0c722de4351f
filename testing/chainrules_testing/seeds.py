"""Seeds: each test call draws its random tangents from one integer seed, reported on failure.

``seed=`` passed to a test function wins; otherwise the session seed set by the pytest
option ``--chainrules-seed``; otherwise a fresh seed from the operating system's entropy,
different for every call (and printed in the failure message, so the draw can be repeated
with ``seed=``).

>>> resolve_seed(7)
7
>>> isinstance(resolve_seed(None), int)
True
"""

from __future__ import annotations

import secrets

__all__ = ["resolve_seed", "session_seed", "set_session_seed"]

_session_seed: int | None = None


def set_session_seed(seed: int | None) -> None:
    """Make every test call without ``seed=`` use ``seed`` (``None``: fresh seeds)."""
    global _session_seed
    _session_seed = None if seed is None else int(seed)


def session_seed() -> int | None:
    """The seed set for the session, or ``None``."""
    return _session_seed


def resolve_seed(seed: int | None) -> int:
    """The seed a test call uses: its own, the session's, or a fresh one."""
    if seed is not None:
        return int(seed)
    if _session_seed is not None:
        return _session_seed
    return secrets.randbits(32)
