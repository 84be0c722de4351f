"""Rules for NumPy: sorting."""
