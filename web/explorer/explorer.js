// The computation-graph explorer: type an expression, see the graph the engine builds,
// play the forward and the backward pulse, read the chain rule on every arrow.
//
// All numbers come from `explorer.explore` (Python, in the course worker); this file
// lays out, draws and steps through them. Stable hooks for tests and lessons:
// [data-explorer] root, [data-explorer-values] on it or around it (the starting values of
// its variables, as JSON), input[data-role=expression], input[data-var=NAME],
// [data-action=forward|backward|finish|play|prev|next], [data-node] with data-label,
// data-value and data-grad (empty until shown), [data-role=error]. The root's data-state is
// "loading", "preview" (the graph the build embedded is drawn, Python is not ready yet),
// "ready" (Python answered) or "error".

import presets from "../../explorer/presets.json";
import { el, reducedMotion } from "./dom.js";
import { chainFormula, num, opName, opSymbol } from "./format.js";
import { layout } from "./layout.js";
import { takePrerendered } from "./prerender.js";
import { sliderRange } from "./sliders.js";
import { graphState } from "./state.js";
import { snapshot, stepCount } from "./timeline.js";
import { View3d } from "./view3d.js";
import { Viewport } from "./viewport.js";

// The examples menu: explorer/presets.json, the one list the Python package reads too
// (explorer.PRESETS); esbuild inlines it into the bundle.
export const PRESETS = presets;
const SVGNS = "http://www.w3.org/2000/svg";
const STEP_MS = 1000;
const LABEL_CHARS = 17; // what fits on a card; longer labels get an ellipsis and a tooltip

let instances = 0;

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function pathThrough(points) {
  let d = `M${points[0].x},${points[0].y}`;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1];
    const b = points[i];
    if (Math.abs(a.y - b.y) < 0.5) {
      d += ` L${b.x},${b.y}`;
    } else {
      const dx = (b.x - a.x) / 2;
      d += ` C${a.x + dx},${a.y} ${b.x - dx},${b.y} ${b.x},${b.y}`;
    }
  }
  return d;
}

/**
 * The starting values a lesson gives its explorer: `data-explorer-values='{"a": 2, "b": 3}'`
 * on the explorer's element or on one around it. A variable it does not name, or names with
 * something other than a finite number, starts at the engine's default.
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

/** The <defs> with the arrowhead marker every edge of one drawing ends with. */
function arrowDefs(id) {
  const marker = svg("marker", {
    id,
    viewBox: "0 0 10 10",
    refX: "9",
    refY: "5",
    markerWidth: "7",
    markerHeight: "7",
    orient: "auto-start-reverse",
  });
  marker.append(svg("path", { d: "M0,0 L10,5 L0,10 z", class: "gx-arrowhead" }));
  const defs = svg("defs");
  defs.append(marker);
  return defs;
}

/** A dot that runs along path `d`, forward or back, once its animation is begun. */
function pulseAlong(d, backward) {
  const pulse = svg("circle", { r: 5, class: "gx-pulse" });
  const motion = svg("animateMotion", {
    dur: "0.8s",
    begin: "indefinite",
    fill: "freeze",
    path: d,
    calcMode: "linear",
    keyPoints: backward ? "1;0" : "0;1",
    keyTimes: "0;1",
  });
  pulse.append(motion);
  return pulse;
}

export class Explorer {
  /**
   * @param root    the [data-explorer] element (its data-expression is the start)
   * @param engine  {explore(text, values) -> Promise<dict>, onStatus?(listener)}
   */
  constructor(root, engine) {
    this.root = root;
    this.engine = engine;
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
    off = engine.onStatus?.((status) => {
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
    const form = this.buildBar(expression);
    this.error = el("div", {
      class: "gx-error",
      "data-role": "error",
      id: this.id("error"),
      role: "alert",
      hidden: true,
    });
    this.status = el("p", { class: "gx-status", "data-role": "status", text: "Starting Python…" });
    this.sliders = el("fieldset", { class: "gx-vars", hidden: true }, el("legend", { text: "Variables" }));
    const controls = this.buildControls();
    const toggles = this.buildToggles();
    this.narration = el("p", { class: "gx-narration", "aria-live": "polite" });
    this.canvas = el("div", {
      class: "gx-canvas",
      tabindex: "0",
      role: "group",
      "aria-label": "Graph. Keys: → step, ← back, space play or pause, Home start, End finish",
    });
    this.viewport = new Viewport(this.canvas); // first, so its Shift+arrows win
    this.canvas.addEventListener("keydown", (event) => this.key(event));
    this.table = el("div", { class: "gx-table" });
    const details = el(
      "details",
      { class: "gx-details" },
      el("summary", { text: "Table of nodes and arrows (text alternative)" }),
      this.table,
    );
    this.root.append(
      form,
      this.error,
      this.status,
      this.sliders,
      controls,
      toggles,
      this.narration,
      this.viewport.toolbar,
      this.canvas,
      details,
    );
    this.controls = [...Object.values(this.buttons), this.scrub];
    this.setEnabled(false);
    this.view3d = new View3d(this); // its switch and stage, beside the 2-D drawing
  }

  /** An id unique to this explorer on the page. */
  id(name) {
    return `gx${this.uid}-${name}`;
  }

  /** The expression box, its Build button and the examples menu. */
  buildBar(expression) {
    this.input = el("input", {
      type: "text",
      id: this.id("expr"),
      "data-role": "expression",
      value: expression,
      spellcheck: "false",
      autocomplete: "off",
      autocapitalize: "off",
      "aria-describedby": this.id("error"),
    });
    this.preset = el(
      "select",
      { "data-role": "preset", "aria-label": "Pick an example expression" },
      el("option", { value: "", text: "Examples…" }),
      ...PRESETS.map((p) => el("option", { value: p, text: p })),
    );
    const form = el(
      "form",
      { class: "gx-bar" },
      el("label", { for: this.id("expr"), text: "Expression" }),
      this.input,
      el("button", { type: "submit", class: "md-button gx-button", text: "Build" }),
      this.preset,
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.request({ rebuild: true });
    });
    this.preset.addEventListener("change", () => {
      if (!this.preset.value) return;
      this.input.value = this.preset.value;
      this.preset.value = "";
      this.request({ rebuild: true });
    });
    return form;
  }

  /** The timeline: forward, backward, step, play, the scrubber and "All gradients". */
  buildControls() {
    const button = (action, text, title) =>
      el("button", { type: "button", class: "md-button gx-button", "data-action": action, title, text });
    this.buttons = {
      forward: button("forward", "▶ Forward", "Play the forward pass from the inputs"),
      backward: button("backward", "◀ Backward", "Play the backward pass from the output"),
      prev: button("prev", "« Back", "One step back (←)"),
      play: button("play", "Play", "Play or pause (space)"),
      next: button("next", "Step »", "One step forward (→)"),
      finish: button("finish", "All gradients", "Finish the backward pass: reveal every gradient"),
    };
    this.buttons.play.setAttribute("aria-pressed", "false");
    this.scrub = el("input", {
      type: "range",
      "data-role": "scrub",
      min: "0",
      max: "0",
      step: "1",
      value: "0",
      "aria-label": "Step of the timeline",
    });
    this.scrub.addEventListener("input", () => this.go(Number(this.scrub.value), { animate: false }));
    this.buttons.forward.addEventListener("click", () => this.start("forward"));
    this.buttons.backward.addEventListener("click", () => this.start("backward"));
    this.buttons.prev.addEventListener("click", () => this.go(this.step - 1));
    this.buttons.next.addEventListener("click", () => this.go(this.step + 1));
    this.buttons.play.addEventListener("click", () => (this.timer ? this.pause() : this.play()));
    this.buttons.finish.addEventListener("click", () => {
      this.pause();
      this.mode = "backward";
      this.go(stepCount(this.view, "backward"), { animate: false });
    });
    return el(
      "div",
      { class: "gx-controls", role: "group", "aria-label": "Timeline" },
      this.buttons.forward,
      this.buttons.backward,
      this.buttons.prev,
      this.buttons.play,
      this.buttons.next,
      this.scrub,
      this.buttons.finish,
    );
  }

  /** The checkboxes: local derivatives, final gradients, derived ops expanded. */
  buildToggles() {
    const toggle = (name, text, checked) => {
      const box = el("input", { type: "checkbox", "data-toggle": name, checked });
      box.addEventListener("change", () => {
        this.toggles[name] = box.checked;
        if (name === "expand") this.relayout();
        this.render({ animate: false });
      });
      return el("label", { class: "gx-toggle" }, box, ` ${text}`);
    };
    return el(
      "div",
      { class: "gx-toggles" },
      toggle("locals", "Local derivatives", true),
      toggle("final", "Final gradients", false),
      toggle("expand", "Expand derived ops (− and ÷)", false),
    );
  }

  setEnabled(on) {
    for (const c of this.controls) c.disabled = !on;
  }

  showStatus(status) {
    if (this.result && this.root.dataset.state !== "preview") return;
    if (status.phase === "error") {
      this.status.textContent = status.message;
      this.root.dataset.state = "error";
    } else if (status.phase !== "ready") {
      const waiting = status.message || "Starting Python…";
      // The drawn graph and its timeline work already; only the sliders wait.
      this.status.textContent =
        this.root.dataset.state === "preview"
          ? `${waiting} The sliders and new expressions work once it is ready.`
          : waiting;
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
    this.input.value = text;
    this.request({ rebuild: true, values });
  }

  changed(snap) {
    const state = snap && this.result ? graphState(this.result, this.view, snap) : null;
    for (const listener of this.listeners) listener(state);
  }

  // -- talking to Python --------------------------------------------------------------

  /** Ask the engine for the graph; at most one request in flight, the latest wins. */
  request({ rebuild = false, values = {} } = {}) {
    const text = this.input.value;
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
      result = await this.engine.explore(job.text, job.values);
    } catch (err) {
      result = {
        ok: false,
        error: { message: `Python failed: ${err.message || err}`, start: 0, end: 0 },
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
    this.text = this.input.value;
    this.receive({ text: this.text, rebuild: true }, result);
    this.root.dataset.state = "preview";
    this.status.hidden = false;
    for (const slider of this.sliders.querySelectorAll("input")) slider.disabled = true;
  }

  receive(job, result) {
    this.status.hidden = true;
    if (!result.ok) {
      this.showError(job.text, result.error, !job.rebuild && this.result !== null);
      return;
    }
    this.hideError();
    const structure = JSON.stringify(result.views.primitive.nodes.map((n) => [n.id, n.label]));
    const changed = !this.result || structure !== this.structure;
    this.result = result;
    this.structure = structure;
    this.values = Object.fromEntries(result.variables.map((v) => [v.name, v.value]));
    if (changed || job.rebuild) {
      this.buildSliders(result.variables);
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
    this.error.hidden = false;
    this.error.textContent = "";
    const start = Math.max(0, Math.min(error.start ?? 0, text.length));
    const end = Math.max(start, Math.min(error.end ?? start, text.length));
    this.error.append(el("p", { class: "gx-error__message", text: error.message }));
    if (text && end > start) {
      this.error.append(
        el(
          "pre",
          { class: "gx-error__where", "aria-hidden": "true" },
          text.slice(0, start),
          el("mark", { text: text.slice(start, end) }),
          text.slice(end),
        ),
      );
    }
    this.root.dataset.state = "error";
    this.input.setAttribute("aria-invalid", "true");
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
    this.sliders.hidden = true;
    this.setEnabled(false);
  }

  hideError() {
    this.error.hidden = true;
    this.error.textContent = "";
    this.input.removeAttribute("aria-invalid");
    this.canvas.classList.remove("gx-stale");
  }

  buildSliders(variables) {
    for (const row of this.sliders.querySelectorAll(".gx-var")) row.remove();
    this.sliders.hidden = variables.length === 0;
    for (const { name, value } of variables) {
      const input = el("input", {
        type: "range",
        "data-var": name,
        ...sliderRange(value),
        value: String(value),
        "aria-label": `Value of ${name}`,
      });
      const shown = el("output", { text: num(value) });
      const update = () => {
        const x = Number(input.value);
        shown.textContent = num(x);
        this.values[name] = x;
        this.request();
      };
      input.addEventListener("input", update);
      input.addEventListener("change", update);
      this.sliders.append(
        el("label", { class: "gx-var" }, el("span", { class: "gx-var__name", text: name }), input, shown),
      );
    }
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
    this.buttons.play.textContent = "Pause";
    this.buttons.play.setAttribute("aria-pressed", "true");
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
    this.buttons.play.textContent = "Play";
    this.buttons.play.setAttribute("aria-pressed", "false");
  }

  go(step, { animate = true, keepPlaying = false } = {}) {
    if (!this.result) return;
    if (!keepPlaying) this.pause();
    const count = stepCount(this.view, this.mode);
    this.step = Math.max(0, Math.min(step, count));
    this.render({ animate });
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
    this.scrub.max = String(count);
    this.scrub.value = String(this.step);
    this.scrub.setAttribute("aria-valuetext", `${this.mode} step ${this.step} of ${count}`);
    this.buttons.forward.setAttribute("aria-pressed", String(this.mode === "forward"));
    this.buttons.backward.setAttribute("aria-pressed", String(this.mode === "backward"));
    this.narration.textContent = snap.narration;
    this.draw(view, snap, animate && !reducedMotion());
    this.view3d.render(view, snap, animate);
    this.drawTable(view, snap);
    this.changed(snap);
  }

  draw(view, snap, animate) {
    const g = this.geometry;
    const arrow = `gx-arrow-${this.uid}`;
    const root = svg("svg", {
      class: "gx-svg",
      viewBox: `0 0 ${g.width} ${g.height}`,
      role: "img",
      "aria-label": `Computation graph of ${this.result.expression}: ${view.nodes.length} nodes. The table below lists them.`,
    });
    root.append(arrowDefs(arrow));
    for (const group of view.groups) root.append(this.drawGroup(view, group));
    const byId = new Map(view.nodes.map((n) => [n.id, n]));
    for (const e of view.edges) root.append(this.drawEdge(e, byId.get(e.target), snap, animate, arrow));
    for (const n of view.nodes) root.append(this.drawNode(n, snap));
    this.viewport.show(root, g);
    for (const motion of root.querySelectorAll("animateMotion")) motion.beginElement?.();
  }

  /** The outline of a derived operation around its primitives (expanded view). */
  drawGroup(view, group) {
    const g = this.geometry;
    // Around the operations only: the -1 constant sits with the other leaves, far left.
    const ops = group.members.filter((m) => view.nodes.find((n) => n.id === m)?.kind === "operation");
    const boxes = ops.map((m) => g.nodes.get(m)).filter(Boolean);
    const x0 = Math.min(...boxes.map((b) => b.x)) - 10;
    const y0 = Math.min(...boxes.map((b) => b.y)) - 22;
    const x1 = Math.max(...boxes.map((b) => b.x + b.w)) + 10;
    const y1 = Math.max(...boxes.map((b) => b.y + b.h)) + 10;
    const hull = svg("g", { class: "gx-group", "data-group": group.id });
    hull.append(
      svg("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0, rx: 10 }),
      svg(
        "text",
        { x: x0 + 8, y: y0 + 14 },
        `${group.label}: derived ${group.op === "neg" ? "−x" : group.op}`,
      ),
    );
    return hull;
  }

  /** One arrow, input to result: its label (local derivative or chain rule) and its pulse. */
  drawEdge(e, target, snap, animate, arrow) {
    const points = this.geometry.edges.get(e.id).points;
    const d = pathThrough(points);
    const sent = snap.sent.has(e.id);
    const active = snap.activeEdges.has(e.id);
    const group = svg("g", {
      class: `gx-edge${sent ? " gx-edge--sent" : ""}${active ? " gx-edge--active" : ""}`,
      "data-edge": e.id,
      "data-source": e.source,
      "data-target": e.target,
    });
    group.append(svg("path", { d, "marker-end": `url(#${arrow})` }));
    let label = "";
    if (sent) label = chainFormula(e, target.grad);
    else if (this.toggles.locals) label = `local ${num(e.local_grad)}`;
    if (label) {
      const a = points[points.length - 2];
      const b = points[points.length - 1];
      const t = 0.5;
      const lx = a.x + (b.x - a.x) * t;
      const ly = a.y + (b.y - a.y) * t + (e.slot === 0 ? -7 : 15);
      const text = svg("text", { x: lx, y: ly, "text-anchor": "middle", class: "gx-edge-label" }, label);
      text.dataset.role = sent ? "chain" : "local";
      group.append(text);
    }
    if (active && animate) {
      group.append(pulseAlong(d, this.mode === "backward"));
      group.dataset.pulse = "";
    }
    return group;
  }

  /** One card: label, operation, value and grad (each "--" until the pass reaches it). */
  drawNode(n, snap) {
    const box = this.geometry.nodes.get(n.id);
    const valued = snap.valued.has(n.id);
    const reached = snap.reached.has(n.id);
    const classes = ["gx-node", `gx-node--${n.kind}`];
    if (valued) classes.push("gx-node--valued");
    if (reached) classes.push("gx-node--reached");
    if (snap.activeNodes.has(n.id)) classes.push("gx-node--active");
    if (n.derived) classes.push("gx-node--derived");
    const node = svg("g", { class: classes.join(" "), transform: `translate(${box.x},${box.y})` });
    node.setAttribute("data-node", String(n.id));
    node.setAttribute("data-label", n.label);
    node.setAttribute("data-kind", n.kind);
    node.setAttribute("data-value", valued ? String(n.data) : "");
    node.setAttribute("data-grad", reached ? String(n.grad) : "");
    const title = `${n.label}: ${opName(n)}, value ${valued ? num(n.data) : "not computed yet"}, grad ${reached ? num(n.grad) : "not reached yet"}`;
    node.append(svg("title", {}, title));
    node.append(svg("rect", { width: box.w, height: box.h, rx: 8, class: "gx-card" }));
    const shortLabel = n.label.length > LABEL_CHARS ? `${n.label.slice(0, LABEL_CHARS - 1)}…` : n.label;
    node.append(svg("text", { x: 10, y: 19, class: "gx-label" }, shortLabel));
    node.append(svg("text", { x: box.w - 10, y: 19, "text-anchor": "end", class: "gx-op" }, opSymbol(n)));
    const tag = n.derived
      ? "derived"
      : n.op === "**"
        ? "const exponent"
        : n.kind === "constant"
          ? "constant"
          : "";
    if (tag) node.append(svg("text", { x: box.w - 10, y: 34, "text-anchor": "end", class: "gx-tag" }, tag));
    node.append(svg("text", { x: 10, y: 47, class: "gx-value" }, `value ${valued ? num(n.data) : "--"}`));
    node.append(svg("text", { x: 10, y: 65, class: "gx-grad" }, `grad ${reached ? num(n.grad) : "--"}`));
    return node;
  }

  drawTable(view, snap) {
    const byId = new Map(view.nodes.map((n) => [n.id, n]));
    const nodes = el(
      "table",
      {},
      el("caption", { text: `Nodes of ${this.result.expression}, inputs first` }),
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          ...["Node", "Operation", "Value", "Grad"].map((h) => el("th", { scope: "col", text: h })),
        ),
      ),
      el(
        "tbody",
        {},
        ...view.nodes.map((n) =>
          el(
            "tr",
            {},
            el("th", { scope: "row" }, el("code", { text: n.label })),
            el("td", { text: opName(n) }),
            el("td", { text: snap.valued.has(n.id) ? num(n.data) : "--" }),
            el("td", { text: snap.reached.has(n.id) ? num(n.grad) : "--" }),
          ),
        ),
      ),
    );
    const edges = el(
      "table",
      {},
      el("caption", {
        text: "Arrows: input → result, with the chain rule once the gradient has flowed back",
      }),
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          ...["Input", "Result", "Local derivative", "Incoming grad × local = contribution"].map((h) =>
            el("th", { scope: "col", text: h }),
          ),
        ),
      ),
      el(
        "tbody",
        {},
        ...view.edges.map((e) =>
          el(
            "tr",
            {},
            el("td", {}, el("code", { text: byId.get(e.source).label })),
            el("td", {}, el("code", { text: byId.get(e.target).label })),
            el("td", { text: num(e.local_grad) }),
            el("td", { text: snap.sent.has(e.id) ? chainFormula(e, byId.get(e.target).grad) : "--" }),
          ),
        ),
      ),
    );
    this.table.textContent = "";
    this.table.append(nodes, edges);
  }
}

/** Mount an explorer on every [data-explorer] under `root` that has none yet. */
export function mountExplorers(root, engine) {
  const found = [...root.querySelectorAll("[data-explorer]:not([data-mounted])")];
  return found.map((node) => {
    node.setAttribute("data-mounted", "");
    return new Explorer(node, engine);
  });
}
