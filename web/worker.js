/**
 * The course's Python worker: one long-lived Web Worker that owns Pyodide.
 *
 * Message protocol (all messages are plain objects; `id` pairs a reply with its request).
 *
 * Page -> worker
 *   {type: "init", indexURL: string, interruptBuffer?: SharedArrayBuffer}
 *       Boot Pyodide from `indexURL` (the site's copy). Sent once, first.
 *       With `interruptBuffer` (only when the page is cross-origin isolated) the page
 *       stops a run by writing 2 (SIGINT) into its first byte.
 *   {type: "run", id, ns: string, code: string, filename: string}
 *       Run `code` in namespace `ns` (one per page). Packages it imports that the
 *       site ships (e.g. `engine`) are loaded first.
 *   {type: "call", id, module?: string, ns?: string, name: string, args: any[]}
 *       Call the Python function `name` (dotted) of `module`, or of namespace `ns`,
 *       with JSON `args`; the reply carries its JSON-converted return value.
 *   {type: "check", id, exercise: string, source: string}
 *       Run `grader.public.run_public_checks(exercise, source)`.
 *   {type: "reset", ns: string}
 *       Forget namespace `ns`.
 *
 * Worker -> page
 *   {type: "status", phase: "loading" | "ready" | "error", message: string}
 *   {type: "executing", id}   the request's Python starts now (its packages are loaded):
 *        the page starts its time limit, and Stop's grace, from here
 *   {type: "stream", id, stream: "stdout" | "stderr", text: string}
 *   {type: "figure", id, svg: string, key: string|null}  (a key replaces its earlier figure)
 *   {type: "model", id, data: object}
 *       A training snapshot shown by the run `id` (engine.snapshot.Snapshot.to_json()):
 *       {step, steps, losses, loss_steps, samples, attention: {name, layer, head, tokens,
 *       weights}, model: {source, steps, loss, n_embd, n_head, head_dim, n_layer,
 *       block_size, vocab_size}}, for the page's model explorer (client.onModel).
 *   {type: "done", id, ok: boolean, interrupted?: boolean, truncated?: boolean,
 *        error?: {type, message, traceback}}                        (reply to run)
 *   {type: "result", id, ok: boolean, value?: any, interrupted?: boolean, error?: {...}}
 *        (reply to call/check; `interrupted`: Stop or the time limit ended the checks)
 *
 * Output of one run is capped (OUTPUT_CAP characters): past it the worker drops
 * the rest and says so once, so a runaway print loop cannot flood the page.
 */

import runnerSource from "./runner.py";

const OUTPUT_CAP = 100_000;
// Output goes to the page at once, up to a budget of messages (a token bucket:
// BURST at once, RATE a second); past it, text is batched into the next message.
// So a print before a long computation shows at once, and a print loop cannot
// flood the page with messages.
const BURST = 20;
const RATE = 100;

let pyodide = null;
let runner = null;
let interruptView = null;
let booting = null;
// Requests run one after another, in arrival order.
let queue = Promise.resolve();

const out = {
  id: null,
  written: 0,
  truncated: false,
  pending: { stdout: "", stderr: "" },
  tokens: BURST,
  lastRefill: 0,
};

function flush() {
  for (const stream of ["stdout", "stderr"]) {
    const text = out.pending[stream];
    if (text) {
      out.pending[stream] = "";
      self.postMessage({ type: "stream", id: out.id, stream, text });
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
    self.postMessage({ type: "model", id: out.id, data: JSON.parse(String(text)) });
  } else if (kind === "figure") {
    flush();
    self.postMessage({
      type: "figure",
      id: out.id,
      svg: String(text),
      key: key == null ? null : String(key),
    });
  } else {
    write("stdout", String(text));
  }
}

async function boot({ indexURL, interruptBuffer }) {
  self.postMessage({ type: "status", phase: "loading", message: "Loading Python…" });
  const { loadPyodide } = await import(/* @vite-ignore */ `${indexURL}pyodide.mjs`);
  pyodide = await loadPyodide({ indexURL, packages: [] });
  pyodide.setStdout(streamHandler("stdout"));
  pyodide.setStderr(streamHandler("stderr"));
  if (interruptBuffer) {
    interruptView = new Uint8Array(interruptBuffer);
    pyodide.setInterruptBuffer(interruptView);
  }
  pyodide.FS.mkdirTree("/course");
  pyodide.FS.writeFile("/course/course_runner.py", runnerSource);
  pyodide.runPython("import sys; sys.path.insert(0, '/course')");
  runner = pyodide.pyimport("course_runner");
  runner.set_emitter(emit);
  self.postMessage({ type: "status", phase: "ready", message: "Python is ready." });
}

/** A new request: its output starts empty, and a Stop meant for an earlier one is dropped. */
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
  self.postMessage({ type: "executing", id });
}

function describe(err) {
  return { type: err?.type || err?.name || "Error", message: String(err?.message || err), traceback: "" };
}

async function handleRun({ id, ns, code, filename }) {
  startOutput(id);
  try {
    await pyodide.loadPackagesFromImports(code, { messageCallback: () => {}, errorCallback: () => {} });
  } catch {
    // An import the site does not ship fails in the cell itself, with Python's own message.
  }
  executing(id);
  let result;
  try {
    result = JSON.parse(runner.run(code, ns, filename));
  } catch (err) {
    result = { ok: false, interrupted: false, error: describe(err) };
  }
  flush();
  self.postMessage({ type: "done", id, truncated: out.truncated, ...result });
}

async function handleCall({ id, module, ns, name, args }) {
  startOutput(id);
  executing(id);
  try {
    const text = runner.call(module ?? null, name, JSON.stringify(args ?? []), ns ?? null);
    flush();
    self.postMessage({ type: "result", id, ok: true, value: JSON.parse(text) });
  } catch (err) {
    flush();
    self.postMessage({ type: "result", id, ok: false, error: describe(err) });
  }
}

async function handleCheck({ id, exercise, source }) {
  startOutput(id);
  try {
    await pyodide.loadPackage("grader", { messageCallback: () => {}, errorCallback: () => {} });
  } catch (err) {
    self.postMessage({
      type: "result",
      id,
      ok: false,
      error: {
        type: "MissingChecks",
        message: "This site was built without the exercise checks.",
        traceback: "",
      },
    });
    return;
  }
  // The checks' own loading (their cases, 0.6 MB of JSON, and the runner) comes before
  // "executing": Stop's grace and the time limit are for the learner's code alone.
  runner.prepare_check(exercise);
  executing(id);
  const result = JSON.parse(runner.check_exercise(exercise, source));
  flush();
  self.postMessage({
    type: "result",
    id,
    ok: result.ok,
    interrupted: Boolean(result.interrupted),
    value: result,
    error: result.error ?? undefined,
  });
}

async function handle(msg) {
  if (msg.type === "init") {
    booting ??= boot(msg).catch((err) => {
      self.postMessage({
        type: "status",
        phase: "error",
        message: `Python could not start: ${err?.message || err}`,
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
      runner.reset(msg.ns);
      return undefined;
    default:
      throw new Error(`unknown message type ${msg.type}`);
  }
}

self.onmessage = (event) => {
  const msg = event.data;
  queue = queue
    .then(() => handle(msg))
    .catch((err) => {
      if (msg.id !== undefined) {
        self.postMessage({
          type: msg.type === "run" ? "done" : "result",
          id: msg.id,
          ok: false,
          error: describe(err),
        });
      }
    });
};
