"""web/explorer bundled as the site bundles it (esbuild), for test pages outside the site."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_SCRIPT = (
    "const { buildSync } = require('esbuild');"
    "const [src, dst] = process.argv.slice(1);"
    "for (const [entry, outfile] of [[src + '/explorer.js', dst + '/harness.js'],"
    " [src + '/tasks.js', dst + '/harness-tasks.js'],"
    " [src + '/explorer.css', dst + '/harness.css']])"
    " buildSync({ entryPoints: [entry], outfile, bundle: true, format: 'esm', logLevel: 'warning' });"
)


def bundle_explorer(out: Path) -> Path:
    """Write the harness bundles (explorer, tasks, css) into `out`; skip without Node/esbuild."""
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules" / "esbuild").is_dir():
        pytest.skip("needs Node.js and `npm ci` (esbuild) to bundle web/explorer")
    subprocess.run(
        [node, "-e", _SCRIPT, str(ROOT / "web" / "explorer"), str(out)], cwd=ROOT, check=True
    )
    return out
