"""What is run from a source checkout and never installed: the bench (``python -m tools.bench``)
and the arm64 check (``arm64-check``, ``arm64_compare.py``). Not in the wheel (pyproject.toml);
nothing in companion/, hardware/ or ui/ imports it (tests/test_layers.py)."""
