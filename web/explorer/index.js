// Mount the graph explorers of a page on the course's Python worker.

import { workerEngine } from "./engine.js";
import { mountExplorers } from "./explorer.js";
import { mountTasks } from "./tasks.js";

let engine = null;

/** Called by the runtime on every page (and after each instant navigation); `page` keys
 *  the guided tasks' progress. The tasks of a page work with its first explorer. */
export function mountExplorerPage(root, client, { page } = {}) {
  if (!root.querySelector("[data-explorer]:not([data-mounted])")) return [];
  engine ??= workerEngine(client);
  client.boot();
  const explorers = mountExplorers(root, engine);
  mountTasks(root, explorers[0], { page });
  return explorers;
}

export { mountExplorers } from "./explorer.js";
export { mountTasks } from "./tasks.js";
