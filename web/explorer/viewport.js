// Zoom and pan for the explorer's drawing.
//
// The SVG keeps a viewBox of the whole graph; only its size on the page changes. A new
// graph starts fitted: scaled down (never up) so all of it is in the box, at any width.
// Zooming in makes the SVG larger than the box, which then scrolls: drag, the scroll
// bars, a touchpad or Shift+arrow keys pan it. Arrow labels too small to read at the
// current scale are hidden (the table below the graph has them all); zooming in shows them.

const STEP = 1.25; // one press of + or −
const MAX_SCALE = 3;
const LABEL_PX = 11; // the arrow labels' font size in the drawing (explorer.css)
const MIN_LABEL_PX = 8; // smaller than this on screen, arrow labels are hidden
export const LABEL_SCALE = MIN_LABEL_PX / LABEL_PX;
const PAN_PX = 60; // one Shift+arrow press

function button(action, text, label) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "md-button gx-button gx-zoom__button";
  b.dataset.zoom = action;
  b.textContent = text;
  b.setAttribute("aria-label", label);
  b.title = label;
  return b;
}

export class Viewport {
  /** @param canvas  the scrolling box the SVG is drawn in */
  constructor(canvas) {
    this.canvas = canvas;
    this.svg = null;
    this.geometry = null;
    this.scale = 1;
    this.fitted = true; // follow the box's width until the reader zooms
    this.buttons = {
      out: button("out", "−", "Zoom out (−)"),
      in: button("in", "+", "Zoom in (+)"),
      fit: button("fit", "Fit", "Fit the whole graph in view (0)"),
      actual: button("actual", "100 %", "100 %: actual size (1)"),
    };
    this.readout = document.createElement("output");
    this.readout.className = "gx-zoom__level";
    this.readout.setAttribute("aria-live", "polite");
    this.hint = document.createElement("span");
    this.hint.className = "gx-zoom__hint";
    this.hint.textContent = "Zoom in to read the arrows (the table lists them too)";
    this.hint.hidden = true;
    this.toolbar = document.createElement("div");
    this.toolbar.className = "gx-zoom";
    this.toolbar.setAttribute("role", "group");
    this.toolbar.setAttribute("aria-label", "Zoom");
    this.toolbar.append(...Object.values(this.buttons), this.readout, this.hint);
    this.buttons.out.addEventListener("click", () => this.zoomBy(1 / STEP));
    this.buttons.in.addEventListener("click", () => this.zoomBy(STEP));
    this.buttons.fit.addEventListener("click", () => this.fit());
    this.buttons.actual.addEventListener("click", () => this.zoomTo(1));
    canvas.addEventListener("keydown", (event) => this.key(event));
    canvas.addEventListener("wheel", (event) => this.wheel(event), { passive: false });
    this.dragging(canvas);
    if (typeof ResizeObserver === "function") {
      let width = 0;
      new ResizeObserver(() => {
        if (canvas.clientWidth === width) return;
        width = canvas.clientWidth;
        if (this.fitted) this.fit();
      }).observe(canvas);
    }
  }

  /** Put `svg` (drawn for `geometry`) in the box; a new graph starts fitted. */
  show(svg, geometry) {
    const left = this.canvas.scrollLeft;
    const top = this.canvas.scrollTop;
    const fresh = geometry !== this.geometry;
    this.svg = svg;
    this.geometry = geometry;
    this.canvas.textContent = "";
    this.canvas.append(svg);
    if (fresh || this.fitted) {
      this.fit();
    } else {
      this.apply();
      this.canvas.scrollLeft = left;
      this.canvas.scrollTop = top;
    }
  }

  /** The largest scale, at most 1, at which the whole graph fits the box. */
  fitScale() {
    const g = this.geometry;
    if (!g) return 1;
    const style = getComputedStyle(this.canvas);
    const width = this.canvas.clientWidth - 2; // sub-pixel rounding must not add a scroll bar
    if (width <= 0) return this.scale; // hidden (the 3-D view is on): fitted again when shown
    const tallest = parseFloat(style.maxHeight) || Infinity;
    return Math.min(1, width / g.width, (tallest - 2) / g.height);
  }

  fit() {
    this.fitted = true;
    this.scale = this.fitScale();
    this.apply();
  }

  zoomTo(scale, anchor) {
    if (!this.svg || !this.geometry) return;
    const lowest = Math.min(this.fitScale(), 1);
    const next = Math.max(lowest, Math.min(MAX_SCALE, scale));
    // Keep the point of the graph under `anchor` (the box's centre by default) in place.
    const box = this.canvas.getBoundingClientRect();
    const ax = anchor ? anchor.x - box.left : this.canvas.clientWidth / 2;
    const ay = anchor ? anchor.y - box.top : this.canvas.clientHeight / 2;
    const drawn = this.svg.getBoundingClientRect();
    const gx = (box.left + ax - drawn.left) / this.scale;
    const gy = (box.top + ay - drawn.top) / this.scale;
    this.scale = next;
    this.fitted = false;
    this.apply();
    this.canvas.scrollLeft = gx * next - ax;
    this.canvas.scrollTop = gy * next - ay;
  }

  zoomBy(factor, anchor) {
    this.zoomTo(this.scale * factor, anchor);
  }

  apply() {
    const g = this.geometry;
    if (!this.svg || !g) return;
    this.svg.setAttribute("width", String(Math.floor(g.width * this.scale)));
    this.svg.setAttribute("height", String(Math.floor(g.height * this.scale)));
    const small = this.scale < LABEL_SCALE;
    this.canvas.dataset.labels = small ? "hidden" : "shown";
    this.canvas.dataset.scale = this.scale.toFixed(3);
    this.hint.hidden = !small;
    this.readout.textContent = `${Math.round(this.scale * 100)} %`;
    const lowest = Math.min(this.fitScale(), 1);
    this.buttons.out.disabled = this.scale <= lowest + 1e-6;
    this.buttons.in.disabled = this.scale >= MAX_SCALE - 1e-6;
  }

  key(event) {
    if (event.altKey || event.metaKey || event.ctrlKey) return;
    const pan = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const act = {
      "+": () => this.zoomBy(STEP),
      "=": () => this.zoomBy(STEP),
      "-": () => this.zoomBy(1 / STEP),
      0: () => this.fit(),
      1: () => this.zoomTo(1),
    }[event.key];
    if (event.shiftKey && pan[event.key]) {
      // Plain arrows step the timeline; with Shift they pan.
      const [dx, dy] = pan[event.key];
      this.canvas.scrollBy(dx * PAN_PX, dy * PAN_PX);
      event.stopImmediatePropagation();
      event.preventDefault();
    } else if (act) {
      act();
      event.preventDefault();
    }
  }

  /** Ctrl + wheel (and a touchpad's pinch, which browsers send as one) zooms at the pointer. */
  wheel(event) {
    if (!event.ctrlKey || !this.geometry) return;
    event.preventDefault();
    this.zoomBy(event.deltaY < 0 ? STEP : 1 / STEP, { x: event.clientX, y: event.clientY });
  }

  /** Drag with the mouse to pan a graph larger than its box (touch scrolls natively). */
  dragging(canvas) {
    let from = null;
    canvas.addEventListener("pointerdown", (event) => {
      if (event.pointerType === "touch" || event.button !== 0) return;
      if (canvas.scrollWidth <= canvas.clientWidth && canvas.scrollHeight <= canvas.clientHeight) return;
      from = { x: event.clientX, y: event.clientY, left: canvas.scrollLeft, top: canvas.scrollTop };
      canvas.setPointerCapture?.(event.pointerId);
      canvas.dataset.dragging = "";
    });
    canvas.addEventListener("pointermove", (event) => {
      if (!from) return;
      canvas.scrollLeft = from.left - (event.clientX - from.x);
      canvas.scrollTop = from.top - (event.clientY - from.y);
    });
    const stop = () => {
      from = null;
      delete canvas.dataset.dragging;
    };
    canvas.addEventListener("pointerup", stop);
    canvas.addEventListener("pointercancel", stop);
  }
}
