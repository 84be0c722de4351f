"""Shared set-up of the harness's tests: tests that look at the record of passing rule tests
get an empty one of their own, so that the session's record, which ``--chainrules-record``
writes, is left as it was.
"""

import pytest
from chainrules_testing import record


@pytest.fixture
def fresh_record(monkeypatch):
    """An empty record for this test only; the session's is restored afterwards."""
    monkeypatch.setattr(record, "_passed", set())
    monkeypatch.setattr(record, "_engines", set())
    return record
