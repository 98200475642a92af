// @ts-check
// Start the Python worker from a page's <head>, before the rest of the page loads, so Python
// loads while the page does; web/client.js takes the worker over (and drops it if the page's
// runtime differs). hooks/course_site.py puts this file inline in the <head> of every page that
// runs Python, on a <script> whose data-worker and data-pyodide give the URLs (page-relative);
// the page's language is its <html lang> (client.js adopts the worker only if it is i18n.js's).
// A classic script (a module would wait for the page): it cannot import web/protocol.js, whose
// startWorker does the same for the page's own start.
(() => {
  const script = /** @type {HTMLScriptElement} */ (document.currentScript);
  const worker = new Worker(script.dataset.worker ?? "", { type: "module", name: "python" });
  const isolated = globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer === "function";
  const interrupt = isolated ? new Uint8Array(new SharedArrayBuffer(1)) : null;
  const indexURL = new URL(script.dataset.pyodide ?? "", location.href).href;
  const lang = document.documentElement.lang || "en";
  /** @type {{worker: Worker, interrupt: Uint8Array | null, indexURL: string, lang: string,
   *   messages: import("./protocol.js").FromWorker[]}} */
  const early = { worker, interrupt, indexURL, lang, messages: [] };
  worker.onmessage = (event) => early.messages.push(event.data);
  /** @type {import("./protocol.js").InitMessage} */
  const init = { type: "init", indexURL, interruptBuffer: interrupt?.buffer, lang };
  worker.postMessage(init);
  /** @type {any} */ (globalThis).courseEarlyPython = early;
})();
