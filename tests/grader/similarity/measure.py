"""Measure what grader/similarity.py reports on the course's own files, to choose its constants.

    python -m tests.grader.similarity.measure [--k 12 15 20 25]   (from the repository root)

For every exercise, with MIN_OWN off so every share shows:
  own       filtered characters of the reference the stub does not have (MIN_OWN compares it)
  ref>eng   share of the reference's own code in the closest engine module
  honest    share of a second, independent solution (honest/) in the reference / the engine
  renamed   share of a disguised reference (names, comments, blank lines, order) in the reference
  pasted    share of the stub with the engine's functions pasted in, in that engine module
"""

import argparse
import time
from pathlib import Path

from grader import similarity as sim

from .disguise import disguise, paste_engine

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]


def _own(own_code, name, text):
    return own_code.fingerprint(name, text.encode())


def _written(own_code, name, text):
    return sim.written_chars(sim._fingerprint(text), own_code._stubs.hashes(name))


def _best(own, targets):
    """(share, module) of the engine module holding most of `own`."""
    if own is None:
        return 0.0, "-"
    return max((sim.share(own, fp), module) for module, fp in targets.items())


def measure(k):
    sim.NOISE_T = sim.GUARANTEE_T = k
    sim.MIN_OWN = 0
    own_code = sim._OwnCode(sim._Stubs(ROOT / "exercises"))
    engine = sim._engine_fingerprints(ROOT / "engine", k)
    rows = []
    for reference in sorted((ROOT / "solutions").glob("*.py")):
        name, text = reference.name, reference.read_text()
        ref = _own(own_code, name, text)
        reference_print = sim.Kgrams(sim._fingerprint(text))
        row = {"exercise": name[:5], "own": _written(own_code, name, text)}
        row["ref>eng"], row["module"] = _best(ref, engine)
        renamed = _own(own_code, name, disguise(text))
        row["renamed"] = 0.0 if renamed is None else sim.share(renamed, reference_print)
        honest_file = HERE / "honest" / name
        if honest_file.exists():
            honest = _own(own_code, name, honest_file.read_text())
            row["hon>ref"] = 0.0 if honest is None else sim.share(honest, reference_print)
            row["hon>eng"], _ = _best(honest, engine)
        pasted_text, modules = paste_engine((ROOT / "exercises" / name).read_text())
        if modules:
            pasted = _own(own_code, name, pasted_text)
            row["pasted"], _ = _best(
                pasted, {f"engine/{m}": engine[f"engine/{m}"] for m in modules}
            )
        rows.append(row)
    return rows


def show(k, rows):
    print(f"\nk = NOISE_T = {k}")
    columns = ["exercise", "own", "ref>eng", "module", "renamed", "hon>ref", "hon>eng", "pasted"]
    print("  ".join(f"{c:>9}" for c in columns))
    for row in rows:
        cells = [row.get(c, "") for c in columns]
        print("  ".join(f"{c:9.2f}" if isinstance(c, float) else f"{c!s:>9}" for c in cells))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--k", type=int, nargs="+", default=[sim.NOISE_T])
    args = parser.parse_args(argv)
    for k in args.k:
        start = time.perf_counter()
        rows = measure(k)
        show(k, rows)
        print(f"({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
