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

- in an IPC namespace of its own (where root may make one, checked once): no System V
  or POSIX IPC object is shared with the host or another case, its shared memory is
  capped like the tmpfs of the bwrap level, and all of it goes when the case ends.

After the case, every process of the uid is killed, and its scratch folder, its staged
folder, any file it owns in /tmp, /var/tmp or /dev/shm and any System V IPC object it
owns on the host are removed. A uid whose folders cannot be removed is retired: this
process never hands it to another case. The uid locks live in a folder only root may
write (/run/course-grader), checked before use.
"""

import atexit
import ctypes
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
import time
from pathlib import Path

from .messages import msg, render

__all__ = ["CaseNotRun", "Jail", "JailError", "remove_tree"]

# Far above any account's uid and any subordinate-uid range. Graders that kept their locks
# in /run/lock used 1_900_000_000 + 0..63: a grader of that version running on the same
# host does not see these locks, so it must not share a uid with this one either.
UID_BASE = 1_900_001_000
SLOTS = 64
LOCKS = Path("/run/course-grader")  # /run is root's alone: no user can put anything there
SYSTEM = "/usr/sbin:/usr/bin:/sbin:/bin"
CHROOT = shutil.which("chroot", path=SYSTEM) or "/usr/sbin/chroot"
UNSHARE = shutil.which("unshare", path=SYSTEM)
SHELL = shutil.which("sh", path=SYSTEM)
PRLIMIT = shutil.which("prlimit", path=SYSTEM)
RM = shutil.which("rm", path=SYSTEM) or "/bin/rm"
PAGE = os.sysconf("SC_PAGE_SIZE")
# Parts of the standard library a case never needs (and the biggest ones).
SKIP = {"test", "site-packages", "idlelib", "tkinter", "turtledemo", "ensurepip", "lib2to3"}
_LDD_PATH = re.compile(r"(/\S+) \(0x")


class JailError(RuntimeError):
    """The jail cannot be built or entered here (not root, no chroot, ...)."""


class CaseNotRun(JailError):
    """This one case could not be run (no free uid, its folder could not be prepared):
    a fault of the machine, not of the learner's code. `message` says why (a Message, in
    the reader's language where it is shown; str() is its English)."""

    def __init__(self, message):
        self.message = message
        super().__init__(render(message))


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

    def __init__(self, python, locks=None):
        if os.geteuid() != 0:
            raise JailError("the uid level changes uid and chroots: it needs root")
        if not os.path.exists(CHROOT):
            raise JailError("the uid level needs the chroot command (coreutils)")
        self.python = python
        self.locks = locks or LOCKS
        self._locks_fd = lock_folder(self.locks)  # checked before anything is built
        self.namespaces = _namespaces()  # the unshare options that work here
        self.ipc_namespace = "--ipc" in self.namespaces
        self.root = tempfile.mkdtemp(prefix="grader-jail-")
        atexit.register(self.close)
        os.chmod(self.root, 0o755)
        try:
            self._build()
        except (OSError, subprocess.SubprocessError) as exc:
            raise JailError(f"could not build the jail for {python} ({exc})") from exc
        self._free = list(range(SLOTS))
        self._held = {}
        self._retired = {}  # uid: lock handle, kept: its folders could not be removed

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

    def acquire(self, wait_seconds=30.0):
        """A uid no other case (of this process or another grader's) is using now.

        When every uid is busy, waits up to `wait_seconds` for one, then raises CaseNotRun.
        """
        deadline = time.monotonic() + wait_seconds
        while True:
            uid = self._try_acquire()
            if uid is not None:
                return uid
            if len(self._retired) == SLOTS:
                raise CaseNotRun(
                    msg(
                        "every one of the {count} sandbox uids was retired after a case left "
                        "files that could not be removed: restart the grader",
                        count=SLOTS,
                    )
                )
            if time.monotonic() >= deadline:
                raise CaseNotRun(
                    msg(
                        "no sandbox uid came free within {seconds} s: all {count} are in use "
                        "by other grading runs (locks in {locks}); grade again later",
                        seconds=f"{wait_seconds:g}",
                        count=SLOTS,
                        locks=str(self.locks),
                    )
                )
            time.sleep(0.1)

    def _try_acquire(self):
        """A free uid, locked and marked held, or None when every slot is busy now."""
        with self._lock:
            for slot in list(self._free):
                uid = UID_BASE + slot
                handle = self._lock_file(uid)
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    os.close(handle)
                    continue
                if _has_account(uid):
                    os.close(handle)
                    continue
                self._free.remove(slot)
                self._held[uid] = (slot, handle)
                return uid
        return None

    def _lock_file(self, uid):
        """The lock file of `uid` in the lock folder: a root-owned regular file, never a link."""
        flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
        try:
            handle = os.open(str(uid), flags, 0o600, dir_fd=self._locks_fd)
        except OSError as exc:
            raise JailError(f"could not open the uid lock {self.locks}/{uid} ({exc})") from exc
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != 0:
            os.close(handle)
            raise JailError(
                f"{self.locks}/{uid} is not a regular file owned by root: remove it "
                "(someone else made it) and grade again"
            )
        return handle

    def namespace_prefix(self, shm_bytes):
        """The argv that puts the case in an IPC namespace of its own, with its System V
        objects capped (`shm_bytes` of shared memory), and in a network namespace of its own
        where root may make one (no network, and abstract unix socket names of its own:
        a socketpair() socket can be bound to one). Where there is no IPC namespace, the
        host's POSIX message queues are closed to it (they cannot be listed to clean up:
        RLIMIT_MSGQUEUE 0), and its System V objects are watched and removed instead."""
        if not self.ipc_namespace:
            return [PRLIMIT, "--msgqueue=0:0", "--"] if PRLIMIT else []
        return [*_unshare(self.namespaces), str(max(1, shm_bytes // PAGE))]

    def stage(self, uid, files, shm_bytes=16 * 2**20):
        """Write `files` into the case's folder; return (argv prefix, child path, env).

        Raises CaseNotRun when the folders cannot be made (a full disk, ...)."""
        try:
            prefix, child, env = self._stage(uid, files)
        except OSError as exc:
            raise CaseNotRun(
                msg("could not prepare the case's folder ({error})", error=str(exc))
            ) from exc
        return [*self.namespace_prefix(shm_bytes), *prefix], child, env

    def _folders(self, uid):
        """The case's staged folder and its scratch folder."""
        return Path(self.root, "cases", str(uid)), Path(self.root, "scratch", str(uid))

    def _stage(self, uid, files):
        case_dir, scratch = self._folders(uid)
        for folder in (case_dir, scratch):
            if not remove_tree(folder):
                raise OSError(f"{folder} is left from an earlier case and cannot be removed")
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

    def scratch_bytes(self, uid, most_entries=2000, widest=256):
        """Bytes under the case's scratch folder (more than any cap past `most_entries`).

        Walks by directory descriptors, not paths: a tree deeper than PATH_MAX (long names)
        is measured all the same. More than `widest` folders waiting to be read is itself
        too much (it bounds the descriptors held open here).
        """
        total, seen = 0, 0
        try:
            pending = [_open_folder(self._folders(uid)[1])]
        except OSError:
            return 0
        try:
            while pending:
                folder = pending.pop()
                try:
                    entries = list(os.scandir(folder))
                except OSError:
                    entries = []
                for entry in entries:
                    seen += 1
                    if seen > most_entries or len(pending) > widest:
                        return float("inf")  # a flood of files is itself too much
                    try:
                        info = entry.stat(follow_symlinks=False)
                        total += info.st_blocks * 512
                        if stat.S_ISDIR(info.st_mode):
                            pending.append(_open_folder(entry.name, folder))
                    except OSError:
                        continue
                os.close(folder)
            return total
        finally:
            for folder in pending:
                os.close(folder)

    def ipc_bytes(self, uid):
        """Bytes of System V shared memory and queued messages the uid holds on the host
        (an IPC namespace of its own, where there is one, holds the rest)."""
        return sum(row["bytes"] for row in _ipc_objects(uid))

    def release(self, uid):
        """Kill what the uid still runs, remove what it left, and free the uid; a uid whose
        folders are still there afterwards is retired (kept locked, never used again)."""
        _kill_uid(uid)
        gone = [remove_tree(folder) for folder in self._folders(uid)]
        for shared in ("/tmp", "/var/tmp", "/dev/shm"):
            _remove_owned(shared, uid)
        _remove_ipc(uid)
        with self._lock:
            slot, handle = self._held.pop(uid)
            if all(gone):
                os.close(handle)
                self._free.append(slot)
            else:
                self._retired[uid] = handle

    def close(self):
        """Remove the jail (at exit)."""
        remove_tree(self.root)


def lock_folder(path):
    """An open descriptor of the uid lock folder `path`, made if missing; refused unless
    it is a real folder (not a link) owned by root that no one else may write to."""
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError as exc:
        raise JailError(f"could not make the uid lock folder {path} ({exc})") from exc
    try:
        handle = _open_folder(path)
    except OSError as exc:
        raise JailError(
            f"the uid lock folder {path} is not a folder ({exc}): a link or file put there by "
            "someone else? Remove it and grade again"
        ) from exc
    info = os.fstat(handle)
    if info.st_uid != 0 or info.st_mode & 0o022:
        os.close(handle)
        raise JailError(
            f"the uid lock folder {path} belongs to uid {info.st_uid} with mode "
            f"{stat.S_IMODE(info.st_mode):o}: it must be root's and writable by root only; "
            "remove it and grade again"
        )
    return handle


def _open_folder(name, parent=None):
    """A descriptor of the folder `name` (under the descriptor `parent`), never via a link."""
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
    return os.open(name, flags, dir_fd=parent)


def remove_tree(path, timeout=120):
    """Remove `path` however deep, wide or oddly named the tree under it; True once it
    is gone. rm walks with descriptors (fts), so depth and PATH_MAX do not stop it."""
    path = os.fspath(path)
    if not os.path.lexists(path):
        return True
    try:
        subprocess.run(
            [RM, "-rf", "--one-file-system", "--", path],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=timeout,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        pass
    return not os.path.lexists(path)


# A new IPC namespace (unshare), capped before the case starts: shared memory pages ($1),
# 16 message queues, and small semaphore sets, so kernel memory stays bounded too.
_CAPS = (
    'echo "$1" > /proc/sys/kernel/shmall && echo 16 > /proc/sys/kernel/msgmni && '
    'echo "64 1024 32 16" > /proc/sys/kernel/sem && shift && exec "$@"'
)


def _unshare(options):
    """unshare with `options`, then the shell that caps the new IPC namespace ($1 pages)."""
    return [UNSHARE or "unshare", *options, "--", SHELL or "/bin/sh", "-c", _CAPS, "sh"]


def _namespaces():
    """The unshare options root can use here for each case: IPC and network namespaces,
    IPC alone, or none (no CAP_SYS_ADMIN, no unshare): checked once, with a trial run."""
    if not (UNSHARE and SHELL):
        return []
    for options in (["--ipc", "--net"], ["--ipc"]):
        try:
            trial = subprocess.run(
                [*_unshare(options), "1", "true"], capture_output=True, timeout=30, check=False
            )
        except (OSError, subprocess.SubprocessError):
            return []
        if trial.returncode == 0:
            return options
    return []


# /proc/sysvipc/<kind>: the column giving an object's size in bytes (sem: none kept)
_IPC_KINDS = {"shm": "size", "msg": "cbytes", "sem": None}


def _ipc_objects(uid):
    """The System V objects (of the host's IPC namespace) that `uid` owns or created:
    [{"kind", "id", "bytes"}]. The owner can hand an object to another uid; the
    creator stays."""
    found = []
    for kind, size in _IPC_KINDS.items():
        try:
            lines = Path("/proc/sysvipc", kind).read_text().splitlines()
        except OSError:
            continue
        header = lines[0].split() if lines else []
        for line in lines[1:]:
            row = dict(zip(header, line.split()))
            if str(uid) in (row.get("uid"), row.get("cuid")):
                ident = row.get("shmid") or row.get("msqid") or row.get("semid")
                found.append({"kind": kind, "id": int(ident), "bytes": int(row.get(size, 0))})
    return found


def _remove_ipc(uid):
    """IPC_RMID every System V object of `uid` (its processes are dead by now)."""
    libc = ctypes.CDLL(None, use_errno=True)
    ipc_rmid = 0
    for item in _ipc_objects(uid):
        if item["kind"] == "shm":
            libc.shmctl(item["id"], ipc_rmid, None)
        elif item["kind"] == "msg":
            libc.msgctl(item["id"], ipc_rmid, None)
        else:
            libc.semctl(item["id"], 0, ipc_rmid)


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
                remove_tree(entry.path)
            else:
                os.unlink(entry.path)
        except OSError:
            pass
