"""Hostile submissions: none may score more than the honest stub (0), run unbounded,
leave a process behind or change a course file."""

import platform
import shutil
import socket
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from grader.sandbox import Limits

from .helpers import (
    HAS_BWRAP,
    LEVELS,
    NO_UID,
    ROOT,
    UID_PYTHON,
    grade_source,
    processes_with,
    score,
    tree_digest,
)

REFERENCE = (ROOT / "solutions" / "day05_add_mul.py").read_text()

# Each attack is the whole exercise file. Most act at import time, so every case sees them.
ATTACKS = {
    "sys.exit at import": "import sys\nsys.exit(0)\n",
    "os._exit at import": "import os\nos._exit(0)\n",
    "os._exit inside _backward": """
        import os
        class Value:
            def __init__(self, data, _children=(), _op=""):
                self.data, self.grad, self._prev, self._op = float(data), 0.0, _children, _op
                self._backward = lambda: os._exit(0)
            def __add__(self, other): return Value(0.0, (self, other))
            __mul__ = __add__
            def backward(self): os._exit(0)
        """,
    "atexit forges a report": """
        import atexit, json, os
        def forge():
            for fd in range(3, 64):
                try:
                    os.write(fd, b'{"nonce": "x", "outcome": {"values": {}, "invalid": {}}}\\n')
                except OSError:
                    pass
        atexit.register(forge)
        """,
    "prints forged results": """
        import json, sys
        print(json.dumps({"score": 100, "max_score": 100, "tests": []}))
        print("===== 47 passed in 0.01s =====")
        sys.stderr.write('{"nonce": "0", "outcome": {"values": {"0:a.grad": 1.0}}}\\n')
        """,
    "forges a deeply nested report with the real nonce": """
        import os, sys
        frame = sys._getframe()
        while frame is not None and "nonce" not in frame.f_locals:
            frame = frame.f_back
        fd, nonce = frame.f_locals["fd"], frame.f_locals["nonce"]
        os.write(fd, b'{"nonce": "' + nonce.encode() + b'", "outcome": ' + b"[" * 50000 + b"\\n")
        os._exit(0)
        """,
    "writes result files": """
        import os, json
        forged = json.dumps({"score": 100, "max_score": 100})
        for path in ["/autograder/results/results.json", "results.json", "/tmp/results.json",
                     "%(root)s/results.json", "/sandbox/results.json"]:
            try:
                os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
                with open(path, "w") as f:
                    f.write(forged)
            except OSError:
                pass
        """,
    "imports the reference": """
        import sys
        sys.path[:0] = ["%(root)s", "%(root)s/solutions", "/work/main", "/autograder/source"]
        try:
            from solutions.day05_add_mul import Value
        except Exception:
            from day05_add_mul_solution import Value
        """,
    "reads the reference by path": """
        exec(open("%(root)s/solutions/day05_add_mul.py").read())
        """,
    "walks the filesystem for the reference": """
        import os
        for top in ["/", "/proc/1/root", "/proc/self/root"]:
            for folder, dirs, files in os.walk(top):
                dirs[:] = [d for d in dirs if d not in ("proc", "sys", "dev")]
                for name in files:
                    path = os.path.join(folder, name)
                    if name == "day05_add_mul.py" and "solutions" in path:
                        exec(open(path).read())
                        raise SystemExit
        """,
    "looks through /proc": """
        import os
        for pid in os.listdir("/proc"):
            try:
                root = f"/proc/{pid}/cwd/solutions/day05_add_mul.py"
                exec(open(root).read())
                break
            except Exception:
                pass
        """,
    "digs in stack frames and objects for expected values": """
        import gc, sys
        class Value:
            def __init__(self, data, _children=(), _op=""):
                self.data, self.grad, self._prev = float(data), 0.0, _children
                self._backward = self._steal
            def _steal(self):
                for obj in gc.get_objects():
                    if isinstance(obj, dict) and "expected" in obj:
                        self.grad = obj["expected"]
                f = sys._getframe()
                while f:
                    for k, v in f.f_locals.items():
                        if "want" in k or "expect" in k:
                            self.grad = v
                    f = f.f_back
            def __add__(self, o):
                o = o if isinstance(o, Value) else Value(o)
                return Value(self.data + o.data, (self, o))
            def __mul__(self, o):
                o = o if isinstance(o, Value) else Value(o)
                return Value(self.data * o.data, (self, o))
            def backward(self):
                self._backward()
        """,
    "patches comparisons and builtins": """
        import builtins, math
        math.isclose = lambda *a, **k: True
        builtins.abs = lambda x: 0.0
        builtins.max = lambda *a, **k: float("inf")
        try:
            import _pytest.python_api
            _pytest.python_api.approx = lambda *a, **k: True
        except Exception:
            pass
        for name in ("checks._kit", "verdict", "grader.verdict"):
            try:
                module = __import__(name, fromlist=["close"])
                module.close = lambda *a: True
                module.verdict = module.judge = lambda *a, **k: (True, "passed")
            except Exception:
                pass
        """,
    "lying numbers": """
        class Liar(float):
            def __eq__(self, other): return True
            def __ne__(self, other): return False
            def __sub__(self, other): return 0.0
            def __rsub__(self, other): return 0.0
            def __abs__(self): return 0.0
        import itertools
        weird = itertools.cycle([Liar(1.0), float("nan"), float("inf"), True, "1.0", None, [1.0]])
        class Value:
            def __init__(self, data, _children=(), _op=""):
                self.data, self._prev, self._op = next(weird), _children, _op
                self._backward = lambda: None
            @property
            def grad(self): return next(weird)
            @grad.setter
            def grad(self, v): pass
            def __add__(self, o): return Value(0.0, (self, o))
            __mul__ = __radd__ = __rmul__ = __add__
            def backward(self): pass
        """,
    "endless loop that ignores signals": """
        import signal
        for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGXCPU, signal.SIGALRM):
            signal.signal(s, signal.SIG_IGN)
        while True:
            pass
        """,
    "sleeps forever": "import time\nwhile True:\n    time.sleep(100)\n",
    "tampers with course files": """
        import os
        here = os.path.dirname(os.path.abspath(__file__))
        for path in ["%(root)s/grader/verdict.py", "%(root)s/grader/checks/__init__.py",
                     "%(root)s/grader/checks/day05_add_mul.py", "%(root)s/solutions/day05_add_mul.py",
                     "%(root)s/exercises/day05_add_mul.py", "%(root)s/engine/value.py",
                     here + "/runners/__init__.py", here + "/runners/day05_add_mul.py",
                     here + "/child.py", "engine/value.py"]:
            try:
                with open(path, "a") as f:
                    f.write("\\nraise SystemExit  # tampered\\n")
            except OSError:
                pass
            try:
                os.remove(path)
            except OSError:
                pass
        """,
}

# Attacks on the sandbox's walls. Each pays off only if the wall gives way: the gate sets
# `escaped`, and then the file is the reference solution (full marks) -- otherwise it
# raises NotImplementedError like the stub. So a score of 0 proves the wall held, and
# the same test fails when the wall is taken away (no network namespace and no seccomp,
# no rlimit, no output cap).
GATED = {
    "opens the network": """
        import socket
        try:
            socket.create_connection(("127.0.0.1", %(port)d), timeout=0.5).close()
            escaped = True
        except OSError:
            escaped = False
        """,
    "fork bomb": """
        import os
        escaped = False
        for _ in range(20):  # bounded: were the wall to fail, the test machine must not
            try:
                pid = os.fork()
            except OSError:
                break
            if pid == 0:
                os._exit(0)
            os.waitpid(pid, 0)
            escaped = True
        """,
    "memory bomb": """
        import mmap
        try:  # 2 GiB, four times the limit; reserved, not touched, so it is quick if allowed
            block = mmap.mmap(-1, 2 * 2**30)
            escaped = True
            block.close()
        except (MemoryError, OSError):
            escaped = False
        """,
    "output bomb": """
        import sys
        for _ in range(64):  # 4 MiB: four times the output cap
            sys.stdout.write("x" * 65536)
        sys.stdout.flush()
        escaped = True
        """,
    "leaves a background process": """
        import os, subprocess
        escaped = False
        try:
            subprocess.Popen(["sleep", "4242.4242"], start_new_session=True)
            escaped = True
        except Exception:
            pass
        try:
            if os.fork() == 0:
                os.setsid()
                os.execv("/bin/sleep", ["sleep", "4242.4242"])
            escaped = True
        except Exception:
            pass
        """,
    "sets up an io_uring ring (it makes sockets without socket())": """
        import ctypes
        params = ctypes.create_string_buffer(120)  # struct io_uring_params
        try:
            escaped = ctypes.CDLL(None, use_errno=True).syscall(425, 4, params) >= 0
        except Exception:
            escaped = False
        """,
}
HELD = '\nif not escaped:\n    raise NotImplementedError("Day 5: the sandbox held")\n\n'


def attack_source(name, port):
    values = {"root": ROOT, "port": port}
    if name in GATED:
        return textwrap.dedent(GATED[name]) % values + HELD + REFERENCE
    return textwrap.dedent(ATTACKS[name]) % values


@pytest.fixture
def listener():
    """A port on 127.0.0.1 that accepts connections, for the network attack to reach."""
    with socket.create_server(("127.0.0.1", 0), backlog=64) as server:
        yield server.getsockname()[1]


# The "process" level (no bubblewrap, no second uid) cannot hide or protect files the
# grading user can read or write; the grader never picks it on its own when run as root.
# It is tested against every attack that does not depend on the filesystem.
FILESYSTEM = {
    "imports the reference",
    "reads the reference by path",
    "walks the filesystem for the reference",
    "looks through /proc",
    "tampers with course files",
    "writes result files",
}


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", sorted(ATTACKS) + sorted(GATED))
def test_hostile_submission_scores_nothing(tmp_path, level, name, listener):
    if level == "process" and name in FILESYSTEM:
        pytest.skip("the process level does not isolate the filesystem (documented)")
    if "io_uring" in name and platform.machine() not in ("x86_64", "aarch64"):
        pytest.skip("io_uring_setup is call 425 on x86_64 and aarch64 only")
    source = attack_source(name, listener)
    before = tree_digest()
    started = time.monotonic()
    results = grade_source(tmp_path, source, level=level)
    elapsed = time.monotonic() - started
    assert score(results) == 0, [t["message"] for t in results["tests"] if t["passed"]]
    assert elapsed < 20, f"grading took {elapsed:.1f} s"
    assert tree_digest() == before, "a course file changed"
    assert not processes_with("4242.4242"), "a background process survived"
    assert not (ROOT / "results.json").exists()
    for test in results["tests"]:
        assert test["message"], test


@pytest.mark.parametrize("name", sorted(GATED))
def test_every_gated_attack_is_the_reference_once_through_the_gate(name):
    # The control of the gated attacks: with the gate open, the file is the reference.
    source = attack_source(name, 1)
    gate, tail = source.split(HELD)
    assert tail == REFERENCE and "escaped" in gate


@pytest.mark.skipif(UID_PYTHON is None, reason=str(NO_UID))
def test_the_uid_level_hides_even_what_everyone_may_read(tmp_path):
    # The jail holds only the interpreter and the case: a reference that every user may
    # read, in a folder every user may enter, is as far out of reach as a private one.
    base = Path(tempfile.mkdtemp(prefix="grader-uid-test-"))
    try:
        base.chmod(0o755)
        shutil.copy(ROOT / "solutions" / "day05_add_mul.py", base)
        (base / "day05_add_mul.py").chmod(0o644)
        reads = f'exec(open("{base}/day05_add_mul.py").read())\n'
        limits = Limits(wall_seconds=10.0)
        results = grade_source(tmp_path, reads, level="uid", limits=limits)
        assert score(results) == 0
        assert "No such file or directory" in results["tests"][0]["message"]
        honest = grade_source(tmp_path, REFERENCE, level="uid", limits=limits)
        assert score(honest) == 12  # the control: the same code, in the submission, passes
    finally:
        shutil.rmtree(base)


@pytest.mark.skipif(not HAS_BWRAP, reason="bubblewrap unavailable")
def test_the_reference_is_out_of_sight_but_the_same_file_honest_passes(tmp_path):
    # The control for the attacks above: the same exec of a readable reference copy, placed
    # in the submission itself, does score -- so a 0 above means "not found", not "broken".
    honest = (ROOT / "solutions" / "day05_add_mul.py").read_text()
    assert score(grade_source(tmp_path, honest, limits=Limits(wall_seconds=10.0))) == 12


def test_a_submission_that_hangs_everywhere_finishes_within_its_budget(tmp_path):
    from grader.checks import EXERCISES
    from grader.grade import BUDGET_SECONDS, grade
    from grader.sandbox import Limits, detect
    from grader.submission import load

    # The default budget, plus the half second a last case may overrun, is under a minute.
    assert BUDGET_SECONDS + 0.5 < 60 and Limits().wall_seconds < BUDGET_SECONDS
    folder = tmp_path / "hang"
    folder.mkdir()
    for name in EXERCISES:
        (folder / name).write_text("while True:\n    pass\n")
    # The same mechanism with a budget of 8 s, so the test stays quick.
    started = time.monotonic()
    results = grade(load(folder), detect(), None, seed=3, budget=8.0)
    elapsed = time.monotonic() - started
    assert elapsed < 8.0 + 0.5 + 2.0, elapsed
    assert score(results) == 0
    messages = [t["message"] for t in results["tests"]]
    assert any("never finished" in m for m in messages)
    assert len(EXERCISES) < 4 or any("longer than 8 s" in m for m in messages)


def test_default_limits_stop_a_loop(tmp_path):
    results = grade_source(
        tmp_path, "while True:\n    pass\n", level="process", limits=Limits(wall_seconds=0.5)
    )
    assert all(not t["passed"] for t in results["tests"])
    assert "stopped after 0.5 s" in results["tests"][0]["message"]
