// Mount the page's model explorers ([data-model-explorer]). The explorer itself is a chunk
// of its own, fetched only by pages that have one.

import { t } from "../i18n.js";

let loading = null;

/** Called by the runtime on every page (and after each instant navigation). */
export function mountModelExplorerPage(root, client) {
  if (!root.querySelector("[data-model-explorer]:not([data-mounted])")) return;
  client.boot(); // the model's numbers come from Python: start it while the chunk loads
  loading ??= import("./model-explorer.js").catch((err) => {
    loading = null; // offline and never fetched: the next page tries again
    throw err;
  });
  loading
    .then((module) => module.mountModelExplorers(root, module.pythonFor(client)))
    .catch(() => {
      for (const box of root.querySelectorAll("[data-model-explorer]:not([data-mounted])")) {
        box.dataset.state = "error";
        const note = box.querySelector(".gm-fallback");
        if (note) note.textContent = t("model.notLoaded");
      }
    });
}
