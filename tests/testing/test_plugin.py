"""The pytest plugin: options, the seed, and the record it writes (run in fresh processes)."""

from __future__ import annotations

import json
import subprocess
import sys

pytest_plugins = ["pytester"]

PASSING_AND_FAILING = """
import numpy as np
import chainrules as cr
from chainrules_testing import test_frule, test_rrule
from chainrules_testing.seeds import session_seed


def _twice(x):
    return 2.0 * x


cr.scalar_rule(_twice, lambda x, y: 2.0)


def _wrong(x):
    return 3.0 * x


cr.scalar_rule(_wrong, lambda x, y: 3.000001)


def test_seed_is_the_session_seed():
    assert session_seed() == 17


def test_passes():
    test_rrule(_twice, np.ones(3))
    test_rrule(_twice, np.ones(3))
    test_frule(_twice, np.ones(3))


def test_fails():
    test_rrule(_wrong, np.ones(3))
"""


def test_options_seed_and_record_are_written_even_when_the_session_fails(pytester):
    pytester.makepyfile(test_rules=PASSING_AND_FAILING)
    record = pytester.path / "record.json"
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--chainrules-seed", "17", "--chainrules-record", str(record)
    )
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["chainrules: seed 17", "*seed=17 reproduces the random draws*"])
    document = json.loads(record.read_text())
    assert document == {
        "schema": "chainrules-test-record/2",
        "seed": 17,
        "results": [
            {"function": "test_rules._twice", "kind": "frule", "second_order": True},
            {"function": "test_rules._twice", "kind": "rrule", "second_order": True},
        ],
        "engines": [
            {"function": "test_rules._twice", "engine": "reference", "order": 2, "reason": ""},
        ],
    }


def test_without_a_seed_the_record_says_null(pytester):
    pytester.makepyfile(
        test_one="""
import numpy as np
from chainrules_testing import test_rrule

def test_sin():
    test_rrule(np.sin, np.ones(2))
"""
    )
    record = pytester.path / "record.json"
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", f"--chainrules-record={record}"
    )
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["chainrules: a fresh seed per test call*"])
    document = json.loads(record.read_text())
    assert document["seed"] is None
    assert document["results"] == [{"function": "numpy.sin", "kind": "rrule", "second_order": True}]


def test_the_plugin_does_not_import_finite_differences():
    code = "import sys, chainrules_testing.plugin; print('numdifftools' in sys.modules)"
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert output.stdout.strip() == "False"


def test_fresh_overrides_a_fixed_seed(pytester):
    pytester.makepyfile(
        test_one="""
from chainrules_testing.seeds import session_seed

def test_fresh():
    assert session_seed() is None
"""
    )
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--chainrules-seed=4", "--chainrules-seed=fresh"
    )
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["chainrules: a fresh seed per test call*"])
