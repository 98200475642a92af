// @ts-check
// The course's Python worker: one long-lived Web Worker that owns Pyodide.
//
// The messages it takes from the page and sends back are defined, with their types, in
// web/protocol.js (checked by `tsc`, `nox -s lint`). Requests run one after another, in
// arrival order.
//
// Output of one run is capped (OUTPUT_CAP characters): past it the worker drops
// the rest and says so once, so a runaway print loop cannot flood the page.

import cellrunSource from "./cellrun.py";
import { MODULE_NAME, thrown } from "./protocol.js";

/** @typedef {import("./protocol.js").ToWorker} ToWorker */
/** @typedef {import("./protocol.js").FromWorker} FromWorker */

/** Send `message` to the page. @param {FromWorker} message */
function post(message) {
  self.postMessage(message);
}

const OUTPUT_CAP = 100_000;
const QUIET = { messageCallback: () => {}, errorCallback: () => {} }; // Pyodide's loading logs
// Output goes to the page at once, up to a budget of messages (a token bucket:
// BURST at once, RATE a second); past it, text is batched into the next message.
// So a print before a long computation shows at once, and a print loop cannot
// flood the page with messages.
const BURST = 20;
const RATE = 100;

/** @type {any} Pyodide's API, once booted */
let pyodide = null;
/** @type {any} web/cellrun.py, imported in Pyodide */
let cellrun = null;
/** @type {Uint8Array | null} */
let interruptView = null;
/** @type {Promise<void> | null} */
let booting = null;
/** The modules whose package `call` has loaded. */
const loadedModules = new Set();
// Requests run one after another, in arrival order.
let queue = Promise.resolve();

const out = {
  id: 0, // the request whose output this is (ids start at 1)
  written: 0,
  truncated: false,
  pending: { stdout: "", stderr: "" },
  tokens: BURST,
  lastRefill: 0,
};

function flush() {
  for (const stream of /** @type {const} */ (["stdout", "stderr"])) {
    const text = out.pending[stream];
    if (text) {
      out.pending[stream] = "";
      post({ type: "stream", id: out.id, stream, text });
    }
  }
}

function mayFlush() {
  const now = performance.now();
  out.tokens = Math.min(BURST, out.tokens + ((now - out.lastRefill) / 1000) * RATE);
  out.lastRefill = now;
  if (out.tokens < 1) return false;
  out.tokens -= 1;
  return true;
}

function write(stream, text) {
  if (out.truncated || !text) return;
  const room = OUTPUT_CAP - out.written;
  if (text.length > room) {
    text = text.slice(0, room);
    out.truncated = true;
  }
  out.written += text.length;
  out.pending[stream] += text;
  if (out.truncated) {
    out.pending[stream] += `\n… output cut after ${OUTPUT_CAP.toLocaleString("en")} characters …\n`;
  }
  if (mayFlush()) flush();
}

function streamHandler(stream) {
  const decoder = new TextDecoder();
  return {
    write(bytes) {
      write(stream, decoder.decode(bytes, { stream: true }));
      return bytes.length;
    },
  };
}

function emit(kind, text, key) {
  if (kind === "model") {
    flush();
    post({ type: "model", id: out.id, data: JSON.parse(String(text)) });
  } else if (kind === "figure") {
    flush();
    post({
      type: "figure",
      id: out.id,
      svg: String(text),
      key: key == null ? null : String(key),
    });
  } else {
    write("stdout", String(text));
  }
}

/** @param {import("./protocol.js").InitMessage} message */
async function boot({ indexURL, interruptBuffer, lang }) {
  post({ type: "status", phase: "loading", key: "python.loading" });
  const { loadPyodide } = await import(/* @vite-ignore */ `${indexURL}pyodide.mjs`);
  pyodide = await loadPyodide({ indexURL, packages: [] });
  pyodide.setStdout(streamHandler("stdout"));
  pyodide.setStderr(streamHandler("stderr"));
  if (interruptBuffer) {
    interruptView = new Uint8Array(interruptBuffer);
    pyodide.setInterruptBuffer(interruptView);
  }
  pyodide.FS.mkdirTree("/course");
  pyodide.FS.writeFile("/course/course_cellrun.py", cellrunSource);
  pyodide.runPython("import sys; sys.path.insert(0, '/course')");
  cellrun = pyodide.pyimport("course_cellrun");
  cellrun.set_emitter(emit);
  cellrun.set_language(lang ?? "en");
  post({ type: "status", phase: "ready", key: "python.ready" });
}

/** A new request: its output starts empty, and a Stop meant for an earlier one is dropped.
 *  @param {number} id */
function startOutput(id) {
  out.id = id;
  out.written = 0;
  out.truncated = false;
  out.pending = { stdout: "", stderr: "" };
  out.tokens = BURST;
  out.lastRefill = performance.now();
  if (interruptView) interruptView[0] = 0;
}

/** The request's own Python starts now. Not clearing the interrupt here keeps a Stop
 *  pressed while its packages loaded (the page sends it again on this message, too). */
function executing(id) {
  post({ type: "executing", id });
}

/** @param {import("./protocol.js").RunMessage} message */
async function handleRun({ id, ns, code, filename }) {
  startOutput(id);
  try {
    await pyodide.loadPackagesFromImports(code, QUIET);
  } catch {
    // An import the site does not ship fails in the cell itself, with Python's own message.
  }
  executing(id);
  let result;
  try {
    result = JSON.parse(cellrun.run(code, ns, filename));
  } catch (err) {
    result = thrown(err);
  }
  flush();
  post({ type: "done", id, truncated: out.truncated, ...result });
}

/** Load the package of `module` ("explorer.model": the `explorer` wheel), if the site ships it.
 *  @param {string} module */
async function loadModule(module) {
  if (loadedModules.has(module) || !MODULE_NAME.test(module)) return;
  try {
    await pyodide.loadPackagesFromImports(`import ${module}`, QUIET);
    loadedModules.add(module);
  } catch {
    // Not one the site ships: the import in the call then fails with Python's own message.
  }
}

/** @param {import("./protocol.js").CallMessage} message */
async function handleCall({ id, module, ns, name, args }) {
  startOutput(id);
  if (module) await loadModule(module);
  executing(id);
  try {
    // A missing module or ns goes as undefined, Python's None (JavaScript's null is not None).
    const text = cellrun.call(module, name, JSON.stringify(args ?? []), ns);
    flush();
    post({ type: "result", id, ok: true, value: JSON.parse(text) });
  } catch (err) {
    flush();
    const reply = thrown(err);
    if (reply.error) Object.assign(reply.error, keyedError());
    post({ type: "result", id, ...reply });
  }
}

/** The page message the last call's exception named ({key, values}), else {}. */
function keyedError() {
  try {
    return JSON.parse(cellrun.keyed_error()) ?? {};
  } catch {
    return {}; // the English message is said instead
  }
}

/** @param {import("./protocol.js").CheckMessage} message */
async function handleCheck({ id, exercise, source, lang }) {
  startOutput(id);
  try {
    await pyodide.loadPackage("grader", QUIET);
  } catch (err) {
    post({
      type: "result",
      id,
      ok: false,
      error: {
        type: "MissingChecks",
        message: "This site was built without the exercise checks.", // the page says it (exercises.js)
        traceback: "",
      },
    });
    return;
  }
  // The checks' own loading (their cases, 0.6 MB of JSON, and its grader runner) comes before
  // "executing": Stop's grace and the time limit are for the learner's code alone.
  cellrun.prepare_check(exercise);
  executing(id);
  let result;
  try {
    result = JSON.parse(cellrun.check_exercise(exercise, source, lang));
  } catch (err) {
    result = thrown(err);
  }
  flush();
  post({
    type: "result",
    id,
    ok: result.ok,
    interrupted: Boolean(result.interrupted),
    value: result,
    error: result.error ?? undefined,
  });
}

/** @param {ToWorker} msg */
async function handle(msg) {
  if (msg.type === "init") {
    booting ??= boot(msg).catch((err) => {
      post({
        type: "status",
        phase: "error",
        key: "python.failed",
        detail: String(err?.message || err),
      });
      throw err;
    });
    return booting;
  }
  await booting;
  switch (msg.type) {
    case "run":
      return handleRun(msg);
    case "call":
      return handleCall(msg);
    case "check":
      return handleCheck(msg);
    case "reset":
      cellrun.reset(msg.ns);
      return undefined;
    default:
      throw new Error(`unknown message type ${/** @type {any} */ (msg).type}`);
  }
}

self.onmessage = (event) => {
  /** @type {ToWorker} */
  const msg = event.data;
  queue = queue
    .then(() => handle(msg))
    .catch((err) => {
      if ("id" in msg) {
        post({ type: msg.type === "run" ? "done" : "result", id: msg.id, ...thrown(err) });
      }
    });
};
