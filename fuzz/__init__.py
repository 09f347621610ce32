"""Fuzz harnesses over the Python bindings (atheris); see docs/fuzzing.md."""
