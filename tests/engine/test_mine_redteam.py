"""My engine (engine/mine.py, tools/my_engine.py) against stored files that try to break it.

A learner's stored file runs in the learner's own Python. These tests try what such a file
could do while it is installed (mislead the parts line, change the course engine for later
cells and for Check, write or delete files while it loads) and what the command line could
be made to run as root.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import engine
import engine.value
from engine import mine

from .mine_files import ROOT, SOLUTIONS, rows, run_cli

NEURON_START = "    if len(x) != len(w):\n"
MUL_BACKWARD = "            self.grad += other.data * out.grad\n"


def with_file(name, source):
    return {**SOLUTIONS, name: source}


def neuron_doing(code):
    """The solution's day 10 file whose neuron runs `code` first (on every call)."""
    body = "".join(f"    {line}\n" for line in code.splitlines())
    return SOLUTIONS["day10_neuron.py"].replace(NEURON_START, body + NEURON_START)


# -- a) the parts line and the course engine ------------------------------------------------


def test_a_file_that_patches_the_course_engine_while_it_loads_leaves_it_as_it_was(my_engine):
    patched = SOLUTIONS["day10_neuron.py"] + (
        "\nimport engine.value\nengine.value.Value.__add__ = lambda self, other: 42\n"
    )
    my_engine(with_file("day10_neuron.py", patched))
    mine.uninstall()
    from engine import Value

    assert Value is engine.value.Value
    assert (Value(1.0) + Value(2.0)).data == 3.0


@pytest.mark.parametrize(
    ("file", "source", "part"),
    [
        ("day08_more_ops.py", "from engine import Value\n", "Value"),
        ("day08_more_ops.py", "import engine\n\nclass Value(engine.Value):\n    pass\n", "Value"),
        (
            "day19_softmax.py",
            "from engine.gpt import softmax, cross_entropy\n",
            "softmax and cross-entropy",
        ),
        ("day24_rmsnorm_residual.py", "from engine.gpt import rmsnorm\n", "RMSNorm"),
        ("day07_accumulation.py", "from engine.value import zero_grad\n", "zero_grad"),
    ],
)
def test_the_course_engines_own_code_in_a_file_is_not_called_yours(my_engine, file, source, part):
    report = my_engine(with_file(file, source))
    row = rows(report)[part]
    assert not row["yours"], report["line"]
    assert "the course engine's" in row["why"]
    assert f"{part}: course engine" in report["line"]


def test_a_decorated_function_of_the_learners_is_still_theirs(my_engine):
    source = "import functools\n" + SOLUTIONS["day16_tokens.py"].replace(
        "def decode(",
        "@functools.lru_cache\ndef decode_cached(ids, chars):\n"
        "    return decode(list(ids), chars)\n\n\ndef decode(",
    ).replace("def encode(", "@functools.cache\ndef encode(")
    report = my_engine(with_file("day16_tokens.py", source))
    assert rows(report)["tokenizer"]["yours"], rows(report)["tokenizer"]["why"]


def test_a_wrong_decode_shows_in_a_decoded_name_with_bos(my_engine):
    wrong = SOLUTIONS["day16_tokens.py"].replace(
        'return "".join(chars[i] for i in ids if i != len(chars))',
        'return "".join(chars[i].upper() for i in ids if i != len(chars))',
    )
    assert wrong != SOLUTIONS["day16_tokens.py"]
    my_engine(with_file("day16_tokens.py", wrong))
    from engine.tokenizer import Tokenizer

    tok = Tokenizer("abc")
    assert tok.decode([3, 0, 1, 3]) == ".AB."  # the learner's decode, BOS shown as the course does
    assert tok.decode([3, 0, 1, 3], skip_bos=True) == "AB"


def public_checks(tmp_path, monkeypatch, exercise):
    """grader.public as the page's Check runs it, with this exercise's shipped cases."""
    import grader.public as public
    from grader.checks import published_cases

    cases = tmp_path / "public_cases.json"
    cases.write_text(json.dumps({exercise: published_cases()[exercise]}))
    monkeypatch.setattr(public, "CASES_FILE", cases)
    public._shipped.cache_clear()
    from web import cellrun

    return lambda source: json.loads(cellrun.check_exercise(exercise, source))


def test_check_grades_on_the_course_engine_while_my_engine_is_installed(
    my_engine, tmp_path, monkeypatch
):
    check = public_checks(tmp_path, monkeypatch, "day10_neuron.py")
    before = check(SOLUTIONS["day10_neuron.py"])
    assert before["ok"] and all(c["passed"] for c in before["checks"]), before
    # My engine with a Value whose * passes back the wrong gradient.
    mutant = SOLUTIONS["day08_more_ops.py"].replace(
        MUL_BACKWARD, MUL_BACKWARD.replace("other.data * ", "")
    )
    assert mutant != SOLUTIONS["day08_more_ops.py"]
    my_engine(with_file("day08_more_ops.py", mutant))
    during = check(SOLUTIONS["day10_neuron.py"])
    assert during == before
    # ... and the cells still have the learner's engine after it.
    from engine import Value

    assert Value.__module__ == "my_engine_day08_more_ops"


def test_a_notebooks_check_cell_grades_on_the_course_engine_too(
    my_engine, tmp_path, monkeypatch, capsys
):
    """grader.notebook.check, like the page's Check, runs grader.public on the course engine."""
    from grader.notebook import check

    public_checks(tmp_path, monkeypatch, "day10_neuron.py")
    (tmp_path / "day10_neuron.py").write_text(SOLUTIONS["day10_neuron.py"])
    check("day10_neuron.py", tmp_path)
    before = capsys.readouterr().out
    assert "✗" not in before and "passed" in before, before
    mutant = SOLUTIONS["day08_more_ops.py"].replace(
        MUL_BACKWARD, MUL_BACKWARD.replace("other.data * ", "")
    )
    my_engine(with_file("day08_more_ops.py", mutant))
    check("day10_neuron.py", tmp_path)
    assert capsys.readouterr().out == before


def test_the_course_engines_own_imports_may_write_their_bytecode(tmp_path):
    # A learner's Python writes .pyc files (these tests' does not): the guard lets the
    # import system write them while the files load.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    code = (
        "import json, sys\nfrom engine import mine\n"
        "print(mine.install(json.load(sys.stdin))['line'])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        input=json.dumps(SOLUTIONS),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**env, "PYTHONPYCACHEPREFIX": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr[-300:]
    assert "course engine —" not in done.stdout
    assert list(tmp_path.rglob("*.pyc"))  # this Python writes bytecode


# -- b) what a file may do while it loads ----------------------------------------------------


@pytest.fixture
def victim(tmp_path):
    path = tmp_path / "keep.txt"
    path.write_text("the learner's work")
    return path


@pytest.mark.parametrize(
    ("code", "what"),
    [
        ("import os\nfd = os.open(VICTIM, os.O_WRONLY | os.O_TRUNC)\nos.close(fd)", "write a file"),
        ("import os\nfd = os.open(VICTIM, os.O_WRONLY)\nos.write(fd, b'X')\nos.close(fd)", "write"),
        (
            "from engine import mine\nmine._loading = None\nmine._REFUSED_EVENTS.clear()\n"
            "import os\nos.remove(VICTIM)",
            "delete",
        ),
        ("import ctypes\nctypes.CDLL(None).unlink(VICTIM.encode())", "C library"),
        ("import os\nos.symlink(VICTIM, VICTIM + '.link')", "link"),
        ("import os\nos.link(VICTIM, VICTIM + '.hard')", "link"),
        ("import os\nos.mkdir(VICTIM + '.d')", "folder"),
        ("import os\nos.utime(VICTIM, (0, 0))", "change a file"),
        ("import os\nos.chdir('/')", "working folder"),
        (
            "import threading, os, time\n"
            "threading.Thread(target=lambda: (time.sleep(0.2), os.remove(VICTIM))).start()",
            "thread",
        ),
        ("import sys\nsys.addaudithook(lambda *a: None)", "audit hook"),
    ],
)
@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_file_cannot_get_round_the_guard_while_it_loads(my_engine, victim, code, what):
    source = f"VICTIM = {str(victim)!r}\n{code}\n"
    with pytest.raises(mine.MyEngineError, match=f"day10_neuron.py tried to .*{what}"):
        my_engine(with_file("day10_neuron.py", source))
    time.sleep(0.3)  # a thread it started has had its go
    assert victim.read_text() == "the learner's work"
    assert sorted(p.name for p in victim.parent.iterdir()) == ["keep.txt"]
    assert os.getcwd() == str(Path.cwd())
    assert mine.installed() is None


def test_a_part_that_deletes_files_when_install_tries_it_is_refused(my_engine, victim):
    source = neuron_doing(f"import os\nos.remove({str(victim)!r})")
    with pytest.raises(mine.MyEngineError, match="day10_neuron.py tried to delete a file"):
        my_engine(with_file("day10_neuron.py", source))
    assert victim.read_text() == "the learner's work"


def test_the_guard_is_off_again_after_a_file_tried_to_leave_it_on(my_engine, victim):
    source = SOLUTIONS["day10_neuron.py"] + "\nfrom engine import mine\nmine._loading = 'x'\n"
    try:
        my_engine(with_file("day10_neuron.py", source))
    except mine.MyEngineError:
        pass
    mine.uninstall()
    victim.write_text("a cell may write files")
    victim.unlink()


def test_a_file_that_adds_an_import_hook_is_refused_and_the_hook_is_gone(my_engine):
    source = (
        "import sys\n\nclass Hook:\n    def find_spec(self, *args):\n        return None\n\n"
        "sys.meta_path.insert(0, Hook())\n"
    )
    hooks = list(sys.meta_path)
    with pytest.raises(mine.MyEngineError, match="day10_neuron.py changed how Python imports"):
        my_engine(with_file("day10_neuron.py", source))
    assert sys.meta_path == hooks


def test_a_file_that_changes_where_python_imports_from_is_refused_and_put_back(my_engine, tmp_path):
    source = f"import sys\nsys.path.insert(0, {str(tmp_path)!r})\n"
    path = list(sys.path)
    with pytest.raises(mine.MyEngineError, match="day10_neuron.py changed where Python imports"):
        my_engine(with_file("day10_neuron.py", source))
    assert sys.path == path


def test_a_file_that_replaces_a_module_is_refused_and_the_module_put_back(my_engine):
    import json as real

    source = "import sys, types\nsys.modules['json'] = types.ModuleType('json')\n"
    with pytest.raises(mine.MyEngineError, match="day10_neuron.py replaced the module json"):
        my_engine(with_file("day10_neuron.py", source))
    assert sys.modules["json"] is real


def test_a_file_that_rebinds_engine_mine_is_refused_and_mine_put_back(my_engine):
    source = "from engine import mine\nmine.uninstall = lambda: None\n"
    with pytest.raises(mine.MyEngineError, match="day10_neuron.py changed engine.mine"):
        my_engine(with_file("day10_neuron.py", source))
    assert mine.uninstall.__module__ == "engine.mine"


def test_the_course_classes_keep_their_own_methods(my_engine):
    import engine.nn
    import engine.optim
    import engine.tokenizer

    before = (
        engine.nn.Neuron.__call__,
        engine.nn.Layer.__call__,
        engine.optim.Adam.step,
        engine.optim.SGD.step,
        engine.tokenizer.Tokenizer.decode,
    )
    my_engine(SOLUTIONS)
    import engine.nn as nn
    import engine.optim as optim

    nn.MLP(2, [2, 1])([1.0, 2.0])
    optim.Adam(nn.MLP(2, [1]).parameters()).step()
    mine.uninstall()
    assert before == (
        engine.nn.Neuron.__call__,
        engine.nn.Layer.__call__,
        engine.optim.Adam.step,
        engine.optim.SGD.step,
        engine.tokenizer.Tokenizer.decode,
    )


def test_a_file_that_imports_a_module_with_another_learner_part_loads_both(my_engine):
    # day 19's file imports engine.tokenizer, which loads day 16's file inside day 19's load.
    source = "import engine.tokenizer\n" + SOLUTIONS["day19_softmax.py"]
    my_engine(with_file("day19_softmax.py", source))
    import engine.gpt
    import engine.tokenizer

    assert engine.gpt.softmax.__module__ == "my_engine_day19_softmax"
    assert engine.tokenizer.Tokenizer("ab").decode([2, 0, 2]) == ".a."


def test_a_file_that_loads_differently_the_second_time_gets_a_clear_message(my_engine, monkeypatch):
    monkeypatch.delenv("LOADED_ONCE", raising=False)
    source = SOLUTIONS["day10_neuron.py"] + (
        "\nimport os\nif os.environ.get('LOADED_ONCE'):\n    del neuron\n"
        "os.environ['LOADED_ONCE'] = '1'\n"
    )
    my_engine(with_file("day10_neuron.py", source))
    with pytest.raises(mine.MyEngineError, match="day10_neuron.py did not define the same names"):
        import engine.nn  # noqa: F401


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("class Stop(BaseException):\n    pass\n\nraise Stop('x')\n", "did not load: Stop"),
        ("raise GeneratorExit\n", "did not load: GeneratorExit"),
        (
            "class Odd(Exception):\n    def __str__(self):\n        raise ValueError\n\nraise Odd\n",
            "did not load: Odd",
        ),
    ],
)
def test_an_odd_exception_at_load_gets_a_clear_message(my_engine, source, message):
    with pytest.raises(mine.MyEngineError, match=message):
        my_engine(with_file("day08_more_ops.py", source))
    assert mine.installed() is None


def test_a_part_that_exits_when_install_tries_it_falls_back_with_a_reason(my_engine):
    report = my_engine(with_file("day10_neuron.py", neuron_doing("raise SystemExit(3)")))
    assert not rows(report)["Neuron"]["yours"]
    assert "fails on a small example (SystemExit" in rows(report)["Neuron"]["why"]


@pytest.mark.skipif(not hasattr(__import__("signal"), "setitimer"), reason="needs setitimer")
def test_an_endless_loop_at_load_is_stopped_in_process(my_engine, monkeypatch):
    monkeypatch.setattr(mine, "LOAD_LIMIT", 0.5)
    with pytest.raises(mine.MyEngineError, match="day08_more_ops.py did not finish loading"):
        my_engine(with_file("day08_more_ops.py", "while True:\n    pass\n"))
    assert mine.installed() is None


@pytest.mark.skipif(not hasattr(__import__("signal"), "setitimer"), reason="needs setitimer")
def test_an_object_whose_del_never_ends_does_not_hold_install(my_engine, monkeypatch):
    monkeypatch.setattr(mine, "LOAD_LIMIT", 0.5)
    unraisable = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    stuck = "\nclass Stuck:\n    def __del__(self):\n        while True:\n            pass\n\ns = Stuck()\n"
    report = my_engine(with_file("day10_neuron.py", SOLUTIONS["day10_neuron.py"] + stuck))
    assert rows(report)["Neuron"]["yours"]
    assert unraisable == []  # stopped quietly: no "Exception ignored in" traceback


def test_odd_keys_and_values_are_ignored_or_refused_clearly(my_engine):
    report = my_engine({**SOLUTIONS, "../day08_more_ops.py": "raise SystemExit", 8: "x"})
    assert rows(report)["Value"]["yours"]
    with pytest.raises(mine.MyEngineError, match="a dict of exercise file names"):
        my_engine(None)


# -- b) the command line ---------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root")
def test_as_root_the_hidden_per_day_run_refuses_another_folder_too(tmp_path):
    (tmp_path / "day08_more_ops.py").write_text("print('a learner file ran')\n")
    done = run_cli("--run-day", "day07_accumulation", "--folder", str(tmp_path))
    assert done.returncode == 2
    assert "you are root" in done.stderr
    assert "a learner file ran" not in done.stdout + done.stderr


def test_a_file_that_prints_or_exits_at_load_gets_a_clear_line(tmp_path):
    (tmp_path / "day08_more_ops.py").write_text(
        SOLUTIONS["day08_more_ops.py"] + "\nprint('no newline', end='')\n"
    )
    (tmp_path / "day10_neuron.py").write_text("import os\nos._exit(0)\n")
    done = run_cli(str(tmp_path), "--days", "7", env={**os.environ, "MY_ENGINE_AS_ROOT": "1"})
    out = done.stdout + done.stderr
    assert "Traceback" not in out
    assert done.returncode == 1
    assert "my engine could not be used: Python stopped" in done.stdout


def test_a_file_that_is_not_text_gets_a_clear_line(tmp_path):
    (tmp_path / "day08_more_ops.py").write_bytes(b"x = '\xff\xfe'\n")
    done = run_cli(str(tmp_path), "--days", "7", env={**os.environ, "MY_ENGINE_AS_ROOT": "1"})
    assert "Traceback" not in done.stdout + done.stderr
    assert "day08_more_ops.py is not UTF-8 text" in done.stdout


def test_a_passed_day_7_with_day_8_not_yet_finished_installs(my_engine):
    stub = (ROOT / "exercises" / "day08_more_ops.py").read_text(encoding="utf-8")
    report = my_engine(
        {"day07_accumulation.py": SOLUTIONS["day07_accumulation.py"], "day08_more_ops.py": stub}
    )
    assert rows(report)["zero_grad"]["yours"]
    assert not rows(report)["Value"]["yours"]
    from engine import Value, zero_grad

    assert Value.__module__ == "engine.value"
    assert zero_grad.__module__ == "my_engine_day07_accumulation"
