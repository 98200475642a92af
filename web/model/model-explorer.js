// The model explorer: type a prefix, see what the course's GPT (microGPT) computes at each
// position (embeddings, each head's attention, the residual stream, the next-symbol
// probabilities), where the gradient of one name's loss goes, and, while a training cell
// runs, the model learning. All numbers come from `explorer.model` in the worker (pythonFor);
// the page only reshapes the probabilities for the temperature slider and the top-k and
// top-p filters, and draws a letter from them.
//
// This module is the coordinator: the prefix box, the line saying which model is in use,
// the questions to Python (one at a time, the newest wins) and which view is drawn for what.
// Each view is a module of its own in views/; keep.js keeps a trained model across visits.
//
// Test hooks: [data-model-explorer] (data-state: busy | ready | error; data-shown: the prefix
// drawn), input[data-role=prefix], [data-role=error] (a refused input, one line),
// [data-role=model], [data-role=restore-offer] ([data-action=restore], [data-action=forget]),
// [data-view=NAME] (data-stale: waiting | invalid, when the view is not drawn for what is typed;
// its [data-role=waiting] says why), and the views' own (views/*.js). Events (bubbling):
// "model-explorer:forward" once the forward views are redrawn, "model-explorer:drawn" once all are.

import { el } from "../explorer/dom.js";
import { KeptOffer, keeperFor } from "./keep.js";
import { seededUniform } from "./math.js";
import { AttentionView } from "./views/attention.js";
import { BackwardView } from "./views/backward.js";
import { EmbeddingsView } from "./views/embeddings.js";
import { ProbsView } from "./views/probs.js";
import { ResidualView } from "./views/residual.js";
import { TrainingView } from "./views/training.js";
import { describeModel, messageOf, unreadable } from "./words.js";
import { t } from "../i18n.js";

export { describeModel };

const FORWARD = ["embeddings", "attention", "residual", "probs"];
export const VIEWS = [...FORWARD, "backward", "training"];
const GROUPS = { all: VIEWS, forward: FORWARD };
const VIEW_CLASSES = {
  embeddings: EmbeddingsView,
  attention: AttentionView,
  residual: ResidualView,
  probs: ProbsView,
  backward: BackwardView,
  training: TrainingView,
};

const pythons = new WeakMap();
// what a cell queued behind it says it waits for
const OWNER = {
  get label() {
    return t("model.owner");
  },
};
/** The explorers' handle on their Python code in the worker, one per Python client (web/client.js),
 *  shared by every model explorer of every page:
 *  forward(prefix), backward(name, position) resolve with explorer.model's dicts (the worker
 *  loads the package) or reject with its message; save() with the learner's model to keep (or
 *  null), restore(saved) with its snapshot; onModel(listener) hears every snapshot a training
 *  cell shows; lastModel() is the latest one, or null (none yet, or Python restarted). */
export function pythonFor(client) {
  const call = (name, args) =>
    client.call({ module: "explorer.model", name, args, timeLimit: 60, owner: OWNER });
  if (!pythons.has(client)) {
    pythons.set(client, {
      forward: (prefix) => call("forward_view", [prefix]),
      backward: (name, position) => call("backward_view", position === null ? [name] : [name, position]),
      save: () => call("saved_model", []),
      restore: (saved) => call("restore_model", [saved]),
      onModel: (listener) => client.onModel(listener),
      lastModel: () => client.lastModel,
      boot: () => client.boot(),
    });
  }
  return pythons.get(client);
}

/** Mount every model explorer under `root` not mounted yet. */
export function mountModelExplorers(root, python) {
  const boxes = [...root.querySelectorAll("[data-model-explorer]:not([data-mounted])")];
  return boxes.map((box) => new ModelExplorer(box, python));
}

/** The views a block asks for: data-views="forward", "probs,attention", "all" (default). */
export function parseViews(text) {
  const wanted = new Set();
  for (const word of (text || "all").split(/[\s,]+/).filter(Boolean)) {
    for (const view of GROUPS[word] ?? [word]) if (VIEWS.includes(view)) wanted.add(view);
  }
  return VIEWS.filter((v) => wanted.has(v));
}

let count = 0;

/** Runs one request at a time and keeps only the newest wish: a reply for an older prefix
 *  is dropped, never drawn over a newer one. */
class Latest {
  constructor(work) {
    this.work = work; // async (wish, isLatest) => void
    this.wish = undefined;
    this.serial = 0;
    this.busy = false;
  }

  /** Ask for `wish` (undefined: nothing; a reply on its way is then dropped). */
  request(wish) {
    this.wish = wish;
    this.serial += 1;
    if (!this.busy) this.pump();
  }

  async pump() {
    this.busy = true;
    while (this.wish !== undefined) {
      const wish = this.wish;
      const serial = this.serial;
      this.wish = undefined;
      await this.work(wish, () => serial === this.serial);
    }
    this.busy = false;
  }
}

export class ModelExplorer {
  constructor(root, python) {
    this.root = root;
    this.python = python;
    this.n = ++count;
    root.dataset.mounted = "";
    this.views = parseViews(root.dataset.views);
    // "no-sampling": the bars without the temperature slider and Sample (before day 27).
    const words = (root.dataset.views ?? "").split(/[\s,]+/);
    this.sampling = !words.includes("no-sampling");
    // "filters": top-k and top-p controls beside the temperature (from day 40).
    this.filters = this.sampling && words.includes("filters");
    this.prefix = (root.dataset.prefix ?? "emm").toLowerCase();
    this.name = null; // the backward view's name; null follows the prefix
    this.position = null; // the backward view's position; null = the name's last
    this.forwardData = null;
    this.uniform = root.dataset.seed ? seededUniform(Number(root.dataset.seed)) : Math.random;
    this.latest = new Latest((wish, isLatest) => this.compute(wish, isLatest));
    this.drawn = { forward: null, backward: null }; // what the views show (keys of wishes)
    this.build();
    this.offModel = python.onModel((data) => {
      if (!root.isConnected) {
        this.offModel?.(); // a page left by instant navigation
        return;
      }
      this.snapshot(data);
    });
    // A training cell that ran before this explorer was drawn (another page of this tab).
    const last = python.lastModel?.();
    if (last) this.parts.training?.draw(last);
    this.refresh();
  }

  id(part) {
    return `gm${this.n}-${part}`;
  }

  has(view) {
    return this.views.includes(view);
  }

  forwardViews() {
    return FORWARD.some((v) => this.has(v));
  }

  // -- the page ---------------------------------------------------------------------------

  build() {
    const prefixId = this.id("prefix");
    this.input = el("input", {
      id: prefixId,
      type: "text",
      "data-role": "prefix",
      value: this.prefix,
      autocomplete: "off",
      autocapitalize: "none",
      spellcheck: "false",
      maxlength: "32",
      "aria-describedby": `${this.id("prefix-help")} ${this.id("error")}`,
    });
    this.input.addEventListener("input", () => this.typed());
    this.error = el("p", { class: "gm-error", "data-role": "error", id: this.id("error"), role: "alert" });
    this.error.hidden = true;
    this.modelLine = el("p", { class: "gm-model", "data-role": "model" });
    this.offer = new KeptOffer(this, keeperFor(this.python));
    this.status = el("p", { class: "gm-status", role: "status", "aria-live": "polite" });
    this.status.textContent = t("model.starting");
    const controls = el(
      "div",
      { class: "gm-controls" },
      el(
        "div",
        { class: "gm-field" },
        el("label", { for: prefixId, text: t(this.forwardViews() ? "model.prefix" : "model.prefixName") }),
        this.input,
        el("span", {
          class: "gm-help",
          id: this.id("prefix-help"),
          text: t("model.prefixHelp"),
        }),
      ),
      this.error,
      this.modelLine,
      this.offer.element,
      this.status,
    );
    this.sections = new Map(); // view -> {node, note}, filled by section()
    this.parts = {}; // view -> its module's object
    for (const view of this.views) this.parts[view] = new VIEW_CLASSES[view](this);
    for (const old of this.root.querySelectorAll(".gm-fallback")) old.hidden = true;
    this.root.append(controls, ...this.views.map((view) => this.parts[view].node));
  }

  /** A view's section: its title, what it shows, a question, a note for when it is not drawn
   *  for what is typed, and its body (returned, for the view to fill). */
  section(view, title, what, question) {
    const heading = this.id(`${view}-title`);
    const body = el("div", { class: "gm-body" });
    const note = el("p", { class: "gm-wait", "data-role": "waiting" });
    note.hidden = true;
    const node = el(
      "section",
      { class: "gm-view", "data-view": view, "aria-labelledby": heading },
      el("h3", { id: heading, text: title }),
      // `what` is one paragraph, or a list of them.
      ...[what]
        .flat()
        .map((text, i) =>
          el("p", { class: "gm-what" }, ...(i ? [] : [el("strong", { text: `${t("model.what")} ` })]), text),
        ),
      el("p", { class: "gm-question" }, el("strong", { text: `${t("model.question")} ` }), question),
      note,
      body,
    );
    this.sections.set(view, { node, note });
    return { node, body };
  }

  // -- asking Python ------------------------------------------------------------------------

  /** A keystroke asks at once: one request is in flight at a time, and letters typed while
   *  it runs are asked for together, as the newest prefix (Latest). */
  typed() {
    this.parts.probs?.typed(); // its note and a finished name were the old prefix's
    const problem = this.problem(this.input.value);
    if (problem) {
      // A symbol the model does not know: no need to ask Python, nothing to draw.
      this.latest.request(undefined);
      this.refused(problem, this.input.value);
      return;
    }
    this.refresh();
  }

  /** Why the model cannot read `text` (explorer.model's words), or null; known once Python
   *  has answered once (the model's symbols). */
  problem(text) {
    const data = this.forwardData;
    if (!data) return null;
    return unreadable(
      text,
      data.symbols.filter((_, i) => i !== this.bosId()),
    );
  }

  /** The wishes the views are drawn from: the forward views' prefix, the backward's name. */
  keys() {
    const norm = (text) => text.trim().toLowerCase();
    return {
      forward: norm(this.input.value),
      backward: `${norm(this.name ?? this.input.value)}|${this.position ?? ""}`,
    };
  }

  /** Mark each view whose drawing is not of the wish now: "waiting" (for Python) or
   *  "invalid" (the input cannot be read); unmark the others. */
  markStale(kind = "waiting") {
    const keys = this.keys();
    for (const [view, { node, note }] of this.sections) {
      if (view === "training") continue;
      const part = view === "backward" ? "backward" : "forward";
      const current = kind !== "invalid" && this.drawn[part] === keys[part];
      if (current) {
        delete node.dataset.stale;
        note.hidden = true;
        continue;
      }
      node.dataset.stale = kind;
      note.hidden = false;
      note.textContent = kind === "invalid" ? t("model.invalid") : t("model.staleWaiting");
    }
  }

  /** Python, or the page, refused the input: say why in one line, and clear the views. */
  refused(message, prefix) {
    clearTimeout(this.waiting);
    this.error.textContent = message;
    this.error.hidden = false;
    this.input.setAttribute("aria-invalid", "true");
    this.status.textContent = "";
    this.root.dataset.state = "error";
    this.root.dataset.shown = prefix;
    this.markStale("invalid");
  }

  accepted() {
    this.error.hidden = true;
    this.error.textContent = "";
    this.input.removeAttribute("aria-invalid");
  }

  /** Ask Python again. `quiet`: the views are current (a training snapshot drew them);
   *  the answer only confirms them, so nothing is marked as waiting. */
  refresh({ quiet = false } = {}) {
    this.prefix = this.input.value;
    this.parts.backward?.follow(this.prefix);
    const wish = { prefix: this.prefix, name: this.name ?? this.prefix, position: this.position };
    if (quiet) {
      this.latest.request(wish);
      return;
    }
    this.markStale();
    clearTimeout(this.waiting);
    // A running cell goes first in the worker's queue: say so if the answer takes a while.
    this.waiting = setTimeout(() => {
      if (this.root.dataset.state === "busy") this.status.textContent = t("model.waiting");
    }, 1500);
    this.root.dataset.state = "busy";
    this.latest.request(wish);
  }

  async compute({ prefix, name, position }, isLatest) {
    // Both questions go to the worker at once: it computes the gradients while the page
    // draws the forward views.
    const forward = this.forwardViews() || !this.has("backward") ? this.python.forward(prefix) : null;
    const backward = this.has("backward") ? this.python.backward(name, position) : null;
    backward?.catch(() => {}); // its failure is read below, after the forward views
    try {
      if (forward) {
        const data = await forward;
        if (!isLatest()) return;
        this.accepted();
        this.drawForward(data);
        this.root.dispatchEvent(
          new CustomEvent("model-explorer:forward", { bubbles: true, detail: { prefix } }),
        );
      }
      if (backward) {
        let data = null;
        try {
          data = await backward;
        } catch (err) {
          if (!isLatest()) return;
          if (err.restarted || err.interrupted) throw err;
          this.parts.backward.error(name, err);
        }
        if (!isLatest()) return;
        if (data) this.drawBackward(data, position);
        else {
          // Its message is the view's: the view is current, with nothing to draw.
          this.drawn.backward = `${name.trim().toLowerCase()}|${position ?? ""}`;
          this.markStale();
        }
      }
      this.retried = false;
      this.root.dataset.state = "ready";
      this.root.dataset.shown = prefix;
      this.root.dispatchEvent(new CustomEvent("model-explorer:drawn", { bubbles: true, detail: { prefix } }));
    } catch (err) {
      if (!isLatest()) return;
      // Stop restarted Python under the call (its model is gone): ask the new one, once.
      if ((err.restarted || err.interrupted) && !this.retried) {
        this.retried = true;
        this.refresh();
        return;
      }
      this.refused(messageOf(err), prefix);
    }
  }

  // -- drawing ------------------------------------------------------------------------------

  symbolAt(position) {
    return this.forwardData?.tokens[position]?.symbol ?? String(position);
  }

  bosId() {
    return this.forwardData?.tokens[0]?.id ?? -1;
  }

  /** explorer.model.forward_view's answer, to every forward view. */
  drawForward(data) {
    this.forwardData = data;
    this.drawn.forward = data.prefix;
    this.markStale();
    this.offer.seen(data.model);
    const model = describeModel(data.model);
    this.modelLine.textContent = t("model.inUse", { model });
    const letters = data.tokens.length - 1; // what the model read, not what was typed
    this.status.textContent = t("model.showing", {
      prefix: data.prefix,
      letters: t("model.letters", { count: letters }),
      positions: t("model.positions", { count: data.tokens.length }),
    });
    const rows = data.tokens.map((t, i) => `${i} ${t.symbol}`);
    for (const view of FORWARD) this.parts[view]?.draw(data, rows);
  }

  /** explorer.model.backward_view's answer (for the position asked, null: the last). */
  drawBackward(data, position) {
    this.drawn.backward = `${data.name}|${position ?? ""}`;
    this.markStale();
    if (!this.forwardViews()) {
      // No forward view says which model this is: the backward view does.
      this.modelLine.textContent = t("model.inUse", { model: describeModel(data.model) });
      this.status.textContent = t("model.showingGradients", { name: data.name });
      this.accepted();
    }
    this.parts.backward.draw(data);
  }

  /** A training snapshot (engine.snapshot), or the one of a model brought back (keep.js). */
  snapshot(data) {
    this.parts.training?.draw(data);
    if (!this.views.some((v) => v !== "training")) return;
    // The model changed. While a cell trains it, Python answers nothing: the snapshot
    // carries the views of the prefixes the page asked for last (explorer.model), and the
    // views that match what is typed are drawn from it. The others wait for Python.
    if (this.root.dataset.state === "error") return; // nothing to draw for what is typed
    const keys = this.keys();
    const forward = this.forwardViews()
      ? data.views?.forward?.find((view) => view.prefix === keys.forward)
      : null;
    const backward = this.has("backward")
      ? data.views?.backward?.find((view) => `${view.name}|${view.asked_position ?? ""}` === keys.backward)
      : null;
    const complete = (!this.forwardViews() || forward) && (!this.has("backward") || backward);
    if (forward) this.drawForward(forward);
    if (backward) this.drawBackward(backward, backward.asked_position);
    if (complete) {
      this.root.dataset.state = "ready";
      this.root.dataset.shown = this.input.value;
    }
    // Asked again all the same: the answer comes once the cell ends (or after a Stop that
    // restarted Python, which lost the model); until then the views drawn stay current.
    this.refresh({ quiet: complete });
  }
}
