// @ts-check
// The page's handle on the Python worker: one per tab, shared by every cell and
// exercise, and kept across Material's instant navigation (this module is loaded once).
//
// Stop: when the page is cross-origin isolated, write SIGINT into the worker's
// interrupt buffer; if the run has not ended within STOP_GRACE_MS (or without
// isolation at all), terminate the worker and start a fresh one. A restart bumps
// `generation`, so callers know that every namespace is gone.
// The worker says when a request's own Python starts ("executing"), after the packages
// it imports are loaded: its time limit counts from there, and a Stop pressed while the
// packages load is sent then (an interrupt during loading would break the loading, not
// the learner's code), with STOP_LOADING_MS for loading that never ends.
//
// Requests run one at a time, in order. Each names its owner ({label, page}: "cell 2",
// "the checks of day05_add_mul.py"), so a request that waits can say for what:
// `onProgress({state: "waiting", text})` while it waits (for another request, or for
// Python to load), then `onProgress({state: "running"})` once its code starts.
//
// The messages to the worker and back are web/protocol.js's, checked by `tsc` (`nox -s lint`).

import { startWorker } from "./protocol.js";
import { language, t } from "./i18n.js";

/** @typedef {import("./protocol.js").ToWorker} ToWorker */
/** @typedef {import("./protocol.js").FromWorker} FromWorker */
/** @typedef {import("./protocol.js").RequestBody} RequestBody */
/** @typedef {import("./protocol.js").Phase} Phase */

/** Who asked for a request: "cell 2" of page "lessons/day05_add_mul".
 * @typedef {{label: string, page?: string}} Owner */

/** What a request's reply ends as: the worker's, or the page's own when it stopped the request.
 * @typedef {{ok: boolean, value?: any, error?: import("./protocol.js").PythonError | null,
 *   interrupted?: boolean, truncated?: boolean, reason?: string, cancelled?: boolean,
 *   restarted?: boolean}} Outcome */

/**
 * @typedef {object} RequestOptions
 * @property {(stream: "stdout" | "stderr", text: string) => void} [onStream]
 * @property {(svg: string, key: string | null) => void} [onFigure]
 * @property {number} [timeLimit] seconds, from the worker's "executing"
 * @property {Owner} [owner]
 * @property {(progress: {state: "waiting" | "running", text?: string}) => void} [onProgress]
 */

/**
 * A request in the queue.
 * @typedef {RequestOptions & {id: number, message: RequestBody, owner: Owner, finished: boolean,
 *   running: boolean, started?: boolean, generation?: number, reason?: string,
 *   resolve: (outcome: Outcome) => void, timer?: any, stopTimer?: any, loadingNote?: any}} Job
 */

// Generous on purpose: an interrupt keeps the learner's session, a restart loses it. Pyodide
// checks the interrupt buffer only every so often, and on a busy two-core machine the
// worker's thread can wait for a core for seconds (CI runs have taken over 2 s, and once
// over 5 s). A page may set globalThis.courseStopGraceMs (read at each Stop): the tests
// do, so that an interrupt is told from a restart whatever the machine's load.
const STOP_GRACE_MS = 5000;
const STOP_LOADING_MS = 15000;
const LOADING_NOTE_MS = 300; // a quicker load is not worth a flash of text
const SIGINT = 2;

export class PythonClient {
  /** @param {{indexURL: string, workerURL: string}} urls */
  constructor({ indexURL, workerURL }) {
    this.indexURL = indexURL;
    this.workerURL = workerURL;
    /** @type {Worker | null} */
    this.worker = null;
    this.generation = 0;
    /** @type {{phase: Phase, message: string}} */
    this.status = { phase: "idle", message: t("python.idle") };
    /** @type {Set<(status: {phase: Phase, message: string}) => void>} */
    this.listeners = new Set();
    /** @type {Set<(data: any) => void>} */
    this.modelListeners = new Set();
    /** @type {any} the latest training snapshot, for an explorer mounted after it */
    this.lastModel = null;
    /** @type {Map<number, Job>} */
    this.pending = new Map();
    this.nextId = 1;
    /** @type {Job | null} the job the worker is running now */
    this.current = null;
    /** @type {Promise<unknown>} */
    this.chain = Promise.resolve();
    /** @type {Uint8Array | null} */
    this.interrupt = null;
  }

  /** Send `message` to the worker (started). @param {ToWorker} message */
  send(message) {
    this.worker?.postMessage(message);
  }

  onStatus(listener) {
    this.listeners.add(listener);
    listener(this.status);
    return () => this.listeners.delete(listener);
  }

  /** `listener(data)` for every training snapshot any run shows ("model" messages of the
   *  worker, see web/worker.js); returns a function that removes the listener. */
  onModel(listener) {
    this.modelListeners.add(listener);
    return () => this.modelListeners.delete(listener);
  }

  setStatus(phase, message) {
    this.status = { phase, message };
    for (const listener of this.listeners) listener(this.status);
  }

  /** Resolves once Python has started (or could not) and no request is queued or running:
   *  on a page whose first cell was run at once, after that cell's output. */
  async settled() {
    const started = () => this.status.phase === "ready" || this.status.phase === "error";
    for (;;) {
      if (!started()) {
        await /** @type {Promise<void>} */ (
          new Promise((resolve) => {
            const off = this.onStatus(() => {
              if (!started()) return;
              queueMicrotask(() => off());
              resolve();
            });
          })
        );
      }
      const chain = this.chain;
      await chain;
      if (chain === this.chain && started()) return;
    }
  }

  /** Start the worker (idempotent): on first Run, or as an idle prefetch. */
  boot() {
    if (this.worker) return;
    // A page with cells starts the worker from its <head> (hooks/course_site.py), so
    // Python loads while the page does; the first client takes that worker over.
    const early = globalThis.courseEarlyPython;
    globalThis.courseEarlyPython = null;
    // Its Python must be the page's runtime, speaking the page's language (a gradcheck table).
    const lang = language();
    const adopt =
      early?.worker && new URL(early.indexURL, location.href).href === this.indexURL && early.lang === lang;
    if (!adopt) early?.worker?.terminate();
    const { worker, interrupt } = adopt ? early : startWorker(this.workerURL, this.indexURL, lang);
    this.worker = worker;
    this.interrupt = interrupt;
    worker.onmessage = (event) => this.receive(event.data);
    worker.onerror = (event) => {
      this.setStatus(
        "error",
        t("python.workerFailed", { detail: event.message || t("python.unknownError") }),
      );
    };
    this.setStatus("loading", t("python.loading"));
    if (adopt) for (const message of early.messages.splice(0)) this.receive(message);
  }

  /** Tell every request still in the queue what it waits for now. */
  tellWaiting() {
    for (const job of this.pending.values()) {
      if (job.finished) continue;
      if (job === this.current) {
        // Once Python is ready, packages load first: said only if that takes a while (dispatch).
        if (!job.running && this.status.phase !== "ready") {
          job.onProgress?.({ state: "waiting", text: t("run.waitingForPython") });
        }
        continue;
      }
      const ahead = this.current ?? [...this.pending.values()].find((other) => !other.finished);
      if (ahead === job) continue; // first in line: about to start
      job.onProgress?.({
        state: "waiting",
        text: t("run.waitingFor", { what: describeOwner(ahead?.owner, job.owner) }),
      });
    }
  }

  /** `job`'s code starts now (the worker said "executing"): its time limit starts too,
   *  and a Stop pressed while its packages loaded is delivered. */
  started(job) {
    if (job.finished || job.running) return;
    job.running = true;
    job.onProgress?.({ state: "running" });
    if (job.reason) {
      clearTimeout(job.stopTimer);
      this.interruptNow(job, job.reason);
      return;
    }
    if (job.timeLimit && job.timeLimit > 0) {
      job.timer = setTimeout(() => this.stop(job, "timeout"), job.timeLimit * 1000);
    }
  }

  /** @param {FromWorker} msg */
  receive(msg) {
    if (msg.type === "status") {
      this.setStatus(msg.phase, t(msg.key, { detail: msg.detail ?? "" }));
      return;
    }
    if (msg.type === "model") {
      this.lastModel = msg.data;
      for (const listener of this.modelListeners) listener(msg.data);
      return;
    }
    const job = this.pending.get(msg.id);
    if (!job) return;
    if (msg.type === "executing") this.started(job);
    else if (msg.type === "stream") job.onStream?.(msg.stream, msg.text);
    else if (msg.type === "figure") job.onFigure?.(msg.svg, msg.key);
    else if (msg.type === "done" || msg.type === "result") {
      if (msg.type === "done") job.started = true;
      this.finish(job, msg);
    }
  }

  /** @param {Job} job @param {Outcome} reply */
  finish(job, reply) {
    if (job.finished) return;
    job.finished = true;
    clearTimeout(job.timer);
    clearTimeout(job.stopTimer);
    clearTimeout(job.loadingNote);
    this.pending.delete(job.id);
    if (this.current === job) this.current = null;
    job.resolve(job.reason && reply.interrupted ? { ...reply, reason: reply.reason ?? job.reason } : reply);
  }

  /** Queue a request; resolves with the worker's final reply (never rejects).
   *  owner: {label, page} of who asked; onProgress: see the top of this file.
   *  @param {RequestBody} message @param {RequestOptions} [options]
   *  @returns {{job: Job, promise: Promise<Outcome>}} */
  request(message, { onStream, onFigure, timeLimit, owner, onProgress } = {}) {
    /** @type {Job} */
    const job = {
      id: this.nextId++,
      message,
      onStream,
      onFigure,
      timeLimit,
      owner: owner ?? { label: t("run.otherCode") },
      onProgress,
      finished: false,
      running: false,
      resolve: () => {},
    };
    /** @type {Promise<Outcome>} */
    const promise = new Promise((resolve) => {
      job.resolve = resolve;
    });
    this.pending.set(job.id, job);
    this.chain = this.chain.then(() => this.dispatch(job)).then(() => promise);
    this.tellWaiting();
    return { job, promise };
  }

  /** @param {Job} job */
  dispatch(job) {
    if (job.finished) return;
    this.boot();
    this.current = job;
    job.generation = this.generation;
    // The time limit counts from the worker's "executing", not while Python or packages load.
    this.tellWaiting();
    job.loadingNote = setTimeout(() => {
      if (job.running || job.finished || this.status.phase !== "ready") return;
      const text = job.message.type === "check" ? t("run.loadingChecks") : t("run.loadingPackages");
      job.onProgress?.({ state: "waiting", text });
    }, LOADING_NOTE_MS);
    this.send({ ...job.message, id: job.id });
  }

  run({ ns, code, filename, timeLimit, onStream, onFigure, owner, onProgress }) {
    return this.request(
      { type: "run", ns, code, filename },
      { onStream, onFigure, timeLimit, owner, onProgress },
    );
  }

  /** Call a Python function in the worker and get its JSON result back: `name` (dotted) of
   *  `module`, whose package the worker loads first (e.g. "explorer.model"), or of page
   *  namespace `ns`.
   *  @param {{module?: string, ns?: string, name: string, args?: unknown[], timeLimit?: number,
   *    owner?: Owner}} request
   *  @returns {Promise<any>} */
  async call({ module, ns, name, args = [], timeLimit = 30, owner }) {
    const { promise } = this.request({ type: "call", module, ns, name, args }, { timeLimit, owner });
    const reply = await promise;
    if (!reply.ok) throw Object.assign(new Error(reply.error?.message || "call failed"), reply.error || {});
    return reply.value;
  }

  check({ exercise, source, lang = "en", timeLimit = 60, owner, onProgress }) {
    return this.request({ type: "check", exercise, source, lang }, { timeLimit, owner, onProgress });
  }

  resetNamespace(ns) {
    this.send({ type: "reset", ns });
  }

  /** Stop `job` (default: whatever runs now). `why` is "stop" or "timeout". */
  stop(job = this.current, why = "stop") {
    if (!job || job.finished) return;
    if (this.current !== job) {
      // Not started yet: drop it from the queue.
      this.finish(job, { ok: false, interrupted: true, reason: why, cancelled: true });
      return;
    }
    if (job.reason) return; // already stopping
    job.reason = why;
    if (!this.interrupt || this.status.phase !== "ready") this.restart(job, why);
    else if (job.running) this.interruptNow(job, why);
    else job.stopTimer = setTimeout(() => this.restart(job, why), STOP_LOADING_MS); // see started()
  }

  /** SIGINT to the running code; a fresh worker if it has not ended within the grace. */
  interruptNow(job, why) {
    if (this.interrupt) this.interrupt[0] = SIGINT;
    const grace = Number(/** @type {any} */ (globalThis).courseStopGraceMs) || STOP_GRACE_MS;
    job.stopTimer = setTimeout(() => this.restart(job, why), grace);
  }

  /** Throw the worker away and start a fresh one; `job` ends as stopped. */
  restart(job = this.current, why = "stop") {
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.generation += 1;
    this.lastModel = null; // the trained model went with the old Python
    const orphans = [...this.pending.values()];
    for (const other of orphans) {
      if (other === job) this.finish(other, { ok: false, interrupted: true, reason: why, restarted: true });
      else if (this.current === other || other.generation !== undefined) {
        this.finish(other, { ok: false, interrupted: true, reason: "restart", restarted: true });
      }
    }
    this.current = null;
    this.setStatus("idle", t("python.restarted"));
    this.boot();
  }
}

/** How a waiting request names the one ahead of it: "cell 2", "cell 2 of another page". */
function describeOwner(ahead, waiter) {
  const label = ahead?.label ?? t("run.otherCode");
  if (ahead?.page && waiter?.page && ahead.page !== waiter.page)
    return t("run.ofAnotherPage", { what: label });
  return label;
}
