"""Rule configs: what an AD engine tells the rules it calls about itself.

An engine subclasses ``RuleConfig`` together with the capabilities it has::

    class ReverseConfig(RuleConfig, HasReverseMode):
        def rrule_via_ad(self, f, *args, **kwargs): ...   # differentiate f with this engine

and calls rules through its instance, ``config.rrule(f, *args)``. Rules registered with
``needs=HasReverseMode`` receive the config as their first argument and may call
``config.rrule_via_ad`` on functions they are given (``map``, ``reduce`` with a user function).

>>> from chainrules.core.registry import rrule
>>> class Plain(RuleConfig): pass
>>> Plain().rrule(len, [1, 2]) is None
True
"""

from __future__ import annotations

from typing import Any

from .errors import MissingCapabilityError
from .registry import frule, function_name, rrule

__all__ = ["HasForwardMode", "HasReverseMode", "RuleConfig"]


class HasReverseMode:
    """Capability: the engine can differentiate any function in reverse mode (``rrule_via_ad``)."""

    __slots__ = ()


class HasForwardMode:
    """Capability: the engine can differentiate any function in forward mode (``frule_via_ad``)."""

    __slots__ = ()


class RuleConfig:
    """Base of every engine's config; the rules it calls may read its capabilities."""

    __slots__ = ()

    def rrule(self, f: Any, *args: Any, **kwargs: Any) -> Any:
        """``rrule(f, *args, **kwargs)`` seen by this config: rules that need it apply too."""
        return rrule._run(f, args, kwargs, self, ())

    def frule(self, tangents: tuple, f: Any, *args: Any, **kwargs: Any) -> Any:
        """``frule(tangents, f, *args, **kwargs)`` seen by this config."""
        return frule._run(f, args, kwargs, self, (tangents,))

    def rrule_via_ad(self, f: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
        """``(y, pullback)`` for any ``f``, computed by this engine's reverse mode."""
        raise MissingCapabilityError(
            f"{type(self).__name__} cannot differentiate {function_name(f)} in reverse mode: "
            "it does not have HasReverseMode"
        )

    def frule_via_ad(self, tangents: tuple, f: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
        """``(y, dy)`` for any ``f``, computed by this engine's forward mode."""
        raise MissingCapabilityError(
            f"{type(self).__name__} cannot differentiate {function_name(f)} in forward mode: "
            "it does not have HasForwardMode"
        )
