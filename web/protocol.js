// @ts-check
// The messages between a page and its Python worker (web/worker.js), defined once: the page's
// side is web/client.js (and web/early.js, which starts the worker from a page's <head>).
// All messages are plain objects; `id` pairs a reply with its request. Requests run one after
// another, in arrival order. `tsc` checks the three files against these types (`nox -s lint`).

// Page -> worker ------------------------------------------------------------------------------

/**
 * Boot Pyodide from `indexURL` (the site's copy). Sent once, first. With `interruptBuffer`
 * (only when the page is cross-origin isolated) the page stops a run by writing 2 (SIGINT)
 * into its first byte. `lang`: the page's language ("en", "ru", "et"; "en" when absent), in
 * which the engine writes what it writes itself (a gradcheck report's table:
 * cellrun.set_language).
 * @typedef {{type: "init", indexURL: string, interruptBuffer?: SharedArrayBuffer,
 *   lang?: string}} InitMessage
 */

/**
 * Run `code` in namespace `ns` (one per page). Packages it imports that the site ships
 * (e.g. `engine`) are loaded first.
 * @typedef {{type: "run", id: number, ns: string, code: string, filename: string}} RunMessage
 */

/**
 * Call the Python function `name` (dotted) of `module`, or of namespace `ns`, with JSON `args`;
 * the reply carries its JSON-converted return value. The package of `module` (e.g. `explorer`
 * for "explorer.model") is loaded first, when the site ships it.
 * @typedef {{type: "call", id: number, module?: string, ns?: string, name: string,
 *   args: unknown[]}} CallMessage
 */

/**
 * Run `grader.public.run_public_checks(exercise, source, lang)`: `lang` is the page's language
 * ("en", "ru", "et"), the language of the checks' messages.
 * @typedef {{type: "check", id: number, exercise: string, source: string, lang: string}} CheckMessage
 */

/**
 * Forget namespace `ns`.
 * @typedef {{type: "reset", ns: string}} ResetMessage
 */

/** A request that gets replies: the page gives it its `id` when it sends it.
 * @typedef {RunMessage | CallMessage | CheckMessage} Request */

/** What a request is before it is sent: the same without its `id`.
 * @typedef {Omit<RunMessage, "id"> | Omit<CallMessage, "id"> | Omit<CheckMessage, "id">} RequestBody */

/** @typedef {InitMessage | Request | ResetMessage} ToWorker */

// Worker -> page ------------------------------------------------------------------------------

/** A Python error. `key` and `values`: its page message (web/locales/*.json), when the
 *  exception names one (engine.mine's MyEngineError, explorer.model's RequestError;
 *  cellrun.keyed_error; a cell's engine.errors.said error, cellrun.run), said by i18n.js's say.
 * @typedef {{type: string, message: string, traceback: string, key?: string,
 *   values?: Record<string, unknown>}} PythonError */

/** @typedef {"idle" | "loading" | "ready" | "error"} Phase */

/**
 * Where Python stands. `key`: the page's message for it (web/locales/*.json: "python.loading",
 * "python.ready", "python.failed" with `detail`, the error's own text), said in the page's
 * language by the page: the worker's own words are keys, not text (its init's `lang` is for
 * the engine's Python only).
 * @typedef {{type: "status", phase: Phase, key: string, detail?: string}} StatusMessage */

/**
 * The request's Python starts now (its packages are loaded): the page starts its time limit,
 * and Stop's grace, from here.
 * @typedef {{type: "executing", id: number}} ExecutingMessage
 */

/** @typedef {{type: "stream", id: number, stream: "stdout" | "stderr", text: string}} StreamMessage */

/** A figure; one with a `key` replaces the run's earlier figure of that key.
 * @typedef {{type: "figure", id: number, svg: string, key: string | null}} FigureMessage */

/**
 * A training snapshot shown by the run `id` (engine.snapshot.Snapshot.to_json()): {step, steps,
 * losses, loss_steps, samples, attention: {name, layer, head, tokens, weights}, model: {source,
 * steps, loss, n_embd, n_head, head_dim, n_layer, block_size, vocab_size}}, for the page's
 * model explorer (client.onModel).
 * @typedef {{type: "model", id: number, data: any}} ModelMessage
 */

/**
 * The reply to a run. `truncated`: its output was cut (OUTPUT_CAP in web/worker.js).
 * @typedef {{type: "done", id: number, ok: boolean, interrupted?: boolean, truncated?: boolean,
 *   error?: PythonError | null}} DoneMessage
 */

/**
 * The reply to a call or a check. `interrupted`: Stop or the time limit ended the checks.
 * @typedef {{type: "result", id: number, ok: boolean, value?: any, interrupted?: boolean,
 *   error?: PythonError | null}} ResultMessage
 */

/** @typedef {DoneMessage | ResultMessage} Reply */

/** @typedef {StatusMessage | ExecutingMessage | StreamMessage | FigureMessage | ModelMessage |
 *   Reply} FromWorker */

/** A Python module's dotted name, the only kind `call` loads a package for. */
export const MODULE_NAME = /^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$/;

/** What a Python error thrown out of a request becomes in its reply. A Stop whose SIGINT
 *  landed outside the Python function's own try (entering or leaving it) is still a stop; its
 *  error stays in the reply too (the traceback of a stopped load names the file that looped).
 *  @param {any} err @returns {{ok: false, interrupted: boolean, error: PythonError}} */
export function thrown(err) {
  const error = {
    type: err?.type || err?.name || "Error",
    message: String(err?.message || err),
    traceback: "",
  };
  return { ok: false, interrupted: error.type === "KeyboardInterrupt", error };
}

/** The worker and its interrupt buffer, started with its "init" message sent.
 * @param {string | URL} workerURL
 * @param {string} indexURL
 * @param {string} lang the page's language
 * @returns {{worker: Worker, interrupt: Uint8Array | null}} */
export function startWorker(workerURL, indexURL, lang) {
  const worker = new Worker(workerURL, { type: "module", name: "python" });
  const isolated = globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer === "function";
  const interrupt = isolated ? new Uint8Array(new SharedArrayBuffer(1)) : null;
  /** @type {InitMessage} */
  const init = { type: "init", indexURL, interruptBuffer: interrupt?.buffer, lang };
  worker.postMessage(init);
  return { worker, interrupt };
}
