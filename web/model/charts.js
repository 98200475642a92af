// The model explorer's charts: heatmaps (rows of coloured cells, one tab stop each, arrow
// keys inside, the number of a cell on hover and on focus), their legend, bar lists, a loss
// curve, and the tables that are every chart's text alternative.
// Colours are classes (model.css), nine steps a side, mixed from Material's background so
// both palettes work: blue below zero, orange above (told apart without red-green vision).

import { el } from "../explorer/dom.js";
import { fmt } from "./math.js";
import { t } from "../i18n.js";

const STEPS = 9;

/** The colour class of x on a scale whose ends are ±top (diverging) or 0..top (sequential). */
export function colourClass(x, top, diverging) {
  let q = top > 0 ? Math.min(STEPS, Math.round((Math.abs(x) / top) * STEPS)) : 0;
  // On a scale of sizes, only an exact 0 is left uncoloured: a tiny size still shows.
  if (q === 0 && !diverging && x !== 0) q = 1;
  if (q === 0) return "gm-c0";
  if (!diverging) return `gm-s${q}`;
  return x < 0 ? `gm-n${q}` : `gm-p${q}`;
}

/** A legend: the colour steps from -top to top (or 0 to top), with their ends written. */
export function legend(top, diverging, what) {
  const steps = [];
  if (diverging) for (let q = STEPS; q >= 1; q--) steps.push(`gm-n${q}`);
  steps.push("gm-c0");
  for (let q = 1; q <= STEPS; q++) steps.push(diverging ? `gm-p${q}` : `gm-s${q}`);
  const low = diverging ? `−${fmt(top)}` : "0";
  return el(
    "div",
    { class: "gm-legend" },
    el("span", { class: "gm-legend__end", text: low }),
    el(
      "span",
      { class: "gm-legend__bar", "aria-hidden": "true" },
      ...steps.map((c) => el("span", { class: c })),
    ),
    el("span", { class: "gm-legend__end", text: fmt(top) }),
    el("span", { class: "gm-legend__what", text: what }),
  );
}

let ids = 0;

/**
 * A heatmap: rows of cells (a row may be shorter than the widest: the rest stays empty).
 * One tab stop for the whole map; arrow keys, Home and End move between its cells; a
 * focused or hovered cell's number shows in the line under the map and is its aria-label.
 */
export class Heatmap {
  /** label: what the map shows (its group's name); describe(r, c, value) -> a cell's words. */
  constructor({ label, describe, diverging = false, cell = "1.1rem", attrs = {} }) {
    this.describe = describe;
    this.diverging = diverging;
    this.shape = "";
    this.cells = [];
    this.focus = [0, 0];
    this.grid = el("div", { class: "gm-grid", role: "group", "aria-label": label, ...attrs });
    this.grid.style.setProperty("--gm-cell", cell);
    this.scroll = el("div", { class: "gm-scroll" }, this.grid);
    this.readout = el("p", { class: "gm-readout", id: `gm-readout-${++ids}` });
    this.readout.textContent = t("model.readout");
    this.element = el("div", { class: "gm-heatmap" }, this.scroll, this.readout);
    // Whether the map is wider than its box changes with the page's width: look again then.
    // Observed, not measured on each update: a measure there would force a layout per map.
    const resized = new ResizeObserver(() => this.fitScroll());
    resized.observe(this.scroll);
    resized.observe(this.grid);
    this.grid.addEventListener("keydown", (e) => this.key(e));
    this.grid.addEventListener("focusin", (e) => this.show(e.target));
    this.grid.addEventListener("pointerover", (e) => this.show(e.target));
  }

  show(target) {
    const cell = target.closest?.(".gm-cell");
    if (!cell) return;
    this.readout.textContent = cell.getAttribute("aria-label");
    if (cell.tabIndex === 0 || cell === document.activeElement) {
      this.focus = [Number(cell.dataset.r), Number(cell.dataset.c)];
      this.rove(cell);
    }
  }

  /** Draw `rows` (lists of numbers) with labels; `top` is the colour scale's end. */
  update(rows, { rowLabels, colLabels, top }) {
    const width = Math.max(0, ...rows.map((r) => r.length));
    const shape = `${rows.map((r) => r.length).join(",")}|${rowLabels.join("")}|${colLabels.join("")}`;
    if (shape !== this.shape) this.build(rows, width, rowLabels, colLabels, shape);
    for (let r = 0; r < rows.length; r++) {
      for (let c = 0; c < rows[r].length; c++) {
        const cell = this.cells[r][c];
        const v = rows[r][c];
        cell.className = `gm-cell ${colourClass(v, top, this.diverging)}`;
        cell.setAttribute("aria-label", this.describe(r, c, v));
      }
    }
    const focused = this.grid.contains(document.activeElement) ? document.activeElement : null;
    if (focused) this.readout.textContent = focused.getAttribute("aria-label");
  }

  build(rows, width, rowLabels, colLabels, shape) {
    this.shape = shape;
    const hadFocus = this.grid.contains(document.activeElement);
    this.grid.style.setProperty("--gm-cols", width);
    const children = [el("span", { class: "gm-corner", "aria-hidden": "true" })];
    for (let c = 0; c < width; c++) {
      children.push(el("span", { class: "gm-collabel", "aria-hidden": "true", text: colLabels[c] ?? "" }));
    }
    this.cells = rows.map((row, r) => {
      children.push(el("span", { class: "gm-rowlabel", "aria-hidden": "true", text: rowLabels[r] ?? "" }));
      const line = row.map((_, c) => {
        const cell = el("span", { class: "gm-cell", role: "img", tabindex: "-1", "data-r": r, "data-c": c });
        children.push(cell);
        return cell;
      });
      for (let c = row.length; c < width; c++) children.push(el("span", { class: "gm-empty" }));
      return line;
    });
    this.grid.replaceChildren(...children);
    let [r, c] = this.focus;
    r = Math.min(r, this.cells.length - 1);
    c = r >= 0 ? Math.min(c, this.cells[r].length - 1) : -1;
    this.focus = [Math.max(r, 0), Math.max(c, 0)];
    const cell = this.at(...this.focus);
    if (cell) {
      this.rove(cell);
      if (hadFocus) cell.focus({ preventScroll: true });
    }
  }

  at(r, c) {
    return this.cells[r]?.[c] ?? null;
  }

  rove(cell) {
    for (const other of this.grid.querySelectorAll(".gm-cell[tabindex='0']")) other.tabIndex = -1;
    cell.tabIndex = 0;
  }

  key(event) {
    let [r, c] = this.focus;
    const moves = {
      ArrowLeft: () => (c -= 1),
      ArrowRight: () => (c += 1),
      ArrowUp: () => (r -= 1),
      ArrowDown: () => (r += 1),
      Home: () => (c = 0),
      End: () => (c = (this.cells[r]?.length ?? 1) - 1),
    };
    if (!moves[event.key]) return;
    event.preventDefault();
    moves[event.key]();
    r = Math.max(0, Math.min(r, this.cells.length - 1));
    // A shorter row (attention sees only the past): land on its last cell.
    c = Math.max(0, Math.min(c, this.cells[r].length - 1));
    const cell = this.at(r, c);
    if (!cell) return;
    this.focus = [r, c];
    this.rove(cell);
    cell.focus();
  }

  /** A map wider than its column scrolls in its own box, which then takes focus and a name. */
  fitScroll() {
    const wide = this.scroll.scrollWidth > this.scroll.clientWidth + 1;
    if (wide) {
      this.scroll.tabIndex = 0;
      this.scroll.setAttribute("role", "region");
      this.scroll.setAttribute(
        "aria-label",
        t("model.scrolls", { label: this.grid.getAttribute("aria-label") }),
      );
    } else {
      this.scroll.removeAttribute("tabindex");
      this.scroll.removeAttribute("role");
      this.scroll.removeAttribute("aria-label");
    }
  }
}

/** A table of numbers: rows × columns with their headers, for a <details> below a chart. */
export function numberTable(caption, rowLabels, colLabels, rows, corner = "") {
  const head = el(
    "tr",
    {},
    el("th", { scope: "col", text: corner }),
    ...colLabels.map((c) => el("th", { scope: "col", text: c })),
  );
  const body = rows.map((row, r) =>
    el(
      "tr",
      {},
      el("th", { scope: "row", text: rowLabels[r] }),
      ...colLabels.map((_, c) => el("td", { text: c < row.length ? fmt(row[c]) : "" })),
    ),
  );
  return el(
    "table",
    { class: "gm-table" },
    el("caption", { text: caption }),
    el("thead", {}, head),
    el("tbody", {}, ...body),
  );
}

/**
 * A <details> holding a chart's text alternative. Its tables are built only while it is
 * open (a redraw with it closed costs nothing): set(build) hands it a function that
 * returns the nodes to show.
 */
export class TextAlternative {
  constructor(summary = t("model.tableSummary")) {
    this.build = null;
    this.box = el("div", { class: "gm-scroll gm-tables" });
    this.element = el("details", { class: "gm-details" }, el("summary", { text: summary }), this.box);
    this.element.addEventListener("toggle", () => this.render());
  }

  set(build) {
    this.build = build;
    this.render();
  }

  render() {
    if (!this.element.open || !this.build) return;
    this.box.replaceChildren(...this.build());
    const wide = this.box.scrollWidth > this.box.clientWidth + 1;
    if (wide) {
      this.box.tabIndex = 0;
      this.box.setAttribute("role", "region");
      this.box.setAttribute("aria-label", t("model.tablesScroll"));
    } else this.box.removeAttribute("tabindex");
  }
}

/** A loss curve as SVG: losses against step, with the first and last numbers written. */
export function lossCurve(points, { steps, label }) {
  const W = 320;
  const H = 140;
  const pad = { l: 38, r: 8, t: 10, b: 24 };
  const svg = (tag, attrs) => {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    return node;
  };
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "gm-curve", role: "img", "aria-label": label });
  if (!points.length) return root;
  const ys = points.map((p) => p[1]);
  const lo = Math.min(...ys);
  const hi = Math.max(...ys);
  const span = hi - lo || 1;
  const last = Math.max(steps || 0, points[points.length - 1][0], 1);
  const x = (s) => pad.l + (s / last) * (W - pad.l - pad.r);
  const y = (v) => pad.t + (1 - (v - lo) / span) * (H - pad.t - pad.b);
  root.append(
    svg("line", { x1: pad.l, y1: H - pad.b, x2: W - pad.r, y2: H - pad.b, class: "gm-axis" }),
    svg("line", { x1: pad.l, y1: pad.t, x2: pad.l, y2: H - pad.b, class: "gm-axis" }),
    svg("polyline", {
      points: points.map(([s, v]) => `${x(s).toFixed(1)},${y(v).toFixed(1)}`).join(" "),
      class: "gm-line",
    }),
  );
  const text = (words, attrs) => Object.assign(svg("text", attrs), { textContent: words });
  root.append(
    text(fmt(hi), { x: pad.l - 4, y: pad.t + 8, "text-anchor": "end" }),
    text(fmt(lo), { x: pad.l - 4, y: H - pad.b, "text-anchor": "end" }),
    text(t("model.step", { step: 0 }), { x: pad.l, y: H - 6, "text-anchor": "start" }),
    text(t("model.step", { step: last }), { x: W - pad.r, y: H - 6, "text-anchor": "end" }),
  );
  return root;
}
