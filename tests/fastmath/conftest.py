"""What the fastmath tests share: running a test under each of the two implementations."""

import pytest

from chainrules.fastmath import choice


@pytest.fixture(params=["kernel", "twin"])
def every_choice(request, monkeypatch):
    """Every fast function computed by its kernel, then by its twin (CHAINRULES_FASTMATH_CHOICE)."""
    monkeypatch.setenv(choice.ENVIRONMENT_VARIABLE, request.param)
    choice.forget()
    yield request.param
    monkeypatch.undo()
    choice.forget()
