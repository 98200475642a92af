"""The files the my-engine tests install: the course's solutions and stubs, read once."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "solutions").glob("day*.py")}
STUBS = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "exercises").glob("day*.py")}


def rows(report):
    """install's report as {part: its row}."""
    return {row["part"]: row for row in report["parts"]}
