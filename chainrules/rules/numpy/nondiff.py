"""Rules for NumPy: nondiff."""
