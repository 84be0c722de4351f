"""The harness's test bed, ``harness_cases``, is imported by name by the modules next to it."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
