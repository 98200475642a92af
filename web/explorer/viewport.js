// Zoom and pan for the explorer's drawing.
//
// The SVG keeps a viewBox of the whole graph; only its size on the page changes. A new
// graph starts fitted: scaled down (never up) so all of it is in the box. On a narrow
// screen (a phone) it is never scaled below the size at which its cards' text can be
// read (READABLE_SCALE): a larger graph pans instead, and Fit shows all of it at once.
// A graph larger than the box scrolls: drag, the scroll bars, a touchpad, a swipe or
// Shift+arrow keys pan it. Arrow labels too small to read at the current scale are hidden
// (the table below the graph has them all); zooming in shows them.

import { reducedMotion } from "./dom.js";
import { t } from "../i18n.js";

const STEP = 1.25; // one press of + or −
const MAX_SCALE = 3;
const LABEL_PX = 11; // the arrow labels' font size in the drawing (explorer.css)
const MIN_LABEL_PX = 8; // smaller than this on screen, arrow labels are hidden
export const LABEL_SCALE = MIN_LABEL_PX / LABEL_PX;
const CARD_TEXT_PX = 12; // a card's value and grad (explorer.css); its label is 13 px
const MIN_CARD_TEXT_PX = 11; // the smallest a phone draws them when it starts a graph
export const READABLE_SCALE = Math.ceil((MIN_CARD_TEXT_PX / CARD_TEXT_PX) * 100) / 100;
/** Material's breakpoint below which the page is a phone's: one column, no sidebars. */
export const NARROW = "(max-width: 44.9375em)";
const PAN_PX = 60; // one Shift+arrow press

const HINTS = { labels: "explorer.hint.labels", pan: "explorer.hint.pan" };

/** The screen is a phone's (Material's one-column layout). */
export function narrow() {
  return window.matchMedia?.(NARROW).matches ?? false;
}

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
    // Follow the box's width until the reader zooms: "start" (fitted, but readable on a
    // phone) for a new graph, "fit" (all of it) after Fit, null once zoomed.
    this.follow = "start";
    this.buttons = {
      out: button("out", "−", t("explorer.zoomOut")),
      in: button("in", "+", t("explorer.zoomIn")),
      fit: button("fit", t("explorer.fit"), t("explorer.fitTitle")),
      actual: button("actual", "100 %", t("explorer.actualTitle")),
    };
    this.readout = document.createElement("output");
    this.readout.className = "gx-zoom__level";
    this.readout.setAttribute("aria-live", "polite");
    this.hint = document.createElement("span");
    this.hint.className = "gx-zoom__hint";
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
        if (this.follow) this.refit();
      }).observe(canvas);
    }
  }

  /** Put `svg` (drawn for `geometry`) in the box; a new graph starts fitted (readable). */
  show(svg, geometry) {
    const left = this.canvas.scrollLeft;
    const top = this.canvas.scrollTop;
    const fresh = geometry !== this.geometry;
    this.svg = svg;
    this.geometry = geometry;
    this.canvas.textContent = "";
    this.canvas.append(svg);
    if (fresh) this.follow = "start";
    if (this.follow) {
      this.refit();
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

  /** The scale a new graph starts at: fitted, but on a phone no smaller than readable. */
  startScale() {
    const fitted = this.fitScale();
    return narrow() ? Math.min(1, Math.max(fitted, READABLE_SCALE)) : fitted;
  }

  /** Scale the whole graph into the box, however small its text becomes. */
  fit() {
    this.follow = "fit";
    this.refit();
  }

  /** Apply the scale the view follows ("start" or "fit") for the box's width now. */
  refit() {
    this.scale = this.follow === "fit" ? this.fitScale() : this.startScale();
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
    this.follow = null;
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
    const overflows = this.canvas.scrollWidth > this.canvas.clientWidth + 1;
    const hint = small ? t(HINTS.labels) : overflows && this.follow === "start" ? t(HINTS.pan) : "";
    this.hint.textContent = hint;
    this.hint.hidden = !hint;
    this.readout.textContent = `${Math.round(this.scale * 100)} %`;
    const lowest = Math.min(this.fitScale(), 1);
    this.buttons.out.disabled = this.scale <= lowest + 1e-6;
    this.buttons.in.disabled = this.scale >= MAX_SCALE - 1e-6;
  }

  /** Scroll the box the least that brings `elements` (cards of the drawing) into view. */
  reveal(elements) {
    const rects = [...elements].map((e) => e.getBoundingClientRect());
    if (!rects.length || this.canvas.hidden) return;
    const box = this.canvas.getBoundingClientRect();
    const shift = (low, high, from, size) => {
      if (high - low > size) return low - from; // larger than the box: its start
      if (low < from) return low - from;
      if (high > from + size) return high - (from + size);
      return 0;
    };
    const margin = 8;
    const left = Math.min(...rects.map((r) => r.left)) - margin;
    const right = Math.max(...rects.map((r) => r.right)) + margin;
    const top = Math.min(...rects.map((r) => r.top)) - margin;
    const bottom = Math.max(...rects.map((r) => r.bottom)) + margin;
    const dx = shift(left, right, box.left, this.canvas.clientWidth);
    const dy = shift(top, bottom, box.top, this.canvas.clientHeight);
    if (dx || dy) this.canvas.scrollBy({ left: dx, top: dy, behavior: reducedMotion() ? "auto" : "smooth" });
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
