"""Rules for NumPy: shape."""
