"""What ``import chainrules`` and a first rule cost, against importing NumPy and SciPy alone.

Each command runs in a fresh interpreter, in turns, several times; the table gives the best
CPU time (user + system, from the operating system's accounting of the child, so that other
work on the machine disturbs it less than wall time) and the best wall time:

* the peer: ``import numpy, scipy.special, scipy.linalg``;
* ``import chainrules`` alone;
* ``import chainrules`` and a first ``rrule(np.sin, x)``, which loads the NumPy rules;
* the same, then a first ``scipy.special`` rule (``gammaln``), which loads the special rules;
* ``chainrules.registered_functions()``, which loads every library.

Byte code is written and used as an installed package would have it (the children run
without ``PYTHONDONTWRITEBYTECODE``; one untimed round writes it). The last lines name the
chainrules modules whose own import costs most (``python -X importtime``).

    python benchmarks/imports.py
    PYTHONPATH=<a checkout of another commit> python benchmarks/imports.py   # that version
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time

PEER = "import numpy, scipy.special, scipy.linalg"
COMMANDS = {
    "numpy + scipy.special + scipy.linalg": PEER,
    "import chainrules": "import chainrules",
    "import chainrules; rrule(np.sin, x)": (
        "import numpy as np, chainrules; chainrules.rrule(np.sin, 0.5)"
    ),
    "... then rrule(gammaln, x)": (
        "import numpy as np, scipy.special as sc, chainrules; chainrules.rrule(np.sin, 0.5); "
        "chainrules.rrule(sc.gammaln, 0.5)"
    ),
    "registered_functions()": "import chainrules; chainrules.registered_functions()",
}
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
# The children run outside any checkout: ``python -c`` puts the working directory first on
# sys.path, ahead of PYTHONPATH, so a run from a checkout would import that checkout's
# chainrules whatever PYTHONPATH names.
WORKDIR = tempfile.gettempdir()


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(code: str) -> tuple[float, float]:
    """(CPU time, wall time) of ``python -c code`` in a fresh interpreter."""
    cpu, wall = _child_cpu(), time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=ENV, cwd=WORKDIR, check=True)
    return _child_cpu() - cpu, time.perf_counter() - wall


def heaviest_modules(code: str, count: int = 8) -> list[tuple[int, str]]:
    """The chainrules modules whose own import costs most (microseconds, self time)."""
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code],
        env=ENV,
        cwd=WORKDIR,
        capture_output=True,
        text=True,
        check=True,
    )
    rows = []
    for line in result.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[2].strip().startswith("chainrules"):
            rows.append((int(parts[0].split(":")[1]), parts[2].strip()))
    return sorted(rows, reverse=True)[:count]


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    for code in COMMANDS.values():
        run(code)  # byte code written, caches warm
    best = {name: (float("inf"), float("inf")) for name in COMMANDS}
    for _ in range(rounds):
        for name, code in COMMANDS.items():
            cpu, wall = run(code)
            best[name] = (min(best[name][0], cpu), min(best[name][1], wall))
    peer_cpu, peer_wall = best["numpy + scipy.special + scipy.linalg"]
    print("| command | CPU | wall | CPU / peer | wall / peer |")
    print("|---|---:|---:|---:|---:|")
    for name, (cpu, wall) in best.items():
        print(
            f"| {name} | {cpu * 1e3:.0f} ms | {wall * 1e3:.0f} ms "
            f"| {cpu / peer_cpu:.2f} | {wall / peer_wall:.2f} |"
        )
    print()
    print("chainrules modules by their own import time, import chainrules; rrule(np.sin, x):")
    for micros, module in heaviest_modules(COMMANDS["import chainrules; rrule(np.sin, x)"]):
        print(f"  {micros / 1e3:6.1f} ms  {module}")


if __name__ == "__main__":
    main()
