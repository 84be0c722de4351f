"""Rules for NumPy: fft."""
