"""The course's own tools, run from the repository root: `python -m tools.notebooks`,
`python tools/serve.py`; importable as `tools.chromium`, `tools.serve`, `tools.notebooks`."""
