"""Run a notebook as a learner's Jupyter would: a fresh Python with no `engine`, and nbclient.

Each notebook gets a virtual environment of its own, made in a moment with no packages and
no pip: a `.pth` file lends it a shared, cached environment that holds only what a learner's
Jupyter brings (ipykernel, pip, and what Colab has: numpy and torch, for the pages' "check
it against PyTorch" cells). What the notebook installs (`%pip install` in its setup cell)
goes into the fresh environment's own site-packages, so every notebook starts without
`engine` and the shared one never gets it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REQUIREMENTS = ROOT / "requirements" / "notebook-kernel.txt"
KERNEL = "course-fresh"


def _site_packages(python: Path) -> Path:
    out = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    )
    return Path(out.stdout.strip())


def shared_environment() -> Path:
    """The cached environment's python (build/notebook-kernel/), made on first use."""
    stamp = hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest()[:16]
    home = ROOT / "build" / "notebook-kernel" / f"venv-{stamp}"
    python = home / "bin" / "python"
    if (home / "ready").is_file():
        return python
    shutil.rmtree(home, ignore_errors=True)
    venv.create(home, with_pip=True)
    proc = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "-r", str(REQUIREMENTS)],
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        shutil.rmtree(home, ignore_errors=True)
        raise RuntimeError(f"installing {REQUIREMENTS.name} failed:\n{proc.stderr[-3000:]}")
    (home / "ready").write_text("")
    return python


def fresh_environment(where: Path, shared: Path) -> Path:
    """A new environment at `where` that sees `shared`'s packages; returns its python."""
    venv.create(where, with_pip=False)
    python = where / "bin" / "python"
    lent = _site_packages(shared)
    (_site_packages(python) / "shared.pth").write_text(f"{lent}\n")
    return python


def _kernel_env() -> dict[str, str]:
    # Nothing of this checkout may leak in: the kernel must find `engine` only once installed.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"  # quiet debugger warning on frozen modules
    env["PIP_NO_CACHE_DIR"] = "1"  # each site's wheels, never one cached from an earlier run
    return env


def execute(nb: dict, python: Path, cwd: Path, timeout: int = 900) -> dict:
    """Run every cell of `nb` (nbformat 4, as a dict) in a kernel of `python`, in `cwd`.

    Returns the notebook with its outputs. Errors are kept in the outputs, not raised,
    so a test can say which cell failed.
    """
    import nbformat
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager
    from nbclient import NotebookClient

    kernels = cwd / "kernels"
    spec = kernels / KERNEL
    spec.mkdir(parents=True, exist_ok=True)
    (spec / "kernel.json").write_text(
        json.dumps(
            {
                "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                "display_name": "Python 3 (no engine)",
                "language": "python",
            }
        )
    )
    specs = KernelSpecManager(kernel_dirs=[str(kernels)], ensure_native_kernel=False)
    km = AsyncKernelManager(kernel_name=KERNEL, kernel_spec_manager=specs)
    notebook = nbformat.reads(json.dumps(nb), as_version=4)  # a cell's source: lines or text
    client = NotebookClient(
        notebook,
        km=km,
        timeout=timeout,
        allow_errors=True,
        resources={"metadata": {"path": str(cwd)}},
    )
    client.execute(env=_kernel_env())
    return json.loads(json.dumps(notebook))  # text stays text (nbformat.writes splits it)


def run_plain(code: str, python: Path, cwd: Path) -> subprocess.CompletedProcess:
    """Run `code` with plain `python` (no Jupyter), as an exported notebook would run."""
    return subprocess.run(
        [str(python), "-c", code],
        cwd=cwd,
        env=_kernel_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )


def cell_text(cell: dict) -> str:
    """What a code cell printed, and the plain text of a value it showed that is no figure."""
    parts = []
    for out in cell.get("outputs", []):
        if out["output_type"] == "stream" and out["name"] == "stdout":
            parts.append(out["text"])
        elif out["output_type"] == "execute_result" and "image/svg+xml" not in out["data"]:
            parts.append(out["data"].get("text/plain", "") + "\n")
    return "".join(parts)


def errors(nb: dict) -> list[str]:
    """Each cell error as "cell N: Type: message" (N counts code cells from 1)."""
    found = []
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    for n, cell in enumerate(code, 1):
        for out in cell.get("outputs", []):
            if out["output_type"] == "error":
                trace = "\n".join(out.get("traceback", []))[-2000:]
                found.append(f"cell {n}: {out['ename']}: {out['evalue']}\n{trace}")
    return found


__all__ = [
    "cell_text",
    "errors",
    "execute",
    "fresh_environment",
    "run_plain",
    "shared_environment",
]
