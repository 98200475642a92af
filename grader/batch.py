"""Grade a folder of submissions -- one subfolder or zip per learner -- into a CSV gradebook."""

import csv
import sys
from pathlib import Path


def grade_folder(folder, sandbox, exercises, csv_path, seed=None, quiet=False):
    from .__main__ import grade_one

    entries = sorted(
        p
        for p in Path(folder).iterdir()
        if not p.name.startswith(".") and (p.is_dir() or p.suffix == ".zip")
    )
    rows = []
    for entry in entries:
        learner = entry.stem if entry.suffix == ".zip" else entry.name
        gradescope, text, _ = grade_one(entry, sandbox, exercises, seed)
        extra = gradescope["extra_data"]
        per = extra.get("exercises", {})
        row = {
            "learner": learner,
            "status": "refused" if extra.get("rejected") else "graded",
            "score": gradescope["score"],
            "max_score": gradescope["max_score"],
        }
        for exercise in exercises:
            row[exercise] = per.get(exercise, {}).get("score", 0)
        row["sha256"] = extra.get("submission_sha256") or ""
        row["isolation"] = extra["isolation"]
        row["message"] = "" if row["status"] == "graded" else gradescope["output"]
        rows.append(row)
        if not quiet:
            print(f"{learner}: {row['score']}/{row['max_score']} ({row['status']})")
    if csv_path:
        Path(csv_path).parent.mkdir(parents=True, exist_ok=True)
        with open(csv_path, "w", newline="") as handle:
            fields = [
                "learner",
                "status",
                "score",
                "max_score",
                *exercises,
                "sha256",
                "isolation",
                "message",
            ]
            writer = csv.DictWriter(handle, fieldnames=fields)
            writer.writeheader()
            writer.writerows(rows)
        print(f"Gradebook of {len(rows)} submission(s) written to {csv_path}", file=sys.stderr)
    return 0
