"""Rules for Python's math module."""
