"""pytest plugin (filled by the harness)."""
