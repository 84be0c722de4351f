"""Rules for NumPy: products."""
