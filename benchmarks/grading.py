"""The grader's numbers: grading all of solutions/, and what the sandbox costs per case.

from benchmarks.grading import run; run()   # prints a short report, returns the numbers
"""

import importlib.util
import random
import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUDGET_SECONDS = 20.0  # the bound for grading every solution


def _in_process_seconds(exercise, case, repeats):
    """Median time to run one case in process (no sandbox), to subtract from the sandbox's."""
    from grader.runners import execute, runner_module

    runner = runner_module(exercise)

    spec = importlib.util.spec_from_file_location(exercise[:-3], ROOT / "solutions" / exercise)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        execute(runner, module, case, exercise)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def run(repeats=15):
    from grader.checks import check_module
    from grader.grade import grade
    from grader.sandbox import detect
    from grader.submission import load

    sandbox = detect()
    files = load(ROOT / "solutions")
    start = time.perf_counter()
    results = grade(files, sandbox, seed=random.randrange(2**32))
    total = time.perf_counter() - start
    cases = len(results["tests"])
    passed = sum(t["passed"] for t in results["tests"])

    exercise = "day05_add_mul.py"
    check = check_module(exercise)
    case = check.public_cases()[0]
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        sandbox.run(exercise, files[exercise], case, check.NEEDS_ENGINE)
        times.append(time.perf_counter() - t0)
    per_case = statistics.median(times)
    overhead = per_case - _in_process_seconds(exercise, case, repeats)

    class_seconds, class_size = _class_similarity_seconds()

    numbers = {
        "similarity_class_seconds": round(class_seconds, 2),
        "similarity_class_size": class_size,
        "grading_solutions_seconds": round(total, 3),
        "grading_cases": cases,
        "grading_cases_passed": passed,
        "grading_budget_seconds": BUDGET_SECONDS,
        "sandbox_case_seconds_median": round(per_case, 4),
        "sandbox_overhead_seconds_per_case": round(overhead, 4),
        "isolation": sandbox.description,
    }
    print("Grader")
    print(
        f"  grading all of solutions/: {total:.2f} s for {cases} cases ({passed} passed), "
        f"budget {BUDGET_SECONDS:g} s [{'ok' if total <= BUDGET_SECONDS else 'OVER'}]"
    )
    print(
        f"  one case in the sandbox ({sandbox.description}): {per_case * 1000:.1f} ms median, "
        f"of which {overhead * 1000:.1f} ms is the sandbox and a fresh interpreter"
    )
    print(
        f"  comparing a class of {class_size} learners' files (every exercise): "
        f"{class_seconds:.1f} s"
    )
    return numbers


def _class_similarity_seconds(size=100):
    """Seconds for grader.similarity to compare a synthetic class of `size` learners (the
    test suite's class: references disguised, honest solutions and pastes mixed in)."""
    from grader import similarity
    from tests.grader.similarity.disguise import synthetic_class

    def folder(path):
        return {p.name: p.read_text(encoding="utf-8") for p in sorted(path.glob("*.py"))}

    honest = folder(ROOT / "tests" / "grader" / "similarity" / "honest")
    submissions = synthetic_class(size, folder(ROOT / "solutions"), honest)
    start = time.perf_counter()
    similarity.class_matches(submissions)
    return time.perf_counter() - start, size


if __name__ == "__main__":
    run()
