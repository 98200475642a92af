"""The uid level's walls where there is no bubblewrap: a chroot, a uid of its own per case.

Without user namespaces (a container that has none), root can still chroot and change
uid. So each case runs:

- inside a jail: a folder holding only the interpreter, its standard library and the
  shared libraries they load (hard links or copies, all root-owned and read-only), the
  case's staged files and one empty scratch folder. No /proc, no /tmp, no /dev/shm, no
  course tree: nothing of the host is reachable.
- as a uid that no account and no other running case has, so a case cannot signal,
  trace or read another case (concurrent cases of one run, or of other learners).
- with the staged files root-owned and readable only by that case's group: root never
  hands a learner-writable path to chown. The scratch folder is made fresh by root in a
  root-owned parent and given to the uid without following links.

After the case, every process of the uid is killed, and its scratch folder, its staged
folder and any file it owns in /tmp, /var/tmp or /dev/shm are removed.
"""

import atexit
import fcntl
import os
import pwd
import re
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
from pathlib import Path

__all__ = ["Jail", "JailError"]

UID_BASE = 1_900_000_000  # far above any account's uid and any subordinate-uid range
SLOTS = 64
LOCKS = Path("/run/lock/course-grader-uids")
CHROOT = shutil.which("chroot", path="/usr/sbin:/usr/bin:/sbin:/bin") or "/usr/sbin/chroot"
# Parts of the standard library a case never needs (and the biggest ones).
SKIP = {"test", "site-packages", "idlelib", "tkinter", "turtledemo", "ensurepip", "lib2to3"}
_LDD_PATH = re.compile(r"(/\S+) \(0x")


class JailError(RuntimeError):
    """The jail cannot be built or entered here (not root, no chroot, ...)."""


def _interpreter_paths(python):
    """(stdlib folder, lib-dynload folder) of `python`, as it reports them itself."""
    code = "import os, _ctypes; print(os.path.dirname(os.__file__)); print(_ctypes.__file__)"
    try:
        out = subprocess.run(
            [python, "-I", "-S", "-c", code], capture_output=True, text=True, timeout=30, check=True
        ).stdout.split("\n")
    except (OSError, subprocess.SubprocessError) as exc:
        raise JailError(f"could not ask {python} where its standard library is ({exc})") from exc
    return out[0], os.path.dirname(out[1])


def _shared_libraries(binaries):
    """Every shared library (with its loader) that `binaries` load, from ldd."""
    libs = set()
    for chunk in range(0, len(binaries), 50):
        result = subprocess.run(
            ["ldd", *binaries[chunk : chunk + 50]], capture_output=True, text=True, timeout=60
        )
        libs.update(_LDD_PATH.findall(result.stdout))
    return sorted(libs)


def _place(source, root):
    """Put `source` at the same absolute path under `root`: a hard link when that is safe."""
    target = Path(root, source.lstrip("/"))
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o755)
    real = os.path.realpath(source)
    mode = os.stat(real).st_mode
    writable = mode & (stat.S_IWGRP | stat.S_IWOTH) or os.stat(real).st_uid != 0
    try:
        if writable:
            raise OSError("copy instead")  # a link would share a writable inode
        os.link(real, target)
    except OSError:
        shutil.copy2(real, target)
        os.chown(target, 0, 0)
        os.chmod(target, (mode & 0o555) | 0o444)


class Jail:
    """One root-owned jail for one interpreter, built once, then entered by every case."""

    _lock = threading.Lock()

    def __init__(self, python):
        if os.geteuid() != 0:
            raise JailError("the uid level changes uid and chroots: it needs root")
        if not os.path.exists(CHROOT):
            raise JailError("the uid level needs the chroot command (coreutils)")
        self.python = python
        self.root = tempfile.mkdtemp(prefix="grader-jail-")
        atexit.register(shutil.rmtree, self.root, ignore_errors=True)
        os.chmod(self.root, 0o755)
        try:
            self._build()
        except (OSError, subprocess.SubprocessError) as exc:
            raise JailError(f"could not build the jail for {python} ({exc})") from exc
        self._free = list(range(SLOTS))
        self._held = {}

    def _build(self):
        stdlib, dynload = _interpreter_paths(self.python)
        binaries = [self.python]
        for folder, dirs, names in os.walk(stdlib):
            dirs[:] = [d for d in dirs if d not in SKIP]
            for name in names:
                path = os.path.join(folder, name)
                if os.path.isfile(path):
                    _place(path, self.root)
                    if name.endswith(".so") and folder.startswith(dynload):
                        binaries.append(path)
        for path in [self.python, *_shared_libraries(binaries)]:
            _place(path, self.root)
        for folder in ("cases", "scratch"):
            os.mkdir(Path(self.root, folder), 0o711)

    # -- one case --------------------------------------------------------------------

    def acquire(self):
        """A uid no other case (of this process or another grader's) is using now."""
        LOCKS.mkdir(parents=True, exist_ok=True, mode=0o700)
        with self._lock:
            for slot in list(self._free):
                uid = UID_BASE + slot
                handle = open(LOCKS / str(uid), "a")  # noqa: SIM115 -- held until release
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    handle.close()
                    continue
                if _has_account(uid):
                    handle.close()
                    continue
                self._free.remove(slot)
                self._held[uid] = (slot, handle)
                return uid
        raise JailError(f"all {SLOTS} sandbox uids are in use")

    def stage(self, uid, files):
        """Write `files` into the case's folder; return (argv prefix, child path, env)."""
        case_dir = Path(self.root, "cases", str(uid))
        scratch = Path(self.root, "scratch", str(uid))
        for folder in (case_dir, scratch):
            shutil.rmtree(folder, ignore_errors=True)
        os.mkdir(case_dir, 0o750)
        for name, data in files.items():
            path = case_dir / name
            for parent in reversed(path.relative_to(case_dir).parents[:-1]):
                folder = case_dir / parent
                if not folder.exists():
                    os.mkdir(folder, 0o750)
                    os.chown(folder, 0, uid)
            path.write_bytes(data)
            os.chown(path, 0, uid)
            os.chmod(path, 0o440)
        os.chown(case_dir, 0, uid)
        os.mkdir(scratch, 0o700)
        os.chown(scratch, uid, uid, follow_symlinks=False)  # made just now by root
        argv = [CHROOT, f"--userspec={uid}:{uid}", f"--groups={uid}", self.root]
        inside = f"/scratch/{uid}"
        return argv, f"/cases/{uid}/child.py", {"TMPDIR": inside, "HOME": inside}

    def scratch_bytes(self, uid, most_entries=2000):
        """Bytes under the case's scratch folder (more than any cap past `most_entries`)."""
        total, seen = 0, 0
        stack = [str(Path(self.root, "scratch", str(uid)))]
        while stack:
            try:
                entries = list(os.scandir(stack.pop()))
            except OSError:
                continue
            for entry in entries:
                seen += 1
                if seen > most_entries:
                    return float("inf")  # a flood of files is itself too much
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                total += info.st_blocks * 512
                if stat.S_ISDIR(info.st_mode):
                    stack.append(entry.path)
        return total

    def release(self, uid):
        """Kill what the uid still runs, remove what it left, and free the uid."""
        _kill_uid(uid)
        for folder in (Path(self.root, "cases", str(uid)), Path(self.root, "scratch", str(uid))):
            shutil.rmtree(folder, ignore_errors=True)
        for shared in ("/tmp", "/var/tmp", "/dev/shm"):
            _remove_owned(shared, uid)
        with self._lock:
            slot, handle = self._held.pop(uid)
            handle.close()
            self._free.append(slot)


def _has_account(uid):
    try:
        pwd.getpwuid(uid)
    except KeyError:
        return False
    return True


def _kill_uid(uid):
    """SIGKILL every process whose real or effective uid is `uid` (there should be none)."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status") as handle:
                for line in handle:
                    if line.startswith("Uid:"):
                        if str(uid) in line.split()[1:3]:
                            os.kill(int(entry), signal.SIGKILL)
                        break
        except (OSError, ValueError):
            pass


def _remove_owned(folder, uid):
    """Remove the entries of `folder` (one level: the uid can write nowhere deeper) it owns."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        try:
            if entry.stat(follow_symlinks=False).st_uid != uid:
                continue
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)
            else:
                os.unlink(entry.path)
        except OSError:
            pass
