"""The pytest plugin of chainrules_testing (entry point ``pytest11``: ``chainrules``).

Options:

``--chainrules-seed N``
    Every ``test_rrule`` / ``test_frule`` / ``test_scalar`` call without ``seed=`` draws its
    random tangents from seed ``N``. Without it, or with ``--chainrules-seed fresh`` (which
    overrides a seed fixed in a project's ``addopts``), each call draws a fresh seed and
    prints it when it fails.
``--chainrules-record PATH``
    At the end of the session, write to ``PATH`` the JSON record of every rule that a
    passing ``test_rrule`` / ``test_frule`` call exercised and of every passing check through
    an engine that ``chainrules_testing.record.note_engine`` noted (schema
    ``chainrules-test-record/2``, see ``chainrules_testing.record``), also when the session
    fails.

The plugin imports nothing heavy itself; finite differences are imported by the first test
that needs them.

>>> class Config:
...     def getoption(self, name):
...         return 7
>>> pytest_report_header(Config())
'chainrules: seed 7'
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "pytest_addoption",
    "pytest_configure",
    "pytest_report_header",
    "pytest_sessionfinish",
]


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("chainrules", "chainrules rule testing")
    group.addoption(
        "--chainrules-seed",
        type=_seed,
        default=None,
        metavar="N",
        help="seed for the random tangents of every chainrules_testing call, or 'fresh' "
        "for a new one per call (the default)",
    )
    group.addoption(
        "--chainrules-record",
        default=None,
        metavar="PATH",
        help="write JSON of the rules that passing test_rrule/test_frule calls and engine "
        "checks exercised",
    )


def _seed(text: str) -> int | None:
    """The option's value: an integer seed, or None for ``fresh``."""
    return None if text == "fresh" else int(text)


def pytest_configure(config: Any) -> None:
    from .seeds import set_session_seed

    set_session_seed(config.getoption("--chainrules-seed"))


def pytest_report_header(config: Any) -> str:
    seed = config.getoption("--chainrules-seed")
    if seed is None:
        return "chainrules: a fresh seed per test call (fix one with --chainrules-seed N)"
    return f"chainrules: seed {seed}"


def pytest_sessionfinish(session: Any, exitstatus: int) -> None:
    path = session.config.getoption("--chainrules-record")
    if path is None:
        return
    from .record import write_record

    write_record(path, session.config.getoption("--chainrules-seed"))
