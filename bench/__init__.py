"""Benchmarks: what the application adds to the model's own time (`python -m bench`)."""
