"""Rules for SciPy functions: ``special/`` and ``linalg/``, two libraries that load apart."""
