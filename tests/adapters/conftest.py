"""Shared set-up of the adapters' tests: ``adapter_cases`` is imported by name next to it."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
