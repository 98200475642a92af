// The 3-D view of an explorer: its switch ([data-action=view-3d], aria-pressed), its stage
// and the turning by drag or arrow keys. It shows the same step of the same timeline as the
// 2-D view (the explorer hands it every render); the 2-D drawing stays in the page, hidden,
// and the table under both stays the text alternative.
//
// three.js is heavy, so the scene (scene3d.js) is a chunk of its own, fetched the first
// time a reader turns 3-D on: pages whose readers never do never load it.

import { el, reducedMotion } from "./dom.js";
import { faces } from "./faces3d.js";
import { dragTurn, keyTurn, turn } from "./orbit.js";
import { t } from "../i18n.js";

// Why there is no 3-D view: the messages "explorer.noWebgl" and "explorer.noWebgl2".
export const NO_WEBGL = "explorer.noWebgl";
export const NO_WEBGL2 = "explorer.noWebgl2";
const STAGE_HEIGHT = { min: 240, max: 480 }; // CSS pixels

let support = null;

/** {ok, reason}: can this browser draw the 3-D view? Asked once per page, then freed. */
export function webglSupport() {
  if (support) return support;
  const canvas = document.createElement("canvas");
  const attempt = (kind) => {
    try {
      return canvas.getContext(kind);
    } catch {
      return null;
    }
  };
  const gl2 = attempt("webgl2");
  if (gl2) {
    gl2.getExtension("WEBGL_lose_context")?.loseContext(); // a page may hold only a few
    support = { ok: true };
  } else {
    // three.js draws with WebGL 2 only; say which one is missing.
    support = { ok: false, reason: attempt("webgl") ? NO_WEBGL2 : NO_WEBGL };
  }
  return support;
}

let loading = null;
function loadScene() {
  loading ??= import("./scene3d.js").catch((err) => {
    loading = null; // offline and never fetched: the next press tries again
    throw err;
  });
  return loading;
}

export class View3d {
  /** @param explorer  the Explorer (its root, canvas, id(), step, mode, go(), key()) */
  constructor(explorer) {
    this.explorer = explorer;
    this.on = false;
    this.presses = 0; // a slow first load may be overtaken by a later press
    this.scene = null;
    this.module = null;
    this.geometry = null;
    this.angles = { azimuth: 0, elevation: 0 };
    this.last = null; // {view, snap}: the step the explorer showed last
    this.build();
    const { ok, reason } = webglSupport();
    if (!ok) {
      this.button.disabled = true;
      this.say(t(reason));
    }
  }

  build() {
    const ex = this.explorer;
    this.note = el("span", {
      class: "gx-view3d__note",
      id: ex.id("view3d-note"),
      "aria-live": "polite",
      hidden: true,
    });
    this.button = el("button", {
      type: "button",
      class: "md-button gx-button",
      "data-action": "view-3d",
      "aria-pressed": "false",
      "aria-describedby": ex.id("view3d-note"),
      title: t("explorer.view3dTitle"),
      text: t("explorer.view3d"),
    });
    this.button.addEventListener("click", () => (this.on ? this.switchOff() : this.switchOn()));
    const place = ex.root.querySelector(".gx-toggles") ?? ex.root;
    place.append(el("span", { class: "gx-view3d" }, this.button, this.note));

    this.stage = el("div", {
      class: "gx-stage",
      tabindex: "0",
      role: "group",
      "aria-label": t("explorer.stageLabel"),
      hidden: true,
    });
    this.hint = el("p", {
      class: "gx-stage__hint",
      text: t("explorer.stageHint"),
    });
    this.stage.dataset.azimuth = this.stage.dataset.elevation = "0";
    this.stage.addEventListener("keydown", (event) => this.key(event));
    ex.canvas.after(this.stage);
    this.stage.after(this.hint);
    this.hint.hidden = true;
  }

  /** A visible sentence beside the switch ("" hides it). */
  say(text) {
    this.note.textContent = text;
    this.note.hidden = !text;
  }

  async switchOn() {
    const press = ++this.presses;
    this.on = true;
    this.button.setAttribute("aria-pressed", "true");
    this.say(t("explorer.view3dLoading"));
    try {
      this.module = await loadScene();
    } catch (err) {
      this.fail(t("explorer.view3dFailed", { error: err.message || err }));
      return;
    }
    if (!this.on || press !== this.presses) return; // switched off (or on again) while it loaded
    const canvas = el("canvas", { role: "img", class: "gx-stage__canvas" });
    try {
      this.scene = new this.module.GraphScene(canvas);
      this.scene.angles = { ...this.angles }; // as the reader last left it
    } catch (err) {
      this.button.disabled = true;
      this.fail(t("explorer.webglFailed", { error: err.message || err }));
      return;
    }
    canvas.addEventListener("webglcontextlost", (event) => {
      if (canvas !== this.canvas) return; // switched off: its context was freed on purpose
      event.preventDefault();
      this.fail(t("explorer.webglLost"));
    });
    this.listenForDrags(canvas);
    this.stage.textContent = "";
    this.stage.append(canvas);
    this.canvas = canvas;
    this.say("");
    this.explorer.canvas.hidden = true;
    this.stage.hidden = false;
    this.hint.hidden = false;
    this.explorer.root.dataset.view = "3d";
    this.geometry = null;
    this.resizer = new ResizeObserver(() => this.fitStage());
    this.resizer.observe(this.stage);
    // The reader switches palettes (Material sets it on <body>): repaint in the new colours.
    this.palette = new MutationObserver(() => this.scene && this.paint(false));
    this.palette.observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
    this.paint(false);
  }

  switchOff() {
    this.on = false;
    this.button.setAttribute("aria-pressed", "false");
    this.stage.hidden = true;
    this.hint.hidden = true;
    this.explorer.canvas.hidden = false;
    this.explorer.root.dataset.view = "2d";
    this.resizer?.disconnect();
    this.palette?.disconnect();
    this.resizer = this.palette = null;
    const scene = this.scene;
    this.scene = null;
    this.canvas = null;
    this.geometry = null;
    scene?.dispose();
    if (!this.button.disabled) this.say("");
  }

  fail(message) {
    this.switchOff();
    this.say(message);
  }

  // -- the explorer's side -----------------------------------------------------------

  /** Called on every render of the explorer: the step to show, pulses if `animate`. */
  render(view, snap, animate) {
    this.last = { view, snap };
    if (this.scene) this.paint(animate);
  }

  /** A refused expression: nothing was built, so nothing is drawn. */
  clear() {
    this.last = null;
    if (this.scene) this.paint(false);
  }

  paint(animate) {
    const ex = this.explorer;
    if (!this.last || !ex.result || !ex.geometry) {
      this.scene.clear();
      this.scene.draw();
      this.geometry = null;
      for (const key of ["step", "mode", "valued", "reached", "pulses"]) delete this.stage.dataset[key];
      return;
    }
    const { view, snap } = this.last;
    if (ex.geometry !== this.geometry) {
      this.geometry = ex.geometry;
      this.scene.setGraph(view, ex.geometry);
      this.fitStage();
    }
    const pulses = this.scene.update(faces(view, snap, ex.toggles.locals), {
      backward: ex.mode === "backward",
      animate: animate && !reducedMotion(),
      theme: this.module.readTheme(ex.root),
    });
    // What the 3-D view shows, for tests and tools: the same step as the 2-D view's.
    Object.assign(this.stage.dataset, {
      step: String(ex.step),
      mode: ex.mode,
      valued: String(snap.valued.size),
      reached: String(snap.reached.size),
      pulses: String(pulses),
    });
    this.canvas.setAttribute(
      "aria-label",
      t("explorer.graph3dAria", { expression: ex.result.expression, count: view.nodes.length }),
    );
  }

  /** As wide as the explorer; as tall as the graph's shape asks, within limits. */
  fitStage() {
    if (!this.scene) return;
    if (!this.stage.isConnected) {
      this.switchOff(); // the page was left (instant navigation): free the WebGL context
      return;
    }
    const width = this.stage.clientWidth;
    const g = this.geometry;
    const wanted = g ? (width * g.height) / g.width + 60 : STAGE_HEIGHT.min;
    const height = Math.round(Math.max(STAGE_HEIGHT.min, Math.min(STAGE_HEIGHT.max, wanted)));
    if (width === this.width && height === this.height) return;
    this.width = width;
    this.height = height;
    this.canvas.style.height = `${height}px`;
    this.scene.resize(width, height);
  }

  // -- turning -----------------------------------------------------------------------

  turnBy(dAzimuth, dElevation) {
    this.angles = turn(this.angles, dAzimuth, dElevation);
    this.stage.dataset.azimuth = String(Math.round(this.angles.azimuth));
    this.stage.dataset.elevation = String(Math.round(this.angles.elevation));
    this.scene?.turnTo(this.angles);
  }

  listenForDrags(canvas) {
    let last = null;
    canvas.addEventListener("pointerdown", (event) => {
      if (event.button !== 0) return;
      last = { x: event.clientX, y: event.clientY };
      canvas.setPointerCapture(event.pointerId);
    });
    canvas.addEventListener("pointermove", (event) => {
      if (!last) return;
      const [da, de] = dragTurn(event.clientX - last.x, event.clientY - last.y);
      last = { x: event.clientX, y: event.clientY };
      this.turnBy(da, de);
    });
    const end = () => (last = null);
    canvas.addEventListener("pointerup", end);
    canvas.addEventListener("pointercancel", end);
  }

  key(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const ex = this.explorer;
    const turning = keyTurn(event.key);
    const actions = {
      0: () => this.turnBy(-this.angles.azimuth, -this.angles.elevation),
      PageDown: () => ex.go(ex.step + 1),
      PageUp: () => ex.go(ex.step - 1),
    };
    if (turning) {
      event.preventDefault();
      this.turnBy(...turning);
    } else if (actions[event.key]) {
      event.preventDefault();
      actions[event.key]();
    } else if ([" ", "Home", "End"].includes(event.key)) {
      ex.key(event); // the timeline's own keys, as on the 2-D graph
    }
  }
}
