"""Lets the tests beside this file import their shared row format, ``array_samples``.

The suite runs with ``--import-mode=importlib``, which keeps test directories off
``sys.path``; the table helpers are plain code, not fixtures, because the tables are built at
import time for ``pytest.mark.parametrize``.
"""

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
