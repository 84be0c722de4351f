"""Rules for NumPy: statistics."""
