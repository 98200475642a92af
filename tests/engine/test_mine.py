"""My engine (engine/mine.py): a learner's files as the engine, part by part, and back.

Every test installs and uninstalls in this process: uninstall puts the course's very modules
back, which the last test checks, so the tests after these see the engine they imported.
"""

from __future__ import annotations

import json
import os

import pytest

import engine
import engine.nn
from engine import mine

from .mine_files import SOLUTIONS, STUBS, rows, run_cli

# The folders below hold this file's own code (a planted bug, an endless loop), not a learner's.
TRUSTED = {**os.environ, "MY_ENGINE_AS_ROOT": "1"}
ADD_BACKWARD = "            self.grad += out.grad\n            other.grad += out.grad\n"


def test_solutions_make_every_part_the_learners(my_engine):
    report = my_engine(SOLUTIONS)
    assert {part for part, row in rows(report).items() if not row["yours"]} == set()
    assert "Value: yours (day 8)" in report["line"]
    assert "MLP: yours (day 11)" in report["line"]
    import engine as mine_engine
    from engine import Value

    assert mine_engine is not engine
    assert Value.__module__ == "my_engine_day08_more_ops"
    # The course's own modules are rebuilt on the learner's Value: an MLP's weights are theirs.
    import engine.nn as nn

    assert all(isinstance(p, Value) for p in nn.MLP(2, [3, 1]).parameters())


def test_the_stubs_fall_back_part_by_part_and_say_so(my_engine):
    report = my_engine(STUBS)
    assert not any(row["yours"] for row in report["parts"])
    # The line says why a file that is there is not used, and which day to pass.
    line = report["line"]
    assert (
        "Value: course engine — day08_more_ops.py is not finished; pass day 8 to use yours" in line
    )
    assert "Adam: course engine — day14_optimizers.py is not finished; pass day 14" in line
    assert "not finished" in rows(report)["Value"]["why"]
    from engine import Value

    assert Value.__module__ == "engine.value"


def test_a_missing_file_falls_back_and_the_others_are_used(my_engine):
    report = my_engine({"day08_more_ops.py": SOLUTIONS["day08_more_ops.py"]})
    assert rows(report)["Value"]["yours"]
    assert not rows(report)["Neuron"]["yours"]
    assert "Neuron: course engine — pass day 10 to use yours" in report["line"]
    import engine.nn as nn
    from engine import Value

    assert isinstance(nn.Neuron(2)([1.0, 2.0]), Value)  # the course's neuron on their Value


def test_a_plus_for_plus_equals_mutant_shows_in_day_7s_numbers(my_engine, tmp_path):
    mutant = SOLUTIONS["day08_more_ops.py"]
    assert ADD_BACKWARD in mutant
    mutant = mutant.replace(ADD_BACKWARD, ADD_BACKWARD.replace("+=", "="))
    my_engine({"day08_more_ops.py": mutant})
    from engine import Value

    a = Value(3.0)
    (a + a).backward()
    assert a.grad == 1.0  # their bug: the second road overwrote the first (2.0 is right)
    # The lesson's own cells show it: day 7's numbers differ from the course engine's.
    (tmp_path / "day08_more_ops.py").write_text(mutant)
    done = run_cli(str(tmp_path), "--days", "7", "--json", env=TRUSTED, timeout=300)
    assert done.stdout, done.stderr
    report = json.loads(done.stdout)["day07_accumulation"]
    assert done.returncode == 1 and report["error"] is None
    assert report["differ"], report
    assert "Value: yours (day 8)" in report["parts"]


def test_learner_nodes_give_their_local_derivatives(my_engine):
    my_engine(SOLUTIONS)
    from engine import Value

    a, b = Value(2.0), Value(-3.0)
    prod = a * b
    twice = a + a
    assert prod._children == (a, b) and prod._local_grads == (-3.0, 2.0)
    assert twice._local_grads == (2.0, 0.0)  # both roads at the first place
    assert a.grad == 0.0 and b.grad == 0.0  # probing leaves every gradient as it was
    # A fused node of the course's (engine.gpt) backpropagates through their backward().
    import engine.gpt as gpt

    loss = gpt.cross_entropy([a, b], 0)
    loss.backward()
    assert a.grad == pytest.approx(-0.006692850924, abs=1e-12)


def test_an_operation_the_course_never_asked_for_is_lent_and_named(my_engine):
    report = my_engine(SOLUTIONS)
    assert "with log" in report["line"]
    from engine import Value

    x = Value(2.0)
    y = (x * x).log()  # their * makes a Value that has the course's log
    y.backward()
    assert x.grad == pytest.approx(1.0)
    with pytest.raises(AttributeError, match="your Value \\(day08_more_ops.py\\) has no 'sigmoid'"):
        x.sigmoid()


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("def broken(:\n    pass\n", "day08_more_ops.py has a syntax error on line 1"),
        ("raise RuntimeError('boom')\n", "day08_more_ops.py did not load: RuntimeError on line 1"),
        ("import sys\nsys.exit(0)\n", "did not load: SystemExit"),
        ("open('written.txt', 'w')\n", "tried to write a file"),
        ("import subprocess\nsubprocess.run(['true'])\n", "tried to start a process"),
    ],
)
def test_a_bad_file_gets_a_clear_message_and_changes_nothing(my_engine, source, message):
    with pytest.raises(mine.MyEngineError, match=message):
        my_engine({**SOLUTIONS, "day08_more_ops.py": source})
    assert mine.installed() is None
    import engine as now

    assert now is engine


def test_a_file_that_deletes_files_at_import_is_refused_before_it_deletes(my_engine, tmp_path):
    victim = tmp_path / "keep.txt"
    victim.write_text("the learner's work")
    source = f"import os\nos.remove({str(victim)!r})\n"
    with pytest.raises(mine.MyEngineError, match="day10_neuron.py tried to delete a file"):
        my_engine({**SOLUTIONS, "day10_neuron.py": source})
    assert victim.read_text() == "the learner's work"
    # Outside loading, the audit hook lets everything through (it is on only while loading).
    victim.unlink()
    assert not victim.exists()


def test_an_endless_loop_at_import_is_stopped_by_the_command_line_timeout(tmp_path):
    (tmp_path / "day08_more_ops.py").write_text("while True:\n    pass\n")
    done = run_cli(str(tmp_path), "--days", "7", "--timeout", "3", env=TRUSTED)
    assert done.returncode == 1
    assert "my engine could not be used: did not finish within 3.0 s" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def test_uninstall_gives_back_the_course_modules_themselves(my_engine):
    my_engine(SOLUTIONS)
    mine.uninstall()
    import engine as now
    import engine.nn as nn_now

    assert now is engine and nn_now is engine.nn
    assert mine.installed() is None


def test_the_command_line_refuses_a_folder_that_is_not_one(tmp_path):
    done = run_cli(str(tmp_path / "nowhere"))
    assert done.returncode == 2
    assert "give a folder of exercise files" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root")
def test_as_root_the_command_line_runs_only_the_courses_own_folders(tmp_path):
    (tmp_path / "day08_more_ops.py").write_text("print('a learner file ran')\n")
    env = {k: v for k, v in os.environ.items() if k != "MY_ENGINE_AS_ROOT"}
    done = run_cli(str(tmp_path), "--days", "7", env=env)
    assert done.returncode == 2
    assert "you are root: run it as your own user" in done.stderr
    assert "a learner file ran" not in done.stdout + done.stderr


def test_tensor_products_run_on_the_learners_matmul(my_engine):
    """Day 31's matmul (flat lists and shapes) takes the place of engine.tensor's own product,
    forward and backward: a wrong one shows in a Tensor's @ and in its gradients."""
    source = SOLUTIONS["day31_tensors.py"]
    my_engine(SOLUTIONS)
    from engine.tensor import Tensor

    a, b = Tensor([[1.0, 2.0], [3.0, 4.0]]), Tensor([[5.0], [6.0]])
    right = (a @ b).tolist()
    assert right == [[17.0], [39.0]]
    mine.uninstall()
    off_by_one = source + (
        "\n\n_right_matmul = matmul\n\n\ndef matmul(a, a_shape, b, b_shape):\n"
        "    data, shape = _right_matmul(a, a_shape, b, b_shape)\n"
        "    return [x + 1.0 for x in data], shape\n"
    )
    report = my_engine({**SOLUTIONS, "day31_tensors.py": off_by_one})
    assert "matrix product: yours (day 31)" in report["line"]
    from engine.tensor import Tensor

    a, b = Tensor([[1.0, 2.0], [3.0, 4.0]]), Tensor([[5.0], [6.0]])
    assert (a @ b).tolist() == [[18.0], [40.0]]
