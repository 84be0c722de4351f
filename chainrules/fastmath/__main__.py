"""``python -m chainrules.fastmath``: what computes each fast function on this machine, and why.

Prints one row per function and dtype: ``kernel`` or ``twin``, what decided it and, where a
calibration decided, the twin's time over the kernel's. ``--calibrate`` measures what this
machine's cache lacks first; ``--refresh`` measures everything again.

>>> import numpy as np
>>> from chainrules.fastmath import choice
>>> rows({"exp": {np.float32: choice.Choice(True, "calibrated", 1.71)}})
['exp float32 kernel calibrated (twin time / kernel time 1.71)']
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from . import choice


def rows(table: dict[str, dict[type, choice.Choice]]) -> list[str]:
    """One line per function and dtype of ``table`` (as ``choice.table()`` gives it)."""
    lines = []
    for name, by_dtype in table.items():
        for dtype, chosen in by_dtype.items():
            what = "kernel" if chosen.kernel else "twin"
            line = f"{name} {np.dtype(dtype).name} {what} {chosen.source}"
            if chosen.speedup is not None:
                line += f" (twin time / kernel time {chosen.speedup:.2f})"
            lines.append(line)
    return lines


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m chainrules.fastmath", description=__doc__)
    parser.add_argument("--calibrate", action="store_true", help="measure what is not cached")
    parser.add_argument("--refresh", action="store_true", help="measure everything again")
    options = parser.parse_args(argv)
    try:
        if options.calibrate or options.refresh:
            table = choice.calibrate(refresh=options.refresh)
        else:
            table = choice.table()
    except (OSError, RuntimeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print("\n".join(rows(table)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
