// The model explorer's only source of numbers: `explorer.model` (shipped in the explorer
// wheel) run by Python in the course worker. The page computes nothing about the model
// itself, except softmax(z / T) for the temperature slider and the draw of a letter.
// A "run" in a namespace of our own imports it; each "call" then runs it there.

const NAMESPACE = "__model_explorer__";
const OWNER = { label: "the model explorer" }; // what a cell queued behind it says it waits for

/** An engine backed by the page's PythonClient (web/client.js): forward(prefix),
 *  backward(name, position) resolve with explorer.model's dicts or reject with its message;
 *  save() with the learner's model to keep (or null), restore(saved) with its snapshot;
 *  onModel(listener) hears every snapshot a training cell shows; lastModel() is the latest
 *  one, or null (none yet, or Python restarted since). */
export function workerEngine(client) {
  let loaded = null; // the client generation the package was imported for
  let loading = null;
  const load = () => {
    if (loaded === client.generation && loading) return loading;
    loaded = client.generation;
    loading = client
      .run({
        ns: NAMESPACE,
        code: "from explorer.model import backward_view, forward_view, restore_model, saved_model",
        filename: "<model explorer>",
        timeLimit: 120,
        owner: OWNER,
      })
      .promise.then((reply) => {
        if (!reply.ok) {
          loading = null;
          throw new Error(reply.error?.message || "Python could not load the model explorer");
        }
      });
    return loading;
  };
  const call = async (name, args) => {
    await load();
    return client.call({ ns: NAMESPACE, name, args, timeLimit: 60, owner: OWNER });
  };
  return {
    forward: (prefix) => call("forward_view", [prefix]),
    backward: (name, position) => call("backward_view", position === null ? [name] : [name, position]),
    save: () => call("saved_model", []),
    restore: (saved) => call("restore_model", [saved]),
    onModel: (listener) => client.onModel?.(listener) ?? (() => {}),
    lastModel: () => client.lastModel ?? null,
    boot: () => client.boot(),
  };
}
