"""Rules for NumPy: arithmetic."""
