"""Rules for NumPy: reductions."""
