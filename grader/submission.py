"""Read a submission -- a folder laid out like exercises/, or a zip of one -- safely.

A submission holds exercise files only. Symlinks, conftest.py, sitecustomize.py, .pth
files, folders and anything else are refused with a message that says what to remove.
Zips are read entry by entry into memory (never extracted): absolute paths, `..`,
symlink entries, oversized or malformed archives are refused.

A folder that holds, instead of the exercise files, one zip of them (the site's "All
exercises (.zip)" download, left unextracted, e.g. uploaded as is to Gradescope) or one
file of the site's "Export my work" (web/transfer.js: JSON whose items
"exercise/dayNN_slug.py" hold the learner's code) is read from that file, with the same
limits and refusals: nothing in it is ever written to disk.
"""

import json
import stat
import zipfile
import zlib
from pathlib import Path, PurePosixPath

try:
    from lzma import LZMAError
except ImportError:  # a Python built without lzma cannot open LZMA entries at all

    class LZMAError(Exception):
        pass


from .checks import EXERCISES
from .messages import Message, msg, render

MAX_FILE = 256 * 1024
MAX_TOTAL = 2 * 2**20
MAX_ZIP = 4 * 2**20
MAX_ENTRIES = 200
MAX_EXPORT = 5 * 2**20  # web/transfer.js's MAX_FILE_BYTES: the largest work file it writes
EXPORT_FORMAT = "course-work"  # web/transfer.js's FORMAT
EXPORT_COURSE = "derivative-to-gpt"  # web/storage.js's COURSE
EXPORT_ITEM = "exercise/"  # an exercise edit's key: "exercise/day05_add_mul.py"
IGNORED_DIRS = {"__pycache__", "__MACOSX", ".ipynb_checkpoints"}
IGNORED_FILES = {".DS_Store", "Thumbs.db"}


class Rejected(ValueError):
    """The submission cannot be graded; the message tells the learner what to change.

    The message may quote a name from the submission: it is made printable here (a file
    name's undecodable bytes or a zip's lone surrogates become escapes), so no report,
    terminal or CSV file that writes it can fail.

    The message is a Message (grader/messages.py) shown in the reader's language, its
    fields made printable; str() of the exception is its English.
    """

    def __init__(self, message):
        if isinstance(message, Message):
            values = {
                k: printable(v) if isinstance(v, str) else v for k, v in message.values.items()
            }
            message = Message(message.id, values)
            self.message = message
            super().__init__(render(message))
        else:
            self.message = printable(message)
            super().__init__(self.message)


def printable(text):
    """`text` with anything UTF-8 cannot encode written as escapes: a file name's raw
    bytes (which Python keeps as surrogates) as \\xff, other lone surrogates as \\ud800."""
    try:
        raw = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return raw.decode("utf-8", "backslashreplace")


def _allowed():
    return ", ".join(EXERCISES)


def _refuse_name(name):
    base = PurePosixPath(name).name
    if base in ("conftest.py", "sitecustomize.py", "usercustomize.py"):
        why = msg("{name} would change how Python or pytest runs", name=printable(base))
    elif base.endswith(".pth"):
        why = msg("{name} is a .pth file, which Python runs at start-up", name=printable(base))
    elif base.endswith(".py"):
        why = msg("{name} is not an exercise of this course", name=printable(name))
    else:
        why = msg("{name} is not an exercise file", name=printable(name))
    raise Rejected(
        msg(
            "{why}. A submission holds only exercise files ({exercises}), laid out like "
            "exercises/. Remove it and submit again.",
            why=why,
            exercises=_allowed(),
        )
    )


def _accept(files, name, data):
    if name in IGNORED_FILES:
        return
    if "/" in name or name not in EXERCISES:
        _refuse_name(name)
    if name in files:
        raise Rejected(msg("{name} appears twice in the submission; keep one copy.", name=name))
    if len(data) > MAX_FILE:
        raise Rejected(
            msg(
                "{name} is {size} bytes; an exercise file may be at most {most}.",
                name=name,
                size=len(data),
                most=MAX_FILE,
            )
        )
    files[name] = data
    if sum(len(d) for d in files.values()) > MAX_TOTAL:
        raise Rejected(msg("the submission is larger than {most} bytes in total.", most=MAX_TOTAL))


def load(path):
    """{exercise file name: bytes} of the submission at `path`, or Rejected."""
    path = Path(path)
    if path.is_symlink():
        raise Rejected(
            msg("{path} is a symbolic link; submit the folder or zip itself.", path=str(path))
        )
    if path.is_dir():
        return _load_dir(path)
    if path.is_file():
        if path.name.lower().endswith(".json"):  # the site's "Export my work" file
            return _load_export(path)
        return _load_zip(path)
    if path.exists():  # a FIFO, a socket, a device: nothing to read a submission from
        raise Rejected(
            msg(
                "{name} is not a file or a folder; submit the folder or zip itself.",
                name=path.name,
            )
        )
    raise FileNotFoundError(
        f"{path} does not exist: give a folder laid out like exercises/ or a zip"
    )


def _load_dir(folder):
    entries = [e for e in folder.iterdir() if e.name not in IGNORED_DIRS]
    # A single folder inside (e.g. exercises/ from the site's download) is the submission.
    if len(entries) == 1 and entries[0].is_dir() and not entries[0].is_symlink():
        folder, entries = (
            entries[0],
            [e for e in entries[0].iterdir() if e.name not in IGNORED_DIRS],
        )
    packed = _packed(entries)
    if packed is not None:
        return packed
    files = {}
    for entry in sorted(entries):
        if len(files) > MAX_ENTRIES:
            raise Rejected(msg("the submission has too many files."))
        if entry.is_symlink():
            raise Rejected(
                msg(
                    "{name} is a symbolic link; a submission holds only real exercise "
                    "files. Replace the link with the file itself.",
                    name=entry.name,
                )
            )
        if entry.is_dir():
            raise Rejected(
                msg(
                    "{name}/ is a folder; put the exercise files themselves at the top "
                    "level ({exercises}).",
                    name=entry.name,
                    exercises=_allowed(),
                )
            )
        if not stat.S_ISREG(entry.lstat().st_mode):
            raise Rejected(msg("{name} is not a regular file.", name=entry.name))
        if entry.name in IGNORED_FILES:
            continue
        if entry.name not in EXERCISES:
            _refuse_name(entry.name)
        if entry.stat().st_size > MAX_FILE:
            raise Rejected(
                msg("{name} is larger than {most} bytes.", name=entry.name, most=MAX_FILE)
            )
        _accept(files, entry.name, entry.read_bytes())
    return files


def _load_zip(path):
    if path.stat().st_size > MAX_ZIP:
        raise Rejected(
            msg(
                "{name} is larger than {most} bytes; zip only the exercise files.",
                name=path.name,
                most=MAX_ZIP,
            )
        )
    try:
        with zipfile.ZipFile(path) as archive:
            return _read_zip(archive)
    except Rejected:
        raise
    except zipfile.BadZipFile as exc:
        raise Rejected(
            msg("{name} is not a readable zip file ({error}).", name=path.name, error=str(exc))
        ) from None
    except (EOFError, OSError, NotImplementedError, RuntimeError, zlib.error, LZMAError) as exc:
        # A damaged deflate / LZMA / bzip2 stream raises zlib.error, LZMAError or OSError.
        raise Rejected(
            msg(
                "{name} could not be read as a zip ({error}); make the zip again from the "
                "exercise files.",
                name=path.name,
                error=f"{type(exc).__name__}: {exc}",
            )
        ) from None
    except Exception as exc:  # anything else a crafted archive provokes: still a refusal
        raise Rejected(
            msg(
                "{name} could not be read as a zip ({error}); make the zip again from the "
                "exercise files, with plain file names.",
                name=path.name,
                error=type(exc).__name__,
            )
        ) from None


def _read_zip(archive):
    infos = archive.infolist()
    if len(infos) > MAX_ENTRIES:
        raise Rejected(
            msg(
                "the zip has {count} entries; it should hold only the exercise files.",
                count=len(infos),
            )
        )
    members = []
    for info in infos:
        name = info.filename
        parts = PurePosixPath(name).parts
        if not parts or "\0" in info.orig_filename:
            raise Rejected(
                msg(
                    "the zip has an entry with an empty or broken name ({name}); zip the "
                    "exercise files themselves, with plain names.",
                    name=repr(name),
                )
            )
        if name.startswith(("/", "\\")) or "\\" in name or ":" in name or ".." in parts:
            raise Rejected(
                msg(
                    "the zip entry {name} points outside the submission; zip the exercise "
                    "files themselves, with plain relative names.",
                    name=repr(name),
                )
            )
        if stat.S_ISLNK(info.external_attr >> 16):
            raise Rejected(
                msg("the zip entry {name} is a symbolic link; zip the real file.", name=repr(name))
            )
        if any(p in IGNORED_DIRS for p in parts) or info.is_dir():
            continue
        members.append((parts, info))
    # The site's download puts every file in one folder (exercises/); strip it. A stray
    # .DS_Store beside that folder is no file of the submission: it does not count.
    members = [(parts, info) for parts, info in members if parts[-1] not in IGNORED_FILES]
    tops = {parts[0] for parts, _ in members if len(parts) > 1}
    if len(tops) == 1 and all(len(parts) > 1 for parts, _ in members):
        members = [(parts[1:], info) for parts, info in members]
    files = {}
    for parts, info in members:
        name = "/".join(parts)
        if parts[-1] in IGNORED_FILES:
            continue
        if len(parts) != 1 or name not in EXERCISES:
            _refuse_name(name)
        if info.file_size > MAX_FILE:
            raise Rejected(
                msg(
                    "{name} unpacks to {size} bytes; the limit is {most}.",
                    name=name,
                    size=info.file_size,
                    most=MAX_FILE,
                )
            )
        with archive.open(info) as handle:
            data = handle.read(MAX_FILE + 1)  # the header's size may lie: read no more
        if len(data) > MAX_FILE:
            raise Rejected(
                msg("{name} unpacks to more than {most} bytes.", name=name, most=MAX_FILE)
            )
        _accept(files, name, data)
    return files


def _packed(entries):
    """The files of the one zip or work file that stands in the folder instead of the
    exercise files; None when the folder is not that (it is then read file by file)."""
    if len(entries) > MAX_ENTRIES:
        return None
    kept = [e for e in entries if e.name not in IGNORED_FILES]
    packs = [e for e in kept if e.name.lower().endswith((".zip", ".json"))]
    if not packs:
        return None
    exercises = [e for e in kept if e.name in EXERCISES]
    if exercises:
        raise Rejected(
            msg(
                "the submission holds exercise files and {name}; submit one or the "
                "other: the exercise files themselves, or the zip of them alone.",
                name=packs[0].name,
            )
        )
    if len(packs) > 1 or len(kept) > 1:
        names = ", ".join(sorted(e.name for e in kept)[:5])
        raise Rejected(
            msg(
                "the submission holds {count} files ({names}); submit the exercise files "
                "themselves, or one zip of them (the site's download) alone.",
                count=len(kept),
                names=names,
            )
        )
    pack = packs[0]
    if pack.is_symlink() or not stat.S_ISREG(pack.lstat().st_mode):
        raise Rejected(msg("{name} is not a regular file; submit the file itself.", name=pack.name))
    if pack.name.lower().endswith(".zip"):
        return _load_zip(pack)
    return _load_export(pack)


def _load_export(path):
    """The exercise files of a file of the site's "Export my work" (web/transfer.js)."""
    if path.stat().st_size > MAX_EXPORT:
        raise Rejected(
            msg(
                "{name} is larger than {most} bytes, more than a file of exported "
                "work; submit the exercise files themselves.",
                name=path.name,
                most=MAX_EXPORT,
            )
        )
    with path.open("rb") as handle:
        raw = handle.read(MAX_EXPORT + 1)
    if len(raw) > MAX_EXPORT:
        raise Rejected(msg("{name} is larger than {most} bytes.", name=path.name, most=MAX_EXPORT))
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        data = None
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise Rejected(
            msg(
                '{name} is not a file of the site\'s "Export my work"; submit the '
                'exercise files themselves (or the site\'s "All exercises (.zip)").',
                name=path.name,
            )
        )
    if data.get("course") != EXPORT_COURSE:
        raise Rejected(
            msg("{name} holds the work of another course; submit this course's.", name=path.name)
        )
    items = data.get("items")
    if not isinstance(items, dict):
        raise Rejected(msg("{name} has no list of items; export your work again.", name=path.name))
    files = {}
    for key, item in items.items():
        if not isinstance(key, str) or not key.startswith(EXPORT_ITEM):
            continue  # answers, cell edits, done marks: not exercise files
        name = key[len(EXPORT_ITEM) :]
        if name not in EXERCISES:
            continue  # "exercise/<file>/done" and the like
        code = item.get("code") if isinstance(item, dict) else None
        if not isinstance(code, str):
            raise Rejected(
                msg(
                    "in {file}, {name} holds no code; export your work again.",
                    file=path.name,
                    name=name,
                )
            )
        try:
            encoded = code.encode("utf-8")
        except UnicodeEncodeError:
            raise Rejected(
                msg("in {file}, {name} is not valid text.", file=path.name, name=name)
            ) from None
        _accept(files, name, encoded)
    if not files:
        raise Rejected(
            msg(
                "{name} holds no exercise you edited; submit the exercise files themselves.",
                name=path.name,
            )
        )
    return files
