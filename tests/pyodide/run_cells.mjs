// Run lesson cells under Pyodide in Node, the way a page runs them:
//
//   node tests/pyodide/run_cells.mjs <pages.json> <results.json>
//
// pages.json: [{page, lang?, cells: [{code, timeout}]}]. Each page gets a fresh namespace,
// and its cells run in page order through web/cellrun.py (the module the browser
// worker uses), with `engine` importable as on the site, told the page's `lang` ("en" when
// absent) as the worker tells it from its init message. A cell that runs past its
// time limit is interrupted (Pyodide's interrupt buffer, set from the main thread).
// results.json: [{page, cells: [{ok, interrupted, error, stdout, stderr, figures, models, seconds}]}],
// in the order of pages.json.
//
// Pages are shared out to one Pyodide per core (at most PYODIDE_WORKERS, default 2), each
// in a worker thread of its own that takes the next page when it has finished one: a page
// runs whole in one Pyodide, as in a browser tab.

import { readFileSync, writeFileSync, readdirSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const DEFAULT_TIME_LIMIT = 60;

function pythonFiles(dir, base = dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (name === "__pycache__") continue;
    if (statSync(full).isDirectory()) out.push(...pythonFiles(full, base));
    else if (!name.endsWith(".pyc")) out.push(path.relative(base, full)); // code and package data
  }
  return out;
}

async function workerMain() {
  const { interrupt } = workerData;
  const { loadPyodide } = await import(path.join(ROOT, "node_modules", "pyodide", "pyodide.mjs"));
  const pyodide = await loadPyodide({ indexURL: path.join(ROOT, "node_modules", "pyodide") + "/" });
  const view = new Uint8Array(interrupt);
  pyodide.setInterruptBuffer(view);
  let sink = { stdout: "", stderr: "", figures: 0, models: 0 };
  pyodide.setStdout({ batched: (s) => (sink.stdout += s + "\n") });
  pyodide.setStderr({ batched: (s) => (sink.stderr += s + "\n") });

  pyodide.FS.mkdirTree("/course/engine");
  for (const rel of pythonFiles(path.join(ROOT, "engine"))) {
    const dest = `/course/engine/${rel.split(path.sep).join("/")}`;
    pyodide.FS.mkdirTree(path.posix.dirname(dest));
    pyodide.FS.writeFile(dest, readFileSync(path.join(ROOT, "engine", rel)));
  }
  pyodide.FS.writeFile("/course/course_cellrun.py", readFileSync(path.join(ROOT, "web", "cellrun.py")));
  pyodide.runPython("import sys; sys.path.insert(0, '/course')");
  const cellrun = pyodide.pyimport("course_cellrun");
  cellrun.set_emitter((kind, text) => {
    if (kind === "figure") sink.figures += 1;
    else if (kind === "model") sink.models += 1;
    else sink.stdout += text;
  });

  function runPage({ page, lang, cells }) {
    cellrun.set_language(lang ?? "en");
    const done = [];
    cells.forEach((cell, i) => {
      sink = { stdout: "", stderr: "", figures: 0, models: 0 };
      view[0] = 0;
      parentPort.postMessage({ type: "start", timeout: cell.timeout || DEFAULT_TIME_LIMIT });
      const t0 = performance.now();
      const result = JSON.parse(cellrun.run(cell.code, page, `<cell ${i + 1}>`));
      parentPort.postMessage({ type: "end" });
      done.push({ ...result, ...sink, seconds: (performance.now() - t0) / 1000 });
    });
    return { page, cells: done };
  }

  parentPort.on("message", (msg) => {
    if (msg.type === "page") {
      parentPort.postMessage({ type: "result", index: msg.index, result: runPage(msg.page) });
    }
  });
  parentPort.postMessage({ type: "ready" });
}

function main() {
  const [pagesFile, resultsFile] = process.argv.slice(2);
  if (!pagesFile || !resultsFile) {
    console.error("usage: node tests/pyodide/run_cells.mjs <pages.json> <results.json>");
    process.exit(2);
  }
  const pages = JSON.parse(readFileSync(pagesFile, "utf8"));
  if (pages.length === 0) {
    writeFileSync(resultsFile, "[]");
    return;
  }
  const wanted = Number.parseInt(process.env.PYODIDE_WORKERS || "2", 10) || 1;
  const count = Math.max(1, Math.min(wanted, availableParallelism(), pages.length));
  const results = new Array(pages.length);
  let next = 0;
  let finished = 0;
  const workers = [];

  function give(worker) {
    if (next < pages.length) {
      const index = next++;
      worker.postMessage({ type: "page", index, page: pages[index] });
    }
  }

  for (let w = 0; w < count; w++) {
    const interrupt = new SharedArrayBuffer(1);
    const view = new Uint8Array(interrupt);
    const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { interrupt } });
    workers.push(worker);
    let timer = null;
    worker.on("message", (msg) => {
      if (msg.type === "start") {
        clearTimeout(timer);
        timer = setTimeout(() => (view[0] = 2), msg.timeout * 1000);
      } else if (msg.type === "end") {
        clearTimeout(timer);
      } else if (msg.type === "ready") {
        give(worker);
      } else if (msg.type === "result") {
        results[msg.index] = msg.result;
        finished += 1;
        if (finished === pages.length) {
          writeFileSync(resultsFile, JSON.stringify(results, null, 1));
          for (const each of workers) each.terminate();
        } else {
          give(worker);
        }
      }
    });
    worker.on("error", (err) => {
      console.error(err);
      process.exit(1);
    });
  }
}

if (isMainThread) main();
else await workerMain();
