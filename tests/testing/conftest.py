"""Shared set-up of the harness's tests.

``harness_cases`` (the test bed) is imported by name by the modules next to it; and tests
that look at the record of passing rule tests get an empty one of their own, so that the
session's record, which ``--chainrules-record`` writes, is left as it was.
"""

import sys
from pathlib import Path

import pytest
from chainrules_testing import record

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture
def fresh_record(monkeypatch):
    """An empty record for this test only; the session's is restored afterwards."""
    monkeypatch.setattr(record, "_passed", set())
    return record
