// Mount the graph explorers of a page on the course's Python worker.

import { mountExplorers } from "./explorer.js";
import { mountTasks } from "./tasks.js";
import { t } from "../i18n.js";

let python = null; // the explorers' handle on their Python code in the worker
// what a cell queued behind it says it waits for
const OWNER = {
  get label() {
    return t("explorer.owner");
  },
};

/** Called by the runtime on every page (and after each instant navigation); `page` keys
 *  the guided tasks' progress. The tasks of a page work with its first explorer. */
export function mountExplorerPage(root, client, { page } = {}) {
  if (!root.querySelector("[data-explorer]:not([data-mounted])")) return [];
  // Graphs come from `explorer.explore` (the Python package explorer/), run in the worker,
  // which loads the package on the first call: the page never differentiates anything.
  python ??= {
    onStatus: (listener) => client.onStatus(listener),
    explore: (text, values) =>
      client.call({ module: "explorer", name: "explore", args: [text, values], timeLimit: 20, owner: OWNER }),
  };
  client.boot();
  const explorers = mountExplorers(root, python);
  mountTasks(root, explorers[0], { page });
  return explorers;
}

export { mountExplorers } from "./explorer.js";
export { mountTasks } from "./tasks.js";
