"""Rules for NumPy: constructors."""
