"""Rules for NumPy: indexing."""
