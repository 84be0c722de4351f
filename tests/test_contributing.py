"""The rule CONTRIBUTING.md shows runs as written and passes the harness, with and without axis."""

import re
import textwrap
import types
from pathlib import Path

import numpy as np

GUIDE = Path(__file__).resolve().parents[1] / "CONTRIBUTING.md"


def _blocks() -> list[str]:
    """The guide's Python blocks, dedented out of their list item."""
    blocks = re.findall(r"```python\n(.*?)```", GUIDE.read_text(), flags=re.S)
    return [textwrap.dedent(block) for block in blocks]


def _block_with(text: str) -> str:
    (block,) = [b for b in _blocks() if text in b]
    return block


def cumsum(a, axis=None):
    return np.cumsum(a, axis=axis)


def test_the_guide_rule_runs_as_written_and_passes_the_harness():
    imports, rules, checks = (
        _block_with(t) for t in ("from chainrules.define import", "_cumsum_rrule", "for fkwargs in")
    )
    namespace: dict = {}
    exec(imports, namespace)  # the module's imports, as written
    # The rules and the checks as written, with ``np.cumsum`` a copy of NumPy's, so that the
    # library's own rule for it stays as it is for the rest of the session.
    numpy_with_a_copy = types.ModuleType("numpy_with_a_copy_of_cumsum")
    numpy_with_a_copy.__dict__.update(vars(np))
    numpy_with_a_copy.cumsum = cumsum
    namespace["np"] = numpy_with_a_copy
    exec(rules, namespace)
    exec(checks, namespace)  # raises a RuleTestFailure if a rule is wrong
    y, pullback = namespace["rrule"](cumsum, np.arange(6.0).reshape(2, 3))
    np.testing.assert_array_equal(y, [0.0, 1.0, 3.0, 6.0, 10.0, 15.0])  # flattened, as NumPy's
    np.testing.assert_array_equal(pullback(np.ones(6))[1], [[6.0, 5.0, 4.0], [3.0, 2.0, 1.0]])


def test_the_guide_shows_where_every_name_of_its_rule_comes_from():
    rules = _block_with("_cumsum_rrule")
    imports = _block_with("from chainrules.define import")
    imported = set(re.findall(r"\b(\w+)\b", imports.split("import", 2)[-1])) | {"np"}
    used = {"NO_TANGENT", "ProjectTo", "array_namespace", "frule", "is_zero", "rrule"}
    assert used <= imported
    assert all(name in rules for name in used)
