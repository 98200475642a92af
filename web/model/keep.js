// Keep the learner's trained model across visits. A training cell's model lives in this
// tab's Python only: a reload, or closing the tab, loses it. So after each training snapshot
// the page asks Python for the weights (explorer.model.saved_model; the call waits for the
// training cell to end) and keeps them in the browser's storage; the next visit offers them
// back (restore_model). Until they are kept, leaving the page asks first (beforeunload).

const KEY = "course:model-explorer:trained";

const keepers = new WeakMap();
/** One keeper per engine (a tab's Python), shared by every model explorer of the page. */
export function keeperFor(engine) {
  if (!keepers.has(engine)) keepers.set(engine, new Keeper(engine));
  return keepers.get(engine);
}

export class Keeper {
  constructor(engine) {
    this.engine = engine;
    this.unsaved = false; // a model was trained that the storage does not hold yet
    this.saving = false;
    this.again = false;
    if (!engine.save) return; // an engine that cannot hand its model over
    engine.onModel(() => this.trained());
    window.addEventListener("beforeunload", (event) => {
      if (!this.unsaved) return;
      event.preventDefault();
      event.returnValue = ""; // older browsers ask only with a return value
    });
  }

  /** A training snapshot: the learner's model changed; keep it once Python is free. */
  trained() {
    this.unsaved = true;
    if (this.saving) this.again = true;
    else this.save();
  }

  async save() {
    this.saving = true;
    do {
      this.again = false;
      try {
        const saved = await this.engine.save();
        if (saved) localStorage.setItem(KEY, JSON.stringify({ at: Date.now(), saved }));
        this.unsaved = false;
      } catch {
        // Python restarted under the call (its model is gone), or the storage is full or
        // switched off: nothing more can be kept, and leaving still asks first if a model is.
        this.unsaved = this.unsaved && !this.again;
      }
    } while (this.again);
    this.saving = false;
  }

  /** The model kept by an earlier visit: {at, saved: {trained, ...}}, or null. */
  stored() {
    try {
      const kept = JSON.parse(localStorage.getItem(KEY) ?? "null");
      return kept?.saved?.checkpoint ? kept : null;
    } catch {
      return null;
    }
  }

  forget() {
    try {
      localStorage.removeItem(KEY);
    } catch {
      // storage switched off: there was nothing to forget
    }
  }

  /** Make the kept model this tab's learner's model again; resolves with its snapshot. */
  restore() {
    const kept = this.stored();
    if (!kept) return Promise.resolve(null);
    return this.engine.restore(kept.saved);
  }
}
