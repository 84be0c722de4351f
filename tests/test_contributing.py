"""The rule CONTRIBUTING.md shows, as a new contributor would write it, passes the harness."""

import re
from pathlib import Path

import numpy as np
from chainrules_testing import test_frule, test_rrule

import chainrules.define

GUIDE = Path(__file__).resolve().parents[1] / "CONTRIBUTING.md"


def _example() -> str:
    blocks = re.findall(r"```python\n(.*?)```", GUIDE.read_text(), flags=re.S)
    (example,) = [b for b in blocks if "_cumsum_rrule" in b]
    return "\n".join(line[3:] if line.startswith("   ") else line for line in example.splitlines())


def cumsum(x, axis=None):
    return np.cumsum(x, axis=axis)


def test_the_guide_rule_passes_the_harness():
    # Registered for a copy of np.cumsum, so that the library's own rule stays as it is.
    namespace = {"np": type("np", (), {"cumsum": cumsum})}
    namespace.update(vars(chainrules.define))
    exec(_example(), namespace)
    x = np.random.default_rng(0).standard_normal((3, 4))
    test_rrule(cumsum, x, fkwargs={"axis": 1}, check_second_order=True)
    test_frule(cumsum, x, fkwargs={"axis": 0})
