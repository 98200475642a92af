// Keep the learner's trained model across visits. A training cell's model lives in this
// tab's Python only: a reload, or closing the tab, loses it. So after each training snapshot
// the page asks Python for the weights (explorer.model.saved_model; the call waits for the
// training cell to end) and keeps them in the browser's storage; the next visit offers them
// back (restore_model; KeptOffer). Until they are kept, leaving the page asks first
// (beforeunload).

import { el } from "../explorer/dom.js";
import { messageOf } from "./words.js";
import { t } from "../i18n.js";

const KEY = "course:model-explorer:trained";

const keepers = new WeakMap();
/** One keeper per handle on the tab's Python (pythonFor), shared by every model explorer of the page. */
export function keeperFor(python) {
  if (!keepers.has(python)) keepers.set(python, new Keeper(python));
  return keepers.get(python);
}

export class Keeper {
  constructor(python) {
    this.python = python;
    this.unsaved = false; // a model was trained that the storage does not hold yet
    this.saving = false;
    this.again = false;
    if (!python.save) return; // a handle that cannot hand its model over
    python.onModel(() => this.trained());
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
        const saved = await this.python.save();
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
    return this.python.restore(kept.saved);
  }
}

/** The offer, in a model explorer, of the model kept on an earlier visit: shown once, when
 *  the tab's Python has no trained model of its own. */
export class KeptOffer {
  constructor(explorer, keeper) {
    this.x = explorer;
    this.keeper = keeper;
    this.offered = false;
    const restore = el("button", { type: "button", class: "md-button gm-button", "data-action": "restore" });
    restore.textContent = t("model.useAgain");
    const forget = el("button", { type: "button", class: "md-button gm-button", "data-action": "forget" });
    forget.textContent = t("model.forget");
    this.text = el("span");
    this.element = el(
      "p",
      { class: "gm-offer", "data-role": "restore-offer" },
      this.text,
      " ",
      restore,
      " ",
      forget,
    );
    this.element.hidden = true;
    restore.addEventListener("click", () => this.restore());
    forget.addEventListener("click", () => {
      this.keeper.forget();
      this.element.hidden = true;
      this.x.input.focus();
    });
  }

  /** The model Python answered with: offer the kept one if it is not a trained one. */
  seen(model) {
    if (model?.source === "trained") this.element.hidden = true;
    if (this.offered || model?.source === "trained") return;
    this.offered = true;
    const kept = this.keeper.stored();
    if (!kept) return;
    const steps = Number(kept.saved.trained).toLocaleString("en-US");
    const when = new Date(kept.at).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" });
    this.text.textContent = t("model.keptOffer", { steps, when });
    this.element.hidden = false;
  }

  async restore() {
    this.element.hidden = true;
    this.x.status.textContent = t("model.restoring");
    try {
      const shot = await this.keeper.restore();
      if (shot) this.x.snapshot(shot);
      this.x.input.focus();
    } catch (err) {
      this.x.refused(t("model.restoreFailed", { error: messageOf(err) }), this.x.input.value);
    }
  }
}
