"""The child harness: runs ONE case of ONE exercise inside the sandbox, then exits.

Started as `python -I -S -B child.py` in a directory holding only this file, the
`runners` package (the child side of the checks: no expected value, no formula), the
learner's exercise file and (if the exercise needs it) the part of `engine` its check
allows.
It reads one JSON request on stdin, tightens its own limits before any learner code
runs, and writes one JSON line -- plain numbers or an error, tagged with the nonce --
to the private file descriptor it was given. It never sees an expected value.

Stdlib only; the trusted grader never imports this module.
"""

import ctypes
import importlib
import importlib.util
import json
import os
import resource
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def _limit(name, value):
    kind = getattr(resource, name, None)
    if kind is not None:
        try:
            resource.setrlimit(kind, (value, value))
        except (ValueError, OSError):
            pass


def apply_limits(limits):
    """Lower soft and hard limits together, so learner code cannot raise them again."""
    _limit("RLIMIT_CPU", limits["cpu_seconds"])
    _limit("RLIMIT_AS", limits["memory_bytes"])
    _limit("RLIMIT_FSIZE", limits["file_bytes"])
    _limit("RLIMIT_NOFILE", 64)
    _limit("RLIMIT_CORE", 0)
    _limit("RLIMIT_NPROC", limits["processes"])


def install_seccomp(program):
    """Load the seccomp filter the grader built (no new processes, no sockets)."""
    libc = ctypes.CDLL(None, use_errno=True)
    pr_set_no_new_privs, pr_set_seccomp, seccomp_mode_filter = 38, 22, 2
    if libc.prctl(pr_set_no_new_privs, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
    buffer = ctypes.create_string_buffer(program, len(program))

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = SockFprog(len(program) // struct.calcsize("HBBI"), ctypes.addressof(buffer))
    if libc.prctl(pr_set_seccomp, seccomp_mode_filter, ctypes.byref(fprog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP) failed")


def main():
    request = json.loads(sys.stdin.buffer.read(4_000_000))
    fd, nonce = request["fd"], request["nonce"]
    apply_limits(request["limits"])
    if request.get("seccomp"):
        install_seccomp(bytes.fromhex(request["seccomp"]))

    sys.path.insert(0, HERE)  # -I leaves the script's folder off the path
    exercise = request["exercise"]
    stem = exercise[:-3]
    runner = importlib.import_module(f"runners.{stem}")
    from runners import describe_error, execute

    # The learner's module, loaded from its file under its own name (not "__main__").
    try:
        spec = importlib.util.spec_from_file_location(stem, os.path.join(HERE, exercise))
        module = importlib.util.module_from_spec(spec)
        sys.modules[stem] = module
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as exc:
        outcome = {"error": describe_error(exc, exercise)}
    else:
        outcome = execute(runner, module, request["case"], exercise)

    line = json.dumps({"nonce": nonce, "outcome": outcome}).encode() + b"\n"
    while line:
        line = line[os.write(fd, line) :]
    # Leave at once: no atexit handlers, no finalizers of learner objects.
    os._exit(0)


if __name__ == "__main__":
    main()
