"""Checks of every exercise: cases, how to run them, how to judge them.

Pure Python (stdlib, plus `engine` for the exercises that use it): this package runs in
the trusted grader, in the sandboxed child, and in the browser through Pyodide:

    from grader.checks import run_public_checks
    run_public_checks("day05_add_mul.py", source)
    # -> [{"name": "...", "passed": True, "message": "passed"}, ...]

One module per exercise, named like the exercise file (see grader/README.md). Each gives
EXERCISE, TITLE, LESSON, NEEDS_ENGINE (and with it ENGINE: the engine modules its
sandbox holds and the names hidden from them), `public_cases()`, `hidden_cases(rng)`,
`run(module, case)` (child side: calls learner code, returns plain numbers) and
`judge(case, values)` (trusted side: returns (passed, message)).
"""

import importlib
import types

from ._kit import error_message, execute

__all__ = ["EXERCISES", "check_module", "run_public_checks", "judge_outcome"]

EXERCISES = (
    "day01_derivative.py",
    "day02_chain_rule.py",
    "day03_value.py",
    "day04_manual_backward.py",
    "day05_add_mul.py",
    "day06_backward.py",
    "day07_accumulation.py",
    "day08_more_ops.py",
    "day09_gradient_descent.py",
    "day10_neuron.py",
    "day11_mlp.py",
    "day12_loss.py",
    "day13_training_loop.py",
    "day14_optimizers.py",
    "day15_classifier.py",
    "day16_tokens.py",
    "day17_bigrams.py",
    "day18_likelihood.py",
    "day19_softmax.py",
    "day20_embeddings.py",
    "day21_mlp_language_model.py",
    "day22_attention.py",
    "day23_multi_head.py",
    "day24_rmsnorm_residual.py",
    "day25_microgpt.py",
    "day26_training_gpt.py",
    "day27_sampling.py",
    "day28_kv_cache.py",
    "day29_making_it_fast.py",
    "day30_your_gpt.py",
)


def check_module(exercise_id):
    """The checks of `exercise_id` ("day05_add_mul.py"); ValueError names the known ones."""
    if exercise_id not in EXERCISES:
        known = ", ".join(EXERCISES)
        raise ValueError(f"no exercise called {exercise_id!r}; the exercises are: {known}")
    return importlib.import_module(f"{__name__}.{exercise_id[:-3]}")


def judge_outcome(check, case, outcome, filename):
    """(passed, message) for what came back from running `case`: numbers or an error."""
    if "error" in outcome:
        return False, error_message(outcome["error"], filename)
    invalid = outcome.get("invalid") or {}
    if invalid:
        key = sorted(invalid)[0]
        return False, (
            f"{key} is {invalid[key]}, not a plain float: keep .data and .grad as floats "
            "(return loss.data, not the Value loss)."
        )
    return check.judge(case, outcome["values"])


def run_public_checks(exercise_id, source):
    """Run the public cases of one exercise on `source` (the learner's file), in process.

    For the browser: the learner's own code in the learner's own tab. Graded
    submissions go through `python -m grader`, which runs every case in a sandbox.
    """
    check = check_module(exercise_id)
    module = types.ModuleType(exercise_id[:-3])
    module.__file__ = exercise_id
    results = []
    try:
        exec(compile(source, exercise_id, "exec"), module.__dict__)
    except (Exception, SystemExit) as exc:
        from ._kit import describe_error

        message = "your file did not run: " + error_message(
            describe_error(exc, exercise_id), exercise_id
        )
        return [
            {"name": c["name"], "passed": False, "message": message} for c in check.public_cases()
        ]
    for case in check.public_cases():
        outcome = execute(check, module, case, exercise_id)
        passed, message = judge_outcome(check, case, outcome, exercise_id)
        results.append({"name": case["name"], "passed": passed, "message": message})
    return results
