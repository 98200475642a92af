"""The explorer as a package of its own: apart from the engine, built on its public API."""

import ast
import doctest
from pathlib import Path

import explorer
from explorer import PRESETS, explore

ROOT = Path(__file__).resolve().parents[2]


def test_docstring_examples():
    result = doctest.testmod(explorer)
    assert result.attempted > 0 and result.failed == 0


def test_the_engine_holds_nothing_of_the_explorer():
    assert not (ROOT / "engine" / "expr.py").exists()
    for source in (ROOT / "engine").glob("*.py"):
        tree = ast.parse(source.read_text())
        imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        imported |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert not any(m.split(".")[0] == "explorer" for m in imported), source.name


def test_the_explorer_reads_no_engine_internals():
    """Derived operations are built here from the primitives, not read back from the
    engine's Values: no `_children`, `_local_grads` or `_op` anywhere in explorer/."""
    for source in (ROOT / "explorer").glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.Attribute):
                assert node.attr not in {"_children", "_local_grads", "_op"}, (
                    source.name,
                    node.attr,
                )


def test_every_preset_builds():
    assert len(PRESETS) == len(set(PRESETS)) > 0
    for text in PRESETS:
        assert explore(text)["ok"], text


def test_the_page_takes_its_presets_from_the_same_file():
    # The examples menu is the expression bar's (web/explorer/bar.js); none of the modules
    # explorer.js was split into writes a preset out again (the guided tasks have their own).
    bar = (ROOT / "web" / "explorer" / "bar.js").read_text()
    assert 'import presets from "../../explorer/presets.json";' in bar
    for name in ("explorer.js", "bar.js", "sliders.js", "controls.js", "draw.js", "table.js"):
        module = ROOT / "web" / "explorer" / name
        source = module.read_text()
        for text in PRESETS:
            assert text not in source, f"{text!r} is written out in {module.name} too"
