// Mount the graph explorers of a page on the course's Python worker.

import { workerEngine } from "./engine.js";
import { mountExplorers } from "./explorer.js";

let engine = null;

/** Called by the runtime on every page (and after each instant navigation). */
export function mountExplorerPage(root, client) {
  if (!root.querySelector("[data-explorer]:not([data-mounted])")) return [];
  engine ??= workerEngine(client);
  client.boot();
  return mountExplorers(root, engine);
}

export { mountExplorers } from "./explorer.js";
