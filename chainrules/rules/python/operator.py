"""Rules for Python's operator module."""
