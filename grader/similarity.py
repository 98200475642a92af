"""How much of a learner's own code is also found in the course's engine or in a classmate's file.

The score never depends on this: it is a report for the instructor. Two questions:

- `engine_matches(files)`: did the learner paste (or lightly disguise) code from the course's
  own `engine/` package, which every learner can read?
- `class_matches(submissions)`: do two learners of a class hand in the same code?

Both compare with copydetect (MOSS's method): each file is tokenized with names,
strings and comments dropped (every identifier becomes `V`, so renaming changes
nothing), cut into k-grams of NOISE_T characters of that filtered text, and two files
share the k-grams they have in common. Winnowing keeps every k-gram here
(GUARANTEE_T == NOISE_T): exercise files are small, and keeping all makes the result the
same on every run (winnowing keeps the smallest of Python's per-process salted hashes).

The stub the learner was given (exercises/<same name>) is boilerplate: its k-grams are
removed from the learner's file before comparing, so the share is the fraction of the
learner's OWN code (the filtered characters that only the learner's k-grams cover) that
is also in the other file. A file where the learner wrote fewer than MIN_OWN filtered
characters (no stub k-gram covers them) is not judged at all: the untouched stub, or an
exercise whose whole answer is a few short lines every learner writes alike.

A match is reported when share >= THRESHOLD. THRESHOLD, NOISE_T and MIN_OWN come from
measurements over the course's 30 exercises (tests/grader/similarity/measure.py): see
the "Similarity" section of grader/README.md for the numbers behind them.
"""

import ast
import functools
import io
import textwrap
import warnings
from pathlib import Path

from .submission import MAX_FILE

THRESHOLD = 0.6  # share of the learner's own code found in the other file
NOISE_T = 20  # k: the shortest run of filtered characters that counts as shared
GUARANTEE_T = NOISE_T  # window 1: every k-gram is a fingerprint (reproducible results)
MIN_OWN = 60  # filtered characters the learner wrote, below which a file is not judged
MAX_SOURCE = MAX_FILE  # a larger file is not read at all (the submission refuses it too)

ROOT = Path(__file__).resolve().parent.parent
ENGINE_DIR = ROOT / "engine"
# A checkout has the stubs in exercises/; the Gradescope zip ships them as stubs/.
STUB_DIRS = (ROOT / "exercises", ROOT / "stubs")


def available():
    """True when copydetect can be imported (the trusted grader installs it)."""
    try:
        import copydetect  # noqa: F401
    except ImportError:
        return False
    return True


# -- reading learner bytes ---------------------------------------------------------------


def source_text(data):
    """The file's text if it is UTF-8 Python that parses and is not too big, else None."""
    if not isinstance(data, bytes) or not data or len(data) > MAX_SOURCE:
        return None
    try:
        text = data.decode("utf-8-sig")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes and the like are not our report
            ast.parse(text)
    except (SyntaxError, ValueError, UnicodeDecodeError, RecursionError, MemoryError):
        return None
    return text


# -- fingerprints ---------------------------------------------------------------------------


_STATEMENTS = (ast.FunctionDef, ast.ClassDef, ast.Assign, ast.AugAssign, ast.Return, ast.For)


def code_in_strings(text, depth=2):
    """The Python programs that `text` holds in string literals (`exec("def f(): ...")`),
    nested up to `depth`: copydetect drops strings, so code run from a string would
    otherwise never count. Prose and one-line expressions are not programs here."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            continue
        inner = textwrap.dedent(node.value)
        try:
            program = ast.parse(inner)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        if any(isinstance(n, _STATEMENTS) for n in ast.walk(program)):
            found.append(inner)
            if depth > 1:
                found += code_in_strings(inner, depth - 1)
    return found


def _fingerprint(text):
    """copydetect's fingerprint of Python text and of the code in its strings (stubs,
    engine and learner files alike); the name is a label, never opened."""
    from copydetect import CodeFingerprint

    text = "\n".join([text, *code_in_strings(text)])

    return CodeFingerprint(
        "<code>", NOISE_T, GUARANTEE_T - NOISE_T + 1, fp=io.StringIO(text), language="python"
    )


def _without(fingerprint, boilerplate):
    """The fingerprint with every k-gram of `boilerplate` (a set of hashes) removed.

    Done here rather than by copydetect's `boilerplate=` argument: copydetect 0.5.0 passes
    the fingerprints, repeats included, to np.intersect1d(..., assume_unique=True), which
    then also drops repeated k-grams that are not boilerplate and shrinks the own code.
    """
    from copydetect.utils import get_token_coverage

    kept = {h: idx for h, idx in fingerprint.hash_idx.items() if h not in boilerplate}
    fingerprint.hashes = set(kept)
    fingerprint.hash_idx = kept
    fingerprint.token_coverage = get_token_coverage(kept, NOISE_T, len(fingerprint.filtered_code))
    return fingerprint


def written_chars(fingerprint, boilerplate):
    """How many filtered characters of the file no k-gram of the stub covers: what the
    learner wrote, without the given code around it."""
    from copydetect.utils import get_token_coverage

    given = {h: idx for h, idx in fingerprint.hash_idx.items() if h in boilerplate}
    size = len(fingerprint.filtered_code)
    return size - int(get_token_coverage(given, NOISE_T, size))


class Kgrams:
    """A fingerprinted file as arrays: where each k-gram starts (in order), its hash, and
    the file's distinct hashes sorted; `coverage` is copydetect's token_coverage."""

    def __init__(self, fingerprint):
        import numpy as np

        pairs = sorted((i, h) for h, idx in fingerprint.hash_idx.items() for i in idx)
        self.starts = np.array([i for i, _ in pairs], dtype=np.int64)
        self.hashes = np.array([h for _, h in pairs], dtype=np.int64)
        self.distinct = np.unique(self.hashes)
        self.coverage = float(fingerprint.token_coverage)


def share(own, other):
    """The fraction of `own`'s code that is also in `other` (two Kgrams; 0 to 1).

    What copydetect.compare_files gives as the first similarity (the characters covered by
    the k-grams of `own` that `other` also has, overlaps counted once, over own's
    token_coverage), computed with a few array operations: compare_files builds arrays per
    shared k-gram and would take most of a class's time (tests/grader/test_similarity.py
    checks that the two agree).
    """
    import numpy as np

    if not own.coverage or not len(other.distinct):
        return 0.0
    where = np.searchsorted(other.distinct, own.hashes)
    where[where == len(other.distinct)] = 0
    shared = own.starts[other.distinct[where] == own.hashes]
    if not len(shared):
        return 0.0
    covered = NOISE_T + int(np.minimum(np.diff(shared), NOISE_T).sum())
    return covered / own.coverage


class _Stubs:
    """Each exercise's stub as a set of k-gram hashes, looked up by name in a listing.

    The learner's file name is only a key here: it never becomes part of a path.
    """

    def __init__(self, stub_dir=None):
        folder = stub_dir if stub_dir is not None else _first_dir(STUB_DIRS)
        self._paths = {} if folder is None else {p.name: p for p in Path(folder).glob("*.py")}

    def hashes(self, exercise):
        """The stub's hashes, or None when there is no stub of that name."""
        path = self._paths.get(exercise)
        return None if path is None else _stub_hashes(path, NOISE_T)


@functools.lru_cache(maxsize=256)
def _stub_hashes(path, k):
    """Every k-gram hash of a stub (made once per process: a class reuses each stub)."""
    return frozenset(_fingerprint(path.read_text()).hashes)


def _first_dir(folders):
    return next((f for f in folders if f.is_dir()), None)


class _OwnCode:
    """Learner files as fingerprints of their own code, each distinct file made once."""

    def __init__(self, stubs):
        self._stubs = stubs
        self._made = {}

    def fingerprint(self, exercise, data):
        """Kgrams of what the learner wrote, or None when there is nothing to judge."""
        key = (exercise, data)
        if key not in self._made:
            self._made[key] = self._make(exercise, data)
        return self._made[key]

    def _make(self, exercise, data):
        boilerplate = self._stubs.hashes(exercise)
        text = source_text(data)
        if boilerplate is None or text is None:
            return None  # without the stub, the given code would count as the learner's
        fingerprint = _fingerprint(text)
        if written_chars(fingerprint, boilerplate) < MIN_OWN:
            return None
        return Kgrams(_without(fingerprint, boilerplate))


@functools.lru_cache(maxsize=4)
def _engine_fingerprints(engine_dir, k):
    """{"engine/<name>.py": fingerprint} of every module of the engine (made once per process)."""
    return {
        f"engine/{path.name}": Kgrams(_fingerprint(path.read_text()))
        for path in sorted(Path(engine_dir).glob("*.py"))
    }


# -- the two reports ------------------------------------------------------------------------


def engine_matches(files, engine_dir=ENGINE_DIR, stub_dir=None):
    """Each exercise file whose own code is THRESHOLD or more in one engine module.

    `files` is {exercise file name: bytes} (one submission). Returns a list of
    {"exercise": name, "match": "engine/<module>.py", "share": float 0..1}, one per
    (exercise, module) at or above THRESHOLD, sorted by exercise then highest share.
    """
    own_code = _OwnCode(_Stubs(stub_dir))
    engine = _engine_fingerprints(Path(engine_dir), NOISE_T)
    found = []
    for exercise in sorted(files):
        own = own_code.fingerprint(exercise, files[exercise])
        if own is None:
            continue
        for module, kgrams in engine.items():
            part = share(own, kgrams)
            if part >= THRESHOLD:
                found.append({"exercise": exercise, "match": module, "share": round(part, 3)})
    found.sort(key=lambda m: (m["exercise"], -m["share"], m["match"]))
    return found


def class_matches(submissions, stub_dir=None):
    """Each learner whose own code in an exercise is THRESHOLD or more in a classmate's file.

    `submissions` is {learner label: {exercise file name: bytes}}. Each pair is compared
    once per exercise and reported in each direction that reaches THRESHOLD: a row
    {"exercise", "learner", "match": the classmate's label, "share": float 0..1} says that
    `share` of `learner`'s own code is also in `match`'s file. A copier who added code of
    their own may thus appear as `match` only. Sorted by exercise, learner, match.
    """
    own_code = _OwnCode(_Stubs(stub_dir))
    found = []
    for exercise in sorted({e for files in submissions.values() for e in files}):
        found.extend(_exercise_matches(exercise, submissions, own_code))
    found.sort(key=lambda m: (m["exercise"], m["learner"], m["match"]))
    return found


def _exercise_matches(exercise, submissions, own_code):
    """The class_matches rows of one exercise."""
    judged = []
    for learner in sorted(submissions):
        data = submissions[learner].get(exercise)
        own = None if data is None else own_code.fingerprint(exercise, data)
        if own is not None:
            judged.append((learner, own))
    rows = []
    for i, (learner, own) in enumerate(judged):
        for classmate, theirs in judged[i + 1 :]:
            forth, back = share(own, theirs), share(theirs, own)
            if forth >= THRESHOLD:
                rows.append(_row(exercise, learner, classmate, forth))
            if back >= THRESHOLD:
                rows.append(_row(exercise, classmate, learner, back))
    return rows


def _row(exercise, learner, match, part):
    return {"exercise": exercise, "learner": learner, "match": match, "share": round(part, 3)}
