"""My engine: the course's engine with every part a learner has written swapped in.

A learner writes a `Value` on days 5 to 8, a neuron on day 10, a layer on day 11, the
optimisers on day 14, softmax, attention, RMSNorm and a whole GPT in phase 3. With "my
engine" on, the lesson cells run on that code: `from engine import Value` gives the
learner's `Value`, and the course's own modules are rebuilt on it (engine.nn's MLP calls the
learner's `dense`, engine.gpt's training loop calls the learner's `gpt`). A part whose file
is missing or unfinished comes from the course engine, and the report's rows say which (the
page writes them in its language; `parts_line`, in English, for a notebook or the terminal).

    from engine import mine
    report = mine.install({"day08_more_ops.py": source, ...})   # file name -> its text
    print(report["line"])    # "Value: yours (day 8) · MLP: course engine — pass day 11 …"
    report["parts"]          # the same, row by row, with each text's page message key
    ...                      # import engine ... as usual: it is the learner's engine now
    mine.uninstall()         # back to the course engine

How: `install` loads each learner file as a module of its own, then drops `engine` and its
modules from sys.modules. The next import of an engine module runs the course's source as
usual and, right after it, puts the learner's names into it (`_Loader`): so every module that
imports it afterwards (engine/__init__, engine.nn's `from .value import Value`) gets the
learner's. The course's Value records local derivatives and the learner's a `_backward`
closure; `bridge_value` makes the learner's class accept both, and lends it the operations
the course never asked the learner to write (log, a number to a Value's power).

Stored code runs here, in the learner's own Python: a file that deletes or writes files,
starts a process or a thread, loads C code or exits while it loads (or while install tries
its parts on a small example) is refused (an audit hook, on only while a guarded function of
this module is on the stack, so no flag of it can be switched off), so a stale file can never
break the course's files. Files first load on a throwaway copy of the course's modules, so a
file that patches what it imports leaves the course's own as they were. A file that never
finishes loading is stopped after LOAD_LIMIT seconds in CPython's main thread (a notebook,
the command line); in the browser, by the page's time limit. This guards against accidents,
not against a learner set on breaking their own Python: in-process code can always reach
the objects here (the graded path is the sandboxed grader, `python -m grader`).

Check grades on the course's engine even while the learner's is installed:
`with mine.course_engine(): ...` (web/cellrun.py's check_exercise).
"""

from __future__ import annotations

import builtins
import contextlib
import gc
import importlib.abc
import importlib.machinery
import linecache
import math
import os
import re
import signal
import sys
import threading
import time
import types
from dataclasses import dataclass

from .errors import message_in as _message_in
from .errors import said
from .words import in_language as _words
from .words import say as _say

__all__ = [
    "PARTS",
    "Part",
    "MyEngineError",
    "install",
    "uninstall",
    "installed",
    "course_engine",
    "parts_line",
    "message_in",
    "local_derivatives",
    "speed_ratio",
]


class MyEngineError(Exception):
    """A learner's file that cannot be the engine; the message says which and what to do.

    `key` and `values` name the same message among the page's (web/locales/*.json, keys
    "myEngine.error.*"), which the page shows in the reader's language. A value that is
    itself {"key": ...} is a message of its own (what a refused file tried to do).
    """

    def __init__(self, message, key=None, values=None):
        super().__init__(message)
        self.key = key
        self.values = dict(values or {})


@dataclass(frozen=True)
class Part:
    """One piece of the engine a learner writes: its name on the page, the exercise file it
    comes from, and the names of the course's modules it replaces."""

    name: str
    file: str  # the exercise file, e.g. "day08_more_ops.py"
    needs: tuple  # the functions (or the class) the file must define
    replaces: tuple  # ("engine.value.Value", ...): what it takes the place of

    @property
    def day(self):
        return int(self.file[3:5])

    @property
    def key(self):
        """Its name's page message (web/locales, myEngine.part.*): "SGD and Adam" is
        "myEngine.part.sgdAndAdam"."""
        first, *rest = re.split(r"[^A-Za-z0-9]+", self.name)
        return "myEngine.part." + first.lower() + "".join(w.capitalize() for w in rest)


# In day order, but Value first: day 7's file imports it. A part that needs another (the MLP
# needs Value) reads it through `engine`.
PARTS = (
    Part("Value", "day08_more_ops.py", ("Value",), ("engine.value.Value",)),
    Part("zero_grad", "day07_accumulation.py", ("zero_grad",), ("engine.value.zero_grad",)),
    Part("Neuron", "day10_neuron.py", ("neuron",), ("engine.nn.Neuron",)),
    Part("MLP", "day11_mlp.py", ("dense",), ("engine.nn.Layer",)),
    Part(
        "SGD and Adam",
        "day14_optimizers.py",
        ("sgd_momentum_step", "adam_step"),
        ("engine.optim.SGD", "engine.optim.Adam"),
    ),
    Part("tokenizer", "day16_tokens.py", ("encode", "decode"), ("engine.tokenizer.Tokenizer",)),
    Part(
        "softmax and cross-entropy",
        "day19_softmax.py",
        ("softmax", "cross_entropy"),
        ("engine.gpt.softmax", "engine.gpt.cross_entropy"),
    ),
    Part("attention", "day22_attention.py", ("attention_head",), ("engine.gpt.attention_head",)),
    Part(
        "multi-head attention",
        "day23_multi_head.py",
        ("multi_head_attention",),
        ("engine.gpt.attention",),
    ),
    Part("RMSNorm", "day24_rmsnorm_residual.py", ("rmsnorm",), ("engine.gpt.rmsnorm",)),
    Part("GPT", "day25_microgpt.py", ("gpt",), ("engine.gpt.gpt",)),
    Part("learning-rate schedule", "day26_training_gpt.py", ("lr_at",), ("engine.gpt.lr_at",)),
    Part(
        "broadcasting", "day31_tensors.py", ("broadcast_shape",), ("engine.tensor.broadcast_shape",)
    ),
    Part("matrix product", "day31_tensors.py", ("matmul",), ("engine.tensor._matmul",)),
    Part(
        "causal mask",
        "day34_batched_attention.py",
        ("causal_mask",),
        ("engine.batched_gpt.causal_mask",),
    ),
    Part(
        "diagnostics",
        "day38_diagnostics.py",
        ("saturation", "std", "update_ratio"),
        (
            "engine.diagnostics.saturation",
            "engine.diagnostics.std",
            "engine.diagnostics.update_ratio",
        ),
    ),
)

# What a learner's file may not do while it loads, or while install tries its parts on a small
# example (sys.audit event names): an engine file only defines functions and classes.
_REFUSED_EVENTS = {
    "os.remove": "delete a file",
    "os.rmdir": "delete a folder",
    "shutil.rmtree": "delete a folder",
    "os.rename": "move a file",
    "os.truncate": "empty a file",
    "os.chmod": "change a file's permissions",
    "os.chown": "change a file's owner",
    "os.chflags": "change a file's flags",
    "os.utime": "change a file's times",
    "os.setxattr": "change a file's attributes",
    "os.removexattr": "change a file's attributes",
    "os.link": "make a link to a file",
    "os.symlink": "make a link to a file",
    "os.mkdir": "make a folder",
    "os.chdir": "change the working folder",
    "sqlite3.connect": "open a database file",
    "os.system": "run a command",
    "os.exec": "start a program",
    "os.fork": "start a process",
    "os.forkpty": "start a process",
    "os.posix_spawn": "start a process",
    "os.spawn": "start a process",
    "os.startfile": "start a program",
    "subprocess.Popen": "start a process",
    "os.kill": "stop a process",
    "os.killpg": "stop a process",
    "signal.pthread_kill": "stop a process",
    "_thread.start_new_thread": "start a thread",
    "ctypes.dlopen": "load a C library",
    "ctypes.dlsym": "load a C library",
    "ctypes.call_function": "call C code",
    "sys.addaudithook": "add an audit hook",
    "sys.settrace": "trace Python (sys.settrace)",
    "sys.setprofile": "trace Python (sys.setprofile)",
    "socket.connect": "connect to the network",
    "socket.bind": "open a network port",
}
# Each of those (and of what `_refusal` adds) as the page's message key, myEngine.action.*.
_ACTIONS = {
    "delete a file": "deleteFile",
    "delete a folder": "deleteFolder",
    "move a file": "moveFile",
    "empty a file": "emptyFile",
    "change a file's permissions": "changePermissions",
    "change a file's owner": "changeOwner",
    "change a file's flags": "changeFlags",
    "change a file's times": "changeTimes",
    "change a file's attributes": "changeAttributes",
    "make a link to a file": "makeLink",
    "make a folder": "makeFolder",
    "change the working folder": "changeFolder",
    "open a database file": "openDatabase",
    "run a command": "runCommand",
    "start a program": "startProgram",
    "start a process": "startProcess",
    "stop a process": "stopProcess",
    "start a thread": "startThread",
    "load a C library": "loadC",
    "call C code": "callC",
    "add an audit hook": "addAuditHook",
    "trace Python (sys.settrace)": "settrace",
    "trace Python (sys.setprofile)": "setprofile",
    "connect to the network": "connect",
    "open a network port": "openPort",
    "write a file": "writeFile",
    "change a function's code": "changeCode",
}
# os.open's flags that write to (or make) a file.
_WRITE_FLAGS = 0
for _flag in ("O_WRONLY", "O_RDWR", "O_APPEND", "O_CREAT", "O_TRUNC"):
    _WRITE_FLAGS |= getattr(os, _flag, 0)
# A function whose code or defaults change: the guard itself is one.
_REWRITES = ("__code__", "__defaults__", "__kwdefaults__")
LOAD_LIMIT = 10.0  # seconds a file may take to load, or a part its small example (CPython)

_hooked = False
_tried = []  # what a file tried and was refused, even when its code caught the refusal
# The threads there were before a file loads, and those started while one loaded.
_threads = {"known": None, "started": set(), "file": "one of your files", "pid": os.getpid()}
_limited = False

_state = {"modules": {}, "parts": (), "report": None}


def _refusal(event, args, events, write_flags):
    """What `event` would do that a loading file may not, or None."""
    what = events.get(event)
    if what is not None or event not in ("open", "object.__setattr__"):
        return what
    if event == "open" and len(args) > 2:
        mode, flags = args[1], args[2]
        if isinstance(mode, str) and any(flag in mode for flag in "wax+"):
            return "write a file"
        if isinstance(flags, int) and flags & write_flags:
            return "write a file"
    if event == "object.__setattr__" and len(args) > 1 and args[1] in _REWRITES:
        return "change a function's code"
    return None


def _audit_hook(guarded):
    """The audit hook: it refuses while one of the `guarded` functions (loading a learner's
    file, trying its parts) is on the stack, so learner code cannot switch it off by changing
    a flag, and it is off for everything else (a cell, the course's own code). What it reads
    is bound here, out of the learner's reach."""

    def audit(
        event,
        args,
        _events=types.MappingProxyType(dict(_REFUSED_EVENTS)),
        _flags=_WRITE_FLAGS,
        _refusal=_refusal,
        _actions=types.MappingProxyType(dict(_ACTIONS)),
        _getframe=sys._getframe,
        _guarded=guarded,
        _tried=_tried,
        _threads=_threads,
        _ident=threading.get_ident,
        _getpid=os.getpid,
    ):
        what = _refusal(event, args, _events, _flags)
        if what is None:
            return
        # A thread a file started while it loaded: refused while the file loads and after.
        thread, known = _ident(), _threads["known"]
        # A forked child (the grader's) has thread idents of its own: never the learner's.
        loading = known is not None and thread not in known
        late = any(t.ident == thread and t.is_alive() for t in _threads["started"])
        if (loading or late) and _getpid() == _threads["pid"]:
            file = _threads["file"]
        else:
            frame = _getframe(1)
            while frame is not None and frame.f_code not in _guarded:
                frame = frame.f_back
            if frame is None:
                return
            file = frame.f_locals.get("file") or "one of your files"
        message = (
            f"{file} tried to {what} while it loaded ({event}); an engine file only "
            "defines functions and classes. Remove that code from the file."
        )
        action = {"key": "myEngine.action." + _actions[what]}
        if file == "one of your files":
            file = {"key": "myEngine.error.someFile"}
        refused = (
            message,
            "myEngine.error.refused",
            {"file": file, "action": action, "event": event},
        )
        _tried.append(refused)
        raise MyEngineError(*refused)

    return audit


def _refuse_while_loading():
    global _hooked
    if not _hooked:
        sys.addaudithook(_audit_hook(frozenset({_load_file.__code__, _trial.__code__})))
        _hooked = True


def _refused():
    """Raise what a file tried and was refused (its code may have caught the refusal)."""
    if _tried:
        message, key, values = _tried[0]
        _tried.clear()
        raise MyEngineError(message, key, values)


class _TooLong(BaseException):
    """LOAD_LIMIT ran out (a BaseException: a learner's `except Exception` lets it through)."""


@contextlib.contextmanager
def _time_limit():
    """LOAD_LIMIT seconds for what runs inside, where a timer can stop Python (CPython's
    main thread: a notebook, the command line); elsewhere (the browser worker) the host's
    own time limit stops a file that never finishes."""
    global _limited
    usable = (
        not _limited
        and hasattr(signal, "setitimer")
        and sys.platform != "emscripten"
        and threading.current_thread() is threading.main_thread()
    )
    if not usable:
        yield
        return

    def stop(signum, frame):
        raise _TooLong

    previous = signal.signal(signal.SIGALRM, stop)
    delay, interval = signal.setitimer(signal.ITIMER_REAL, LOAD_LIMIT)
    start, _limited = time.monotonic(), True
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        _limited = False
        if delay:  # someone else's timer (a test runner's): it goes on where it was
            left = max(delay - (time.monotonic() - start), 0.001)
            signal.setitimer(signal.ITIMER_REAL, left, interval)


@contextlib.contextmanager
def _no_bytecode():
    """No .pyc written by the imports inside (the guard would take them for the learner's)."""
    before = sys.dont_write_bytecode
    sys.dont_write_bytecode = True
    try:
        yield
    finally:
        sys.dont_write_bytecode = before


def _text(err):
    """`str(err)`, or a stand-in when the learner's exception cannot say it."""
    try:
        return str(err)
    except BaseException:
        return "(its message could not be shown)"


def _thread_idents():
    return frozenset(t.ident for t in threading.enumerate())


def _import_state():
    return (
        list(sys.meta_path),
        list(sys.path_hooks),
        list(sys.path),
        dict(builtins.__dict__),
        dict(globals()),
        dict(sys.modules),
    )


def _changed_python(before):
    """What the file changed of Python itself or of this module (and is now put back), as
    (words, the page's message key, its values), or None."""
    meta_path, path_hooks, path, names, own, modules = before
    what = None
    # Modules a file imports are new here; one it replaced or took away is put back.
    swapped = [n for n, m in modules.items() if sys.modules.get(n) is not m]
    if swapped:
        sys.modules.update({n: modules[n] for n in swapped})
        what = (f"replaced the module {swapped[0]} (sys.modules)", "module", {"module": swapped[0]})
    now = globals()
    if any(now.get(k, own) is not v for k, v in own.items()) or len(now) != len(own):
        for name in [n for n in now if n not in own]:
            del now[name]
        now.update(own)
        what = what or ("changed engine.mine", "mine", {})
    if sys.meta_path != meta_path or sys.path_hooks != path_hooks:
        sys.meta_path[:], sys.path_hooks[:] = meta_path, path_hooks
        what = what or ("changed how Python imports (sys.meta_path)", "imports", {})
    if sys.path != path:
        sys.path[:] = path
        what = what or ("changed where Python imports from (sys.path)", "path", {})
    now = builtins.__dict__
    if any(now.get(k, names) is not v for k, v in names.items()) or len(now) != len(names):
        for name in [n for n in now if n not in names]:
            del now[name]
        now.update(names)
        what = what or ("changed Python's builtins", "builtins", {})
    return what


def _load_file(file, source):
    """The learner's `file` as a module; MyEngineError when it does not load."""
    name = "my_engine_" + file[:-3]
    module = types.ModuleType(name)
    module.__file__ = file
    # Tracebacks through the learner's code show their lines.
    linecache.cache[file] = (len(source), None, source.splitlines(True), file)
    # A file may import an engine module that loads another of the learner's files: this
    # load then runs inside that one's, and the outer load's records go on after it.
    outer = _threads["known"], _threads["file"]
    if outer[0] is None:
        _tried.clear()
    before = _import_state()
    _threads.update(
        known=outer[0] if outer[0] is not None else _thread_idents(), file=file, pid=os.getpid()
    )
    try:
        with _time_limit(), _no_bytecode():
            try:
                exec(compile(source, file, "exec"), module.__dict__)
            except MyEngineError:
                raise
            except SyntaxError as err:
                raise MyEngineError(
                    f"{file} has a syntax error on line {err.lineno}: {err.msg}. Fix it on day "
                    f"{int(file[3:5])}'s page (or in the file) and check it again.",
                    "myEngine.error.syntax",
                    {"file": file, "line": err.lineno, "error": err.msg, "day": int(file[3:5])},
                ) from None
            except _TooLong:
                raise MyEngineError(
                    f"{file} did not finish loading within {LOAD_LIMIT:g} s (a loop that never "
                    f"ends?). Fix it on day {int(file[3:5])}'s page and check it again.",
                    "myEngine.error.tooSlow",
                    {"file": file, "limit": f"{LOAD_LIMIT:g}", "day": int(file[3:5])},
                ) from None
            except KeyboardInterrupt:
                raise  # the page's Stop or time limit
            except BaseException as err:
                line = _line_in(err, file)
                where = f" on line {line}" if line else ""
                values = {"file": file, "error": type(err).__name__, "line": line}
                values.update(message=_text(err), day=int(file[3:5]))
                raise MyEngineError(
                    f"{file} did not load: {type(err).__name__}{where}: {_text(err)}. Fix it on "
                    f"day {int(file[3:5])}'s page (or in the file) and check it again.",
                    "myEngine.error.notLoadedOnLine" if line else "myEngine.error.notLoaded",
                    values,
                ) from None
    finally:
        changed = _changed_python(before)
        started = _thread_idents() - _threads["known"]
        # The threads themselves (an ident is reused once its thread ends).
        _threads["started"] |= {t for t in threading.enumerate() if t.ident in started}
        _threads["known"], _threads["file"] = outer
    _refused()
    if started:
        raise MyEngineError(
            f"{file} tried to start a thread while it loaded (it would run on after); an "
            "engine file only defines functions and classes. Remove that code from the file.",
            "myEngine.error.thread",
            {"file": file},
        )
    if changed:
        what, key, values = changed
        raise MyEngineError(
            f"{file} {what} while it loaded; an engine file only defines functions and "
            "classes. Remove that code from the file.",
            f"myEngine.error.{key}",
            {"file": file, **values},
        )
    return module


def _line_in(err, file):
    tb, line = err.__traceback__, 0
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == file:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _written(module, part):
    """Why `part` of the learner's loaded `module` cannot be used, as (English, page message
    {"key", "values"}), or None when it can."""
    file = part.file
    for name in part.needs:
        if not callable(getattr(module, name, None)):
            return _reason(f"{file} has no {name}", "missing", file=file, name=name)
        whose = _whose(getattr(module, name), module, file)
        if whose is not None:
            key = "courseEngines" if whose == "the course engine's" else "notWritten"
            return _reason(f"{file}'s {name} is {whose}, not yours", key, file=file, name=name)
    probe = _PROBES.get(part.name)
    if probe is None:
        return None
    try:
        with _time_limit():
            probe(module)
    except NotImplementedError:
        return _reason(f"{file} is not finished", "notFinished", file=file)
    except MyEngineError:
        raise  # it tried what a file may not (the audit hook)
    except _TooLong:
        limit = f"{LOAD_LIMIT:g}"
        return _reason(
            f"{file} did not finish a small example within {limit} s",
            "tooSlow",
            file=file,
            limit=limit,
        )
    except KeyboardInterrupt:
        raise
    except BaseException as err:  # a wrong answer is the learner's to see; a crash is not usable
        error, message = type(err).__name__, _text(err)
        return _reason(
            f"{file} fails on a small example ({error}: {message})",
            "fails",
            file=file,
            error=error,
            message=message,
        )
    finally:
        _refused()
    return None


def _reason(english, key, **values):
    """Why a part is not used: its English, and its page message (myEngine.reason.*)."""
    return english, {"key": "myEngine.reason." + key, "values": values}


def _whose(thing, module, file):
    """Whose `thing` (a function or class the learner's `module` defines) is, when it was not
    written in `file`: "the course engine's" (imported from engine), or None when it is theirs."""
    if isinstance(thing, type):
        if any(str(k.__module__).split(".")[0] == "engine" for k in thing.__mro__):
            return "the course engine's"
        return None if thing.__module__ == module.__name__ else "not written in the file"
    if str(getattr(thing, "__module__", "")).split(".")[0] == "engine":
        return "the course engine's"
    for _ in range(20):  # through decorators (functools.cache, wraps) to the function written
        if getattr(thing, "__code__", None) is not None or not hasattr(thing, "__wrapped__"):
            break
        thing = thing.__wrapped__
    code = getattr(thing, "__code__", None)
    return None if code is not None and code.co_filename == file else "not written in the file"


def _probe_value(module):
    V = module.Value
    a, b = V(2.0), V(-3.0)
    out = (a * b + a) ** 2
    for op in ("exp", "tanh", "relu"):
        getattr(V(0.5), op)()
    out.backward()


def _probe_calls(*calls):
    def probe(module):
        for name, args in calls:
            getattr(module, name)(*args)

    return probe


_PROBES = {
    "Value": _probe_value,
    "zero_grad": _probe_calls(("zero_grad", ([],))),
    "Neuron": lambda m: m.neuron([1.0], [0.5], _course_value()(0.0), "relu"),
    "MLP": lambda m: m.dense([1.0], [[0.5]], [_course_value()(0.0)], "relu"),
    "SGD and Adam": lambda m: (
        m.sgd_momentum_step([], [], 0.1, 0.9),
        m.adam_step([], [], [], 1, 0.1),
    ),
    "tokenizer": _probe_calls(("encode", ("ab", "ab")), ("decode", ([2, 0, 2], "ab"))),
    "softmax and cross-entropy": lambda m: (
        m.softmax([_course_value()(0.0)]),
        m.cross_entropy([_course_value()(0.0)], 0),
    ),
    "attention": lambda m: m.attention_head(
        [_course_value()(1.0)], [[_course_value()(1.0)]], [[_course_value()(1.0)]]
    ),
    "multi-head attention": lambda m: m.multi_head_attention(
        [_course_value()(1.0)] * 2, [[_course_value()(1.0)] * 2], [[_course_value()(1.0)] * 2], 2
    ),
    "RMSNorm": lambda m: m.rmsnorm([_course_value()(1.0)]),
    "GPT": lambda m: _probe_gpt(m.gpt),
    "learning-rate schedule": _probe_calls(("lr_at", (0, 10, 0.1))),
    "broadcasting": _probe_calls(("broadcast_shape", ((2, 1), (3,)))),
    "matrix product": _probe_calls(("matmul", ([1.0, 2.0], (1, 2), [3.0, 4.0], (2, 1)))),
    "causal mask": _probe_calls(("causal_mask", (2,))),
    "diagnostics": _probe_calls(
        ("std", ([1.0, 2.0],)), ("saturation", ([0.5],)), ("update_ratio", ([1.0, 2.0], [1.5, 2.0]))
    ),
}


def _probe_gpt(gpt):
    from engine.gpt import GPTConfig, init_gpt, new_kv_cache

    config = GPTConfig(vocab_size=3, n_embd=4, n_head=2, n_layer=1, block_size=2)
    keys, values = new_kv_cache(config)
    gpt(init_gpt(config, seed=0), 0, 0, keys, values)


def _course_value():
    """The Value the probes build numbers with: the learner's once installed, else the course's."""
    value = sys.modules.get("engine.value")
    if value is not None:
        return value.Value
    from engine.value import Value

    return Value


# -- the bridges: the learner's code, speaking the course's interfaces -----------------------


def bridge_value(learner_value, file):
    """The learner's Value class, also accepting the course's way of making a node
    (`Value(data, children, local_grads, op, label=...)`), with the operations the course
    never asked for lent from the course. Returns (class, names lent)."""

    class Value(learner_value):
        def __init__(self, data, _children=(), *rest, label="", **kwargs):
            op, local = kwargs.pop("_op", ""), kwargs.pop("_local_grads", ())
            for item in rest:
                if isinstance(item, str):
                    op = item
                else:
                    local = tuple(item)
            learner_value.__init__(self, data, tuple(_children), op)
            self.label = label
            if local:
                children = tuple(_children)
                out = self
                self.__dict__["_my_local"] = tuple(local)

                def _backward():  # the course's fused nodes (engine.gpt) give local derivatives
                    for child, d in zip(children, local):
                        child.grad += d * out.grad

                self._backward = _backward

        # What the course's graph code reads (engine.graph, day 6's cells): the inputs, and
        # each one's local derivative, found by running the learner's `_backward` once.
        @property
        def _children(self):
            return tuple(self._prev)

        @property
        def _local_grads(self):
            return self.__dict__.get("_my_local") or local_derivatives(self)

        def __getattr__(self, name):
            if name.startswith("__"):
                raise AttributeError(name)
            raise said(
                AttributeError,
                "mine.noAttribute",
                f"your Value ({file}) has no {name!r}. If a lesson cell needs it, add it to "
                f"your Value in {file}, or turn off My engine.",
                file=file,
                name=repr(name),
            )

    lent = []
    for name, make in _LENT.items():
        if not hasattr(learner_value, name):
            setattr(Value, name, make(Value))
            lent.append(name)
    Value.__name__ = Value.__qualname__ = "Value"
    Value.__module__ = learner_value.__module__
    return Value, lent


def local_derivatives(node):
    """d node / d input for each of `node._prev`, found by running its `_backward` once with
    node.grad = 1 and every input's grad at 0 (then put back). An input used twice gets the
    sum of both roads at its first place, 0 at the second."""
    children = tuple(node._prev)
    saved, out_grad = [c.grad for c in children], node.grad
    got = {}
    try:
        for c in children:
            c.grad = 0.0
        node.grad = 1.0
        node._backward()
        got = {id(c): c.grad for c in children}
    finally:
        for c, g in zip(children, saved):
            c.grad = g
        node.grad = out_grad
    local, given = [], set()
    for c in children:
        local.append(0.0 if id(c) in given else got.get(id(c), 0.0))
        given.add(id(c))
    return tuple(local)


def _lend_log(V):
    def log(self):
        if self.data <= 0:
            raise said(
                ValueError,
                "mine.logNotPositive",
                f"log needs a positive number, got {self.data}",
                x=self.data,
            )
        return V(math.log(self.data), (self,), (1.0 / self.data,), "log")

    return log


def _lend_rpow(V):
    def __rpow__(self, base):
        out = base**self.data
        return V(out, (self,), (out * math.log(base),), "**")

    return __rpow__


def _lend_topological_order(V):
    def topological_order(self):
        """Every Value this one depends on (through `_prev`), each after its inputs."""
        order, seen, stack = [], set(), [(self, False)]
        while stack:
            node, inputs_placed = stack.pop()
            if inputs_placed:
                order.append(node)
            elif node not in seen:
                seen.add(node)
                stack.append((node, True))
                stack.extend((child, False) for child in node._prev if child not in seen)
        return order

    return topological_order


_LENT = {"log": _lend_log, "__rpow__": _lend_rpow, "topological_order": _lend_topological_order}


def _neuron_call(neuron):
    def __call__(self, x):
        if len(x) != len(self.w):
            raise said(  # the course's Neuron says the same
                ValueError,
                "nn.inputs",
                f"this neuron takes {len(self.w)} inputs, got {len(x)}",
                n=len(self.w),
                got=len(x),
            )
        return neuron(list(x), self.w, self.b, self.act)

    return __call__


def _layer_call(dense):
    def __call__(self, x):
        act = self.neurons[0].act
        W = [n.w for n in self.neurons]
        b = [n.b for n in self.neurons]
        out = dense(list(x), W, b, act)
        return out[0] if len(out) == 1 else out

    return __call__


def _sgd_step(sgd_momentum_step):
    def step(self):
        sgd_momentum_step(self.params, self.velocity, self.lr, self.momentum)

    return step


def _adam_step(adam_step):
    def step(self):
        self.t += 1
        adam_step(self.params, self.m, self.v, self.t, self.lr, self.beta1, self.beta2, self.eps)

    return step


def _tokenizer(course_tokenizer, encode, decode):
    class Tokenizer(course_tokenizer):
        def encode(self, text, bos=True):
            course_tokenizer.encode(self, text, bos)  # the course's clear error for a bad letter
            ids = list(encode(text, self.chars))
            return ids if bos else ids[1:-1]

        def decode(self, ids, skip_bos=False):
            ids = list(ids)
            course_tokenizer.decode(self, ids, skip_bos)  # the course's clear error for a bad id
            if skip_bos:
                return decode(ids, self.chars)
            # BOS shown as the course shows it; the characters between, by the learner's decode.
            pieces, run = [], []
            for i in ids + [self.bos]:
                if i != self.bos:
                    run.append(i)
                    continue
                pieces += [decode(run, self.chars) if run else "", self.symbol(self.bos)]
                run = []
            return "".join(pieces[:-1])

    Tokenizer.__module__ = course_tokenizer.__module__
    return Tokenizer


def _keeping_record(course, learner, keyword, position):
    """The learner's function, except when the course's explorers ask for what it records
    (argument `keyword`, or the one at `position`)."""

    def function(*args, **kwargs):
        record = kwargs.get(keyword)
        if len(args) > position:
            record = args[position]
        if record is not None:
            return course(*args, **kwargs)
        kwargs.pop(keyword, None)
        return learner(*args[:position], **kwargs)

    function.__name__ = learner.__name__
    function.__doc__ = learner.__doc__
    return function


def _flat_matmul(matmul):
    """engine.tensor's flat product of (n, k) and (k, m), by the learner's day 31 matmul."""

    def _matmul(a, b, n, k, m):
        data, shape = matmul(list(a), (n, k), list(b), (k, m))
        if tuple(shape) != (n, m) or len(data) != n * m:
            raise said(
                ValueError,
                "mine.matmulShape",
                f"your matmul (day31_tensors.py) gave shape {tuple(shape)} for ({n}, {k}) @ "
                f"({k}, {m}); it should be ({n}, {m})",
                shape=tuple(shape),
                n=n,
                k=k,
                m=m,
            )
        return list(data)

    return _matmul


def _numbers_first(numbers, learner):
    def function(*args, **kwargs):
        return learner(
            *(
                numbers(a) if isinstance(a, (list, tuple)) or hasattr(a, "data") else a
                for a in args
            ),
            **kwargs,
        )

    function.__name__ = learner.__name__
    return function


def _apply(part, module, namespace):
    """Put `part` (the learner's loaded `module`) into the course module's `namespace`."""
    name = part.name
    if name == "zero_grad":
        namespace["zero_grad"] = module.zero_grad
    elif name == "Value":
        namespace["Value"], lent = bridge_value(module.Value, part.file)
        namespace["_my_engine_lent"] = lent
        # The learner's own operations make the bridged class too, so `(a * b).log()` works.
        module.Value = namespace["Value"]
    elif name == "Neuron":
        namespace["Neuron"].__call__ = _neuron_call(module.neuron)
    elif name == "MLP":
        namespace["Layer"].__call__ = _layer_call(module.dense)
    elif name == "SGD and Adam":
        namespace["SGD"].step = _sgd_step(module.sgd_momentum_step)
        namespace["Adam"].step = _adam_step(module.adam_step)
    elif name == "tokenizer":
        namespace["Tokenizer"] = _tokenizer(namespace["Tokenizer"], module.encode, module.decode)
    elif name == "attention":
        namespace["attention_head"] = _keeping_record(
            namespace["attention_head"], module.attention_head, "record", 3
        )
    elif name == "multi-head attention":
        namespace["attention"] = _keeping_record(
            namespace["attention"], module.multi_head_attention, "record", 4
        )
    elif name == "GPT":
        namespace["gpt"] = _keeping_record(namespace["gpt"], module.gpt, "trace", 5)
    elif name == "matrix product":
        namespace["_matmul"] = _flat_matmul(module.matmul)
    elif name == "diagnostics":
        numbers = namespace["_numbers"]
        for fn in part.needs:
            namespace[fn] = _numbers_first(numbers, getattr(module, fn))
    else:
        for fn in part.needs:
            namespace[fn] = getattr(module, fn)


# -- the import hook ----------------------------------------------------------------------


class _Loader(importlib.abc.Loader):
    def __init__(self, course_loader, fullname):
        self.course_loader, self.fullname = course_loader, fullname

    def create_module(self, spec):
        return self.course_loader.create_module(spec)

    def exec_module(self, module):
        self.course_loader.exec_module(module)
        package = sys.modules.get("engine")
        parts = [
            part
            for part in _state["parts"]
            if any(r.rsplit(".", 1)[0] == self.fullname for r in part.replaces)
        ]
        replaced = {r.rsplit(".", 1)[1] for part in parts for r in part.replaces}
        # A learner file that imports `engine` while engine/__init__ still runs (day 7's,
        # under engine.value) finds what that package re-exports: the course's names the
        # learner did not write at once (the course's Value, when day 8 is not passed yet),
        # each of theirs once it is in.
        self._export(module, package, lambda name: name not in replaced)
        for part in parts:
            learner = _learner_module(part)
            try:
                _apply(part, learner, module.__dict__)
            except AttributeError as err:  # the file loaded differently the second time
                raise MyEngineError(
                    f"{part.file} did not define the same names when it loaded again "
                    f"({_text(err)}); an engine file only defines functions and classes. "
                    "Remove the code that changes from one load to the next.",
                    "myEngine.error.loadedAgain",
                    {"file": part.file, "error": _text(err)},
                ) from None
            self._export(module, package, lambda name: True)

    @staticmethod
    def _export(module, package, which):
        if package is not None and package is not module:
            for name in getattr(module, "__all__", ()):
                if which(name):
                    package.__dict__.setdefault(name, module.__dict__[name])


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path, target=None):
        if fullname != "engine" and not fullname.startswith("engine."):
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _Loader(spec.loader, fullname)
        return spec


_FINDER = _Finder()


def _learner_module(part):
    """The learner's module of `part`, loaded on first use (after the engine it imports)."""
    modules = _state["modules"]
    if part.file not in modules:
        modules[part.file] = _load_file(part.file, _state["sources"][part.file])
    return modules[part.file]


def _drop_engine():
    """Take engine and its modules (but this one) out of sys.modules; return them."""
    names = [n for n in sys.modules if (n == "engine" or n.startswith("engine.")) and n != __name__]
    return {name: sys.modules.pop(name) for name in names}


def install(sources):
    """Use the learner's files (`{exercise file name: source}`) as the engine from the next
    import of an engine module on. Returns {"parts": [...], "line": str}; raises
    MyEngineError, with the engine left as it was, when a file cannot be used."""
    uninstall()
    try:
        sources = {str(k): str(v) for k, v in dict(sources).items()}
    except (TypeError, ValueError):
        raise MyEngineError(
            "install takes a dict of exercise file names and their text, e.g. "
            "{'day08_more_ops.py': source}",
            "myEngine.error.notSources",
        ) from None
    _refuse_while_loading()
    # Each file loads once, on its own, before anything changes: a bad file changes nothing.
    # (The files of day 10 on import engine: they load on a throwaway copy of the course's,
    # so a file that changes what it imports leaves the course's own modules as they were.)
    course = _drop_engine()
    try:
        with _no_bytecode():
            parts, rows = _trial(sources)
    finally:
        _drop_engine()
        sys.modules.update(course)
    _state.update(modules={}, parts=tuple(parts), sources=sources)
    # The course's modules come back as they were on uninstall: whatever holds them (a test,
    # an explorer imported earlier) keeps working with the same classes.
    _state["course"] = _drop_engine()
    sys.meta_path.insert(0, _FINDER)
    try:
        import engine.value as value  # the learner's Value and zero_grad, loaded now

        lent = getattr(value, "_my_engine_lent", [])
    except BaseException:  # a file that does not load, or the page's Stop: the course's again
        uninstall()
        raise
    for row in rows:
        if row["part"] == "Value" and lent:
            row["lent"] = [{"key": _LENT_NAMES[n][0]} for n in lent]
    report = {"parts": rows, "line": parts_line(rows)}
    _state["report"] = report
    return report


def _trial(sources):
    """Load each known file of `sources` and try its parts: (parts, rows of the report).
    The audit hook refuses while this runs; the files' modules go before it returns, so an
    object's `__del__` runs here too."""
    known = {p.file for p in PARTS}
    trial = {}
    for file in sorted(sources):
        if file in known:
            trial[file] = _load_file(file, sources[file])
    parts, rows = [], []
    for part in PARTS:
        file = part.file  # the audit hook's message names it
        module = trial.get(file)
        if module is None:
            rows.append(_row(part, yours=False))
            continue
        why = _written(module, part)
        if why is not None:
            rows.append(_row(part, yours=False, why=why))
            continue
        parts.append(part)
        rows.append(_row(part, yours=True))
    file = "one of your files"
    module = None
    # An object's __del__ that never ends is stopped by the time limit, quietly.
    hook = sys.unraisablehook
    sys.unraisablehook = lambda what: None if what.exc_type is _TooLong else hook(what)
    try:
        with _time_limit():
            try:
                trial.clear()
                gc.collect()
            except _TooLong:
                pass
    finally:
        sys.unraisablehook = hook
    return parts, rows


# What the course lends the learner's Value: each one's page message and its English.
_LENT_NAMES = {
    "log": ("myEngine.lent.log", "log"),
    "__rpow__": ("myEngine.lent.rpow", "a number to a Value's power"),
    "topological_order": ("myEngine.lent.topologicalOrder", "topological_order"),
}
_LENT_WORDS = dict(_LENT_NAMES.values())


def _row(part, yours, why=None):
    """A row of the report: what the page writes in its language (web/myenginetext.js) as data.
    `reason`: why a file that is there is not used, as a page message (myEngine.reason.*);
    None for a part that is the learner's or whose file was not passed. `why`: the English
    of the row's course-engine text."""
    english, reason = why or (None, None)
    tail = f"pass day {part.day} to use yours"
    return {
        "part": part.name,
        "name": {"key": part.key},
        "file": part.file,
        "day": part.day,
        "yours": yours,
        "reason": reason,
        "why": None if yours else (f"{english}; {tail}" if english else tail),
        "lent": [],
    }


def parts_line(rows, lang="en"):
    """One line: which parts are the learner's and which the course engine's. In English, or
    in Russian or Estonian ("ru", "et") as the page writes the same rows (web/myenginetext.js),
    for a notebook in that language."""
    words = _words(lang)
    if words is not None:
        return " · ".join(_part_text(row, words) for row in rows)
    items = []
    for row in rows:
        if row["yours"]:
            text = f"{row['part']}: yours (day {row['day']})"
            if row.get("lent"):
                lent = " and ".join(_LENT_WORDS[item["key"]] for item in row["lent"])
                text += f", with {lent} from the course engine"
        else:
            # Why a file that was there is not used ("day14_optimizers.py is not finished");
            # with no file, which day to pass.
            text = f"{row['part']}: course engine — {row['why']}"
        items.append(text)
    return " · ".join(items)


def message_in(error, lang="en"):
    """A MyEngineError's message in `lang` ("en", "ru", "et"), as the page says it: its English
    when it names no page message or the language is English."""
    return _message_in(error, lang)


def _list(items, words):
    """A list in `words` ("a и b", "a, b и c"), as web/myenginetext.js writes it."""
    first, *rest = items
    if not rest:
        return first
    if len(rest) == 1:
        return _say(
            {"key": "myEngine.parts.pair", "values": {"first": first, "second": rest[0]}}, words
        )
    return _say(
        {"key": "myEngine.parts.more", "values": {"first": first, "rest": _list(rest, words)}},
        words,
    )


def _part_text(row, words):
    values = {"part": _say(row["name"], words), "day": row["day"]}
    if row["yours"]:
        lent = [_say(item, words) for item in row.get("lent") or []]
        if lent:
            return _say(
                {
                    "key": "myEngine.parts.yoursLent",
                    "values": {**values, "lent": _list(lent, words)},
                },
                words,
            )
        return _say({"key": "myEngine.parts.yours", "values": values}, words)
    if row.get("reason") is None:
        return _say({"key": "myEngine.parts.course", "values": values}, words)
    reason = _say(row["reason"], words)
    return _say(
        {"key": "myEngine.parts.courseBecause", "values": {**values, "reason": reason}}, words
    )


def uninstall():
    """Back to the course engine from the next import on."""
    if _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)
        _drop_engine()
        sys.modules.update(_state.pop("course", {}))
    _state.update(modules={}, parts=(), report=None)


@contextlib.contextmanager
def course_engine():
    """The course's own engine for what runs inside, the installed one again after: Check
    grades an exercise on the course engine, whatever the cells run on."""
    if _FINDER not in sys.meta_path:
        yield
        return
    sys.meta_path.remove(_FINDER)
    mine = _drop_engine()
    sys.modules.update(_state.get("course", {}))
    try:
        yield
    finally:
        _drop_engine()
        sys.modules.update(mine)
        sys.meta_path.insert(0, _FINDER)


def installed():
    """The report of the engine in use now, or None when it is the course's."""
    return _state["report"]


def speed_ratio(repeats=3):
    """How many times slower one small MLP training step is on the installed engine than on
    the course's: the page warns before a long training cell with it."""
    if _state["report"] is None:
        return 1.0
    import engine.nn as mine_nn

    mine_time = _time_steps(mine_nn, repeats)
    sys.meta_path.remove(_FINDER)
    mine = _drop_engine()
    try:
        import engine.nn as course_nn  # the course's own, fresh

        course_time = _time_steps(course_nn, repeats)
    finally:
        _drop_engine()
        sys.modules.update(mine)
        sys.meta_path.insert(0, _FINDER)
    return mine_time / course_time if course_time > 0 else 1.0


def _time_steps(nn, repeats):
    import random

    random.seed(0)
    model = nn.MLP(4, [16, 16, 1])
    xs = [[random.uniform(-1, 1) for _ in range(4)] for _ in range(8)]
    best = math.inf
    for _ in range(repeats):
        start = time.perf_counter()
        loss = sum((model(x) - 1.0) ** 2 for x in xs)
        model.zero_grad()
        loss.backward()
        best = min(best, time.perf_counter() - start)
    return best
