"""web/explorer bundled as the site bundles it (esbuild), for test pages outside the site."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# As web/build.mjs: split, so the 3-D view's scene (three.js) is a chunk loaded on demand.
_SCRIPT = (
    "const { buildSync } = require('esbuild');"
    "const [src, dst] = process.argv.slice(1);"
    "const common = { bundle: true, format: 'esm', logLevel: 'warning' };"
    "buildSync({ ...common, entryPoints: { harness: src + '/explorer.js' }, outdir: dst,"
    " splitting: true, chunkNames: 'chunks/[name]-[hash]' });"
    "buildSync({ ...common, entryPoints: [src + '/tasks.js'], outfile: dst + '/harness-tasks.js' });"
    "buildSync({ ...common, entryPoints: [src + '/explorer.css'], outfile: dst + '/harness.css' });"
)


def bundle_explorer(out: Path) -> Path:
    """Write harness.js, harness-tasks.js, their chunks/ and harness.css into `out`; skip
    the test without Node or esbuild."""
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules" / "esbuild").is_dir():
        pytest.skip("needs Node.js and `npm ci` (esbuild) to bundle web/explorer")
    subprocess.run(
        [node, "-e", _SCRIPT, str(ROOT / "web" / "explorer"), str(out)], cwd=ROOT, check=True
    )
    return out
