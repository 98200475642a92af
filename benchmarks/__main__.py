"""Run the course's benchmarks and print their reports: `python -m benchmarks [NAME ...]`."""

import argparse
import importlib
import json
import sys

# name -> module in this package with a `run() -> dict`
SUITES = {
    "engine": "engine_mlp",  # an MLP graph against the textbook Value
    "gpt": "gpt",  # one microGPT training step against the microGPT-style Value
    "grading": "grading",  # all of solutions/ through the sandbox, and the cost per case
    "browser": "browser",  # first cell output against a bare Pyodide boot, in Chromium
    "explorer": "explorer_first_graph",  # the explorer's first graph, prerendered and live
    "view3d": "view3d",  # the explorer's 3-D view: chunk size, time to its first frame, a step
    "model_explorer": "model_explorer",  # typing a letter to the model explorer's redrawn views
    "tensor": "tensor_matmul",  # a matrix product + backward: n x n Values against Tensors
    # 200 learners submit 3 exercises in a minute to the course server (SQLite, then
    # PostgreSQL + Redis); about 10 minutes; `nox -s server_load` runs it alone.
    "server": "server_load",
    "batched": "batched",  # days 33-34: one example at a time against a batch, CPython and Pyodide
}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help=f"which benchmarks to run (default: all of {', '.join(SUITES)})",
    )
    parser.add_argument("--json", metavar="OUT", help="also write every report to this JSON file")
    args = parser.parse_args(argv)
    unknown = [name for name in args.names if name not in SUITES]
    if unknown:
        parser.error(f"no benchmark named {', '.join(unknown)}; choose from {', '.join(SUITES)}")
    reports = {}
    for name in args.names or SUITES:
        print(f"== {name} ==")
        module = importlib.import_module(f"{__package__}.{SUITES[name]}")
        reports[name] = module.run()
        print()
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(reports, out, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
