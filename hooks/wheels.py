"""Write small pure-Python wheels (`py3-none-any`) for the browser runtime.

The site ships three of our packages to Pyodide as wheels: `engine` (all of it), `explorer` and
`grader` (only its public checks: hooks/site_build.py says which files). A
wheel is a zip with a `.dist-info` folder; writing it here keeps the site build
free of a build backend and makes the bytes reproducible (fixed timestamps, sorted
entries), so the hash recorded in `pyodide-lock.json` changes only with the code.
"""

from __future__ import annotations

import base64
import hashlib
import zipfile
from pathlib import Path

__all__ = ["package_files", "write_wheel"]

# 1980-01-01, the earliest time a zip can hold: the same input gives the same bytes.
_EPOCH = (1980, 1, 1, 0, 0, 0)


def _record_hash(data: bytes) -> str:
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def write_wheel(
    out_dir: Path,
    name: str,
    version: str,
    files: dict[str, bytes],
    *,
    summary: str = "",
    requires_python: str = ">=3.11",
    requires: tuple[str, ...] = (),
) -> Path:
    """Write `{name}-{version}-py3-none-any.whl` into `out_dir` and return its path.

    `files` maps archive paths (e.g. "engine/value.py") to their bytes.
    """
    if not files:
        raise ValueError(f"wheel {name!r} would be empty: no files were given")
    dist = f"{name}-{version}.dist-info"
    metadata = [
        "Metadata-Version: 2.1",
        f"Name: {name}",
        f"Version: {version}",
        f"Summary: {summary}",
        f"Requires-Python: {requires_python}",
        *(f"Requires-Dist: {req}" for req in requires),
    ]
    top_levels = sorted({path.split("/", 1)[0] for path in files})
    entries = dict(sorted(files.items()))
    entries[f"{dist}/METADATA"] = ("\n".join(metadata) + "\n").encode()
    entries[f"{dist}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: course-site\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    entries[f"{dist}/top_level.txt"] = ("\n".join(top_levels) + "\n").encode()
    record = [f"{path},{_record_hash(data)},{len(data)}" for path, data in entries.items()]
    record.append(f"{dist}/RECORD,,")
    entries[f"{dist}/RECORD"] = ("\n".join(record) + "\n").encode()

    out_dir.mkdir(parents=True, exist_ok=True)
    wheel = out_dir / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for path, data in entries.items():
            info = zipfile.ZipInfo(path, date_time=_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)
    return wheel


def package_files(
    root: Path,
    package: str,
    *,
    only: tuple[str, ...] | None = None,
    data: tuple[str, ...] = (),
) -> dict[str, bytes]:
    """Collect the `.py` files of `root/package` as archive paths -> bytes.

    `data` are glob patterns of package data relative to the package folder (as in
    pyproject's `tool.setuptools.package-data`), e.g. "data/names.txt".
    With `only`, keep just those paths (files or folders, relative to `root`):
    used to publish the grader's public checks and nothing else.
    """
    base = root / package
    if not base.is_dir():
        raise FileNotFoundError(f"no package folder at {base}")
    paths = set(base.rglob("*.py"))
    for pattern in data:
        matches = [p for p in base.glob(pattern) if p.is_file()]
        if not matches:
            raise FileNotFoundError(f"package data {package}/{pattern} matches no file")
        paths.update(matches)
    files = {}
    for path in sorted(paths):
        rel = path.relative_to(root).as_posix()
        if "__pycache__" in rel:
            continue
        if only is not None and not any(
            rel == o or rel.startswith(o.rstrip("/") + "/") for o in only
        ):
            continue
        files[rel] = path.read_bytes()
    return files
