// The computation-graph explorer: type an expression, see the graph the engine builds,
// play the forward and the backward pulse, read the chain rule on every arrow.
//
// All numbers come from `explorer.explore` (Python, in the course worker). This file puts
// the explorer's parts together and keeps its state: what Python answered and which step
// of which pass is shown. The parts: bar.js (the expression form and its error),
// sliders.js (the variables), controls.js (the timeline's buttons and the checkboxes),
// draw.js (the SVG), table.js (the text alternative), viewport.js (zoom and pan) and
// view3d.js (the 3-D view). Stable hooks for tests and lessons:
// [data-explorer] root, [data-explorer-values] on it or around it (the starting values of
// its variables, as JSON), input[data-role=expression], input[data-var=NAME],
// [data-action=forward|backward|finish|play|prev|next], [data-node] with data-label,
// data-value and data-grad (empty until shown), [data-role=error]. The root's data-state is
// "loading", "preview" (the graph the build embedded is drawn, Python is not ready yet),
// "ready" (Python answered) or "error".

import { ExpressionBar, PRESETS } from "./bar.js";
import { TimelineControls, toggleBoxes } from "./controls.js";
import { el, reducedMotion } from "./dom.js";
import { drawGraph } from "./draw.js";
import { layout } from "./layout.js";
import { takePrerendered } from "./prerender.js";
import { Sliders } from "./sliders.js";
import { graphState } from "./state.js";
import { graphTables } from "./table.js";
import { snapshot, stepCount } from "./timeline.js";
import { View3d } from "./view3d.js";
import { Viewport } from "./viewport.js";
import { t } from "../i18n.js";

export { PRESETS };
const STEP_MS = 1000;

let instances = 0;

/**
 * The starting values a lesson gives its explorer: `data-explorer-values='{"a": 2, "b": 3}'`
 * on the explorer's element or on one around it. A variable it does not name, or names with
 * something other than a finite number, starts at the Python explorer's default (DEFAULT_VALUES).
 */
export function startValues(root) {
  const holder = root.closest("[data-explorer-values]");
  if (!holder) return {};
  let given;
  try {
    given = JSON.parse(holder.dataset.explorerValues);
  } catch {
    console.warn("data-explorer-values is not JSON:", holder.dataset.explorerValues);
    return {};
  }
  if (given === null || typeof given !== "object" || Array.isArray(given)) return {};
  return Object.fromEntries(
    Object.entries(given).filter(([, x]) => typeof x === "number" && Number.isFinite(x)),
  );
}

export class Explorer {
  /**
   * @param root    the [data-explorer] element (its data-expression is the start)
   * @param python  the handle on the explorer's Python code in the worker:
   *                {explore(text, values) -> Promise<dict>, onStatus?(listener)}
   */
  constructor(root, python) {
    this.root = root;
    this.python = python;
    this.uid = ++instances;
    this.initialValues = startValues(root);
    this.values = { ...this.initialValues };
    this.result = null;
    this.mode = "forward";
    this.step = 0;
    this.timer = null;
    this.toggles = { locals: true, final: false, expand: false };
    this.inflight = null;
    this.queued = null;
    this.seq = 0;
    this.layoutKey = "";
    this.geometry = null;
    this.listeners = new Set();
    const prerendered = takePrerendered(root, this.initialValues);
    this.build(root.dataset.expression || PRESETS[0]);
    if (prerendered) this.preview(prerendered);
    // A page left by instant navigation takes its explorer with it: stop listening then.
    let off = null;
    off = python.onStatus?.((status) => {
      if (this.root.isConnected) this.showStatus(status);
      else off?.();
    });
    this.request({ rebuild: true });
  }

  // -- the page ----------------------------------------------------------------------

  build(expression) {
    this.root.textContent = "";
    this.root.classList.add("gx");
    this.root.dataset.state = "loading";
    this.root.dataset.mode = this.mode;
    this.bar = new ExpressionBar(
      (name) => this.id(name),
      expression,
      () => this.request({ rebuild: true }),
    );
    this.status = el("p", { class: "gx-status", "data-role": "status", text: t("explorer.starting") });
    this.sliders = new Sliders((name, x) => {
      this.values[name] = x;
      this.request();
    });
    this.controls = new TimelineControls({
      forward: () => this.start("forward"),
      backward: () => this.start("backward"),
      prev: () => this.go(this.step - 1),
      next: () => this.go(this.step + 1),
      play: () => (this.timer ? this.pause() : this.play()),
      finish: () => {
        this.pause();
        this.mode = "backward";
        this.go(stepCount(this.view, "backward"), { animate: false });
      },
      scrub: (step) => this.go(step, { animate: false }),
    });
    const toggles = toggleBoxes(this.toggles, (name, on) => {
      this.toggles[name] = on;
      if (name === "expand") this.relayout();
      this.render({ animate: false });
    });
    this.narration = el("p", { class: "gx-narration", "aria-live": "polite" });
    this.canvas = el("div", {
      class: "gx-canvas",
      tabindex: "0",
      role: "group",
      "aria-label": t("explorer.graphLabel"),
    });
    this.viewport = new Viewport(this.canvas); // first, so its Shift+arrows win
    this.canvas.addEventListener("keydown", (event) => this.key(event));
    this.table = el("div", { class: "gx-table" });
    const details = el(
      "details",
      { class: "gx-details" },
      el("summary", { text: t("explorer.tableSummary") }),
      this.table,
    );
    this.root.append(
      this.bar.form,
      this.bar.error,
      this.status,
      this.sliders.element,
      this.controls.element,
      toggles,
      this.narration,
      this.viewport.toolbar,
      this.canvas,
      details,
    );
    this.sliders.place(this.controls.element, details); // on a phone, after the graph
    this.setEnabled(false);
    this.view3d = new View3d(this); // its switch and stage, beside the 2-D drawing
  }

  /** An id unique to this explorer on the page. */
  id(name) {
    return `gx${this.uid}-${name}`;
  }

  setEnabled(on) {
    this.controls.setEnabled(on);
  }

  showStatus(status) {
    if (this.result && this.root.dataset.state !== "preview") return;
    if (status.phase === "error") {
      this.status.textContent = status.message;
      this.root.dataset.state = "error";
    } else if (status.phase !== "ready") {
      const waiting = status.message || t("explorer.starting");
      // The drawn graph and its timeline work already; only the sliders wait.
      this.status.textContent =
        this.root.dataset.state === "preview" ? t("explorer.previewWaiting", { waiting }) : waiting;
    }
  }

  key(event) {
    if (!this.result) return;
    const actions = {
      ArrowRight: () => this.go(this.step + 1),
      ArrowLeft: () => this.go(this.step - 1),
      " ": () => (this.timer ? this.pause() : this.play()),
      Home: () => this.go(0, { animate: false }),
      End: () => this.go(stepCount(this.view, this.mode), { animate: false }),
    };
    const act = actions[event.key];
    if (act) {
      event.preventDefault();
      act();
    }
  }

  // -- for other parts of the page (guided tasks) ------------------------------------

  /** `listener(state)` after every drawing, with `graphState`'s picture of what is shown
   *  (null while no graph stands: a refused expression, values out of the domain). */
  onChange(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Build `text` as if typed, with the variables named in `values` set (others keep theirs). */
  load(text, values = {}) {
    this.bar.text = text;
    this.request({ rebuild: true, values });
  }

  changed(snap) {
    const state = snap && this.result ? graphState(this.result, this.view, snap) : null;
    for (const listener of this.listeners) listener(state);
  }

  // -- talking to Python --------------------------------------------------------------

  /** Ask Python for the graph; at most one request in flight, the latest wins. */
  request({ rebuild = false, values = {} } = {}) {
    const text = this.bar.text;
    if (rebuild) {
      this.pause();
      this.text = text;
      this.values = { ...(this.result ? this.values : this.initialValues), ...values };
    }
    const job = { text: this.text, values: { ...this.values }, rebuild, seq: ++this.seq };
    if (this.inflight) {
      this.queued = this.queued?.rebuild ? { ...job, rebuild: true } : job;
      return;
    }
    this.send(job);
  }

  async send(job) {
    this.inflight = job;
    this.root.dataset.busy = "true";
    let result;
    try {
      result = await this.python.explore(job.text, job.values);
    } catch (err) {
      result = {
        ok: false,
        error: { message: t("explorer.pythonFailed", { error: err.message || err }), start: 0, end: 0 },
        failed: true,
      };
    }
    this.inflight = null;
    const next = this.queued;
    this.queued = null;
    if (next) {
      if (job.rebuild) next.rebuild = true; // the dropped reply would have rebuilt
      this.send(next);
      return;
    }
    delete this.root.dataset.busy;
    this.receive(job, result);
  }

  /** Draw the graph the build embedded, while Python boots; the sliders wait for it. */
  preview(result) {
    this.text = this.bar.text;
    this.receive({ text: this.text, rebuild: true }, result);
    this.root.dataset.state = "preview";
    this.status.hidden = false;
    this.sliders.disable();
  }

  receive(job, result) {
    this.status.hidden = true;
    if (!result.ok) {
      this.showError(job.text, result.error, !job.rebuild && this.result !== null);
      return;
    }
    this.bar.hideError();
    this.canvas.classList.remove("gx-stale");
    const structure = JSON.stringify(result.views.primitive.nodes.map((n) => [n.id, n.label]));
    const changed = !this.result || structure !== this.structure;
    this.result = result;
    this.structure = structure;
    this.values = Object.fromEntries(result.variables.map((v) => [v.name, v.value]));
    if (changed || job.rebuild) {
      this.sliders.show(result.variables);
      this.relayout();
      if (changed) {
        // A new graph starts with its values computed and no gradient yet.
        this.mode = "forward";
        this.step = stepCount(this.view, "forward");
      }
    }
    this.root.dataset.state = "ready";
    this.root.dataset.expression = result.expression;
    this.setEnabled(true);
    this.render({ animate: false });
  }

  showError(text, error, keepGraph) {
    this.pause();
    this.bar.showError(text, error);
    this.root.dataset.state = "error";
    this.changed(null);
    if (keepGraph) {
      // A slider moved the values out of the domain: keep the picture, greyed out.
      this.canvas.classList.add("gx-stale");
      return;
    }
    // A refused expression: nothing was built, so nothing is drawn.
    this.result = null;
    this.structure = null;
    this.canvas.textContent = "";
    this.view3d.clear();
    this.table.textContent = "";
    this.narration.textContent = "";
    this.sliders.hide();
    this.setEnabled(false);
  }

  // -- the timeline -------------------------------------------------------------------

  get view() {
    return this.result.views[this.toggles.expand ? "primitive" : "derived"];
  }

  relayout() {
    if (!this.result) return;
    const view = this.view;
    const key = `${this.toggles.expand}:${this.structure}`;
    if (key === this.layoutKey) return;
    this.layoutKey = key;
    this.geometry = layout(view.nodes, view.edges);
    // The step counts differ between views: keep the same place in the pass.
    this.step = Math.min(this.step, stepCount(view, this.mode));
    if (this.mode === "forward" && this.lastForwardEnd) this.step = stepCount(view, "forward");
  }

  start(mode) {
    this.pause();
    this.mode = mode;
    this.step = 0;
    this.render({ animate: false });
    this.play();
  }

  play() {
    if (!this.result) return;
    const count = stepCount(this.view, this.mode);
    if (this.step >= count) this.step = 0;
    this.controls.playing(true);
    const tick = () => {
      if (this.step >= stepCount(this.view, this.mode)) return this.pause();
      this.go(this.step + 1, { keepPlaying: true });
      if (this.step >= stepCount(this.view, this.mode)) this.pause();
    };
    this.timer = setInterval(tick, reducedMotion() ? STEP_MS * 1.5 : STEP_MS);
    tick();
  }

  pause() {
    clearInterval(this.timer);
    this.timer = null;
    this.controls.playing(false);
  }

  go(step, { animate = true, keepPlaying = false } = {}) {
    if (!this.result) return;
    if (!keepPlaying) this.pause();
    const count = stepCount(this.view, this.mode);
    this.step = Math.max(0, Math.min(step, count));
    this.render({ animate });
    // A graph larger than its box (a phone's): keep the step's cards in view.
    if (animate) this.viewport.reveal(this.canvas.querySelectorAll(".gx-node--active"));
  }

  // -- drawing --------------------------------------------------------------------------

  render({ animate }) {
    if (!this.result) return;
    const view = this.view;
    const count = stepCount(view, this.mode);
    this.lastForwardEnd = this.mode === "forward" && this.step === count;
    const snap = snapshot(view, this.mode, this.step, this.toggles.final);
    this.root.dataset.mode = this.mode;
    this.root.dataset.step = String(this.step);
    this.controls.show(this.mode, this.step, count);
    this.narration.textContent = snap.narration;
    this.draw(view, snap, animate && !reducedMotion());
    this.view3d.render(view, snap, animate);
    this.table.textContent = "";
    this.table.append(...graphTables(view, snap, this.result.expression));
    this.changed(snap);
  }

  draw(view, snap, animate) {
    const drawing = drawGraph(view, snap, this.geometry, {
      arrow: `gx-arrow-${this.uid}`,
      expression: this.result.expression,
      locals: this.toggles.locals,
      backward: this.mode === "backward",
      animate,
    });
    this.viewport.show(drawing, this.geometry);
    for (const motion of drawing.querySelectorAll("animateMotion")) motion.beginElement?.();
  }
}

/** Mount an explorer on every [data-explorer] under `root` that has none yet. */
export function mountExplorers(root, python) {
  const found = [...root.querySelectorAll("[data-explorer]:not([data-mounted])")];
  return found.map((node) => {
    node.setAttribute("data-mounted", "");
    return new Explorer(node, python);
  });
}
