// The explorer's only source of graphs: `explorer.explore` (the Python package explorer/,
// shipped as its own wheel next to `engine`'s) run by Python in the course worker
// (Pyodide). The JavaScript side never differentiates anything.
// A "run" in a namespace of our own imports it (the worker loads the `explorer` wheel,
// and the `engine` wheel it requires, from a run's imports); each "call" then runs it there
// and returns its JSON.

const MODULE = "explorer";
const NAMESPACE = "__explorer__";
const OWNER = { label: "the graph explorer" }; // what a cell queued behind it says it waits for

/**
 * An engine backed by the page's PythonClient (web/client.js).
 * explore(text, values) resolves with explore()'s dict, or rejects when Python fails.
 */
export function workerEngine(client) {
  let loaded = null; // the client generation the explorer package was loaded for
  let loading = null;
  const load = () => {
    if (loaded === client.generation && loading) return loading;
    loaded = client.generation;
    // A run (not a call) makes the worker load the `explorer` wheel from its imports.
    loading = client
      .run({
        ns: NAMESPACE,
        code: `from ${MODULE} import explore`,
        filename: "<explorer>",
        timeLimit: 120,
        owner: OWNER,
      })
      .promise.then((reply) => {
        if (!reply.ok) {
          loading = null;
          throw new Error(reply.error?.message || "Python could not load the explorer");
        }
      });
    return loading;
  };
  return {
    onStatus: (listener) => client.onStatus(listener),
    async explore(text, values) {
      await load();
      // Called through the explorer's own namespace, where the run above imported it.
      return client.call({
        ns: NAMESPACE,
        name: "explore",
        args: [text, values],
        timeLimit: 20,
        owner: OWNER,
      });
    },
  };
}
