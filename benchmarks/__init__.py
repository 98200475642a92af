"""Benchmarks of the course: `nox -s bench` (or `python -m benchmarks [NAME ...]`)."""
